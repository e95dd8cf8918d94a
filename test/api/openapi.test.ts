import { changeRoutes } from '../../src/http/changes.ts';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Validator } from '@seriousme/openapi-schema-validator';
import { buildOpenApi } from '../../src/api/openapi.ts';
import { routeTable, argsOf } from '../../src/api/route-table.ts';
import type { SiteConfig } from '../../src/api/wordpress/types.ts';

const site: SiteConfig = {
  timezone: 'UTC',
  perPage: 4,
  siteUrl: 'http://example.test/sub',
  restPrefix: '/wp-json',
  now: () => new Date(0),
};
const table = routeTable({ perPage: 4 });
// the change feed's route is in the table the HTTP shell builds /doc from (src/http/routes.ts)
const doc = buildOpenApi([...table, ...changeRoutes()], site) as any;

const D = suite('openapi :: document');

D('passes the OpenAPI 3.0 schema validator', async () => {
  const res = await new Validator().validate(doc);
  assert.ok(res.valid, `~> ${JSON.stringify(res.errors)?.slice(0, 800)}`);
  assert.is(doc.openapi, '3.0.0');
});

D('info, servers and components per docs/http-api.md', () => {
  assert.ok(doc.info.version && doc.info.title && doc.info.description);
  assert.is(doc.servers[0].url, 'http://example.test/sub/wp-json/tribe/events/v1/');
  for (const name of ['ImageSize', 'CostDetails', 'Term', 'Image', 'DateDetails', 'Event', 'Venue', 'Organizer']) {
    assert.ok(doc.components.schemas[name], `~> schema ${name}`);
  }
});

D('one path per routed path, each method of the table', () => {
  assert.equal(
    Object.keys(doc.paths),
    [...table.map((r) => (r.path === '' ? '/' : r.path)), '/changes'],
    'every route, the namespace index included, and the change feed',
  );
  assert.ok(doc.paths['/'].get, 'GET /wp-json/tribe/events/v1, the namespace index');
  assert.is(doc.paths['/'].get.operationId, 'getIndex');
  assert.ok(doc.paths['/events'].get);
  assert.ok(doc.paths['/events/{id}'].get);
  for (const route of table) {
    if (route.path === '') continue;
    for (const ep of route.endpoints)
      for (const m of ep.methods) assert.ok(doc.paths[route.path || '/'][m.toLowerCase()], `~> ${m} ${route.path}`);
  }
  assert.equal(Object.keys(doc.paths['/events/by-slug/{slug}']), ['get', 'post', 'put', 'patch', 'delete']);
  assert.is(doc.paths['/categories/by-slug/{slug}'], undefined);
});

D('list parameters come from the args table, with defaults and enums', () => {
  const all = doc.paths['/events'].get.parameters as any[];
  const params = all.filter((p) => p.in !== 'header');
  const names = params.map((p) => p.name);
  // every route also takes X-Calendar-Min-Seq (read-your-writes in a cluster), and says X-Calendar-Seq
  assert.equal(
    all.filter((p) => p.in === 'header').map((p) => p.name),
    ['X-Calendar-Min-Seq'],
  );
  assert.ok(doc.paths['/events'].get.responses['200'].headers['X-Calendar-Seq']);
  assert.equal(names, Object.keys(argsOf({ perPage: 4 }, 'events', 'list')));
  for (const n of ['ticketed', 'geoloc_radius', 'geoloc_unit', 'starts_before', 'strict_dates'])
    assert.ok(names.includes(n), n);
  const perPage = params.find((p) => p.name === 'per_page');
  assert.equal([perPage.in, perPage.schema.type, perPage.schema.default], ['query', 'integer', 4]);
  assert.equal(params.find((p) => p.name === 'geoloc_unit').schema.enum, ['mi', 'km']);
});

D('writes: path id parameter plus a request body; required fields on create only', () => {
  const create = doc.paths['/events'].post;
  assert.equal(create.requestBody.content['application/json'].schema.required, ['title', 'start_date', 'end_date']);
  assert.ok(create.responses['201']);
  const update = doc.paths['/venues/{id}'].patch;
  assert.equal(
    update.parameters.map((p: any) => [p.name, p.in, p.required]),
    [
      ['id', 'path', true],
      ['X-Calendar-Min-Seq', 'header', false],
    ],
  );
  assert.is(update.requestBody.content['application/json'].schema.required, undefined);
  assert.ok(update.requestBody.content['application/json'].schema.properties.geo_lat);
  assert.ok(doc.paths['/events/{id}'].delete.responses['410']);
  assert.ok(doc.paths['/events'].get.responses['200'].headers['X-TEC-Total']);
});

D.run();

// ---

const A = suite('args :: table');

A('every collection has list/create and id get/update/delete; slugs only for posts', () => {
  const paths = table.map((r) => r.path);
  for (const r of ['events', 'venues', 'organizers', 'categories', 'tags']) {
    assert.ok(paths.includes(`/${r}`) && paths.includes(`/${r}/{id}`), r);
    assert.is(paths.includes(`/${r}/by-slug/{slug}`), !['categories', 'tags'].includes(r), r);
  }
});

A('required create fields per the interface', () => {
  const req = (res: 'events' | 'venues' | 'organizers' | 'categories' | 'tags') =>
    Object.entries(argsOf({ perPage: 12 }, res, 'create'))
      .filter(([, a]) => a.required)
      .map(([n]) => n);
  assert.equal(req('events'), ['title', 'start_date', 'end_date']);
  assert.equal(req('venues'), ['venue']);
  assert.equal(req('organizers'), ['organizer']);
  assert.equal(req('categories'), ['name']);
  assert.equal(req('tags'), ['name']);
  const upd = Object.values(argsOf({ perPage: 12 }, 'events', 'update')).filter((a) => a.required && a.in !== 'path');
  assert.is(upd.length, 0);
});

A('term lists: parent only for categories', () => {
  assert.ok(argsOf({ perPage: 12 }, 'categories', 'list').parent);
  assert.is(argsOf({ perPage: 12 }, 'tags', 'list').parent, undefined);
});

A.run();
