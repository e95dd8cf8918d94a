// Child of bench/run.ts: the engine's side of the benchmark, in a fresh process. It loads the
// engine's snapshot from DIR (a store snapshot: manifest and parts, as src/store/snapshot.ts
// writes them) into a fresh calendar as start-up does (read + sha256 + JSON.parse +
// loadSnapshotChunks), answers every query of the mix once for the cross-check, then times each
// query against the engine and against the floor (JSON.stringify of the page it answered), then
// the object mode (cal.events.list: fresh objects) and the cold JSON page (none of the page's
// events rendered yet). Memory is taken three times: cold (after the load), warm (after every
// event was read once, as JSON text and as objects) and after a write load.
//
// A process of its own, as `calendar-engine serve` runs: the benchmark process also holds the
// generated records and the arrays baseline (about 2 GB of objects at a million events), and
// every garbage collection of a heap walks all of it, which would bill the engine for the
// baselines' memory. SQLite keeps its data outside the JavaScript heap and is timed in the
// benchmark process.
//
//   node --expose-gc --import tsx bench/engine-child.ts DIR < {"queries": [...], "timing": {...}}
//
// Prints one JSON line, an EngineReport.

import fs from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import { openCalendar } from '../src/index.ts';
import { readManifest } from '../src/store/snapshot.ts';
import { readSnapshotChunks } from '../src/store/snapshot-read.ts';
import { FloorBaseline } from './baselines/floor.ts';
import { NOW, type BenchQuery } from './queries.ts';
import { spreadPages } from './report.ts';
import {
  heapUsedAfterGc,
  memoryAfterGc,
  sink,
  timeCase,
  timeInterleaved,
  type Timing,
  type TimingOptions,
} from './stats.ts';

export interface EngineAnswer {
  name: string;
  status: number;
  total: number;
  ids: number[];
  body: string;
}

export interface MemoryState {
  /** heap used + array buffers after a full collection, bytes */
  bytes: number;
  /** resident set size, bytes */
  rss: number;
  /** the representation cache's own count of its bytes */
  cacheBytes: number;
}

export interface EngineReport {
  /** read + sha256 + parse + loadSnapshotChunks, ms */
  loadMs: number;
  /** the first search after the load, which finishes the search index, ms */
  searchMs: number;
  /** from the end of the first search to the end of the timings (the settling, the object mode's
   *  check and every timed case), ms */
  mixMs: number;
  /** heapUsed delta after gc from before the load to after the first search, per event */
  bytesPerEvent: number;
  answers: EngineAnswer[];
  /** per query, in the order given: the engine's and the floor's timing, the object mode, and,
   *  timed in turn in batches (timeInterleaved), the warm JSON page again, a cold one (the page's
   *  events changed, as by a write, before each call: rendered as if never seen) and an evicted
   *  one (the page's events pushed out of the cache before each call: what they need of filters
   *  and escaping is still known, as after an eviction) */
  timings: {
    name: string;
    engine: Timing;
    floor: Timing;
    objects: Timing;
    warm: Timing;
    cold: Timing;
    evicted: Timing;
  }[];
  /** number of event rows, the cache budget, and memory cold / warm / after writes */
  rows: number;
  cacheBudget: number;
  memory: {
    cold: MemoryState;
    warm: MemoryState;
    afterWrites: MemoryState;
    writes: number;
    readMs: number;
    writeMs: number;
    /** the warm pass: pages of 50 read (JSON and objects), of totalPages, and the events on them */
    warmPages: number;
    totalPages: number;
    warmEvents: number;
  };
  /** the collector's pauses while the mix was timed (perf_hooks 'gc' entries): count, longest, sum, ms */
  gc: { count: number; maxMs: number; totalMs: number };
  /** queries whose object page is not the JSON page parsed (should be none) */
  objectMismatches: string[];
  sink: number;
}

const dir = process.argv[2];
const manifest = dir ? await readManifest(dir) : undefined;
if (!manifest) {
  console.error(
    'usage: node --expose-gc --import tsx bench/engine-child.ts DIR (a folder holding snapshot.json) < queries and timing as JSON',
  );
  process.exit(2);
}
const input = JSON.parse(fs.readFileSync(0, 'utf8')) as {
  queries: BenchQuery[];
  timing: TimingOptions;
  perPage: number;
  cacheBytes?: number;
  writes?: number;
  /** the warm pass's last day (default 9999-12-31; with series, their horizon: bench/run.ts) */
  warmTo?: string;
  /** the warm pass reads at most this many pages of 50, spread over the whole list (default: all) */
  warmPages?: number;
};

const cal = await openCalendar({
  timezone: 'UTC',
  perPage: input.perPage,
  now: () => NOW,
  ...(input.cacheBytes !== undefined ? { cacheBytes: input.cacheBytes } : {}),
});
const h0 = heapUsedAfterGc();
let t = performance.now();
cal.engine.loadSnapshotChunks(readSnapshotChunks(dir, manifest));
const loadMs = performance.now() - t;
t = performance.now();
await cal.rest({ resource: 'events', action: 'list', params: { search: 'pottery' }, actor: null });
const searchMs = performance.now() - t;
const bytesPerEvent = (heapUsedAfterGc() - h0) / cal.engine.eventRowCount;

type Actor = Parameters<typeof cal.rest>[0]['actor'];
const call = (q: BenchQuery) =>
  cal.rest({ resource: 'events', action: 'list', params: q.params, actor: q.actor as Actor });
const floor = new FloorBaseline();
const answers: EngineAnswer[] = [];
/** an answer or, for an error (which rest() rejects with), its status and message */
async function answer(q: BenchQuery): Promise<{ status: number; body: string }> {
  try {
    return await call(q);
  } catch (e) {
    const err = e as { status?: number; code?: string; message?: string };
    return { status: err.status ?? 500, body: JSON.stringify({ code: err.code, message: err.message }) };
  }
}
for (const q of input.queries) {
  const a = await answer(q);
  const parsed = JSON.parse(a.body) as { events?: { id: number }[]; total?: number };
  answers.push({
    name: q.name,
    status: a.status,
    body: a.body,
    total: a.status === 200 ? (parsed.total ?? 0) : 0,
    ids: a.status === 200 ? (parsed.events ?? []).map((e) => e.id) : [],
  });
  floor.set(q.name, parsed);
}

// what the answers started in the background (the venue groups of a radius query) is done, as it
// is between requests in a server a few seconds after its first radius query
await cal.engine.settled();
const state = (): MemoryState => ({ ...memoryAfterGc(), cacheBytes: cal.render.stats().bytes });
const cold = state();

type As = Parameters<typeof cal.events.list>[1];
const asOf = (q: BenchQuery): As => (q.actor ? { role: q.actor.role as 'editor', id: q.actor.id } : null);
/** the object mode, an error answer turned into its status as for the JSON mode */
async function objects(q: BenchQuery): Promise<unknown> {
  try {
    return await cal.events.list(q.params, asOf(q));
  } catch (e) {
    return (e as { status?: number }).status;
  }
}
// The forced collections that measure memory (cold, above) leave V8 to start its next major
// collection soon after, and its marking steps fell into the first query's timings (the first
// query's object p99 was 5.8x and 6.3x its median in two runs at 100,000 events, others mostly
// under 4x). A second of the whole mix, untimed, plus a second per 250,000 events (the marking
// grows with the heap: 5.9x with one second at 1,000,000 events), lets that pass before anything
// is timed, as a server that has been answering for a while would be.
const mixStart = performance.now();
const settleUntil = performance.now() + 1000 + cal.engine.eventRowCount / 250;
while (performance.now() < settleUntil)
  for (const q of input.queries) {
    await answer(q);
    await objects(q);
  }

// the object mode answers the same pages: same ids, and equal to the parsed JSON text
const objectMismatches: string[] = [];
for (const [i, q] of input.queries.entries()) {
  const o = await objects(q);
  const a = answers[i];
  if (typeof o === 'number' || a.status !== 200) {
    if ((typeof o === 'number' ? o : 200) !== a.status)
      objectMismatches.push(`${q.name}: status ${String(o)} vs ${a.status}`);
    continue;
  }
  const page = o as { items: unknown[] };
  if (JSON.stringify(page.items) !== JSON.stringify(JSON.parse(a.body).events))
    objectMismatches.push(`${q.name}: objects differ from the JSON text`);
}

// the collector's pauses while the mix is timed (its warm, object, cold and evicted pages)
const gc = { count: 0, maxMs: 0, totalMs: 0 };
const countGc = (entries: readonly { duration: number }[]): void => {
  for (const e of entries) {
    gc.count++;
    gc.maxMs = Math.max(gc.maxMs, e.duration);
    gc.totalMs += e.duration;
  }
};
const gcObserver = new PerformanceObserver((list) => countGc(list.getEntries()));
gcObserver.observe({ entryTypes: ['gc'] });
const timings: EngineReport['timings'] = [];
const warmTimings: Array<{ engine: Timing; floor: Timing; objects: Timing }> = [];
for (const [i, q] of input.queries.entries()) {
  // an error answer is timed through the catch that turns it into a status
  const engine = await timeCase(answers[i].status === 200 ? () => call(q) : () => answer(q), input.timing);
  const f = await timeCase(() => floor.list(q.name), input.timing);
  const o = await timeCase(() => objects(q), input.timing);
  warmTimings.push({ engine, floor: f, objects: o });
}
// then the cold pages, after every warm figure: rendering them again and again fills the old
// generation with pieces that die there, and the major collections that follow fell into the
// warm timings of the queries after them (object p99 up to 20x its median in one run)
for (const [i, q] of input.queries.entries()) {
  // cold: the page's events leave the cache before each call (12 removals, timed with the call)
  const rows = answers[i].ids.map((id) => cal.engine.eventRow(id));
  const forget = (): void => {
    for (const r of rows) cal.render.eventChanged(r);
  };
  // evicted: the pieces leave the cache as the least recently used do (12 removals, timed too)
  const evict = (): void => {
    for (const r of rows) cal.render.cache.dropRow(r);
  };
  // warm, cold and evicted timed in turn, in batches, so that their ratios share the machine's moods
  const [warm, c, ev] = await timeInterleaved(
    [
      () => answer(q),
      () => {
        forget();
        return answer(q);
      },
      () => {
        evict();
        return answer(q);
      },
    ],
    input.timing,
  );
  timings.push({ name: q.name, ...warmTimings[i], warm, cold: c, evicted: ev });
}

// the entries of the last collections come in a later tick
await new Promise((r) => setTimeout(r, 0));
countGc(gcObserver.takeRecords());
gcObserver.disconnect();
const mixMs = performance.now() - mixStart;

// warm: every event read once (or, with warmPages, that many pages spread over the whole list:
// spreadPages), as a page of JSON text and as a page of objects (50 a page, every status, the
// whole date range, as an editor), then a write load of updates and creates
let t0 = performance.now();
const editor = { role: 'editor' as const, id: 0 };
const everything = {
  per_page: 50,
  start_date: '1000-01-01',
  end_date: input.warmTo ?? '9999-12-31',
  status: 'publish,future,draft,pending,private',
};
const readPage = async (page: number): Promise<number> => {
  const res = await cal.rest({
    resource: 'events',
    action: 'list',
    params: { ...everything, page },
    actor: { id: 0, login: 'editor', role: 'editor' },
  });
  sink.value = (sink.value + res.body.length) | 0;
  const objs = await cal.events.list({ ...everything, page }, editor);
  warmEvents += objs.items.length;
  return objs.totalPages;
};
let warmEvents = 0;
const totalPages = await readPage(1);
const pages = spreadPages(totalPages, input.warmPages ?? Infinity);
for (const page of pages.slice(1)) await readPage(page);
const readMs = performance.now() - t0;
const warm = state();
const writes = input.writes ?? 10_000;
t0 = performance.now();
const total = cal.engine.eventRowCount;
for (let i = 0; i < writes; i++) {
  if (i % 10 === 9) {
    await cal.events.create({
      title: `Bench write ${i}`,
      start_date: '2025-07-01 10:00:00',
      end_date: '2025-07-01 12:00:00',
      categories: [],
    });
  } else {
    const id = cal.engine.eventId(Math.floor((i * 7919) % total));
    await cal.events.update(id, { title: `Updated ${i}` });
  }
  if (i % 500 === 0) await call(input.queries[0]); // reads between the writes, as a live calendar has
}
const writeMs = performance.now() - t0;
// a search, so the state measured holds the search index as the cold one does: past its bound of
// writes (max(4,096, rows / 32)) the index is dropped and waits for the next search to be rebuilt,
// and without this the figure at 100,000 events would leave it out while the one at 1,000,000 holds it
await cal.rest({ resource: 'events', action: 'list', params: { search: 'pottery' }, actor: null });
const afterWrites = state();
await cal.close();
const report: EngineReport = {
  loadMs,
  searchMs,
  mixMs,
  bytesPerEvent,
  answers,
  timings,
  rows: total,
  cacheBudget: cal.render.stats().budget,
  memory: {
    cold,
    warm,
    afterWrites,
    writes,
    readMs,
    writeMs,
    warmPages: Math.max(pages.length, 1),
    totalPages,
    warmEvents,
  },
  gc,
  objectMismatches,
  sink: sink.value,
};
process.stdout.write(JSON.stringify(report) + '\n');
