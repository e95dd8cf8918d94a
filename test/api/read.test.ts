// The embedding API's object path (Calendar.read: list()/get()) against the REST text path
// (Calendar.rest) on random calendars, random queries and random writes, under cache budgets
// from "nothing cached" to "everything cached": every object page must equal JSON.parse of the
// REST body for the same call, key order included, and belong to the caller alone.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CalendarError } from '../../src/api/wordpress/errors.ts';
import type { Actor, Params, RestCall, Resource } from '../../src/api/wordpress/types.ts';
import type { Calendar } from '../../src/calendar.ts';
import type { EventRecord } from '../../src/engine/records.ts';
import { Generator, Model, Rng, mulberry32 } from '../engine/random-calendar.ts';
import { makeCalendar } from '../helpers/calendar.ts';

const read = suite('read: objects equal the REST text');

const NASTY = [' & friends', ' "quoted"', " l'été", ' -- live', ' <b>bold</b>', ' (tm)', ' 3x4', '...', ' a - b', ''];
const RESOURCES: Resource[] = ['events', 'venues', 'organizers', 'categories', 'tags'];

/** Titles and descriptions with the characters WordPress's display filters rewrite. */
function spice(rng: Rng, rec: EventRecord): EventRecord {
  if (rng.bool(0.4)) rec.title += rng.pick(NASTY);
  if (rng.bool(0.3)) rec.description = `<p>${rec.title}${rng.pick(NASTY)}</p>\n\nsecond line`;
  if (rng.bool(0.2)) rec.excerpt = rng.pick(NASTY).trim();
  return rec;
}

function dateOf(rng: Rng): string {
  return `${rng.int(2023, 2025)}-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}${rng.bool() ? ' 12:00:00' : ''}`;
}

function query(rng: Rng, gen: Generator, resource: Resource, editor: boolean): Params {
  const q: Params = { per_page: rng.int(1, 15), page: rng.pick([1, 1, 1, 2, 3]) };
  const words = ['concert', 'jazz', 'cafe', 'friends', 'quoted', 'venue', 'Cat', 'tag'];
  if (rng.bool(0.15)) q.search = rng.pick(words);
  if (editor && rng.bool(0.3)) q.status = rng.pick(['draft', 'publish', 'pending,private', 'trash']);
  if (resource === 'events') {
    q.start_date = rng.bool(0.8) ? '2023-01-01' : dateOf(rng);
    if (rng.bool(0.3)) q.end_date = dateOf(rng);
    if (rng.bool(0.1)) q.strict_dates = 'true';
    if (rng.bool(0.2) && gen.categoryIds.length)
      q.categories = rng.bool() ? rng.pick(gen.categoryIds) : `cat-${rng.pick(gen.categoryIds)}`;
    if (rng.bool(0.15) && gen.tagIds.length) q.tags = rng.pick(gen.tagIds);
    if (rng.bool(0.15)) q.venue = rng.pick(gen.venueIds);
    if (rng.bool(0.1)) q.organizer = rng.pick(gen.organizerIds);
    if (rng.bool(0.1)) q.featured = rng.bool();
    if (rng.bool(0.1)) q.include = rng.some(gen.eventIds, 6).join(',');
    if (rng.bool(0.05)) {
      q.geoloc_lat = 40.5;
      q.geoloc_lng = -73.5;
      q.geoloc_radius = 200;
      q.geoloc_unit = 'km';
    }
    if (rng.bool(0.03)) q.start_date = 'not a date';
  } else if (resource === 'venues' || resource === 'organizers') {
    if (rng.bool(0.2)) q.event = rng.pick(gen.eventIds);
    if (rng.bool(0.2)) q.has_events = rng.pick(['true', 'false']);
    if (rng.bool(0.1)) q.only_with_upcoming = 'true';
  } else {
    if (rng.bool(0.3)) q.hide_empty = rng.bool();
    if (rng.bool(0.3)) q.orderby = rng.pick(['id', 'name', 'slug', 'count', 'parent', 'include']);
    if (rng.bool(0.3)) q.order = rng.pick(['asc', 'desc']);
    if (rng.bool(0.15)) q.post = rng.pick(gen.eventIds);
    if (rng.bool(0.1)) q.include = rng.some([...gen.categoryIds, ...gen.tagIds], 4).join(',');
    if (rng.bool(0.05)) q.orderby = 'no-such-field';
  }
  return q;
}

function targets(rng: Rng, gen: Generator, resource: Resource): Array<number | string> {
  switch (resource) {
    case 'events':
      return [rng.pick(gen.eventIds), `ev-${rng.pick(gen.eventIds)}`];
    case 'venues':
      return [rng.pick(gen.venueIds), 999_999];
    case 'organizers':
      return [rng.pick(gen.organizerIds)];
    case 'categories':
      return gen.categoryIds.length ? [rng.pick(gen.categoryIds)] : [];
    case 'tags':
      return gen.tagIds.length ? [rng.pick(gen.tagIds), 'no-such-tag'] : [];
  }
}

type Outcome = { ok: true; value: unknown } | { ok: false; code: string; status: number };

async function viaRest(cal: Calendar, call: RestCall): Promise<Outcome> {
  try {
    const res = await cal.rest(call);
    const body = JSON.parse(res.body) as Record<string, unknown>;
    if (call.action !== 'list') return { ok: true, value: body };
    return { ok: true, value: { items: body[call.resource], total: body.total, totalPages: body.total_pages } };
  } catch (e) {
    if (!(e instanceof CalendarError)) throw e;
    return { ok: false, code: e.code, status: e.status };
  }
}

function viaRead(cal: Calendar, call: RestCall): Outcome {
  try {
    return { ok: true, value: cal.read(call) };
  } catch (e) {
    if (!(e instanceof CalendarError)) throw e;
    return { ok: false, code: e.code, status: e.status };
  }
}

/** Equal as values and as text (JSON.stringify sees key order, deep equality does not). */
function same(objects: Outcome, rest: Outcome, what: string): void {
  assert.equal(objects, rest, what);
  if (objects.ok && rest.ok)
    assert.is(JSON.stringify(objects.value), JSON.stringify(rest.value), `${what} (key order)`);
}

/** Change everything reachable in a result: a later read must not see it. */
function vandalise(value: unknown): void {
  if (Array.isArray(value)) {
    for (const v of value) vandalise(v);
    value.push('junk');
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const o = value as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    vandalise(o[k]);
    if (typeof o[k] === 'string' || typeof o[k] === 'number') o[k] = 'junk';
  }
  o.junk = true;
}

for (const [budget, seeds] of [
  [0, [1, 2]],
  [6_000, [3, 4]],
  [64 << 20, [5, 6, 7]],
] as const) {
  read(`cache budget ${budget} bytes: list and get equal the REST body through writes`, async () => {
    for (const seed of seeds) {
      const rng = new Rng(mulberry32(seed * 7919));
      const gen = new Generator(rng);
      const model = new Model();
      const set = gen.initial(rng.int(20, 70));
      set.events = set.events.map((e) => spice(rng, e));
      const { cal, users } = await makeCalendar({ cacheBytes: budget });
      cal.engine.bulkLoad(structuredClone(set));
      // the same calendar with nothing cached: what every read must show after any writes
      const { cal: truth } = await makeCalendar({ cacheBytes: 0 });
      truth.engine.bulkLoad(structuredClone(set));
      for (const rec of [...set.terms]) model.apply({ t: 'term', a: 'put', rec });
      for (const rec of set.venues) model.apply({ t: 'venue', a: 'put', rec });
      for (const rec of set.organizers) model.apply({ t: 'organizer', a: 'put', rec });
      for (const rec of set.events) model.apply({ t: 'event', a: 'put', rec });
      const actors: Array<[string, Actor | null]> = [
        ['anonymous', null],
        ['editor', users.editor],
      ];
      for (let round = 0; round < 12; round++) {
        for (const resource of RESOURCES) {
          for (const [who, actor] of actors) {
            for (let k = 0; k < 3; k++) {
              const call: RestCall = {
                resource,
                action: 'list',
                params: query(rng, gen, resource, actor !== null),
                actor,
              };
              const what = `seed ${seed} round ${round} ${who} list ${resource} ${JSON.stringify(call.params)}`;
              const objects = viaRead(cal, call);
              same(objects, await viaRest(cal, call), what);
              same(objects, await viaRest(truth, call), `${what}, against an uncached calendar`);
              if (objects.ok) {
                vandalise(objects.value);
                same(viaRead(cal, call), await viaRest(cal, call), `${what}, after the caller changed its copy`);
              }
            }
            for (const target of targets(rng, gen, resource)) {
              const t = typeof target === 'number' ? { id: target } : { slug: target };
              const call: RestCall = { resource, action: 'get', target: t, params: {}, actor };
              const what = `seed ${seed} round ${round} ${who} get ${resource} ${target}`;
              const objects = viaRead(cal, call);
              same(objects, await viaRest(cal, call), what);
              same(objects, await viaRest(truth, call), `${what}, against an uncached calendar`);
              if (objects.ok) vandalise(objects.value);
            }
          }
        }
        // writes straight into the engine: the renderer hears them only through the change hooks
        for (let w = rng.int(1, 8); w > 0; w--) {
          const op = gen.op(model);
          if (op.t === 'event' && op.a === 'put') spice(rng, op.rec);
          if (op.a === 'put' && op.t === 'venue' && rng.bool(0.5)) op.rec.title = `Renamed ${rng.pick(NASTY)}`;
          model.apply(op);
          cal.engine.apply([structuredClone(op)]);
          truth.engine.apply([structuredClone(op)]);
        }
      }
      await cal.close();
      await truth.close();
    }
  });
}

read('the objects of a list page are the JSON text of the page, byte for byte once serialised', async () => {
  const rng = new Rng(mulberry32(42));
  const gen = new Generator(rng);
  const { cal } = await makeCalendar();
  cal.engine.bulkLoad(gen.initial(40));
  const call: RestCall = {
    resource: 'events',
    action: 'list',
    params: { start_date: '2023-01-01', per_page: 50 },
    actor: null,
  };
  const body = JSON.parse((await cal.rest(call)).body) as { events: unknown[] };
  assert.ok(body.events.length > 10);
  for (let pass = 0; pass < 2; pass++) {
    // the first pass renders cold, the second reads the cache
    const page = cal.read(call) as { items: unknown[] };
    assert.is(JSON.stringify(page.items), JSON.stringify(body.events), `pass ${pass}`);
  }
  await cal.close();
});

read.run();
