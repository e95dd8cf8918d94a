// Categories and tags (docs/behaviour.md, the plugin's HTTP tests Category*/Tag*).
import * as assert from 'uvu/assert';
import { suite } from 'uvu';
import { baseEvent, makeCalendar, rejects, restList } from '../../helpers/calendar.ts';
import type { Calendar } from '../../../src/calendar.ts';
import type { Params } from '../../../src/api/wordpress/types.ts';

const terms = suite('terms');

terms('create: 201 term shape with count 0, url and urls.up', async () => {
  const { cal, users } = await makeCalendar();
  const parent = await cal.categories.create({ name: 'Parent' }, users.editor.login);
  const c = await cal.categories.create(
    { name: 'foo', description: 'Term description', slug: 'foo-bar', parent: parent.id },
    users.editor.login,
  );
  assert.equal(Object.keys(c), [
    'id',
    'count',
    'description',
    'name',
    'slug',
    'taxonomy',
    'parent',
    'meta',
    'url',
    'urls',
  ]);
  assert.equal([c.count, c.name, c.slug, c.taxonomy, c.parent], [0, 'foo', 'foo-bar', 'tribe_events_cat', parent.id]);
  assert.equal(c.meta, []);
  assert.is(c.url, 'http://example.com/events/category/parent/foo-bar/');
  assert.equal(c.urls, {
    self: `http://example.com/wp-json/tribe/events/v1/categories/${c.id}`,
    collection: 'http://example.com/wp-json/tribe/events/v1/categories',
    up: `http://example.com/wp-json/tribe/events/v1/categories/${parent.id}`,
  });
  const t = await cal.tags.create({ name: 'foo', slug: 'foo-bar' }, users.editor.login);
  assert.not.ok('parent' in t);
  assert.is(t.url, 'http://example.com/tag/foo-bar/');
});

terms('permissions: categories author+, tags editor+; anonymous 401', async () => {
  const { cal, users } = await makeCalendar();
  await rejects(cal.categories.create({ name: 'x' }, users.subscriber.login), 'rest_forbidden', 403);
  await rejects(cal.categories.create({ name: 'x' }, users.contributor.login), 'rest_forbidden', 403);
  await rejects(cal.categories.create({ name: 'x' }, null), 'rest_forbidden', 401);
  assert.is((await cal.categories.create({ name: 'x' }, users.author.login)).name, 'x');
  await rejects(cal.tags.create({ name: 'x' }, users.author.login), 'rest_forbidden', 403);
  const t = await cal.tags.create({ name: 'x' }, users.editor.login);
  await rejects(cal.tags.update(t.id as number, { name: 'y' }, users.contributor.login), 'rest_forbidden', 403);
  await rejects(cal.tags.delete(t.id as number, users.subscriber.login), 'rest_forbidden', 403);
});

terms('bad parameters → 400 (before permission), duplicates → term_exists', async () => {
  const { cal, users } = await makeCalendar();
  for (const bad of [
    { name: '' },
    { name: 'x', description: '' },
    { name: 'x', slug: '' },
    { name: 'x', parent: '' },
    { name: 'x', parent: 2389 },
    { name: 'x', parent: 'foo' },
  ]) {
    await rejects(cal.categories.create(bad, users.subscriber.login), 'rest_invalid_param', 400);
  }
  await rejects(cal.categories.create({}), 'rest_missing_callback_param', 400);
  const first = await cal.categories.create({ name: 'Same' });
  const err = await rejects(cal.categories.create({ name: 'same' }), 'term_exists', 400);
  assert.is(err.data.term_id, first.id);
  await rejects(cal.categories.delete(23, users.subscriber.login), 'rest_invalid_param', 400);
});

terms('update, slug conflicts, loops; delete is permanent and returns the pre-deletion term', async () => {
  const { cal } = await makeCalendar();
  const a = await cal.categories.create({ name: 'a' });
  const b = await cal.categories.create({ name: 'b', parent: a.id });
  const up = await cal.categories.update(a.id as number, { name: 'A!', description: 'new', slug: 'a-new' });
  assert.equal([up.name, up.description, up.slug], ['A!', 'new', 'a-new']);
  await rejects(cal.categories.update(b.id as number, { slug: 'a-new' }), 'duplicate_term_slug', 400);
  await rejects(cal.categories.update(a.id as number, { parent: b.id }), 'rest_invalid_param', 400);
  await cal.events.create({ ...baseEvent, categories: [b.id] });
  const gone = await cal.categories.delete(b.id as number);
  assert.is(gone.count, 1);
  assert.is(gone.url, 'http://example.com/events/category/a-new/b/');
  await rejects(cal.categories.delete(b.id as number), 'rest_invalid_param', 400);
  await rejects(cal.categories.get(b.id as number), 'rest_invalid_param', 400);
  const t = await cal.tags.create({ name: 'tag' });
  await rejects(cal.categories.get(t.id as number), 'rest_invalid_param', 400);
});

terms(
  'lists: hide_empty default, search, include/exclude, order/orderby, parent, post/event, slug, paging',
  async () => {
    const { cal } = await makeCalendar();
    const b = await cal.categories.create({ name: 'b' });
    const A = await cal.categories.create({ name: 'A' });
    const C = await cal.categories.create({ name: 'C', slug: 'foo-c', parent: b.id });
    const names = async (q: Record<string, unknown>) =>
      (await cal.categories.list({ hide_empty: false, ...q })).items.map((t) => t.name);
    assert.equal((await cal.categories.list()).items, []);
    assert.equal(await names({ orderby: 'id', order: 'desc' }), ['C', 'A', 'b']);
    assert.equal(await names({ orderby: 'id', order: 'asc' }), ['b', 'A', 'C']);
    assert.equal(await names({ orderby: 'name', order: 'asc' }), ['A', 'b', 'C']);
    assert.equal(await names({ search: 'foo' }), ['C']);
    assert.equal(await names({ exclude: [A.id, b.id] }), ['C']);
    assert.equal(await names({ include: `${A.id},${C.id}` }), ['A', 'C']);
    assert.equal(await names({ parent: b.id }), ['C']);
    assert.equal(await names({ slug: 'foo-c' }), ['C']);
    assert.equal(await names({ slug: 'nothing' }), []);
    const e1 = await cal.events.create({ ...baseEvent, categories: [b.id, C.id] });
    const e2 = await cal.events.create({ ...baseEvent, categories: [A.id] });
    assert.equal(await names({ post: e1.id }), ['b', 'C']);
    assert.equal(await names({ post: e1.id, event: e2.id }), ['A']);
    assert.equal((await cal.categories.list()).items.length, 3);
    for (const bad of [
      { order: '' },
      { orderby: '' },
      { parent: 2389 },
      { post: 23 },
      { event: 'foo' },
      { exclude: [2389] },
      { include: '' },
      { slug: '' },
    ]) {
      await rejects(cal.categories.list({ hide_empty: false, ...bad }), 'rest_invalid_param', 400);
    }
    const page = await cal.categories.list({ hide_empty: false, per_page: 2, page: 2 });
    assert.equal([page.total, page.totalPages, page.items.length], [3, 2, 1]);
    assert.equal((await cal.categories.list({ hide_empty: false, per_page: 2, page: 9 })).items, []);
  },
);

terms.run();

// ---------------------------------------------------------------------------------------------
// Category and tag behaviours as the plugin's HTTP tests read them: list link data,
// the tag list filters, single GET shape, update/delete permissions and bad values
// (CategoryArchiveCest, TagArchiveCest, SingleCategory/TagCest, Category/Tag Update/DeletionCest).

const ROOT = 'http://example.com/wp-json/tribe/events/v1/';

type Plural = 'categories' | 'tags';

/** GET /categories or /tags (raw REST result), anonymous. */
const raw = (cal: Calendar, resource: Plural, params: Params) => restList(cal, resource, params);

const names = (items: Array<Record<string, unknown>>) => items.map((t) => t.name as string);

async function makeTerms(cal: Calendar, resource: Plural, list: string[]): Promise<number[]> {
  const out: number[] = [];
  for (const name of list) out.push((await cal[resource].create({ name })).id as number);
  return out;
}

// ---------------------------------------------------------------------------------------------

const links = suite('terms :: page and link data');

for (const resource of ['categories', 'tags'] as const) {
  links(`${resource}: 9 terms, per_page 3 — totals, headers, next_rest_url / previous_rest_url values`, async () => {
    const { cal } = await makeCalendar();
    await makeTerms(cal, resource, ['t1', 't2', 't3', 't4', 't5', 't6', 't7', 't8', 't9']);
    const base = `${ROOT}${resource}/`;
    const page = (n: number) => raw(cal, resource, { hide_empty: false, per_page: 3, page: n });

    const p1 = await page(1);
    assert.is(p1.status, 200);
    assert.equal([p1.body.total, p1.body.total_pages], [9, 3]);
    assert.equal(p1.headers, { 'X-TEC-Total': '9', 'X-TEC-TotalPages': '3' });
    assert.is(p1.body.rest_url, base);
    assert.is(p1.body.next_rest_url, `${base}?page=2`);
    assert.not.ok('previous_rest_url' in p1.body);
    assert.equal(names(p1.body[resource] as Array<Record<string, unknown>>), ['t1', 't2', 't3']);

    const p2 = await page(2);
    assert.is(p2.body.previous_rest_url, base);
    assert.is(p2.body.next_rest_url, `${base}?page=3`);
    assert.is(p2.body.rest_url, base);
    assert.equal(names(p2.body[resource] as Array<Record<string, unknown>>), ['t4', 't5', 't6']);

    const p3 = await page(3);
    assert.is(p3.body.previous_rest_url, `${base}?page=2`);
    assert.not.ok('next_rest_url' in p3.body);
    assert.equal([p3.body.total, p3.body.total_pages], [9, 3]);
    assert.equal(p3.headers, { 'X-TEC-Total': '9', 'X-TEC-TotalPages': '3' });

    // beyond the last page: 200, empty, previous still given (endpoints.md)
    const p4 = await page(4);
    assert.is(p4.status, 200);
    assert.equal(p4.body[resource], []);
    assert.is(p4.body.previous_rest_url, `${base}?page=3`);
    assert.not.ok('next_rest_url' in p4.body);
  });

  links(`${resource}: 6 terms, per_page 3 — page 1 and page 2 are disjoint halves`, async () => {
    const { cal } = await makeCalendar();
    const made = await makeTerms(cal, resource, ['a1', 'a2', 'a3', 'a4', 'a5', 'a6']);
    const p1 = await cal[resource].list({ hide_empty: false, per_page: 3, page: 1 });
    const p2 = await cal[resource].list({ hide_empty: false, per_page: 3, page: 2 });
    assert.equal([p1.items.length, p2.items.length, p1.total, p1.totalPages], [3, 3, 6, 2]);
    const all = [...p1.items, ...p2.items].map((t) => t.id as number).sort((a, b) => a - b);
    assert.equal(all, made);
  });
}

links.run();

// ---------------------------------------------------------------------------------------------

const tagList = suite('terms :: tag list filters');

tagList('search by name or slug; no match → 200 empty', async () => {
  const { cal } = await makeCalendar();
  for (const t of [{ name: 'Foo' }, { name: 'Bar' }, { name: 'Baz' }, { name: 'One', slug: 'foo-bar' }])
    await cal.tags.create(t);
  const foo = await cal.tags.list({ hide_empty: false, search: 'foo' });
  assert.equal([foo.total, foo.totalPages], [2, 1]);
  assert.equal(names(foo.items).sort(), ['Foo', 'One']);
  const bar = await cal.tags.list({ hide_empty: false, search: 'bar' });
  assert.equal([bar.total, bar.totalPages], [2, 1]);
  assert.equal(names(bar.items).sort(), ['Bar', 'One']);
  const zoot = await raw(cal, 'tags', { hide_empty: false, search: 'zoot' });
  assert.is(zoot.status, 200);
  assert.equal([zoot.body.tags, zoot.body.total, zoot.body.total_pages], [[], 0, 0]);
  await rejects(cal.tags.list({ hide_empty: false, search: '' }), 'rest_invalid_param', 400);
});

tagList('exclude / include by id; non-existent ids → 400; exclude all → 200 []', async () => {
  const { cal } = await makeCalendar();
  const [a, b, c] = await makeTerms(cal, 'tags', ['a', 'b', 'c']);
  const list = (q: Params) => cal.tags.list({ hide_empty: false, ...q });
  assert.is((await list({ exclude: [a] })).total, 2);
  assert.equal(names((await list({ exclude: `${a},${b}` })).items), ['c']);
  const none = await raw(cal, 'tags', { hide_empty: false, exclude: [a, b, c] });
  assert.is(none.status, 200);
  assert.equal([none.body.tags, none.body.total, none.body.total_pages], [[], 0, 0]);
  assert.equal(none.headers, { 'X-TEC-Total': '0', 'X-TEC-TotalPages': '0' });
  await rejects(list({ exclude: [2389, 2390] }), 'rest_invalid_param', 400);
  await rejects(list({ exclude: `${a},2389` }), 'rest_invalid_param', 400);
  assert.equal(names((await list({ include: [b] })).items), ['b']);
  assert.is((await list({ include: `${a},${b},${c}` })).total, 3);
  await rejects(list({ include: [2389, 2390] }), 'rest_invalid_param', 400);
  await rejects(list({ include: [a, 2389] }), 'rest_invalid_param', 400);
  // a category id is not a tag id
  const cat = await cal.categories.create({ name: 'cat' });
  await rejects(list({ include: [cat.id] }), 'rest_invalid_param', 400);
});

tagList('order / orderby: terms b, A, C', async () => {
  const { cal } = await makeCalendar();
  await makeTerms(cal, 'tags', ['b', 'A', 'C']);
  const list = async (q: Params) => names((await cal.tags.list({ hide_empty: false, ...q })).items);
  assert.equal(await list({ orderby: 'id', order: 'desc' }), ['C', 'A', 'b']);
  assert.equal(await list({ orderby: 'id', order: 'asc' }), ['b', 'A', 'C']);
  assert.equal(await list({ orderby: 'name', order: 'asc' }), ['A', 'b', 'C']);
  assert.equal(await list({}), ['A', 'b', 'C']);
  await rejects(cal.tags.list({ hide_empty: false, order: '', orderby: 'id' }), 'rest_invalid_param', 400);
  await rejects(cal.tags.list({ hide_empty: false, order: 'desc', orderby: '' }), 'rest_invalid_param', 400);
});

tagList('post / event filter, event wins over post; bad post or event → 400', async () => {
  const { cal } = await makeCalendar();
  const [b, A, C] = await makeTerms(cal, 'tags', ['b', 'A', 'C']);
  const e1 = await cal.events.create({ ...baseEvent, tags: [b, C] });
  const e2 = await cal.events.create({ ...baseEvent, tags: [A] });
  const list = (q: Params) => cal.tags.list({ hide_empty: false, ...q });
  const byPost = await list({ post: e1.id });
  assert.is(byPost.total, 2);
  assert.equal(names(byPost.items), ['b', 'C']);
  assert.is((await list({ event: e1.id })).total, 2);
  const both = await list({ post: e1.id, event: e2.id });
  assert.is(both.total, 1);
  assert.equal(names(both.items), ['A']);
  const venue = await cal.venues.create({ venue: 'Not an event' });
  for (const bad of ['', 23, 'foo', venue.id]) {
    await rejects(list({ post: bad }), 'rest_invalid_param', 400);
    await rejects(list({ event: bad }), 'rest_invalid_param', 400);
  }
});

tagList('slug: exact match; unknown → 200 empty with totals 0, headers 0, no next/prev; "" → 400', async () => {
  const { cal } = await makeCalendar();
  for (const slug of ['b', 'a', 'c', 'd']) await cal.tags.create({ name: `Tag ${slug}`, slug });
  assert.equal(names((await cal.tags.list({ hide_empty: false, slug: 'a' })).items), ['Tag a']);
  assert.is((await cal.tags.list({ hide_empty: false, slug: 'c' })).total, 1);
  const foo = await raw(cal, 'tags', { hide_empty: false, slug: 'foo' });
  assert.is(foo.status, 200);
  assert.equal([foo.body.tags, foo.body.total, foo.body.total_pages], [[], 0, 0]);
  assert.equal(foo.headers, { 'X-TEC-Total': '0', 'X-TEC-TotalPages': '0' });
  assert.not.ok('next_rest_url' in foo.body || 'previous_rest_url' in foo.body);
  await rejects(cal.tags.list({ hide_empty: false, slug: '' }), 'rest_invalid_param', 400);
});

tagList.run();

// ---------------------------------------------------------------------------------------------

const catList = suite('terms :: category list gaps');

catList(
  'include of non-existent ids → 400; exclude all → 200 []; parent "" and post "" → 400; search no match → 200',
  async () => {
    const { cal } = await makeCalendar();
    const [a, b, c] = await makeTerms(cal, 'categories', ['a', 'b', 'c']);
    const list = (q: Params) => cal.categories.list({ hide_empty: false, ...q });
    await rejects(list({ include: [2389, 2390] }), 'rest_invalid_param', 400);
    await rejects(list({ include: `${a},2389` }), 'rest_invalid_param', 400);
    const none = await raw(cal, 'categories', { hide_empty: false, exclude: `${a},${b},${c}` });
    assert.is(none.status, 200);
    assert.equal([none.body.categories, none.body.total, none.body.total_pages], [[], 0, 0]);
    assert.equal(none.headers, { 'X-TEC-Total': '0', 'X-TEC-TotalPages': '0' });
    assert.is((await list({ exclude: [a, b] })).total, 1);
    await rejects(list({ parent: '' }), 'rest_invalid_param', 400);
    await rejects(list({ parent: 'foo' }), 'rest_invalid_param', 400);
    await rejects(list({ post: '' }), 'rest_invalid_param', 400);
    await rejects(list({ event: '' }), 'rest_invalid_param', 400);
    const zoot = await raw(cal, 'categories', { hide_empty: false, search: 'zoot' });
    assert.is(zoot.status, 200);
    assert.equal([zoot.body.categories, zoot.body.total], [[], 0]);
    // a tag id is not a category id
    const tag = await cal.tags.create({ name: 'tag' });
    await rejects(list({ include: [tag.id] }), 'rest_invalid_param', 400);
    await rejects(list({ parent: tag.id }), 'rest_invalid_param', 400);
    // filtering by parent: b with children A, D
    const A = await cal.categories.create({ name: 'A', parent: b });
    const D = await cal.categories.create({ name: 'D', parent: b });
    const kids = await list({ parent: b });
    assert.is(kids.total, 2);
    assert.equal(
      kids.items.map((t) => t.id),
      [A.id, D.id],
    );
  },
);

catList.run();

// ---------------------------------------------------------------------------------------------

const single = suite('terms :: single reads');

single('GET /categories/{id}: count, url, urls (self, collection, up), meta []', async () => {
  const { cal } = await makeCalendar();
  const parent = await cal.categories.create({ name: 'Foo parent', slug: 'foo-parent' });
  const c = await cal.categories.create({
    name: 'foo',
    slug: 'foo-bar',
    description: 'Term description',
    parent: parent.id,
  });
  await cal.events.create({ ...baseEvent, categories: [c.id] });
  await cal.events.create({ ...baseEvent, title: 'Another', categories: [c.id] });
  const got = await cal.categories.get(c.id as number, null);
  assert.equal(got, {
    id: c.id,
    count: 2,
    description: 'Term description',
    name: 'foo',
    slug: 'foo-bar',
    taxonomy: 'tribe_events_cat',
    parent: parent.id,
    meta: [],
    url: 'http://example.com/events/category/foo-parent/foo-bar/',
    urls: {
      self: `${ROOT}categories/${c.id}`,
      collection: `${ROOT}categories`,
      up: `${ROOT}categories/${parent.id}`,
    },
  });
  // top-level category: no `up`
  const top = await cal.categories.get(parent.id as number);
  assert.equal([top.count, top.parent, top.url], [0, 0, 'http://example.com/events/category/foo-parent/']);
  assert.equal(top.urls, { self: `${ROOT}categories/${parent.id}`, collection: `${ROOT}categories` });
});

single('GET /tags/{id}: count, url, urls (self, collection), meta [], no parent', async () => {
  const { cal } = await makeCalendar();
  const t = await cal.tags.create({ name: 'foo', slug: 'foo-bar', description: 'Term description' });
  await cal.events.create({ ...baseEvent, tags: [t.id] });
  await cal.events.create({ ...baseEvent, title: 'Another', tags: [t.id] });
  const got = await cal.tags.get(t.id as number, null);
  assert.equal(got, {
    id: t.id,
    count: 2,
    description: 'Term description',
    name: 'foo',
    slug: 'foo-bar',
    taxonomy: 'post_tag',
    meta: [],
    url: 'http://example.com/tag/foo-bar/',
    urls: { self: `${ROOT}tags/${t.id}`, collection: `${ROOT}tags` },
  });
  assert.equal(Object.keys(got), ['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'meta', 'url', 'urls']);
});

single("GET of a non-existent id or another taxonomy's term → 400; non-numeric id → 404 rest_no_route", async () => {
  const { cal } = await makeCalendar();
  const cat = await cal.categories.create({ name: 'cat' });
  await rejects(cal.tags.get(cat.id as number), 'rest_invalid_param', 400);
  await rejects(cal.tags.get(2389), 'rest_invalid_param', 400);
  await rejects(cal.categories.get(2389), 'rest_invalid_param', 400);
  for (const bad of ['foo', 'foo bar']) {
    await rejects(cal.tags.get(bad), 'rest_no_route', 404);
    await rejects(cal.categories.get(bad), 'rest_no_route', 404);
  }
});

single.run();

// ---------------------------------------------------------------------------------------------

const update = suite('terms :: update');

update('category update by subscriber or contributor → 403, unchanged', async () => {
  const { cal, users } = await makeCalendar();
  const c = await cal.categories.create({ name: 'foo' });
  for (const who of [users.subscriber.login, users.contributor.login]) {
    await rejects(
      cal.categories.update(c.id as number, { name: 'bar', description: 'd', slug: 'bar' }, who),
      'rest_forbidden',
      403,
    );
  }
  await rejects(cal.categories.update(c.id as number, { name: 'bar' }, null), 'rest_forbidden', 401);
  const now = await cal.categories.get(c.id as number);
  assert.equal([now.name, now.slug], ['foo', 'foo']);
  const up = await cal.categories.update(c.id as number, { name: 'bar' }, users.editor.login);
  assert.is(up.name, 'bar');
});

update('tag update by subscriber → 403', async () => {
  const { cal, users } = await makeCalendar();
  const t = await cal.tags.create({ name: 'foo' });
  await rejects(cal.tags.update(t.id as number, { name: 'bar' }, users.subscriber.login), 'rest_forbidden', 403);
  assert.is((await cal.tags.get(t.id as number)).name, 'foo');
});

update('invalid values on update → 400 (before permission), term unchanged', async () => {
  const { cal, users } = await makeCalendar();
  const parent = await cal.categories.create({ name: 'parent' });
  const c = await cal.categories.create({ name: 'foo', description: 'desc', parent: parent.id });
  const t = await cal.tags.create({ name: 'foo', description: 'desc' });
  const common = [{ name: '' }, { description: '' }, { slug: '' }];
  for (const who of [users.editor.login, users.subscriber.login]) {
    for (const bad of [...common, { parent: '' }, { parent: 2389 }, { parent: 'foo' }, { parent: t.id }]) {
      await rejects(cal.categories.update(c.id as number, bad, who), 'rest_invalid_param', 400);
    }
    for (const bad of common) await rejects(cal.tags.update(t.id as number, bad, who), 'rest_invalid_param', 400);
  }
  const cNow = await cal.categories.get(c.id as number);
  assert.equal([cNow.name, cNow.description, cNow.slug, cNow.parent], ['foo', 'desc', 'foo', parent.id]);
  const tNow = await cal.tags.get(t.id as number);
  assert.equal([tNow.name, tNow.description, tNow.slug], ['foo', 'desc', 'foo']);
  // a term of the wrong taxonomy / unknown id as the target → 400
  await rejects(cal.categories.update(t.id as number, { name: 'x' }), 'rest_invalid_param', 400);
  await rejects(cal.tags.update(2389, { name: 'x' }), 'rest_invalid_param', 400);
});

update.run();

// ---------------------------------------------------------------------------------------------

const del = suite('terms :: delete');

del('category DELETE by subscriber or contributor → 403, the term stays', async () => {
  const { cal, users } = await makeCalendar();
  const c = await cal.categories.create({ name: 'foo' });
  for (const who of [users.subscriber.login, users.contributor.login]) {
    await rejects(cal.categories.delete(c.id as number, who), 'rest_forbidden', 403);
  }
  await rejects(cal.categories.delete(c.id as number, null), 'rest_forbidden', 401);
  assert.is((await cal.categories.get(c.id as number)).name, 'foo');
});

del('tag DELETE by contributor → 403, the term stays; editor deletes it', async () => {
  const { cal, users } = await makeCalendar();
  const t = await cal.tags.create({ name: 'foo', slug: 'foo-bar', description: 'd' });
  await rejects(cal.tags.delete(t.id as number, users.contributor.login), 'rest_forbidden', 403);
  assert.is((await cal.tags.get(t.id as number)).name, 'foo');
  const gone = await cal.tags.delete(t.id as number, users.editor.login);
  assert.equal([gone.id, gone.slug, gone.url], [t.id, 'foo-bar', 'http://example.com/tag/foo-bar/']);
  await rejects(cal.tags.get(t.id as number), 'rest_invalid_param', 400);
});

del('tag DELETE of an unknown id → 400 (validation before permission)', async () => {
  const { cal, users } = await makeCalendar();
  const cat = await cal.categories.create({ name: 'cat' });
  await rejects(cal.tags.delete(23, users.subscriber.login), 'rest_invalid_param', 400);
  await rejects(cal.tags.delete(23, null), 'rest_invalid_param', 400);
  await rejects(cal.tags.delete(23), 'rest_invalid_param', 400);
  await rejects(cal.tags.delete(cat.id as number), 'rest_invalid_param', 400);
  assert.is((await cal.categories.get(cat.id as number)).name, 'cat');
});

del.run();
