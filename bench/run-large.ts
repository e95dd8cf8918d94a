// The large path of `npm run bench` (bench/run.ts decides: choosePath in bench/report.ts), for a
// calendar whose generated objects do not fit in one process: nothing here holds the events.
//
// - the calendar is the import file, written as it is generated (bench/import-file.ts), kept in DIR;
// - the engine: `calendar-engine import FILE --data STORE` (the package's bin, no Node flags; timed,
//   peak RSS of its process tree), then bench/engine-child.ts loads that store's snapshot, answers
//   the mix and times it as on the in-memory path (JSON pages, the floor, the object mode, cold and
//   evicted pages, memory cold / warm / after writes, the collector's pauses);
// - SQLite: a database file made from the same import file (buildSqliteFile: the baseline's schema
//   and indexes, WAL), kept in DIR/sqlite/ by events, seed and layout version and reused by later
//   runs; then bench/sqlite-child.ts opens it and answers and times the same mix, in a process of
//   its own whose RSS is reported;
// - every answer of SQLite is checked against the engine's (total and page ids).
// The arrays baseline and the plain objects' bytes are left out (they hold every event).

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readManifest } from '../src/store/snapshot.ts';
import { DIST_MAIN, ensureDist } from '../test/helpers/dist.ts';
import type { EngineReport } from './engine-child.ts';
import { importFile } from './import-file.ts';
import { watchPeak } from './proc.ts';
import { buildQueriesStreamed, SITE, type BenchQuery } from './queries.ts';
import { differ, fmtBytes, fmtMs, fmtRatio, gcLine, mib, table } from './report.ts';
import type { SqliteBuildReport, SqliteReport } from './sqlite-child.ts';
import { geometricMean, type Timing, type TimingOptions } from './stats.ts';

/** the layout of the database files buildSqliteFile makes: a new one when the schema or rows change */
export const SQLITE_FILE_VERSION = 1;

export interface LargeOptions {
  events: number;
  seed: number;
  /** where the import file, the SQLite cache (DIR/sqlite/) and the engine's store are kept */
  dir: string;
  /** keep the engine's store in CACHE and reuse it (its import then not measured) */
  cache?: string;
  only?: string[];
  timing: TimingOptions;
  cacheBytes: number;
  writes: number;
  /** the warm pass reads at most this many pages of 50, spread over the whole calendar (spreadPages) */
  warmPages: number;
  /** the most one of SQLite's timed cases may take, warm-up included, ms (TimingOptions.capMs) */
  sqliteCapMs: number;
  sqlite: boolean;
  /** SQLite's page cache when answering, MiB (undefined: its default, 2 MiB) */
  sqliteCacheMb?: number;
  engine: boolean;
  /** keep the engine's store (DIR/store-N-S) after the run */
  keep: boolean;
  log: (s?: string) => void;
}

const CHILD = (name: string) => fileURLToPath(new URL(`./${name}`, import.meta.url));

/** The database file of (events, seed) in DIR/sqlite/ and its build report beside it. */
export function sqliteCachePath(dir: string, events: number, seed: number): { db: string; report: string } {
  const db = path.join(dir, 'sqlite', `sqlite-${events}-${seed}-v${SQLITE_FILE_VERSION}.db`);
  return { db, report: `${db}.json` };
}

/** one kept store per calendar and snapshot code version, as bench/run.ts's --cache */
function engineStorePath(cache: string, events: number, seed: number): string {
  const hash = createHash('sha256');
  for (const f of ['snapshot.ts', 'snapshot-format.ts', 'snapshot-decode.ts']) {
    const file = new URL(`../src/engine/${f}`, import.meta.url);
    if (fs.existsSync(file)) hash.update(fs.readFileSync(file));
  }
  return path.join(cache, `engine-store-${events}-${seed}-${hash.digest('hex').slice(0, 12)}`);
}

/** whether a database file being built (DB.tmp) was written to in the last 10 minutes */
function buildUnderWay(tmp: string): boolean {
  try {
    return Date.now() - fs.statSync(tmp).mtimeMs < 600_000;
  } catch {
    return false;
  }
}

function lastJsonLine<T>(stdout: string): T | undefined {
  try {
    return JSON.parse(stdout.trim().split('\n').pop() ?? '') as T;
  } catch {
    return undefined;
  }
}

/** Run node with `args`; its stdout collected, its stderr passed through. */
function runNode(args: string[], input?: string): Promise<{ code: number | null; stdout: string }> {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
  });
  child.stdin.end(input ?? '');
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout })));
}

/** Runs the large path; returns the exit code (1 when an answer disagrees or a step failed). */
export async function runLarge(o: LargeOptions): Promise<number> {
  const { log } = o;
  const N = o.events;
  let failed = 0;
  // the wall time of each step, printed at the end
  const runStart = performance.now();
  const steps: string[] = [];
  const step = (name: string, since: number): void => {
    steps.push(`${name} ${fmtMs((performance.now() - since) / 1000)} s`);
  };

  // ---- the calendar: the import file --------------------------------------------------------
  let t0 = performance.now();
  const { file, made } = importFile(N, o.seed, o.dir);
  const fileBytes = fs.statSync(file).size;
  log(
    `import file ${file} (${(fileBytes / 2 ** 30).toFixed(2)} GiB)` +
      (made ? `, generated in ${((performance.now() - t0) / 1000).toFixed(1)} s` : ', kept from an earlier run'),
  );
  let queries: BenchQuery[] = buildQueriesStreamed(N, o.seed);
  if (o.only) {
    const unknown = o.only.filter((w) => !queries.some((q) => q.name === w));
    if (unknown.length)
      throw new Error(`--only: unknown query ${unknown.join(', ')}; known: ${queries.map((q) => q.name).join(', ')}`);
    queries = queries.filter((q) => o.only!.includes(q.name));
  }
  log('arrays baseline and plain-object bytes skipped: they hold every event in this process');

  // ---- SQLite: its database file, made once per calendar ------------------------------------
  let build: (SqliteBuildReport & { cached: boolean }) | undefined;
  const cachePaths = sqliteCachePath(o.dir, N, o.seed);
  if (o.sqlite) {
    if (fs.existsSync(cachePaths.db)) {
      const kept = fs.existsSync(cachePaths.report)
        ? (JSON.parse(fs.readFileSync(cachePaths.report, 'utf8')) as SqliteBuildReport)
        : { events: N, ms: NaN, maxRss: NaN, bytes: fs.statSync(cachePaths.db).size };
      build = { ...kept, cached: true };
      log(`sqlite: database ${cachePaths.db} kept from an earlier run (built then in ${fmtMs(kept.ms / 1000)} s)`);
    } else if (buildUnderWay(`${cachePaths.db}.tmp`)) {
      log(
        `sqlite: ${cachePaths.db}.tmp changed in the last 10 minutes: another run seems to be building it; ` +
          'wait for it to finish (it renames the file), or remove the .tmp file if nothing builds it',
      );
      failed++;
    } else {
      fs.mkdirSync(path.dirname(cachePaths.db), { recursive: true });
      log(`sqlite: building ${cachePaths.db} from the import file...`);
      const tBuild = performance.now();
      const r = await runNode(['--import', 'tsx', CHILD('sqlite-child.ts'), 'build', file, cachePaths.db]);
      step('sqlite build', tBuild);
      const rep = lastJsonLine<SqliteBuildReport>(r.stdout);
      if (r.code !== 0 || !rep) {
        log(`sqlite: the build failed (exit ${r.code}); its errors are above`);
        failed++;
      } else {
        fs.writeFileSync(cachePaths.report, JSON.stringify(rep) + '\n');
        build = { ...rep, cached: false };
        log(`sqlite: built in ${fmtMs(rep.ms / 1000)} s, ${mib(rep.bytes)}, peak RSS ${mib(rep.maxRss)}`);
      }
    }
  } else log('sqlite baseline skipped (--no-sqlite)');

  // ---- the engine: calendar-engine import, then its process on the store ---------------------
  let engine: EngineReport | undefined;
  let importS = NaN,
    importPeak = NaN,
    snapshotBytes = NaN;
  if (o.engine) {
    ensureDist();
    const cached = o.cache ? engineStorePath(o.cache, N, o.seed) : undefined;
    const store = cached ?? path.join(o.dir, `store-${N}-${o.seed}`);
    const reuse = cached !== undefined && (await readManifest(cached).catch(() => undefined)) !== undefined;
    if (reuse) log(`engine: store ${store} kept from an earlier run (--cache: import not measured)`);
    else {
      fs.rmSync(store, { recursive: true, force: true });
      log(`engine: calendar-engine import ${file} --data ${store} (no Node flags)...`);
      const env = { ...process.env };
      delete env.NODE_OPTIONS;
      t0 = performance.now();
      const imp = spawn(process.execPath, [DIST_MAIN, 'import', file, '--data', store], {
        env,
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      const watch = watchPeak(imp);
      const code = await new Promise<number | null>((r) => imp.on('exit', (c) => r(c)));
      watch.stop();
      importS = (performance.now() - t0) / 1000;
      step('engine import', t0);
      importPeak = watch.peak();
      if (code !== 0) {
        log(`engine: the import exited ${code}; its errors are above`);
        failed++;
      } else log(`engine: imported in ${importS.toFixed(1)} s, peak RSS ${mib(importPeak)}`);
    }
    const manifest = await readManifest(store).catch(() => undefined);
    if (manifest) {
      snapshotBytes = manifest.parts.reduce((n, p) => n + p.bytes, 0);
      // the engine's heap: as bench/run.ts gives its child, at most 85 % of the machine
      const heapMb = Math.min(Math.max(4096, Math.ceil(N / 250)), Math.floor((os.totalmem() / 2 ** 20) * 0.85));
      log(
        `engine: loading the store's snapshot (${mib(snapshotBytes)}) in bench/engine-child.ts (heap ${heapMb} MiB)...`,
      );
      const tChild = performance.now();
      const r = await runNode(
        ['--expose-gc', `--max-old-space-size=${heapMb}`, '--import', 'tsx', CHILD('engine-child.ts'), store],
        JSON.stringify({
          queries,
          timing: o.timing,
          perPage: SITE.perPage,
          cacheBytes: o.cacheBytes,
          writes: o.writes,
          warmTo: '9999-12-31',
          warmPages: o.warmPages,
        }),
      );
      engine = lastJsonLine<EngineReport>(r.stdout);
      step('engine process', tChild);
      if (engine)
        steps.push(
          `(of it: load ${fmtMs(engine.loadMs / 1000)} s, first search ${fmtMs(engine.searchMs / 1000)} s, ` +
            `the mix ${fmtMs(engine.mixMs / 1000)} s, warm pass ${fmtMs(engine.memory.readMs / 1000)} s, ` +
            `writes ${fmtMs(engine.memory.writeMs / 1000)} s)`,
        );
      if (!engine) {
        log(`engine: its process failed (exit ${r.code}); its errors are above`);
        failed++;
      }
    } else if (!failed) {
      log(`engine: no snapshot in ${store}`);
      failed++;
    }
    if (!cached && !o.keep) fs.rmSync(store, { recursive: true, force: true });
  } else log('engine skipped (--no-engine)');

  // ---- SQLite answers and times the mix -----------------------------------------------------
  let sqlite: SqliteReport | undefined;
  if (build) {
    log(
      `sqlite: answering and timing the mix in bench/sqlite-child.ts (page cache ${o.sqliteCacheMb === undefined ? "SQLite's default, 2" : o.sqliteCacheMb} MiB; ` +
        `each case at most ${fmtMs(o.sqliteCapMs / 1000)} s, warm-up included)...`,
    );
    const tChild = performance.now();
    const r = await runNode(
      ['--import', 'tsx', CHILD('sqlite-child.ts'), 'time', cachePaths.db],
      JSON.stringify({ queries, timing: { ...o.timing, capMs: o.sqliteCapMs }, cacheMb: o.sqliteCacheMb }),
    );
    sqlite = lastJsonLine<SqliteReport>(r.stdout);
    step('sqlite process', tChild);
    if (sqlite)
      steps.push(`(of it: the cross-check's answers ${fmtMs(sqlite.answerMs.reduce((a, b) => a + b, 0) / 1000)} s)`);
    if (!sqlite) {
      log(`sqlite: its process failed (exit ${r.code}); its errors are above`);
      failed++;
    }
  }

  // ---- cross-check --------------------------------------------------------------------------
  let mismatches = 0;
  if (engine && sqlite) {
    for (const [i, q] of queries.entries()) {
      const d = differ(sqlite.answers[i], engine.answers[i]);
      if (d) {
        mismatches++;
        log(`MISMATCH ${q.name}: sqlite vs engine: ${d}`);
      }
    }
    log(
      mismatches === 0
        ? `cross-check: ${queries.length} queries, SQLite and the engine agree on total and page ids`
        : `cross-check: ${mismatches} MISMATCH(es)`,
    );
  } else log('cross-check: skipped (needs both the engine and SQLite)');
  if (engine?.objectMismatches.length) {
    mismatches += engine.objectMismatches.length;
    for (const m of engine.objectMismatches) log(`MISMATCH object mode ${m}`);
  }

  // ---- tables -------------------------------------------------------------------------------
  // a cell not timed (no samples: SQLite's object mode of a slow query) has no ratio
  const ratio = (a: Timing | undefined, b: Timing | undefined) =>
    a?.samples && b?.samples ? a.median / b.median : undefined;
  const rows = queries.map((q, i) => ({
    q,
    total: engine?.answers[i].total ?? sqlite?.answers[i].total,
    bytes: engine?.answers[i].body.length,
    e: engine?.timings[i],
    s: sqlite?.timings[i],
  }));
  type R = (typeof rows)[number];
  const gm = (f: (r: R) => number | undefined) =>
    geometricMean(rows.map(f).filter((x): x is number => x !== undefined));
  const header = [
    'query',
    'total',
    'bytes',
    'engine med',
    'engine p99',
    'sqlite med',
    'sqlite p99',
    'sqlite n',
    'floor med',
    'sqlite/engine',
    'engine/floor',
  ];
  const body = rows.map((r) => [
    r.q.name,
    r.total === undefined ? '-' : String(r.total),
    r.bytes === undefined ? '-' : String(r.bytes),
    fmtMs(r.e?.engine.median),
    fmtMs(r.e?.engine.p99),
    fmtMs(r.s?.list.median),
    fmtMs(r.s?.list.p99),
    r.s ? String(r.s.list.samples) : '-',
    fmtMs(r.e?.floor.median),
    fmtRatio(ratio(r.s?.list, r.e?.engine)),
    fmtRatio(ratio(r.e?.engine, r.e?.floor)),
  ]);
  body.push([
    'geometric mean',
    '',
    '',
    fmtMs(gm((r) => r.e?.engine.median)),
    fmtMs(gm((r) => r.e?.engine.p99)),
    fmtMs(gm((r) => r.s?.list.median)),
    fmtMs(gm((r) => r.s?.list.p99)),
    '',
    fmtMs(gm((r) => r.e?.floor.median)),
    fmtRatio(gm((r) => ratio(r.s?.list, r.e?.engine))),
    fmtRatio(gm((r) => ratio(r.e?.engine, r.e?.floor))),
  ]);
  log();
  log(`latency in ms per GET /events call (median / p99 over the samples); ratios of medians; bytes = response body;`);
  log(
    `sqlite n = SQLite's samples of the case (its slow cases fewer: each case at most ${fmtMs(o.sqliteCapMs / 1000)} s, ` +
      "warm-up included; with one sample, its p99 is that sample; the object mode's of a query whose list takes more than " +
      'half of that a call not timed)',
  );
  log("the engine and the floor timed in the engine's process (loaded from the imported store), SQLite in its own");
  log(table(header, body));
  if (engine) log(gcLine(engine.gc));
  if (engine) {
    const oHeader = [
      'query',
      'objects med',
      'objects p99',
      'sqlite obj med',
      'sqlite obj n',
      'sqlite obj/objects',
      'json warm med',
      'json cold med',
      'cold/warm',
      'evicted med',
    ];
    const oBody = rows.map((r) => [
      r.q.name,
      fmtMs(r.e?.objects.median),
      fmtMs(r.e?.objects.p99),
      fmtMs(r.s?.objects.median),
      r.s ? String(r.s.objects.samples) : '-',
      fmtRatio(ratio(r.s?.objects, r.e?.objects)),
      fmtMs(r.e?.warm.median),
      fmtMs(r.e?.cold.median),
      fmtRatio(ratio(r.e?.cold, r.e?.warm)),
      fmtMs(r.e?.evicted.median),
    ]);
    oBody.push([
      'geometric mean',
      fmtMs(gm((r) => r.e?.objects.median)),
      fmtMs(gm((r) => r.e?.objects.p99)),
      fmtMs(gm((r) => r.s?.objects.median)),
      '',
      fmtRatio(gm((r) => ratio(r.s?.objects, r.e?.objects))),
      fmtMs(gm((r) => r.e?.warm.median)),
      fmtMs(gm((r) => r.e?.cold.median)),
      fmtRatio(gm((r) => ratio(r.e?.cold, r.e?.warm))),
      fmtMs(gm((r) => r.e?.evicted.median)),
    ]);
    log();
    log(
      'object mode (cal.events.list(), fresh objects) against SQLite hydrating the same objects; json cold / evicted',
    );
    log("as on the in-memory path (the page's events changed / pushed out of the cache before each call)");
    log(table(oHeader, oBody));
  }

  // ---- load and memory ----------------------------------------------------------------------
  log();
  log('load');
  log(
    `  engine import:        ${Number.isFinite(importS) ? importS.toFixed(1) + ' s' : '-'}, peak RSS ${Number.isFinite(importPeak) ? mib(importPeak) : '-'} ` +
      `(calendar-engine import of the ${(fileBytes / 2 ** 30).toFixed(2)} GiB file, no Node flags)` +
      (engine
        ? `; snapshot ${fmtBytes(snapshotBytes)} bytes, loaded in a fresh process in ${fmtMs(engine.loadMs / 1000)} s, ` +
          `then its search index (finished by a first search): ${fmtMs(engine.searchMs)} ms`
        : ''),
  );
  if (build)
    log(
      `  sqlite build:         ${fmtMs(build.ms / 1000)} s${build.cached ? ' (*: by an earlier run, kept in its cache)' : ''}, ` +
        `file ${mib(build.bytes)} (${fmtBytes(build.bytes / N)} bytes/event), peak RSS of the build ${mib(build.maxRss)}`,
    );
  if (sqlite)
    log(
      `  sqlite process:       opened in ${fmtMs(sqlite.openMs)} ms; RSS after the open ${mib(sqlite.rss.open)}, after the cross-check ` +
        `${mib(sqlite.rss.answered)}, after the timings ${mib(sqlite.rss.timed)}, peak ${mib(sqlite.rss.max)} ` +
        `(${fmtBytes(sqlite.rss.timed / N)} bytes/event; its data is read from the file through the OS page cache)`,
    );
  if (engine) {
    const m = engine.memory,
      n = engine.rows;
    const line = (name: string, st: typeof m.cold) =>
      log(
        `  ${name.padEnd(34)} ${fmtBytes(st.bytes / n)} bytes/event (${mib(st.bytes)} heap + array buffers; ` +
          `rss ${mib(st.rss)}, ${fmtBytes(st.rss / n)} bytes/event; cache ${mib(st.cacheBytes)})`,
      );
    log(`memory of the engine's process, after gc (budget of the representation cache ${mib(engine.cacheBudget)}):`);
    line('cold (after the load):', m.cold);
    line(m.warmPages < m.totalPages ? `warm (${m.warmPages} pages read):` : 'warm (all read once):', m.warm);
    line(`after ${m.writes} writes, then a search:`, m.afterWrites);
    log(
      `  the warm pass read ${m.warmPages.toLocaleString('en-US')} of the ${m.totalPages.toLocaleString('en-US')} pages of 50 ` +
        `(every status, the whole date range; ${m.warmEvents.toLocaleString('en-US')} events, each as JSON and as objects` +
        `${m.warmPages < m.totalPages ? ', the pages spread evenly from the first to the last' : ''}) in ${fmtMs(m.readMs / 1000)} s; ` +
        `the ${m.writes.toLocaleString('en-US')} writes (9 updates to 1 create) took ${fmtMs(m.writeMs / 1000)} s`,
    );
  }
  step('whole run', runStart);
  log(`steps (wall time): ${steps.join('; ')}`);
  log(`sink ${engine?.sink ?? ''} ${sqlite?.sink ?? ''}`);
  if (mismatches > 0) log(`FAILED: ${mismatches} mismatch(es) between implementations`);
  if (failed > 0) log(`FAILED: ${failed} step(s) did not complete`);
  return mismatches + failed > 0 ? 1 : 0;
}
