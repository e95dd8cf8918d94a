// The word index's lists as of its last build (search-index.ts describes the index), and the
// build that makes them: pass 1 reads every row's words (the distinct word ids of each row, the
// length of every list), pass 2 fills the lists in (local start, id) order, pass 3 packs them
// (packed-postings.ts). A build runs whole, or in slices between other work (advance()).
// search-index.ts adds the upkeep after writes on top of these lists.

import type { EventTable } from './event-table.ts';
import { PackedPostings, PostingsPacker } from './packed-postings.ts';
import { WordScanner } from './search-scan.ts';
import type { CalendarState } from './state.ts';
import type { TextView } from './text-view.ts';

/** log2 of the entries of a page of the build's word sequence (32 MiB). glibc's malloc serves a
 *  request of 32 MiB or more with a mapping of its own and unmaps it when it is freed, whatever
 *  it did before; smaller ones, once large blocks were freed, come from its heap, which keeps
 *  them resident after they are freed (1 MiB pages left their RSS behind after the build). */
const SEQ_SHIFT = 23;
/** the same for a table of fewer than SMALL_ROWS rows (256 KiB pages: its sequence is small) */
const SMALL_SHIFT = 16;
const SMALL_ROWS = 65_536;

/** State of a build between advance() calls. */
interface BuildJob {
  /** rows of the table when the build began */
  n: number;
  /** next row of pass 1 */
  next: number;
  /** seq[rowStarts[r], rowStarts[r + 1]) = distinct word ids of row r */
  rowStarts: Int32Array;
  /** pass 2: rows in (start, id) order, the next position, the fill cursor of each list, the
   *  entries as ranks in that order; pass 3: their packing */
  ranks: Int32Array;
  packer: PostingsPacker | undefined;
  order: Int32Array | undefined;
  at: number;
  cursor: Int32Array;
}

/**
 * The rows' (start, id) order of now, for a build over rows [0, n): the main index's when it
 * holds every row, else sorted here. Rows moved later are touched, the others keep their order.
 */
export function rowOrder(st: CalendarState, n: number): Int32Array {
  const m = st.main,
    t = st.table;
  if (m.count === t.count) return m.rows.slice(0, m.count);
  const order = new Int32Array(n);
  for (let r = 0; r < n; r++) order[r] = r;
  const starts = t.starts,
    ids = t.ids;
  order.sort((a, b) => starts[a] - starts[b] || ids[a] - ids[b]);
  return order;
}

/** The postings as of the last build and the build in progress. */
export abstract class SearchPostings extends WordScanner {
  /** list of word id w: rows.at(p) for p in [offsets[w], offsets[w + 1]) (ids >= listCount have none) */
  offsets = new Int32Array(1);
  rows = PackedPostings.EMPTY;
  listCount = 0;
  /** words in the dictionary when the last build finished (new words since then grow it) */
  protected wordsBuilt = 0;

  // ---- scan state: the row mark (build) or the collected ids (writes)
  private mark = -1;
  private collected: number[] = [];
  // ---- build scratch
  /** seq in pages of SEQ_PAGE entries: it grows a page at a time, never by copying what it holds
   *  (a doubling of hundreds of MB was one pause of half a second at a million events), and its
   *  pages go back to the system when the build lets go of them */
  private seq: Int32Array[] = [];
  /** log2 of the entries of a page of seq */
  private seqShift = SEQ_SHIFT;
  private seqLen = 0;
  private counts = new Int32Array(0);
  private lastMark = new Int32Array(0);
  /** the build in progress (begin() .. advance() returning true) */
  job: BuildJob | undefined;

  /** the build in progress, if any (compared by identity) */
  get pendingJob(): object | undefined {
    return this.job;
  }

  /** true while a build started by begin() has not finished */
  get building(): boolean {
    return this.job !== undefined;
  }

  /** Start a build: the lists are reset; advance() does the work (writes in between are fine). */
  begin(st: CalendarState): void {
    this.beginRows(st.table.count);
  }

  /** begin() over rows [0, n) of texts that advanceOver() is given (a build on a worker thread). */
  protected beginRows(n: number): void {
    this.resetWords();
    this.offsets = new Int32Array(1);
    this.rows = PackedPostings.EMPTY;
    this.listCount = 0;
    // about one distinct word per 8 units of text, and about three quarters of the texts' bytes searched
    this.seq = [];
    this.seqShift = n < SMALL_ROWS ? SMALL_SHIFT : SEQ_SHIFT;
    this.seqLen = 0;
    this.counts = new Int32Array(1024);
    this.lastMark = new Int32Array(1024).fill(-1);
    this.job = {
      n,
      next: 0,
      rowStarts: new Int32Array(n + 1),
      order: undefined,
      at: 0,
      cursor: new Int32Array(0),
      ranks: new Int32Array(0),
      packer: undefined,
    };
  }

  /**
   * Do up to `budget` rows of the pending build; true when it is complete. Pass 1, rows in
   * table order (the text strings are read in allocation order): the distinct word ids of each
   * row into seq, and the length of every list. Pass 2, rows in (start, id) order: fill the
   * lists. Rows written meanwhile are touched, so their entries never count.
   */
  advance(st: CalendarState, budget: number): boolean {
    return this.advanceOver(st.table.texts, (n) => rowOrder(st, n), budget);
  }

  /**
   * advance() over `texts` (rows [0, n) of the build): `orderOf(n)` gives the rows' (start, id)
   * order once pass 1 is done (an array of at least n rows; rows >= n in it are skipped).
   */
  protected advanceOver(texts: TextView, orderOf: (n: number) => Int32Array, budget: number): boolean {
    const job = this.job;
    if (!job) return true;
    const n = job.n,
      rowStarts = job.rowStarts;
    let row = job.next;
    for (const stop = Math.min(n, row + budget); row < stop; row++) {
      this.mark = row;
      this.scanRow(texts, row);
      rowStarts[row + 1] = this.seqLen;
    }
    this.mark = -1;
    budget -= row - job.next;
    job.next = row;
    if (row < n) return false;
    if (!job.order) {
      const order = orderOf(n);
      job.order = order;
      const nWords = this.words.length;
      const offsets = new Int32Array(nWords + 1);
      const counts = this.counts;
      for (let w = 0; w < nWords; w++) offsets[w + 1] = offsets[w] + counts[w];
      this.offsets = offsets;
      job.ranks = new Int32Array(offsets[nWords]);
      job.cursor = offsets.slice(0, nWords);
    }
    const order = job.order;
    if (!job.packer) {
      // pass 2: each list's entries as ranks in `order`, so every list comes out increasing
      const ranks = job.ranks,
        cursor = job.cursor,
        seq = this.seq,
        shift = this.seqShift,
        mask = (1 << shift) - 1;
      let i = job.at;
      for (const stop = Math.min(order.length, i + Math.max(1, budget)); i < stop; i++) {
        const r = order[i];
        if (r >= n) continue; // appended since the build began: touched
        for (let k = rowStarts[r], end = rowStarts[r + 1]; k < end; k++)
          ranks[cursor[seq[k >>> shift][k & mask]]++] = i;
      }
      budget -= i - job.at;
      job.at = i;
      if (i < order.length) return false;
      this.seq = [];
      this.counts = new Int32Array(0);
      this.lastMark = new Int32Array(0);
      job.rowStarts = new Int32Array(0);
      job.packer = new PostingsPacker(job.ranks, order);
    }
    // pass 3: pack the ranks (a block of 256 entries costs about what a row of pass 2 does)
    if (!job.packer.pack(budget)) return false;
    this.rows = job.packer.done();
    this.listCount = job.cursor.length;
    // a scheduled slice may still hold the job: let go of its scratch now
    job.ranks = new Int32Array(0);
    job.packer = undefined;
    job.cursor = new Int32Array(0);
    this.job = undefined;
    this.wordsBuilt = this.words.length;
    return true;
  }

  /** A word of the row being scanned: build mode (mark >= 0) counts it once per row into seq, else collects it. */
  protected emit(id: number): void {
    const mark = this.mark;
    if (mark < 0) {
      if (!this.collected.includes(id)) this.collected.push(id);
      return;
    }
    if (this.lastMark[id] === mark) return;
    this.lastMark[id] = mark;
    this.counts[id]++;
    const at = this.seqLen++;
    const shift = this.seqShift,
      page = at >>> shift;
    if (page === this.seq.length) this.seq.push(new Int32Array(1 << shift));
    this.seq[page][at & ((1 << shift) - 1)] = id;
  }

  protected newWord(id: number): void {
    if (id >= this.lastMark.length) this.growScratch(id + 1);
  }

  private growScratch(need: number): void {
    const cap = Math.max(need, this.lastMark.length * 2);
    const counts = new Int32Array(cap);
    counts.set(this.counts);
    this.counts = counts;
    const last = new Int32Array(cap).fill(-1);
    last.set(this.lastMark);
    this.lastMark = last;
  }

  /** Distinct word ids of a row's current text. */
  protected rowWordIds(t: EventTable, row: number): Int32Array {
    this.mark = -1;
    this.collected = [];
    this.scanRow(t.texts, row);
    const out = Int32Array.from(this.collected);
    this.collected = [];
    return out;
  }
}
