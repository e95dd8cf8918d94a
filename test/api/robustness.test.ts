// Bad input of every kind: every field and parameter of every resource gets hostile values
// (wrong types, nesting, huge strings, prototype keys...). Each call must either succeed or
// throw a CalendarError with a 4xx status — never a plain exception, never a 5xx — and a failed
// write must leave the calendar exactly as it was.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CalendarError } from '../../src/api/wordpress/errors.ts';
import { baseEvent, makeCalendar } from '../helpers/calendar.ts';

const WEIRD: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  1e308,
  NaN,
  '',
  ' ',
  'foo',
  '-1',
  '0',
  '99999999999999999999',
  'x'.repeat(10_000),
  '<script>alert(1)</script>',
  '2026-13-45 25:61:61',
  '@',
  '\u0000',
  'ä😀',
  [],
  [null],
  [[1]],
  ['a', 'b'],
  {},
  { id: 'x' },
  { id: -1 },
  { venue: {} },
  { organizer: [] },
  { __proto__: { polluted: 1 } },
  JSON.parse('{"__proto__":{"x":1}}'),
];

const EVENT_FIELDS = [
  'title',
  'description',
  'excerpt',
  'slug',
  'status',
  'author',
  'date',
  'date_utc',
  'start_date',
  'end_date',
  'timezone',
  'all_day',
  'image',
  'cost',
  'website',
  'show_map',
  'show_map_link',
  'hide_from_listings',
  'sticky',
  'featured',
  'ticketed',
  'categories',
  'tags',
  'venue',
  'organizer',
  'post_parent',
];
const VENUE_FIELDS = [
  'venue',
  'description',
  'status',
  'author',
  'date',
  'date_utc',
  'address',
  'city',
  'country',
  'province',
  'state',
  'zip',
  'phone',
  'stateprovince',
  'website',
  'show_map',
  'show_map_link',
  'image',
  'geo_lat',
  'geo_lng',
  'slug',
];
const ORGANIZER_FIELDS = [
  'organizer',
  'description',
  'status',
  'author',
  'date',
  'date_utc',
  'phone',
  'email',
  'website',
  'image',
  'slug',
];
const TERM_FIELDS = ['name', 'description', 'slug', 'parent'];
const EVENT_LIST = [
  'page',
  'per_page',
  'start_date',
  'end_date',
  'starts_before',
  'starts_after',
  'ends_before',
  'ends_after',
  'strict_dates',
  'search',
  'categories',
  'tags',
  'venue',
  'organizer',
  'featured',
  'status',
  'geoloc',
  'geoloc_lat',
  'geoloc_lng',
  'geoloc_radius',
  'geoloc_unit',
  'include',
  'post_parent',
  'ticket',
  'ticketed',
];
const LINKED_LIST = ['page', 'per_page', 'search', 'event', 'has_events', 'only_with_upcoming', 'status'];
const TERM_LIST = [
  'page',
  'per_page',
  'search',
  'exclude',
  'include',
  'order',
  'orderby',
  'hide_empty',
  'parent',
  'post',
  'event',
  'slug',
];

async function survives(label: string, call: () => Promise<unknown>): Promise<void> {
  try {
    await call();
  } catch (e) {
    if (!(e instanceof CalendarError)) throw new Error(`${label}: plain exception ${String(e)}`);
    assert.ok(e.status >= 400 && e.status < 500, `${label}: status ${e.status} (${e.code})`);
  }
}

const robust = suite('robustness');

robust('hostile values in every write field and list parameter', async () => {
  const { cal } = await makeCalendar();
  const venue = await cal.venues.create({ venue: 'Base venue' });
  const organizer = await cal.organizers.create({ organizer: 'Base organizer' });
  const cat = await cal.categories.create({ name: 'Base category' });
  const tag = await cal.tags.create({ name: 'Base tag' });
  const ev = await cal.events.create({
    ...baseEvent,
    venue: venue.id,
    organizer: [organizer.id],
    categories: [cat.id],
  });
  const snapshot = async () =>
    JSON.stringify([
      await cal.events.get(ev.id as number),
      await cal.venues.get(venue.id as number),
      await cal.organizers.get(organizer.id as number),
      await cal.categories.get(cat.id as number),
      await cal.tags.get(tag.id as number),
    ]);

  for (const value of WEIRD) {
    const v = JSON.stringify(value)?.slice(0, 30);
    for (const f of EVENT_FIELDS) {
      await survives(`event create ${f}=${v}`, () => cal.events.create({ ...baseEvent, [f]: value }));
      const before = await snapshot();
      await survives(`event update ${f}=${v}`, () =>
        cal.events.update(ev.id as number, { [f]: value, website: 'bad url' }),
      );
      assert.is(await snapshot(), before, `failed event update ${f}=${v} changed nothing`);
    }
    for (const f of VENUE_FIELDS) {
      await survives(`venue create ${f}=${v}`, () => cal.venues.create({ venue: 'Weird venue', [f]: value }));
      await survives(`venue update ${f}=${v}`, () => cal.venues.update(venue.id as number, { [f]: value }));
    }
    for (const f of ORGANIZER_FIELDS) {
      await survives(`organizer create ${f}=${v}`, () =>
        cal.organizers.create({ organizer: 'Weird organizer', [f]: value }),
      );
      await survives(`organizer update ${f}=${v}`, () => cal.organizers.update(organizer.id as number, { [f]: value }));
    }
    for (const f of TERM_FIELDS) {
      await survives(`category create ${f}=${v}`, () =>
        cal.categories.create({ name: `c ${Math.random()}`, [f]: value }),
      );
      await survives(`tag update ${f}=${v}`, () => cal.tags.update(tag.id as number, { [f]: value }));
    }
    for (const p of EVENT_LIST) await survives(`events list ${p}=${v}`, () => cal.events.list({ [p]: value }, null));
    for (const p of LINKED_LIST) {
      await survives(`venues list ${p}=${v}`, () => cal.venues.list({ [p]: value }));
      await survives(`organizers list ${p}=${v}`, () => cal.organizers.list({ [p]: value }, null));
    }
    for (const p of TERM_LIST) await survives(`categories list ${p}=${v}`, () => cal.categories.list({ [p]: value }));
    for (const target of [value as string, String(value)]) {
      if (typeof target !== 'string' && typeof target !== 'number') continue;
      await survives(`get ${v}`, () => cal.events.get(target));
      await survives(`venue get ${v}`, () => cal.venues.get(target));
    }
  }
  assert.is(({} as Record<string, unknown>).polluted, undefined, 'no prototype pollution');
  assert.is(({} as Record<string, unknown>).x, undefined, 'no prototype pollution');
});

robust.run();
