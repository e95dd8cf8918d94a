import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { quantile, summarize, timeCase } from '../../bench/stats.ts';

/** a case that takes `ms` of wall time per call and records when each call started */
function busyCase(ms: number): { fn: () => number; starts: number[] } {
  const starts: number[] = [];
  return {
    starts,
    fn: () => {
      const t = performance.now();
      starts.push(t);
      while (performance.now() - t < ms);
      return starts.length;
    },
  };
}

test('timeCase :: warm-up takes the given calls when warmupMs is 0', async () => {
  const c = busyCase(0);
  const r = await timeCase(c.fn, { warmup: 5, warmupMs: 0, runs: 7, minRuns: 1, budgetMs: 1000 });
  assert.is(r.samples, 7);
  assert.is(c.starts.length, 5 + 7);
});

test('timeCase :: warm-up goes on for warmupMs when the calls are done sooner', async () => {
  const c = busyCase(1);
  const r = await timeCase(c.fn, { warmup: 3, warmupMs: 30, runs: 10, minRuns: 1, budgetMs: 1000 });
  assert.is(r.samples, 10);
  const warm = c.starts.length - r.samples;
  // more than the 3 calls asked for whenever they take less than 30 ms together (a loaded machine
  // can stretch three 1 ms calls past that); what must hold is the time below
  assert.ok(warm > 3 || c.starts[3] - c.starts[0] >= 30, `${warm} warm-up calls`);
  // the first timed call starts after the warm-up time
  assert.ok(c.starts[warm] - c.starts[0] >= 30, `timed calls began ${c.starts[warm] - c.starts[0]} ms in`);
  assert.ok(r.min >= 1, `min ${r.min} ms for a 1 ms case`);
});

test('timeCase :: a case slower than half the budget is warmed twice and sampled minRuns times', async () => {
  const c = busyCase(30);
  const r = await timeCase(c.fn, { warmup: 5, warmupMs: 1000, runs: 10, minRuns: 2, budgetMs: 40 });
  assert.is(r.samples, 2);
  assert.is(c.starts.length, 4);
});

test('summarize / quantile :: median and p99 interpolate between ranks', () => {
  const s = summarize([5, 1, 3, 2, 4]);
  assert.is(s.median, 3);
  assert.is(s.min, 1);
  assert.is(s.samples, 5);
  assert.is(quantile(Float64Array.from([0, 10]), 0.99), 9.9);
  assert.ok(Number.isNaN(quantile(new Float64Array(0), 0.5)));
});

test.run();
