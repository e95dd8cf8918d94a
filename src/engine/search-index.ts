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
// max(4096, rows / 32), a new index is built in slices in the background while this one, with
// its overflow, goes on answering; the new one takes over once built (no search waits for it).
//
// Snapshots. A built index is written to the snapshot (snapshot-words.ts): its vocabulary, list
// offsets, packed postings and touched rows; a load reads it back instead of building it.
//
// After a load that has no index to read, a table of searchWorkerSettings.minRows rows or more is
// built on a worker thread (search-workers.ts), off the event loop: the worker runs the same
// build (search-postings.ts) over a frozen view of the texts and the (start, id) order of the
// moment, and its vocabulary, hash table, offsets and packed postings are installed once it is
// done, the rows written meanwhile touched again. Until then the index has no lists: a REST
// search waits for the worker (searchIndexReady), any other search is answered by the planner's
// scan of the rows. A smaller table, or one where no worker can start, is built in slices here.
//
// The lists and their build are search-postings.ts's; this file keeps them up after writes and
// holds each state's index (built whole, or in slices after a load).

import { denseCount } from './search-dense.ts';
import type { EventTable } from './event-table.ts';
import type { PackedPostings } from './packed-postings.ts';
import { RemoteBuilt } from './search-remote.ts';
import { searchWorkerSettings, searchWorkersAvailable } from './search-workers.ts';
import { nextSlice, SLICE_MS, sliceDeadline } from './background.ts';
import type { CalendarState } from './state.ts';

const indexes = new WeakMap<CalendarState, SearchIndex>();
/** a state's next index while it is built in the background (the one in `indexes` answers meanwhile) */
const rebuilding = new WeakMap<CalendarState, SearchIndex>();

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
  rebuilding.delete(st);
  si.rebuild(st);
}

/** The state's index, if it has one (built, being built, or read from a snapshot). */
export function existingSearchIndex(st: CalendarState): SearchIndex | undefined {
  return indexes.get(st);
}

/** Make `si` the state's index (one read from a snapshot). */
export function installSearchIndex(st: CalendarState, si: SearchIndex): void {
  rebuilding.delete(st);
  const old = indexes.get(st);
  if (old !== si) old?.stopWorker();
  indexes.set(st, si);
}

/** A search found the index past its bound of writes: its successor is built in the background
 *  unless it already is. */
export function searchIndexStale(st: CalendarState): void {
  if (!rebuilding.has(st)) rebuildInBackground(st);
}

/** Rows (or blocks of the packing) between two looks at the clock within a slice: a step of 1,024
 *  took 30-60 ms while the build touched its new lists for the first time. */
const CLOCK_ROWS = 64;

/**
 * Build the state's index after a load: on a worker thread when the table is large enough
 * (searchIndexOnWorker), else in slices on the event loop (background.ts; a process may exit
 * before it is done), so a load does not wait for it. A slice does at most `sliceRows` rows and stops
 * after `sliceMs` ms (read every CLOCK_ROWS rows), so a request that arrives meanwhile waits a few
 * milliseconds, not the time of 20,000 rows' texts on a busy machine. Writes meanwhile are kept
 * as for a built index; a search that comes before the build is done finishes it on the spot.
 * The build stops if the state is dropped or rebuilt meanwhile.
 */
export function scheduleSearchIndexBuild(st: CalendarState, sliceRows = 20_000, sliceMs = SLICE_MS): void {
  let si = indexes.get(st);
  if (!si) indexes.set(st, (si = new SearchIndex()));
  rebuilding.delete(st);
  const index = si;
  if (searchIndexOnWorker(st)) {
    index.beginOnWorker(st, (s) => {
      // the worker failed to start or to build: in slices here instead
      if (indexes.get(s) !== index) return;
      index.begin(s);
      inSlices(s, index, (x) => indexes.get(x) === index, sliceRows, sliceMs);
    });
    return;
  }
  index.begin(st);
  inSlices(st, index, (s) => indexes.get(s) === index, sliceRows, sliceMs);
}

/** Whether a build of the state's index runs on a worker thread (a table of minRows rows or more,
 *  where a worker can start), rather than in slices on this one. */
export function searchIndexOnWorker(st: CalendarState): boolean {
  return st.table.count >= searchWorkerSettings.minRows && searchWorkersAvailable();
}

/** Resolves once the state's index is no longer waiting for a worker thread's build (at once
 *  when it is not): a search that can wait (a REST call) waits for it, not for a scan of every row. */
export function searchIndexReady(st: CalendarState): Promise<void> {
  return indexes.get(st)?.ready ?? Promise.resolve();
}

/**
 * The state's index is past its bound of writes: a new one is built in slices (as after a load)
 * while the old one, with its overflow, goes on answering; writes meanwhile touch both. The new
 * one takes over once built. So a search never waits for a whole build after writes.
 */
function rebuildInBackground(st: CalendarState, sliceRows = 20_000, sliceMs = SLICE_MS): void {
  const next = new SearchIndex();
  next.begin(st);
  rebuilding.set(st, next);
  inSlices(
    st,
    next,
    (s) => rebuilding.get(s) === next,
    sliceRows,
    sliceMs,
    (s) => {
      rebuilding.delete(s);
      indexes.set(s, next);
    },
  );
}

/** The build of `index` in slices, while `current(st)` holds; `done` once it is complete. */
function inSlices(
  st: CalendarState,
  index: SearchIndex,
  current: (st: CalendarState) => boolean,
  sliceRows: number,
  sliceMs: number,
  done?: (st: CalendarState) => void,
): void {
  const job = index.pendingJob;
  const ref = new WeakRef(st);
  const step = Math.max(1, Math.min(sliceRows, CLOCK_ROWS));
  const tick = () => {
    const s = ref.deref();
    if (!s || !current(s) || index.pendingJob !== job || !job) return;
    const until = sliceDeadline(sliceMs);
    for (let n = 0; n < sliceRows; n += step) {
      if (index.advance(s, Math.min(step, sliceRows - n))) {
        done?.(s);
        return;
      }
      if (performance.now() >= until) break;
    }
    nextSlice(tick);
  };
  nextSlice(tick);
}

/** Forget the state's index (the next search builds it again). */
export function dropSearchIndex(st: CalendarState): void {
  indexes.get(st)?.stopWorker();
  indexes.delete(st);
  rebuilding.delete(st);
}

/**
 * An event row was written: created, or any column changed (text, dates, status, flags), or
 * trashed. Its list entries become stale; its current words go to the overflow sets.
 */
export function searchRowWritten(st: CalendarState, row: number): void {
  const si = indexes.get(st);
  if (si === undefined) return; // no index yet: the first search builds it whole
  si.touch(st.table, row);
  const next = rebuilding.get(st);
  if (next !== undefined) next.touch(st.table, row);
  // past its bound of writes: a new index is built in the background, this one answers meanwhile
  // (a build under way finishes first; the next write or search then starts the new one)
  else if (si.needsRebuild && !si.building) rebuildInBackground(st);
}

/** Per-block counters of one word list (positions relative to the list), touched rows left out. */
export interface ListBlocks {
  version: number;
  counts: Uint16Array;
  minEnds: Float64Array;
  maxEnds: Float64Array;
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
export class SearchIndex extends RemoteBuilt {
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

  readonly blocks = new Map<number, ListBlocks>();

  /** Rebuild from every row of the table, in main-index (start, id) order. */
  rebuild(st: CalendarState): void {
    this.begin(st);
    this.advance(st, Infinity);
  }

  /** Start a build: everything is reset, the writes since the last build too. */
  override begin(st: CalendarState): void {
    this.stopWorker();
    super.begin(st);
    this.untouched(st);
  }

  /** Finish a build under way now, here (a worker's build is begun again on this thread). */
  finish(st: CalendarState): void {
    if (this.waiting) this.rebuild(st);
    else if (this.job !== undefined) this.advance(st, Infinity);
  }

  /** What a snapshot keeps of the index (captured now: the arrays are replaced by a build, never
   *  changed); undefined while a build is under way. */
  persisted(): { words: string[]; offsets: Int32Array; rows: PackedPostings; touched: Uint8Array } | undefined {
    if (this.building) return undefined;
    return {
      words: this.words.slice(0, this.listCount),
      offsets: this.offsets,
      rows: this.rows,
      touched: this.touched.slice(),
    };
  }

  /** The index as a snapshot kept it (checked by the caller, but the vocabulary here): nothing
   *  touched yet. Undefined, or what is wrong with the vocabulary. */
  restore(
    st: CalendarState,
    words: string[],
    offsets: Int32Array<ArrayBuffer>,
    rows: PackedPostings,
  ): string | undefined {
    const wrong = this.loadWords(words);
    if (wrong !== undefined) return wrong;
    this.stopWorker();
    this.job = undefined;
    this.offsets = offsets;
    this.rows = rows;
    this.listCount = words.length;
    this.wordsBuilt = words.length;
    this.untouched(st);
    return undefined;
  }

  /** No row touched since the index's lists were made (a build begun, or restored). */
  protected untouched(st: CalendarState): void {
    this.touched = new Uint8Array(Math.max(16, st.table.capacity));
    this.touchedCount = 0;
    this.version++;
    this.extra.clear();
    this.rowWords.clear();
    this.blocks.clear();
    this.stale = false;
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

  /** Whether touched `row`'s current words hold one word of each of `all` and none of `none`'s
   *  (undefined for a row not touched). */
  wordsHold(row: number, all: Set<number>[], none: Set<number>[]): boolean | undefined {
    const w = this.rowWords.get(row);
    if (w === undefined) return undefined;
    const has = (set: Set<number>) => w.some((id) => set.has(id));
    return all.every(has) && !none.some(has);
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
  stats(): {
    words: number;
    entries: number;
    touched: number;
    countedLists: number;
    denseLists: number;
    building: boolean;
  } {
    return {
      words: this.words.length,
      entries: this.rows.length,
      touched: this.touchedCount,
      countedLists: this.blocks.size,
      denseLists: denseCount(this.rows),
      building: this.building,
    };
  }
}
