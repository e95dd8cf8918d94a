import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createRoutes, type RouteContext } from '../../src/http/routes.ts';
import { routeTable } from '../../src/api/route-table.ts';
import { fakeCalendar } from './fake-calendar.ts';

const ctx: RouteContext = { actor: null, body: null, contentType: undefined };
const NS = '/wp-json/tribe/events/v1';

const table = suite('routes :: every route and method of the table');

table('each method of each route reaches the calendar with resource, action and target', async () => {
  const cal = fakeCalendar();
  const routes = createRoutes(cal);
  let checked = 0;
  for (const route of routeTable({ perPage: 12 })) {
    const path = route.path.replace('{id}', '12').replace('{slug}', 'my-slug');
    for (const ep of route.endpoints) {
      for (const method of ep.methods) {
        cal.calls.length = 0;
        const reply = await routes.fetch({ method, url: `${NS}${path}` }, ctx);
        assert.ok(reply, `~> ${method} ${path} matched`);
        if (ep.op.resource === 'index' || ep.op.resource === 'doc' || ep.op.resource === 'health') {
          assert.is(cal.calls.length, 0);
          assert.is(reply!.status, 200);
        } else {
          assert.is(cal.calls.length, 1, `~> ${method} ${path} called rest()`);
          const call = cal.calls[0];
          assert.is(call.resource, ep.op.resource);
          assert.is(call.action, ep.op.action, `~> ${method} ${path}`);
          const want = path.endsWith('/12') ? { id: 12 } : path.endsWith('/my-slug') ? { slug: 'my-slug' } : undefined;
          assert.equal(call.target, want);
        }
        checked++;
      }
    }
  }
  // 5 collections × (GET, POST) + 5 id routes × 5 methods + 3 slug routes × 5 + index + doc + health
  assert.is(checked, 10 + 25 + 15 + 3);
});

table('trailing slash and case are tolerated, as WordPress matches routes', async () => {
  const cal = fakeCalendar();
  const routes = createRoutes(cal);
  assert.ok(await routes.fetch({ method: 'GET', url: `${NS}/events/` }, ctx));
  assert.ok(await routes.fetch({ method: 'GET', url: `${NS}/Events/5/` }, ctx));
  assert.equal(
    cal.calls.map((c) => c.action),
    ['list', 'get'],
  );
});

table('query parameters arrive PHP-parsed; meta parameters are dropped', async () => {
  const cal = fakeCalendar();
  const routes = createRoutes(cal);
  await routes.fetch(
    { method: 'GET', url: `${NS}/events?categories[]=3&categories[]=4&venue=1,2&_fields=id&_envelope=1` },
    ctx,
  );
  assert.equal(cal.calls[0].params, { categories: ['3', '4'], venue: '1,2' });
});

table('slugs are percent-decoded', async () => {
  const cal = fakeCalendar();
  await createRoutes(cal).fetch({ method: 'GET', url: `${NS}/venues/by-slug/caf%C3%A9` }, ctx);
  assert.equal(cal.calls[0].target, { slug: 'café' });
});

table.run();

// ---

const misses = suite('routes :: no route');

const none = async (method: string, path: string) => {
  const cal = fakeCalendar();
  const reply = await createRoutes(cal).fetch({ method, url: `${path}` }, ctx);
  assert.is(reply, undefined, `~> ${method} ${path} should match nothing`);
  assert.is(cal.calls.length, 0);
};

misses('non-numeric id segments', async () => {
  await none('GET', `${NS}/events/foo`);
  await none('GET', `${NS}/venues/foo%20bar`);
  await none('GET', `${NS}/organizers/foo-bar`);
  await none('DELETE', `${NS}/categories/foo`);
  await none('GET', `${NS}/tags/1.5`);
});

misses('empty by-slug and by-slug on terms', async () => {
  await none('GET', `${NS}/events/by-slug/`);
  await none('GET', `${NS}/events/by-slug`);
  await none('GET', `${NS}/categories/by-slug/foo`);
  await none('GET', `${NS}/events/by-slug/a/b`);
});

misses('wrong methods (WordPress never answers 405)', async () => {
  await none('DELETE', `${NS}/events`);
  await none('PUT', `${NS}/venues`);
  await none('PATCH', `${NS}/tags`);
  await none('POST', `${NS}/doc`);
  await none('DELETE', NS);
});

misses('unknown paths and other prefixes', async () => {
  await none('GET', `${NS}/nothing`);
  await none('GET', `/wp-json/wp/v2/posts`);
  await none('GET', `/tribe/events/v1/events`);
  await none('GET', `${NS}/events/12/extra`);
});

misses.run();

// ---

const prefix = suite('routes :: prefixes and discovery');

prefix('a custom rest prefix moves every route', async () => {
  const cal = fakeCalendar({ restPrefix: '/api' });
  const routes = createRoutes(cal);
  assert.ok(await routes.fetch({ method: 'GET', url: `/api/tribe/events/v1/events` }, ctx));
  assert.is(await routes.fetch({ method: 'GET', url: `${NS}/events` }, ctx), undefined);
});

prefix('site index at {prefix}/, {prefix} and /', async () => {
  const routes = createRoutes(fakeCalendar());
  for (const p of ['/wp-json/', '/wp-json', '/']) {
    const r = await routes.fetch({ method: 'GET', url: `${p}` }, ctx);
    assert.is(r?.status, 200, `~> ${p}`);
    assert.equal(JSON.parse(r!.body).namespaces, ['tribe/events/v1', 'wp/v2']);
  }
});

prefix('OPTIONS describes a route and lists its methods in Allow', async () => {
  const r = await createRoutes(fakeCalendar()).fetch({ method: 'OPTIONS', url: `${NS}/events/5` }, ctx);
  assert.is(r?.status, 200);
  assert.is(r!.headers.Allow, 'GET, POST, PUT, PATCH, DELETE');
  assert.equal(JSON.parse(r!.body).methods, ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
});

prefix('the router lists one entry per method and path', () => {
  const routes = createRoutes(fakeCalendar());
  const paths = new Set(routes.entries.map((e) => `${e.method} ${e.path}`));
  assert.ok(paths.has(`GET ${NS}/events/:id`));
  assert.ok(paths.has(`PATCH ${NS}/venues/by-slug/:slug`));
  assert.ok(paths.has(`DELETE ${NS}/tags/:id`));
  assert.not.ok(paths.has(`DELETE ${NS}/events`));
});

prefix('the change feed is a route of the table: OPTIONS, the namespace index and /doc list it', async () => {
  const routes = createRoutes(fakeCalendar());
  const options = await routes.fetch({ method: 'OPTIONS', url: `${NS}/changes` }, ctx);
  assert.is(options?.headers.Allow, 'GET');
  assert.equal(Object.keys(JSON.parse(options!.body).endpoints[0].args), ['since', 'types', 'limit']);
  const index = JSON.parse((await routes.fetch({ method: 'GET', url: NS }, ctx))!.body);
  assert.ok(index.routes['/tribe/events/v1/changes'], 'in the namespace index');
  const doc = JSON.parse((await routes.fetch({ method: 'GET', url: `${NS}/doc` }, ctx))!.body);
  assert.ok(doc.paths['/changes']?.get, 'in /doc');
  // a calendar without a change feed: the route is there, and answers 404 rest_no_route
  try {
    await routes.fetch({ method: 'GET', url: `${NS}/changes` }, ctx);
    assert.unreachable('a calendar without a feed');
  } catch (e) {
    assert.is((e as { code?: string }).code, 'rest_no_route');
  }
});

prefix('the site feeds are entries of the table, after the namespaces and before the site index', () => {
  const cal = Object.assign(fakeCalendar(), { ical: () => '', icalEvent: () => '' });
  const paths = createRoutes(cal).entries.map((e) => `${e.method} ${e.path}`);
  const feed = paths.indexOf('GET /events/');
  assert.ok(feed > paths.indexOf(`GET ${NS}/events`), 'after the REST routes');
  assert.ok(paths.includes('GET /event/:slug/'));
  assert.ok(feed < paths.lastIndexOf('GET /'), 'before the site index at /');
});

prefix.run();
