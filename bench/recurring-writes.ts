// node --expose-gc --import tsx bench/recurring-writes.ts [--events N] [--writes W] [--cache DIR]
// Writes on a recurring calendar (bench/recurring.ts over bench/generate.ts) in a store: p50/p99
// of series creates (weekly and daily, unbounded: their occurrences to the horizon), exception
// edits, exclusions (an occurrence deleted) and whole-series title edits; the store's start-up
// afterwards (open: snapshot load + journal replay; then a first answer); lists a century out
// (far occurrences of every series: a year, page 40 of it, a week, and starts_after alone).
// --cache DIR keeps the store as imported (and snapshotted) in DIR and copies it from there next
// time, instead of generating and importing the calendar again (import time is then not measured).

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import { openCalendar, type Calendar } from '../src/calendar.ts';
import { generateCalendar, type ImportData } from './generate.ts';
import { addSeries } from './recurring.ts';
import { NOW } from './queries.ts';

const { values: opt } = parseArgs({
  options: {
    events: { type: 'string', default: '10000' },
    writes: { type: 'string', default: '200' },
    cache: { type: 'string' },
  },
});
const N = Number(opt.events),
  W = Number(opt.writes);
if (!Number.isInteger(N) || N <= 0 || !Number.isInteger(W) || W <= 0)
  throw new Error('--events and --writes expect positive integers');
// the generated records and the calendar side by side need more than V8's default heap at the
// full size (about 17 rows an event): re-run this same command with a larger one
const wantHeapMb = Math.max(4096, Math.ceil(2048 + N * 0.12));
if (v8.getHeapStatistics().heap_size_limit < wantHeapMb * 2 ** 20 && !process.env.BENCH_HEAP_REEXEC) {
  const r = spawnSync(
    process.execPath,
    [...process.execArgv, `--max-old-space-size=${wantHeapMb}`, ...process.argv.slice(1)],
    { stdio: 'inherit', env: { ...process.env, BENCH_HEAP_REEXEC: '1' } },
  );
  process.exit(r.status ?? 1);
}
const log = (s: string) => process.stdout.write(s + '\n');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-recur-bench-'));
const open = () => openCalendar({ dir, timezone: 'UTC', now: () => NOW });
const mib = (x: number) => `${(x / 2 ** 20).toFixed(0)} MiB`;

const cached = opt.cache ? path.join(opt.cache, `recurring-store-${N}`) : undefined;
let cal: Calendar;
if (cached && fs.existsSync(path.join(cached, 'complete'))) {
  fs.cpSync(cached, dir, { recursive: true });
  fs.rmSync(path.join(dir, 'complete'));
  cal = await open();
  log(`recurring calendar: ${N} events, the store from ${cached} (${cal.engine.eventRowCount} rows)`);
} else {
  let data: ImportData | undefined = generateCalendar({ events: N, seed: 1, now: NOW });
  const r = addSeries(data, { seed: 1, now: NOW });
  const rowCount = data.events.length;
  cal = await open();
  const t = performance.now();
  await cal.import(data);
  data = undefined; // the records (gigabytes at the full size) are the calendar's now
  log(
    `recurring calendar: ${N} events, ${r.series} series, ${r.occurrences} occurrence rows (${rowCount} rows, ` +
      `${r.inWindow} occurrences in the two years from now); imported into the store in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
  if (cached) {
    await cal.snapshot();
    await cal.close();
    fs.rmSync(cached, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(cached), { recursive: true });
    fs.cpSync(dir, `${cached}.tmp`, { recursive: true });
    fs.writeFileSync(path.join(`${cached}.tmp`, 'complete'), '');
    fs.renameSync(`${cached}.tmp`, cached);
    cal = await open();
  }
}
log(`${W} writes of each kind (a quarter as many daily series and writes after a snapshot)`);

/** Finish what the engine builds in the background (the search index after a load, or after
 *  enough writes dropped it: a rebuild over every row, in slices between requests), so that a
 *  phase's writes are timed without it; prints what that took when it was anything. */
async function settle(): Promise<void> {
  const t = performance.now();
  await cal.rest({ resource: 'events', action: 'list', params: { search: 'pottery' }, actor: null });
  cal.engine.eventRowBySlug('a-slug-to-build-the-slug-lookup');
  const ms = performance.now() - t;
  if (ms >= 50) log(`  (background builds finished first: ${ms.toFixed(0)} ms)`);
}

async function timed(name: string, n: number, fn: (i: number) => Promise<unknown>, first = false): Promise<void> {
  if (!first) await settle();
  const ms: number[] = [],
    cpu: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now(),
      c = process.cpuUsage();
    await fn(i);
    ms.push(performance.now() - t);
    const d = process.cpuUsage(c);
    cpu.push((d.user + d.system) / 1000);
  }
  const q = (a: number[], p: number) =>
    a.sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor(p * a.length))].toFixed(2);
  // CPU time (the process's, every thread: collections too) says what a loaded machine's wall
  // clock does not
  log(
    `  ${name.padEnd(44)} p50 ${q(ms, 0.5).padStart(8)} ms   p99 ${q(ms, 0.99).padStart(8)} ms   ` +
      `(cpu p50 ${q(cpu, 0.5)} ms, p99 ${q(cpu, 0.99)} ms; ${n} writes)`,
  );
}

const day = (i: number) => `2025-${String(7 + (i % 5)).padStart(2, '0')}-${String(1 + (i % 27)).padStart(2, '0')}`;
const weekly: number[] = [];
const createWeekly = async (i: number) => {
  const s = await cal.events.create({
    title: `Class ${i}`,
    start_date: `${day(i)} 18:00:00`,
    end_date: `${day(i)} 19:00:00`,
    recurrence: 'RRULE:FREQ=WEEKLY',
    status: 'publish',
  });
  weekly.push(s.id as number);
};
// the first write right after the open (what the background builds of a load have not done yet,
// it finishes), then the rest once they are done, as on a server that has been up a while
await timed('the first weekly series after the open', 1, createWeekly, true);
await timed('create a weekly series (~104 occurrences)', W, (i) => createWeekly(i + 1));
await timed('create a daily series (~730 occurrences)', Math.max(1, W / 4), (i) =>
  cal.events.create({
    title: `Daily ${i}`,
    start_date: `${day(i)} 08:00:00`,
    end_date: `${day(i)} 08:15:00`,
    recurrence: 'RRULE:FREQ=DAILY',
    status: 'publish',
  }),
);
const kids = await Promise.all(
  weekly.map(async (id) => (await cal.events.list({ post_parent: id, start_date: '2025-01-01', per_page: 3 })).items),
);
await timed('edit one occurrence (an exception)', W, (i) =>
  cal.events.update(kids[i][0].id as number, { title: `Guest ${i}` }),
);
await timed('delete one occurrence (an exclusion)', W, (i) => cal.events.delete(kids[i][1].id as number));
await timed('edit a whole weekly series (title)', W, (i) =>
  cal.events.update(weekly[i], { title: `Class ${i} (new)` }),
);
await cal.snapshot();
await timed('edit a whole weekly series after a snapshot', Math.max(1, W / 4), (i) =>
  cal.events.update(weekly[i], { title: `Class ${i} (again)` }),
);
const rows = cal.engine.eventRowCount;
await cal.close();
const journal = fs
  .readdirSync(dir)
  .filter((f) => f.startsWith('journal'))
  .reduce((n, f) => n + fs.statSync(path.join(dir, f)).size, 0);
let t = performance.now();
cal = await open();
const openMs = performance.now() - t;
t = performance.now();
const first = await cal.rest({ resource: 'events', action: 'list', params: {}, actor: null });
const firstMs = performance.now() - t;
log(
  `  start-up of the store, ${rows} rows (snapshot + ${mib(journal)} of journal): open ${openMs.toFixed(0)} ms, ` +
    `then the first answer (GET /events, ${first.body.length} bytes) ${firstMs.toFixed(0)} ms: ${(openMs + firstMs).toFixed(0)} ms`,
);
/** a list's total and time (ms), timed after one untimed call (the far index built) */
async function list(params: Record<string, string>): Promise<{ total: number; first: number; ms: number }> {
  let t = performance.now();
  const first = await cal.rest({ resource: 'events', action: 'list', params, actor: null });
  const firstMs = performance.now() - t;
  const ms: number[] = [];
  for (let i = 0; i < 5; i++) {
    t = performance.now();
    await cal.rest({ resource: 'events', action: 'list', params, actor: null });
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { total: (JSON.parse(first.body) as { total?: number }).total ?? 0, first: firstMs, ms: ms[2] };
}
const century: Array<[string, Record<string, string>]> = [
  ['a year a century out, page 1', { start_date: '2125-01-01', end_date: '2125-12-31' }],
  [
    'a year a century out, page 40 of 50',
    { start_date: '2125-01-01', end_date: '2125-12-31', per_page: '50', page: '40' },
  ],
  ['a week a century out', { start_date: '2125-03-01', end_date: '2125-03-07' }],
  ['starts_after a century out (open-ended)', { starts_after: '2125-01-01' }],
];
for (const [name, params] of century) {
  const r = await list(params);
  log(
    `  ${name} (${new URLSearchParams(params).toString()}): total ${r.total}; first call ${r.first.toFixed(0)} ms, then median of 5 ${r.ms.toFixed(1)} ms`,
  );
}
await cal.close();
fs.rmSync(dir, { recursive: true, force: true });
