// Parts of a large streamed snapshot made on two worker threads (snapshot-worker.ts) while the
// main thread makes the rest of the events chunks: one makes each chunk's texts (gathering the rows'
// records in the main index's order was ~40% of the events chunks' time on the main thread; it
// writes them as base64), the other the posting lines' lists from the columns (capturedFromColumns).
// The workers are found as the word index's are (src/worker-script.ts); where none can start (the
// single executable has no source files) or one fails, its part is made on the main thread as
// before. Their answers are what the main thread would make (the same code), so the snapshot is the
// same either way.
//
// The texts' worker reads the records in place (the text store keeps them in a SharedArrayBuffer;
// a store whose buffer is not shared has them copied once into one that is, as for the word index's
// worker) with a copy of the rows' offsets and of the order (shared by both workers). It works at
// most `ahead` chunks ahead of the one the snapshot takes, so the texts waiting on the main thread
// stay a few MiB. The lists' worker gets copies of the link columns (20 bytes a row), whose memory
// goes with it once it has answered.

import { Worker } from 'node:worker_threads';
import { runsBuilt, workerScript, workersCanStart, type WorkerModule } from '../worker-script.ts';
import { frozenTexts } from './search-workers.ts';
import { recordsBase64 } from './snapshot-bytes.ts';
import { capturedFromColumns, postingColumns, type ColumnPostings } from './snapshot-postings.ts';
import type {
  ChunkTexts,
  ChunkTextsInput,
  ChunkTextsOutput,
  ChunkTextsRequest,
  PostingsInput,
  PostingsOutput,
} from './snapshot-worker.ts';
import type { CalendarState } from './state.ts';
import type { TextView } from './text-view.ts';

/** Whether this module runs as built JavaScript (dist/) rather than from its TypeScript source. */
const BUILT = runsBuilt(import.meta.url);

/** Settings of the snapshot's worker (tests change them). */
export const snapshotWorkerSettings = {
  /**
   * Snapshots of fewer rows make their texts on the main thread: starting a worker costs ~0.1 s
   * (from source ~0.3 s more, for the bundle) and a thread, about what 100,000 rows' texts take.
   */
  minRows: 200_000,
  /** chunks the worker makes ahead of the one taken (each ~5 MiB of text at 10,000 rows, made in
   *  ~25 ms: two keep it busy while the main thread makes the rest of a chunk) */
  ahead: 2,
  /** false: never start a worker */
  enabled: true,
};

/** Chunks whose texts a worker made, and posting lists' jobs one did, since the process started
 *  (for the tests). */
export const snapshotWorkerStats = { chunks: 0, postings: 0 };

/** Whether a worker can be started here: from the built package, or from source under tsx. */
function workersAvailable(): boolean {
  return snapshotWorkerSettings.enabled && workersCanStart();
}

/** snapshot-worker's two forms, beside this module (made when needed: in the single executable
 *  import.meta.url is empty) */
const SNAPSHOT_WORKER = (): WorkerModule => ({
  source: new URL('./snapshot-worker.ts', import.meta.url),
  built: new URL('./snapshot-worker.js', import.meta.url),
});

/** A worker thread running snapshot-worker.ts (undefined: none could start). */
async function spawn(): Promise<Worker | undefined> {
  try {
    const script = await workerScript(SNAPSHOT_WORKER(), BUILT);
    return new Worker(script, { eval: true, stdout: false, stderr: false });
  } catch {
    return undefined;
  }
}

/** A copy of `a` in shared memory (one copy for both workers). */
export function sharedCopy(a: Int32Array): Int32Array {
  const out = new Int32Array(new SharedArrayBuffer(a.byteLength));
  out.set(a);
  return out;
}

/** Whether a snapshot of `rows` rows makes parts of itself on workers. */
export function snapshotWorkersFor(rows: number): boolean {
  return rows >= snapshotWorkerSettings.minRows && workersAvailable();
}

/**
 * The posting lists of `st` made from its columns (snapshot-postings.ts), rows in `order`: on a
 * worker started now when the table is large enough, else (or when it fails) on this thread when
 * the answer is asked for.
 */
export function postingsLater(st: CalendarState, order: Int32Array): () => Promise<ColumnPostings> {
  const here = () => capturedFromColumns(postingColumns(st, order, false));
  if (!snapshotWorkersFor(order.length)) return async () => here();
  const cols = postingColumns(st, order, true);
  // every array but the shared order is this call's own copy: moved to the worker, not cloned
  const { extra } = cols;
  const own = [
    cols.categories,
    cols.tags,
    cols.organizers,
    cols.venueIds,
    cols.parentIds,
    cols.poolValues,
    cols.poolOffsets,
    cols.closureAt,
    cols.closureValues,
    cols.combos,
    cols.ends,
    extra.rows,
    extra.venueAt,
    extra.venues,
  ];
  const answer = (async (): Promise<ColumnPostings | undefined> => {
    const worker = await spawn();
    if (worker === undefined) return undefined;
    try {
      return await new Promise<ColumnPostings | undefined>((resolve) => {
        worker.once('message', (out: PostingsOutput) => resolve('error' in out ? undefined : out));
        worker.once('error', () => resolve(undefined));
        worker.once('exit', () => resolve(undefined));
        const input: PostingsInput = { postings: cols };
        worker.postMessage(
          input,
          own.map((a) => a.buffer as ArrayBuffer),
        );
      });
    } finally {
      void worker.terminate();
    }
  })();
  return async () => {
    const captured = await answer;
    if (captured === undefined) return here();
    snapshotWorkerStats.postings++;
    return captured;
  };
}

/** The chunks' texts made on a worker: take() each chunk in order, then close(). */
export class ChunkTextsWorker {
  /** the worker once started (undefined: it could not be) */
  private readonly started: Promise<Worker | undefined>;
  private worker: Worker | undefined;
  /** the requests sent and not yet answered, oldest first (the worker answers in order) */
  private readonly waiting: { from: number; resolve: (t: ChunkTexts | undefined) => void }[] = [];
  /** the answers of the chunks requested ahead, by their first position */
  private readonly asked = new Map<number, Promise<ChunkTexts | undefined>>();
  /** the first position not yet requested */
  private next = 0;
  private failed = false;

  /**
   * A worker for the texts of positions [0, n) of `order` (table rows) read from `texts`, chunks of
   * `rows` positions; undefined when below the settings' minRows or no worker can start here.
   */
  static start(texts: TextView, order: Int32Array, rows: number): ChunkTextsWorker | undefined {
    if (!snapshotWorkersFor(order.length)) return undefined;
    return new ChunkTextsWorker(texts, order, rows);
  }

  private constructor(
    texts: TextView,
    private readonly order: Int32Array,
    private readonly rows: number,
  ) {
    const n = order.length;
    const f = frozenTexts(texts, n);
    const shared = order.buffer instanceof SharedArrayBuffer ? order : sharedCopy(order);
    const input: ChunkTextsInput = { bytes: f.bytes, starts: f.starts, order: shared };
    this.started = this.run(input);
    this.requestAhead(0);
  }

  private async run(input: ChunkTextsInput): Promise<Worker | undefined> {
    try {
      const worker = await spawn();
      if (worker === undefined || this.failed) {
        void worker?.terminate();
        this.fail();
        return undefined;
      }
      this.worker = worker;
      worker.on('message', (out: ChunkTextsOutput) => {
        const w = this.waiting.shift();
        if (w === undefined) return;
        if ('error' in out || out.from !== w.from) {
          w.resolve(undefined);
          this.fail();
        } else {
          snapshotWorkerStats.chunks++;
          w.resolve(out);
        }
        if (this.waiting.length === 0) worker.unref();
      });
      worker.once('error', () => this.fail());
      worker.once('exit', () => this.fail());
      worker.postMessage(input, [input.starts.buffer as ArrayBuffer]);
      return worker;
    } catch {
      this.fail();
      return undefined;
    }
  }

  /** Requests the chunks up to `ahead` past the one at `from`. */
  private requestAhead(from: number): void {
    const end = Math.min(this.order.length, from + (1 + snapshotWorkerSettings.ahead) * this.rows);
    while (this.next < end) {
      const at = this.next,
        to = Math.min(this.order.length, at + this.rows);
      this.next = to;
      this.asked.set(at, this.request(at, to));
    }
  }

  private request(from: number, to: number): Promise<ChunkTexts | undefined> {
    return new Promise((resolve) => {
      void this.started.then((worker) => {
        if (worker === undefined || this.failed) return resolve(undefined);
        this.waiting.push({ from, resolve });
        worker.ref(); // an answer awaited keeps the process alive
        const req: ChunkTextsRequest = { from, to };
        worker.postMessage(req);
      });
    });
  }

  /**
   * The texts of the chunk of positions [from, to) as the chunk holds them (base64; chunks taken in
   * order, each `rows` long but the last), or undefined when the worker failed: the caller then
   * makes them itself.
   */
  async take(from: number, to: number): Promise<{ bytes: string; ends: string } | undefined> {
    const p = this.asked.get(from);
    this.asked.delete(from);
    this.requestAhead(from);
    if (p === undefined || to !== Math.min(this.order.length, from + this.rows)) return undefined;
    const t = await p;
    return t && recordsBase64(t);
  }

  private fail(): void {
    if (this.failed) return;
    this.failed = true;
    for (const w of this.waiting.splice(0)) w.resolve(undefined);
    void this.worker?.terminate();
  }

  /** Stops the worker (its unanswered requests get undefined). */
  close(): void {
    this.fail();
  }
}
