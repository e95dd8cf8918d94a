import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  choosePath,
  differ,
  inMemoryHeapMb,
  scaleTable,
  spreadPages,
  table,
  type ScaleResult,
} from '../../bench/report.ts';
import { buildQueries, buildQueriesStreamed, NOW } from '../../bench/queries.ts';
import { generateCalendar } from '../../bench/generate.ts';

const GiB = 2 ** 30;

test('choosePath :: a million events stay in memory on 24 GiB, ten million take the large path', () => {
  const million = choosePath({ events: 1_000_000, recurring: false, forced: false, totalBytes: 24 * GiB });
  assert.is(million.large, false);
  assert.match(million.why, /needs a heap of about 10,048 MiB, 80 % of this machine's memory is 19,660 MiB/);
  const ten = choosePath({ events: 10_000_000, recurring: false, forced: false, totalBytes: 24 * GiB });
  assert.is(ten.large, true);
  assert.match(ten.why, /82,048 MiB.*the calendar is streamed instead/);
  // the same million on an 8 GiB machine does not fit
  assert.is(choosePath({ events: 1_000_000, recurring: false, forced: false, totalBytes: 8 * GiB }).large, true);
});

test('choosePath :: --large forces it; the recurring calendar has no large path', () => {
  const forced = choosePath({ events: 1000, recurring: false, forced: true, totalBytes: 24 * GiB });
  assert.is(forced.large, true);
  assert.match(forced.why, /^--large given/);
  assert.is(choosePath({ events: 10_000_000, recurring: true, forced: false, totalBytes: 24 * GiB }).large, false);
  assert.throws(
    () => choosePath({ events: 1000, recurring: true, forced: true, totalBytes: 24 * GiB }),
    /no --recurring calendar/,
  );
  assert.is(inMemoryHeapMb(100_000, false), 4096);
});

test('buildQueriesStreamed :: the same mix as buildQueries over the whole generated calendar', () => {
  for (const [events, seed] of [
    [50, 1],
    [5000, 1],
    [20000, 7],
  ]) {
    const held = buildQueries(generateCalendar({ events, seed, now: NOW }), seed);
    assert.equal(buildQueriesStreamed(events, seed), held, `${events} events, seed ${seed}`);
  }
});

test('differ :: status, total and page ids', () => {
  const a = { status: 200, total: 3, ids: [1, 2] };
  assert.is(differ(a, { ...a }), undefined);
  assert.is(differ(a, { ...a, total: 4 }), 'total 3 vs 4');
  assert.is(differ(a, { ...a, ids: [2, 1] }), 'page ids [1,2] vs [2,1]');
  assert.is(differ(a, { status: 400, total: 0, ids: [] }), 'status 200 vs 400');
  assert.is(differ({ status: 404, total: 9, ids: [] }, { status: 404, total: 0, ids: [] }), undefined);
});

test('table :: padded markdown, the first column left-aligned', () => {
  assert.is(
    table(['q', 'ms'], [['default', '1.5']]),
    ['| q       |  ms |', '|:--------|----:|', '| default | 1.5 |'].join('\n'),
  );
});

test('scaleTable :: one column a size, one row a figure', () => {
  const r = (events: number, importS: number): ScaleResult => ({
    events,
    fileGiB: events / 1e6,
    importS,
    importPeakRssMiB: 1500,
    snapshotGiB: 0.44,
    listeningS: 4.08,
    firstListS: 4.3,
    firstSearchMs: 4,
    rssAfterMixMiB: 965,
    rssPerEventB: 1012,
    busyMs: { n: 18080, p50: 0.31, p99: 4.59, max: 36.78 },
    settledMs: { n: 360, p50: 0.37, p99: 2.66, max: 9.1 },
    gcMaxMs: { startUp: 26, mix: 3.5 },
    notOk: importS > 100 ? ['organizer 400'] : [],
  });
  const lines = scaleTable([r(1_000_000, 29.9), r(10_000_000, 262)]).split('\n');
  assert.match(lines[0], /^\| +\| +1,000,000 events \| +10,000,000 events \|$/);
  const row = (name: string) =>
    lines
      .find((l) => l.startsWith(`| ${name}`))
      ?.split('|')
      .slice(2, -1)
      .map((c) => c.trim());
  assert.equal(row('import (s)'), ['29.9', '262']);
  assert.equal(row('RSS per event (B)'), ['1,012', '1,012']);
  assert.equal(row('lists settled, over HTTP: p50 / p99 / max (ms)'), ['0.37 / 2.66 / 9.1', '0.37 / 2.66 / 9.1']);
  assert.equal(row('longest GC pause'), ['26 / 3.5', '26 / 3.5']);
  assert.equal(row('queries answered other than 200'), ['none', 'organizer 400']);
});

test('spreadPages :: every page when they fit, else that many spread from the first to the last', () => {
  assert.equal(spreadPages(3, 10), [1, 2, 3]);
  assert.equal(spreadPages(0, 10), []);
  assert.equal(spreadPages(5, 0), []);
  assert.equal(spreadPages(100, 1), [1]);
  assert.equal(spreadPages(100, 2), [1, 100]);
  assert.equal(spreadPages(9, 5), [1, 3, 5, 7, 9]);
  // ten million events: 200,000 pages of 50, 2,000 read, about 100 apart, none twice
  const p = spreadPages(200_000, 2000);
  assert.is(p.length, 2000);
  assert.is(p[0], 1);
  assert.is(p[1999], 200_000);
  assert.is(new Set(p).size, 2000);
  for (let i = 1; i < p.length; i++) assert.ok(p[i] - p[i - 1] >= 100 && p[i] - p[i - 1] <= 101, `gap at ${i}`);
});

test.run();
