// Details of the real service, over HTTP: global ids without the port, and /doc documenting the
// namespace index with every operation of the interface.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type TestServer } from './server-helper.ts';

const S = suite<{ t: TestServer }>('e2e :: fidelity', {} as { t: TestServer });
S.before(async (ctx) => {
  ctx.t = await startTestServer();
});
S.after(async ({ t }) => t.close());

S('global_id and global_id_lineage: the host name without the port the server listens on', async ({ t }) => {
  assert.match(t.url, /:\d+$/, 'the site URL has a port');
  const c = await t.call('/events', { as: 'editor', json: { title: 'Id check', start_date: '2030-02-01 10:00:00', end_date: '2030-02-01 11:00:00', venue: { venue: 'Port Hall' } } });
  assert.is(c.status, 201);
  assert.is(c.json.global_id, `127.0.0.1?id=${c.json.id as number}`);
  assert.equal(c.json.global_id_lineage, [c.json.global_id]);
  assert.is((c.json.venue as Record<string, unknown>).global_id, `127.0.0.1?id=${(c.json.venue as { id: number }).id}`);
  const list = await t.call('/events?start_date=2030-01-01');
  assert.ok((list.json.events as Array<Record<string, unknown>>).some((e) => e.global_id === c.json.global_id));
});

S('/doc documents the namespace index (GET /wp-json/tribe/events/v1) and all 52 operations', async ({ t }) => {
  const doc = await t.call('/doc');
  assert.is(doc.status, 200);
  const paths = doc.json.paths as Record<string, Record<string, unknown>>;
  assert.ok(paths['/']?.get, 'the namespace index');
  let operations = 0;
  for (const [p, item] of Object.entries(paths)) if (p !== '/changes' && p !== '/health') operations += Object.keys(item).length;
  assert.is(operations, 52, 'the interface');
  assert.ok(paths['/changes']?.get, 'and the change feed');
  assert.ok(paths['/health']?.get, 'and the health route');
  const index = await t.call('');
  assert.is(index.status, 200);
  assert.equal(Object.keys(index.json.routes as object).length, Object.keys(paths).length - 1, 'the index lists the interface routes');
});

S.run();
