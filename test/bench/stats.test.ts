import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { quantile, summarize, timeCase, withinCap } from '../../bench/stats.ts';

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

test('timeCase :: capMs bounds a slow case: one warm-up call, then samples while the next fits', async () => {
  // 30 ms calls, a cap of 100 ms: the warm-up stops after one call (past a quarter of the cap),
  // then samples end when the next one would pass the cap: about 3 calls in all, not the 2 + 5
  // that minRuns would ask for
  const c = busyCase(30);
  const opts = { warmup: 5, warmupMs: 1000, runs: 10, minRuns: 5, budgetMs: 40, capMs: 100 };
  const t = performance.now();
  const r = await timeCase(c.fn, opts);
  const took = performance.now() - t;
  assert.ok(r.samples >= 1 && r.samples < 5, `${r.samples} samples`);
  assert.is(c.starts.length, r.samples + 1, 'one warm-up call');
  // within the cap but for the sample that ran long (a loaded machine stretches a call)
  assert.ok(took <= 100 + 2 * r.p99, `took ${took} ms`);
});

test('timeCase :: a cross-check call past a quarter of capMs stands for the warm-up', async () => {
  const c = busyCase(30);
  const r = await timeCase(c.fn, { warmup: 5, warmupMs: 1000, runs: 10, minRuns: 5, budgetMs: 40, capMs: 100 }, 30);
  assert.is(c.starts.length, r.samples, 'no warm-up call');
  assert.ok(r.samples >= 1 && r.samples <= 3, `${r.samples} samples`);
  // a quick call outside does not: the case is warmed up as usual
  const q = busyCase(0);
  const rq = await timeCase(q.fn, { warmup: 4, warmupMs: 0, runs: 6, minRuns: 1, budgetMs: 1000, capMs: 10_000 }, 1);
  assert.is(q.starts.length, 4 + 6);
  assert.is(rq.samples, 6);
});

test('timeCase :: a case slower than capMs still has one sample', async () => {
  const c = busyCase(30);
  const r = await timeCase(c.fn, { warmup: 5, warmupMs: 0, runs: 10, minRuns: 5, budgetMs: 10, capMs: 20 });
  assert.is(r.samples, 1);
  assert.is(c.starts.length, 2);
});

test('withinCap :: the next sample, taken as long as the last, must end within the cap', () => {
  const o = { warmup: 0, warmupMs: 0, runs: 1, minRuns: 1, budgetMs: 0 };
  assert.ok(withinCap(o, 0, 1e9, 1e9), 'no cap');
  assert.ok(withinCap({ ...o, capMs: 100 }, 0, 60, 40));
  assert.not.ok(withinCap({ ...o, capMs: 100 }, 0, 61, 40));
  assert.not.ok(withinCap({ ...o, capMs: 100 }, 10, 90, 25));
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
