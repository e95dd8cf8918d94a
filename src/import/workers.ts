// The worker threads of a parallel import (worker.ts): blocks of an import file's events
// array go to the one with the fewest still to do, and each block's answer comes back as a promise.
//
// The worker's script comes from src/worker-script.ts (worker.js beside this file in the built
// package, worker.ts bundled by esbuild from source, or loaded through tsx). In the single
// executable (scripts/build-binary.ts) there are no source files: the worker runs the bundle the
// build made, which binary-entry.ts puts into `importWorkerSource`.
import { runsBuilt, workerScript, type WorkerModule } from '../worker-script.ts';
import { Worker } from 'node:worker_threads';
import type { PackedEvents } from './pack.ts';
import type { SymbolTable } from '../engine/text-symbols.ts';
import type { ImportWorkerData, ImportWorkerReply, ImportWorkerTable } from './worker.ts';

/** The worker's code as one CommonJS script, when there are no source files (the single executable). */
export const importWorkerSource: { text?: string } = {};

/** Whether workers can be started here: from source (tsx), or with the bundled worker. */
export function importWorkersAvailable(): boolean {
  return (
    importWorkerSource.text !== undefined ||
    (typeof import.meta.resolve === 'function' && /\.[jt]s$/.test(import.meta.url ?? ''))
  );
}

/** Whether this module runs as built JavaScript (dist/) rather than from its TypeScript source. */
const BUILT = runsBuilt(import.meta.url);

/** worker's two forms, beside this module (made when needed: in the single executable
 *  import.meta.url is empty) */
const IMPORT_WORKER = (): WorkerModule => ({
  source: new URL('./worker.ts', import.meta.url),
  built: new URL('./worker.js', import.meta.url),
});

/** The script the workers run: the single executable's bundle, else worker-script.ts's. */
function importWorkerScript(): Promise<string> {
  if (importWorkerSource.text !== undefined) return Promise.resolve(importWorkerSource.text);
  return workerScript(IMPORT_WORKER(), BUILT);
}

interface Pending {
  resolve: (p: PackedEvents) => void;
  reject: (err: Error) => void;
}

/** blocks' memory kept for reuse (a few blocks are in flight at a time) */
const MAX_SPARE = 8;
/** bytes a new block's memory has beyond what it was asked for */
const BLOCK_SLACK = 64 * 1024;

/** How long a worker an import is done with waits for the next import before it stops. */
const IDLE_MS = 10_000;
/** workers imports are done with, ready for the next (unref'd: they keep no process alive) */
const idle: { worker: Worker; timer: NodeJS.Timeout; drop: () => void }[] = [];

/** An idle worker, or a new one. (Listeners are removed one by one: removeAllListeners would also
 *  remove the ones through which a Worker refs its port as 'message' listeners come and go.) */
function takeWorker(script: string): Worker {
  const kept = idle.pop();
  if (kept === undefined) return new Worker(script, { eval: true, stdout: false, stderr: false });
  clearTimeout(kept.timer);
  kept.worker.off('error', kept.drop).off('exit', kept.drop);
  kept.worker.ref();
  return kept.worker;
}

/** Keeps a worker with nothing due for the next import, for IDLE_MS (then, or if it fails meanwhile, it stops). */
function keepWorker(worker: Worker): void {
  const drop = () => {
    const at = idle.findIndex((k) => k.worker === worker);
    if (at >= 0) idle.splice(at, 1);
    void worker.terminate();
  };
  worker.on('error', drop).on('exit', drop);
  worker.unref();
  const timer = setTimeout(drop, IDLE_MS);
  timer.unref();
  idle.push({ worker, timer, drop });
}

export class ImportWorkers {
  private readonly workers: Worker[] = [];
  /** each worker's listeners (removed when it is kept for another import) */
  private readonly listeners: {
    message: (m: ImportWorkerReply) => void;
    error: (err: Error) => void;
    exit: (code: number) => void;
  }[] = [];
  /** each worker's blocks not yet answered, in the order sent (a worker answers in order) */
  private readonly pending: Pending[][] = [];
  private turn = 0;
  private failed: Error | undefined;
  /** the memory of blocks the workers are done with, for the next ones */
  private readonly spare: ArrayBuffer[] = [];

  /**
   * `count` workers, ready to take blocks of an import whose checks are `data`'s. Workers an
   * earlier import was done with are taken first (starting one costs ~0.1-0.2 s).
   */
  static async start(count: number, data: ImportWorkerData): Promise<ImportWorkers> {
    return new ImportWorkers(await importWorkerScript(), count, data);
  }

  private constructor(script: string, count: number, data: ImportWorkerData) {
    for (let w = 0; w < count; w++) {
      const worker = takeWorker(script);
      worker.postMessage({ setup: data });
      const queue: Pending[] = [];
      const on = {
        message: (m: ImportWorkerReply) => {
          if (m.block !== undefined && this.spare.length < MAX_SPARE) this.spare.push(m.block);
          const p = queue.shift();
          const packed = m.packed;
          if (packed) {
            packed.codedWith = packed.textTag === 0 ? null : this.tables.get(packed.textTag);
            p?.resolve(packed);
          } else this.fail(new Error(`import: a worker failed: ${m.error}`));
        },
        error: (err: Error) => this.fail(err),
        exit: (code: number) => this.fail(new Error(`import: a worker stopped (exit ${code}) before it was done`)),
      };
      worker.on('message', on.message).on('error', on.error).on('exit', on.exit);
      this.listeners.push(on);
      this.workers.push(worker);
      this.pending.push(queue);
    }
  }

  get size(): number {
    return this.workers.length;
  }

  /** the tables sent to the workers by number (TextCoder.tag), and the last one sent */
  private readonly tables = new Map<number, SymbolTable>();
  private sent: SymbolTable | null = null;
  private lastTag = 0;

  /**
   * The table the importing text store codes its texts with now: when it is not the one the
   * workers have, they are sent it, and code the texts of the blocks they take from then on with
   * it (the blocks they have taken come back coded as before).
   */
  useTable(table: SymbolTable | null): void {
    if (table === this.sent) return;
    this.sent = table;
    const tag = ++this.lastTag;
    if (table !== null) this.tables.set(tag, table);
    const symbols: ImportWorkerTable = { table: table === null ? null : table.text, tag };
    for (const w of this.workers) w.postMessage({ symbols });
  }

  private fail(err: Error): void {
    this.failed ??= err;
    for (const queue of this.pending) for (const p of queue.splice(0)) p.reject(this.failed);
  }

  /**
   * A buffer of at least `bytes` for the next block: the memory of one a worker handed back when
   * there is one large enough (a million-event file is ~640 blocks of 1 MiB: fresh memory for each
   * cost page faults and made the importing thread's heap collect its young generation early, for
   * the external memory), else a new one.
   */
  block(bytes: number): Buffer {
    for (let i = this.spare.length - 1; i >= 0; i--) {
      const b = this.spare[i];
      if (b.byteLength >= bytes) {
        this.spare.splice(i, 1);
        return Buffer.from(b, 0, bytes);
      }
    }
    // with room for a longer carry next time (a block is a line's remainder and blockBytes)
    return Buffer.allocUnsafeSlow(bytes + BLOCK_SLACK).subarray(0, bytes);
  }

  /** The events of block[0, len), packed by the next worker in turn (the block's memory moves to
   *  it); `jsonl`: lines of a JSON Lines file rather than of an events array (packEventLines). */
  run(block: Uint8Array, len: number, jsonl = false): Promise<PackedEvents> {
    if (this.failed) return Promise.reject(this.failed);
    // the worker with the fewest blocks to do (the next in turn among equals): one that is faster
    // on its blocks gets more, rather than idling while the other catches up
    let w = this.turn;
    for (let k = 1; k < this.workers.length; k++) {
      const j = (this.turn + k) % this.workers.length;
      if (this.pending[j].length < this.pending[w].length) w = j;
    }
    this.turn = (w + 1) % this.workers.length;
    return new Promise<PackedEvents>((resolve, reject) => {
      this.pending[w].push({ resolve, reject });
      this.workers[w].postMessage({ block, len, jsonl }, [block.buffer as ArrayBuffer]);
    });
  }

  /** Done with the workers: answers still due are dropped; a worker with none due (and the pool
   *  not failed) is kept for the next import, the others stop. */
  async close(): Promise<void> {
    const healthy = this.failed === undefined;
    this.failed ??= new Error('import: the workers were closed');
    const workers = this.workers.splice(0),
      pending = this.pending.splice(0);
    const stopping: Promise<number>[] = [];
    const listeners = this.listeners.splice(0);
    workers.forEach((w, i) => {
      const on = listeners[i];
      w.off('message', on.message).off('error', on.error).off('exit', on.exit);
      if (healthy && pending[i].length === 0) keepWorker(w);
      else {
        stopping.push(w.terminate());
      }
    });
    for (const queue of pending) for (const p of queue.splice(0)) p.reject(this.failed);
    await Promise.all(stopping);
  }
}
