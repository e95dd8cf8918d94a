// Runs the uvu suite under a DST-observing zone and ends with the line CI reads:
// "N passed, M failed" (exits non-zero on any failure).
//
//   node --import tsx test/run.ts [PATTERN] [--jobs N] [--dir DIR] [--save-durations]
//
// PATTERN is a regex over the file names under DIR (default test/; case-insensitive, as uvu's).
// The files run in N worker processes at once (test/helpers/run-worker.ts; default TEST_JOBS or
// 3: many files mostly wait on other processes: NATS, Chromium, npm, killed writers), each worker
// taking the next file as it finishes one, longest first by the times in test/durations.json
// (--save-durations rewrites it from this run), so the slow files start at once and the short
// ones fill in around them. A file's output is held and printed whole when it ends.
// A file fails when one of its tests fails, when it cannot be loaded, when its worker dies while
// running it, and when it leaves something holding the event loop (a server, socket, ref'd timer,
// child process or watcher) TEST_LINGER_MS (default 5000) after its tests: named, with what it left.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import fs from 'node:fs';
import os from 'node:os';
import readline from 'node:readline';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WORKER = path.join(root, 'test/helpers/run-worker.ts');
const DURATIONS = path.join(root, 'test/durations.json');
/** begins the line a worker writes after each file (test/helpers/run-worker.ts) */
const RESULT_MARK = '\u001etest-file-result ';

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const positional = process.argv
  .slice(2)
  .filter((a, i, all) => !a.startsWith('--') && !/^--(jobs|dir)$/.test(all[i - 1] ?? ''));
const pattern = new RegExp(positional[0] ?? '\\.test\\.ts$', 'i');
const testDir = path.resolve(root, option('--dir') ?? 'test');
const jobs = Math.max(1, Number(option('--jobs') ?? process.env.TEST_JOBS ?? 3) || 3);
/** a file that runs longer than this is stopped and fails (TEST_FILE_TIMEOUT_MS) */
const FILE_TIMEOUT_MS = Number(process.env.TEST_FILE_TIMEOUT_MS ?? 600_000);
/** never test files, whatever the pattern: the child programs tests spawn, and shared helpers */
const NOT_TESTS = /^(fixtures|helpers)$/;
/** files that run the built package (dist/): they wait for one build made before them */
const USES_DIST = /\bensureDist\(|scripts\/build(-binary\.ts|\.mjs)/;

// Every temporary store, user file and binary copy the tests make goes under one folder that is
// removed when the suite ends (os.tmpdir() follows TMPDIR, in child processes too).
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'calendar-engine-test-'));
// but tsx's cache of compiled sources (TMPDIR/tsx-UID, keyed by content) is the usual one, linked
// in: every worker and every child process a test starts with tsx compiles nothing seen before
try {
  const cache = `tsx-${os.userInfo().uid}`;
  fs.mkdirSync(path.join(os.tmpdir(), cache), { recursive: true, mode: 0o700 });
  fs.symlinkSync(path.join(os.tmpdir(), cache), path.join(tmp, cache));
} catch {
  /* no shared cache: each run compiles afresh */
}

/** The names of the test files under `dir` that match the pattern, as uvu walks it. */
function testFiles(dir = testDir, prefix = ''): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const name = prefix + e.name;
    if (NOT_TESTS.test(name) || e.name === 'node_modules' || e.name.startsWith('.')) continue;
    if (e.isDirectory()) out.push(...testFiles(path.join(dir, e.name), `${name}/`));
    else if (/\.[mc]?[jt]sx?$/.test(name) && pattern.test(name)) out.push(name);
  }
  return out;
}

/**
 * The checkout's untracked files that git does not ignore (undefined outside a git checkout): a
 * test that writes into the checkout instead of under os.tmpdir() leaves new ones behind.
 */
function untracked(): Set<string> | undefined {
  const r = spawnSync('git', ['status', '--porcelain', '-z', '--untracked-files=all'], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0 || r.error) return undefined;
  return new Set(
    r.stdout
      .split('\0')
      .filter((e) => e.startsWith('?? '))
      .map((e) => e.slice(3)),
  );
}

interface FileResult {
  file: string;
  total: number;
  passed: number;
  skipped: number;
  failed: number;
  /** wall time of its tests, and its worker's CPU time meanwhile (not its child processes') */
  ms: number;
  cpuMs: number;
  /** what it left holding the event loop */
  lingering: string[];
  /** why it failed beyond its tests, if it did */
  problem?: string;
}

const known: Record<string, number> = fs.existsSync(DURATIONS) ? JSON.parse(fs.readFileSync(DURATIONS, 'utf8')) : {};
/** a file not timed yet is taken as a short one */
const cost = (f: string) => known[f] ?? 1_000;

const untrackedBefore = untracked();
const files = testFiles().sort((a, b) => cost(b) - cost(a) || a.localeCompare(b));
const queue = [...files];
const results: FileResult[] = [];
const started = Date.now();

// the files that run dist/ wait for one build (a no-op when dist/ is newer than every source),
// which runs beside the first files instead of in each of them, where they would race
let distReady = !files.some((f) => USES_DIST.test(fs.readFileSync(path.join(testDir, f), 'utf8')));
const distWaiters: Array<() => void> = [];
if (!distReady) {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const build = spawn(process.execPath, [path.join(root, 'scripts/build.mjs'), '--if-stale'], {
    cwd: root,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  build.on('exit', () => {
    distReady = true;
    for (const wake of distWaiters.splice(0)) wake();
  });
}

/** The next file for an idle worker: the longest left that can run now, or undefined when none is left. */
async function nextFile(): Promise<string | undefined> {
  for (;;) {
    const i = queue.findIndex((f) => distReady || !USES_DIST.test(fs.readFileSync(path.join(testDir, f), 'utf8')));
    if (i >= 0) return queue.splice(i, 1)[0];
    if (queue.length === 0) return undefined;
    await new Promise<void>((wake) => distWaiters.push(wake));
  }
}

function record(r: FileResult, output: string): void {
  results.push(r);
  process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
  if (r.problem) process.stdout.write(`\n  FAIL  ${r.file}: ${r.problem}\n`);
}

/** One worker process: runs files from the queue until it is empty. */
async function worker(): Promise<void> {
  let file = await nextFile();
  while (file !== undefined) {
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', WORKER], {
      cwd: root,
      env: { ...process.env, TMPDIR: tmp, TZ: 'America/New_York', FORCE_COLOR: '0', TEST_DIR: testDir },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    const lines = readline.createInterface({ input: child.stdout! });
    let output = '';
    let current: string | undefined = file;
    let timer: NodeJS.Timeout | undefined;
    let timedOut = false;
    const give = (f: string) => {
      current = f;
      output = '';
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, FILE_TIMEOUT_MS);
      child.stdin!.write(`${f}\n`);
    };
    const done = new Promise<void>((resolve) => {
      lines.on('line', (line) => {
        const at = line.indexOf(RESULT_MARK);
        if (at < 0) {
          output += `${line}\n`;
          return;
        }
        if (at > 0) output += `${line.slice(0, at)}\n`;
        clearTimeout(timer);
        const r = JSON.parse(line.slice(at + RESULT_MARK.length)) as FileResult;
        if (r.lingering.length > 0)
          r.problem = `left running after its tests: ${r.lingering.join(', ')} (TEST_TRACE_HANDLES=1 shows where they were made)`;
        record(r, output);
        current = undefined;
        void nextFile().then((f) => {
          if (f === undefined) {
            child.stdin!.end();
            resolve();
          } else give(f);
        });
      });
      lines.on('close', resolve);
    });
    give(file);
    await done;
    await exited;
    clearTimeout(timer);
    file = undefined;
    if (current !== undefined) {
      // the worker died in the middle of a file: that file fails; the rest go to a new worker
      const why = timedOut
        ? `stopped: still running after ${FILE_TIMEOUT_MS} ms (TEST_FILE_TIMEOUT_MS)`
        : `its process ended before its tests did (exit code ${child.exitCode}, signal ${child.signalCode})`;
      record(
        { file: current, total: 0, passed: 0, skipped: 0, failed: 0, ms: 0, cpuMs: 0, lingering: [], problem: why },
        output,
      );
      file = await nextFile();
    }
  }
}

await Promise.all(Array.from({ length: Math.min(jobs, Math.max(1, files.length)) }, () => worker()));
const wall = Date.now() - started;
fs.rmSync(tmp, { recursive: true, force: true });

const passed = results.reduce((n, r) => n + r.passed, 0);
const failing = results.filter((r) => r.failed > 0 || r.problem);
let failed = results.reduce((n, r) => n + r.failed + (r.problem ? 1 : 0), 0);
if (files.length === 0) {
  process.stdout.write(`\n  FAIL  no test file under ${path.relative(root, testDir)} matches ${pattern}\n`);
  failed++;
}
// the suite must leave the checkout as it found it: new untracked files count as one failure
const left = untrackedBefore && [...(untracked() ?? [])].filter((f) => !untrackedBefore.has(f));
if (left && left.length > 0) {
  process.stdout.write(`\n  FAIL  the suite left new untracked files in the checkout: ${left.join(', ')}\n`);
  failed++;
}

const slowest = [...results].sort((a, b) => b.ms - a.ms).slice(0, 10);
process.stdout.write(
  `\n${files.length} files in ${(wall / 1000).toFixed(1)} s with ${jobs} workers; the slowest (wall s, worker CPU s):\n`,
);
for (const r of slowest)
  process.stdout.write(
    `  ${(r.ms / 1000).toFixed(1).padStart(6)} ${(r.cpuMs / 1000).toFixed(1).padStart(6)}  ${r.file}\n`,
  );
if (failing.length > 0) {
  process.stdout.write('\nFailed files:\n');
  for (const r of failing)
    process.stdout.write(`  ${r.file}${r.problem ? `: ${r.problem}` : `: ${r.failed} failed`}\n`);
}
if (process.argv.includes('--save-durations') && testDir === path.join(root, 'test')) {
  const next = { ...known };
  for (const r of results) next[r.file] = Math.round(r.ms);
  const sorted = Object.fromEntries(Object.entries(next).sort(([a], [b]) => a.localeCompare(b)));
  fs.writeFileSync(DURATIONS, `${JSON.stringify(sorted, null, 2)}\n`);
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
