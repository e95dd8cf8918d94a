// The work after a snapshot load, in slices between requests: the main index's block statistics
// refreshed a few blocks at a time (BlockStats.refreshSome), begun again when the index changes
// meanwhile; the large lists' statistics made before a query needs them; each step bounded;
// lists answered and writes made while it runs give what a settled calendar gives.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BlockStats } from '../../src/engine/block-stats.ts';
import { Engine } from '../../src/engine/engine.ts';
import { naiveToString } from '../../src/engine/naive-time.ts';
import { BLOCK_SIZE } from '../../src/engine/block-layout.ts';
import { existingSearchIndex } from '../../src/engine/search-index.ts';
import { LIST_WARM_MIN, WarmUp, listsToWarm } from '../../src/engine/warm-up.ts';
import type { EventRecord } from '../../src/engine/records.ts';
import type { EventQuery } from '../../src/engine/types.ts';
import { makeEvent, makeOrganizer, makeTerm } from './build.ts';
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
  // enough rows that the main index's statistics take several slices of up to 4 ms
  const set = { events: events(60_000, 2), venues: [], organizers: [], terms: [], attachments: [] };
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
    await new Promise((r) => setImmediate(r)); // a turn of the loop: a slice of the warm-up runs here
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

/** A calendar of `n` events over categories 1..4 (2 under 1), tags 10..13 and organizers O, O + 1
 *  (O past the event ids), loaded from its snapshot as `serve` loads a store; tag 13 and
 *  organizer O + 1 are rare. */
const O = 1_000_000;

function linkedCalendar(n: number, seed: number): { e: Engine; settled: Engine } {
  const rng = new Rng(mulberry32(seed));
  const terms = [
    makeTerm(1),
    makeTerm(2, { parent: 1 }),
    makeTerm(3),
    makeTerm(4),
    ...[10, 11, 12, 13].map((id) => makeTerm(id, { taxonomy: 'post_tag' })),
  ];
  const organizers = [makeOrganizer(O), makeOrganizer(O + 1)];
  const evs = events(n, seed).map((ev, i) => ({
    ...ev,
    categoryIds: [rng.pick([1, 2, 3, 4])],
    tagIds: i % 100 === 0 ? [13] : rng.some([10, 11, 12], 3),
    organizerIds: i % 50 === 0 ? [O + 1] : [O],
  }));
  const set = { events: evs, venues: [], organizers, terms, attachments: [] };
  const source = new Engine();
  source.bulkLoad(set);
  const e = new Engine();
  e.loadSnapshotChunks(JSON.parse(JSON.stringify([...source.snapshotChunks()])) as unknown[]);
  const settled = new Engine();
  settled.bulkLoad(set);
  return { e, settled };
}

Warm(
  'the warm-up makes the statistics of every large category, tag and organizer list before a query needs them',
  async () => {
    const { e, settled } = linkedCalendar(36_000, 5);
    const st = e.state;
    const big = listsToWarm(st);
    // closures of 1, 3 and 4 (1 holds 2's rows too), direct 1..4, tags 10..12, organizer O
    assert.ok(big.length >= 12, `large lists (${big.length})`);
    assert.ok(
      big.every((l, i) => l.count >= LIST_WARM_MIN && (i === 0 || big[i - 1].count >= l.count)),
      'the large lists, largest first',
    );
    assert.ok(
      big.every((l) => l.blocks.dirty),
      'a load leaves them to be made',
    );
    const small = [st.tagPostings.get(13)!, st.organizerPostings.get(O + 1)!];
    assert.ok(small.every((l) => l.count < LIST_WARM_MIN && l.count > 0));
    e.warmInBackground();
    for (let ticks = 0; existingSearchIndex(st)?.building !== false; ticks++) {
      if (ticks > 10_000) assert.unreachable('the warm-up never ended');
      await new Promise((r) => setTimeout(r, 1));
    }
    assert.not.ok(st.blocks.dirty, 'the main index');
    for (const list of big) {
      assert.not.ok(list.blocks.dirty, `a list of ${list.count} rows`);
      const ref = new BlockStats();
      ref.refresh(list.rows, list.count, st.table, list.combos);
      assert.equal([...list.blocks.counts], [...ref.counts]);
      assert.equal([...list.blocks.minEnds], [...ref.minEnds]);
      assert.equal([...list.blocks.maxEnds], [...ref.maxEnds]);
    }
    assert.ok(
      small.every((l) => l.blocks.dirty),
      'a small list keeps its statistics for the first query that counts it',
    );
    // answers as a calendar whose statistics were made on the spot
    const queries: EventQuery[] = [
      { statusMask: 1, categoryIds: [1], offset: 0, limit: 10 },
      { statusMask: 1, tagIds: [10, 12], offset: 0, limit: 10 },
      { statusMask: 1, organizerIds: [O], startGte: BASE + 100 * DAY, offset: 0, limit: 10 },
      { statusMask: 1, tagIds: [13], offset: 0, limit: 10 },
    ];
    for (const q of queries) {
      const a = e.query(q),
        b = settled.query(q);
      assert.is(a.total, b.total);
      assert.equal(
        a.rows.map((r) => e.eventId(r)),
        b.rows.map((r) => settled.eventId(r)),
      );
    }
  },
);

Warm('a step of the warm-up whose deadline has passed does a few blocks or a few hundred slugs, then stops', () => {
  const { e } = linkedCalendar(20_000, 6);
  const st = e.state;
  const blocksOf = (n: number) => Math.ceil(n / BLOCK_SIZE);
  // what the steps must get through: the main index's blocks, the large lists' blocks, the slugs
  const mainBlocks = blocksOf(st.main.count);
  const listBlocks = listsToWarm(st).map((l) => blocksOf(l.count));
  const warm = new WarmUp(st);
  let steps = 0;
  while (!warm.step(0)) {
    steps++;
    if (steps > 100_000) assert.unreachable('the warm-up never ended');
  }
  // a step does at most 4 blocks (a look at the clock every 4), of one list, or 256 slugs
  const least =
    Math.ceil(mainBlocks / 4) + listBlocks.reduce((n, b) => n + Math.ceil(b / 4), 0) + Math.ceil(20_000 / 256) - 3;
  assert.ok(steps >= least, `${steps} steps, at least ${least}`);
  assert.not.ok(st.blocks.dirty);
  assert.ok(listsToWarm(st).every((l) => !l.blocks.dirty));
  assert.ok(st.ids.buildSlugs(0), 'the slug lookup is built');
});

Warm.run();
