// A background thread's priority (src/engine/thread-priority.ts): a worker thread lowers its own
// nice value, not the process's (on Linux, where a thread's nice value is its own).
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BACKGROUND_NICE, lowerThreadPriority, threadId } from '../../src/engine/thread-priority.ts';
import { workerScript } from '../../src/worker-script.ts';

const Priority = suite('thread priority');

/** Runs lowerThreadPriority() on a worker thread (the module bundled as the package's workers
 *  are run from source): its thread id, nice before and after, result. */
async function onWorker(): Promise<{ tid: number; before: number; after: number; lowered: boolean }> {
  const script = await workerScript(
    {
      source: new URL('../helpers/thread-priority-worker.ts', import.meta.url),
      built: new URL('../helpers/thread-priority-worker.js', import.meta.url),
    },
    false,
  );
  return new Promise((resolve, reject) => {
    const w = new Worker(script, { eval: true });
    w.once('message', (m) => {
      resolve(m);
      void w.terminate();
    });
    w.once('error', reject);
  });
}

Priority('a worker lowers its own priority, the main thread keeps its own', async () => {
  if (process.platform !== 'linux') {
    assert.is(lowerThreadPriority(), false);
    return;
  }
  const main = threadId();
  assert.ok(main !== undefined && main === process.pid, 'the main thread is the process');
  const mainBefore = os.getPriority(main!);
  const r = await onWorker();
  assert.ok(r.tid !== main, 'a thread of its own');
  assert.ok(r.lowered);
  assert.is(r.after, Math.max(r.before, BACKGROUND_NICE));
  assert.is(os.getPriority(main!), mainBefore, 'the main thread is left as it was');
});

Priority.run();
