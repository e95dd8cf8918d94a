// The large posting lists' block statistics kept in a snapshot (src/engine/snapshot-list-stats.ts):
// written by a save (the lists' own) and by an import's streamed snapshot (made from the columns),
// read by a load equal to a fresh refresh of each list, block for block; damaged lines refused; a
// snapshot without them loads as before, the warm-up making them.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BlockStats, COMBOS } from '../../src/engine/block-stats.ts';
import { Engine } from '../../src/engine/engine.ts';
import type { ImportSet } from '../../src/engine/engine-api.ts';
import { naiveToString } from '../../src/engine/naive-time.ts';
import type { EventRecord } from '../../src/engine/records.ts';
import type { EventQuery } from '../../src/engine/types.ts';
import { LIST_STATS_MIN } from '../../src/engine/snapshot-list-stats.ts';
import { snapshotWorkerSettings, snapshotWorkerStats } from '../../src/engine/snapshot-workers.ts';
import type { PostingList } from '../../src/engine/posting-list.ts';
import { LIST_WARM_MIN, listsToWarm } from '../../src/engine/warm-up.ts';
import { EDITOR_MASK, makeEvent, makeOrganizer, makeTerm } from './build.ts';
import { Rng, mulberry32 } from './random-calendar.ts';

const Stats = suite('snapshot list statistics');
const DAY = 86_400_000;
const BASE = Date.UTC(2024, 0, 1);
const O = 1_000_000;
type Chunk = Record<string, unknown> & { type: string };

/** A calendar whose category 1 (2 under it; its closure too), tag 10 and organizer O lists are large, with drafts,
 *  trashed, featured and dateless-end rows; categories 2 and 3, tag 11, organizer O + 1 small. */
function importSet(n: number, seed: number): ImportSet {
  const rng = new Rng(mulberry32(seed));
  const events: EventRecord[] = [];
  for (let i = 0; i < n; i++) {
    const s = BASE + Math.floor(rng.next() * 400) * DAY + rng.pick([0, 3_600_000]);
    events.push(
      makeEvent(i + 1, {
        startLocal: naiveToString(s),
        endLocal: naiveToString(s + rng.pick([0, 1, 2, 30]) * DAY),
        status: rng.pick(['publish', 'publish', 'draft', 'trash'] as const),
        featured: rng.bool(0.3),
        categoryIds: i % 7 === 0 ? [3] : i % 3 === 0 ? [2] : [1],
        tagIds: i % 50 === 0 ? [11] : [10],
        organizerIds: i % 40 === 0 ? [O + 1] : [O],
      }),
    );
  }
  const terms = [
    makeTerm(1),
    makeTerm(2, { parent: 1 }),
    makeTerm(3),
    ...[10, 11].map((id) => makeTerm(id, { taxonomy: 'post_tag' })),
  ];
  return { events, venues: [], organizers: [makeOrganizer(O), makeOrganizer(O + 1)], terms, attachments: [] };
}

const SET = importSet(20_000, 3);
const json = (chunks: Iterable<unknown>): Chunk[] => JSON.parse(JSON.stringify([...chunks])) as Chunk[];
const load = (chunks: unknown[]): Engine => {
  const e = new Engine();
  e.loadSnapshotChunks(chunks);
  return e;
};

let savedOnce: Chunk[] | undefined;
/** The snapshot of a calendar loaded as `serve` loads its store, then saved with its large lists'
 *  statistics made (the warm-up's). */
function saved(): Chunk[] {
  if (!savedOnce) {
    const src = new Engine();
    src.bulkLoad(SET);
    const e = load(json(src.snapshotChunks()));
    const st = e.state;
    for (const l of kept(e)) l.blocks.refresh(l.rows, l.count, st.table, l.combos);
    savedOnce = json(e.snapshotChunks());
  }
  return structuredClone(savedOnce);
}

/** The category (closure and direct), tag, venue and organizer lists of LIST_STATS_MIN rows or more. */
function kept(e: Engine): PostingList[] {
  const st = e.state;
  const out: PostingList[] = [];
  for (const postings of [
    st.categoryClosure,
    st.categoryPostings,
    st.tagPostings,
    st.venuePostings,
    st.organizerPostings,
  ])
    for (const [, list] of postings.entries()) if (list.count >= LIST_STATS_MIN) out.push(list);
  return out;
}

/** The lists of `e` of LIST_STATS_MIN rows or more whose statistics are stale or differ from a
 *  fresh refresh's, anywhere. */
function differing(e: Engine, lists = kept(e)): string[] {
  const st = e.state;
  const out: string[] = [];
  for (const list of lists) {
    const b = list.blocks;
    if (b.dirty) {
      out.push(`a list of ${list.count} rows: stale`);
      continue;
    }
    const ref = new BlockStats();
    ref.refresh(list.rows, list.count, st.table, list.combos);
    const arrays = (x: BlockStats) =>
      JSON.stringify([
        x.blocks,
        [...x.bounds.subarray(0, x.blocks + 1)],
        [...x.counts.subarray(0, x.blocks * COMBOS)],
        [...x.minEnds.subarray(0, x.blocks)],
        [...x.maxEnds.subarray(0, x.blocks)],
        [...x.superCounts],
      ]);
    if (arrays(b) !== arrays(ref)) out.push(`a list of ${list.count} rows: not a fresh refresh's`);
  }
  return out;
}

/** Every list of `e` of LIST_STATS_MIN rows or more has its statistics, equal to a fresh
 *  refresh's; how many. */
function freshEverywhere(e: Engine, what: string): number {
  assert.equal(differing(e), [], what);
  return kept(e).length;
}

const QUERIES: EventQuery[] = [
  { statusMask: 1, categoryIds: [1], offset: 0, limit: 10 },
  { statusMask: EDITOR_MASK, categoryIds: [1, 3], offset: 5, limit: 10 },
  { statusMask: 1, tagIds: [10], startGte: BASE + 100 * DAY, offset: 0, limit: 10 },
  { statusMask: 1, organizerIds: [O], endLte: BASE + 200 * DAY, offset: 0, limit: 10 },
  { statusMask: 1, featured: true, tagIds: [10], offset: 0, limit: 10 },
] as EventQuery[];

function sameAnswers(a: Engine, b: Engine): void {
  for (const q of QUERIES) {
    const x = a.query(q),
      y = b.query(q);
    assert.is(x.total, y.total, JSON.stringify(q));
    assert.equal(
      x.rows.map((r) => a.eventId(r)),
      y.rows.map((r) => b.eventId(r)),
    );
  }
}

const statLines = (chunks: Chunk[]) => chunks.filter((c) => c.type === 'list-stats');
const withoutStats = (chunks: Chunk[]) => chunks.filter((c) => c.type !== 'list-stats');

Stats('a save writes the large lists’ statistics; a load reads them equal to a fresh refresh', () => {
  const chunks = saved();
  const lines = statLines(chunks);
  const loaded = load(chunks);
  // the warm-up's: the closure of 1 (it holds 2's rows too), direct 1, tag 10, organizer O; and the
  // closure and direct list of 2
  assert.is(listsToWarm(loaded.state).length, 4);
  assert.ok(listsToWarm(loaded.state).every((l) => l.count >= LIST_WARM_MIN));
  assert.is(lines.length, 6, 'a line a list of LIST_STATS_MIN rows or more');
  assert.ok(lines.some((l) => (l.rows as number) < LIST_WARM_MIN));
  assert.is(freshEverywhere(loaded, 'saved'), 6);
  // one counter moved to another combination (the sums kept): read, but not what the rows hold
  const moved = structuredClone(chunks);
  const line = moved.find((c) => c.type === 'list-stats')!;
  const b = Buffer.from(line.counts as string, 'base64');
  const counts = new Uint16Array(b.buffer, b.byteOffset, b.length / 2);
  const j = counts.findIndex((x) => x > 0);
  counts[j]--;
  counts[j % 2 === 0 ? j + 1 : j - 1]++;
  line.counts = b.toString('base64');
  assert.equal(differing(load(moved)), [`a list of ${line.rows} rows: not a fresh refresh's`], 'one counter off');
  assert.ok(
    [loaded.state.tagPostings.get(11)!, loaded.state.organizerPostings.get(O + 1)!].every(
      (l) => l.count < LIST_STATS_MIN && l.blocks.dirty,
    ),
    'a small list is left to its first query',
  );
  // answers as a load without them, whose statistics are made by the queries
  sameAnswers(loaded, load(withoutStats(chunks)));
});

for (const onWorker of [false, true]) {
  Stats(
    `an import’s streamed snapshot writes the same statistics, made from the columns${onWorker ? ' on a worker thread' : ''}`,
    async () => {
      const settings = { ...snapshotWorkerSettings };
      const before = snapshotWorkerStats.postings;
      if (onWorker) Object.assign(snapshotWorkerSettings, { minRows: 1 });
      try {
        const e = new Engine();
        e.bulkLoad(SET, undefined, { deferIndexes: true });
        const { head, body } = e.streamedSnapshot();
        const all: unknown[] = [...head];
        for await (const c of body) all.push(c);
        const streamed = json(all);
        if (onWorker) assert.is(snapshotWorkerStats.postings, before + 1, 'the lists were made on a worker');
        const fromSave = statLines(saved());
        const key = (c: Chunk) => `${c.kind} ${c.id}`;
        const byKey = (ls: Chunk[]) => Object.fromEntries(ls.map((c) => [key(c), c]));
        assert.equal(byKey(statLines(streamed)), byKey(fromSave), 'line for line');
        const loaded = load(streamed);
        assert.is(freshEverywhere(loaded, 'streamed'), 6);
        sameAnswers(loaded, load(withoutStats(streamed)));
      } finally {
        Object.assign(snapshotWorkerSettings, settings);
      }
    },
  );
}

Stats('a snapshot without them loads as before: the warm-up makes them', async () => {
  const chunks = withoutStats(saved());
  const e = load(chunks);
  const big = listsToWarm(e.state);
  assert.ok(big.length === 4 && big.every((l) => l.blocks.dirty));
  e.warmInBackground();
  for (let ticks = 0; big.some((l) => l.blocks.dirty); ticks++) {
    if (ticks > 10_000) assert.unreachable('the warm-up never ended');
    await new Promise((r) => setTimeout(r, 1));
  }
  assert.equal(differing(e, big), [], 'warmed');
  // without the closure's posting lines, its lists are made when first needed, with their statistics
  const noClosure = saved().filter((c) => !/^posting/.test(c.type) || c.kind !== 'closure');
  assert.ok(statLines(noClosure).some((c) => c.kind === 'closure'));
  const x = load(noClosure);
  assert.ok(x.state.closureDirty);
  sameAnswers(x, e);
});

Stats('damaged list statistics lines are refused with a clear error', () => {
  const chunks = saved();
  const at = chunks.findIndex((c) => c.type === 'list-stats' && c.kind === 'tag');
  const damage = (change: (c: Chunk, copy: Chunk[]) => void, message: RegExp) => {
    const copy = structuredClone(chunks);
    change(copy[at], copy);
    assert.throws(() => load(copy), message);
  };
  const edit =
    (name: string, Make: typeof Uint16Array | typeof Int32Array | typeof Float64Array, f: (a: never) => void) =>
    (c: Chunk) => {
      const b = Buffer.from(c[name] as string, 'base64');
      const a = new Make(b.buffer, b.byteOffset, b.length / Make.BYTES_PER_ELEMENT);
      f(a as never);
      c[name] = b.toString('base64');
    };
  // one counter one more: its block's counters no longer sum to its rows
  damage(
    edit('counts', Uint16Array, (a: Uint16Array) => {
      a[3]++;
    }),
    /snapshot load: expected block counters summing to its 256 rows in the tag list statistics of 10, got 257/,
  );
  damage(
    edit('bounds', Int32Array, (a: Int32Array) => {
      a[a.length - 1]--;
    }),
    /snapshot load: expected block bounds from 0 to \d+ in the tag list statistics of 10/,
  );
  damage(
    edit('bounds', Int32Array, (a: Int32Array) => {
      a[2] = a[1] + 600;
    }),
    /snapshot load: expected blocks of 0 to 512 rows/,
  );
  damage(
    edit('minEnds', Float64Array, (a: Float64Array) => {
      a[0] = 1e300;
    }),
    /snapshot load: expected end bounds lo <= hi/,
  );
  damage((c) => {
    c.counts = (c.counts as string).slice(0, 8);
  }, /snapshot load: expected \d+ values \(\d+ bytes\) of the tag list statistics of 10\.counts/);
  damage((c) => {
    c.combos = Buffer.from([200]).toString('base64');
  }, /snapshot load: expected/);
  damage((c) => {
    c.kind = 'parent';
  }, /snapshot load: expected the statistics of a list of one of/);
  damage((c) => {
    c.id = 11;
  }, /snapshot load: expected a tag list of 11 of \d+ rows for its statistics, got \d+/);
  damage((c) => {
    c.rows = (c.rows as number) + 1;
  }, /snapshot load: expected block bounds from 0 to/);
  damage((c, copy) => {
    copy.push(structuredClone(c));
  }, /snapshot load: expected one line of the tag list statistics of 10, got another/);
});

Stats.run();
