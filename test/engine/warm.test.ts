// The work after a snapshot load, in slices between requests: the main index's block statistics
// refreshed a few blocks at a time (BlockStats.refreshSome), begun again when the index changes
// meanwhile; lists answered and writes made while it runs give what a settled calendar gives.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BlockStats } from '../../src/engine/block-stats.ts';
import { Engine } from '../../src/engine/engine.ts';
import { naiveToString } from '../../src/engine/naive-time.ts';
import type { EventRecord } from '../../src/engine/records.ts';
import type { EventQuery } from '../../src/engine/types.ts';
import { makeEvent, makeTerm } from './build.ts';
import { Generator, Rng, mulberry32 } from './random-calendar.ts';

const Warm = suite('warm-up in slices');
const DAY = 86_400_000;
const BASE = Date.UTC(2024, 0, 1);

function events(n: number, seed: number): EventRecord[] {
  const rng = new Rng(mulberry32(seed));
  const out: EventRecord[] = [];
  for (let i = 0; i < n; i++) {
    const s = BASE + Math.floor(rng.next() * 400) * DAY + rng.pick([0, 3_600_000, 7_200_000]);
    out.push(
      makeEvent(i + 1, {
        startLocal: naiveToString(s),
        endLocal: naiveToString(s + rng.pick([0, 1, 2, 30]) * DAY),
        status: rng.pick(['publish', 'publish', 'draft', 'trash'] as const),
        featured: rng.bool(0.3),
      }),
    );
  }
  return out;
}

/** The summaries of `b` as plain arrays (the segments' used entries only). */
function summaries(b: BlockStats): unknown {
  const seg: number[][] = [];
  for (let k = 0; k < b.blocks; k++) {
    const from = b.segBase(k),
      to = b.segEnd(k);
    seg.push([...b.segEnds.subarray(from, to)], [...b.segCombos.subarray(from, to)]);
  }
  return {
    blocks: b.blocks,
    bounds: [...b.bounds],
    counts: [...b.counts],
    minEnds: [...b.minEnds],
    maxEnds: [...b.maxEnds],
    superCounts: [...b.superCounts],
    seg,
  };
}

Warm('refreshSome goes a few blocks at a time, begins again after a change, ends as refresh() does', () => {
  const e = new Engine();
  const all = events(20_000, 1);
  e.bulkLoad({ events: all, venues: [], organizers: [], terms: [], attachments: [] });
  const st = e.state;
  const m = st.main;
  assert.ok(st.blocks.dirty, 'a bulk load leaves the blocks to be built');
  // a deadline already passed: one look at the clock's worth of blocks per call
  assert.is(st.blocks.refreshSome(m.rows, m.count, st.table, 0), false);
  assert.is(st.blocks.refreshSome(m.rows, m.count, st.table, 0), false);
  assert.ok(st.blocks.dirty);
  // an event moved to the very start (as many rows as before): the rows before its old place
  // move one position, the blocks done are stale
  const moved = { ...all[all.length - 1], startLocal: '2000-01-01 00:00:00', endLocal: '2000-01-01 01:00:00' };
  e.apply([{ t: 'event', a: 'put', rec: moved }]);
  assert.is(m.rows[0], e.eventRow(moved.id));
  let steps = 0;
  while (!st.blocks.refreshSome(m.rows, m.count, st.table, 0)) steps++;
  assert.ok(steps > 3, `in steps (${steps})`);
  assert.not.ok(st.blocks.dirty);
  const ref = new BlockStats(true);
  ref.refresh(m.rows, m.count, st.table);
  assert.equal(summaries(st.blocks), summaries(ref));
});

Warm('lists answered and writes made while the warm-up runs answer as a settled calendar', async () => {
  const set = { events: events(30_000, 2), venues: [], organizers: [], terms: [], attachments: [] };
  const source = new Engine();
  source.bulkLoad(set);
  const chunks = JSON.parse(JSON.stringify([...source.snapshotChunks()])) as unknown[];
  const e = new Engine();
  e.loadSnapshotChunks(chunks);
  const settled = new Engine();
  settled.bulkLoad(set);
  const queries: Omit<EventQuery, 'offset' | 'limit'>[] = [
    { statusMask: 1 },
    { statusMask: 0xff },
    { statusMask: 1, startGte: BASE + 100 * DAY, startLt: BASE + 200 * DAY },
    { statusMask: 1, endGte: BASE + 150 * DAY },
  ];
  const answer = (x: Engine, q: Omit<EventQuery, 'offset' | 'limit'>, offset: number) => {
    const r = x.query({ ...q, offset, limit: 20 } as EventQuery);
    return [r.total, ...r.rows.map((row) => x.eventId(row))];
  };
  e.warmInBackground();
  const rng = new Rng(mulberry32(9));
  let dirtySeen = 0;
  for (let i = 0; i < 40; i++) {
    await new Promise((r) => setTimeout(r, 0)); // a slice of the warm-up runs here
    if (e.state.blocks.dirty) dirtySeen++;
    if (i % 4 === 1) {
      // a write between slices: an event moved to another day
      const rec = set.events[rng.int(0, set.events.length - 1)];
      const s = BASE + rng.int(0, 400) * DAY;
      const put = { ...rec, startLocal: naiveToString(s), endLocal: naiveToString(s + DAY) };
      e.apply([{ t: 'event', a: 'put', rec: put }]);
      settled.apply([{ t: 'event', a: 'put', rec: put }]);
    } else if (i % 4 === 3) {
      const q = rng.pick(queries);
      const offset = rng.int(0, 500);
      assert.equal(answer(e, q, offset), answer(settled, q, offset), `step ${i}`);
    }
  }
  assert.ok(dirtySeen > 0, 'the first slice left blocks to do');
  for (const q of queries) assert.equal(answer(e, q, 0), answer(settled, q, 0));
  assert.not.ok(e.state.blocks.dirty);
});

Warm(
  'the link lists a snapshot brought join the lookup in the warm-up; a write before that finds them too',
  async () => {
    const gen = new Generator(new Rng(mulberry32(4)));
    const set = gen.initial(3000);
    const source = new Engine();
    source.bulkLoad(set);
    const chunks = JSON.parse(JSON.stringify([...source.snapshotChunks()])) as unknown[];
    const warmed = new Engine();
    warmed.loadSnapshotChunks(chunks);
    const pool = warmed.state.table.idLists;
    const n = pool.count;
    assert.ok(n > 100);
    assert.not.ok(pool.indexSome(0), 'loaded as they are, not yet found by content');
    warmed.warmInBackground();
    for (let i = 0; i < 200 && !pool.indexSome(0); i++) await new Promise((r) => setTimeout(r, 1));
    assert.ok(pool.indexSome(0), 'taken in by the warm-up');
    // a write naming another event's lists: found, not added again, warmed up or not
    const cold = new Engine();
    cold.loadSnapshotChunks(chunks);
    for (const x of [warmed, cold]) {
      const a = x.eventRecord(0),
        b = x.eventRecord(x.eventRowCount - 1);
      x.apply([{ t: 'event', a: 'put', rec: { ...a, tagIds: b.tagIds, categoryIds: b.categoryIds } }]);
      assert.is(x.state.table.idLists.count, n);
      assert.is(x.state.table.tagIds.lists[x.eventRow(a.id)], x.state.table.tagIds.lists[x.eventRow(b.id)]);
    }
  },
);

Warm('a load builds the category closure with the lists: no first category query builds it', () => {
  // categories 1..6: 2 and 3 under 1, 4 under 2, 5 under 4; 6 on its own
  const terms = [
    makeTerm(1),
    makeTerm(2, { parent: 1 }),
    makeTerm(3, { parent: 1 }),
    makeTerm(4, { parent: 2 }),
    makeTerm(5, { parent: 4 }),
    makeTerm(6),
  ];
  const rng = new Rng(mulberry32(4));
  const evs = events(3_000, 3).map((ev, i) => ({
    ...ev,
    categoryIds: i % 5 === 0 ? [] : rng.some([1, 2, 3, 4, 5, 6], 3),
  }));
  const source = new Engine();
  source.bulkLoad({ events: evs, venues: [], organizers: [], terms, attachments: [] });
  const e = new Engine();
  e.loadSnapshotChunks(JSON.parse(JSON.stringify([...source.snapshotChunks()])) as unknown[]);
  assert.not.ok(e.state.closureDirty, 'built by the load');
  const lists = (x: Engine) =>
    terms.map((t) => {
      const list = x.state.categoryClosure.get(t.id);
      return list ? [...list.rows.subarray(0, list.count)].map((row) => x.eventId(row)) : [];
    });
  const loaded = lists(e);
  e.state.closureDirty = true;
  e.state.ensureClosure(); // the one-pass build a query would make
  assert.equal(loaded, lists(e));
  assert.ok(loaded[0].length > loaded[4].length, 'the root holds its descendants');
});

Warm.run();
