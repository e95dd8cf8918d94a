// The priority of a thread that does background work (the search index's build on a worker
// thread, search-worker.ts): on Linux a thread's nice value is its own, so the worker lowers its
// own (its id read from /proc/thread-self) and, when the machine's cores are all busy, gives way
// to the main thread answering requests (and to the clients on the same machine) instead of taking
// its share of them; with a core to spare it runs as fast as before. Elsewhere, nothing changes.

import fs from 'node:fs';
import os from 'node:os';

/** The nice value of a background thread: a weight about a tenth of a normal thread's. */
export const BACKGROUND_NICE = 10;

/** The calling thread's id (Linux's /proc/thread-self is "PID/task/TID"), or undefined. */
export function threadId(): number | undefined {
  try {
    const m = /\/task\/(\d+)$/.exec(fs.readlinkSync('/proc/thread-self'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Lower the calling thread's priority to `nice` (a thread already lower keeps its own); true when
 *  the thread runs at `nice` or lower now. */
export function lowerThreadPriority(nice = BACKGROUND_NICE): boolean {
  const tid = threadId();
  if (tid === undefined) return false;
  try {
    if (os.getPriority(tid) < nice) os.setPriority(tid, nice);
    return os.getPriority(tid) >= nice;
  } catch {
    return false;
  }
}
