// Categories and tags (docs/behaviour.md, the plugin's HTTP tests Category*/Tag*).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { baseEvent, makeCalendar, rejects } from '../helpers/calendar.ts';

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
