// Runs the whole uvu suite in a child process under a DST-observing zone, passes its output
// through, and ends with the line CI reads: "N passed, M failed". Exits non-zero on failure.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import fs from 'node:fs';
import os from 'node:os';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pattern = process.argv[2] ?? '\\.test\\.ts$';
// Every temporary store, user file and binary copy the tests make goes under one folder that is
// removed when the suite ends (os.tmpdir() follows TMPDIR, in child processes too).
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'calendar-engine-test-'));
const cleanTmp = () => fs.rmSync(tmp, { recursive: true, force: true });
const child = spawn(
  process.execPath,
  ['--import', 'tsx', path.join(root, 'node_modules/uvu/bin.js'), 'test', pattern, '--no-color'],
  { cwd: root, env: { ...process.env, TMPDIR: tmp, TZ: 'America/New_York', FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'inherit'] },
);

let out = '';
child.stdout.on('data', (chunk: Buffer) => {
  const text = chunk.toString();
  out += text;
  process.stdout.write(text);
});

child.on('close', (code) => {
  cleanTmp();
  const clean = out.replace(/\x1b\[[0-9;]*m/g, '');
  const total = Number(/Total:\s+(\d+)/.exec(clean)?.[1] ?? NaN);
  const passed = Number(/Passed:\s+(\d+)/.exec(clean)?.[1] ?? NaN);
  const skipped = Number(/Skipped:\s+(\d+)/.exec(clean)?.[1] ?? 0);
  if (Number.isNaN(total) || Number.isNaN(passed)) {
    console.log(`0 passed, 1 failed`);
    process.exit(1);
  }
  const failed = total - passed - skipped + (code !== 0 && total === passed + skipped ? 1 : 0);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 || code !== 0 ? 1 : 0);
});
