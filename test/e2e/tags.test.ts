import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const T = suite<{ t: TestServer }>('e2e :: tags', {} as { t: TestServer });
T.before(async (ctx) => {
  ctx.t = await startTestServer();
});
T.after(async ({ t }) => t.close());

T('write permissions: editor+ only (author 403), anonymous 401', async ({ t }) => {
  assert.is((await t.call('/tags', { json: { name: 'x' } })).status, 401);
  assert.is((await t.call('/tags', { json: { name: 'x' }, as: 'author' })).status, 403);
  const r = await t.call('/tags', { form: 'name=x&description=d', as: 'editor' });
  assert.equal([r.status, r.json.name, 'parent' in r.json], [201, 'x', false]);
});

T('validation: empty name → 400 even anonymously', async ({ t }) => {
  const r = await t.call('/tags', { json: { name: '' } });
  assert.equal([r.status, r.json.code], [400, 'rest_invalid_param']);
});

T('get, update with each editable method, delete; no by-slug route', async ({ t }) => {
  const id = (await t.call('/tags', { json: { name: 'y' }, as: 'administrator' })).json.id;
  assert.is((await t.call(`/tags/${id}`)).json.name, 'y');
  for (const method of ['POST', 'PUT', 'PATCH']) {
    assert.is(
      (await t.call(`/tags/${id}`, { method, json: { description: method }, as: 'editor' })).json.description,
      method,
    );
  }
  assert.is((await t.call('/tags/by-slug/y')).status, 404);
  assert.is((await t.call(`/tags/${id}`, { method: 'DELETE', as: 'editor' })).status, 200);
  assert.is((await t.call(`/tags/${id}`)).status, 400);
});

T('list: slug filter, empty result 200 with zero headers', async ({ t }) => {
  const r = await t.call('/tags?slug=nothing&hide_empty=false');
  assert.equal([r.status, r.json.tags, r.headers['x-tec-total'], r.headers['x-tec-totalpages']], [200, [], '0', '0']);
});

T.run();
