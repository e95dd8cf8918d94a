import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const C = suite<{ t: TestServer }>('e2e :: categories', {} as { t: TestServer });
C.before(async (ctx) => {
  ctx.t = await startTestServer({ perPage: 2 });
});
C.after(async ({ t }) => t.close());

C('write permissions: author+ may (201), contributor/subscriber 403, anonymous 401', async ({ t }) => {
  assert.is((await t.call('/categories', { json: { name: 'a' } })).status, 401);
  assert.is((await t.call('/categories', { json: { name: 'a' }, as: 'subscriber' })).status, 403);
  assert.is((await t.call('/categories', { json: { name: 'a' }, as: 'contributor' })).status, 403);
  const r = await t.call('/categories', { json: { name: 'Foo', slug: 'foo-bar', description: 'd' }, as: 'author' });
  assert.equal([r.status, r.json.slug, r.json.count], [201, 'foo-bar', 0]);
  const dup = await t.call('/categories', { json: { name: 'Foo' }, as: 'editor' });
  assert.equal([dup.status, dup.json.code], [400, 'term_exists']);
});

C('list: rest_url bare, next/previous with page only, no 404 past the end', async ({ t }) => {
  for (const name of ['b', 'c']) await t.call('/categories', { form: `name=${name}`, as: 'editor' });
  const p1 = await t.call('/categories?hide_empty=false');
  assert.equal(Object.keys(p1.json).slice(0, 4), ['rest_url', 'total', 'total_pages', 'categories']);
  assert.equal([p1.json.total, p1.json.total_pages, p1.headers['x-tec-total']], [3, 2, '3']);
  const p5 = await t.call('/categories?hide_empty=false&page=5');
  assert.equal([p5.status, p5.json.categories], [200, []]);
});

C('single: 404 for non-numeric, 400 unknown id (even for a subscriber deleting: validation first)', async ({ t }) => {
  assert.is((await t.call('/categories/foo')).status, 404);
  assert.is((await t.call('/categories/2389')).status, 400);
  assert.is((await t.call('/categories/2389', { method: 'DELETE', as: 'subscriber' })).status, 400);
  assert.is((await t.call('/categories/by-slug/foo-bar')).status, 404);
});

C('update and permanent delete', async ({ t }) => {
  const id = (await t.call('/categories?hide_empty=false&per_page=50')).json.categories[0].id;
  const u = await t.call(`/categories/${id}`, { method: 'PATCH', json: { description: 'new' }, as: 'editor' });
  assert.equal([u.status, u.json.description], [200, 'new']);
  const d = await t.call(`/categories/${id}`, { method: 'DELETE', as: 'editor' });
  assert.equal([d.status, d.json.id], [200, id]);
  assert.is((await t.call(`/categories/${id}`, { method: 'DELETE', as: 'editor' })).status, 400);
});

C.run();
