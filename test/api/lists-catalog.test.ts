// Event list behaviours of the plugin's HTTP tests not covered by lists.test.ts: status order, category and
// tag archives, featured, organizer/venue filters (EventArchive*, EventBy*ArchiveCest).
// Fixture as the catalog's: every event starts at now + 24 h and lasts 2 h (site UTC), so the list
// order (local start, then id) is the creation order.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Calendar } from '../../src/calendar.ts';
import { resolveActor } from '../../src/api/wordpress/auth.ts';
import type { Params } from '../../src/api/wordpress/types.ts';
import { assertEmptyArchive, ids, makeCalendar, rejects, restList } from '../helpers/calendar.ts';

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

/** The catalog's "200 empty, totals 0, headers 0, no next/prev". */
async function assertEmpty(cal: Calendar, params: Params, as: string | null = null): Promise<void> {
  assertEmptyArchive(await raw(cal, params, as), 'events');
}

// ---------------------------------------------------------------------------------------------

const status = suite('events catalog :: EventArchiveCest status');

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

const byCategory = suite('events catalog :: EventByCategoryArchiveCest');

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

const byTag = suite('events catalog :: EventByTagArchiveCest');

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

const featured = suite('events catalog :: EventByFeaturedStateArchiveCest');

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

const linked = suite('events catalog :: EventByOrganizer/Venue/MultipleVenues/MultipleOrganizers');

linked('organizer or venue with no events → 200 empty, totals 0, headers 0, no next/previous', async () => {
  const { cal } = await makeCalendar();
  const o = await cal.organizers.create({ organizer: 'Lonely organizer' });
  const v = await cal.venues.create({ venue: 'Lonely venue' });
  const busyVenue = await cal.venues.create({ venue: 'Busy venue' });
  await tomorrow(cal, 3, { venue: busyVenue.id });
  await assertEmpty(cal, { organizer: o.id });
  await assertEmpty(cal, { venue: v.id });
  await assertEmpty(cal, { venue: String(v.id) });
});

linked('venue filter: drafts hidden from anonymous, shown to editors', async () => {
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

linked('several venue ids, as an array and as CSV: counts 3/6/9/9, creation order', async () => {
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

linked('several organizer ids as CSV, one of them without events: counts 3/6/9/9, creation order', async () => {
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

linked.run();
