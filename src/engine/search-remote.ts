// The word index's build on a worker thread (search-workers.ts starts it), as the index holds it:
// until the worker is done the index has no lists and `waiting` is true; its result is installed
// as it came (the vocabulary with its hash table, offsets, packed postings), and the rows written
// meanwhile are touched again against it. search-index.ts describes the index.

import { PackedPostings } from './packed-postings.ts';
import { rowOrder, SearchPostings } from './search-postings.ts';
import type { SearchBuildOutput } from './search-worker.ts';
import { frozenTexts, SearchBuildWorker } from './search-workers.ts';
import type { EventTable } from './event-table.ts';
import type { CalendarState } from './state.ts';

export abstract class RemoteBuilt extends SearchPostings {
  /** the build under way on a worker thread (its lists are empty until it is installed) */
  private remote: SearchBuildWorker | undefined;
  /** settles once the worker's build is installed or has failed (undefined: no worker build) */
  ready: Promise<void> | undefined;
  /** 1 for rows written since the build (SearchIndex's) */
  abstract touched: Uint8Array;
  /** the row was written (SearchIndex's upkeep) */
  abstract touch(t: EventTable, row: number): void;
  /** no row touched since the lists were made */
  protected abstract untouched(st: CalendarState): void;

  /** true while a build (in slices, or on a worker thread) has not finished */
  override get building(): boolean {
    return this.job !== undefined || this.remote !== undefined;
  }

  /** true while the index waits for a worker thread's build: it has no lists yet, and a search
   *  that cannot wait is answered without it (a scan of the rows) */
  get waiting(): boolean {
    return this.remote !== undefined;
  }

  /**
   * Build the index of rows [0, table.count) on a worker thread, from a frozen view of their texts
   * and their (start, id) order of now. Until it is done the index has no lists; writes meanwhile
   * touch rows as for a build in slices, and once the worker's lists are installed the rows touched
   * meanwhile are touched again against them. `failed`: the worker could not start or build, and
   * the index is left as begun.
   */
  beginOnWorker(st: CalendarState, failed: (st: CalendarState) => void): void {
    this.begin(st);
    this.job = undefined;
    const t = st.table,
      n = t.count;
    const worker = new SearchBuildWorker(frozenTexts(t.texts, n), rowOrder(st, n));
    this.remote = worker;
    const ref = new WeakRef(st);
    this.ready = worker.result.then((out) => {
      if (this.remote !== worker) return; // stopped, or another build began
      this.remote = undefined;
      this.ready = undefined;
      const s = ref.deref();
      if (s === undefined) return;
      if ('error' in out) failed(s);
      else this.adopt(s, out);
    });
  }

  /** Stop a worker thread's build under way (the index stays as it is: no lists). */
  stopWorker(): void {
    const worker = this.remote;
    if (worker === undefined) return;
    this.remote = undefined;
    this.ready = undefined;
    worker.stop();
  }

  /** Install a worker's build (over rows [0, n) as they were when it began); the rows touched
   *  since are touched again, against the new lists. */
  private adopt(st: CalendarState, out: Exclude<SearchBuildOutput, { error: string }>): void {
    const written: number[] = [];
    const touched = this.touched;
    for (let r = 0; r < touched.length; r++) if (touched[r] !== 0) written.push(r);
    const p = out.packed;
    this.adoptWords(out.words, out.hashes as Int32Array<ArrayBuffer>, out.slots as Int32Array<ArrayBuffer>);
    this.job = undefined;
    this.offsets = out.offsets as Int32Array<ArrayBuffer>;
    this.rows = new PackedPostings(p.order, p.base, p.start, p.width, p.words, p.length);
    this.listCount = out.words.length;
    this.wordsBuilt = out.words.length;
    this.untouched(st);
    for (const r of written) this.touch(st.table, r);
  }
}
