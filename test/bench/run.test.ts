import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const RUN = fileURLToPath(new URL('../../bench/run.ts', import.meta.url));

// The whole benchmark on a small calendar: the engine's process loads the snapshot, answers the
// cross-check and times every query; the table has one row per query with every column filled.
test('bench/run.ts :: a small run cross-checks and times the engine in its own process', () => {
  const r = spawnSync(
    process.execPath,
    [
      '--expose-gc',
      '--import',
      'tsx',
      RUN,
      '--events',
      '600',
      '--runs',
      '3',
      '--min-runs',
      '1',
      '--warmup',
      '1',
      '--warmup-ms',
      '0',
      '--budget-ms',
      '20',
      '--only',
      'default,include,children,venue',
    ],
    { encoding: 'utf8', timeout: 60_000 },
  );
  assert.is(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /cross-check: 4 queries, every implementation agrees on total and page ids/);
  assert.match(r.stdout, /engine and floor timed in the engine's own process/);
  for (const name of ['default', 'include', 'children', 'venue']) {
    const row = r.stdout.split('\n').find((l) => l.startsWith(`| ${name} `));
    assert.ok(row, `a row for ${name}`);
    const cells = row!
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
    assert.is(cells.length, 11);
    // engine median and p99, floor median and engine/floor are measured, not '-'
    for (const i of [3, 4, 7, 10]) assert.ok(/^\d/.test(cells[i]), `${name}: column ${i} is ${cells[i]}`);
  }
  assert.match(
    r.stdout,
    /snapshot load \(fresh process: read \+ sha256 \+ JSON\.parse \+ loadSnapshotChunks\): [\d.]+ ms/,
  );
  assert.match(r.stdout, /engine loaded from its snapshot: [\d,]+\)/);
});

test.run();
