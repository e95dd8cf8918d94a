import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

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

// The large path forced on a small calendar: the streamed import file, calendar-engine import,
// the engine's process on that store, SQLite built on disk and answering in its own process,
// every answer cross-checked; a second run reuses the SQLite database from the first.
test('bench/run.ts --large :: the streamed path cross-checks SQLite on disk against the engine', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-large-'));
  const run = () =>
    spawnSync(
      process.execPath,
      [
        '--expose-gc',
        '--import',
        'tsx',
        RUN,
        '--events',
        '1500',
        '--large',
        '--dir',
        dir,
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
        '--writes',
        '50',
        '--sqlite-cache-mb',
        '8',
        '--warm-pages',
        '5',
        '--sqlite-cap-ms',
        '5000',
        '--only',
        'default,include,children,venue',
      ],
      { encoding: 'utf8', timeout: 180_000 },
    );
  try {
    const r = run();
    assert.is(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /large path: --large given/);
    assert.match(r.stdout, /arrays baseline and plain-object bytes skipped/);
    assert.match(r.stdout, /cross-check: 4 queries, SQLite and the engine agree on total and page ids/);
    for (const name of ['default', 'include', 'children', 'venue']) {
      const row = r.stdout.split('\n').find((l) => l.startsWith(`| ${name} `));
      assert.ok(row, `a row for ${name}`);
      const cells = row!
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim());
      assert.is(cells.length, 11);
      // engine median and p99, sqlite median, p99 and samples, floor median, the ratios: measured
      for (const i of [3, 4, 5, 6, 7, 8, 9, 10]) assert.ok(/^\d/.test(cells[i]), `${name}: column ${i} is ${cells[i]}`);
    }
    assert.match(r.stdout, /engine import: +[\d.]+ s, peak RSS [\d.]+ MiB/);
    assert.match(r.stdout, /sqlite build: +[\d.]+ s, file [\d.]+ MiB/);
    assert.match(
      r.stdout,
      /timing the mix in bench\/sqlite-child\.ts \(page cache 8 MiB; each case at most 5\.00 s, warm-up included\)/,
    );
    assert.match(r.stdout, /sqlite process: +opened in [\d.]+ ms; RSS after the open [\d.]+ MiB/);
    assert.match(r.stdout, /longest pause [\d.]+ ms, \d+ collections/);
    assert.match(r.stdout, /after 50 writes, then a search: +[\d,]+ bytes\/event/);
    // the warm pass: 5 pages spread over the 30 of the whole calendar (1,500 events, 50 a page)
    assert.match(r.stdout, /warm \(5 pages read\): +[\d,]+ bytes\/event/);
    assert.match(
      r.stdout,
      /the warm pass read 5 of the 30 pages of 50 \(every status, the whole date range; [\d,]+ events, each as JSON and as objects, the pages spread evenly from the first to the last\) in [\d.]+ s; the 50 writes/,
    );
    assert.match(
      r.stdout,
      /steps \(wall time\): (sqlite build [\d.]+ s; )?engine import [\d.]+ s; engine process [\d.]+ s; \(of it: load/,
    );
    assert.ok(fs.existsSync(path.join(dir, 'sqlite', 'sqlite-1500-1-v1.db.json')));
    assert.not.ok(fs.existsSync(path.join(dir, 'store-1500-1')), 'the store is removed without --keep');

    const again = run();
    assert.is(again.status, 0, again.stdout + again.stderr);
    assert.match(
      again.stdout,
      /sqlite: database .*sqlite-1500-1-v1\.db kept from an earlier run \(built then in [\d.]+ s\)/,
    );
    assert.match(again.stdout, /sqlite build: +[\d.]+ s \(\*: by an earlier run, kept in its cache\)/);
    assert.match(again.stdout, /cross-check: 4 queries, SQLite and the engine agree/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
