// Event creates and updates through the embedding API (docs/behaviour.md, the plugin's HTTP tests
// EventInsertionCest / EventUpdateCest). Clock: Wednesday 2026-03-04 15:00 UTC (10:00 New York,
// EST; New York switches to EDT on 2026-03-08).
import * as assert from 'uvu/assert';
import { suite } from 'uvu';
import { baseEvent, makeCalendar, rejects } from '../../helpers/calendar.ts';
import type { Calendar } from '../../../src/calendar.ts';
import type { Params } from '../../../src/api/wordpress/types.ts';

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

// ---

const update = suite('events :: update');

update('dates change only when both are sent; timezone re-interprets', async () => {
  const { cal } = await makeCalendar({ timezone: 'America/New_York' });
  const ev = await cal.events.create({ title: 'u', start_date: 'tomorrow 9am', end_date: 'tomorrow 11am' });
  const one = await cal.events.update(ev.id as number, { start_date: 'tomorrow 1pm' });
  assert.is(one.start_date, '2026-03-05 09:00:00');
  const both = await cal.events.update(ev.id as number, { start_date: 'tomorrow 11am', end_date: 'tomorrow 1pm' });
  assert.is(both.start_date, '2026-03-05 11:00:00');
  assert.is(both.utc_start_date, '2026-03-05 16:00:00');
  const paris = await cal.events.update(ev.id as number, {
    start_date: 'tomorrow 9am',
    end_date: 'tomorrow 11am',
    timezone: 'Europe/Paris',
  });
  assert.is(paris.timezone, 'Europe/Paris');
  assert.is(paris.start_date, '2026-03-05 09:00:00');
  assert.is(paris.utc_start_date, '2026-03-05 08:00:00');
  assert.is(paris.timezone_abbr, 'CET');
});

update('update resets: flags, website, organizers; all-day turned off by dates without all_day', async () => {
  const { cal } = await makeCalendar();
  const o = await cal.organizers.create({ organizer: 'O' });
  const ev = await cal.events.create({
    ...baseEvent,
    featured: true,
    sticky: true,
    show_map: true,
    website: 'http://a.example.org',
    organizer: o.id,
    all_day: true,
  });
  const up = await cal.events.update(ev.id as number, { title: 'renamed' });
  assert.is(up.title, 'renamed');
  assert.is(up.featured, false);
  assert.is(up.sticky, false);
  assert.is(up.show_map, false);
  assert.is(up.website, '');
  assert.equal(up.organizer, []);
  assert.is(up.all_day, true);
  const timed = await cal.events.update(ev.id as number, baseEvent);
  assert.is(timed.all_day, false);
  assert.is(timed.start_date, baseEvent.start_date);
});

update('slug renames and by-slug resolution', async () => {
  const { cal } = await makeCalendar();
  const ev = await cal.events.create(baseEvent);
  const up = await cal.events.update(ev.id as number, { slug: 'an-interesting-event' });
  assert.is(up.slug, 'an-interesting-event');
  assert.is((await cal.events.get('an-interesting-event')).id, ev.id);
  const again = await cal.events.update('an-interesting-event', { title: 'Via slug' });
  assert.is(again.title, 'Via slug');
  await rejects(cal.events.get('an-event'), 'rest_invalid_param', 400);
});

update('not found, bad values, permissions per role and ownership', async () => {
  const { cal, users } = await makeCalendar();
  await rejects(cal.events.update(2389, { title: 'x' }), 'rest-event-not-found', 404);
  const adminEvent = await cal.events.create(baseEvent);
  for (const bad of [{ author: 23 }, { date: 'foo' }, { website: 'foo' }]) {
    await rejects(cal.events.update(adminEvent.id as number, bad), 'rest_invalid_param', 400);
  }
  await rejects(cal.events.update(adminEvent.id as number, { title: 'x' }, null), 'rest_forbidden', 401);
  await rejects(
    cal.events.update(adminEvent.id as number, { title: 'x' }, users.contributor.login),
    'rest_forbidden',
    403,
  );
  assert.is((await cal.events.update(adminEvent.id as number, { title: 'ed' }, users.editor.login)).title, 'ed');
  const draft = await cal.events.create(baseEvent, users.contributor.login);
  assert.is((await cal.events.update(draft.id as number, { title: 'mine' }, users.contributor.login)).title, 'mine');
  const published = await cal.events.create({ ...baseEvent, status: 'publish', author: users.contributor.id });
  await rejects(
    cal.events.update(published.id as number, { title: 'x' }, users.contributor.login),
    'rest_forbidden',
    403,
  );
  await rejects(cal.events.delete(published.id as number, users.contributor.login), 'rest_forbidden', 403);
  const own = await cal.events.create({ ...baseEvent, status: 'publish' }, users.author.login);
  assert.is(
    (await cal.events.update(own.id as number, { title: 'author edits own' }, users.author.login)).title,
    'author edits own',
  );
});

update.run();

// ---

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

del.run();

// ---------------------------------------------------------------------------------------------
// Event behaviours of the plugin's own HTTP tests (AuthorizationCest, EventInsertionCest, EventUpdateCest,
// SingleEventCest, SingleEventSlugCest): images, generated fields,
// terms, inline venues, natural-language dates per zone, every update case, the full single representation.
// Clock: Wednesday 2026-03-04 15:00 UTC (helpers NOW): 10:00 EST in New York (EDT from 2026-03-08),
// 06:00 AKST in Juneau, Thursday 02:00 AEDT in Sydney, Thursday 00:30 ACST in Darwin, 16:00 CET in Rome/Paris.

type Obj = Record<string, unknown>;

const ROOT = 'http://example.com/wp-json/tribe/events/v1/';
const JPG_URL = 'http://example.com/wp-content/uploads/2026/03/uploaded.jpg';
const BAD_IMAGES: unknown[] = ['http://example.localhost/some-image.png', 'foo bar', 23];

/** An attachment as an upload to the media library leaves it (the plugin's fixtures upload files directly). */
function addAttachment(cal: Calendar, url: string, extension: string): number {
  const id = cal.engine.allocPostId();
  cal.engine.apply([
    {
      t: 'attachment',
      a: 'put',
      rec: { id, authorId: 0, url, extension, date: '2026-03-04 15:00:00', dateUtc: '2026-03-04 15:00:00' },
    },
  ]);
  return id;
}

const ids = (xs: unknown) => (xs as Array<{ id: number }>).map((x) => x.id);
const names = (xs: unknown) => (xs as Array<{ name: string }>).map((x) => x.name);
const imageOf = (x: unknown) => (x as { image: { id: number; url: string; extension: string } | false }).image;

/** The plugin tests' generated (read-only) fields with plausible but wrong values. */
const GENERATED: Params = {
  url: 'http://example.com/event/bogus/',
  rest_url: 'http://example.com/wp-json/tribe/events/v1/events/9999',
  utc_start_date: '2030-01-01 00:00:00',
  utc_start_date_details: { year: '2030', month: '01', day: '01', hour: '00', minutes: '00', seconds: '00' },
  utc_end_date: '2030-01-01 02:00:00',
  utc_end_date_details: { year: '2030', month: '01', day: '01', hour: '02', minutes: '00', seconds: '00' },
  start_date_details: { year: '2030', month: '01', day: '01', hour: '00', minutes: '00', seconds: '00' },
  end_date_details: { year: '2030', month: '01', day: '01', hour: '02', minutes: '00', seconds: '00' },
  timezone_abbr: 'XYZ',
  cost_details: { currency_symbol: '€', currency_code: 'EUR', currency_position: 'prefix', values: ['99'] },
};

/** What the generated fields must be for baseEvent (2026-03-05 09:00–11:00) in a UTC site, no cost. */
function assertGenerated(ev: Obj): void {
  for (const k of Object.keys(GENERATED)) assert.not.equal(ev[k], GENERATED[k], k);
  assert.is(ev.url, 'http://example.com/event/an-event/');
  assert.is(ev.rest_url, `${ROOT}events/${ev.id}`);
  assert.is(ev.utc_start_date, '2026-03-05 09:00:00');
  assert.is(ev.utc_end_date, '2026-03-05 11:00:00');
  assert.equal(ev.utc_start_date_details, {
    year: '2026',
    month: '03',
    day: '05',
    hour: '09',
    minutes: '00',
    seconds: '00',
  });
  assert.equal(ev.utc_end_date_details, {
    year: '2026',
    month: '03',
    day: '05',
    hour: '11',
    minutes: '00',
    seconds: '00',
  });
  assert.equal(ev.start_date_details, ev.utc_start_date_details);
  assert.equal(ev.end_date_details, ev.utc_end_date_details);
  assert.is(ev.timezone_abbr, 'UTC');
  assert.equal(ev.cost_details, { currency_symbol: '', currency_code: '', currency_position: '', values: [] });
}

/** The plugin tests' four inline venues (US, Canada, South Africa, France). */
const INLINE_VENUES: Obj[] = [
  {
    venue: 'White House',
    address: '1600 Pennsylvania Ave NW',
    city: 'Washington',
    country: 'United States',
    state: 'DC',
    province: '',
    stateProvince: 'DC',
    zip: '20500',
    phone: '+1 202-456-1111',
    description: 'Home and office of the United States president',
    website: 'http://www.whitehouse.gov',
    show_map: true,
    show_map_link: true,
  },
  {
    venue: 'Parliament Hill',
    address: '111 Wellington St',
    city: 'Ottawa',
    country: 'Canada',
    state: '',
    province: 'Ontario',
    stateProvince: 'Ontario',
    zip: 'K1A 0A9',
    phone: '+1 613-992-4793',
    description: 'Home of the Parliament of Canada',
    website: 'http://www.parl.gc.ca',
    show_map: true,
    show_map_link: true,
  },
  {
    venue: 'Union Buildings',
    address: 'Government Avenue',
    city: 'Pretoria',
    country: 'South Africa',
    state: '',
    province: 'Gauteng',
    stateProvince: 'Gauteng',
    zip: '0002',
    phone: '+27 12 300 5200',
    description: 'Official seat of the South African government',
    website: 'http://www.gov.za',
    show_map: true,
    show_map_link: true,
  },
  {
    venue: 'Palais de l‘Élysée',
    address: '55 Rue du Faubourg Saint-Honoré',
    city: 'Paris',
    country: 'France',
    state: '',
    province: 'Île-de-France',
    stateProvince: 'Île-de-France',
    zip: '75008',
    phone: '+33 1 42 92 81 00',
    description: 'Official residence of the President of France',
    website: 'http://www.elysee.fr',
    show_map: true,
    show_map_link: true,
  },
];

function assertInlineVenue(got: unknown, sent: Obj): void {
  const v = got as Obj;
  assert.type(v.id, 'number', `${sent.venue as string} id`);
  assert.is(v.venue, sent.venue);
  for (const k of ['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'website']) {
    if (sent[k] === '') assert.not.ok(k in v, `${k} empty → absent`);
    else assert.is(v[k], sent[k], `${sent.venue as string} ${k}`);
  }
  assert.is(v.stateprovince, sent.stateProvince);
  assert.is(v.description, `<p>${sent.description as string}</p>`);
  assert.is(v.show_map, true);
  assert.is(v.show_map_link, true);
}

// ---------------------------------------------------------------------------------------------
const authz = suite('events :: AuthorizationCest');

authz(
  'unauthenticated_cannot_edit_draft_event: anonymous update of a contributor draft → 401, draft unchanged',
  async () => {
    const { cal, users } = await makeCalendar();
    const draft = await cal.events.create({ ...baseEvent, title: 'Contributor draft' }, users.contributor.login);
    assert.is(draft.status, 'draft');
    await rejects(cal.events.update(draft.id as number, { title: 'Hijacked' }, null), 'rest_forbidden', 401);
    const after = await cal.events.get(draft.id as number, users.contributor.login);
    assert.is(after.title, 'Contributor draft');
    assert.is(after.status, 'draft');
  },
);

authz.run();

// ---------------------------------------------------------------------------------------------
const insert = suite('events :: EventInsertionCest');

insert(
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

insert('image = id of a non-image attachment (.raw) → 400', async () => {
  const { cal } = await makeCalendar();
  const raw = addAttachment(cal, 'http://example.com/wp-content/uploads/2026/03/photo.raw', 'raw');
  await rejects(cal.events.create({ ...baseEvent, image: raw }), 'rest_invalid_param', 400);
  await rejects(cal.events.create({ ...baseEvent, image: String(raw) }), 'rest_invalid_param', 400);
});

insert('image = id of a post that is not an attachment (venue, event) → 400', async () => {
  const { cal } = await makeCalendar();
  const venue = await cal.venues.create({ venue: 'Not an image' });
  const event = await cal.events.create(baseEvent);
  await rejects(cal.events.create({ ...baseEvent, image: venue.id }), 'rest_invalid_param', 400);
  await rejects(cal.events.create({ ...baseEvent, image: event.id }), 'rest_invalid_param', 400);
});

insert('image = jpg attachment id → 201, image.id is that id', async () => {
  const { cal } = await makeCalendar();
  const att = addAttachment(cal, JPG_URL, 'jpg');
  const ev = await cal.events.create({ ...baseEvent, image: att });
  assert.equal(imageOf(ev), { url: JPG_URL, id: att, extension: 'jpg' });
  assert.is((imageOf(await cal.events.get(ev.id as number)) as { id: number }).id, att);
});

insert(
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

insert('image URL by a contributor (no upload permission) → 400 rest_invalid_param', async () => {
  const { cal, users } = await makeCalendar();
  addAttachment(cal, JPG_URL, 'jpg');
  const err = await rejects(
    cal.events.create({ ...baseEvent, image: JPG_URL }, users.contributor.login),
    'rest_invalid_param',
    400,
  );
  assert.ok('image' in (err.data.params as Obj));
});

insert('images of inline venue and organizers → venue.image.url and organizer[i].image.url', async () => {
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

insert('website http://example.com → echoed', async () => {
  const { cal } = await makeCalendar();
  const ev = await cal.events.create({ ...baseEvent, website: 'http://example.com' });
  assert.is(ev.website, 'http://example.com');
});

insert(
  'it_should_not_allow_overriding_generated_fields: all 10 read-only fields ignored → 201 with computed values',
  async () => {
    const { cal } = await makeCalendar();
    const ev = await cal.events.create({ ...baseEvent, ...GENERATED });
    assertGenerated(ev);
  },
);

insert('tags by existing ids → 2 tags, in name order', async () => {
  const { cal } = await makeCalendar();
  const tag1 = await cal.tags.create({ name: 'tag1' });
  const tag2 = await cal.tags.create({ name: 'tag2' });
  const ev = await cal.events.create({ ...baseEvent, tags: [tag1.id, tag2.id] });
  assert.equal(ids(ev.tags), [tag1.id, tag2.id]);
  const reversed = await cal.events.create({ ...baseEvent, tags: [tag2.id, tag1.id] });
  assert.equal(ids(reversed.tags), [tag1.id, tag2.id]);
  for (const t of ev.tags as Obj[]) assert.is(t.taxonomy, 'post_tag');
});

insert('tags="tag1,tag2" creates two tags; tags="" → []', async () => {
  const { cal } = await makeCalendar();
  const ev = await cal.events.create({ ...baseEvent, tags: 'tag1,tag2' });
  assert.equal(names(ev.tags), ['tag1', 'tag2']);
  assert.is((await cal.tags.list({ hide_empty: false })).total, 2);
  const none = await cal.events.create({ ...baseEvent, tags: '' });
  assert.equal(none.tags, []);
});

insert('categories [cat1_id, "cat2"] → 2 categories, first cat1; tags [tag1_id, "tag2"] likewise', async () => {
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

insert(
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

insert('inline venue without stateProvince: derived from state (US) or province (elsewhere)', async () => {
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

insert('natural language dates in site zones America/Juneau, Australia/Sydney, Atlantic/Reykjavik', async () => {
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

insert('timezone parameter UTC and Europe/Rome (site Australia/Darwin) → echoed, dates read in that zone', async () => {
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

insert.run();

// ---------------------------------------------------------------------------------------------
const updateCases = suite('events :: EventUpdateCest');

/** The update target: a published event by the site administrator, plus extra fields. */
async function fixture(cal: Calendar, extra: Params = {}, as?: string): Promise<number> {
  return (await cal.events.create({ ...baseEvent, ...extra }, as)).id as number;
}

updateCases('author on updateCases → echoed as a string; date / date_utc on updateCases (site New York)', async () => {
  const { cal, users } = await makeCalendar({ timezone: 'America/New_York' });
  const id = await fixture(cal);
  assert.is((await cal.events.update(id, { author: users.author.id })).author, String(users.author.id));
  const d = await cal.events.update(id, { date: '2026-03-05 09:00:00' });
  assert.equal([d.date, d.date_utc], ['2026-03-05 09:00:00', '2026-03-05 14:00:00']);
  const g = await cal.events.update(id, { date_utc: 'tomorrow 9am' });
  assert.equal([g.date_utc, g.date], ['2026-03-05 09:00:00', '2026-03-05 04:00:00']);
  // the author survives the later updates that did not send one
  assert.is(g.author, String(users.author.id));
});

updateCases(
  'bad optional values on update (author 23 / "", date foo, date_utc foo, website foo) → 400, event unchanged',
  async () => {
    const { cal } = await makeCalendar();
    const id = await fixture(cal, { website: 'http://kept.example.org' });
    const before = await cal.events.get(id);
    for (const bad of [
      { author: 23 },
      { author: '' },
      { date: 'foo' },
      { date_utc: 'foo' },
      { website: 'foo' },
    ] as Params[]) {
      const err = await rejects(cal.events.update(id, bad), 'rest_invalid_param', 400);
      assert.equal(Object.keys(err.data.params as Obj), Object.keys(bad));
    }
    assert.equal(await cal.events.get(id), before);
  },
);

updateCases('it_should_not_allow_overriding_generated_fields on updateCases → 200 with computed values', async () => {
  const { cal } = await makeCalendar();
  const id = await fixture(cal);
  const ev = await cal.events.update(id, { title: 'An event', ...GENERATED });
  assert.is(ev.id, id);
  assertGenerated(ev);
});

updateCases('all_day on updateCases (New York): single day 9am–11am → 00:00:00–23:59:59', async () => {
  const { cal } = await makeCalendar({ timezone: 'America/New_York' });
  const id = await fixture(cal, { start_date: 'tomorrow 2pm', end_date: 'tomorrow 3pm' });
  const ev = await cal.events.update(id, { all_day: true, start_date: 'tomorrow 9am', end_date: 'tomorrow 11am' });
  assert.equal(
    [ev.all_day, ev.start_date, ev.end_date, ev.utc_start_date, ev.utc_end_date],
    [true, '2026-03-05 00:00:00', '2026-03-05 23:59:59', '2026-03-05 05:00:00', '2026-03-06 04:59:59'],
  );
});

updateCases(
  'all_day on update (New York): multi-day tomorrow 9am → +5 days 11am → tomorrow 00:00:00 → +5 days 23:59:59',
  async () => {
    const { cal } = await makeCalendar({ timezone: 'America/New_York' });
    const id = await fixture(cal);
    const ev = await cal.events.update(id, { all_day: 'true', start_date: 'tomorrow 9am', end_date: '+5 days 11am' });
    // New York is on EDT from 2026-03-08
    assert.equal(
      [ev.all_day, ev.start_date, ev.end_date, ev.utc_start_date, ev.utc_end_date],
      [true, '2026-03-05 00:00:00', '2026-03-09 23:59:59', '2026-03-05 05:00:00', '2026-03-10 03:59:59'],
    );
  },
);

updateCases(
  'image on update: bad values, .raw attachment, non-attachment id → 400; attachment id and URL → 200',
  async () => {
    const { cal } = await makeCalendar();
    const id = await fixture(cal);
    const raw = addAttachment(cal, 'http://example.com/wp-content/uploads/photo.raw', 'raw');
    const venue = await cal.venues.create({ venue: 'Not an image' });
    for (const image of [...BAD_IMAGES, raw, venue.id]) {
      await rejects(cal.events.update(id, { image }), 'rest_invalid_param', 400);
    }
    assert.is((await cal.events.get(id)).image, false);
    const att = addAttachment(cal, JPG_URL, 'jpg');
    assert.equal(imageOf(await cal.events.update(id, { image: att })), { url: JPG_URL, id: att, extension: 'jpg' });
    const other = await fixture(cal);
    const byUrl = imageOf(await cal.events.update(other, { image: JPG_URL })) as { id: number };
    assert.is(byUrl.id, att);
    // not sending an image leaves it in place
    assert.is((imageOf(await cal.events.update(other, { title: 'still with image' })) as { id: number }).id, att);
  },
);

updateCases('cost on updateCases: "20$" and ["0$","20$","30$"]', async () => {
  const { cal } = await makeCalendar();
  const id = await fixture(cal);
  const one = await cal.events.update(id, { cost: '20$' });
  assert.is(one.cost, '20$');
  assert.equal(one.cost_details, {
    currency_symbol: '$',
    currency_code: '',
    currency_position: 'postfix',
    values: ['20'],
  });
  const many = await cal.events.update(id, { cost: ['0$', '20$', '30$'] });
  assert.is(many.cost, 'Free – 30$');
  assert.equal(many.cost_details, {
    currency_symbol: '$',
    currency_code: '',
    currency_position: 'postfix',
    values: ['0', '20', '30'],
  });
});

updateCases('website http://example.com on updateCases → echoed', async () => {
  const { cal } = await makeCalendar();
  const id = await fixture(cal);
  assert.is((await cal.events.update(id, { website: 'http://example.com' })).website, 'http://example.com');
});

updateCases('presentation flags: editor on an administrator event, author on own event → each true', async () => {
  const { cal, users } = await makeCalendar();
  const adminEvent = await fixture(cal, {}, users.administrator.login);
  const ownEvent = await fixture(cal, {}, users.author.login);
  for (const [who, id] of [
    [users.editor.login, adminEvent],
    [users.author.login, ownEvent],
  ] as const) {
    for (const flag of ['show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured']) {
      const ev = await cal.events.update(id, { [flag]: true }, who);
      assert.is(ev[flag], true, `${who} ${flag}`);
      assert.is((await cal.events.get(id, who))[flag], true, `${who} ${flag} stored`);
    }
  }
});

updateCases('status=publish on updateCases by administrator, editor, author on their own draft → publish', async () => {
  const { cal, users } = await makeCalendar();
  for (const role of ['administrator', 'editor', 'author'] as const) {
    const who = users[role].login;
    const id = await fixture(cal, { status: 'draft' }, who);
    assert.is((await cal.events.get(id, who)).status, 'draft');
    const ev = await cal.events.update(id, { status: 'publish' }, who);
    assert.is(ev.status, 'publish', role);
    assert.is((await cal.events.get(id, null)).status, 'publish', `${role} stored`);
  }
});

updateCases('existing venue id on update → venue.id; inline venues (4) on update → fields echoed', async () => {
  const { cal } = await makeCalendar();
  const id = await fixture(cal);
  const v = await cal.venues.create({ venue: 'Existing hall' });
  assert.is(((await cal.events.update(id, { venue: v.id })).venue as Obj).id, v.id);
  for (const inline of INLINE_VENUES) {
    const ev = await cal.events.update(id, { venue: inline });
    assertInlineVenue(ev.venue, inline);
    assert.is.not((ev.venue as Obj).id, v.id);
  }
});

updateCases('organizers on updateCases: one id, several in order, inline, inline + existing mixed', async () => {
  const { cal } = await makeCalendar();
  const id = await fixture(cal);
  const o1 = (await cal.organizers.create({ organizer: 'Organizer 1' })).id as number;
  const o2 = (await cal.organizers.create({ organizer: 'Organizer 2' })).id as number;
  assert.equal(ids((await cal.events.update(id, { organizer: o1 })).organizer), [o1]);
  assert.equal(ids((await cal.events.update(id, { organizer: [o2, o1] })).organizer), [o2, o1]);
  const inline = (await cal.events.update(id, { organizer: [{ organizer: 'Organizer A' }] })).organizer as Obj[];
  assert.is(inline.length, 1);
  assert.type(inline[0].id, 'number');
  assert.is(inline[0].organizer, 'Organizer A');
  const three = await cal.events.update(id, {
    organizer: [{ organizer: 'Organizer A' }, { organizer: 'Organizer B' }, { organizer: 'Organizer C' }],
  });
  assert.equal(names((three.organizer as Obj[]).map((o) => ({ name: o.organizer }))), [
    'Organizer A',
    'Organizer B',
    'Organizer C',
  ]);
  const mixed = ids(
    (
      await cal.events.update(id, {
        organizer: [{ organizer: 'Organizer A' }, { id: o1 }, { id: o2 }, { organizer: 'Organizer D' }],
      })
    ).organizer,
  );
  assert.is(mixed.length, 4);
  assert.ok(mixed.includes(o1) && mixed.includes(o2));
  // Organizer A was found again (duplicate detection), not created twice
  assert.is(mixed[0], inline[0].id);
});

updateCases('images of inline venue and organizers on updateCases → echoed', async () => {
  const { cal } = await makeCalendar();
  const id = await fixture(cal);
  const venueImg = 'http://example.com/wp-content/uploads/venue.jpg';
  const orgImgs = [
    'http://example.com/wp-content/uploads/organizer-1.jpg',
    'http://example.com/wp-content/uploads/organizer-2.jpg',
  ];
  const ev = await cal.events.update(id, {
    venue: { venue: 'Venue with image', image: venueImg },
    organizer: [
      { organizer: 'Organizer one', image: orgImgs[0] },
      { organizer: 'Organizer two', image: orgImgs[1] },
    ],
  });
  assert.is((ev.venue as { image: { url: string } }).image.url, venueImg);
  assert.equal(
    (ev.organizer as Array<{ image: { url: string } }>).map((o) => o.image.url),
    orgImgs,
  );
});

updateCases(
  'should_allow_removing_the_organizer_from_an_event: organizer=[] (with venue=[]) → organizer [], venue kept',
  async () => {
    const { cal } = await makeCalendar();
    const o = (await cal.organizers.create({ organizer: 'Organizer' })).id as number;
    const v = (await cal.venues.create({ venue: 'Venue' })).id as number;
    const id = await fixture(cal, { venue: v });
    const linked = await cal.events.update(id, { organizer: o, venue: v });
    assert.equal(ids(linked.organizer), [o]);
    const removed = await cal.events.update(id, { venue: [], organizer: [] });
    assert.equal(removed.organizer, []);
    // writes.md: an empty venue leaves the venue as it is
    assert.is((removed.venue as Obj).id, v);
    assert.equal((await cal.events.get(id)).organizer, []);
  },
);

updateCases(
  'venue=0 / [] / "" on update leaves the venue linked (writes.md); once the venue is gone, venue=0 → []',
  async () => {
    const { cal } = await makeCalendar();
    const id = await fixture(cal);
    const v = (await cal.venues.create({ venue: 'Sticky venue' })).id as number;
    assert.is(((await cal.events.update(id, { venue: v })).venue as Obj).id, v);
    for (const empty of [0, '0', [], '']) {
      assert.is(((await cal.events.update(id, { venue: empty })).venue as Obj).id, v, JSON.stringify(empty));
    }
    // the plugin's test clears the stored link directly; the API's way is deleting the venue, which unlinks it
    await cal.venues.delete(v);
    const ev = await cal.events.update(id, { venue: 0 });
    assert.equal(ev.venue, []);
  },
);

updateCases('categories on updateCases: ids (name order), names created, mixed; "" clears, absent keeps', async () => {
  const { cal } = await makeCalendar();
  const cat1 = await cal.categories.create({ name: 'cat1' });
  const cat2 = await cal.categories.create({ name: 'cat2' });
  const id = await fixture(cal);
  assert.equal(ids((await cal.events.update(id, { categories: [cat2.id, cat1.id] })).categories), [cat1.id, cat2.id]);
  assert.equal(ids((await cal.events.update(id, { title: 'no terms sent' })).categories), [cat1.id, cat2.id]);
  const named = await cal.events.update(id, { categories: 'cat3,cat4' });
  assert.equal(names(named.categories), ['cat3', 'cat4']);
  const mixed = (await cal.events.update(id, { categories: [cat1.id, 'cat5'] })).categories as Obj[];
  assert.equal([mixed.length, mixed[0].id, mixed[1].name], [2, cat1.id, 'cat5']);
  const cleared = await cal.events.update(id, { categories: '' });
  assert.equal(cleared.categories, []);
  assert.equal((await cal.events.get(id)).categories, []);
});

updateCases('tags on updateCases: ids (name order), names created, mixed; "" clears, absent keeps', async () => {
  const { cal } = await makeCalendar();
  const tag1 = await cal.tags.create({ name: 'tag1' });
  const tag2 = await cal.tags.create({ name: 'tag2' });
  const id = await fixture(cal);
  assert.equal(ids((await cal.events.update(id, { tags: [tag2.id, tag1.id] })).tags), [tag1.id, tag2.id]);
  assert.equal(ids((await cal.events.update(id, { title: 'no terms sent' })).tags), [tag1.id, tag2.id]);
  assert.equal(names((await cal.events.update(id, { tags: 'tag3,tag4' })).tags), ['tag3', 'tag4']);
  const mixed = (await cal.events.update(id, { tags: [tag1.id, 'tag5'] })).tags as Obj[];
  assert.equal([mixed.length, mixed[0].id, mixed[1].name], [2, tag1.id, 'tag5']);
  const cleared = await cal.events.update(id, { tags: '' });
  assert.equal(cleared.tags, []);
  assert.equal((await cal.events.get(id)).tags, []);
});

updateCases(
  'timezone on update (site Australia/Darwin): the plugin examples, then the same phrases in Europe/Paris',
  async () => {
    const { cal } = await makeCalendar({ timezone: 'Australia/Darwin' });
    const id = await fixture(cal);
    // start, end, zone → local start, local end, utc start, utc end, abbr (Paris: the same phrases re-read in CET)
    const cases: Array<[string, string, string, string, string, string, string, string, string, string, string]> = [
      [
        'tomorrow 9am',
        'tomorrow 11am',
        'Australia/Sydney',
        '2026-03-06 09:00:00',
        '2026-03-06 11:00:00',
        '2026-03-05 22:00:00',
        '2026-03-06 00:00:00',
        'AEDT',
        '2026-03-05 09:00:00',
        '2026-03-05 08:00:00',
        '2026-03-05 10:00:00',
      ],
      [
        'tomorrow 9am',
        'tomorrow 11am',
        'America/New_York',
        '2026-03-05 09:00:00',
        '2026-03-05 11:00:00',
        '2026-03-05 14:00:00',
        '2026-03-05 16:00:00',
        'EST',
        '2026-03-05 09:00:00',
        '2026-03-05 08:00:00',
        '2026-03-05 10:00:00',
      ],
      [
        'tomorrow 11am',
        'tomorrow 1pm',
        'UTC',
        '2026-03-05 11:00:00',
        '2026-03-05 13:00:00',
        '2026-03-05 11:00:00',
        '2026-03-05 13:00:00',
        'UTC',
        '2026-03-05 11:00:00',
        '2026-03-05 10:00:00',
        '2026-03-05 12:00:00',
      ],
      [
        '2018-01-01 4pm',
        '2018-01-01 5pm',
        'Asia/Hong_Kong',
        '2018-01-01 16:00:00',
        '2018-01-01 17:00:00',
        '2018-01-01 08:00:00',
        '2018-01-01 09:00:00',
        'HKT',
        '2018-01-01 16:00:00',
        '2018-01-01 15:00:00',
        '2018-01-01 16:00:00',
      ],
      [
        'next wednesday 4pm',
        'next wednesday 5pm',
        'Europe/Rome',
        '2026-03-11 16:00:00',
        '2026-03-11 17:00:00',
        '2026-03-11 15:00:00',
        '2026-03-11 16:00:00',
        'CET',
        '2026-03-11 16:00:00',
        '2026-03-11 15:00:00',
        '2026-03-11 16:00:00',
      ],
    ];
    for (const [start, end, zone, ls, le, us, ue, abbr, parisStart, parisUs, parisUe] of cases) {
      const ev = await cal.events.update(id, { start_date: start, end_date: end, timezone: zone });
      assert.equal(
        [ev.timezone, ev.start_date, ev.end_date, ev.utc_start_date, ev.utc_end_date, ev.timezone_abbr],
        [zone, ls, le, us, ue, abbr],
        zone,
      );
      const paris = await cal.events.update(id, { start_date: start, end_date: end, timezone: 'Europe/Paris' });
      assert.equal(
        [paris.timezone, paris.start_date, paris.utc_start_date, paris.utc_end_date, paris.timezone_abbr],
        ['Europe/Paris', parisStart, parisUs, parisUe, 'CET'],
        `${zone} → Paris`,
      );
    }
  },
);

updateCases.run();

// ---------------------------------------------------------------------------------------------
const single = suite('events :: SingleEventCest / SingleEventSlugCest');

single('fully populated event: GET by id and by-slug carry the full representation', async () => {
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

single('by-slug with the slug of a venue or an organizer → 400 rest_invalid_param', async () => {
  const { cal } = await makeCalendar();
  const venue = await cal.venues.create({ venue: 'Some venue' });
  const organizer = await cal.organizers.create({ organizer: 'Some organizer' });
  await cal.events.create(baseEvent);
  assert.is(venue.slug, 'some-venue');
  await rejects(cal.events.get(venue.slug as string, null), 'rest_invalid_param', 400);
  await rejects(cal.events.get(organizer.slug as string, null), 'rest_invalid_param', 400);
  await rejects(cal.events.get(venue.slug as string), 'rest_invalid_param', 400);
});

single.run();
