// Event creates through the embedding API (docs/behaviour.md), with the plugin's own create cases
// (images, generated fields, terms, inline venues, natural-language dates per zone), and the
// venues, organizers and terms an event links to. Clock: Wednesday 2026-03-04 15:00 UTC (10:00
// New York, EST; New York switches to EDT on 2026-03-08).
import * as assert from 'uvu/assert';
import { suite } from 'uvu';
import { baseEvent, makeCalendar, rejects } from '../../helpers/calendar.ts';
import {
  JPG_URL,
  BAD_IMAGES,
  addAttachment,
  ids,
  names,
  imageOf,
  GENERATED,
  assertGenerated,
  INLINE_VENUES,
  assertInlineVenue,
  type Obj,
} from './fixtures.ts';

const create = suite('events :: create');

create('required fields missing → rest_missing_callback_param listing them', async () => {
  const { cal } = await makeCalendar();
  const err = await rejects(cal.events.create({ title: 'x' }), 'rest_missing_callback_param', 400);
  assert.equal(err.data.params, ['start_date', 'end_date']);
});

create('empty or unparseable required values → rest_invalid_param', async () => {
  const { cal } = await makeCalendar();
  for (const bad of [
    { title: '' },
    { start_date: '' },
    { start_date: 'not a strtotime parsable string' },
    { end_date: '' },
    { end_date: 'not a strtotime parsable string' },
  ]) {
    const err = await rejects(cal.events.create({ ...baseEvent, ...bad }), 'rest_invalid_param', 400);
    assert.equal(Object.keys(err.data.params as object), Object.keys(bad));
  }
});

create('bad optional values → 400 each (author 23 / "", date foo, date_utc foo, website foo)', async () => {
  const { cal } = await makeCalendar();
  for (const bad of [
    { author: 23 },
    { author: '' },
    { date: 'foo' },
    { date_utc: 'foo' },
    { website: 'foo' },
    { timezone: 'Mars/Olympus' },
    { status: 'kinda' },
  ]) {
    await rejects(cal.events.create({ ...baseEvent, ...bad }), 'rest_invalid_param', 400);
  }
});

create('site New York: natural language dates, UTC copies and abbreviations', async () => {
  const { cal } = await makeCalendar({ timezone: 'America/New_York' });
  const cases: Array<[string, string, string, string, string]> = [
    ['tomorrow 9am', 'tomorrow 11am', '2026-03-05 09:00:00', '2026-03-05 14:00:00', 'EST'],
    ['tomorrow 11am', 'tomorrow 1pm', '2026-03-05 11:00:00', '2026-03-05 16:00:00', 'EST'],
    ['next wednesday 4pm', 'next wednesday 5pm', '2026-03-11 16:00:00', '2026-03-11 20:00:00', 'EDT'],
  ];
  for (const [start, end, local, utc, abbr] of cases) {
    const ev = await cal.events.create({ title: 'NL', start_date: start, end_date: end });
    assert.is(ev.start_date, local, start);
    assert.is(ev.utc_start_date, utc, start);
    assert.is(ev.timezone, 'America/New_York');
    assert.is(ev.timezone_abbr, abbr);
    assert.equal(ev.start_date_details, {
      year: local.slice(0, 4),
      month: local.slice(5, 7),
      day: local.slice(8, 10),
      hour: local.slice(11, 13),
      minutes: '00',
      seconds: '00',
    });
  }
});

create('timezone parameter: dates read in that zone (site Australia/Darwin)', async () => {
  const { cal } = await makeCalendar({ timezone: 'Australia/Darwin' });
  const hk = await cal.events.create({
    title: 'HK',
    start_date: '2018-01-01 4pm',
    end_date: '2018-01-01 5pm',
    timezone: 'Asia/Hong_Kong',
  });
  assert.is(hk.timezone, 'Asia/Hong_Kong');
  assert.is(hk.start_date, '2018-01-01 16:00:00');
  assert.is(hk.utc_start_date, '2018-01-01 08:00:00');
  assert.is(hk.utc_end_date, '2018-01-01 09:00:00');
  const ny = await cal.events.create({
    title: 'NY',
    start_date: 'tomorrow 9am',
    end_date: 'tomorrow 11am',
    timezone: 'America/New_York',
  });
  assert.is(ny.start_date, '2026-03-05 09:00:00');
  assert.is(ny.utc_start_date, '2026-03-05 14:00:00');
  const dflt = await cal.events.create({ title: 'site zone', start_date: 'tomorrow 9am', end_date: 'tomorrow 11am' });
  assert.is(dflt.timezone, 'Australia/Darwin');
  // it is already Thursday 00:30 in Darwin
  assert.is(dflt.start_date, '2026-03-06 09:00:00');
  assert.is(dflt.utc_start_date, '2026-03-05 23:30:00');
});

create('all-day: local bounds 00:00:00 → 23:59:59, multi-day keeps the last day', async () => {
  const { cal } = await makeCalendar({ timezone: 'America/New_York' });
  const one = await cal.events.create({
    title: 'All day',
    all_day: true,
    start_date: 'tomorrow 00:00:00',
    end_date: 'tomorrow 23:59:59',
  });
  assert.is(one.all_day, true);
  assert.is(one.start_date, '2026-03-05 00:00:00');
  assert.is(one.end_date, '2026-03-05 23:59:59');
  assert.is(one.utc_start_date, '2026-03-05 05:00:00');
  const multi = await cal.events.create({
    title: 'Multi',
    all_day: 'true',
    start_date: 'tomorrow 9am',
    end_date: '+5 days 11am',
  });
  assert.is(multi.start_date, '2026-03-05 00:00:00');
  assert.is(multi.end_date, '2026-03-09 23:59:59');
  assert.is(multi.utc_end_date, '2026-03-10 03:59:59');
});

create('end before start → end moved to start', async () => {
  const { cal } = await makeCalendar();
  const ev = await cal.events.create({
    title: 'x',
    start_date: '2026-05-01 10:00:00',
    end_date: '2026-05-01 08:00:00',
  });
  assert.is(ev.end_date, '2026-05-01 10:00:00');
});

create('representation basics: content filters, slug, author, permalink website, flags default false', async () => {
  const { cal } = await makeCalendar();
  const ev = await cal.events.create({
    ...baseEvent,
    title: 'An event',
    description: 'An event content',
    excerpt: 'An event excerpt',
  });
  assert.is(ev.slug, 'an-event');
  assert.is(ev.description, '<p>An event content</p>');
  assert.is(ev.excerpt, '<p>An event excerpt</p>');
  assert.is(ev.author, '0');
  assert.is(ev.status, 'publish');
  assert.is(ev.url, 'http://example.com/event/an-event/');
  assert.is(ev.rest_url, `http://example.com/wp-json/tribe/events/v1/events/${ev.id}`);
  assert.is(ev.website, ev.url);
  assert.is(ev.global_id, `example.com?id=${ev.id}`);
  assert.equal(ev.global_id_lineage, [ev.global_id]);
  assert.is(ev.image, false);
  for (const f of ['show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured']) assert.is(ev[f], false, f);
  assert.equal(ev.categories, []);
  assert.equal(ev.venue, []);
  assert.equal(ev.organizer, []);
  assert.equal(ev.custom_fields, []);
  assert.not.ok('json_ld' in ev);
  const keys = Object.keys(ev);
  assert.equal(keys.slice(0, 5), ['id', 'global_id', 'global_id_lineage', 'author', 'status']);
  assert.equal(keys.slice(-5), ['categories', 'tags', 'venue', 'organizer', 'custom_fields']);
  const dup = await cal.events.create({ ...baseEvent, title: 'An event' });
  assert.is(dup.slug, 'an-event-2');
});

create('read-only fields in the body are ignored', async () => {
  const { cal } = await makeCalendar();
  const bogus = {
    url: 'http://x/',
    rest_url: 'http://example.com/api/x',
    utc_start_date: 'foo',
    timezone_abbr: 'XYZ',
    cost_details: 'foo',
    start_date_details: 'foo',
  };
  const ev = await cal.events.create({ ...baseEvent, ...bogus });
  for (const [k, v] of Object.entries(bogus)) assert.not.equal(ev[k], v, k);
});

create('cost as a string and as an array', async () => {
  const { cal } = await makeCalendar();
  const one = await cal.events.create({ ...baseEvent, cost: '20$' });
  assert.is(one.cost, '20$');
  assert.equal(one.cost_details, {
    currency_symbol: '$',
    currency_code: '',
    currency_position: 'postfix',
    values: ['20'],
  });
  const many = await cal.events.create({ ...baseEvent, cost: ['0$', '20$', '30$'] });
  assert.is(many.cost, 'Free – 30$');
  assert.equal((many.cost_details as { values: string[] }).values, ['0', '20', '30']);
});

create('presentation flags by editors and authors; hide_from_listings truthy/falsy', async () => {
  const { cal, users } = await makeCalendar();
  for (const who of [users.editor.login, users.author.login]) {
    for (const flag of ['show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured']) {
      const ev = await cal.events.create({ ...baseEvent, [flag]: true }, who);
      assert.is(ev[flag], true, `${who} ${flag}`);
    }
  }
  assert.is((await cal.events.create({ ...baseEvent, hide_from_listings: 'false' })).hide_from_listings, false);
  assert.is((await cal.events.create({ ...baseEvent, hide_from_listings: 'true' })).hide_from_listings, true);
});

create('statuses by role: contributor publish → pending, default draft with empty slug', async () => {
  const { cal, users } = await makeCalendar();
  const c = await cal.events.create({ ...baseEvent, status: 'publish' }, users.contributor.login);
  assert.is(c.status, 'pending');
  assert.is(c.slug, '');
  assert.is(c.url, `http://example.com/?post_type=tribe_events&p=${c.id}`);
  assert.is(c.author, String(users.contributor.id));
  assert.is((await cal.events.create(baseEvent, users.contributor.login)).status, 'draft');
  for (const role of ['administrator', 'editor', 'author'] as const) {
    assert.is((await cal.events.create({ ...baseEvent, status: 'publish' }, users[role].login)).status, 'publish');
  }
});

create('permissions: anonymous 401, subscriber 403, validation before permission', async () => {
  const { cal, users } = await makeCalendar();
  await rejects(cal.events.create(baseEvent, null), 'rest_forbidden', 401);
  await rejects(cal.events.create(baseEvent, users.subscriber.login), 'rest_forbidden', 403);
  await rejects(cal.events.create({ ...baseEvent, start_date: 'nope' }, null), 'rest_invalid_param', 400);
  await rejects(cal.events.create({ title: 'x' }, null), 'rest_missing_callback_param', 400);
});

create('author and publication dates', async () => {
  const { cal, users } = await makeCalendar({ timezone: 'America/New_York' });
  const a = await cal.events.create({ ...baseEvent, author: users.author.id });
  assert.is(a.author, String(users.author.id));
  const d = await cal.events.create({ ...baseEvent, date: 'tomorrow 9am' });
  assert.is(d.date, '2026-03-05 09:00:00');
  assert.is(d.date_utc, '2026-03-05 14:00:00');
  const g = await cal.events.create({ ...baseEvent, date_utc: 'tomorrow 9am' });
  assert.is(g.date_utc, '2026-03-05 09:00:00');
  assert.is(g.date, '2026-03-05 04:00:00');
});

create('global_id and global_id_lineage use the host name without its port, plus the sub-folder', async () => {
  for (const [siteUrl, origin] of [
    ['http://127.0.0.1:8080', '127.0.0.1'],
    ['https://events.example.com:8443/blog', 'events.example.com/blog'],
    ['http://[::1]:9000', '[::1]'],
  ]) {
    const { cal } = await makeCalendar({ siteUrl });
    const ev = await cal.events.create({ ...baseEvent, venue: { venue: 'Hall' }, organizer: [{ organizer: 'Org' }] });
    assert.is(ev.global_id, `${origin}?id=${ev.id as number}`, siteUrl);
    assert.equal(ev.global_id_lineage, [ev.global_id]);
    const venue = ev.venue as Record<string, unknown>,
      org = (ev.organizer as Array<Record<string, unknown>>)[0];
    assert.is(venue.global_id, `${origin}?id=${venue.id as number}`);
    assert.is(org.global_id, `${origin}?id=${org.id as number}`);
    assert.is(
      ((await cal.events.list({}, null)).items[0] as Record<string, unknown>).global_id,
      ev.global_id,
      'the list shows the same',
    );
    await cal.close();
  }
});

create(
  'image bad values (unreachable URL, "foo bar", non-existent id 23) → 400 rest_invalid_param, nothing stored',
  async () => {
    const { cal } = await makeCalendar();
    for (const image of BAD_IMAGES) {
      const err = await rejects(cal.events.create({ ...baseEvent, image }), 'rest_invalid_param', 400);
      assert.ok('image' in (err.data.params as Obj), String(image));
    }
    assert.is((await cal.events.list()).total, 0);
  },
);

create('image = id of a non-image attachment (.raw) → 400', async () => {
  const { cal } = await makeCalendar();
  const raw = addAttachment(cal, 'http://example.com/wp-content/uploads/2026/03/photo.raw', 'raw');
  await rejects(cal.events.create({ ...baseEvent, image: raw }), 'rest_invalid_param', 400);
  await rejects(cal.events.create({ ...baseEvent, image: String(raw) }), 'rest_invalid_param', 400);
});

create('image = id of a post that is not an attachment (venue, event) → 400', async () => {
  const { cal } = await makeCalendar();
  const venue = await cal.venues.create({ venue: 'Not an image' });
  const event = await cal.events.create(baseEvent);
  await rejects(cal.events.create({ ...baseEvent, image: venue.id }), 'rest_invalid_param', 400);
  await rejects(cal.events.create({ ...baseEvent, image: event.id }), 'rest_invalid_param', 400);
});

create('image = jpg attachment id → 201, image.id is that id', async () => {
  const { cal } = await makeCalendar();
  const att = addAttachment(cal, JPG_URL, 'jpg');
  const ev = await cal.events.create({ ...baseEvent, image: att });
  assert.equal(imageOf(ev), { url: JPG_URL, id: att, extension: 'jpg' });
  assert.is((imageOf(await cal.events.get(ev.id as number)) as { id: number }).id, att);
});

create(
  'image = URL of an uploaded jpg → 201, the attachment is reused; a new image URL becomes an attachment',
  async () => {
    const { cal } = await makeCalendar();
    const att = addAttachment(cal, JPG_URL, 'jpg');
    const ev = await cal.events.create({ ...baseEvent, image: JPG_URL });
    const img = imageOf(ev) as { id: number; url: string };
    assert.is(img.id, att);
    assert.is(img.url, JPG_URL);
    const fresh = await cal.events.create({ ...baseEvent, image: 'http://example.com/wp-content/uploads/new.png' });
    const freshImg = imageOf(fresh) as { id: number; url: string; extension: string };
    assert.type(freshImg.id, 'number');
    assert.is.not(freshImg.id, att);
    assert.is(freshImg.url, 'http://example.com/wp-content/uploads/new.png');
    assert.is(freshImg.extension, 'png');
  },
);

create('image URL by a contributor (no upload permission) → 400 rest_invalid_param', async () => {
  const { cal, users } = await makeCalendar();
  addAttachment(cal, JPG_URL, 'jpg');
  const err = await rejects(
    cal.events.create({ ...baseEvent, image: JPG_URL }, users.contributor.login),
    'rest_invalid_param',
    400,
  );
  assert.ok('image' in (err.data.params as Obj));
});

create('images of inline venue and organizers → venue.image.url and organizer[i].image.url', async () => {
  const { cal } = await makeCalendar();
  const venueImg = 'http://example.com/wp-content/uploads/venue.jpg';
  const orgImgs = [
    'http://example.com/wp-content/uploads/organizer-1.jpg',
    'http://example.com/wp-content/uploads/organizer-2.png',
  ];
  const ev = await cal.events.create({
    ...baseEvent,
    venue: { venue: 'Venue with image', image: venueImg },
    organizer: [
      { organizer: 'Organizer one', image: orgImgs[0] },
      { organizer: 'Organizer two', image: orgImgs[1] },
    ],
  });
  assert.is((ev.venue as { image: { url: string } }).image.url, venueImg);
  const orgs = ev.organizer as Array<{ image: { url: string; id: number } }>;
  assert.equal(
    orgs.map((o) => o.image.url),
    orgImgs,
  );
  assert.is.not(orgs[0].image.id, orgs[1].image.id);
});

create('website http://example.com → echoed', async () => {
  const { cal } = await makeCalendar();
  const ev = await cal.events.create({ ...baseEvent, website: 'http://example.com' });
  assert.is(ev.website, 'http://example.com');
});

create(
  'it_should_not_allow_overriding_generated_fields: all 10 read-only fields ignored → 201 with computed values',
  async () => {
    const { cal } = await makeCalendar();
    const ev = await cal.events.create({ ...baseEvent, ...GENERATED });
    assertGenerated(ev);
  },
);

create('tags by existing ids → 2 tags, in name order', async () => {
  const { cal } = await makeCalendar();
  const tag1 = await cal.tags.create({ name: 'tag1' });
  const tag2 = await cal.tags.create({ name: 'tag2' });
  const ev = await cal.events.create({ ...baseEvent, tags: [tag1.id, tag2.id] });
  assert.equal(ids(ev.tags), [tag1.id, tag2.id]);
  const reversed = await cal.events.create({ ...baseEvent, tags: [tag2.id, tag1.id] });
  assert.equal(ids(reversed.tags), [tag1.id, tag2.id]);
  for (const t of ev.tags as Obj[]) assert.is(t.taxonomy, 'post_tag');
});

create('tags="tag1,tag2" creates two tags; tags="" → []', async () => {
  const { cal } = await makeCalendar();
  const ev = await cal.events.create({ ...baseEvent, tags: 'tag1,tag2' });
  assert.equal(names(ev.tags), ['tag1', 'tag2']);
  assert.is((await cal.tags.list({ hide_empty: false })).total, 2);
  const none = await cal.events.create({ ...baseEvent, tags: '' });
  assert.equal(none.tags, []);
});

create('categories [cat1_id, "cat2"] → 2 categories, first cat1; tags [tag1_id, "tag2"] likewise', async () => {
  const { cal } = await makeCalendar();
  const cat1 = await cal.categories.create({ name: 'cat1' });
  const tag1 = await cal.tags.create({ name: 'tag1' });
  const ev = await cal.events.create({ ...baseEvent, categories: [cat1.id, 'cat2'], tags: [tag1.id, 'tag2'] });
  const cats = ev.categories as Obj[];
  assert.is(cats.length, 2);
  assert.is(cats[0].id, cat1.id);
  assert.is(cats[1].name, 'cat2');
  assert.is(cats[1].taxonomy, 'tribe_events_cat');
  const tags = ev.tags as Obj[];
  assert.is(tags.length, 2);
  assert.is(tags[0].id, tag1.id);
  assert.is(tags[1].name, 'tag2');
});

create(
  'inline venues: US, Canada (province), South Africa, France → every field echoed, stateprovince as given',
  async () => {
    const { cal } = await makeCalendar();
    const seen = new Set<number>();
    for (const inline of INLINE_VENUES) {
      const ev = await cal.events.create({ ...baseEvent, venue: inline });
      assertInlineVenue(ev.venue, inline);
      seen.add((ev.venue as { id: number }).id);
    }
    assert.is(seen.size, 4);
    assert.is((await cal.venues.list()).total, 4);
  },
);

create('inline venue without stateProvince: derived from state (US) or province (elsewhere)', async () => {
  const { cal } = await makeCalendar();
  const fr = await cal.events.create({
    ...baseEvent,
    venue: { venue: 'Elysee', country: 'France', state: 'Paris', province: 'Île-de-France' },
  });
  assert.is((fr.venue as Obj).stateprovince, 'Île-de-France');
  const us = await cal.events.create({
    ...baseEvent,
    venue: { venue: 'Capitol', country: 'United States', state: 'DC', province: 'Nope' },
  });
  assert.is((us.venue as Obj).stateprovince, 'DC');
});

create('natural language dates in site zones America/Juneau, Australia/Sydney, Atlantic/Reykjavik', async () => {
  const cases: Array<[string, string, string, string, string, string]> = [
    // zone, local start, local end, utc start, utc end, abbr
    [
      'America/Juneau',
      '2026-03-05 09:00:00',
      '2026-03-05 11:00:00',
      '2026-03-05 18:00:00',
      '2026-03-05 20:00:00',
      'AKST',
    ],
    // it is already Thursday 02:00 in Sydney: tomorrow is Friday
    [
      'Australia/Sydney',
      '2026-03-06 09:00:00',
      '2026-03-06 11:00:00',
      '2026-03-05 22:00:00',
      '2026-03-06 00:00:00',
      'AEDT',
    ],
    [
      'Atlantic/Reykjavik',
      '2026-03-05 09:00:00',
      '2026-03-05 11:00:00',
      '2026-03-05 09:00:00',
      '2026-03-05 11:00:00',
      'GMT',
    ],
  ];
  for (const [zone, start, end, utcStart, utcEnd, abbr] of cases) {
    const { cal } = await makeCalendar({ timezone: zone });
    const ev = await cal.events.create({ title: 'NL', start_date: 'tomorrow 9am', end_date: 'tomorrow 11am' });
    assert.equal(
      [ev.timezone, ev.start_date, ev.end_date, ev.utc_start_date, ev.utc_end_date, ev.timezone_abbr],
      [zone, start, end, utcStart, utcEnd, abbr],
      zone,
    );
  }
});

create('timezone parameter UTC and Europe/Rome (site Australia/Darwin) → echoed, dates read in that zone', async () => {
  const { cal } = await makeCalendar({ timezone: 'Australia/Darwin' });
  const utc = await cal.events.create({
    title: 'UTC',
    start_date: 'tomorrow 11am',
    end_date: 'tomorrow 1pm',
    timezone: 'UTC',
  });
  assert.equal(
    [utc.timezone, utc.start_date, utc.end_date, utc.utc_start_date, utc.utc_end_date, utc.timezone_abbr],
    ['UTC', '2026-03-05 11:00:00', '2026-03-05 13:00:00', '2026-03-05 11:00:00', '2026-03-05 13:00:00', 'UTC'],
  );
  const rome = await cal.events.create({
    title: 'Rome',
    start_date: 'tomorrow 4pm',
    end_date: 'next wednesday 5pm',
    timezone: 'Europe/Rome',
  });
  assert.equal(
    [rome.timezone, rome.start_date, rome.end_date, rome.utc_start_date, rome.utc_end_date, rome.timezone_abbr],
    ['Europe/Rome', '2026-03-05 16:00:00', '2026-03-11 17:00:00', '2026-03-05 15:00:00', '2026-03-11 16:00:00', 'CET'],
  );
});

create.run();

// ---

const links = suite('events :: venues, organizers, terms');

links('existing venue id and inline venues with every field', async () => {
  const { cal } = await makeCalendar();
  const v = await cal.venues.create({ venue: 'Hall' });
  const ev = await cal.events.create({ ...baseEvent, venue: v.id });
  assert.is((ev.venue as { id: number }).id, v.id);
  const inline = INLINE_VENUES[0];
  const ev2 = await cal.events.create({ ...baseEvent, venue: inline });
  const venue = ev2.venue as Record<string, unknown>;
  assert.type(venue.id, 'number');
  for (const k of ['address', 'city', 'country', 'zip', 'phone', 'website']) assert.is(venue[k], inline[k], k);
  assert.is(venue.stateprovince, 'DC');
  assert.is(venue.description, `<p>${inline.description as string}</p>`);
  assert.is(venue.show_map, true);
});

links('organizers: ids in order, inline creation, mixed', async () => {
  const { cal } = await makeCalendar();
  const o1 = await cal.organizers.create({ organizer: 'One' });
  const o2 = await cal.organizers.create({ organizer: 'Two' });
  const ev = await cal.events.create({ ...baseEvent, organizer: [o2.id, o1.id] });
  assert.equal(
    (ev.organizer as Array<{ id: number }>).map((o) => o.id),
    [o2.id, o1.id],
  );
  const single = await cal.events.create({ ...baseEvent, organizer: o1.id });
  assert.is((single.organizer as unknown[]).length, 1);
  const mixed = await cal.events.create({
    ...baseEvent,
    organizer: [{ organizer: 'Organizer A' }, { id: o1.id }, { id: o2.id }, { organizer: 'Organizer C' }],
  });
  const ids = (mixed.organizer as Array<{ id: number }>).map((o) => o.id);
  assert.is(ids.length, 4);
  assert.ok(ids.includes(o1.id as number) && ids.includes(o2.id as number));
  await rejects(cal.events.create({ ...baseEvent, organizer: [{ id: 999 }] }), 'rest_invalid_param', 400);
  await rejects(cal.events.create({ ...baseEvent, venue: { id: o1.id } }), 'rest_invalid_param', 400);
});

links('a failed write leaves nothing behind (inline venue + bad organizer)', async () => {
  const { cal } = await makeCalendar();
  await rejects(
    cal.events.create({ ...baseEvent, venue: { venue: 'Orphan Hall' }, organizer: [{ id: 424242 }] }),
    'rest_invalid_param',
    400,
  );
  assert.is((await cal.venues.list({ search: 'Orphan' })).total, 0);
  await rejects(
    cal.events.create({ ...baseEvent, categories: 'brand-new', website: 'nope' }),
    'rest_invalid_param',
    400,
  );
  assert.is((await cal.categories.list({ hide_empty: false })).total, 0);
});

links('categories and tags: ids, names (created), empty, mixed; ordered by name', async () => {
  const { cal } = await makeCalendar();
  const cat2 = await cal.categories.create({ name: 'cat2' });
  const cat1 = await cal.categories.create({ name: 'cat1' });
  const ids = await cal.events.create({ ...baseEvent, categories: [cat2.id, cat1.id] });
  assert.equal(
    (ids.categories as Array<{ id: number }>).map((c) => c.id),
    [cat1.id, cat2.id],
  );
  const named = await cal.events.create({ ...baseEvent, categories: 'cat3,cat4' });
  assert.equal(
    (named.categories as Array<{ name: string }>).map((c) => c.name),
    ['cat3', 'cat4'],
  );
  const none = await cal.events.create({ ...baseEvent, categories: '' });
  assert.equal(none.categories, []);
  const mixed = await cal.events.create({ ...baseEvent, tags: [String(9999), 'tag2', 'tag1'] });
  assert.equal(
    (mixed.tags as Array<{ name: string }>).map((t) => t.name),
    ['tag1', 'tag2'],
  );
  const term = (ids.categories as Array<Record<string, unknown>>)[0];
  assert.equal(Object.keys(term), [
    'name',
    'slug',
    'term_group',
    'term_taxonomy_id',
    'taxonomy',
    'description',
    'parent',
    'count',
    'filter',
    'id',
    'urls',
  ]);
  assert.is(term.count, 1);
  assert.is(term.filter, 'raw');
});

links('terms shown by name whatever the case, namesakes by id, whatever order they were given in', async () => {
  const { cal } = await makeCalendar();
  type Term = { id: number; name: string };
  const byName = (terms: Term[]) =>
    terms
      .slice()
      .sort((a, b) => {
        const x = a.name.toLowerCase(),
          y = b.name.toLowerCase();
        return x < y ? -1 : x > y ? 1 : a.id - b.id;
      })
      .map((t) => t.id);
  const tags: Term[] = [];
  for (const name of ['beta', 'Alpha', 'Gamma', 'b', 'delta', 'ALPHAB', 'alpha b'])
    tags.push((await cal.tags.create({ name })) as Term);
  // categories of one name under different parents (WordPress allows namesakes there)
  const cats: Term[] = [];
  for (const parent of ['P1', 'P2', 'P3']) {
    const p = (await cal.categories.create({ name: parent })) as Term;
    cats.push(p, (await cal.categories.create({ name: parent === 'P2' ? 'same' : 'Same', parent: p.id })) as Term);
  }
  const shuffles = <T>(xs: T[]): T[][] => [xs, xs.slice().reverse(), xs.map((_, i) => xs[(i * 5 + 1) % xs.length])];
  for (const [i, tagOrder] of shuffles(tags).entries()) {
    const catOrder = shuffles(cats)[i];
    const ev = await cal.events.create({
      ...baseEvent,
      tags: tagOrder.map((t) => t.id),
      categories: catOrder.map((t) => t.id),
    });
    // the object path and the JSON text of a list (written from the cached pieces)
    const text = JSON.parse(
      (await cal.rest({ resource: 'events', action: 'list', params: { include: String(ev.id) }, actor: null })).body,
    ).events[0];
    for (const shown of [ev, text]) {
      assert.equal(
        (shown.tags as Term[]).map((t) => t.id),
        byName(tags),
      );
      assert.equal(
        (shown.categories as Term[]).map((t) => t.id),
        byName(cats),
      );
    }
  }
});

links('a venue rename shows inside events (cache invalidation)', async () => {
  const { cal } = await makeCalendar();
  const v = await cal.venues.create({ venue: 'Old Name' });
  const ev = await cal.events.create({ ...baseEvent, venue: v.id, categories: 'music' });
  assert.is(((await cal.events.list()).items[0].venue as { venue: string }).venue, 'Old Name');
  await cal.venues.update(v.id as number, { venue: 'New Name' });
  const cat = (ev.categories as Array<{ id: number }>)[0];
  await cal.categories.update(cat.id, { name: 'Musique' });
  const item = (await cal.events.list()).items[0];
  assert.is((item.venue as { venue: string }).venue, 'New Name');
  assert.is((item.categories as Array<{ name: string }>)[0].name, 'Musique');
});

links.run();
