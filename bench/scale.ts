// A calendar at scale as an operator runs it, with no Node flags: `calendar-engine import` of the
// generated file (bench/import-file.ts) into an empty store, then `calendar-engine serve` on it,
// timed from spawn to its listening line and to its first answered list; the bench's query mix
// over HTTP (keep-alive, one connection) while the server is still busy after start-up, and
// again settled; the process tree's RSS (a large store runs `serve` as a child with a sized heap:
// docs/operating.md#memory) after start, after a search and after the mix; the longest GC pause
// from `--trace-gc` (NODE_OPTIONS, which the sized child keeps).
//
//   node --import tsx bench/scale.ts --events N [--dir DIR] [--rounds R] [--keep] [--reuse]
//                                    [--node-flags="--cpu-prof ..."] [--bin FILE]
//
// The import file is made once per N under DIR (default /tmp/calendar-engine-scale); the store is
// made anew each run and removed at the end unless --keep (--reuse: a kept store is served as it
// is, without the import). Prints one JSON line of figures.

import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { streamCalendar, type ImportEvent } from './generate.ts';
import { importFile } from './import-file.ts';
import { NOW, buildQueries } from './queries.ts';
import { quantileOf } from './stats.ts';
import { DIST_MAIN, ensureDist } from '../test/helpers/dist.ts';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '1000000' },
    dir: { type: 'string', default: '/tmp/calendar-engine-scale' },
    rounds: { type: 'string', default: '20' },
    keep: { type: 'boolean', default: false },
    reuse: { type: 'boolean', default: false },
    'node-flags': { type: 'string', default: '' },
    bin: { type: 'string' },
  },
});
/** the program: the package's bin, or --bin FILE (another checkout's dist/cli/main.js, to compare) */
const MAIN = args.bin ? path.resolve(args.bin) : DIST_MAIN;
/** more flags for the server's node (e.g. --cpu-prof), after --trace-gc */
const NODE_FLAGS = args['node-flags'].split(/\s+/).filter(Boolean);
const EVENTS = Number(args.events);
const ROUNDS = Number(args.rounds);
if (!args.bin) ensureDist();
fs.mkdirSync(args.dir, { recursive: true });
const log = (m: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${m}\n`);

const { file } = importFile(EVENTS, 1, args.dir);
const fileBytes = fs.statSync(file).size;
log(`import file ${file} (${(fileBytes / 2 ** 30).toFixed(2)} GiB)`);

/** The query mix of `npm run bench`, made from the first 20,000 generated events (anonymous ones only). */
function queries(): { name: string; path: string }[] {
  const first: ImportEvent[] = [];
  let lists: Parameters<NonNullable<Parameters<typeof streamCalendar>[2]>>[0] | undefined;
  try {
    streamCalendar(
      { events: EVENTS, seed: 1, now: NOW },
      (ev) => {
        first.push(ev);
        if (first.length === 20_000) throw new Error('enough');
      },
      (l) => {
        lists = l;
      },
    );
  } catch (err) {
    if ((err as Error).message !== 'enough') throw err;
  }
  if (!lists) throw new Error('no lists');
  return buildQueries({ ...lists, events: first }, 1)
    .filter((q) => q.actor === null)
    .map((q) => ({ name: q.name, path: `/wp-json/tribe/events/v1/events?${new URLSearchParams(q.params)}` }));
}
const MIX = queries();

/** RSS of a process and its descendants, bytes (from /proc). */
function treeRss(pid: number): number {
  let rss = 0;
  const status = (p: number) => {
    try {
      return fs.readFileSync(`/proc/${p}/status`, 'utf8');
    } catch {
      return '';
    }
  };
  const m = /^VmRSS:\s+(\d+) kB/m.exec(status(pid));
  if (m) rss += Number(m[1]) * 1024;
  let children = '';
  try {
    children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8');
  } catch {}
  for (const c of children.trim().split(/\s+/).filter(Boolean)) rss += treeRss(Number(c));
  return rss;
}

/** The pids below `pid` (from /proc). */
function descendants(pid: number): number[] {
  let children = '';
  try {
    children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8');
  } catch {}
  return children
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .flatMap((c) => [...descendants(Number(c)), Number(c)]);
}

/** Peak of treeRss while `child` runs, sampled every 250 ms. */
function watchPeak(child: ChildProcess): { peak: () => number; stop: () => void } {
  let peak = 0;
  const t = setInterval(() => {
    if (child.pid) peak = Math.max(peak, treeRss(child.pid));
  }, 250);
  return { peak: () => peak, stop: () => clearInterval(t) };
}

const store = path.join(args.dir, `store-${EVENTS}`);
const reuse = args.reuse && fs.existsSync(path.join(store, 'snapshot.json'));
const env = { ...process.env };
delete env.NODE_OPTIONS;
let t0 = performance.now();
let importS = Number.NaN;
let importPeak = Number.NaN;
if (!reuse) {
  fs.rmSync(store, { recursive: true, force: true });
  // ---- import ----------------------------------------------------------------------------
  const imp = spawn(process.execPath, [MAIN, 'import', file, '--data', store], {
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const impWatch = watchPeak(imp);
  const impCode = await new Promise<number | null>((r) => imp.on('exit', (c) => r(c)));
  impWatch.stop();
  importS = (performance.now() - t0) / 1000;
  importPeak = impWatch.peak();
  if (impCode !== 0) throw new Error(`import exited ${impCode}`);
  log(`import ${importS.toFixed(1)} s, peak RSS ${(importPeak / 2 ** 20).toFixed(0)} MiB`);
}
const snapshotBytes = fs
  .readdirSync(store)
  .filter((f) => f.startsWith('snapshot.') && f.endsWith('.jsonl'))
  .reduce((n, f) => n + fs.statSync(path.join(store, f)).size, 0);

// ---- serve -------------------------------------------------------------------------------
t0 = performance.now();
const gcPauses: { ms: number; at: number }[] = [];
// --trace-gc as node's own flag: the sized child (docs/operating.md#memory) keeps node's flags
const server = spawn(
  process.execPath,
  ['--trace-gc', ...NODE_FLAGS, MAIN, 'serve', '--data', store, '--port', '0', '--no-seed'],
  {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const serveWatch = watchPeak(server);
process.on('exit', () => {
  for (const pid of [...descendants(server.pid!), server.pid!]) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  }
});
let base = '';
let outBuf = '';
const listening = new Promise<void>((resolve) => {
  server.stdout!.on('data', (d: Buffer) => {
    outBuf += d.toString();
    let nl: number;
    while ((nl = outBuf.indexOf('\n')) >= 0) {
      const line = outBuf.slice(0, nl);
      outBuf = outBuf.slice(nl + 1);
      const m = /calendar-engine listening on (http:\/\/[^/]+)/.exec(line);
      if (m) {
        base = m[1];
        resolve();
      }
      // "[pid:0x…]  12345 ms: Mark-Compact 800.1 (900.2) -> 700.0 (850.3) MB, 123.4 / 0.0 ms  …"
      const g = /ms: [A-Za-z-]+.*MB, (?:pooled: [\d.]+ MB, )?([\d.]+) \/ [\d.]+ ms/.exec(line);
      if (g) gcPauses.push({ ms: Number(g[1]), at: performance.now() });
    }
  });
});
await listening;
const listeningS = (performance.now() - t0) / 1000;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
function get(p: string): Promise<{ status: number; ms: number }> {
  const s = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(`${base}${p}`, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - s }));
      })
      .on('error', reject);
  });
}
const first = await get(MIX[0].path);
const firstS = (performance.now() - t0) / 1000;
log(`serve: listening ${listeningS.toFixed(1)} s, first list ${firstS.toFixed(1)} s (status ${first.status})`);
// the mix while start-up work may still run (the search index builds in slices after a load)
const busy: number[] = [];
/** the slowest lists while busy: name, ms, ms since start */
const busySlow: [string, number, number][] = [];
const busyFrom = performance.now();
const busyUntil = busyFrom + 10_000;
while (performance.now() < busyUntil)
  for (const q of MIX.filter((q) => !q.name.startsWith('search'))) {
    const { ms } = await get(q.path);
    busy.push(ms);
    busySlow.push([q.name, Math.round(ms * 10) / 10, Math.round(performance.now() - t0)]);
    busySlow.sort((a, b) => b[1] - a[1]);
    busySlow.length = Math.min(busySlow.length, 5);
  }
const rssStart = treeRss(server.pid!);
const search = await get(MIX.find((q) => q.name === 'search')!.path);
const searchS = (performance.now() - t0) / 1000;
const rssSearch = treeRss(server.pid!);
log(
  `first search ${search.ms.toFixed(0)} ms (answered ${searchS.toFixed(1)} s after start), RSS ${(rssSearch / 2 ** 20).toFixed(0)} MiB`,
);
// settled
await new Promise((r) => setTimeout(r, 2000));
const mixStart = performance.now();
const settled: number[] = [];
/** queries answered other than 200 (a file cut from a larger calendar lacks some ids the mix names) */
const failed = new Set<string>();
const perQuery = new Map<string, number[]>();
for (let r = 0; r < ROUNDS; r++) {
  for (const q of MIX) {
    const { ms, status } = await get(q.path);
    if (status !== 200) failed.add(`${q.name} ${status}`);
    settled.push(ms);
    perQuery.set(q.name, [...(perQuery.get(q.name) ?? []), ms]);
  }
}
const rssMix = treeRss(server.pid!);
serveWatch.stop();
// ended without its shutdown snapshot (minutes at ten million events; the store is thrown away),
// but with --cpu-prof by SIGTERM, so that node writes its profile (after the snapshot)
const exited = new Promise((r) => server.on('exit', r));
const profiling = NODE_FLAGS.some((f) => f.startsWith('--cpu-prof'));
for (const pid of [...descendants(server.pid!), server.pid!]) {
  try {
    process.kill(pid, profiling ? 'SIGTERM' : 'SIGKILL');
  } catch {}
}
await exited;
agent.destroy();

const mib = (n: number) => Math.round(n / 2 ** 20);
const r2 = (n: number) => Math.round(n * 100) / 100;
const result = {
  events: EVENTS,
  fileGiB: r2(fileBytes / 2 ** 30),
  importS: r2(importS),
  importPeakRssMiB: mib(importPeak),
  snapshotGiB: r2(snapshotBytes / 2 ** 30),
  listeningS: r2(listeningS),
  firstListS: r2(firstS),
  firstSearchMs: Math.round(search.ms),
  rssStartMiB: mib(rssStart),
  rssAfterSearchMiB: mib(rssSearch),
  rssAfterMixMiB: mib(rssMix),
  servePeakRssMiB: mib(serveWatch.peak()),
  rssPerEventB: Math.round(rssMix / EVENTS),
  busyMs: {
    n: busy.length,
    p50: r2(quantileOf(busy, 0.5)),
    p99: r2(quantileOf(busy, 0.99)),
    max: r2(Math.max(...busy)),
  },
  busySlowest: busySlow,
  /** p99 of the lists while start-up work runs over the settled median (target <= 10) */
  busyP99OverSettledP50: r2(quantileOf(busy, 0.99) / quantileOf(settled, 0.5)),
  settledMs: {
    n: settled.length,
    p50: r2(quantileOf(settled, 0.5)),
    p99: r2(quantileOf(settled, 0.99)),
    max: r2(Math.max(...settled)),
  },
  notOk: [...failed],
  perQueryP50Ms: Object.fromEntries([...perQuery].map(([k, v]) => [k, r2(quantileOf(v, 0.5))])),
  gcMaxMs: {
    startUp: Math.max(0, ...gcPauses.filter((g) => g.at < mixStart).map((g) => g.ms)),
    /** while the lists of start-up ran (after the first answer) */
    busy: Math.max(0, ...gcPauses.filter((g) => g.at >= busyFrom && g.at < busyUntil).map((g) => g.ms)),
    mix: Math.max(0, ...gcPauses.filter((g) => g.at >= mixStart).map((g) => g.ms)),
  },
};
console.log(JSON.stringify(result));
if (!args.keep) fs.rmSync(store, { recursive: true, force: true });
