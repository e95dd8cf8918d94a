// Measurement helpers shared by the benchmark programs: a seeded PRNG so every run sees the
// same data, a sink so the optimiser cannot drop the measured work, and a timing loop that
// warms up, then repeats a case until it has enough samples or its time budget is spent.

/** mulberry32: a tiny seeded PRNG (same as flatbush's bench.js); returns floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every measured result is folded in here and printed at the end, so no call is dead code. */
export const sink = { value: 0 };

/** Fold a result (a JSON text, a number) into the sink. */
export function consume(x: unknown): void {
  if (typeof x === 'string') sink.value = (sink.value + x.length + x.charCodeAt(x.length >> 1)) | 0;
  else if (typeof x === 'number') sink.value = (sink.value + x) | 0;
  else if (x !== null && x !== undefined) sink.value = (sink.value + 1) | 0;
}

export interface Timing {
  /** milliseconds */
  median: number;
  p99: number;
  min: number;
  /** number of timed samples */
  samples: number;
}

export interface TimingOptions {
  /** untimed calls before sampling, at least */
  warmup: number;
  /**
   * untimed calls go on until this many ms have passed too: a fast case needs thousands of calls
   * before V8 has optimised its code, and a few would time the unoptimised tiers
   */
  warmupMs: number;
  /** wanted number of timed samples */
  runs: number;
  /** stop sampling after this many ms (but take at least minRuns samples) */
  budgetMs: number;
  minRuns: number;
  /**
   * the most one case may take, warm-up included (undefined: no such bound), for cases that take
   * seconds a call (SQLite on disk at ten million events): the warm-up stops after its first call
   * once a quarter of this has passed, and sampling stops, once there is one sample, before a
   * sample that would end past it (the last sample's time taken as the next one's); a case
   * then has fewer samples than minRuns, and its Timing says how many
   */
  capMs?: number;
}

/** whether a case begun at `start` may take another sample of about `lastMs` within opts.capMs */
export function withinCap(opts: TimingOptions, start: number, now: number, lastMs: number): boolean {
  return opts.capMs === undefined || now - start + lastMs <= opts.capMs;
}

/** Untimed calls of `fn`: `warmup` calls and `warmupMs`, whichever is longer; two calls for a
 *  case slower than half the budget; one for a case slower than a quarter of opts.capMs; none
 *  when `warmedMs` (a call of the same case just made, as a cross-check's) passed that quarter. */
async function warmUp(fn: () => unknown, opts: TimingOptions, warmedMs?: number): Promise<void> {
  const quarter = opts.capMs === undefined ? Infinity : opts.capMs / 4;
  if (warmedMs !== undefined && warmedMs > quarter) return;
  const warmStart = performance.now();
  for (let i = 0; ; i++) {
    const elapsed = performance.now() - warmStart;
    if (i >= opts.warmup && elapsed >= opts.warmupMs) break;
    // a slow case (a full scan over a million rows) needs no ten warm-up calls
    if (i >= 2 && elapsed > opts.budgetMs / 2) break;
    if (i >= 1 && elapsed > quarter) break;
    consume(await fn());
  }
}

/**
 * Time `fn` (sync or async): warm-up (`warmup` calls and `warmupMs`, whichever is longer; two
 * calls for a case slower than half the budget), then up to `runs` samples within `budgetMs`;
 * with opts.capMs, the whole case within that (see TimingOptions.capMs). `warmedMs`: how long a
 * call of the same case just made outside took (it stands for the warm-up when past capMs / 4).
 */
export async function timeCase(fn: () => unknown, opts: TimingOptions, warmedMs?: number): Promise<Timing> {
  const caseStart = performance.now();
  await warmUp(fn, opts, warmedMs);
  const samples: number[] = [];
  const start = performance.now();
  while (samples.length < opts.runs) {
    const t0 = performance.now();
    const r = fn();
    const v = r instanceof Promise ? await r : r;
    const t1 = performance.now();
    consume(v);
    samples.push(t1 - t0);
    if (samples.length >= opts.minRuns && t1 - start > opts.budgetMs) break;
    if (!withinCap(opts, caseStart, t1, t1 - t0)) break;
  }
  return summarize(samples);
}

/**
 * Time several cases in turn, in batches of `batch` calls each (a, a, …, b, b, …, a, a, …), so
 * that what the machine does meanwhile falls on all of them alike: their ratios are then far
 * steadier than those of cases timed one after the other. Each case is warmed up as timeCase
 * does; sampling stops when every case has `runs` samples, or past `budgetMs` per case once each
 * has `minRuns`. A batch's first call may pay for what the previous case left (an event's
 * render settled on its first read from the cache): the median leaves such calls out.
 */
export async function timeInterleaved(fns: Array<() => unknown>, opts: TimingOptions, batch = 10): Promise<Timing[]> {
  for (const fn of fns) await warmUp(fn, opts);
  const samples: number[][] = fns.map(() => []);
  const start = performance.now();
  for (;;) {
    for (let k = 0; k < fns.length; k++) {
      for (let i = 0; i < batch; i++) {
        const t0 = performance.now();
        const r = fns[k]();
        const v = r instanceof Promise ? await r : r;
        samples[k].push(performance.now() - t0);
        consume(v);
      }
    }
    const n = samples[0].length;
    if (n >= opts.runs || (n >= opts.minRuns && performance.now() - start > opts.budgetMs * fns.length)) break;
  }
  return samples.map(summarize);
}

export function summarize(samples: number[]): Timing {
  const s = Float64Array.from(samples).sort();
  return { median: quantile(s, 0.5), p99: quantile(s, 0.99), min: s[0], samples: s.length };
}

/** Quantile of sorted values, linear interpolation between closest ranks. */
export function quantile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos),
    hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/** quantile of unsorted values */
export const quantileOf = (xs: readonly number[], q: number): number => quantile(Float64Array.from(xs).sort(), q);

/** median of unsorted values (the mean of the middle two for an even count) */
export const median = (xs: readonly number[]): number => quantileOf(xs, 0.5);

export function geometricMean(xs: number[]): number {
  const ok = xs.filter((x) => x > 0 && Number.isFinite(x));
  if (ok.length === 0) return NaN;
  return Math.exp(ok.reduce((a, x) => a + Math.log(x), 0) / ok.length);
}

/**
 * Memory in use after a full collection: the JavaScript heap plus the array buffers (typed-array
 * columns live there, outside the heap), and the resident set size. Needs node --expose-gc.
 */
export function memoryAfterGc(): { bytes: number; rss: number } {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    gc();
    gc();
  }
  const m = process.memoryUsage();
  return { bytes: m.heapUsed + m.arrayBuffers, rss: m.rss };
}

/** Heap bytes in use after a full collection (needs node --expose-gc). */
/**
 * process.memoryUsage() after a full collection, a pause and another (V8 frees array buffers'
 * memory off the main thread: on a busy machine a search's scratch still counted right after the
 * collection). Needs --expose-gc.
 */
export async function settledMemory(): Promise<NodeJS.MemoryUsage> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  gc();
  await new Promise((r) => setTimeout(r, 200));
  gc();
  return process.memoryUsage();
}

export function heapUsedAfterGc(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    gc();
    gc();
  }
  return process.memoryUsage().heapUsed;
}
