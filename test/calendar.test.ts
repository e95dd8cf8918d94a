// openCalendar as an embedder uses it: memory and store-backed, import, acting users, restart.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CalendarError, openCalendar, type Params } from '../src/index.ts';
import { resolveActor } from '../src/api/wordpress/auth.ts';
import { NOW, baseEvent, rejects } from './helpers/calendar.ts';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'cal-test-'));

const importData = {
  categories: [
    { id: 10, name: 'Music', slug: 'music' },
    { id: 11, name: 'Jazz', parent: 10 },
  ],
  tags: [{ id: 20, name: 'outdoor' }],
  venues: [{ id: 100, venue: 'Hall', city: 'Paris', geo_lat: 48.85, geo_lng: 2.35 }],
  organizers: [{ id: 200, organizer: 'Org', email: 'org@example.com' }],
  events: [
    {
      id: 300,
      title: 'Jazz night',
      start_date: '2026-03-10 20:00:00',
      end_date: '2026-03-10 23:00:00',
      timezone: 'Europe/Paris',
      categories: [11],
      tags: [20],
      venue: 100,
      organizer: [200],
      cost: '15€',
      utc_start_date: 'ignored',
    },
    { id: 301, title: 'Draft', status: 'draft', start_date: '2026-03-11 20:00:00', end_date: '2026-03-11 21:00:00' },
  ],
};

const cal = suite('calendar');

cal('import keeps ids, recomputes derived fields, links by id', async () => {
  const c = await openCalendar({ now: () => NOW });
  assert.equal(await c.import(importData), { events: 2, venues: 1, organizers: 1, categories: 2, tags: 1 });
  const ev = await c.events.get(300);
  assert.is(ev.utc_start_date, '2026-03-10 19:00:00');
  assert.is(ev.timezone_abbr, 'CET');
  assert.is((ev.venue as { id: number }).id, 100);
  assert.equal(
    (ev.categories as Array<{ id: number }>).map((t) => t.id),
    [11],
  );
  assert.is((await c.events.list({ categories: 'music' }, null)).total, 1, 'parent category matches its child');
  assert.is((await c.events.list({}, null)).total, 1);
  const next = await c.events.create(baseEvent);
  assert.ok((next.id as number) > 301, 'new ids come after imported ones');
});

cal('a bad record is reported with its index and id, and nothing is imported', async () => {
  const c = await openCalendar({ now: () => NOW });
  const bad = {
    ...importData,
    events: [
      importData.events[0],
      { id: 302, title: 'No venue', start_date: '2026-03-10 20:00:00', end_date: '2026-03-10 21:00:00', venue: 999 },
    ],
  };
  const err = await rejects(c.import(bad), 'rest_invalid_param', 400);
  assert.match(err.message, /events\[1\] \(id 302\)/);
  assert.ok(c.isEmpty());
  await rejects(
    c.import({ events: [{ id: 1, title: '', start_date: 'x', end_date: 'y' }] }),
    'rest_invalid_param',
    400,
  );
  await rejects(
    c.import({
      venues: [
        { id: 5, venue: 'A' },
        { id: 5, venue: 'B' },
      ],
    }),
    'rest_invalid_param',
    400,
  );
  assert.ok(c.isEmpty());
});

cal('acting users: login, { role, id }, null; unknown login → 401', async () => {
  const c = await openCalendar({ now: () => NOW });
  const { user } = c.users.add('ed', 'editor');
  assert.is((await c.events.create(baseEvent, 'ed')).author, String(user.id));
  assert.is((await c.events.create(baseEvent, { role: 'author', id: 77 })).author, '77');
  await rejects(c.events.create(baseEvent, null), 'rest_forbidden', 401);
  await rejects(c.events.create(baseEvent, 'nobody'), 'invalid_username', 401);
  await rejects(c.events.create(baseEvent, { role: 'subscriber' }), 'rest_forbidden', 403);
});

cal('bad options are CalendarErrors', async () => {
  try {
    await openCalendar({ timezone: 'Mars/Base' });
    assert.unreachable();
  } catch (e) {
    assert.instance(e, CalendarError);
  }
});

cal('store-backed: writes survive close and reopen, ids are not reused after trash', async () => {
  const dir = tmp();
  const a = await openCalendar({ dir, now: () => NOW });
  await a.import(importData);
  const ev = await a.events.create({ ...baseEvent, venue: { venue: 'Inline hall' } });
  await a.venues.update(100, { venue: 'Renamed hall' });
  await a.events.delete(ev.id as number);
  const cat = await a.categories.create({ name: 'Temporary' });
  await a.categories.delete(cat.id as number);
  await a.close();

  const b = await openCalendar({ dir, now: () => NOW });
  await rejects(b.events.get(ev.id as number), 'event-no-longer-available', 403);
  assert.is((await b.venues.get(100)).venue, 'Renamed hall');
  assert.is(((await b.events.get(300)).venue as { venue: string }).venue, 'Renamed hall');
  await rejects(b.categories.get(cat.id as number), 'rest_invalid_param', 400);
  const again = await b.events.create(baseEvent);
  assert.ok((again.id as number) > (ev.id as number));
  const term = await b.categories.create({ name: 'After' });
  assert.ok((term.id as number) > (cat.id as number), 'term ids never reused after a permanent delete');
  await b.snapshot();
  await b.close();

  const c = await openCalendar({ dir, now: () => NOW });
  assert.is((await c.events.get(again.id as number)).id, again.id);
  assert.is((await c.events.list({}, null)).total, 2);
  await c.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

cal('cacheBytes sets the budget of the representation cache; a bad one is refused', async () => {
  const c = await openCalendar({ now: () => NOW, cacheBytes: 4096 });
  assert.is(c.render.stats().budget, 4096);
  await c.import(importData);
  await c.events.list({}, null);
  assert.ok(c.render.stats().bytes <= 4096);
  await c.close();
  assert.is((await openCalendar({})).render.stats().budget, 64 * 1024 * 1024, 'default 64 MiB');
  for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
    try {
      await openCalendar({ cacheBytes: bad });
      assert.unreachable(`cacheBytes ${bad} accepted`);
    } catch (e) {
      assert.instance(e, CalendarError);
      assert.is((e as CalendarError).code, 'invalid_option');
    }
  }
});

cal('writes answer the body rest() sends, as objects never made from JSON text', async () => {
  // the same writes on two calendars: one through the collections, one through rest() as text
  const [objects, texts] = await Promise.all([0, 1].map(() => openCalendar({ now: () => NOW })));
  type Step = [resource: 'events' | 'venues' | 'organizers' | 'categories' | 'tags', 'create' | 'update' | 'delete'];
  const id = (made: Array<Record<string, unknown>>, n: number) => made[n].id as number;
  const steps: Array<[...Step, (made: Array<Record<string, unknown>>) => { id?: number; fields: Params }]> = [
    ['categories', 'create', () => ({ fields: { name: 'Jazz' } })],
    ['tags', 'create', () => ({ fields: { name: 'outdoor' } })],
    ['venues', 'create', () => ({ fields: { venue: 'Hall', city: 'Paris' } })],
    ['organizers', 'create', () => ({ fields: { organizer: 'Org' } })],
    [
      'events',
      'create',
      (m) => ({
        fields: { ...baseEvent, categories: [id(m, 0)], tags: [id(m, 1)], venue: id(m, 2), organizer: [id(m, 3)] },
      }),
    ],
    ['events', 'update', (m) => ({ id: id(m, 4), fields: { title: 'Renamed' } })],
    ['venues', 'update', (m) => ({ id: id(m, 2), fields: { city: 'Lyon' } })],
    ['tags', 'update', (m) => ({ id: id(m, 1), fields: { name: 'indoor' } })],
    ['events', 'delete', (m) => ({ id: id(m, 4), fields: {} })],
    ['organizers', 'delete', (m) => ({ id: id(m, 3), fields: {} })],
    ['categories', 'delete', (m) => ({ id: id(m, 0), fields: {} })],
  ];
  const parse = JSON.parse;
  let parsed = 0;
  JSON.parse = ((...args: Parameters<typeof JSON.parse>) => (parsed++, parse(...args))) as typeof JSON.parse;
  const made: Array<Record<string, unknown>> = [];
  try {
    for (const [resource, action, args] of steps) {
      const { id, fields } = args(made);
      const api = objects[resource];
      made.push(
        await (action === 'create'
          ? api.create(fields)
          : action === 'update'
            ? api.update(id!, fields)
            : api.delete(id!)),
      );
    }
  } finally {
    JSON.parse = parse;
  }
  assert.is(parsed, 0, 'no JSON text parsed by an embedding write');
  const expected: Array<Record<string, unknown>> = [];
  const actor = resolveActor(undefined, texts.users);
  for (const [resource, action, args] of steps) {
    const { id, fields } = args(expected);
    const res = await texts.rest({
      resource,
      action,
      target: id === undefined ? undefined : { id },
      params: fields,
      actor,
    });
    expected.push(JSON.parse(res.body));
  }
  assert.equal(made, expected);
  // fresh: changing an answer changes nothing the calendar holds
  made[2].venue = 'Changed';
  assert.is((await objects.venues.get(id(made, 2))).venue, 'Hall');
  await Promise.all([objects.close(), texts.close()]);
});

cal.run();
