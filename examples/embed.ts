// Embedding calendar-engine in a Node process: run with `node --import tsx examples/embed.ts`.
import { openCalendar, CalendarError } from 'calendar-engine';

const cal = await openCalendar({ timezone: 'Europe/Paris', perPage: 12 }); // add dir: './data/store' to persist

// Writes take REST field names; omit `as` to act with administrator rights.
const jazz = await cal.categories.create({ name: 'Jazz' });
const ev = await cal.events.create({
  title: 'Launch party',
  start_date: 'tomorrow 7pm', // natural language, read in the event's (or the site's) time zone
  end_date: 'tomorrow 11pm',
  venue: { venue: 'Le Duc des Lombards', city: 'Paris', country: 'France', geo_lat: 48.8594, geo_lng: 2.3484 },
  organizer: [{ organizer: 'Night Owls', email: 'hello@example.org' }],
  categories: [jazz.id],
  cost: '15€',
});
console.log(ev.id, ev.start_date, ev.utc_start_date, ev.timezone_abbr, ev.cost);

// Lists take REST query names and return exactly the REST representations.
const page = await cal.events.list({
  categories: 'jazz',
  geoloc_lat: 48.86,
  geoloc_lng: 2.35,
  geoloc_radius: 5,
  geoloc_unit: 'km',
});
console.log(
  page.total,
  page.totalPages,
  page.items.map((e) => e.title),
);

// Act as someone else: a login, { role } or null (anonymous).
try {
  await cal.events.delete(ev.id as number, null);
} catch (e) {
  if (e instanceof CalendarError) console.log(e.status, e.code); // 401 rest_forbidden
}

await cal.close();
