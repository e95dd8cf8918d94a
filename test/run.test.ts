// The test runner (test/run.ts) over the files in test/fixtures/runner/ (named .fixture.ts, so that
// no uvu pattern for tests picks them up): a file that leaves a
// server and a timer running after its tests fails, named with what it left, and does not hold
// the run up; a file whose process ends in the middle fails and the rest still run; the last
// line counts both.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

test('a lingering file and a file whose process ends fail; the others pass', () => {
  const t0 = Date.now();
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'test/run.ts', '\\.fixture\\.ts$', '--dir', 'test/fixtures/runner', '--jobs', '1'],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, TEST_LINGER_MS: '300' }, timeout: 60_000 },
  );
  const out = r.stdout;
  assert.is(r.status, 1, out + r.stderr);
  const lines = out.trim().split('\n');
  assert.is(lines.at(-1), '3 passed, 2 failed', out);
  assert.match(out, /FAIL {2}lingers\.fixture\.ts: left running after its tests: (?=.*TCPServerWrap)(?=.*Timeout)/);
  assert.match(out, /FAIL {2}exits\.fixture\.ts: its process ended before its tests did/);
  assert.not.match(out, /passes\.fixture\.ts: /, 'the clean file is not named as failed');
  assert.ok(Date.now() - t0 < 30_000, `the run took ${Date.now() - t0} ms: the leak held it up`);
});

test.run();
