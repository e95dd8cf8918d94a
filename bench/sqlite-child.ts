// Child of the large path of `npm run bench` (bench/run-large.ts): the SQLite baseline on a
// database file, in a process of its own so that its RSS is SQLite's and node's alone.
//
//   node --import tsx bench/sqlite-child.ts build FILE DB
//       makes DB from the import file FILE (buildSqliteFile); prints {"events", "ms", "maxRss", "bytes"}
//   node --import tsx bench/sqlite-child.ts time DB < {"queries": [...], "timing": {...}}
//       opens DB, answers every query once (the cross-check), times the JSON pages (list) and the
//       object mode (listObjects) of each; prints one JSON line, a SqliteReport

import fs from 'node:fs';
import { buildSqliteFile, loadSqlite, SqliteBaseline } from './baselines/sqlite.ts';
import type { ListResult } from './baselines/semantics.ts';
import { SITE, type BenchQuery } from './queries.ts';
import { sink, summarize, timeCase, type Timing, type TimingOptions } from './stats.ts';

export interface SqliteBuildReport {
  events: number;
  ms: number;
  /** peak resident set of the building process, bytes */
  maxRss: number;
  /** the database file's size, bytes */
  bytes: number;
}

export interface SqliteReport {
  /** opening the file and making the linked objects, ms */
  openMs: number;
  answers: Omit<ListResult, 'body'>[];
  /** the cross-check's call of each query (the first after the open), ms */
  answerMs: number[];
  timings: { name: string; list: Timing; objects: Timing }[];
  /** resident set after the open, after the cross-check's answers, after the timings; the peak */
  rss: { open: number; answered: number; timed: number; max: number };
  sink: number;
}

const [mode, a, b] = process.argv.slice(2);
const Ctor = await loadSqlite();
if (typeof Ctor === 'string') {
  console.error(`better-sqlite3 could not load: ${Ctor}`);
  process.exit(1);
}
const maxRss = () => process.resourceUsage().maxRSS * 1024;
if (mode === 'build' && a && b) {
  const t0 = performance.now();
  const { events } = await buildSqliteFile(Ctor, a, b, SITE);
  const report: SqliteBuildReport = {
    events,
    ms: performance.now() - t0,
    maxRss: maxRss(),
    bytes: fs.statSync(b).size,
  };
  process.stdout.write(JSON.stringify(report) + '\n');
} else if (mode === 'time' && a) {
  const input = JSON.parse(fs.readFileSync(0, 'utf8')) as {
    queries: BenchQuery[];
    timing: TimingOptions;
    /** the connection's page cache, MiB (default SQLite's: 2 MiB) */
    cacheMb?: number;
  };
  let t0 = performance.now();
  const db = new SqliteBaseline(Ctor, { file: a }, SITE);
  if (input.cacheMb !== undefined) db.setCacheMb(input.cacheMb);
  const openMs = performance.now() - t0;
  const rssOpen = process.memoryUsage().rss;
  const answerMs: number[] = [];
  const answers = input.queries.map((q) => {
    t0 = performance.now();
    const { body, ...rest } = db.list(q.params, q.actor);
    answerMs.push(performance.now() - t0);
    sink.value = (sink.value + body.length) | 0;
    return rest;
  });
  const rssAnswered = process.memoryUsage().rss;
  const timings: SqliteReport['timings'] = [];
  for (const [i, q] of input.queries.entries()) {
    if (process.stderr.isTTY) process.stderr.write(`sqlite: timing ${q.name}...\r`);
    // with timing.capMs, a slow case's cross-check call above stands for its warm-up, and the
    // list's median for the object mode's (the same statements, the same pages of the file); the
    // object mode of a query whose list takes more than half the cap a call is not timed (no
    // samples: its cells print '-'): it would repeat the same scan of the file for its count
    const list = await timeCase(() => db.list(q.params, q.actor), input.timing, answerMs[i]);
    const cap = input.timing.capMs;
    const objects =
      cap !== undefined && list.median > cap / 2
        ? summarize([])
        : await timeCase(() => db.listObjects(q.params, q.actor), input.timing, list.median);
    timings.push({ name: q.name, list, objects });
  }
  const report: SqliteReport = {
    openMs,
    answers,
    answerMs,
    timings,
    rss: { open: rssOpen, answered: rssAnswered, timed: process.memoryUsage().rss, max: maxRss() },
    sink: sink.value,
  };
  db.close();
  process.stdout.write(JSON.stringify(report) + '\n');
} else {
  console.error('usage: bench/sqlite-child.ts build FILE DB | time DB < {"queries", "timing"}');
  process.exit(2);
}
