// Child of bench/run.ts: the engine's side of the benchmark, in a fresh process. It loads the
// engine's snapshot from DIR (a store snapshot: manifest and parts, as src/store/snapshot.ts
// writes them) into a fresh calendar as start-up does (read + sha256 + JSON.parse +
// loadSnapshotChunks), answers every query of the mix once for the cross-check, then times each
// query against the engine and against the floor (JSON.stringify of the page it answered).
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
import { openCalendar } from '../src/index.ts';
import { readManifest, readSnapshotChunks } from '../src/store/snapshot.ts';
import { FloorBaseline } from './baselines/floor.ts';
import { NOW, type BenchQuery } from './queries.ts';
import { heapUsedAfterGc, sink, timeCase, type Timing, type TimingOptions } from './stats.ts';

export interface EngineAnswer {
  name: string;
  status: number;
  total: number;
  ids: number[];
  body: string;
}

export interface EngineReport {
  /** read + sha256 + parse + loadSnapshotChunks, ms */
  loadMs: number;
  /** the first search after the load, which finishes the search index, ms */
  searchMs: number;
  /** heapUsed delta after gc from before the load to after the first search, per event */
  bytesPerEvent: number;
  answers: EngineAnswer[];
  /** per query, in the order given: the engine's and the floor's timing */
  timings: { name: string; engine: Timing; floor: Timing }[];
  sink: number;
}

const dir = process.argv[2];
const manifest = dir ? await readManifest(dir) : undefined;
if (!manifest) {
  console.error('usage: node --expose-gc --import tsx bench/engine-child.ts DIR (a folder holding snapshot.json) < queries and timing as JSON');
  process.exit(2);
}
const input = JSON.parse(fs.readFileSync(0, 'utf8')) as { queries: BenchQuery[]; timing: TimingOptions; perPage: number };

const cal = await openCalendar({ timezone: 'UTC', perPage: input.perPage, now: () => NOW });
const h0 = heapUsedAfterGc();
let t = performance.now();
cal.engine.loadSnapshotChunks(readSnapshotChunks(dir, manifest));
const loadMs = performance.now() - t;
t = performance.now();
await cal.rest({ resource: 'events', action: 'list', params: { search: 'pottery' }, actor: null });
const searchMs = performance.now() - t;
const bytesPerEvent = (heapUsedAfterGc() - h0) / cal.engine.eventRowCount;

type Actor = Parameters<typeof cal.rest>[0]['actor'];
const call = (q: BenchQuery) => cal.rest({ resource: 'events', action: 'list', params: q.params, actor: q.actor as Actor });
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
    name: q.name, status: a.status, body: a.body,
    total: a.status === 200 ? parsed.total ?? 0 : 0, ids: a.status === 200 ? (parsed.events ?? []).map((e) => e.id) : [],
  });
  floor.set(q.name, parsed);
}

const timings: EngineReport['timings'] = [];
for (const [i, q] of input.queries.entries()) {
  // an error answer is timed through the catch that turns it into a status
  const engine = await timeCase(answers[i].status === 200 ? () => call(q) : () => answer(q), input.timing);
  const f = await timeCase(() => floor.list(q.name), input.timing);
  timings.push({ name: q.name, engine, floor: f });
}
await cal.close();
const report: EngineReport = { loadMs, searchMs, bytesPerEvent, answers, timings, sink: sink.value };
process.stdout.write(JSON.stringify(report) + '\n');
