// A worker thread for thread-priority.test.ts: lowers its own priority and says what it saw.
import os from 'node:os';
import { parentPort } from 'node:worker_threads';
import { lowerThreadPriority, threadId } from '../../src/engine/thread-priority.ts';

// on a worker thread only (imported elsewhere, it leaves the thread as it is)
if (parentPort !== null) {
  const tid = threadId() ?? -1;
  const before = tid < 0 ? 0 : os.getPriority(tid);
  const lowered = lowerThreadPriority();
  parentPort.postMessage({ tid, before, after: tid < 0 ? 0 : os.getPriority(tid), lowered });
}
