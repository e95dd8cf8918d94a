// Starting the search index's build on a worker thread (search-worker.ts), found as the import's
// workers are (src/worker-script.ts: search-worker.js beside this file in the built package, the
// source bundled by esbuild, or loaded through tsx). Where neither works (the single executable has no source files), no worker
// starts and the build runs in slices on the main thread.
//
// The worker reads the records in place: the text store keeps them in a SharedArrayBuffer
// (recordBytes), and records are never overwritten, so the rows as they were when the build began
// stay readable while writes go on. A store whose buffer is not shared has its live records
// copied once into one that is.

import { runsBuilt, workerScript, workersCanStart, type WorkerModule } from '../worker-script.ts';
import { Worker } from 'node:worker_threads';
import type { SearchBuildInput, SearchBuildOutput } from './search-worker.ts';
import type { TextView } from './text-view.ts';

/** Whether this module runs as built JavaScript (dist/) rather than from its TypeScript source. */
const BUILT = runsBuilt(import.meta.url);

/** Settings of the worker build (tests change them). */
export const searchWorkerSettings = {
  /**
   * Tables of fewer rows are built on the main thread. Starting a worker costs ~0.1 s (from
   * source ~0.3 s more, for the bundle) and a thread; a table of 200,000 rows takes about 0.8 s
   * of slices on the main thread, and below that the slices are over before the first searches
   * and lists come.
   */
  minRows: 200_000,
  /** false: never start a worker (every build on the main thread) */
  enabled: true,
};

/** Whether a worker can be started here: from the built package, or from source under tsx. */
export function searchWorkersAvailable(): boolean {
  return searchWorkerSettings.enabled && workersCanStart();
}

/** search-worker's two forms, beside this module (made when needed: in the single executable
 *  import.meta.url is empty) */
const SEARCH_WORKER = (): WorkerModule => ({
  source: new URL('./search-worker.ts', import.meta.url),
  built: new URL('./search-worker.js', import.meta.url),
});

/** The parts of a frozen text view a worker reads. */
export interface FrozenTexts {
  bytes: Uint8Array;
  starts: Uint32Array;
  titles: string[];
  symbols: string | null;
}

/** What a worker needs of `view` (rows [0, n)): its records shared (copied into shared memory
 *  when they are not), a copy of the offsets, the dictionary's titles, the symbol table. */
export function frozenTexts(view: TextView, n: number): FrozenTexts {
  const raw = view.raw;
  const starts = view.offsets(n);
  let used = 0;
  for (let r = 0; r < n; r++) if (starts[r] > used) used = starts[r];
  used = n === 0 ? 5 : view.recordEndFrom(used);
  let bytes: Uint8Array;
  if (raw.buffer instanceof SharedArrayBuffer) bytes = raw.subarray(0, used);
  else {
    bytes = new Uint8Array(new SharedArrayBuffer(used));
    bytes.set(raw.subarray(0, used));
  }
  return { bytes, starts, titles: view.titleRange(0, view.titleCount), symbols: view.symbolTable?.text ?? null };
}

/** A build running on a worker thread; `result` settles once it is done, failed or stopped. */
export class SearchBuildWorker {
  readonly result: Promise<SearchBuildOutput>;
  private worker: Worker | undefined;
  private stopped = false;

  constructor(texts: FrozenTexts, order: Int32Array) {
    this.result = this.run(texts, order);
  }

  private async run(texts: FrozenTexts, order: Int32Array): Promise<SearchBuildOutput> {
    let script: string;
    try {
      script = await workerScript(SEARCH_WORKER(), BUILT);
    } catch (err) {
      return { error: String(err) };
    }
    if (this.stopped) return { error: 'stopped' };
    return new Promise<SearchBuildOutput>((resolve) => {
      let worker: Worker;
      try {
        worker = new Worker(script, { eval: true, stdout: false, stderr: false });
      } catch (err) {
        resolve({ error: String(err) });
        return;
      }
      this.worker = worker;
      // the build keeps no process alive (a process that only imports may exit before it is done)
      worker.unref();
      const finish = (out: SearchBuildOutput) => {
        this.worker = undefined;
        resolve(out);
        void worker.terminate();
      };
      worker.once('message', (out: SearchBuildOutput) => finish(out));
      worker.once('error', (err) => finish({ error: String(err) }));
      worker.once('exit', (code) => finish({ error: `the worker stopped (exit code ${code})` }));
      const input: SearchBuildInput = { ...texts, order };
      worker.postMessage(input, [texts.starts.buffer as ArrayBuffer, order.buffer as ArrayBuffer]);
    });
  }

  /** Stop the build (its result becomes an error). */
  stop(): void {
    this.stopped = true;
    void this.worker?.terminate();
  }
}
