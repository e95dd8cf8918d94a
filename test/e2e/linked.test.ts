import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type TestServer } from '../helpers/server.ts';

for (const [resource, nameField] of [
  ['venues', 'venue'],
  ['organizers', 'organizer'],
] as const) {
  const S = suite<{ t: TestServer }>(`e2e :: ${resource}`, {} as { t: TestServer });
  S.before(async (ctx) => {
    ctx.t = await startTestServer({ perPage: 2 });
  });
  S.after(async ({ t }) => t.close());

  S('create :: 401 anonymous, 403 subscriber, 400 empty name (validation first), 201 form body', async ({ t }) => {
    assert.is((await t.call(`/${resource}`, { form: `${nameField}=A` })).status, 401);
    assert.is((await t.call(`/${resource}`, { form: `${nameField}=A`, as: 'subscriber' })).status, 403);
    const empty = await t.call(`/${resource}`, { form: `${nameField}=` });
    assert.equal([empty.status, empty.json.code], [400, 'rest_invalid_param']);
    const r = await t.call(`/${resource}`, { form: `${nameField}=First&phone=123`, as: 'editor' });
    assert.equal([r.status, r.json[nameField]], [201, 'First']);
  });

  S('list :: pagination, headers, 404 past the end', async ({ t }) => {
    for (const n of ['Second', 'Third'])
      assert.is((await t.call(`/${resource}`, { json: { [nameField]: n }, as: 'administrator' })).status, 201);
    const p1 = await t.call(`/${resource}`);
    assert.equal([p1.status, p1.json[resource].length, p1.json.total, p1.json.total_pages], [200, 2, 3, 2]);
    assert.equal([p1.headers['x-tec-total'], p1.headers['x-tec-totalpages']], ['3', '2']);
    assert.match(p1.json.next_rest_url, /[?&]page=2/);
    const p3 = await t.call(`/${resource}?page=3`);
    assert.equal([p3.status, p3.json.code], [404, `${nameField}-archive-page-not-found`]);
  });

  S('single :: id, slug, 404 for non-numeric, 400 for unknown, update, delete, 410', async ({ t }) => {
    const list = (await t.call(`/${resource}?per_page=50`)).json[resource];
    const one = list[0];
    assert.is((await t.call(`/${resource}/${one.id}`)).json.id, one.id);
    assert.is((await t.call(`/${resource}/by-slug/${one.slug}`)).json.id, one.id);
    for (const p of [`/${resource}/foo`, `/${resource}/foo%20bar`, `/${resource}/foo-bar`])
      assert.is((await t.call(p)).status, 404, p);
    assert.is((await t.call(`/${resource}/23999`)).status, 400);
    assert.is((await t.call(`/${resource}/${one.id}`, { method: 'PUT', json: { [nameField]: 'x' } })).status, 401);
    assert.is(
      (await t.call(`/${resource}/${one.id}`, { method: 'PUT', json: { [nameField]: 'x' }, as: 'contributor' })).status,
      403,
    );
    const upd = await t.call(`/${resource}/by-slug/${one.slug}`, {
      method: 'PATCH',
      form: `${nameField}=Renamed`,
      as: 'editor',
    });
    assert.equal([upd.status, upd.json[nameField]], [200, 'Renamed']);
    const del = await t.call(`/${resource}/${one.id}`, { method: 'DELETE', as: 'editor' });
    assert.equal([del.status, del.json.status], [200, 'trash']);
    assert.is((await t.call(`/${resource}/${one.id}`, { method: 'DELETE', as: 'editor' })).status, 410);
  });

  S('wrong method → 404 rest_no_route; rest_route form equivalent', async ({ t }) => {
    assert.equal((await t.call(`/${resource}`, { method: 'PUT', json: {}, as: 'editor' })).json.code, 'rest_no_route');
    const { request } = await import('../http/request.ts');
    const a = await request(t.url, `/?rest_route=/tribe/events/v1/${resource}&per_page=1`);
    const b = await t.call(`/${resource}?per_page=1`);
    assert.is(a.status, 200);
    assert.equal(a.json, b.json);
  });

  S.run();
}
