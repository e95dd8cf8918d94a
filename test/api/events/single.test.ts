// Event deletes and single reads through the embedding API: trash, 410 on a second delete, GET by
// id and by slug with the full representation (json_ld included).
import * as assert from 'uvu/assert';
import { suite } from 'uvu';
import { baseEvent, makeCalendar, rejects } from '../../helpers/calendar.ts';
import { ROOT, addAttachment, type Obj } from './fixtures.ts';

const del = suite('events :: delete and single reads');

del('delete trashes (200), second delete 410, GET after trash 403', async () => {
  const { cal, users } = await makeCalendar();
  const ev = await cal.events.create(baseEvent);
  await rejects(cal.events.delete(ev.id as number, null), 'rest_forbidden', 401);
  const gone = await cal.events.delete(ev.id as number);
  assert.is(gone.status, 'trash');
  assert.is(gone.slug, 'an-event__trashed');
  assert.not.ok('json_ld' in gone);
  await rejects(cal.events.delete(ev.id as number), 'event-is-in-trash', 410);
  await rejects(cal.events.get(ev.id as number), 'event-no-longer-available', 403);
  await rejects(cal.events.get(ev.id as number, users.editor.login), 'event-no-longer-available', 403);
  await rejects(cal.events.delete(23), 'rest-event-not-found', 404);
  const draft = await cal.events.create(baseEvent, users.contributor.login);
  assert.is((await cal.events.delete(draft.id as number, users.contributor.login)).status, 'trash');
});

del('single GET: 404 for 0 and unknown ids, 400 for another post type, 403 for unreadable drafts', async () => {
  const { cal, users } = await makeCalendar();
  await rejects(cal.events.get(0), 'rest-event-not-found', 404);
  await rejects(cal.events.get(13), 'rest-event-not-found', 404);
  const v = await cal.venues.create({ venue: 'Not an event' });
  await rejects(cal.events.get(v.id as number), 'rest-invalid-event-id', 400);
  const draft = await cal.events.create({ ...baseEvent, status: 'draft', slug: 'drafty' });
  await rejects(cal.events.get(draft.id as number, null), 'event-not-accessible', 403);
  await rejects(cal.events.get('drafty', null), 'event-not-accessible', 403);
  assert.is((await cal.events.get(draft.id as number, users.editor.login)).id, draft.id);
  await rejects(cal.events.get('no-such-slug'), 'rest_invalid_param', 400);
});

del('single GET carries json_ld, also on the embedded venue and organizers', async () => {
  const { cal } = await makeCalendar({ timezone: 'America/New_York' });
  const ev = await cal.events.create({
    ...baseEvent,
    cost: '$23',
    venue: { venue: 'V', city: 'Town' },
    organizer: [{ organizer: 'O', email: 'o@example.com' }],
  });
  const one = await cal.events.get(ev.id as number, null);
  const ld = one.json_ld as Record<string, unknown>;
  assert.is(ld['@type'], 'Event');
  assert.is(ld.startDate, '2026-03-05T09:00:00-05:00');
  assert.is(ld.name, 'An event');
  assert.ok((one.venue as Record<string, unknown>).json_ld);
  assert.ok((one.organizer as Array<Record<string, unknown>>)[0].json_ld);
  assert.is(Object.keys(one).at(-1), 'json_ld');
});

del('fully populated event: GET by id and by-slug carry the full representation', async () => {
  const { cal, users } = await makeCalendar({ timezone: 'America/New_York' });
  const imageUrl = 'http://example.com/wp-content/uploads/images/image.png';
  const imageId = addAttachment(cal, imageUrl, 'png');
  const venue = await cal.venues.create({
    venue: 'Venue 01',
    description: 'Venue 01 description',
    excerpt: 'Venue 01 excerpt',
    slug: 'venue-01',
    address: 'address',
    city: 'city',
    country: 'country',
    province: 'province',
    state: 'state',
    zip: 'zip',
    phone: 'phone',
    website: 'http://venue.example.org',
    stateprovince: 'state_province',
  });
  const organizer = await cal.organizers.create({
    organizer: 'Organizer 01',
    description: 'Organizer 01 description',
    excerpt: 'Organizer 01 excerpt',
    slug: 'organizer-01',
    phone: 'phone',
    website: 'http://organizer.example.org',
    email: 'organizer@example.org',
  });
  const tags = [
    await cal.tags.create({ name: 'tag-1', description: 'Tag 1 description' }),
    await cal.tags.create({ name: 'tag-2', description: 'Tag 2 description' }),
  ];
  const cats = [
    await cal.categories.create({ name: 'category-1', description: 'Category 1 description' }),
    await cal.categories.create({ name: 'category-2', description: 'Category 2 description' }),
  ];
  const created = await cal.events.create({
    title: 'Event 01',
    slug: 'event-01',
    description: 'Event 01 description',
    excerpt: 'Event 01 excerpt',
    author: users.author.id,
    date: '2017-01-05 14:23:36',
    timezone: 'America/New_York',
    start_date: '2017-01-05 14:23:36',
    end_date: '2017-01-05 16:23:36',
    cost: '$23',
    website: 'http://tri.be',
    show_map: true,
    show_map_link: true,
    image: imageId,
    venue: venue.id,
    organizer: [organizer.id],
    tags: tags.map((t) => t.id),
    categories: cats.map((c) => c.id),
  });
  const id = created.id as number;
  const ev = await cal.events.get(id, null);
  assert.is(ev.id, id);
  assert.is(ev.author, String(users.author.id));
  assert.equal([ev.date, ev.date_utc], ['2017-01-05 14:23:36', '2017-01-05 19:23:36']);
  // modified = the write's clock: 2026-03-04 15:00 UTC, 10:00 EST
  assert.equal([ev.modified, ev.modified_utc], ['2026-03-04 10:00:00', '2026-03-04 15:00:00']);
  assert.is(ev.status, 'publish');
  assert.is(ev.url, 'http://example.com/event/event-01/');
  assert.is(ev.rest_url, `${ROOT}events/${id}`);
  assert.is(ev.title, 'Event 01');
  assert.is(ev.description, '<p>Event 01 description</p>');
  assert.is(ev.excerpt, '<p>Event 01 excerpt</p>');
  assert.is(ev.slug, 'event-01');
  assert.equal(ev.image, { url: imageUrl, id: imageId, extension: 'png' });
  assert.is(ev.all_day, false);
  assert.is(ev.start_date, '2017-01-05 14:23:36');
  assert.equal(ev.start_date_details, {
    year: '2017',
    month: '01',
    day: '05',
    hour: '14',
    minutes: '23',
    seconds: '36',
  });
  assert.is(ev.end_date, '2017-01-05 16:23:36');
  assert.equal(ev.end_date_details, { year: '2017', month: '01', day: '05', hour: '16', minutes: '23', seconds: '36' });
  assert.is(ev.utc_start_date, '2017-01-05 19:23:36');
  assert.equal(ev.utc_start_date_details, {
    year: '2017',
    month: '01',
    day: '05',
    hour: '19',
    minutes: '23',
    seconds: '36',
  });
  assert.is(ev.utc_end_date, '2017-01-05 21:23:36');
  assert.equal(ev.utc_end_date_details, {
    year: '2017',
    month: '01',
    day: '05',
    hour: '21',
    minutes: '23',
    seconds: '36',
  });
  assert.equal([ev.timezone, ev.timezone_abbr], ['America/New_York', 'EST']);
  assert.is(ev.cost, '$23');
  assert.equal(ev.cost_details, {
    currency_symbol: '$',
    currency_code: '',
    currency_position: 'prefix',
    values: ['23'],
  });
  assert.is(ev.website, 'http://tri.be');
  assert.equal(
    [ev.show_map, ev.show_map_link, ev.hide_from_listings, ev.sticky, ev.featured],
    [true, true, false, false, false],
  );

  // the embedded venue and organizer are the full objects (single context: with their own json_ld)
  const v = ev.venue as Obj;
  assert.equal(v, await cal.venues.get(venue.id as number, null));
  assert.equal(
    [v.id, v.venue, v.stateprovince, v.province, v.state, v.address, v.zip, v.phone, v.website],
    [
      venue.id,
      'Venue 01',
      'state_province',
      'province',
      'state',
      'address',
      'zip',
      'phone',
      'http://venue.example.org',
    ],
  );
  const orgs = ev.organizer as Obj[];
  assert.is(orgs.length, 1);
  assert.equal(orgs[0], await cal.organizers.get(organizer.id as number, null));
  assert.equal(
    [orgs[0].id, orgs[0].organizer, orgs[0].email, orgs[0].phone, orgs[0].website, orgs[0].description],
    [
      organizer.id,
      'Organizer 01',
      'organizer@example.org',
      'phone',
      'http://organizer.example.org',
      '<p>Organizer 01 description</p>',
    ],
  );

  const termFields = (xs: unknown) => (xs as Obj[]).map((t) => [t.id, t.name, t.slug, t.taxonomy, t.description]);
  assert.equal(termFields(ev.tags), [
    [tags[0].id, 'tag-1', 'tag-1', 'post_tag', 'Tag 1 description'],
    [tags[1].id, 'tag-2', 'tag-2', 'post_tag', 'Tag 2 description'],
  ]);
  assert.equal(termFields(ev.categories), [
    [cats[0].id, 'category-1', 'category-1', 'tribe_events_cat', 'Category 1 description'],
    [cats[1].id, 'category-2', 'category-2', 'tribe_events_cat', 'Category 2 description'],
  ]);
  for (const t of ev.tags as Obj[]) assert.equal(t.urls, { self: `${ROOT}tags/${t.id}`, collection: `${ROOT}tags` });
  for (const c of ev.categories as Obj[])
    assert.equal(c.urls, { self: `${ROOT}categories/${c.id}`, collection: `${ROOT}categories` });

  assert.ok('json_ld' in ev);
  assert.is((ev.json_ld as Obj)['@type'], 'Event');
  // by slug: the same answer
  assert.equal(await cal.events.get('event-01', null), ev);
});

del('by-slug with the slug of a venue or an organizer → 400 rest_invalid_param', async () => {
  const { cal } = await makeCalendar();
  const venue = await cal.venues.create({ venue: 'Some venue' });
  const organizer = await cal.organizers.create({ organizer: 'Some organizer' });
  await cal.events.create(baseEvent);
  assert.is(venue.slug, 'some-venue');
  await rejects(cal.events.get(venue.slug as string, null), 'rest_invalid_param', 400);
  await rejects(cal.events.get(organizer.slug as string, null), 'rest_invalid_param', 400);
  await rejects(cal.events.get(venue.slug as string), 'rest_invalid_param', 400);
});

del.run();
