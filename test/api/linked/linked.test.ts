// Venues and organizers through the embedding API (docs/behaviour.md, the plugin's HTTP tests Venue*/Organizer*).
import * as assert from 'uvu/assert';
import { suite } from 'uvu';
import { baseEvent, makeCalendar, rejects, assertEmptyArchive, restList } from '../../helpers/calendar.ts';
import type { Calendar } from '../../../src/calendar.ts';
import type { Actor, Params } from '../../../src/api/wordpress/types.ts';

const venues = suite('venues');

venues('create: 201 shape, empty values dropped, flags default true, key order', async () => {
  const { cal } = await makeCalendar();
  const v = await cal.venues.create({ venue: 'A venue' });
  assert.is(v.venue, 'A venue');
  assert.is(v.slug, 'a-venue');
  assert.is(v.url, 'http://example.com/venue/a-venue/');
  assert.not.ok('phone' in v);
  assert.not.ok('image' in v);
  assert.not.ok('json_ld' in v);
  assert.equal(Object.keys(v).slice(-4), ['show_map', 'show_map_link', 'global_id', 'global_id_lineage']);
  assert.is(v.show_map, true);
});

venues('post fields: author, timestamps as dates, description, draft status, unknown fields ignored', async () => {
  const { cal, users } = await makeCalendar({ timezone: 'America/New_York' });
  const ts = Date.UTC(2026, 2, 5, 14, 0, 0) / 1000; // tomorrow 9am New York
  const v = await cal.venues.create({
    venue: 'Post fields',
    author: users.editor.id,
    date: ts,
    date_utc: ts,
    description: 'About',
    status: 'draft',
    timezone: 'Europe/Paris',
  });
  assert.is(v.author, String(users.editor.id));
  assert.is(v.date, '2026-03-05 09:00:00');
  assert.is(v.date_utc, '2026-03-05 14:00:00');
  assert.is(v.description, '<p>About</p>');
  assert.is(v.status, 'draft');
});

venues(
  'bad values → 400: empty name, author 23/foo, date foo, unknown status, bad website, geo out of range',
  async () => {
    const { cal } = await makeCalendar();
    await rejects(cal.venues.create({}), 'rest_missing_callback_param', 400);
    for (const bad of [
      { venue: '' },
      { venue: 'x', author: 23 },
      { venue: 'x', author: 'foo' },
      { venue: 'x', date: 'foo' },
      { venue: 'x', date_utc: 'foo' },
      { venue: 'x', status: 'kinda_thinking_about_it' },
      { venue: 'x', website: 'foo' },
      { venue: 'x', geo_lat: 91, geo_lng: 0 },
      { venue: 'x', geo_lat: 10 },
    ]) {
      await rejects(cal.venues.create(bad), 'rest_invalid_param', 400);
    }
    await rejects(cal.venues.create({ venue: 'x' }, null), 'rest_forbidden', 401);
  },
);

venues('meta: flags "false", address fields echoed, stateprovince derived', async () => {
  const { cal } = await makeCalendar();
  const fields = {
    address: 'Baker St 1',
    city: 'London',
    country: 'United Kingdom',
    province: 'Greater London',
    state: '',
    zip: 'NW1',
    phone: '123',
    website: 'http://example.org',
  };
  const v = await cal.venues.create({
    venue: 'Meta',
    show_map: 'false',
    show_map_link: 'false',
    ...fields,
    geo_lat: 51.52,
    geo_lng: -0.158,
  });
  assert.is(v.show_map, false);
  assert.is(v.show_map_link, false);
  for (const [k, val] of Object.entries(fields)) if (val) assert.is(v[k], val, k);
  assert.is(v.stateprovince, 'Greater London');
  assert.is(v.geo_lat, 51.52);
  const us = await cal.venues.create({ venue: 'US', country: 'US', state: 'NY', province: 'ignored' });
  assert.is(us.stateprovince, 'NY');
});

venues('duplicates: same name (any case) or name+description returns the first id, meta written onto it', async () => {
  const { cal } = await makeCalendar();
  const first = await cal.venues.create({ venue: 'A venue', description: 'desc' });
  assert.is((await cal.venues.create({ venue: 'A venue', description: 'desc' })).id, first.id);
  assert.is((await cal.venues.create({ venue: 'A venue' })).id, first.id);
  const again = await cal.venues.create({ venue: 'a VENUE', city: 'Paris' });
  assert.is(again.id, first.id);
  assert.is(again.city, 'Paris');
  assert.not.equal((await cal.venues.create({ venue: 'A venue', description: 'other' })).id, first.id);
});

venues(
  'update: empty strings clear keys, flags reset to true when omitted, renaming onto another name allowed',
  async () => {
    const { cal } = await makeCalendar();
    const v = await cal.venues.create({
      venue: 'Venue 2',
      address: 'a',
      city: 'c',
      phone: 'p',
      website: 'http://w.example.org',
      show_map: false,
    });
    const cleared = await cal.venues.update(v.id as number, {
      show_map: 'false',
      show_map_link: 'false',
      address: '',
      city: '',
      phone: '',
      website: '',
    });
    for (const k of ['address', 'city', 'phone', 'website']) assert.not.ok(k in cleared, k);
    assert.is(cleared.show_map, false);
    const reset = await cal.venues.update(v.id as number, { venue: 'Venue 2' });
    assert.is(reset.show_map, true);
    await cal.venues.create({ venue: 'Venue 1' });
    assert.is((await cal.venues.update(v.id as number, { venue: 'Venue 1' })).venue, 'Venue 1');
    await rejects(cal.venues.update(v.id as number, { venue: '' }), 'rest_invalid_param', 400);
    await rejects(cal.venues.update(23, { venue: 'x' }), 'rest_invalid_param', 400);
  },
);

venues('get: 400 unknown id/slug, 403 draft for anonymous, 200 for editors, json_ld', async () => {
  const { cal, users } = await makeCalendar();
  await rejects(cal.venues.get(23), 'rest_invalid_param', 400);
  await rejects(cal.venues.get('nope'), 'rest_invalid_param', 400);
  const d = await cal.venues.create({ venue: 'Draft hall', status: 'draft', slug: 'draft-hall' });
  await rejects(cal.venues.get(d.id as number, null), 'venue-not-accessible', 403);
  await rejects(cal.venues.get('draft-hall', null), 'venue-not-accessible', 403);
  const seen = await cal.venues.get(d.id as number, users.editor.login);
  assert.is((seen.json_ld as Record<string, unknown>)['@type'], 'Place');
});

venues('delete: trash, 410 again, unlinked from events, permissions', async () => {
  const { cal, users } = await makeCalendar();
  const v = await cal.venues.create({ venue: 'Gone' });
  const ev = await cal.events.create({ ...baseEvent, venue: v.id });
  await rejects(cal.venues.delete(v.id as number, null), 'rest_forbidden', 401);
  await rejects(cal.venues.delete(v.id as number, users.contributor.login), 'rest_forbidden', 403);
  await rejects(cal.venues.update(v.id as number, { venue: 'x' }, users.contributor.login), 'rest_forbidden', 403);
  assert.is((await cal.venues.delete(v.id as number)).status, 'trash');
  await rejects(cal.venues.delete(v.id as number), 'venue-is-in-trash', 410);
  assert.equal((await cal.events.get(ev.id as number)).venue, []);
  await rejects(cal.venues.delete(23, null), 'rest_invalid_param', 400);
});

venues(
  'list: newest publication date first, then the higher id, after every create, update and trash (the engine keeps the order between writes)',
  async () => {
    const { cal } = await makeCalendar();
    const ids = async () => (await cal.venues.list({ per_page: 50 })).items.map((v) => v.id as number);
    const a = await cal.venues.create({ venue: 'Older', date: '2024-01-01 10:00:00' });
    const b = await cal.venues.create({ venue: 'Newer', date: '2025-01-01 10:00:00' });
    const c = await cal.venues.create({ venue: 'Same date', date: '2025-01-01 10:00:00' });
    assert.equal(await ids(), [c.id, b.id, a.id]);
    const d = await cal.venues.create({ venue: 'Newest', date: '2026-01-01 10:00:00' });
    assert.equal(await ids(), [d.id, c.id, b.id, a.id]);
    await cal.venues.update(a.id as number, { venue: 'Older', date: '2027-01-01 10:00:00' });
    assert.equal(await ids(), [a.id, d.id, c.id, b.id]);
    await cal.venues.delete(c.id as number);
    assert.equal(await ids(), [a.id, d.id, b.id]);
    const o1 = await cal.organizers.create({ organizer: 'First', date: '2024-05-01 10:00:00' });
    const o2 = await cal.organizers.create({ organizer: 'Second', date: '2024-06-01 10:00:00' });
    assert.equal(
      (await cal.organizers.list({})).items.map((o) => o.id),
      [o2.id, o1.id],
    );
  },
);

venues.run();

// ---

const organizers = suite('organizers');

organizers('create, meta, duplicates, update clears and keeps', async () => {
  const { cal } = await makeCalendar();
  const o = await cal.organizers.create({
    organizer: 'A organizer',
    email: 'one@common.com',
    phone: '111',
    website: 'http://one.com',
  });
  assert.equal([o.organizer, o.email, o.phone, o.website], ['A organizer', 'one@common.com', '111', 'http://one.com']);
  assert.is((await cal.organizers.create({ organizer: 'A organizer', phone: '222' })).id, o.id);
  const kept = await cal.organizers.update(o.id as number, { organizer: 'A organizer' });
  assert.equal([kept.email, kept.phone], ['one@common.com', '222']);
  const cleared = await cal.organizers.update(o.id as number, { email: '', phone: '', website: '' });
  assert.is(cleared.organizer, 'A organizer');
  for (const k of ['email', 'phone', 'website']) assert.not.ok(k in cleared, k);
  await rejects(cal.organizers.create({ organizer: '' }), 'rest_invalid_param', 400);
  await rejects(
    cal.organizers.create({ organizer: 'x', status: 'kinda_thinking_about_it' }),
    'rest_invalid_param',
    400,
  );
});

organizers('delete unlinks from events; 410 on a second delete', async () => {
  const { cal } = await makeCalendar();
  const o = await cal.organizers.create({ organizer: 'Leaving' });
  const ev = await cal.events.create({ ...baseEvent, organizer: [o.id] });
  await cal.organizers.delete(o.id as number);
  assert.equal((await cal.events.get(ev.id as number)).organizer, []);
  await rejects(cal.organizers.delete(o.id as number), 'organizer-is-in-trash', 410);
});

organizers.run();

// ---------------------------------------------------------------------------------------------
// Venue*/Organizer* behaviours as the plugin's own HTTP tests read them:
// archives (empty, cap, URLs, bad paging, status), search, has_events / event / only_with_upcoming,
// deletion, insertion (post fields, images, duplicates), single / by-slug, updates.
// Site UTC unless stated; clock Wednesday 2026-03-04 15:00 UTC (helpers NOW).

type Kind = 'venue' | 'organizer';
const KINDS: Kind[] = ['venue', 'organizer'];
const ROOT = 'http://example.com/wp-json/tribe/events/v1/';
const IMAGE_URL = 'http://example.com/wp-content/uploads/featured-image.jpg';

const api = (cal: Calendar, kind: Kind) => (kind === 'venue' ? cal.venues : cal.organizers);
const plural = (kind: Kind) => (kind === 'venue' ? 'venues' : 'organizers') as 'venues' | 'organizers';

async function make(cal: Calendar, kind: Kind, name: string, extra: Params = {}, as?: string | null): Promise<number> {
  return (await api(cal, kind).create({ [kind]: name, ...extra }, as)).id as number;
}

async function many(
  cal: Calendar,
  kind: Kind,
  n: number,
  extra: Params = {},
  prefix: string = kind,
): Promise<number[]> {
  const out: number[] = [];
  for (let i = 1; i <= n; i++) out.push(await make(cal, kind, `${prefix} ${i}`, extra));
  return out;
}

/** The raw REST list answer: parsed body and headers. */
const rawList = (cal: Calendar, kind: Kind, params: Params, actor: Actor = null) =>
  restList(cal, plural(kind), params, actor);

const sorted = (xs: number[]) => xs.slice().sort((a, b) => a - b);
const listIds = async (cal: Calendar, kind: Kind, q: Params, as?: string | null) =>
  sorted((await api(cal, kind).list({ per_page: 50, ...q }, as)).items.map((x) => x.id as number));

/** An event (one hour) at a local start, linked to the given record. */
async function eventFor(cal: Calendar, kind: Kind, id: number, start: string, extra: Params = {}): Promise<number> {
  const end = start.replace(/ (\d\d):/, (_m, h: string) => ` ${String(Number(h) + 1).padStart(2, '0')}:`);
  const link = kind === 'venue' ? { venue: id } : { organizer: [id] };
  return (
    await cal.events.create({
      title: `Event for ${id} at ${start}`,
      start_date: start,
      end_date: end,
      ...link,
      ...extra,
    })
  ).id as number;
}

// ---------------------------------------------------------------------------------------------
const archive = suite('venues and organizers :: venue/organizer archives');

for (const kind of KINDS) {
  archive(`${kind}s: empty archive → 200, [], totals 0, headers 0, no next/previous`, async () => {
    const { cal } = await makeCalendar();
    assertEmptyArchive(await rawList(cal, kind, {}), plural(kind));
  });

  archive(`${kind}s: per_page=100 is capped at 50`, async () => {
    const { cal } = await makeCalendar();
    await many(cal, kind, 51);
    const page = await api(cal, kind).list({ per_page: 100 });
    assert.equal([page.items.length, page.total, page.totalPages], [50, 51, 2]);
  });

  archive(`${kind}s: rest_url identity, previous_rest_url on pages 2 and 3`, async () => {
    const { cal } = await makeCalendar({ perPage: 3 });
    await many(cal, kind, 9);
    const base = `${ROOT}${plural(kind)}/`;
    const p1 = await rawList(cal, kind, {});
    assert.ok((p1.body.rest_url as string).startsWith(base), String(p1.body.rest_url));
    // the status the list was read with is in every URL (anonymous: publish)
    assert.equal(p1.body.rest_url, `${base}?page=1&per_page=3&status=publish`);
    assert.not.ok('previous_rest_url' in p1.body);
    const p3 = await rawList(cal, kind, { page: 3 });
    // the neighbours' URLs are URL-encoded with `page` last
    assert.equal(p3.body.previous_rest_url, `${base}?per_page=3&status=publish&page=2`);
    assert.not.ok('next_rest_url' in p3.body);
    const p2 = await rawList(cal, kind, { page: 2 });
    // previous page is 1: the archive root URL, without a page argument
    assert.equal(p2.body.previous_rest_url, `${base}?per_page=3&status=publish`);
    assert.equal(p2.body.next_rest_url, `${base}?per_page=3&status=publish&page=3`);
    assert.equal(p2.headers, { 'X-TEC-Total': '9', 'X-TEC-TotalPages': '3' });
  });

  archive(`${kind}s: page / per_page not a positive integer → 400 rest_invalid_param`, async () => {
    const { cal } = await makeCalendar();
    await many(cal, kind, 2);
    for (const bad of ['foo', '-1', '0', 'foo bar']) {
      const e1 = await rejects(api(cal, kind).list({ page: bad }), 'rest_invalid_param', 400);
      assert.ok('page' in (e1.data.params as Record<string, unknown>));
      await rejects(api(cal, kind).list({ per_page: bad }), 'rest_invalid_param', 400);
      await rejects(api(cal, kind).list({ page: bad }, null), 'rest_invalid_param', 400);
    }
  });

  archive(`${kind}s: drafts hidden from anonymous (empty archive), shown to editors`, async () => {
    const { cal, users } = await makeCalendar();
    const drafts = await many(cal, kind, 3, { status: 'draft' });
    assertEmptyArchive(await rawList(cal, kind, {}, null), plural(kind));
    assert.equal(await listIds(cal, kind, {}, users.editor.login), sorted(drafts));
  });

  archive(`${kind}s: status filter for editors; bad statuses 400; anonymous only "publish"`, async () => {
    const { cal, users } = await makeCalendar({ perPage: 20 });
    const pub = await many(cal, kind, 3, { status: 'publish' }, 'Published');
    await many(cal, kind, 3, { status: 'draft' }, 'Draft');
    await many(cal, kind, 3, { status: 'pending' }, 'Pending');
    const ed = users.editor.login;
    assert.equal(await listIds(cal, kind, { status: 'publish' }, ed), sorted(pub));
    assert.is((await api(cal, kind).list({ status: 'publish, draft' }, ed)).total, 6);
    assert.is((await api(cal, kind).list({ status: ['publish', 'draft', 'pending'] }, ed)).total, 9);
    for (const bad of ['foo', 'foo, bar', 'foo, bar, publish'])
      await rejects(api(cal, kind).list({ status: bad }, ed), 'rest_invalid_param', 400);
    assert.equal(await listIds(cal, kind, { status: 'publish' }, null), sorted(pub));
    await rejects(api(cal, kind).list({ status: 'publish, draft' }, null), 'rest_invalid_param', 400);
  });
}

archive.run();

// ---------------------------------------------------------------------------------------------
const search = suite('venues and organizers :: venue/organizer search');

for (const kind of KINDS) {
  search(`${kind}s: by title, description and excerpt; no match → 200 empty`, async () => {
    const { cal } = await makeCalendar();
    const cap = kind === 'venue' ? 'Venue' : 'Organizer';
    for (const w of ['foo', 'baz', 'bar']) {
      await make(cal, kind, `${cap} ${w}`, { description: `Content ${w}`, excerpt: `Excerpt ${w}` });
    }
    const count = async (s: string) => (await api(cal, kind).list({ search: s })).total;
    assertEmptyArchive(await rawList(cal, kind, { search: 'woo' }), plural(kind));
    assert.is(await count(cap), 3);
    assert.is(await count(`${cap} foo`), 1);
    assert.is(await count('Content'), 3);
    assert.is(await count('Content foo'), 1);
    assert.is(await count('Excerpt'), 3);
    assert.is(await count('Excerpt foo'), 1);
  });
}

search('venues: by custom fields (phone, province, words in any order, country not searched)', async () => {
  const { cal } = await makeCalendar();
  const baker = await make(cal, 'venue', 'Venue Baker', {
    address: '221b Baker St',
    city: 'London',
    country: 'United Kingdom',
    province: 'Greater London',
    zip: '223345',
    phone: '1111111',
  });
  const picc = await make(cal, 'venue', 'Venue Piccadilly', {
    address: 'Piccadilly Circus',
    city: 'London',
    country: 'United Kingdom',
    province: 'Greater London',
    zip: '223345',
    phone: '2222222',
  });
  const paris = await make(cal, 'venue', 'Venue Temple', {
    address: '100, Avenue du Temple',
    city: 'Paris',
    country: 'France',
    province: 'Ile de France',
    zip: '75003',
    phone: '3333333',
  });
  const ids = (s: string) => listIds(cal, 'venue', { search: s });
  assert.equal(await ids('Venue'), sorted([baker, picc, paris]));
  assert.equal(await ids('london'), sorted([baker, picc]));
  assert.equal(await ids('3333333'), [paris]);
  assert.equal(await ids('temple avenue'), [paris]);
  assert.equal(await ids('greater london'), sorted([baker, picc]));
  assert.equal(await ids('france'), [paris]);
  assert.equal(await ids('france, ile de'), [paris]);
  assert.equal(await ids('223345'), sorted([baker, picc]));
  // country is not a searched field (docs/behaviour.md)
  assert.equal(await ids('united kingdom'), []);
});

search('organizers: by phone, email and website', async () => {
  const { cal } = await makeCalendar();
  const one = await make(cal, 'organizer', 'Organizer one', {
    phone: '111111111',
    email: 'one@common.com',
    website: 'http://one.com',
  });
  const two = await make(cal, 'organizer', 'Organizer two', {
    phone: '111112222',
    email: 'two@common.com',
    website: 'http://two.com',
  });
  const three = await make(cal, 'organizer', 'Organizer three', {
    phone: '222223333',
    email: 'three@three.com',
    website: 'http://three.com',
  });
  const ids = (s: string) => listIds(cal, 'organizer', { search: s });
  assert.equal(await ids('Organizer'), sorted([one, two, three]));
  assert.equal(await ids('1111'), sorted([one, two]));
  assert.equal(await ids('111111111'), [one]);
  assert.equal(await ids('222223333'), [three]);
  assert.equal(await ids('three@three.com'), [three]);
  assert.equal(await ids('common.com'), sorted([one, two]));
  assert.equal(await ids('http://one.com'), [one]);
  assert.equal(await ids('@common.com'), sorted([one, two]));
});

search.run();

// ---------------------------------------------------------------------------------------------
const related = suite('venues and organizers :: has_events / event / only_with_upcoming');

for (const kind of KINDS) {
  related(`${kind}s: has_events true/false; draft and pending events do not count, trashed ones do`, async () => {
    const { cal } = await makeCalendar();
    const [r1, r2, r3, r4, r5] = await many(cal, kind, 5);
    await eventFor(cal, kind, r1, '2026-04-01 10:00:00', { status: 'draft' });
    await eventFor(cal, kind, r2, '2026-04-01 10:00:00', { status: 'pending' });
    await eventFor(cal, kind, r3, '2026-04-01 10:00:00');
    const trashed = await eventFor(cal, kind, r5, '2026-04-01 10:00:00');
    await cal.events.delete(trashed);
    assert.equal(await listIds(cal, kind, { has_events: true }), sorted([r3, r5]));
    assert.equal(await listIds(cal, kind, { has_events: 'false' }), sorted([r1, r2, r4]));
  });

  related(
    `${kind}s: has_events=true with no linked record, has_events=false when all have events → empty`,
    async () => {
      const { cal } = await makeCalendar();
      const recs = await many(cal, kind, 3);
      await cal.events.create({
        title: 'unrelated',
        start_date: '2026-04-01 10:00:00',
        end_date: '2026-04-01 11:00:00',
      });
      assertEmptyArchive(await rawList(cal, kind, { has_events: true }), plural(kind));
      for (const id of recs) await eventFor(cal, kind, id, '2026-04-02 10:00:00');
      assertEmptyArchive(await rawList(cal, kind, { has_events: false }), plural(kind));
      assert.equal(await listIds(cal, kind, { has_events: true }), sorted(recs));
    },
  );

  related(`${kind}s: event=<id> → exactly the linked record; event=23 / foo → 400`, async () => {
    const { cal } = await makeCalendar();
    const recs = await many(cal, kind, 3);
    const evs: number[][] = [];
    for (const id of recs) {
      const row: number[] = [];
      for (const day of ['10', '11', '12']) row.push(await eventFor(cal, kind, id, `2026-04-${day} 10:00:00`));
      evs.push(row);
    }
    for (let i = 0; i < 3; i++) assert.equal(await listIds(cal, kind, { event: evs[i][1] }), [recs[i]]);
    await rejects(api(cal, kind).list({ event: 23 }), 'rest_invalid_param', 400);
    await rejects(api(cal, kind).list({ event: 'foo' }), 'rest_invalid_param', 400);
    await rejects(api(cal, kind).list({ event: recs[0] }), 'rest_invalid_param', 400); // not an event
  });

  related(`${kind}s: event without links, or no ${kind}s at all → 200 empty`, async () => {
    const { cal } = await makeCalendar();
    const lonely = (
      await cal.events.create({ title: 'lonely', start_date: '2026-04-01 10:00:00', end_date: '2026-04-01 11:00:00' })
    ).id;
    assertEmptyArchive(await rawList(cal, kind, { event: lonely }), plural(kind));
    await many(cal, kind, 3);
    assertEmptyArchive(await rawList(cal, kind, { event: lonely }), plural(kind));
  });

  related(`${kind}s: a draft ${kind} linked to an event is hidden from anonymous, shown to editors`, async () => {
    const { cal, users } = await makeCalendar();
    const draft = await make(cal, kind, 'Draft one', { status: 'draft' });
    const ev = await eventFor(cal, kind, draft, '2026-04-01 10:00:00');
    assertEmptyArchive(await rawList(cal, kind, { event: ev }, null), plural(kind));
    const seen = await rawList(cal, kind, { event: ev }, users.editor);
    assert.equal(
      (seen.body[plural(kind)] as Array<{ id: number }>).map((x) => x.id),
      [draft],
    );
    assert.is(seen.body.total, 1);
  });

  related(`${kind}s: only_with_upcoming true/false; only past events → empty`, async () => {
    const { cal } = await makeCalendar();
    const [r1, r2, r3, r4] = await many(cal, kind, 4);
    await eventFor(cal, kind, r1, '2026-04-04 10:00:00');
    await eventFor(cal, kind, r2, '2026-04-04 12:00:00');
    await eventFor(cal, kind, r3, '2026-02-04 10:00:00');
    assert.equal(await listIds(cal, kind, { only_with_upcoming: true }), sorted([r1, r2]));
    assert.equal(await listIds(cal, kind, { only_with_upcoming: 'false' }), sorted([r1, r2, r3, r4]));

    const past = await makeCalendar();
    const [p1, p2] = await many(past.cal, kind, 2);
    await eventFor(past.cal, kind, p1, '2026-02-04 10:00:00');
    await eventFor(past.cal, kind, p2, '2026-01-04 10:00:00');
    assertEmptyArchive(await rawList(past.cal, kind, { only_with_upcoming: 'true' }), plural(kind));
  });

  related(`${kind}s: private upcoming events count for editors only; draft/pending never for anonymous`, async () => {
    const { cal, users } = await makeCalendar();
    const [r1, r2, r3, r4, r5] = await many(cal, kind, 5);
    await eventFor(cal, kind, r1, '2026-04-04 10:00:00');
    await eventFor(cal, kind, r2, '2026-04-04 10:00:00', { status: 'private' });
    await eventFor(cal, kind, r3, '2026-04-04 10:00:00', { status: 'private' });
    await eventFor(cal, kind, r4, '2026-04-04 10:00:00', { status: 'draft' });
    await eventFor(cal, kind, r5, '2026-04-04 10:00:00', { status: 'pending' });
    assert.equal(await listIds(cal, kind, { only_with_upcoming: 'yes' }, null), [r1]);
    assert.equal(
      await listIds(cal, kind, { only_with_upcoming: 'yes' }, users.editor.login),
      sorted([r1, r2, r3, r4, r5]),
    );
  });
}

// docs/behaviour.md: "only records linked to events that start on/after *now* (UTC clock string)",
// compared, like every list date (docs/behaviour.md), with each event's LOCAL wall-clock start — the
// real service passes date('Y-m-d H:i:s') (UTC) to an events query that reads it as site-local time
// and compares it with _EventStartDate. So on a New York site at 15:00 UTC (10:00 New York):
//   12:00 NY (17:00 UTC, really ahead) is NOT upcoming; 15:00 NY is (boundary, >=);
//   20:00 Tokyo (11:00 UTC, already past) IS upcoming.
related(
  'only_with_upcoming compares local starts with the UTC wall clock (not instants), America/New_York site',
  async () => {
    const { cal } = await makeCalendar({ timezone: 'America/New_York' });
    const [noon, boundary, tokyo, before] = await many(cal, 'venue', 4);
    await eventFor(cal, 'venue', noon, '2026-03-04 12:00:00');
    await eventFor(cal, 'venue', boundary, '2026-03-04 15:00:00');
    await eventFor(cal, 'venue', tokyo, '2026-03-04 20:00:00', { timezone: 'Asia/Tokyo' });
    await eventFor(cal, 'venue', before, '2026-03-04 14:59:59');
    assert.equal(await listIds(cal, 'venue', { only_with_upcoming: true }), sorted([boundary, tokyo]));
  },
);

related.run();

// ---------------------------------------------------------------------------------------------
const del = suite('venues and organizers :: deletion and authorization');

del('organizers: anonymous DELETE /organizers/23 → 400 (validation first); existing → 401', async () => {
  const { cal } = await makeCalendar();
  await rejects(cal.organizers.delete(23, null), 'rest_invalid_param', 400);
  const id = await make(cal, 'organizer', 'Kept');
  await rejects(cal.organizers.delete(id, null), 'rest_forbidden', 401);
  assert.is((await cal.organizers.get(id)).status, 'publish');
});

del('organizers: contributor cannot edit or delete an admin organizer (403); admin delete → 200 with id', async () => {
  const { cal, users } = await makeCalendar();
  const id = await make(cal, 'organizer', 'Admin organizer');
  await rejects(cal.organizers.update(id, { organizer: 'Hijacked' }, users.contributor.login), 'rest_forbidden', 403);
  await rejects(cal.organizers.delete(id, users.contributor.login), 'rest_forbidden', 403);
  assert.is((await cal.organizers.get(id)).organizer, 'Admin organizer');
  const gone = await cal.organizers.delete(id);
  assert.equal([gone.id, gone.status], [id, 'trash']);
});

del.run();

// ---------------------------------------------------------------------------------------------
const insert = suite('venues and organizers :: insertion');

insert('organizers: post fields (author, timestamp dates, description, draft status)', async () => {
  const { cal, users } = await makeCalendar({ timezone: 'America/New_York' });
  const local9 = Date.UTC(2026, 2, 5, 14, 0, 0) / 1000; // tomorrow 9am New York
  const utc9 = Date.UTC(2026, 2, 5, 9, 0, 0) / 1000; // tomorrow 9am UTC
  const o = await cal.organizers.create({
    organizer: 'A organizer',
    author: users.editor.id,
    date: local9,
    date_utc: utc9,
    description: 'Organizer description',
    status: 'draft',
  });
  assert.equal(
    [o.organizer, o.author, o.date, o.date_utc, o.description],
    [
      'A organizer',
      String(users.editor.id),
      '2026-03-05 09:00:00',
      '2026-03-05 09:00:00',
      '<p>Organizer description</p>',
    ],
  );
  assert.is((await cal.organizers.get(o.id as number, users.editor.login)).status, 'draft');
});

insert('organizers: bad post field values → 400 (author 23/foo, date foo, date_utc foo)', async () => {
  const { cal } = await makeCalendar();
  for (const [k, v] of [
    ['author', 23],
    ['author', 'foo'],
    ['date', 'foo'],
    ['date_utc', 'foo'],
  ] as const) {
    const e = await rejects(cal.organizers.create({ organizer: 'A organizer', [k]: v }), 'rest_invalid_param', 400);
    assert.ok(k in (e.data.params as Record<string, unknown>), k);
  }
  assert.is((await cal.organizers.list()).total, 0);
});

for (const kind of KINDS) {
  insert(`${kind}s: image as an attachment id and as the attachment URL (reused)`, async () => {
    const { cal } = await makeCalendar();
    // an upload: the first record with this image URL creates the attachment
    const seed = await api(cal, kind).create({ [kind]: 'Uploader', image: IMAGE_URL });
    const att = (seed.image as { id: number; url: string }).id;
    assert.type(att, 'number');
    assert.is((seed.image as { url: string }).url, IMAGE_URL);
    const byId = await api(cal, kind).create({ [kind]: 'By id', image: att });
    assert.is((byId.image as { id: number }).id, att);
    const byUrl = await api(cal, kind).create({ [kind]: 'By url', image: IMAGE_URL });
    assert.is((byUrl.image as { id: number }).id, att);
  });
}

/** In a new calendar, a second `kind` named `name` with its description, without it, or both in
 *  lower case is the first one (its id comes back, no record is made). */
async function sameNameIsFirst(kind: Kind, name: string): Promise<void> {
  const { cal } = await makeCalendar();
  const described = { description: `${name} description` };
  const first = await make(cal, kind, name, described);
  assert.is(await make(cal, kind, name, described), first);
  assert.is(await make(cal, kind, name), first);
  assert.is(await make(cal, kind, name.toLowerCase(), { description: described.description.toLowerCase() }), first);
}

insert(
  'venues: duplicates — lower-cased name+description and lower-cased custom-field subsets return the first id',
  async () => {
    await sameNameIsFirst('venue', 'A venue');

    const other = await makeCalendar();
    const full = {
      description: 'A venue description',
      address: 'A venue address',
      city: 'A venue city',
      country: 'A venue country',
      province: 'A venue province',
      state: 'A venue state',
      stateprovince: 'A venue stateprovince',
      zip: 'A venue zip',
      phone: '11223344',
    };
    const x = await make(other.cal, 'venue', 'A venue', full);
    assert.is(await make(other.cal, 'venue', 'A venue', full), x);
    assert.is(
      await make(other.cal, 'venue', 'a venue', {
        country: 'a venue country',
        province: 'a venue province',
        state: 'a venue state',
        phone: '11223344',
      }),
      x,
    );
    assert.is(await make(other.cal, 'venue', 'a venue', { description: 'a venue description', phone: '11223344' }), x);
    assert.is(
      await make(other.cal, 'venue', 'a venue', {
        description: 'a venue description',
        address: 'a venue address',
        city: 'a venue city',
        country: 'a venue country',
      }),
      x,
    );
    assert.is((await other.cal.venues.list()).total, 1);
  },
);

insert(
  'organizers: duplicates — name(+description, any case) and phone/email/website subsets return the first id',
  async () => {
    await sameNameIsFirst('organizer', 'An organizer');

    const other = await makeCalendar();
    const meta = { phone: '11223344', email: 'doe@anizer.org', website: 'http://anizer.org' };
    const x = await make(other.cal, 'organizer', 'A organizer', meta);
    assert.is(await make(other.cal, 'organizer', 'A organizer', meta), x);
    assert.is(await make(other.cal, 'organizer', 'A organizer', { email: meta.email, website: meta.website }), x);
    assert.is(await make(other.cal, 'organizer', 'A organizer', { phone: meta.phone, website: meta.website }), x);
    assert.is(await make(other.cal, 'organizer', 'A organizer', { website: meta.website }), x);
    assert.is((await other.cal.organizers.list()).total, 1);
  },
);

insert.run();

// ---------------------------------------------------------------------------------------------
const single = suite('venues and organizers :: single and by-slug');

const VENUE_KEYS = [
  'id',
  'author',
  'date',
  'date_utc',
  'modified',
  'modified_utc',
  'status',
  'url',
  'venue',
  'description',
  'excerpt',
  'show_map',
  'show_map_link',
  'address',
  'city',
  'country',
  'province',
  'state',
  'zip',
  'phone',
  'website',
  'stateprovince',
  'json_ld',
  'global_id',
  'global_id_lineage',
  'image',
];
const ORGANIZER_KEYS = [
  'id',
  'author',
  'date',
  'date_utc',
  'modified',
  'modified_utc',
  'status',
  'url',
  'organizer',
  'description',
  'excerpt',
  'image',
  'phone',
  'website',
  'email',
  'json_ld',
  'global_id',
  'global_id_lineage',
];

single('venue: GET by id and by slug carry the plugin key set', async () => {
  const { cal, users } = await makeCalendar();
  const v = await cal.venues.create(
    {
      venue: 'Full venue',
      description: 'Desc',
      excerpt: 'Exc',
      address: 'Addr 1',
      city: 'City',
      country: 'Country',
      province: 'Prov',
      state: 'State',
      zip: '12345',
      phone: '555',
      website: 'http://venue.example.org',
      stateprovince: 'SP',
      image: IMAGE_URL,
    },
    users.administrator.login,
  );
  for (const got of [await cal.venues.get(v.id as number, null), await cal.venues.get(v.slug as string, null)]) {
    for (const k of VENUE_KEYS) assert.ok(k in got, `venue key ${k}`);
    assert.is(got.id, v.id);
  }
});

single('organizer: GET by id and by slug carry the plugin key set', async () => {
  const { cal, users } = await makeCalendar();
  const o = await cal.organizers.create(
    {
      organizer: 'Full organizer',
      description: 'Desc',
      excerpt: 'Exc',
      phone: '555',
      website: 'http://org.example.org',
      email: 'o@example.org',
      image: IMAGE_URL,
    },
    users.administrator.login,
  );
  for (const got of [
    await cal.organizers.get(o.id as number, null),
    await cal.organizers.get(o.slug as string, null),
  ]) {
    for (const k of ORGANIZER_KEYS) assert.ok(k in got, `organizer key ${k}`);
    assert.is(got.id, o.id);
  }
});

single('organizer draft: anonymous → 403 by id and by slug; editor → 200; unknown slug → 400', async () => {
  const { cal, users } = await makeCalendar();
  const id = await make(cal, 'organizer', 'Draft organizer', { status: 'draft', slug: 'draft-organizer' });
  await rejects(cal.organizers.get(id, null), 'organizer-not-accessible', 403);
  await rejects(cal.organizers.get('draft-organizer', null), 'organizer-not-accessible', 403);
  assert.is((await cal.organizers.get(id, users.editor.login)).id, id);
  assert.is((await cal.organizers.get('draft-organizer', users.editor.login)).id, id);
  await rejects(cal.organizers.get('no-such-organizer', null), 'rest_invalid_param', 400);
  await rejects(cal.organizers.get(23, null), 'rest_invalid_param', 400);
});

single.run();

// ---------------------------------------------------------------------------------------------
const update = suite('venues and organizers :: updates');

for (const kind of KINDS) {
  update(`${kind}s: post fields on update (author, timestamp dates, description, draft)`, async () => {
    const { cal, users } = await makeCalendar({ timezone: 'America/New_York' });
    const id = await make(cal, kind, `A ${kind}`);
    const local9 = Date.UTC(2026, 2, 5, 14, 0, 0) / 1000;
    const utc9 = Date.UTC(2026, 2, 5, 9, 0, 0) / 1000;
    const u = await api(cal, kind).update(id, {
      [kind]: `A ${kind}`,
      author: users.editor.id,
      date: local9,
      date_utc: utc9,
      description: `${kind} description`,
      status: 'draft',
    });
    assert.equal(
      [u.id, u[kind], u.author, u.date, u.date_utc, u.description, u.status],
      [
        id,
        `A ${kind}`,
        String(users.editor.id),
        '2026-03-05 09:00:00',
        '2026-03-05 09:00:00',
        `<p>${kind} description</p>`,
        'draft',
      ],
    );
    await rejects(api(cal, kind).get(id, null), `${kind}-not-accessible`, 403);
  });

  update(`${kind}s: bad post field values on update → 400, record unchanged`, async () => {
    const { cal } = await makeCalendar();
    const id = await make(cal, kind, `A ${kind}`);
    const before = await api(cal, kind).get(id);
    for (const [k, v] of [
      ['author', 23],
      ['author', 'foo'],
      ['date', 'foo'],
      ['date_utc', 'foo'],
      ['status', 'kinda_thinking_about_it'],
    ] as const) {
      await rejects(api(cal, kind).update(id, { [kind]: `A ${kind}`, [k]: v }), 'rest_invalid_param', 400);
    }
    assert.equal(await api(cal, kind).get(id), before);
  });

  update(`${kind}s: image on update as attachment id and as URL; "" removes it`, async () => {
    const { cal } = await makeCalendar();
    const seed = await api(cal, kind).create({ [kind]: 'Uploader', image: IMAGE_URL });
    const att = (seed.image as { id: number }).id;
    const id = await make(cal, kind, `A ${kind}`);
    assert.is(((await api(cal, kind).update(id, { image: att })).image as { id: number }).id, att);
    const other = await make(cal, kind, `Another ${kind}`);
    assert.is(((await api(cal, kind).update(other, { image: IMAGE_URL })).image as { id: number }).id, att);
    assert.not.ok('image' in (await api(cal, kind).update(other, { image: '' })));
    await rejects(api(cal, kind).update(id, { image: 23 }), 'rest_invalid_param', 400);
  });
}

update('venues: country, province, state, zip, stateprovince sent empty are absent afterwards', async () => {
  const { cal } = await makeCalendar();
  const v = await cal.venues.create({
    venue: 'Clear me',
    country: 'Country',
    province: 'Prov',
    state: 'State',
    zip: '12345',
    stateprovince: 'SP',
    city: 'Kept',
  });
  const u = await cal.venues.update(v.id as number, {
    show_map: 'false',
    show_map_link: 'false',
    country: '',
    province: '',
    state: '',
    zip: '',
    stateprovince: '',
  });
  for (const k of ['country', 'province', 'state', 'zip', 'stateprovince']) assert.not.ok(k in u, k);
  assert.equal([u.city, u.show_map, u.show_map_link], ['Kept', false, false]);
});

update('organizers: organizer="" on update → 400; renaming onto an existing name keeps both records', async () => {
  const { cal } = await makeCalendar();
  const o1 = await make(cal, 'organizer', 'Organizer 1');
  const o2 = await make(cal, 'organizer', 'Organizer 2');
  await rejects(cal.organizers.update(o2, { organizer: '' }), 'rest_invalid_param', 400);
  const renamed = await cal.organizers.update(o2, { organizer: 'Organizer 1' });
  assert.equal([renamed.id, renamed.organizer], [o2, 'Organizer 1']);
  assert.is((await cal.organizers.get(o1)).organizer, 'Organizer 1');
  assert.is((await cal.organizers.get(o2)).organizer, 'Organizer 1');
  assert.is((await cal.organizers.list()).total, 2);
});

update('venues: renaming onto an existing name keeps both records', async () => {
  const { cal } = await makeCalendar();
  const v1 = await make(cal, 'venue', 'Venue 1');
  const v2 = await make(cal, 'venue', 'Venue 2');
  await cal.venues.update(v2, { venue: 'Venue 1' });
  assert.equal([(await cal.venues.get(v1)).venue, (await cal.venues.get(v2)).venue], ['Venue 1', 'Venue 1']);
  assert.is((await cal.venues.list()).total, 2);
});

update.run();
