// Runs the uvu suite under a DST-observing zone and ends with the line CI reads:
// "N passed, M failed" (exits non-zero on any failure). Two uvu processes run at once: the
// cluster tests (test/cluster/: mostly waiting on NATS elections, leases and restarts) beside
// everything else, so that their waits overlap the rest's work. The other process's output is
// streamed; the cluster tests' output is held and printed after it, so neither interleaves.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import fs from 'node:fs';
import os from 'node:os';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pattern = process.argv[2] ?? '\\.test\\.ts$';
/** uvu names files by their path under test/ and matches the pattern case-insensitively */
const CLUSTER = '^cluster(/|$)';

// Every temporary store, user file and binary copy the tests make goes under one folder that is
// removed when the suite ends (os.tmpdir() follows TMPDIR, in child processes too).
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'calendar-engine-test-'));

interface Outcome {
  passed: number;
  failed: number;
  /** what the process wrote, when it was held back */
  held: string;
}

/** One uvu process over the test files matching `pattern` whose names `ignore` does not match. */
function runUvu(ignore: string, stream: boolean): Promise<Outcome> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'node_modules/uvu/bin.js'), 'test', pattern, '--ignore', ignore, '--no-color'],
    { cwd: root, env: { ...process.env, TMPDIR: tmp, TZ: 'America/New_York', FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    out += text;
    if (stream) process.stdout.write(text);
  });
  return new Promise((resolve) => {
    child.on('close', (code) => {
      const clean = out.replace(/\x1b\[[0-9;]*m/g, '');
      const total = Number(/Total:\s+(\d+)/.exec(clean)?.[1] ?? NaN);
      const passed = Number(/Passed:\s+(\d+)/.exec(clean)?.[1] ?? NaN);
      const skipped = Number(/Skipped:\s+(\d+)/.exec(clean)?.[1] ?? 0);
      const held = stream ? '' : out;
      // no summary: the process died before the end (a crash, a test that exits): one failure
      if (Number.isNaN(total) || Number.isNaN(passed)) return resolve({ passed: 0, failed: 1, held });
      // a non-zero exit with every test passed (an error after the run) also counts as one failure
      const failed = total - passed - skipped + (code !== 0 && total === passed + skipped ? 1 : 0);
      resolve({ passed, failed, held });
    });
  });
}

/** The names of the test files uvu would run (as uvu walks test/), to skip an empty process. */
function testFiles(dir = path.join(root, 'test'), prefix = ''): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const name = prefix + e.name;
    if (e.isDirectory()) out.push(...testFiles(path.join(dir, e.name), `${name}/`));
    else if (new RegExp(pattern, 'i').test(name)) out.push(name);
  }
  return out;
}

const files = testFiles();
const clusterRe = new RegExp(CLUSTER, 'i');
const runs: Array<Promise<Outcome>> = [];
// the cluster files alone (every name outside test/cluster/ ignored), and the rest
if (files.some((f) => clusterRe.test(f))) runs.push(runUvu(`^(?!cluster(/|$))`, false));
if (files.length === 0 || files.some((f) => !clusterRe.test(f))) runs.unshift(runUvu(CLUSTER, true));

const outcomes = await Promise.all(runs);
fs.rmSync(tmp, { recursive: true, force: true });
for (const o of outcomes) process.stdout.write(o.held);
const passed = outcomes.reduce((n, o) => n + o.passed, 0);
const failed = outcomes.reduce((n, o) => n + o.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
