// `npm run bench -- --import [--events N] [--seed S] [--rounds R] [--dir DIR] [--no-sqlite]
// [--workers W,W...]`: the import of a file, as a user runs it, against SQLite bulk-inserting the
// same file. `--workers 0,2`: the engine's runs once with each worker count (CALENDAR_IMPORT_WORKERS)
// in each round, reported separately; `--no-sqlite`: the engine's runs only.
//
//   engine  `node dist/cli/main.js import FILE --data DIR` into an empty store: read the
//           file as a stream, validate every record, load the calendar, write its snapshot
//           (durable: datasync'ed) — the command's whole work, process start to exit (dist/ is
//           built first when older than a source)
//   sqlite  `node --import tsx bench/import-sqlite.ts FILE DB`: the same file through the same
//           streaming reader into an on-disk better-sqlite3 database with the query benchmark's
//           SQLite schema and indexes, in one transaction (durable at COMMIT), process start to exit
//
// Each round runs both, alternating, each in a fresh process under /usr/bin/time (peak RSS).
// Then `bench/import-loaded.ts` opens the store the engine made as `serve` does and reports the
// RSS of the loaded calendar: the import's peak is compared with it. The file (the export layout,
// bench/generate.ts data) is kept in DIR (default: the system's temp folder) for later runs.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importFile, DEFAULT_IMPORT_DIR } from './import-file.ts';
import { median } from './stats.ts';
import { DIST_MAIN, ensureDist } from '../test/helpers/dist.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TIME = '/usr/bin/time';

interface Run {
  ms: number;
  peakKb: number;
  userS: number;
  sysS: number;
}

/** Runs a command under /usr/bin/time; wall time measured here (spawn to exit). */
function timed(cmd: string[], what: string, env?: NodeJS.ProcessEnv): Run {
  const hasTime = fs.existsSync(TIME);
  const argv = hasTime ? [TIME, '-f', 'TIME %M %U %S', ...cmd] : cmd;
  const t0 = performance.now();
  const r = spawnSync(argv[0], argv.slice(1), {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
    cwd: ROOT,
    env: env ?? process.env,
  });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${what} failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  const m = /TIME (\d+) ([\d.]+) ([\d.]+)\s*$/.exec(r.stderr);
  return { ms, peakKb: m ? Number(m[1]) : NaN, userS: m ? Number(m[2]) : NaN, sysS: m ? Number(m[3]) : NaN };
}

const mib = (kb: number) => `${(kb / 1024).toFixed(0)} MiB`;
const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export function runImportBench(opts: {
  events: number;
  seed: number;
  rounds: number;
  dir?: string;
  log: (s?: string) => void;
  sqlite?: boolean;
  workers?: (number | undefined)[];
}): void {
  const { events, seed, rounds, log } = opts;
  const withSqlite = opts.sqlite ?? true,
    counts = opts.workers ?? [undefined];
  const label = (w: number | undefined) => (w === undefined ? 'engine' : `engine w=${w}`);
  const dir = opts.dir ?? DEFAULT_IMPORT_DIR;
  const t = performance.now();
  const { file, made } = importFile(events, seed, dir);
  const bytes = fs.statSync(file).size;
  log(
    `import bench: ${events.toLocaleString('en-US')} events, seed ${seed}, ${rounds} round(s); node ${process.version}, ` +
      `${os.cpus()[0]?.model ?? 'cpu'} x${os.cpus().length}`,
  );
  log(
    `file ${file}: ${(bytes / 2 ** 20).toFixed(0)} MiB, ${made ? `written in ${sec(performance.now() - t)}` : 'reused'}`,
  );
  // the package's program (dist/cli/main.js, plain node), built first when older than a source
  ensureDist();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'calendar-engine-import-bench-'));
  const store = path.join(work, 'store'),
    db = path.join(work, 'sqlite.db');
  const byCount = counts.map(() => [] as Run[]),
    sqlite: Run[] = [];
  const engine = byCount[counts.length - 1];
  try {
    for (let round = 0; round < rounds; round++) {
      const engineFirst = round % 2 === 0;
      const runs = [...counts.map((w, i) => ({ w, i })), ...(withSqlite ? [undefined] : [])];
      for (const run of engineFirst ? runs : runs.reverse()) {
        let r: Run;
        if (run !== undefined) {
          fs.rmSync(store, { recursive: true, force: true });
          const env = run.w === undefined ? process.env : { ...process.env, CALENDAR_IMPORT_WORKERS: String(run.w) };
          r = timed([process.execPath, DIST_MAIN, 'import', file, '--data', store], 'calendar-engine import', env);
          byCount[run.i].push(r);
        } else {
          for (const f of [db, `${db}-journal`]) fs.rmSync(f, { force: true });
          r = timed(
            [process.execPath, '--import', 'tsx', path.join(ROOT, 'bench/import-sqlite.ts'), file, db],
            'the SQLite import',
          );
          sqlite.push(r);
        }
        log(
          `  round ${round + 1} ${(run ? label(run.w) : 'sqlite').padEnd(12)} ${sec(r.ms).padStart(8)}  peak RSS ${mib(r.peakKb).padStart(9)}  (user ${r.userS} s, sys ${r.sysS} s)  load ${os.loadavg()[0].toFixed(2)}`,
        );
      }
    }
    // the store of the engine's last run: its calendar, loaded as serve loads it
    const loaded = spawnSync(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', path.join(ROOT, 'bench/import-loaded.ts'), store],
      { encoding: 'utf8', cwd: ROOT },
    );
    if (loaded.status !== 0) throw new Error(`bench/import-loaded.ts failed:\n${loaded.stderr}`);
    const mem = JSON.parse(loaded.stdout.trim().split('\n').pop()!) as {
      events: number;
      loaded: { rss: number; heap: number };
      searched: { rss: number; heap: number };
    };
    if (mem.events !== events) throw new Error(`the store holds ${mem.events} events, expected ${events}`);
    const snapshotBytes = fs
      .readdirSync(store)
      .filter((f) => f.endsWith('.jsonl') && f.startsWith('snapshot.'))
      .reduce((n, f) => n + fs.statSync(path.join(store, f)).size, 0);

    const e = median(engine.map((r) => r.ms)),
      s = withSqlite ? median(sqlite.map((r) => r.ms)) : NaN;
    const ePeak = median(engine.map((r) => r.peakKb)),
      sPeak = withSqlite ? median(sqlite.map((r) => r.peakKb)) : NaN;
    const loadedKb = mem.loaded.rss / 1024;
    log();
    log('| import of the file, process start to exit | median | min | max | peak RSS (median) |');
    log('|:--|--:|--:|--:|--:|');
    const row = (name: string, runs: Run[]) =>
      log(
        `| ${name} | ${sec(median(runs.map((r) => r.ms)))} | ${sec(Math.min(...runs.map((r) => r.ms)))} | ` +
          `${sec(Math.max(...runs.map((r) => r.ms)))} | ${mib(median(runs.map((r) => r.peakKb)))} |`,
      );
    counts.forEach((w, i) => {
      row(
        `${w === undefined ? 'engine' : `engine, ${w} workers`}: \`calendar-engine import\` (validate, load, snapshot)`,
        byCount[i],
      );
    });
    if (withSqlite) row('sqlite: same reader, insert + indexes, one transaction', sqlite);
    log();
    if (withSqlite)
      log(
        `sqlite / engine (medians): ${(s / e).toFixed(2)}x   (${rounds} rounds each; engine ${(events / (e / 1000)).toFixed(0)} events/s)`,
      );
    else log(`sqlite skipped (--no-sqlite); engine ${(events / (e / 1000)).toFixed(0)} events/s`);
    log(
      `the calendar made: ${mem.events} events, snapshot ${(snapshotBytes / 2 ** 20).toFixed(0)} MiB; loaded as serve loads it: RSS ${mib(loadedKb)} ` +
        `(heap + array buffers ${mib(mem.loaded.heap / 1024)}), with its search index built: RSS ${mib(mem.searched.rss / 1024)}`,
    );
    log(
      `import peak RSS / loaded calendar RSS: ${(ePeak / loadedKb).toFixed(2)}x${withSqlite ? `   (sqlite's peak: ${mib(sPeak)})` : ''}`,
    );
    log(
      `load average at the end: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(', ')}`,
    );
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
