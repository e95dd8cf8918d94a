// Work done between requests (the warm-up after a load, the search index build): in slices on the
// event loop, each ended once it has run SLICE_MS, the next one queued with setImmediate. Between
// two immediates the loop polls for I/O, so a request that came during a slice is answered right
// after it: it waits at most about a slice (a quarter of a millisecond), and while requests come
// the work goes on as soon as each is answered, with no timer's millisecond between slices (a
// setTimeout(0) costs at least 1 ms). With nothing coming, a slice starts at most a millisecond after the last one ended, and
// runs longer (IDLE_SLICE_MS): no request is waiting. Several jobs take turns, one slice at a time.

import { performance as perf } from 'node:perf_hooks';

/** A slice stops once it has run this long (ms). A list that comes during a slice waits for its
 *  end: with 4 ms slices queued by setTimeout(0), the p99 of lists during start-up at a million
 *  events was 16 × their settled median; 1 ms slices kept it within a few settled medians. While a
 *  client sends its lists back to back, the next one comes while the slice that began after the
 *  last answer runs, and waits for the rest of it: with 1 ms slices the median list during the
 *  start-up work at ten million events (whose work lasts past the first ten seconds) took 1.74 ms
 *  against 0.55 settled. A quarter of a millisecond keeps that wait under the settled median. */
export const SLICE_MS = 0.25;

/** A slice that follows a wait of the loop for I/O (nothing came: no request is waiting) runs up to
 *  this long (ms): with short slices and the backstop timer's 1 ms between them, the work would
 *  take a small part of the loop's time when no request comes, against four fifths so. */
export const IDLE_SLICE_MS = 4;

/** A request noted (noteRequest) less than this long ago (ms) keeps slices short even after a
 *  wait of the loop: a client that sends its next request 0.5-4 ms after an answer (its own work,
 *  another process on the same cores) would otherwise find a 4 ms slice under way each time. */
export const QUIET_MS = 20;

/** While requests come (one noted in the last QUIET_MS), the next slice starts this long (ms) after
 *  the last one ended, not right after the I/O waiting: a client that sends its requests back to
 *  back then finds no slice under way for most of them (each waited for the rest of one: the
 *  median list during the start-up work at ten million events was 0.5 ms against 0.17 with no
 *  work), and the work keeps about a fifth of the thread until the requests stop. */
export const BUSY_GAP_MS = 1;

/** performance.now() of the last request noted */
let lastRequest = -Infinity;

/** A request came (the HTTP listener calls this for each one): slices stay SLICE_MS long until
 *  QUIET_MS passes without another. */
export function noteRequest(): void {
  lastRequest = performance.now();
}

/** The jobs given to inSlices, each with its slice length: one slice runs at a time, the jobs in
 *  turn, so however many there are a request waits for one slice at most. */
const jobs: { work: (deadline: number) => boolean; sliceMs: number }[] = [];
let running = false;

/**
 * Calls work(deadline) on the event loop, a slice at a time, until it returns true (done). Each
 * call should return by `deadline` (sliceDeadline()): false when there is more to do. Jobs given
 * while others run take turns with them, one slice between two looks of the loop for I/O.
 * Unref'd: a process may exit before the work is done.
 */
export function inSlices(work: (deadline: number) => boolean, sliceMs = SLICE_MS): void {
  jobs.push({ work, sliceMs });
  if (!running) {
    running = true;
    nextSlice(runSlice);
  }
}

/** Resolves once no job given to inSlices is left (at once when none is). */
export async function backgroundDone(): Promise<void> {
  while (running) await new Promise((r) => setTimeout(r, 2));
}

/** How long after a slice the next one starts: BUSY_GAP_MS while requests come (one noted in
 *  the last QUIET_MS), else 0 (right after the I/O waiting). */
export function sliceGap(now = performance.now()): number {
  return requestsComing(now) ? BUSY_GAP_MS : 0;
}

/** Whether a request was noted in the last QUIET_MS. */
function requestsComing(now: number): boolean {
  return now - lastRequest < QUIET_MS;
}

/** One slice of the first job, which then goes to the back of the line unless done. */
function runSlice(): void {
  const job = jobs.shift();
  let done = true;
  try {
    if (job) done = job.work(sliceDeadline(job.sliceMs));
  } finally {
    if (job && !done) jobs.push(job);
    const gap = sliceGap();
    if (jobs.length === 0) running = false;
    else if (gap > 0) sliceAfter(gap, runSlice);
    else nextSlice(runSlice);
  }
}

/** the loop's idle time (performance.eventLoopUtilization) when the last slice ended */
let idleAtEnd = 0;

/** The performance.now() time at which a slice starting now should end: `sliceMs` ahead, or
 *  IDLE_SLICE_MS when the loop has waited for I/O at least half a millisecond since the last slice
 *  ended and no request came in the last QUIET_MS (no client is waiting for an answer). */
export function sliceDeadline(sliceMs = SLICE_MS): number {
  const now = performance.now();
  const waited = perf.eventLoopUtilization().idle - idleAtEnd;
  const quiet = waited >= 0.5 && !requestsComing(now);
  return now + (quiet ? Math.max(sliceMs, IDLE_SLICE_MS) : sliceMs);
}

/**
 * Run fn after the I/O that is waiting: by setImmediate, unref'd (a process may exit before the
 * work is done). An unref'd immediate alone does not keep the loop's poll from blocking: with no
 * I/O coming (no requests) it would wait for the next timer, so an unref'd 1 ms timer runs fn too,
 * whichever comes first.
 */
export function nextSlice(fn: () => void): void {
  let ran = false;
  const run = () => {
    if (ran) return;
    ran = true;
    clearImmediate(now);
    clearTimeout(backstop);
    endSlice(fn);
  };
  const now = setImmediate(run).unref();
  const backstop = setTimeout(run, 1).unref();
}

/** Run fn `ms` from now (an unref'd timer). */
function sliceAfter(ms: number, fn: () => void): void {
  setTimeout(() => endSlice(fn), ms).unref();
}

function endSlice(fn: () => void): void {
  try {
    fn();
  } finally {
    idleAtEnd = perf.eventLoopUtilization().idle;
  }
}
