// Search: a word index over the folded title, excerpt and description of every event row.
//
// Words. A field is folded (foldText: NFD, marks stripped, lower case) and cut into words: the
// maximal runs of word units, where a word unit is a-z, 0-9 or any unit >= 128; every other
// ASCII unit (space, punctuation, control) separates words. A search term without separator
// units occurs in a field exactly when it is a substring of one of the field's words (an
// occurrence cannot cross a separator), so such a term ("exact" term) is answered by the index
// alone: the rows that hold any vocabulary word containing the term. A term with separators
// ("pottery class", "hands-on", "e b") is cut into its pieces; a matching row holds, for every
// piece, a word containing that piece, so the index narrows the candidates and each candidate
// is then checked against the folded text. Fields never mix: words are taken per field.
//
// Vocabulary. Every distinct word gets a dense id (an open-addressing hash table hashed from the
// char codes, so building does not cut substrings out of the text). The words containing a
// term are found with indexOf over all words joined into one string.
//
// Postings. One list per word: the rows holding it, in (local start, id) order as of the last
// build, all lists in one sequence (built with one counting pass and one fill pass over the rows
// in main-index order, so every list comes out sorted), kept as the rows' ranks in that order,
// bit-packed (packed-postings.ts; rows.at(p) is the row at position p). A date window is a
// position range of each list (binary search on the start column).
//
// Counting. For a list that is queried with only date/status/flag filters besides the one exact
// term, per-block counters (rows per (status, flags) combination and the min/max local end of
// each block of 256 list positions, as block-stats.ts does for the main index) give the total
// without visiting rows; only blocks cut by the window or straddling an end bound are walked.
// Counters are built the first time a list is counted and rebuilt when rows changed since.
//
// Writes. Any write to an event row (create, update, trash) marks the row "touched": its
// entries in the lists (old text, old position) are skipped from then on, and its current words
// go to small per-word overflow sets that every query also reads. Once the touched rows exceed
// max(4096, rows / 32), the next search rebuilds everything.

import type { EventTable } from './event-table.ts';
import { PackedPostings, PostingsPacker } from './packed-postings.ts';
import { WordScanner } from './search-scan.ts';
import type { CalendarState } from './state.ts';

const indexes = new WeakMap<CalendarState, SearchIndex>();

/** The state's search index, built over the whole table on first use. */
export function searchIndexOf(st: CalendarState): SearchIndex {
  let si = indexes.get(st);
  if (!si) {
    si = new SearchIndex();
    si.rebuild(st);
    indexes.set(st, si);
  }
  return si;
}

/** Rebuild (or build) the state's search index from the table: after bulk loads. */
export function rebuildSearchIndex(st: CalendarState): void {
  let si = indexes.get(st);
  if (!si) indexes.set(st, (si = new SearchIndex()));
  si.rebuild(st);
}

const SEQ_SHIFT = 18;
/** entries of a page of the build's word sequence (1 MiB) */
const SEQ_PAGE = 1 << SEQ_SHIFT;
const SEQ_MASK = SEQ_PAGE - 1;

/** A slice of the background build stops once it has run this long (ms), whatever its rows. With
 *  2 ms, lists during start-up waited half as long (2.6 against 5 ms median) but the build, paying
 *  the timer's 1 ms after every slice, took a quarter longer, and a first search that came before
 *  it was done finished three times more of it at once (9-10 s against 3 s at 3,000,000 events). */
export const SLICE_MS = 4;
/** Rows (or blocks of the packing) between two looks at the clock within a slice: a step of 1,024
 *  took 30-60 ms while the build touched its new lists for the first time. */
const CLOCK_ROWS = 64;

/**
 * Build the state's index in slices on the event loop (unref'd timers: a process may exit before
 * it is done), so a load does not wait for it. A slice does at most `sliceRows` rows and stops
 * after `sliceMs` ms (read every CLOCK_ROWS rows), so a request that arrives meanwhile waits a few
 * milliseconds, not the time of 20,000 rows' texts on a busy machine. Writes meanwhile are kept
 * as for a built index; a search that comes before the build is done finishes it on the spot.
 * The build stops if the state is dropped or rebuilt meanwhile.
 */
export function scheduleSearchIndexBuild(st: CalendarState, sliceRows = 20_000, sliceMs = SLICE_MS): void {
  let si = indexes.get(st);
  if (!si) indexes.set(st, (si = new SearchIndex()));
  const index = si;
  index.begin(st);
  const job = index.pendingJob;
  const ref = new WeakRef(st);
  const step = Math.max(1, Math.min(sliceRows, CLOCK_ROWS));
  const tick = () => {
    const s = ref.deref();
    if (!s || indexes.get(s) !== index || index.pendingJob !== job || !job) return;
    const until = performance.now() + sliceMs;
    for (let done = 0; done < sliceRows; done += step) {
      if (index.advance(s, Math.min(step, sliceRows - done))) return;
      if (performance.now() >= until) break;
    }
    later(tick);
  };
  later(tick);
}

function later(fn: () => void): void {
  const timer = setTimeout(fn, 0);
  timer.unref?.();
}

/** Forget the state's index (the next search builds it again). */
export function dropSearchIndex(st: CalendarState): void {
  indexes.delete(st);
}

/**
 * An event row was written: created, or any column changed (text, dates, status, flags), or
 * trashed. Its list entries become stale; its current words go to the overflow sets.
 */
export function searchRowWritten(st: CalendarState, row: number): void {
  const si = indexes.get(st);
  if (si === undefined) return; // no index yet: the first search builds it whole
  si.touch(st.table, row);
  // Past its bound of writes the index would be rebuilt by the next search anyway: drop it now,
  // so that a calendar written to and not searched keeps no growing overflow.
  if (si.needsRebuild) indexes.delete(st);
}

/** Per-block counters of one word list (positions relative to the list), touched rows left out. */
export interface ListBlocks {
  version: number;
  counts: Uint16Array;
  minEnds: Float64Array;
  maxEnds: Float64Array;
}

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

/** Position range [lo, hi) of a list in the postings array. */
export interface Window {
  id: number;
  lo: number;
  hi: number;
}

/** Rows that satisfy one include piece (or one exclude term): the union of some word lists. */
export interface Constraint {
  ids: number[];
  windows: Window[];
  /** number of list entries in the window */
  size: number;
}

/** The index's state. Fields without `private` are read by the query walk (search-walk.ts). */
export class SearchIndex extends WordScanner {
  // ---- postings as of the last build
  /** list of word id w: rows.at(p) for p in [offsets[w], offsets[w + 1]) (ids >= listCount have none) */
  offsets = new Int32Array(1);
  rows = PackedPostings.EMPTY;
  listCount = 0;

  // ---- writes since the build
  /** 1 for rows written since the build (their list entries are stale) */
  touched = new Uint8Array(0);
  touchedCount = 0;
  /** bumped on every write: block counters of an older version are rebuilt */
  version = 0;
  /** word id → touched rows whose current text holds the word */
  extra = new Map<number, Set<number>>();
  /** touched row → its current word ids */
  rowWords = new Map<number, Int32Array>();
  /** true when the next search must rebuild first */
  stale = false;
  /** words in the dictionary when the last build finished (new words since then grow it) */
  private wordsBuilt = 0;

  readonly blocks = new Map<number, ListBlocks>();

  // ---- scan state: the row mark (build) or the collected ids (writes)
  private mark = -1;
  private collected: number[] = [];
  // ---- build scratch
  /** seq in pages of SEQ_PAGE entries: it grows a page at a time, never by copying what it holds
   *  (a doubling of hundreds of MB was one pause of half a second at a million events) */
  private seq: Int32Array[] = [];
  private seqLen = 0;
  private counts = new Int32Array(0);
  private lastMark = new Int32Array(0);
  /** the build in progress (begin() .. advance() returning true) */
  job: BuildJob | undefined;

  /** Rebuild from every row of the table, in main-index (start, id) order. */
  rebuild(st: CalendarState): void {
    this.begin(st);
    this.advance(st, Infinity);
  }

  /** the build in progress, if any (compared by identity) */
  get pendingJob(): object | undefined {
    return this.job;
  }

  /** true while a build started by begin() has not finished */
  get building(): boolean {
    return this.job !== undefined;
  }

  /** Start a build: everything is reset; advance() does the work (writes in between are fine). */
  begin(st: CalendarState): void {
    const t = st.table,
      n = t.count;
    this.resetWords();
    this.offsets = new Int32Array(1);
    this.rows = PackedPostings.EMPTY;
    this.listCount = 0;
    this.touched = new Uint8Array(Math.max(16, t.capacity));
    this.touchedCount = 0;
    this.version++;
    this.extra.clear();
    this.rowWords.clear();
    this.blocks.clear();
    this.stale = false;
    // about one distinct word per 8 units of text, and about three quarters of the texts' bytes searched
    this.seq = [];
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
    const job = this.job;
    if (!job) return true;
    const t = st.table,
      n = job.n,
      rowStarts = job.rowStarts;
    const texts = t.texts;
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
      // the (start, id) order of now; rows moved later are touched, the others keep their order
      const m = st.main;
      let order: Int32Array;
      if (m.count === t.count) order = m.rows.slice(0, m.count);
      else {
        order = new Int32Array(n);
        for (let r = 0; r < n; r++) order[r] = r;
        const starts = t.starts,
          ids = t.ids;
        order.sort((a, b) => starts[a] - starts[b] || ids[a] - ids[b]);
      }
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
        seq = this.seq;
      let i = job.at;
      for (const stop = Math.min(order.length, i + Math.max(1, budget)); i < stop; i++) {
        const r = order[i];
        if (r >= n) continue; // appended since the build began: touched
        for (let k = rowStarts[r], end = rowStarts[r + 1]; k < end; k++)
          ranks[cursor[seq[k >>> SEQ_SHIFT][k & SEQ_MASK]]++] = i;
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
    const page = at >>> SEQ_SHIFT;
    if (page === this.seq.length) this.seq.push(new Int32Array(SEQ_PAGE));
    this.seq[page][at & SEQ_MASK] = id;
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
  private rowWordIds(t: EventTable, row: number): Int32Array {
    this.mark = -1;
    this.collected = [];
    this.scanRow(t.texts, row);
    const out = Int32Array.from(this.collected);
    this.collected = [];
    return out;
  }

  /** The row was written: skip its list entries from now on, index its current words aside. */
  touch(t: EventTable, row: number): void {
    if (row >= this.touched.length) {
      const next = new Uint8Array(Math.max(row + 1, this.touched.length * 2));
      next.set(this.touched);
      this.touched = next;
    }
    if (this.touched[row] === 0) {
      this.touched[row] = 1;
      this.touchedCount++;
    }
    this.version++;
    const old = this.rowWords.get(row);
    if (old) {
      for (let i = 0; i < old.length; i++) {
        const set = this.extra.get(old[i]);
        if (set !== undefined && set.delete(row) && set.size === 0) this.extra.delete(old[i]);
      }
    }
    const now = this.rowWordIds(t, row);
    this.rowWords.set(row, now);
    for (let i = 0; i < now.length; i++) {
      let set = this.extra.get(now[i]);
      if (!set) this.extra.set(now[i], (set = new Set()));
      set.add(row);
    }
    if (this.touchedCount > Math.max(4096, t.count >> 5)) this.stale = true;
    // rewriting the same rows with new words grows the dictionary, not the touched count
    if (this.job === undefined && this.words.length - this.wordsBuilt > Math.max(16_384, this.wordsBuilt >> 3))
      this.stale = true;
  }

  /** True when writes since the build passed the bound past which the index is rebuilt. */
  get needsRebuild(): boolean {
    return this.stale;
  }

  /** Bytes held by the index (typed arrays, word strings, overflow sets; not object headers). */
  byteSize(): number {
    let blocks = 0;
    for (const b of this.blocks.values()) blocks += b.counts.byteLength + b.minEnds.byteLength + b.maxEnds.byteLength;
    let extra = 0;
    for (const s of this.extra.values()) extra += 16 * s.size;
    for (const w of this.rowWords.values()) extra += w.byteLength + 32;
    return (
      this.rows.byteLength + this.offsets.byteLength + this.touched.byteLength + this.vocabularyBytes() + blocks + extra
    );
  }

  /** Numbers for reports: words, list entries, touched rows. */
  stats(): { words: number; entries: number; touched: number; countedLists: number; building: boolean } {
    return {
      words: this.words.length,
      entries: this.rows.length,
      touched: this.touchedCount,
      countedLists: this.blocks.size,
      building: this.building,
    };
  }
}
