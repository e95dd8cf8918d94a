// Event, venue and organizer lists (docs/behaviour.md, the plugin's HTTP tests EventArchive*, Venue/Organizer archives).
// Site UTC; clock Wednesday 2026-03-04 15:00 UTC. "weekly" events start at now + n weeks, last 2 h.
import * as assert from 'uvu/assert';
import { suite } from 'uvu';
import type { Calendar } from '../../../src/calendar.ts';
import { NOW, ids, makeCalendar, rejects, assertEmptyArchive, restList } from '../../helpers/calendar.ts';
import { resolveActor } from '../../../src/api/wordpress/auth.ts';
import type { Params } from '../../../src/api/wordpress/types.ts';

const WEEK = 7 * 86_400_000;
const ymd = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

async function weekly(cal: Calendar, n: number, extra: Record<string, unknown> = {}, as?: string): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 1; i <= n; i++) {
    const start = NOW.getTime() + i * WEEK;
    const ev = await cal.events.create(
      { title: `Event ${i}`, start_date: ymd(start), end_date: ymd(start + 7_200_000), ...extra },
      as,
    );
    ids.push(ev.id as number);
  }
  return ids;
}

const events = suite('list :: events');

events('empty calendar → 200 with total 0', async () => {
  const { cal } = await makeCalendar();
  const res = await cal.rest({ resource: 'events', action: 'list', params: {}, actor: null });
  const body = JSON.parse(res.body);
  assert.equal([body.events, body.total, body.total_pages], [[], 0, 0]);
  assert.not.ok('next_rest_url' in body || 'previous_rest_url' in body);
  assert.equal(res.headers, { 'X-TEC-Total': '0', 'X-TEC-TotalPages': '0' });
});

events('per_page default, explicit, cap at 50; bad page/per_page → 400', async () => {
  const { cal } = await makeCalendar({ perPage: 5 });
  await weekly(cal, 7);
  assert.is((await cal.events.list()).items.length, 5);
  assert.is((await cal.events.list({ per_page: 10 })).items.length, 7);
  for (const bad of ['foo', '-1', '0', 'foo bar', '1.5']) {
    await rejects(cal.events.list({ page: bad }), 'rest_invalid_param', 400);
    await rejects(cal.events.list({ per_page: bad }), 'rest_invalid_param', 400);
  }
  const big = await makeCalendar();
  await weekly(big.cal, 51);
  assert.is((await big.cal.events.list({ per_page: 100 })).items.length, 50);
});

events(
  'rest_url text: non-ASCII, quotes and backslashes in a search escape as wp_json_encode; the default window follows the clock and strict_dates',
  async () => {
    let clock = NOW;
    const { cal } = await makeCalendar({ now: () => clock });
    await cal.events.create({
      title: 'Café "x" a\\b',
      start_date: '2026-03-05 09:00:00',
      end_date: '2026-03-05 11:00:00',
    });
    const body = async (q: Record<string, unknown>) =>
      (await cal.rest({ resource: 'events', action: 'list', params: q, actor: null })).body;
    const cafe = await body({ search: 'café' });
    assert.ok(cafe.includes('search=caf\\u00e9'), cafe.slice(-200));
    assert.is(JSON.parse(cafe).rest_url.split('search=')[1].split('&')[0], 'café');
    const quoted = JSON.parse(await body({ search: '"x" a\\b' }));
    assert.is(quoted.total, 1);
    assert.match(quoted.rest_url, /search="x" a\\b/);
    const base = JSON.parse(await body({})).rest_url;
    assert.match(base, /start_date=2026-03-03 00:00:00&end_date=2028-03-04 23:59:59/);
    clock = new Date(NOW.getTime() + 3 * 86_400_000); // three days later: the window moves with the clock
    assert.match(JSON.parse(await body({})).rest_url, /start_date=2026-03-06 00:00:00&end_date=2028-03-07 23:59:59/);
    assert.match(
      JSON.parse(await body({ strict_dates: 'true' })).rest_url,
      /start_date=2026-03-06 23:59:00&end_date=2028-03-07 15:00:00/,
    );
  },
);

events('rest_url, next_rest_url, previous_rest_url, 404 past the last page', async () => {
  const { cal } = await makeCalendar({ perPage: 3 });
  await weekly(cal, 7);
  const list = async (q: Record<string, unknown>) =>
    JSON.parse((await cal.rest({ resource: 'events', action: 'list', params: q, actor: null })).body);
  const p1 = await list({});
  assert.ok(
    p1.rest_url.startsWith(
      'http://example.com/wp-json/tribe/events/v1/events/?page=1&per_page=3&start_date=2026-03-03 00:00:00&end_date=2028-03-04 23:59:59',
    ),
  );
  assert.match(p1.next_rest_url, /page=2/);
  const p2 = await list({ page: 2 });
  assert.not.match(p2.previous_rest_url, /[?&]page=/);
  const p3 = await list({ page: 3 });
  assert.match(p3.previous_rest_url, /page=2/);
  assert.not.ok('next_rest_url' in p3);
  assert.equal([p3.total, p3.total_pages], [7, 3]);
  await rejects(cal.events.list({ page: 4 }), 'event-archive-page-not-found', 404);
});

events('start_date / end_date with whole-day inclusivity (timestamps)', async () => {
  const { cal } = await makeCalendar();
  await weekly(cal, 10);
  const now = NOW.getTime() / 1000;
  assert.is((await cal.events.list({ start_date: now + (5 * WEEK) / 1000, per_page: 50 })).total, 6);
  assert.is((await cal.events.list({ end_date: now + (5 * WEEK) / 1000 + 7200, per_page: 50 })).total, 5);
  assert.is((await cal.events.list({ start_date: now + 10 * 86400, end_date: now + 30 * 86400 })).total, 3);
  await rejects(cal.events.list({ start_date: '"before my birthday"' }), 'rest_invalid_param', 400);
  await rejects(cal.events.list({ end_date: '"after my birthday"' }), 'rest_invalid_param', 400);
});

events('default window: from yesterday 00:00 to 24 months ahead; relative params drop it', async () => {
  const { cal } = await makeCalendar();
  const mk = (title: string, start: string, end: string) =>
    cal.events.create({ title, start_date: start, end_date: end });
  const past = await mk('long ago', '2026-03-01 10:00:00', '2026-03-01 11:00:00');
  const yesterday = await mk('yesterday', '2026-03-03 08:00:00', '2026-03-03 09:00:00');
  const running = await mk('running', '2026-03-02 08:00:00', '2026-03-06 09:00:00');
  const far = await mk('far', '2028-03-05 08:00:00', '2028-03-05 09:00:00');
  assert.equal(ids(await cal.events.list()), [yesterday.id]);
  const overlap = await cal.events.list({ starts_before: '2026-03-04', ends_after: '2026-03-03' });
  assert.equal(ids(overlap), [running.id]);
  assert.equal(ids(await cal.events.list({ ends_before: '2026-03-03', per_page: 50 })), [past.id, yesterday.id]);
  assert.equal(ids(await cal.events.list({ starts_after: '2028-01-01' })), [far.id]);
  const strict = await cal.events.list({ start_date: '2026-03-03 08:30:00', strict_dates: 'true' });
  assert.equal(ids(strict), []);
});

events('search: every term in title/excerpt/description, folded', async () => {
  const { cal } = await makeCalendar({ perPage: 20 });
  await weekly(cal, 5, { title: 'foo' });
  await weekly(cal, 5, { title: 'foo bar' });
  await weekly(cal, 5, { title: 'bar' });
  assert.is((await cal.events.list({ search: 'foo' })).total, 10);
  assert.is((await cal.events.list({ search: 'bar' })).total, 10);
  assert.is((await cal.events.list({ search: 'foo bar' })).total, 5);
  await cal.events.create({ title: 'Café crème', start_date: '2026-03-05 10:00:00', end_date: '2026-03-05 11:00:00' });
  assert.is((await cal.events.list({ search: 'cafe' })).total, 1);
  await rejects(cal.events.list({ search: '' }), 'rest_invalid_param', 400);
});

events('status: editors see all but trash by default; anonymous only publish; bad statuses 400', async () => {
  const { cal, users } = await makeCalendar({ perPage: 20 });
  const pub = await weekly(cal, 3, { status: 'publish' });
  const drafts = await weekly(cal, 3, { status: 'draft' });
  const pending = await weekly(cal, 3, { status: 'pending' });
  const ed = users.editor.login;
  assert.equal(ids(await cal.events.list({ status: 'publish' }, ed)).sort(), pub.slice().sort());
  assert.is((await cal.events.list({ status: 'publish, draft' }, ed)).total, 6);
  assert.is((await cal.events.list({ status: ['publish', 'draft', 'pending'] }, ed)).total, 9);
  assert.is((await cal.events.list({}, ed)).total, 9);
  assert.is((await cal.events.list({}, null)).total, 3);
  for (const bad of ['foo', 'foo, bar', 'foo, bar, publish'])
    await rejects(cal.events.list({ status: bad }, ed), 'rest_invalid_param', 400);
  assert.is((await cal.events.list({ status: 'publish' }, null)).total, 3);
  await rejects(cal.events.list({ status: 'publish, draft' }, null), 'rest_invalid_param', 400);
  assert.equal([drafts.length, pending.length], [3, 3]);
});

events('categories/tags by slug or id, array or CSV; children included; unknown → 400', async () => {
  const { cal } = await makeCalendar({ perPage: 20 });
  const cat1 = await cal.categories.create({ name: 'cat1' });
  const cat2 = await cal.categories.create({ name: 'cat2' });
  const child = await cal.categories.create({ name: 'child', parent: cat1.id });
  const a = await weekly(cal, 2, { categories: [cat1.id] });
  const b = await weekly(cal, 2, { categories: [cat2.id] });
  const c = await weekly(cal, 1, { categories: [child.id] });
  await weekly(cal, 2);
  assert.is((await cal.events.list({ categories: ['cat1'] })).total, 3);
  assert.is((await cal.events.list({ categories: ['cat1', 'cat2'] })).total, 5);
  assert.is((await cal.events.list({ categories: `${cat2.id},${child.id}` })).total, 3);
  assert.equal(ids(await cal.events.list({ categories: 'cat2' })), b);
  await rejects(cal.events.list({ categories: ['nope'] }), 'rest_invalid_param', 400);
  await rejects(cal.events.list({ tags: ['tag1'] }), 'rest_invalid_param', 400);
  const empty = await cal.categories.create({ name: 'unused' });
  assert.is((await cal.events.list({ categories: [empty.id] })).total, 0);
  assert.equal([a.length, c.length], [2, 1]);
});

events('venue/organizer OR lists; non-numeric or unknown → 400', async () => {
  const { cal, users } = await makeCalendar({ perPage: 50 });
  const o1 = await cal.organizers.create({ organizer: 'o1' });
  const o2 = await cal.organizers.create({ organizer: 'o2' });
  const v1 = await cal.venues.create({ venue: 'v1' });
  await weekly(cal, 3, { organizer: [o1.id], venue: v1.id });
  await weekly(cal, 3, { organizer: [o2.id] });
  await weekly(cal, 3, { organizer: [o1.id, o2.id] });
  assert.is((await cal.events.list({ organizer: [o1.id, o2.id] })).total, 9);
  assert.is((await cal.events.list({ organizer: `${o1.id}` })).total, 6);
  assert.is((await cal.events.list({ venue: v1.id })).total, 3);
  for (const bad of ['foo', '23']) {
    await rejects(cal.events.list({ organizer: bad }), 'rest_invalid_param', 400);
    await rejects(cal.events.list({ venue: bad }), 'rest_invalid_param', 400);
  }
  await weekly(cal, 3, { organizer: [o1.id], status: 'draft' });
  assert.is((await cal.events.list({ organizer: o1.id }, null)).total, 6);
  assert.is((await cal.events.list({ organizer: o1.id }, users.editor.login)).total, 9);
});

events('featured, ticketed/ticket, hide_from_listings always excluded', async () => {
  const { cal, users } = await makeCalendar({ perPage: 50 });
  const feat = await weekly(cal, 3, { featured: true, ticketed: true });
  const plain = await weekly(cal, 3);
  await weekly(cal, 3, { featured: true, status: 'draft' });
  await weekly(cal, 2, { hide_from_listings: true });
  assert.equal(ids(await cal.events.list({ featured: true }, null)), feat);
  assert.equal(ids(await cal.events.list({ featured: 'false' }, null)), plain);
  assert.is((await cal.events.list({ featured: true }, users.editor.login)).total, 6);
  assert.equal(ids(await cal.events.list({ ticketed: true }, null)), feat);
  assert.equal(ids(await cal.events.list({ ticket: 'false' }, null)), plain);
  assert.is((await cal.events.list({}, null)).total, 6);
  await rejects(cal.events.list({ featured: 'maybe' }), 'rest_invalid_param', 400);
});

events('include ignores dates, orders by publication date then id; post_parent', async () => {
  const { cal } = await makeCalendar();
  const old = await cal.events.create({
    title: 'old',
    start_date: '2020-01-01 10:00:00',
    end_date: '2020-01-01 11:00:00',
    date: '2020-01-01 00:00:00',
  });
  const [a, b] = await weekly(cal, 2);
  assert.equal(ids(await cal.events.list({ include: [b, old.id as number, a] })), [old.id, a, b]);
  assert.equal(ids(await cal.events.list({ include: `${a},${b}` })), [a, b]);
  for (const bad of ['foo-bar,23,89', ['foo-bar', '23']])
    await rejects(cal.events.list({ include: bad }), 'rest_invalid_param', 400);
  const c1 = await cal.events.create({
    title: 'child',
    start_date: '2026-03-06 10:00:00',
    end_date: '2026-03-06 11:00:00',
    post_parent: a,
  });
  assert.equal(ids(await cal.events.list({ post_parent: a })), [c1.id]);
  await rejects(cal.events.list({ post_parent: 'foo-bar' }), 'rest_invalid_param', 400);
  await rejects(cal.events.list({ post_parent: 23 }), 'rest_invalid_param', 400);
});

events('geo: radius in miles (default 25) or km, geoloc true/false, lat without lng → 400', async () => {
  const { cal } = await makeCalendar({ perPage: 50 });
  const paris = await cal.venues.create({ venue: 'Paris', geo_lat: 48.8566, geo_lng: 2.3522 });
  const versailles = await cal.venues.create({ venue: 'Versailles', geo_lat: 48.8049, geo_lng: 2.1204 });
  const london = await cal.venues.create({ venue: 'London', geo_lat: 51.5072, geo_lng: -0.1276 });
  const nowhere = await cal.venues.create({ venue: 'No coords' });
  const [p] = await weekly(cal, 1, { venue: paris.id });
  const [v] = await weekly(cal, 1, { venue: versailles.id });
  const [l] = await weekly(cal, 1, { venue: london.id });
  const [n] = await weekly(cal, 1, { venue: nowhere.id });
  const [none] = await weekly(cal, 1);
  assert.equal(ids(await cal.events.list({ geoloc_lat: 48.8566, geoloc_lng: 2.3522 })), [p, v]);
  assert.equal(
    ids(await cal.events.list({ geoloc_lat: 48.8566, geoloc_lng: 2.3522, geoloc_radius: 10, geoloc_unit: 'km' })),
    [p],
  );
  assert.equal(
    ids(await cal.events.list({ geoloc_lat: 48.8566, geoloc_lng: 2.3522, geoloc_radius: 400, geoloc_unit: 'km' })),
    [p, v, l],
  );
  assert.equal(ids(await cal.events.list({ geoloc: true })), [p, v, l]);
  assert.equal(ids(await cal.events.list({ geoloc: false })), [n, none]);
  await rejects(cal.events.list({ geoloc_lat: 48 }), 'rest_invalid_param', 400);
  await rejects(cal.events.list({ geoloc_lat: 48, geoloc_lng: 2, geoloc_unit: 'parsec' }), 'rest_invalid_param', 400);
});

events.run();

// ---

const linked = suite('list :: venues and organizers');

linked('has_events, event, only_with_upcoming, search, status, paging', async () => {
  const { cal, users } = await makeCalendar({ perPage: 50 });
  const v = [];
  for (const name of ['London Baker', 'London Piccadilly', 'Paris Temple', 'Empty']) {
    v.push(
      await cal.venues.create({
        venue: `Venue ${name}`,
        address: name === 'Paris Temple' ? '100, Avenue du Temple' : 'Street',
        zip: name.startsWith('London') ? '223345' : '75003',
      }),
    );
  }
  const ev = await cal.events.create({
    title: 'up',
    start_date: '2026-04-04 10:00:00',
    end_date: '2026-04-04 11:00:00',
    venue: v[0].id,
  });
  await cal.events.create({
    title: 'past',
    start_date: '2026-02-04 10:00:00',
    end_date: '2026-02-04 11:00:00',
    venue: v[1].id,
  });
  await cal.events.create({
    title: 'draft',
    start_date: '2026-04-04 10:00:00',
    end_date: '2026-04-04 11:00:00',
    venue: v[2].id,
    status: 'draft',
  });
  const names = async (q: Record<string, unknown>, as: string | null = null) =>
    (await cal.venues.list(q, as)).items.map((x) => x.venue as string).sort();
  assert.equal(await names({ has_events: true }), ['Venue London Baker', 'Venue London Piccadilly']);
  assert.equal(await names({ has_events: 'false' }), ['Venue Empty', 'Venue Paris Temple']);
  assert.equal(await names({ event: ev.id }), ['Venue London Baker']);
  assert.equal(await names({ only_with_upcoming: 'yes' }), ['Venue London Baker']);
  assert.equal(await names({ only_with_upcoming: 'yes' }, users.editor.login), [
    'Venue London Baker',
    'Venue Paris Temple',
  ]);
  assert.equal(await names({ search: 'london' }), ['Venue London Baker', 'Venue London Piccadilly']);
  assert.equal(await names({ search: 'temple avenue' }), ['Venue Paris Temple']);
  assert.equal(await names({ search: '223345' }), ['Venue London Baker', 'Venue London Piccadilly']);
  await rejects(cal.venues.list({ event: 23 }), 'rest_invalid_param', 400);
  await rejects(cal.venues.list({ status: 'publish, draft' }, null), 'rest_invalid_param', 400);
  const page = await cal.venues.list({ per_page: 3, page: 2 });
  assert.equal([page.total, page.totalPages, page.items.length], [4, 2, 1]);
  await rejects(cal.venues.list({ per_page: 3, page: 3 }), 'venue-archive-page-not-found', 404);
  await rejects(cal.organizers.list({ page: 2 }), 'organizer-archive-page-not-found', 404);
});

linked.run();

// ---------------------------------------------------------------------------------------------
// Event archives as the plugin's HTTP tests read them: status order, category and tag archives,
// featured, organizer/venue filters (EventArchive*, EventBy*ArchiveCest).
// Fixture: every event starts at now + 24 h and lasts 2 h (site UTC), so the list
// order (local start, then id) is the creation order.

const START = '2026-03-05 15:00:00';
const END = '2026-03-05 17:00:00';

/** n events at now + 24 h (titles `<prefix> 0..n-1`), in creation (= id) order. */
async function tomorrow(
  cal: Calendar,
  n: number,
  extra: Record<string, unknown> = {},
  prefix = 'Event',
): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const ev = await cal.events.create({ title: `${prefix} ${i}`, start_date: START, end_date: END, ...extra });
    out.push(ev.id as number);
  }
  return out;
}

/** GET /events (raw REST result) as `as` (a login; null = anonymous). */
const raw = (cal: Calendar, params: Params, as: string | null = null) =>
  restList(cal, 'events', params, resolveActor(as, cal.users));

/** The plugin's "200 empty, totals 0, headers 0, no next/prev". */
async function assertEmpty(cal: Calendar, params: Params, as: string | null = null): Promise<void> {
  assertEmptyArchive(await raw(cal, params, as), 'events');
}

// ---------------------------------------------------------------------------------------------

const status = suite('list :: by status');

status('editor: status lists come back by start then id — published, then drafts, then pending', async () => {
  const { cal, users } = await makeCalendar({ perPage: 20 });
  const pub = await tomorrow(cal, 3, { status: 'publish' });
  const drafts = await tomorrow(cal, 3, { status: 'draft' });
  const pending = await tomorrow(cal, 3, { status: 'pending' });
  const ed = users.editor.login;
  assert.equal(ids(await cal.events.list({ status: 'publish' }, ed)), pub);
  assert.equal(ids(await cal.events.list({ status: 'publish, draft' }, ed)), [...pub, ...drafts]);
  assert.equal(ids(await cal.events.list({ status: ['publish', 'draft', 'pending'] }, ed)), [
    ...pub,
    ...drafts,
    ...pending,
  ]);
  // the order is the events', not the order the statuses are listed in
  assert.equal(ids(await cal.events.list({ status: 'pending,publish' }, ed)), [...pub, ...pending]);
  // anonymous: the three published only, same order
  assert.equal(ids(await cal.events.list({ status: 'publish' }, null)), pub);
});

status.run();

// ---------------------------------------------------------------------------------------------

const byCategory = suite('list :: by category');

byCategory('existing but unused category → 200 empty, totals 0, headers 0, no next/previous', async () => {
  const { cal } = await makeCalendar();
  const cat1 = await cal.categories.create({ name: 'cat1' });
  await tomorrow(cal, 3);
  await assertEmpty(cal, { categories: ['cat1'] });
  await assertEmpty(cal, { categories: String(cat1.id) });
});

byCategory('pagination on a category archive: 4 in cat1 + 4 others, per_page=3&page=2 → 1', async () => {
  const { cal } = await makeCalendar();
  const cat1 = await cal.categories.create({ name: 'cat1' });
  const inCat = await tomorrow(cal, 4, { categories: [cat1.id] });
  await tomorrow(cal, 4, {}, 'Other');
  const p2 = await cal.events.list({ categories: ['cat1'], per_page: 3, page: 2 });
  assert.equal([p2.items.length, p2.total, p2.totalPages], [1, 4, 2]);
  assert.equal(ids(p2), [inCat[3]]);
  const p1 = await raw(cal, { categories: ['cat1'], per_page: 3 });
  assert.equal(
    (p1.body.events as Array<{ id: number }>).map((e) => e.id),
    inCat.slice(0, 3),
  );
  assert.match(p1.body.next_rest_url as string, /[?&]page=2(&|$)/);
  assert.equal(p1.headers, { 'X-TEC-Total': '4', 'X-TEC-TotalPages': '2' });
  await rejects(cal.events.list({ categories: ['cat1'], per_page: 3, page: 3 }), 'event-archive-page-not-found', 404);
});

byCategory('array of slugs and CSV of ids: cat1 events then cat2 events', async () => {
  const { cal } = await makeCalendar();
  const cat1 = await cal.categories.create({ name: 'cat1' });
  const cat2 = await cal.categories.create({ name: 'cat2' });
  const a = await tomorrow(cal, 2, { categories: [cat1.id] }, 'A');
  const b = await tomorrow(cal, 2, { categories: [cat2.id] }, 'B');
  await tomorrow(cal, 2, {}, 'None');
  const bySlugs = await cal.events.list({ categories: ['cat1', 'cat2'] });
  assert.is(bySlugs.total, 4);
  assert.equal(ids(bySlugs), [...a, ...b]);
  const byCsv = await cal.events.list({ categories: `${cat1.id},${cat2.id}` });
  assert.is(byCsv.total, 4);
  assert.equal(ids(byCsv), [...a, ...b]);
  // listing order of the categories does not change the event order
  assert.equal(ids(await cal.events.list({ categories: `${cat2.id}, ${cat1.id}` })), [...a, ...b]);
});

byCategory.run();

// ---------------------------------------------------------------------------------------------

const byTag = suite('list :: by tag');

byTag('existing but unused tag → 200 empty, totals 0, headers 0, no next/previous', async () => {
  const { cal } = await makeCalendar();
  const tag1 = await cal.tags.create({ name: 'tag1' });
  await tomorrow(cal, 3);
  await assertEmpty(cal, { tags: ['tag1'] });
  await assertEmpty(cal, { tags: String(tag1.id) });
});

byTag('events for the tag: 3 tagged + 3 not → the 3 tagged', async () => {
  const { cal } = await makeCalendar();
  const tag1 = await cal.tags.create({ name: 'tag1' });
  const tagged = await tomorrow(cal, 3, { tags: [tag1.id] });
  await tomorrow(cal, 3, {}, 'Plain');
  const res = await raw(cal, { tags: ['tag1'] });
  assert.equal(
    (res.body.events as Array<{ id: number }>).map((e) => e.id),
    tagged,
  );
  assert.equal([res.body.total, res.body.total_pages], [3, 1]);
  assert.equal(res.headers, { 'X-TEC-Total': '3', 'X-TEC-TotalPages': '1' });
  assert.equal(ids(await cal.events.list({ tags: tag1.id })), tagged);
});

byTag('pagination on a tag archive: 4 tagged + 4 not, per_page=3&page=2 → 1', async () => {
  const { cal } = await makeCalendar();
  await cal.tags.create({ name: 'tag1' });
  const tagged = await tomorrow(cal, 4, { tags: ['tag1'] });
  await tomorrow(cal, 4, {}, 'Plain');
  const p2 = await raw(cal, { tags: ['tag1'], per_page: 3, page: 2 });
  assert.equal(
    (p2.body.events as Array<{ id: number }>).map((e) => e.id),
    [tagged[3]],
  );
  assert.equal([p2.body.total, p2.body.total_pages], [4, 2]);
  assert.ok('previous_rest_url' in p2.body);
  assert.not.ok('next_rest_url' in p2.body);
});

byTag('tags[] array of slugs and tags= CSV of ids: tag1 events then tag2 events', async () => {
  const { cal } = await makeCalendar();
  const tag1 = await cal.tags.create({ name: 'tag1' });
  const tag2 = await cal.tags.create({ name: 'tag2' });
  const a = await tomorrow(cal, 2, { tags: [tag1.id] }, 'A');
  const b = await tomorrow(cal, 2, { tags: [tag2.id] }, 'B');
  await tomorrow(cal, 2, {}, 'None');
  const bySlugs = await cal.events.list({ tags: ['tag1', 'tag2'] });
  assert.is(bySlugs.total, 4);
  assert.equal(ids(bySlugs), [...a, ...b]);
  const byCsv = await cal.events.list({ tags: `${tag1.id},${tag2.id}` });
  assert.is(byCsv.total, 4);
  assert.equal(ids(byCsv), [...a, ...b]);
  assert.equal(ids(await cal.events.list({ tags: String(tag2.id) })), b);
});

byTag.run();

// ---------------------------------------------------------------------------------------------

const featured = suite('list :: featured');

featured('featured=true with no featured event → 200 empty, totals 0, headers 0, no next/previous', async () => {
  const { cal } = await makeCalendar();
  await tomorrow(cal, 3);
  await assertEmpty(cal, { featured: true });
  await assertEmpty(cal, { featured: 'true' });
});

featured('editor sees featured drafts: published featured then draft featured', async () => {
  const { cal, users } = await makeCalendar();
  const pub = await tomorrow(cal, 3, { featured: true });
  const drafts = await tomorrow(cal, 3, { featured: true, status: 'draft' }, 'Draft');
  await tomorrow(cal, 2, {}, 'Plain');
  const page = await cal.events.list({ featured: true }, users.editor.login);
  assert.is(page.total, 6);
  assert.equal(ids(page), [...pub, ...drafts]);
  assert.equal(ids(await cal.events.list({ featured: true }, null)), pub);
});

featured.run();

// ---------------------------------------------------------------------------------------------

const linkedArchive = suite('list :: by organizer and venue');

linkedArchive('organizer or venue with no events → 200 empty, totals 0, headers 0, no next/previous', async () => {
  const { cal } = await makeCalendar();
  const o = await cal.organizers.create({ organizer: 'Lonely organizer' });
  const v = await cal.venues.create({ venue: 'Lonely venue' });
  const busyVenue = await cal.venues.create({ venue: 'Busy venue' });
  await tomorrow(cal, 3, { venue: busyVenue.id });
  await assertEmpty(cal, { organizer: o.id });
  await assertEmpty(cal, { venue: v.id });
  await assertEmpty(cal, { venue: String(v.id) });
});

linkedArchive('venue filter: drafts hidden from anonymous, shown to editors', async () => {
  const { cal, users } = await makeCalendar();
  const v = await cal.venues.create({ venue: 'A venue' });
  const drafts = await tomorrow(cal, 3, { venue: v.id, status: 'draft' });
  await assertEmpty(cal, { venue: v.id });
  const ed = await cal.events.list({ venue: v.id }, users.editor.login);
  assert.is(ed.total, 3);
  assert.equal(ids(ed), drafts);
  // the same for an organizer's drafts
  const o = await cal.organizers.create({ organizer: 'An organizer' });
  const oDrafts = await tomorrow(cal, 3, { organizer: [o.id], status: 'draft' }, 'OD');
  await assertEmpty(cal, { organizer: o.id });
  assert.equal(ids(await cal.events.list({ organizer: o.id }, users.editor.login)), oDrafts);
});

linkedArchive('several venue ids, as an array and as CSV: counts 3/6/9/9, creation order', async () => {
  const { cal } = await makeCalendar({ perPage: 20 });
  const v = [];
  for (let i = 1; i <= 4; i++) v.push((await cal.venues.create({ venue: `Venue ${i}` })).id as number);
  const e1 = await tomorrow(cal, 3, { venue: v[0] }, 'V1');
  const e2 = await tomorrow(cal, 3, { venue: v[1] }, 'V2');
  const e3 = await tomorrow(cal, 3, { venue: v[2] }, 'V3');
  await tomorrow(cal, 3, {}, 'None');
  const expected = [e1, [...e1, ...e2], [...e1, ...e2, ...e3], [...e1, ...e2, ...e3]];
  for (let n = 1; n <= 4; n++) {
    const list = v.slice(0, n);
    const asArray = await cal.events.list({ venue: list });
    assert.is(asArray.total, expected[n - 1].length);
    assert.equal(ids(asArray), expected[n - 1]);
    const asCsv = await cal.events.list({ venue: list.join(',') });
    assert.equal(ids(asCsv), expected[n - 1]);
  }
});

linkedArchive('several organizer ids as CSV, one of them without events: counts 3/6/9/9, creation order', async () => {
  const { cal } = await makeCalendar({ perPage: 20 });
  const o = [];
  for (let i = 1; i <= 4; i++) o.push((await cal.organizers.create({ organizer: `Organizer ${i}` })).id as number);
  const e1 = await tomorrow(cal, 3, { organizer: [o[0]] }, 'O1');
  const e2 = await tomorrow(cal, 3, { organizer: [o[1]] }, 'O2');
  const e3 = await tomorrow(cal, 3, { organizer: [o[2]] }, 'O3');
  await tomorrow(cal, 3, {}, 'None');
  const expected = [e1, [...e1, ...e2], [...e1, ...e2, ...e3], [...e1, ...e2, ...e3]];
  for (let n = 1; n <= 4; n++) {
    const csv = await cal.events.list({ organizer: o.slice(0, n).join(',') });
    assert.is(csv.total, expected[n - 1].length);
    assert.equal(ids(csv), expected[n - 1]);
    assert.equal(ids(await cal.events.list({ organizer: o.slice(0, n) })), expected[n - 1]);
  }
  // the organizer without events alone → empty; with o1 it adds nothing
  assert.equal(ids(await cal.events.list({ organizer: `${o[3]},${o[0]}` })), e1);
  await assertEmpty(cal, { organizer: String(o[3]) });
});

linkedArchive.run();
