// npm run bench [-- --large --dir DIR --keep --recurring --events N --seed S --runs R --only a,b --no-sqlite --budget-ms B --min-runs M --warmup W --warmup-ms T --cache DIR --cache-mb M --writes W --warm-pages P --sqlite-cap-ms C]
// npm run bench -- --import [--events N --seed S --rounds R --dir DIR --no-sqlite --workers W,W...]   (the import benchmark: bench/import.ts)
//
// Generates a calendar, loads it into the engine and the baselines, checks that every
// implementation returns the same total and page ids for every query of the mix, then times each
// query against each implementation and prints one row per query (median, p99, ratios), the
// geometric means, load times and bytes per event; then the object mode (the embedding API's
// list(), fresh objects) against SQLite hydrating the same objects, the cold JSON page, and memory
// cold / warm / after writes. Exits 1 if any answer disagrees. The engine
// (and the floor) are loaded, answered and timed in a process of their own, from the engine's
// snapshot (bench/engine-child.ts); the arrays and SQLite baselines in this one.
//
// That is the in-memory path, for calendars whose generated objects fit in this process. Above
// that (choosePath in bench/report.ts: the heap it needs over 80 % of the machine's memory), or
// with --large, the large path runs instead (bench/run-large.ts): the streamed import file,
// `calendar-engine import`, SQLite on disk in DIR/sqlite/, no arrays baseline.

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import os from 'node:os';
import v8 from 'node:v8';
import { parseArgs } from 'node:util';
import { generateCalendar, type ImportData } from './generate.ts';
import { addSeries } from './recurring.ts';
import { HORIZON_DAYS } from '../src/recurrence/series.ts';
import { runImportBench } from './import.ts';
import { DEFAULT_IMPORT_DIR } from './import-file.ts';
import { runLarge } from './run-large.ts';
import { buildQueries, NOW, SITE, type BenchQuery } from './queries.ts';
import { consume, geometricMean, heapUsedAfterGc, sink, timeCase, type Timing, type TimingOptions } from './stats.ts';
import { ArraysBaseline } from './baselines/arrays.ts';
import { loadSqlite, SqliteBaseline } from './baselines/sqlite.ts';
import { FloorBaseline } from './baselines/floor.ts';
import { encodeChunks, readManifest, writeSnapshot, type SnapshotManifest } from '../src/store/snapshot.ts';
import type { EngineReport } from './engine-child.ts';
import type { ListResult } from './baselines/semantics.ts';
import { choosePath, differ, fmtBytes, fmtMs, fmtRatio, gcLine, inMemoryHeapMb, table } from './report.ts';

// ---- options -------------------------------------------------------------------------------
const { values: opt } = parseArgs({
  options: {
    events: { type: 'string', default: '100000' },
    seed: { type: 'string', default: '1' },
    runs: { type: 'string', default: '1000' },
    'min-runs': { type: 'string', default: '5' },
    warmup: { type: 'string', default: '5' },
    'warmup-ms': { type: 'string', default: '250' },
    'budget-ms': { type: 'string', default: '1000' },
    only: { type: 'string' },
    'no-sqlite': { type: 'boolean', default: false },
    'no-engine': { type: 'boolean', default: false },
    // development aid: keep the engine's snapshot of this calendar in DIR and load it from there
    // next time instead of importing (import and memory-after-import are then not measured)
    cache: { type: 'string' },
    // the engine's representation cache budget (MiB) and the size of the write load
    'cache-mb': { type: 'string', default: '64' },
    writes: { type: 'string', default: '10000' },
    // --import: the import benchmark instead (bench/import.ts): rounds, and where the file is kept
    import: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '3' },
    dir: { type: 'string' },
    // --import: the engine's runs with CALENDAR_IMPORT_WORKERS set to each of these in turn (default: unset)
    workers: { type: 'string' },
    // the recurring calendar: 10 % of the events series, their occurrences rows (bench/recurring.ts)
    recurring: { type: 'boolean', default: false },
    // the large path (bench/run-large.ts), taken by itself when the in-memory one would not fit
    large: { type: 'boolean', default: false },
    // the large path: keep the engine's store (DIR/store-N-S) after the run
    keep: { type: 'boolean', default: false },
    // the large path: SQLite's page cache when answering, MiB (default SQLite's own, 2 MiB)
    'sqlite-cache-mb': { type: 'string' },
    // the large path: the warm pass's pages of 50, spread over the calendar (instead of every event)
    'warm-pages': { type: 'string', default: '2000' },
    // the large path: the most one of SQLite's timed cases may take, warm-up included, ms
    'sqlite-cap-ms': { type: 'string', default: '30000' },
  },
  allowPositionals: false,
});
const N = Number(opt.events),
  SEED = Number(opt.seed);
if (opt.import) {
  const rounds = Number(opt.rounds);
  if (!(Number.isInteger(N) && N > 0 && Number.isInteger(SEED) && Number.isInteger(rounds) && rounds > 0))
    throw new Error('--import expects --events, --seed and --rounds to be positive integers');
  const workers =
    opt.workers === undefined
      ? [undefined]
      : opt.workers.split(',').map((w) => {
          if (!/^\d+$/.test(w))
            throw new Error(`--workers expects a comma-separated list of counts, got ${opt.workers}`);
          return Number(w);
        });
  runImportBench({
    events: N,
    seed: SEED,
    rounds,
    dir: opt.dir,
    sqlite: !opt['no-sqlite'],
    workers,
    log: (s = '') => process.stdout.write(s + '\n'),
  });
  process.exit(0);
}
const CACHE_BYTES = Number(opt['cache-mb']) * 1024 * 1024,
  WRITES = Number(opt.writes);
if (!(CACHE_BYTES >= 0) || !Number.isInteger(WRITES) || WRITES < 0)
  throw new Error('--cache-mb and --writes expect numbers >= 0');
const timing: TimingOptions = {
  runs: Number(opt.runs),
  minRuns: Number(opt['min-runs']),
  warmup: Number(opt.warmup),
  warmupMs: Number(opt['warmup-ms']),
  budgetMs: Number(opt['budget-ms']),
};
for (const [k, v] of Object.entries({ events: N, seed: SEED, ...timing })) {
  if (!Number.isInteger(v) || v < 0) throw new Error(`--${k} expects a non-negative integer, got ${v}`);
}

const pathChoice = choosePath({
  events: N,
  recurring: opt.recurring ?? false,
  forced: opt.large ?? false,
  totalBytes: os.totalmem(),
});
if (pathChoice.large) {
  if (opt['sqlite-cache-mb'] !== undefined && !(Number(opt['sqlite-cache-mb']) > 0))
    throw new Error(`--sqlite-cache-mb expects a number of MiB > 0, got ${opt['sqlite-cache-mb']}`);
  for (const k of ['warm-pages', 'sqlite-cap-ms'] as const)
    if (!(Number.isInteger(Number(opt[k])) && Number(opt[k]) > 0))
      throw new Error(`--${k} expects a positive integer, got ${opt[k]}`);
  const log = (s = '') => process.stdout.write(s + '\n');
  log(`calendar-engine bench: ${N.toLocaleString('en-US')} events, seed ${SEED}, now ${NOW.toISOString()}`);
  log(
    `node ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'} x${os.cpus().length}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB of memory`,
  );
  log(`large path: ${pathChoice.why}`);
  const code = await runLarge({
    events: N,
    seed: SEED,
    dir: opt.dir ?? DEFAULT_IMPORT_DIR,
    cache: opt.cache,
    only: opt.only?.split(',').map((s) => s.trim()),
    timing,
    cacheBytes: CACHE_BYTES,
    writes: WRITES,
    warmPages: Number(opt['warm-pages']),
    sqliteCapMs: Number(opt['sqlite-cap-ms']),
    sqlite: !opt['no-sqlite'],
    sqliteCacheMb: opt['sqlite-cache-mb'] === undefined ? undefined : Number(opt['sqlite-cache-mb']),
    engine: !opt['no-engine'],
    keep: opt.keep ?? false,
    log,
  });
  process.exit(code);
}

// A million events with two in-heap copies (baseline + engine import) need more than V8's
// default heap: re-run this same command with a larger one.
// (--recurring: about 15 rows an event, the occurrences)
const wantHeapMb = inMemoryHeapMb(N, opt.recurring ?? false);
if (v8.getHeapStatistics().heap_size_limit < wantHeapMb * 1024 * 1024 && !process.env.BENCH_HEAP_REEXEC) {
  const r = spawnSync(
    process.execPath,
    [...process.execArgv, `--max-old-space-size=${wantHeapMb}`, ...process.argv.slice(1)],
    {
      stdio: 'inherit',
      env: { ...process.env, BENCH_HEAP_REEXEC: '1' },
    },
  );
  process.exit(r.status ?? 1);
}
const hasGc = typeof (globalThis as { gc?: unknown }).gc === 'function';

const log = (s = '') => process.stdout.write(s + '\n');

// ---- the engine, through its public embedding API ------------------------------------------
interface CalendarLike {
  import(data: unknown): Promise<unknown>;
  close(): Promise<void>;
  engine: { snapshotChunks(): Iterable<unknown> };
}
type OpenCalendar = (opts: { timezone: string; perPage: number; now: () => Date }) => Promise<CalendarLike>;

async function loadEngine(): Promise<OpenCalendar | string> {
  if (opt['no-engine']) return 'disabled by --no-engine';
  try {
    const mod = await import(new URL('../src/index.ts', import.meta.url).href);
    if (typeof mod.openCalendar !== 'function') return 'src/index.ts exports no openCalendar';
    return mod.openCalendar as OpenCalendar;
  } catch (e) {
    return (e as Error).message.split('\n')[0];
  }
}

/** A deep copy made record by record, as a fresh load from JSON would produce (flat strings, no sharing). */
function cloneData(d: ImportData): ImportData {
  const c = <T>(xs: T[]): T[] => xs.map((x) => JSON.parse(JSON.stringify(x)) as T);
  return {
    categories: c(d.categories),
    tags: c(d.tags),
    venues: c(d.venues),
    organizers: c(d.organizers),
    events: c(d.events),
  };
}

/** one cached snapshot folder per calendar and snapshot code version (src/engine/snapshot*.ts hashed) */
function engineCachePath(dir: string): string {
  const hash = createHash('sha256');
  for (const f of ['snapshot.ts', 'snapshot-format.ts', 'snapshot-decode.ts'])
    hash.update(fs.readFileSync(new URL(`../src/engine/${f}`, import.meta.url)));
  const tag = hash.digest('hex').slice(0, 12);
  return path.join(dir, `engine-${N}-${SEED}-${tag}`);
}

// ---- main ----------------------------------------------------------------------------------
log(`calendar-engine bench: ${N.toLocaleString('en-US')} events, seed ${SEED}, now ${NOW.toISOString()}`);
log(`in-memory path: ${pathChoice.why}`);
log(
  `node ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'} x${os.cpus().length}, heap limit ${Math.round(v8.getHeapStatistics().heap_size_limit / 2 ** 20)} MB` +
    (hasGc ? '' : ' (no --expose-gc: memory figures unavailable)'),
);

let t0 = performance.now();
let data: ImportData = generateCalendar({ events: N, seed: SEED, now: NOW });
let recurring: ReturnType<typeof addSeries> | undefined;
if (opt.recurring) {
  recurring = addSeries(data, { seed: SEED, now: NOW });
  log(
    `recurring: ${recurring.series} of the events made series, with ${recurring.occurrences} occurrence rows ` +
      `(${data.events.length} rows); ${recurring.inWindow} occurrences start in the two years from now`,
  );
}
const generateMs = performance.now() - t0;
let queries: BenchQuery[] = buildQueries(data, SEED);
if (opt.only) {
  const wanted = opt.only.split(',').map((s) => s.trim());
  const unknown = wanted.filter((w) => !queries.some((q) => q.name === w));
  if (unknown.length)
    throw new Error(`--only: unknown query ${unknown.join(', ')}; known: ${queries.map((q) => q.name).join(', ')}`);
  queries = queries.filter((q) => wanted.includes(q.name));
}
log(
  `generated ${data.events.length} events, ${data.venues.length} venues, ${data.organizers.length} organizers, ` +
    `${data.categories.length} categories, ${data.tags.length} tags in ${fmtMs(generateMs)} ms`,
);

// plain objects: bytes of a fresh copy of the records, alone
let h0 = heapUsedAfterGc();
let plainCopy: ImportData | null = cloneData(data);
const plainBytes = (heapUsedAfterGc() - h0) / data.events.length; // per row: N, or N and the occurrences
consume(plainCopy.events.length);
plainCopy = null;

// engine: import a fresh copy, drop the copy, count what the engine keeps; then write its
// snapshot as the store does and hand it to bench/engine-child.ts, which loads, answers and
// times the engine in a process of its own (see there why)
const openCalendar = await loadEngine();
let engineLoadMs = NaN,
  engineBytes = NaN,
  snapshotBytes = NaN;
let engineNote = '';
let engineReport: EngineReport | undefined;
if (typeof openCalendar === 'string') {
  engineNote = `engine not measured: ${openCalendar}`;
} else {
  const cacheDir = opt.cache ? engineCachePath(opt.cache) : undefined;
  const cached = cacheDir ? await readManifest(cacheDir).catch(() => undefined) : undefined;
  let snapshotDir: string,
    manifest: SnapshotManifest,
    temporary = false;
  if (cacheDir && cached) {
    snapshotDir = cacheDir;
    manifest = cached;
    engineNote = `engine snapshot from the cache ${cacheDir} (import not measured)`;
  } else {
    h0 = heapUsedAfterGc();
    let copy: ImportData | null = cloneData(data);
    t0 = performance.now();
    const cal = await openCalendar({ timezone: 'UTC', perPage: SITE.perPage, now: () => NOW });
    await cal.import(copy);
    engineLoadMs = performance.now() - t0;
    copy = null;
    engineBytes = (heapUsedAfterGc() - h0) / data.events.length;
    const dir = cacheDir
      ? `${cacheDir}.${process.pid}.tmp`
      : fs.mkdtempSync(path.join(os.tmpdir(), 'calendar-engine-bench-'));
    fs.mkdirSync(dir, { recursive: true });
    manifest = await writeSnapshot(dir, 0, encodeChunks(cal.engine.snapshotChunks()));
    if (cacheDir) {
      fs.rmSync(cacheDir, { recursive: true, force: true }); // several runs may fill the same cache at once
      fs.renameSync(dir, cacheDir);
      snapshotDir = cacheDir;
    } else {
      snapshotDir = dir;
      temporary = true;
    }
    await cal.close();
  }
  snapshotBytes = manifest.parts.reduce((n, p) => n + p.bytes, 0);
  // the warm pass reads every page of every event; an unbounded series has instances to the end
  // of time past its rows (the horizon), which no pass can read: with series it stops there
  const warmTo = recurring
    ? new Date(NOW.getTime() + HORIZON_DAYS * 86_400_000).toISOString().slice(0, 10)
    : '9999-12-31';
  const child = spawnSync(
    process.execPath,
    [
      '--expose-gc',
      `--max-old-space-size=${Math.max(4096, Math.ceil(data.events.length / 250))}`, // rows: occurrences too
      '--import',
      'tsx',
      fileURLToPath(new URL('./engine-child.ts', import.meta.url)),
      snapshotDir,
    ],
    {
      encoding: 'utf8',
      maxBuffer: 256 << 20,
      stdio: ['pipe', 'pipe', 'inherit'],
      input: JSON.stringify({
        queries,
        timing,
        perPage: SITE.perPage,
        cacheBytes: CACHE_BYTES,
        writes: WRITES,
        warmTo,
      }),
    },
  );
  if (temporary) fs.rmSync(snapshotDir, { recursive: true, force: true });
  try {
    engineReport = JSON.parse(child.stdout.trim().split('\n').pop() ?? '') as EngineReport;
  } catch {
    engineNote += `${engineNote ? '; ' : ''}the engine's process failed (exit ${child.status}); its errors are above`;
  }
}

t0 = performance.now();
const arrays = new ArraysBaseline(data, SITE);
const arraysLoadMs = performance.now() - t0;

let sqlite: SqliteBaseline | undefined;
let sqliteLoadMs = NaN,
  sqliteNote = '';
if (opt['no-sqlite']) sqliteNote = 'sqlite baseline skipped (--no-sqlite)';
else {
  const Ctor = await loadSqlite();
  if (typeof Ctor === 'string') sqliteNote = `sqlite baseline skipped: better-sqlite3 could not load (${Ctor})`;
  else {
    t0 = performance.now();
    sqlite = new SqliteBaseline(Ctor, data, SITE);
    sqliteLoadMs = performance.now() - t0;
  }
}
for (const note of [engineNote, sqliteNote]) if (note) log(note);

// ---- correctness cross-check ---------------------------------------------------------------
const totals = new Map<string, number>();
/** the floor's pages when the engine's process does not time it (no engine): the arrays answers */
const floor = new FloorBaseline();
let mismatches = 0;
for (const [i, q] of queries.entries()) {
  const ref = arrays.list(q.params, q.actor);
  totals.set(q.name, ref.total);
  const others: [string, ListResult][] = [];
  if (sqlite) others.push(['sqlite', sqlite.list(q.params, q.actor)]);
  const eng = engineReport?.answers[i];
  if (eng) others.push(['engine', eng]);
  for (const [name, r] of others) {
    const d = differ(r, ref);
    if (d) {
      mismatches++;
      log(`MISMATCH ${q.name}: ${name} vs arrays: ${d}`);
    }
  }
  if (sqlite && eng) {
    const d = differ(eng, others[0][1]);
    if (d) log(`MISMATCH ${q.name}: engine vs sqlite: ${d}`);
  }
  if (!engineReport) floor.set(q.name, JSON.parse(ref.body));
}
log(
  mismatches === 0
    ? `cross-check: ${queries.length} queries, every implementation agrees on total and page ids`
    : `cross-check: ${mismatches} MISMATCH(es)`,
);

// ---- timing (the engine and the floor were timed in the engine's process) --------------------
interface Row {
  q: BenchQuery;
  engine?: Timing;
  arrays: Timing;
  sqlite?: Timing;
  floor: Timing;
  bytes: number;
  objects?: Timing;
  sqliteObjects?: Timing;
  warm?: Timing;
  cold?: Timing;
  evicted?: Timing;
}
const rows: Row[] = [];
for (const [i, q] of queries.entries()) {
  if (process.stderr.isTTY) process.stderr.write(`timing ${q.name}...\r`);
  const a = await timeCase(() => arrays.list(q.params, q.actor), timing);
  const s = sqlite ? await timeCase(() => sqlite!.list(q.params, q.actor), timing) : undefined;
  const so = sqlite ? await timeCase(() => sqlite!.listObjects(q.params, q.actor), timing) : undefined;
  const timed = engineReport?.timings[i];
  const f = timed ? timed.floor : await timeCase(() => floor.list(q.name), timing);
  const bytes = engineReport ? engineReport.answers[i].body.length : floor.list(q.name).length;
  rows.push({
    q,
    engine: timed?.engine,
    arrays: a,
    sqlite: s,
    floor: f,
    bytes,
    objects: timed?.objects,
    sqliteObjects: so,
    warm: timed?.warm,
    cold: timed?.cold,
    evicted: timed?.evicted,
  });
}
if (process.stderr.isTTY) process.stderr.write(' '.repeat(40) + '\r');

const ratio = (a: Timing | undefined, b: Timing | undefined) => (a && b ? a.median / b.median : undefined);
const header = [
  'query',
  'total',
  'bytes',
  'engine med',
  'engine p99',
  'arrays med',
  'sqlite med',
  'floor med',
  'sqlite/engine',
  'arrays/engine',
  'engine/floor',
];
const body = rows.map((r) => [
  r.q.name,
  String(totals.get(r.q.name)),
  String(r.bytes),
  fmtMs(r.engine?.median),
  fmtMs(r.engine?.p99),
  fmtMs(r.arrays.median),
  fmtMs(r.sqlite?.median),
  fmtMs(r.floor.median),
  fmtRatio(ratio(r.sqlite, r.engine)),
  fmtRatio(ratio(r.arrays, r.engine)),
  fmtRatio(ratio(r.engine, r.floor)),
]);
const gm = (f: (r: Row) => number | undefined) =>
  geometricMean(rows.map(f).filter((x): x is number => x !== undefined));
body.push([
  'geometric mean',
  '',
  '',
  fmtMs(gm((r) => r.engine?.median)),
  fmtMs(gm((r) => r.engine?.p99)),
  fmtMs(gm((r) => r.arrays.median)),
  fmtMs(gm((r) => r.sqlite?.median)),
  fmtMs(gm((r) => r.floor.median)),
  fmtRatio(gm((r) => ratio(r.sqlite, r.engine))),
  fmtRatio(gm((r) => ratio(r.arrays, r.engine))),
  fmtRatio(gm((r) => ratio(r.engine, r.floor))),
]);
log();
log('latency in ms per GET /events call (median / p99 over the samples); ratios of medians; bytes = response body;');
log("engine and floor timed in the engine's own process (loaded from its snapshot), arrays and sqlite in this one");
log(table(header, body));
const samples = rows.map((r) => [r.engine?.samples, r.arrays.samples, r.sqlite?.samples, r.floor.samples]);
const minSamples = (i: number) => {
  const m = Math.min(...samples.map((s) => s[i] ?? Infinity));
  return Number.isFinite(m) ? String(m) : '-';
};
log(
  `samples per cell (min): engine ${minSamples(0)}, arrays ${minSamples(1)}, sqlite ${minSamples(2)}, floor ${minSamples(3)} ` +
    `(runs ${timing.runs}, min ${timing.minRuns}, budget ${timing.budgetMs} ms, warm-up ${timing.warmup} calls and ${timing.warmupMs} ms)`,
);

if (engineReport) log(gcLine(engineReport.gc));

if (engineReport) {
  const oHeader = [
    'query',
    'objects med',
    'objects p99',
    'p99/med',
    'sqlite obj med',
    'sqlite obj/objects',
    'json warm med',
    'json cold med',
    'cold/warm',
    'evicted med',
    'evicted/warm',
  ];
  const oBody = rows.map((r) => [
    r.q.name,
    fmtMs(r.objects?.median),
    fmtMs(r.objects?.p99),
    fmtRatio(r.objects ? r.objects.p99 / r.objects.median : undefined),
    fmtMs(r.sqliteObjects?.median),
    fmtRatio(ratio(r.sqliteObjects, r.objects)),
    fmtMs(r.warm?.median),
    fmtMs(r.cold?.median),
    fmtRatio(ratio(r.cold, r.warm)),
    fmtMs(r.evicted?.median),
    fmtRatio(ratio(r.evicted, r.warm)),
  ]);
  oBody.push([
    'geometric mean',
    fmtMs(gm((r) => r.objects?.median)),
    fmtMs(gm((r) => r.objects?.p99)),
    fmtRatio(gm((r) => (r.objects ? r.objects.p99 / r.objects.median : undefined))),
    fmtMs(gm((r) => r.sqliteObjects?.median)),
    fmtRatio(gm((r) => ratio(r.sqliteObjects, r.objects))),
    fmtMs(gm((r) => r.warm?.median)),
    fmtMs(gm((r) => r.cold?.median)),
    fmtRatio(gm((r) => ratio(r.cold, r.warm))),
    fmtMs(gm((r) => r.evicted?.median)),
    fmtRatio(gm((r) => ratio(r.evicted, r.warm))),
  ]);
  log();
  log(
    'object mode: cal.events.list() returning fresh objects, against SQLite hydrating the same objects (page query, then one',
  );
  log(
    "query per join table); json cold = cal.rest() with the page's events changed before each call, as by a write (rendered as",
  );
  log(
    "never seen); evicted = the page's events pushed out of the cache before each call (what their texts need is still known);",
  );
  log(
    "json warm, cold and evicted timed in turn in batches of 10 calls, so that their ratios share the machine's moods",
  );
  log(table(oHeader, oBody));
  if (engineReport.objectMismatches.length) {
    mismatches += engineReport.objectMismatches.length;
    for (const m of engineReport.objectMismatches) log(`MISMATCH object mode ${m}`);
  } else log(`object mode: every page equals JSON.parse of the REST body (${queries.length} queries)`);
}
log();
log('load');
log(
  `  engine import:        ${fmtMs(engineLoadMs)} ms` +
    (engineReport
      ? `; snapshot load (fresh process: read + sha256 + JSON.parse + loadSnapshotChunks): ` +
        `${fmtMs(engineReport.loadMs)} ms from ${fmtBytes(snapshotBytes)} bytes, then its search index (built in the background after a load; ` +
        `finished by a first search): ${fmtMs(engineReport.searchMs)} ms`
      : ''),
);
log(`  arrays baseline:      ${fmtMs(arraysLoadMs)} ms (fold search text, build term/venue/organizer objects)`);
log(`  sqlite baseline:      ${fmtMs(sqliteLoadMs)} ms (one transaction, prepared inserts, then indexes)`);
log('memory (heapUsed delta after gc, per event)');
log(
  `  engine:               ${hasGc ? fmtBytes(engineBytes) : '-'} bytes/event` +
    (engineReport ? `  (engine loaded from its snapshot: ${fmtBytes(engineReport.bytesPerEvent)})` : ''),
);
log(`  plain objects:        ${hasGc ? fmtBytes(plainBytes) : '-'} bytes/event (the import records, freshly parsed)`);
if (engineReport) {
  const m = engineReport.memory,
    n = engineReport.rows,
    mib = (x: number) => (x / 2 ** 20).toFixed(1) + ' MiB';
  const line = (name: string, st: typeof m.cold) =>
    log(
      `  ${name.padEnd(34)} ${fmtBytes(st.bytes / n)} bytes/event (${mib(st.bytes)} heap + array buffers; rss ${mib(st.rss)}; cache ${mib(st.cacheBytes)})`,
    );
  log(
    `memory of the engine's process, after gc (budget of the representation cache ${mib(engineReport.cacheBudget)}):`,
  );
  line('cold (after the load):', m.cold);
  line('warm (all read once):', m.warm);
  line(`after ${m.writes} writes, then a search:`, m.afterWrites);
  if (recurring) {
    // every row of the recurring calendar counted as one occurrence (a series' row is its first)
    const per = (st: typeof m.cold) => `${fmtBytes(st.bytes / n)} heap + array buffers, ${fmtBytes(st.rss / n)} rss`;
    log(
      `  per occurrence (bytes; each of the ${n} rows counted, ${recurring.series} of them series): ` +
        `cold ${per(m.cold)}; warm ${per(m.warm)}; after writes ${per(m.afterWrites)}`,
    );
  }
  const limit = m.cold.bytes * 1.1 + engineReport.cacheBudget;
  log(
    `  warm + writes vs cold + budget + 10%: ${mib(m.afterWrites.bytes)} vs ${mib(limit)} (${m.afterWrites.bytes <= limit ? 'within' : 'OVER'}); ` +
      `reading every event took ${fmtMs(m.readMs)} ms, the writes ${fmtMs(m.writeMs)} ms`,
  );
}
log(`sink ${sink.value} ${engineReport?.sink ?? ''}`);
sqlite?.close();
data = null as unknown as ImportData;
if (mismatches > 0) {
  log(`FAILED: ${mismatches} mismatch(es) between implementations`);
  process.exit(1);
}
