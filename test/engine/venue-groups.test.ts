// Venue groups (src/engine/venue-groups.ts): every venue with coordinates sits in one group; a
// radius holding all the venues takes groups' lists only; a large calendar's lists are made in the
// background (a radius query meanwhile answers from the venues' lists), and a write during that
// pass makes it start again; once made, the lists follow writes and radius queries stay right.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Engine } from '../../src/engine/engine.ts';
import { selectNth } from '../../src/engine/venue-groups.ts';
import type { EventQuery } from '../../src/engine/types.ts';
import { checkIndexes } from './index-invariants.ts';
import { checkQuery, Generator, Model, Rng, mulberry32 } from './random-calendar.ts';

const groups = suite('venue groups');

/** A calendar whose events are each at one venue (or none), in an engine and the model. */
function calendar(seed: number, events: number) {
  const rng = new Rng(mulberry32(seed));
  const gen = new Generator(rng, 0);
  const set = gen.initial(events);
  const model = new Model();
  for (const rec of set.terms) model.apply({ t: 'term', a: 'put', rec });
  for (const rec of set.venues) model.apply({ t: 'venue', a: 'put', rec });
  for (const rec of set.organizers) model.apply({ t: 'organizer', a: 'put', rec });
  for (const rec of set.events) model.apply({ t: 'event', a: 'put', rec });
  const engine = new Engine();
  engine.bulkLoad(structuredClone(set));
  return { rng, gen, model, engine };
}

/** A radius query around a venue with coordinates, reaching to another one (on the radius). */
function radiusQuery(gen: Generator, model: Model): EventQuery {
  for (;;) {
    const q = gen.query(model);
    if (q.geo?.kind === 'radius') return q;
  }
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

groups('every venue with coordinates is in a group; all of them are taken as groups whole', () => {
  const { engine, model } = calendar(11, 400);
  const st = engine.state;
  st.venueGroups.configure(3, 9);
  const withCoords = [...model.venues.values()].filter((v) => v.geoLat !== null).map((v) => v.id);
  withCoords.sort((a, b) => a - b);
  const cover = st.venueGroups.cover(st, withCoords)!;
  assert.ok(cover, 'a small calendar: made on the spot');
  assert.equal(cover.venues, [], 'no venue left over');
  assert.ok(cover.lists.length >= 1);
  // the taken lists hold exactly the rows at venues with coordinates, once each
  const rows = cover.lists.flatMap((l) => Array.from(l.rows.subarray(0, l.count))).sort((a, b) => a - b);
  const want: number[] = [];
  for (let row = 0; row < st.table.count; row++)
    if (st.table.venueList(row).some((v) => withCoords.includes(v))) want.push(row);
  assert.equal(rows, want);
  // one venue short of a group: that group is not taken whole, its other venues come one by one
  const fewer = withCoords.slice(1);
  const part = st.venueGroups.cover(st, fewer)!;
  assert.ok(part.venues.length >= 1 && !part.venues.includes(withCoords[0]));
  checkIndexes(engine, 'made on the spot');
});

groups('a large calendar: made in the background, started again after a write', async () => {
  const { engine, model, gen, rng } = calendar(12, 1500);
  const st = engine.state;
  // every calendar counts as large; each slice of the pass is 16 rows, one slice a turn
  const schedule = (work: (deadline: number) => boolean) => {
    const tick = () => {
      if (!work(0)) setImmediate(tick);
    };
    setImmediate(tick);
  };
  st.venueGroups.configure(2, 6, { syncRows: 0, stepRows: 16, schedule });
  const q = radiusQuery(gen, model);
  checkQuery(engine, model, q, 'before the lists are made');
  assert.is(st.venueGroups.ready, false, 'started, not made');
  // a write after the pass's first slices (rows it has passed may move): the pass gives up
  for (let i = 0; i < 10; i++) await nextTurn();
  const op = { t: 'event' as const, a: 'put' as const, rec: gen.event(rng.pick(gen.eventIds)) };
  model.apply(op);
  engine.apply([structuredClone(op)]);
  for (let i = 0; i < 300; i++) await nextTurn();
  assert.is(st.venueGroups.ready, false, 'a row changed under the pass: dropped');
  checkQuery(engine, model, q, 'after the pass gave up (starts it again)');
  let turns = 0;
  for (; turns < 2000 && !st.venueGroups.ready; turns++) {
    await nextTurn();
    if (!st.venueGroups.ready) checkQuery(engine, model, q, `while the pass runs (turn ${turns})`);
  }
  assert.ok(st.venueGroups.ready, 'made in the background');
  checkIndexes(engine, 'made in the background');
  const before = st.venueGroups.taken;
  for (let i = 0; i < 150; i++) checkQuery(engine, model, radiusQuery(gen, model), `made #${i}`);
  assert.ok(st.venueGroups.taken > before, 'radius queries took groups whole');
  // writes of every kind (venues moved, trashed, made; events at two venues); the lists follow
  for (let round = 0; round < 6; round++) {
    for (let i = 0; i < 30; i++) {
      const w = gen.op(model);
      model.apply(w);
      engine.apply([structuredClone(w)]);
    }
    for (let i = 0; i < 200 && !st.venueGroups.ready; i++) {
      checkQuery(engine, model, radiusQuery(gen, model), `round ${round} while made again`);
      await nextTurn();
    }
    for (let i = 0; i < 60; i++) checkQuery(engine, model, radiusQuery(gen, model), `round ${round} #${i}`);
    checkIndexes(engine, `round ${round}`);
  }
});

groups('Engine.settled() resolves once the groups a radius query started are made', async () => {
  const { engine, model, gen } = calendar(14, 800);
  const st = engine.state;
  st.venueGroups.configure(2, 6, { syncRows: 0, stepRows: 8 });
  checkQuery(engine, model, radiusQuery(gen, model), 'starts the pass');
  assert.is(st.venueGroups.ready, false);
  await engine.settled();
  assert.ok(st.venueGroups.ready, 'made by the time settled() resolves');
  checkIndexes(engine, 'settled');
});

groups('a bulk rebuild drops the lists; a radius query makes them again', () => {
  const { engine, model, gen } = calendar(13, 600);
  const st = engine.state;
  st.venueGroups.configure(2, 6);
  checkQuery(engine, model, radiusQuery(gen, model), 'first');
  assert.ok(st.venueGroups.ready);
  st.rebuildIndexes();
  assert.is(st.venueGroups.ready, false, 'dropped with the main index');
  for (let i = 0; i < 40; i++) checkQuery(engine, model, radiusQuery(gen, model), `after the rebuild #${i}`);
  assert.ok(st.venueGroups.ready);
  checkIndexes(engine, 'after the rebuild');
});

groups('selectNth puts the k-th by (key, id) at k, no later ones before it, no earlier after', () => {
  const r = new Rng(mulberry32(21));
  for (let round = 0; round < 300; round++) {
    const n = r.int(1, 60);
    // few distinct keys: many ties, broken by id
    const key = Float64Array.from({ length: n }, () => r.int(0, 5));
    const ids = Int32Array.from({ length: n }, (_, i) => 1000 - i);
    const order = Int32Array.from({ length: n }, (_, i) => i);
    const lo = r.int(0, n - 1),
      hi = r.int(lo + 1, n),
      k = r.int(lo, hi - 1);
    const before = Array.from(order);
    selectNth(order, key, ids, lo, hi, k);
    const rank = (p: number) => key[p] * 10_000 + ids[p];
    const want = before.slice(lo, hi).sort((a, b) => rank(a) - rank(b));
    assert.is(order[k], want[k - lo], `round ${round}: the k-th`);
    for (let i = lo; i < k; i++) assert.ok(rank(order[i]) <= rank(order[k]), `round ${round}: ${i} before k`);
    for (let i = k + 1; i < hi; i++) assert.ok(rank(order[i]) >= rank(order[k]), `round ${round}: ${i} after k`);
    assert.equal(Array.from(order.subarray(0, lo)), before.slice(0, lo), 'outside the range: untouched');
    assert.equal(Array.from(order.subarray(hi)), before.slice(hi));
    assert.equal(
      [...order.subarray(lo, hi)].sort((a, b) => a - b),
      before.slice(lo, hi).sort((a, b) => a - b),
    );
  }
});

groups.run();
