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
// build, all lists in one Int32Array (built with one counting pass and one fill pass over the
// rows in main-index order, so every list comes out sorted). A date window is a position range
// of each list (binary search on the start column).
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

import { comboOf, COMBOS } from './block-stats.ts';
import { foldText, type EventTable } from './event-table.ts';
import { buildMatcher, startRangeOf, type Matcher } from './matcher.ts';
import type { CalendarState } from './state.ts';
import type { EventQuery, QueryResult } from './types.ts';

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;
const BLOCK_SHIFT = 8;
const BLOCK = 1 << BLOCK_SHIFT;
/** lists shorter than this are walked, not counted from block counters */
const COUNTED_MIN = 2048;
/** the vocabulary joined with this separator (a separator unit itself, so no term crosses it) */
const JOIN = '\u0001';

/** ASCII unit → its lower-case word unit, 0 for separators (units >= 128 are word units as they are) */
const WORD = new Uint8Array(128);
for (let c = 48; c <= 57; c++) WORD[c] = c;
for (let c = 97; c <= 122; c++) WORD[c] = c;
for (let c = 65; c <= 90; c++) WORD[c] = c | 32;

const NON_ASCII = /[^\x00-\x7f]/;

/** true when the folded string has no separator unit (a term the index answers exactly) */
function isWordOnly(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 128 && WORD[c] === 0) return false;
  }
  return s.length > 0;
}

/** the non-empty word pieces of a folded string */
export function wordPieces(s: string): string[] {
  const out: string[] = [];
  let from = -1;
  for (let i = 0; i <= s.length; i++) {
    const c = i < s.length ? s.charCodeAt(i) : 0;
    const word = c >= 128 || WORD[c] !== 0;
    if (word && from < 0) from = i;
    else if (!word && from >= 0) {
      out.push(s.slice(from, i));
      from = -1;
    }
  }
  return out;
}

/** The string of units buf[0, len). */
function unitsToString(buf: Uint16Array, len: number): string {
  let s = '';
  for (let i = 0; i < len; i += 4096) s += String.fromCharCode.apply(null, Array.from(buf.subarray(i, Math.min(len, i + 4096))));
  return len > 4096 ? s.split('').join('') : s;
}

/** foldText of each non-ASCII unit alone; null for units whose folding depends on context */
const FOLDS = new Map<number, string | null>();

/**
 * foldText(unit) for a unit >= 128, when folding it alone gives what it contributes to the
 * folded string around it: NFD decomposes each character on its own (canonical reordering
 * only moves combining marks, which are all stripped) and toLowerCase maps each character
 * alone except capital sigma (final-sigma rule). Surrogates (pairs) and sigma → null.
 */
function foldUnit(c: number): string | null {
  let f = FOLDS.get(c);
  if (f === undefined) {
    const ch = String.fromCharCode(c);
    const d = ch.normalize('NFD');
    f = (c >= 0xd800 && c <= 0xdfff) || d.includes('\u03a3') ? null : foldText(ch);
    FOLDS.set(c, f);
  }
  return f;
}

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

/**
 * Build the state's index in slices of `sliceRows` rows on the event loop (unref'd timers: a
 * process may exit before it is done), so a load does not wait for it. Writes meanwhile are
 * kept as for a built index; a search that comes before the build is done finishes it on the
 * spot. The build stops if the state is dropped or rebuilt meanwhile.
 */
export function scheduleSearchIndexBuild(st: CalendarState, sliceRows = 20_000): void {
  let si = indexes.get(st);
  if (!si) indexes.set(st, (si = new SearchIndex()));
  const index = si;
  index.begin(st);
  const job = index.pendingJob;
  const ref = new WeakRef(st);
  const tick = () => {
    const s = ref.deref();
    if (!s || indexes.get(s) !== index || index.pendingJob !== job || !job) return;
    if (!index.advance(s, sliceRows)) later(tick);
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
interface ListBlocks {
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
  /** pass 2: rows in (start, id) order, the next position, the fill cursor of each list */
  order: Int32Array | undefined;
  at: number;
  cursor: Int32Array;
}

/** Position range [lo, hi) of a list in the postings array. */
interface Window {
  id: number;
  lo: number;
  hi: number;
}

/** Rows that satisfy one include piece (or one exclude term): the union of some word lists. */
interface Constraint {
  ids: number[];
  windows: Window[];
  /** number of list entries in the window */
  size: number;
}

export class SearchIndex {
  // ---- vocabulary
  private words: string[] = [];
  private hashes = new Int32Array(1024);
  private slots = new Int32Array(2048);
  private mask = 2047;
  /** words[0 .. joinedCount) joined, each preceded by JOIN (made on the first search after a build) */
  private joined: Joined = { text: '', starts: new Int32Array(0) };
  private joinedCount = 0;
  /** words[joinedCount .. tailCount) joined the same way (words first seen in writes) */
  private tail: Joined = { text: '', starts: new Int32Array(0) };
  private tailCount = 0;

  // ---- postings as of the last build
  /** list of word id w: rows[offsets[w] .. offsets[w + 1]) (ids >= listCount have none) */
  private offsets = new Int32Array(1);
  private rows = new Int32Array(0);
  private listCount = 0;

  // ---- writes since the build
  /** 1 for rows written since the build (their list entries are stale) */
  private touched = new Uint8Array(0);
  private touchedCount = 0;
  /** bumped on every write: block counters of an older version are rebuilt */
  private version = 0;
  /** word id → touched rows whose current text holds the word */
  private extra = new Map<number, Set<number>>();
  /** touched row → its current word ids */
  private rowWords = new Map<number, Int32Array>();
  /** true when the next search must rebuild first */
  private stale = false;
  /** words in the dictionary when the last build finished (new words since then grow it) */
  private wordsBuilt = 0;

  private readonly blocks = new Map<number, ListBlocks>();

  // ---- scan state: the current word's units; the row mark (build) or the collected ids (writes)
  private buf: Uint16Array = new Uint16Array(64);
  private mark = -1;
  private collected: number[] = [];
  // ---- build scratch
  private seq = new Int32Array(0);
  private seqLen = 0;
  private counts = new Int32Array(0);
  private lastMark = new Int32Array(0);
  /** the build in progress (begin() .. advance() returning true) */
  private job: BuildJob | undefined;

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
    const t = st.table, n = t.count;
    this.words = [];
    this.hashes = new Int32Array(1024);
    this.slots = new Int32Array(2048);
    this.mask = 2047;
    this.joined = { text: '', starts: new Int32Array(0) };
    this.joinedCount = 0;
    this.tail = { text: '', starts: new Int32Array(0) };
    this.tailCount = 0;
    this.offsets = new Int32Array(1);
    this.rows = new Int32Array(0);
    this.listCount = 0;
    this.touched = new Uint8Array(Math.max(16, t.capacity));
    this.touchedCount = 0;
    this.version++;
    this.extra.clear();
    this.rowWords.clear();
    this.blocks.clear();
    this.stale = false;
    const titles = t.titles, excerpts = t.excerpts, descriptions = t.descriptions;
    let chars = 0;
    for (let row = 0; row < n; row++) chars += titles[row].length + excerpts[row].length + descriptions[row].length;
    this.seq = new Int32Array(Math.max(1024, Math.ceil(chars / 7))); // about one distinct word per 8 units of text
    this.seqLen = 0;
    this.counts = new Int32Array(1024);
    this.lastMark = new Int32Array(1024).fill(-1);
    this.job = { n, next: 0, rowStarts: new Int32Array(n + 1), order: undefined, at: 0, cursor: new Int32Array(0) };
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
    const t = st.table, n = job.n, rowStarts = job.rowStarts;
    const titles = t.titles, excerpts = t.excerpts, descriptions = t.descriptions;
    let row = job.next;
    for (const stop = Math.min(n, row + budget); row < stop; row++) {
      this.mark = row;
      this.scanField(titles[row]);
      this.scanField(excerpts[row]);
      this.scanField(descriptions[row]);
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
        const starts = t.starts, ids = t.ids;
        order.sort((a, b) => starts[a] - starts[b] || ids[a] - ids[b]);
      }
      job.order = order;
      const nWords = this.words.length;
      const offsets = new Int32Array(nWords + 1);
      const counts = this.counts;
      for (let w = 0; w < nWords; w++) offsets[w + 1] = offsets[w] + counts[w];
      this.offsets = offsets;
      this.rows = new Int32Array(offsets[nWords]);
      job.cursor = offsets.slice(0, nWords);
    }
    const order = job.order, rows = this.rows, cursor = job.cursor, seq = this.seq;
    let i = job.at;
    for (const stop = Math.min(order.length, i + Math.max(1, budget)); i < stop; i++) {
      const r = order[i];
      if (r >= n) continue; // appended since the build began: touched
      for (let k = rowStarts[r], end = rowStarts[r + 1]; k < end; k++) rows[cursor[seq[k]]++] = r;
    }
    job.at = i;
    if (i < order.length) return false;
    this.listCount = cursor.length;
    this.job = undefined;
    this.wordsBuilt = this.words.length;
    this.seq = new Int32Array(0);
    this.counts = new Int32Array(0);
    this.lastMark = new Int32Array(0);
    return true;
  }

  /** A word of the row being scanned: build mode (mark >= 0) counts it once per row into seq, else collects it. */
  private emit(id: number): void {
    const mark = this.mark;
    if (mark < 0) {
      if (!this.collected.includes(id)) this.collected.push(id);
      return;
    }
    if (this.lastMark[id] === mark) return;
    this.lastMark[id] = mark;
    this.counts[id]++;
    if (this.seqLen === this.seq.length) {
      const next = new Int32Array(this.seq.length * 2);
      next.set(this.seq);
      this.seq = next;
    }
    this.seq[this.seqLen++] = id;
  }

  /** Every word of one field, folded as foldText folds it, to emit(). */
  private scanField(raw: string): void {
    if (!this.scanFolding(raw)) this.scanUnits(foldText(raw)); // a unit that folds by context: fold the whole field
  }

  /** Words of an ASCII or already folded string (A-Z lower-cased). */
  private scanUnits(s: string): void {
    const n = s.length;
    let buf = this.buf, len = 0, h = FNV_OFFSET;
    for (let k = 0; k <= n; k++) {
      const c = k < n ? s.charCodeAt(k) : 0;
      const w = c >= 128 ? c : WORD[c];
      if (w !== 0) {
        if (len === buf.length) buf = this.growBuf();
        buf[len++] = w;
        h = Math.imul(h ^ w, FNV_PRIME);
      } else if (len > 0) {
        this.emit(this.wordId(len, h));
        len = 0;
        h = FNV_OFFSET;
      }
    }
  }

  /**
   * Words of a string with non-ASCII units, each unit folded on its own (foldUnit); false when
   * a unit whose folding depends on its neighbours is met (words emitted so far stay: the
   * caller then scans the whole folded field, and repeated words are dropped).
   */
  private scanFolding(s: string): boolean {
    const n = s.length;
    let buf = this.buf, len = 0, h = FNV_OFFSET;
    for (let k = 0; k <= n; k++) {
      const c = k < n ? s.charCodeAt(k) : 0;
      if (c < 128) {
        const w = WORD[c];
        if (w !== 0) {
          if (len === buf.length) buf = this.growBuf();
          buf[len++] = w;
          h = Math.imul(h ^ w, FNV_PRIME);
        } else if (len > 0) {
          this.emit(this.wordId(len, h));
          len = 0;
          h = FNV_OFFSET;
        }
        continue;
      }
      const f = foldUnit(c);
      if (f === null) return false;
      for (let i = 0; i < f.length; i++) {
        const u = f.charCodeAt(i);
        const w = u >= 128 ? u : WORD[u];
        if (w !== 0) {
          if (len === buf.length) buf = this.growBuf();
          buf[len++] = w;
          h = Math.imul(h ^ w, FNV_PRIME);
        } else if (len > 0) {
          this.emit(this.wordId(len, h));
          len = 0;
          h = FNV_OFFSET;
        }
      }
    }
    return true;
  }

  private growBuf(): Uint16Array {
    const next = new Uint16Array(this.buf.length * 2);
    next.set(this.buf);
    return (this.buf = next);
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

  /** Id of the word buf[0, len) with hash h, created when new. */
  private wordId(len: number, h: number): number {
    const words = this.words, hashes = this.hashes, slots = this.slots, mask = this.mask, buf = this.buf;
    let slot = h & mask;
    for (;;) {
      const v = slots[slot];
      if (v === 0) break;
      const id = v - 1;
      if (hashes[id] === h) {
        const w = words[id];
        if (w.length === len) {
          let k = 0;
          while (k < len && buf[k] === w.charCodeAt(k)) k++;
          if (k === len) return id;
        }
      }
      slot = (slot + 1) & mask;
    }
    const id = words.length;
    words.push(unitsToString(buf, len));
    if (id >= hashes.length) {
      const next = new Int32Array(hashes.length * 2);
      next.set(hashes);
      this.hashes = next;
    }
    this.hashes[id] = h;
    if (id >= this.lastMark.length) this.growScratch(id + 1);
    slots[slot] = id + 1;
    if ((id + 1) * 2 > slots.length) this.growSlots();
    return id;
  }

  private growSlots(): void {
    const size = this.slots.length * 2, mask = size - 1;
    const slots = new Int32Array(size);
    const hashes = this.hashes;
    for (let id = 0; id < this.words.length; id++) {
      let slot = hashes[id] & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = id + 1;
    }
    this.slots = slots;
    this.mask = mask;
  }

  /** Distinct word ids of a row's current text. */
  private rowWordIds(t: EventTable, row: number): Int32Array {
    this.mark = -1;
    this.collected = [];
    this.scanField(t.titles[row]);
    this.scanField(t.excerpts[row]);
    this.scanField(t.descriptions[row]);
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
    if (this.job === undefined && this.words.length - this.wordsBuilt > Math.max(16_384, this.wordsBuilt >> 3)) this.stale = true;
  }

  /** True when writes since the build passed the bound past which the index is rebuilt. */
  get needsRebuild(): boolean {
    return this.stale;
  }

  /** Bytes held by the index (typed arrays, word strings, overflow sets; not object headers). */
  byteSize(): number {
    let words = 0;
    for (const w of this.words) words += 16 + w.length * (NON_ASCII.test(w) ? 2 : 1);
    let blocks = 0;
    for (const b of this.blocks.values()) blocks += b.counts.byteLength + b.minEnds.byteLength + b.maxEnds.byteLength;
    let extra = 0;
    for (const s of this.extra.values()) extra += 16 * s.size;
    for (const w of this.rowWords.values()) extra += w.byteLength + 32;
    return this.rows.byteLength + this.offsets.byteLength + this.hashes.byteLength + this.slots.byteLength +
      this.touched.byteLength + words + this.joined.text.length + this.joined.starts.byteLength + this.tail.text.length + this.tail.starts.byteLength + blocks + extra;
  }

  /** Numbers for reports: words, list entries, touched rows. */
  stats(): { words: number; entries: number; touched: number; countedLists: number; building: boolean } {
    return { words: this.words.length, entries: this.rows.length, touched: this.touchedCount, countedLists: this.blocks.size, building: this.building };
  }

  /** Ids of the vocabulary words that contain `piece` (a string without separator units). */
  wordsContaining(piece: string): number[] {
    const n = this.words.length;
    if (this.joinedCount === 0 && n > 0) {
      this.joined = joinWords(this.words, 0, n);
      this.joinedCount = n;
    }
    const out: number[] = [];
    findIn(this.joined, piece, 0, out);
    if (this.joinedCount < n) {
      // words added by writes since the joined text was made
      if (this.tailCount !== n) {
        this.tail = joinWords(this.words, this.joinedCount, n);
        this.tailCount = n;
      }
      findIn(this.tail, piece, this.joinedCount, out);
    }
    return out;
  }

  /**
   * First position p in [lo, hi) of the postings such that every untouched row before p
   * starts before the bound (open: at or before it) and every untouched row from p on does
   * not. Touched rows (stale positions) are stepped over.
   */
  private bound(starts: Float64Array, lo: number, hi: number, key: number, open: boolean): number {
    const rows = this.rows, touched = this.touched;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      let m = mid;
      while (m < hi && touched[rows[m]] === 1) m++;
      if (m === hi) {
        hi = mid;
        continue;
      }
      const v = starts[rows[m]];
      if (v < key || (open && v === key)) lo = m + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The window of word w's list for the start bounds. */
  private windowOf(w: number, starts: Float64Array, min: number, minOpen: boolean, max: number, maxOpen: boolean): Window {
    if (w >= this.listCount) return { id: w, lo: 0, hi: 0 };
    const a = this.offsets[w], b = this.offsets[w + 1];
    const lo = min === -Infinity ? a : this.bound(starts, a, b, min, minOpen);
    const hi = max === Infinity ? b : this.bound(starts, lo, b, max, !maxOpen);
    return { id: w, lo, hi: Math.max(lo, hi) };
  }

  private constraint(ids: number[], starts: Float64Array, r: { min: number; minOpen: boolean; max: number; maxOpen: boolean }): Constraint {
    const windows: Window[] = [];
    let size = 0;
    for (const id of ids) {
      const w = this.windowOf(id, starts, r.min, r.minOpen, r.max, r.maxOpen);
      windows.push(w);
      size += w.hi - w.lo;
    }
    return { ids, windows, size };
  }

  /** Block counters of word w's list (untouched rows only), built or rebuilt when out of date. */
  private blocksOf(t: EventTable, w: number): ListBlocks {
    const have = this.blocks.get(w);
    if (have && have.version === this.version) return have;
    const a = this.offsets[w], n = this.offsets[w + 1] - a;
    const nb = (n + BLOCK - 1) >> BLOCK_SHIFT;
    const counts = new Uint16Array(nb * COMBOS);
    const minEnds = new Float64Array(nb).fill(Infinity), maxEnds = new Float64Array(nb).fill(-Infinity);
    const rows = this.rows, touched = this.touched, statusCodes = t.statusCodes, flags = t.flags, ends = t.ends;
    for (let i = 0; i < n; i++) {
      const row = rows[a + i];
      if (touched[row] === 1) continue;
      const b = i >> BLOCK_SHIFT;
      counts[b * COMBOS + comboOf(statusCodes[row], flags[row])]++;
      const e = ends[row];
      if (e < minEnds[b]) minEnds[b] = e;
      if (e > maxEnds[b]) maxEnds[b] = e;
    }
    const made: ListBlocks = { version: this.version, counts, minEnds, maxEnds };
    this.blocks.set(w, made);
    return made;
  }

  /** Matching untouched rows of one window of a counted list (rest = every filter but search). */
  private countWindow(t: EventTable, win: Window, rest: Matcher): number {
    const a = this.offsets[win.id];
    const bl = this.blocksOf(t, win.id);
    const rows = this.rows, touched = this.touched, match = rest.match, e = rest.end, combos = rest.combos;
    const n = this.offsets[win.id + 1] - a;
    let total = 0;
    let i = win.lo - a;
    const to = win.hi - a;
    while (i < to) {
      const b = i >> BLOCK_SHIFT;
      const blockStart = b << BLOCK_SHIFT, blockEnd = Math.min(blockStart + BLOCK, n);
      if (i === blockStart && blockEnd <= to) {
        const lo = bl.minEnds[b], hi = bl.maxEnds[b];
        if (hi < e.min || (e.minOpen && hi === e.min) || lo > e.max || (e.maxOpen && lo === e.max)) {
          i = blockEnd;
          continue;
        }
        if ((lo > e.min || (!e.minOpen && lo === e.min)) && (hi < e.max || (!e.maxOpen && hi === e.max))) {
          const base = b * COMBOS, counts = bl.counts;
          for (let c = 0; c < combos.length; c++) total += counts[base + combos[c]];
          i = blockEnd;
          continue;
        }
      }
      const stop = Math.min(blockEnd, to);
      for (; i < stop; i++) {
        const row = rows[a + i];
        if (touched[row] === 0 && match(row)) total++;
      }
    }
    return total;
  }

  /** Touched rows whose current text holds one of the words (distinct). */
  private touchedRows(ids: number[]): number[] {
    if (this.touchedCount === 0) return [];
    const out = new Set<number>();
    for (const id of ids) {
      const set = this.extra.get(id);
      if (set) for (const row of set) out.add(row);
    }
    return [...out];
  }

  /**
   * The query answered from the index, or undefined when it cannot help (no include term, a
   * term without any word unit) or when walking its candidates costs more than the planner's
   * driver (`driverCost` rows).
   */
  query(st: CalendarState, q: EventQuery, matcher: Matcher, driverCost: number): QueryResult | undefined {
    const search = q.search;
    if (!search || (search.include.length === 0 && search.exclude.length === 0)) return undefined;
    if (this.job) this.advance(st, Infinity); // a background build not done yet: finish it now
    if (this.stale) this.rebuild(st);
    const t = st.table, starts = t.starts;
    const window = startRangeOf(q, false);

    // constraints: one per word piece of every include term; excluded exact terms
    const includes: Constraint[] = [];
    let verify = false;
    for (const term of search.include) {
      const pieces = wordPieces(term);
      if (pieces.length === 0) return undefined; // no word unit: nothing to look up
      if (!(pieces.length === 1 && pieces[0] === term)) verify = true;
      for (const piece of pieces) {
        const ids = this.wordsContaining(piece);
        if (ids.length === 0) return { rows: [], total: 0 }; // no row holds the piece
        includes.push(this.constraint(ids, starts, window));
      }
    }
    const excludes: Constraint[] = [];
    for (const term of search.exclude) {
      if (isWordOnly(term)) excludes.push(this.constraint(this.wordsContaining(term), starts, window));
      else verify = true;
    }
    let driver: Constraint | undefined = includes[0];
    for (const c of includes) if (c.size < driver.size) driver = c;
    const rest = buildMatcher(st, { ...q, search: undefined });
    const countable = driver !== undefined && includes.length === 1 && excludes.length === 0 && !verify && driver.ids.length === 1 &&
      rest.simple && q.geo === undefined && driver.size >= COUNTED_MIN;
    // the main index's start range is the planner's driver unless a posting list is smaller
    const [mainLo, mainHi] = st.main.range(window.min, window.minOpen, window.max, window.maxOpen);
    const mainSize = mainHi - mainLo;
    const mainIsDriver = driverCost >= mainSize;
    let walkMain: boolean;
    if (driver !== undefined && (countable ? driver.size >> 6 : driver.size) < driverCost) {
      // a union of several lists is walked in (start, id) order through the main index when that is not much longer
      walkMain = !countable && driver.windows.length > 1 && mainIsDriver && mainSize < 3 * driver.size;
    } else if (mainIsDriver) {
      walkMain = true; // bit tests instead of text checks over the main range
    } else return undefined;

    const offset = Math.max(0, q.offset), end = offset + Math.max(0, q.limit);
    const restMatch = rest.match;
    const textMatch = (row: number) => {
      const f = t.foldedText(row);
      for (const term of search.include) if (!fieldsHold(t, row, f, term)) return false;
      for (const term of search.exclude) if (fieldsHold(t, row, f, term)) return false;
      return true;
    };
    // touched rows: their current words from the overflow sets, checked in full
    const fresh: number[] = [];
    for (const row of driver ? this.touchedRows(driver.ids) : this.rowWords.keys()) if (restMatch(row) && textMatch(row)) fresh.push(row);

    const rows = this.rows, touched = this.touched;
    // untouched rows of a window already pass the start bounds: with only date/status/flag
    // filters besides search, the rest is a table lookup on (status, flags) and the end bounds
    const pass = rest.simple ? passTable(rest) : undefined;
    const statusCodes = t.statusCodes, flags = t.flags, ends = t.ends, e = rest.end;
    const inRest = pass
      ? (row: number) => {
        if (pass[(statusCodes[row] << 8) | flags[row]] === 0) return false;
        const v = ends[row];
        return !(v < e.min || (e.minOpen && v === e.min) || v > e.max || (e.maxOpen && v === e.max));
      }
      : restMatch;
    if (countable) {
      const win = driver.windows[0];
      const total = this.countWindow(t, win, rest) + fresh.length;
      const firstRows: number[] = [];
      for (let p = win.lo; p < win.hi && firstRows.length < end; p++) {
        const row = rows[p];
        if (touched[row] === 0 && inRest(row)) firstRows.push(row);
      }
      if (fresh.length === 0) return { rows: firstRows.slice(offset, end), total };
      return { rows: sortRows(t, firstRows.concat(fresh)).slice(offset, end), total };
    }

    // general: walk the driver's windows; other constraints as bit sets over rows
    const tests: { bits: Int32Array; want: boolean }[] = [];
    const bitsOf = (c: Constraint) => {
      const bits = new Int32Array((t.count >> 5) + 1);
      for (const w of c.windows) {
        for (let p = w.lo; p < w.hi; p++) {
          const row = rows[p];
          bits[row >> 5] |= 1 << (row & 31);
        }
      }
      return bits;
    };
    for (const c of includes) if (c !== driver) tests.push({ bits: bitsOf(c), want: true });
    for (const c of excludes) if (c.size > 0) tests.push({ bits: bitsOf(c), want: false });
    const anyTouched = this.touchedCount > 0;
    if (walkMain) {
      if (driver) tests.push({ bits: bitsOf(driver), want: true });
      const nt = tests.length, mrows = st.main.rows;
      const page: number[] = [];
      let total = 0;
      for (let i = mainLo; i < mainHi; i++) {
        const row = mrows[i];
        let ok = true;
        for (let k = 0; k < nt && ok; k++) {
          const test = tests[k];
          ok = ((test.bits[row >> 5] & (1 << (row & 31))) !== 0) === test.want;
        }
        if (!ok || (anyTouched && touched[row] === 1) || !inRest(row) || (verify && !textMatch(row))) continue;
        if (fresh.length > 0 ? total < end : total >= offset && total < end) page.push(row);
        total++;
      }
      if (fresh.length === 0) return { rows: page, total };
      return { rows: sortRows(t, page.concat(fresh)).slice(offset, end), total: total + fresh.length };
    }
    if (!driver) return undefined; // not reached: no driver means the main walk
    const nTests = tests.length;

    if (driver.windows.length === 1 && fresh.length === 0 && !verify && nTests <= 1) {
      // one list in order (the common case: one or two words): count, keep the page only
      const w = driver.windows[0];
      const bits = nTests === 1 ? tests[0].bits : undefined, want = nTests === 1 && tests[0].want;
      const page: number[] = [];
      let total = 0;
      for (let p = w.lo; p < w.hi; p++) {
        const row = rows[p];
        if (bits && ((bits[row >> 5] & (1 << (row & 31))) !== 0) !== want) continue;
        if (anyTouched && touched[row] === 1) continue;
        if (!inRest(row)) continue;
        if (total >= offset && total < end) page.push(row);
        total++;
      }
      return { rows: page, total };
    }

    const seen = driver.windows.length > 1 ? new Int32Array((t.count >> 5) + 1) : undefined;
    const hits: number[] = [];
    for (const w of driver.windows) {
      for (let p = w.lo; p < w.hi; p++) {
        const row = rows[p];
        if (anyTouched && touched[row] === 1) continue;
        if (seen) {
          const bit = 1 << (row & 31);
          if ((seen[row >> 5] & bit) !== 0) continue;
          seen[row >> 5] |= bit;
        }
        let ok = true;
        for (let k = 0; k < nTests && ok; k++) {
          const test = tests[k];
          ok = ((test.bits[row >> 5] & (1 << (row & 31))) !== 0) === test.want;
        }
        if (ok && inRest(row) && (!verify || textMatch(row))) hits.push(row);
      }
    }
    const total = hits.length + fresh.length;
    if (driver.windows.length === 1 && fresh.length === 0) return { rows: hits.slice(offset, end), total };
    for (const row of fresh) hits.push(row);
    return { rows: firstInOrder(t, hits, end).slice(offset, end), total };
  }
}

/** 1 at [status << 8 | flags] when a row of that status and flag byte passes a simple matcher's combinations. */
function passTable(m: Matcher): Uint8Array {
  const ok = new Uint8Array(COMBOS);
  for (let i = 0; i < m.combos.length; i++) ok[m.combos[i]] = 1;
  const table = new Uint8Array(8 << 8);
  for (let status = 0; status < 8; status++) {
    for (let f = 0; f < 256; f++) table[(status << 8) | f] = ok[comboOf(status, f)];
  }
  return table;
}

/** Word texts joined for substring search: each word preceded by JOIN; starts[i] = where word i begins. */
interface Joined {
  text: string;
  starts: Int32Array;
}

function joinWords(words: string[], from: number, to: number): Joined {
  const starts = new Int32Array(to - from);
  let at = 0;
  for (let i = from; i < to; i++) {
    starts[i - from] = at + 1;
    at += 1 + words[i].length;
  }
  return { text: ['', ...words.slice(from, to)].join(JOIN), starts };
}

/**
 * Pushes the index (plus `first`) of every word of `j` that holds `piece`, once each. The
 * piece has no separator unit, so a match lies inside one word.
 */
function findIn(j: Joined, piece: string, first: number, out: number[]): void {
  const text = j.text, starts = j.starts, n = starts.length;
  let from = 0;
  for (;;) {
    const at = text.indexOf(piece, from);
    if (at < 0) return;
    // the word holding position `at`: the last start <= at
    let lo = 0, hi = n;
    while (hi - lo > 1) {
      const mid = (lo + hi) >>> 1;
      if (starts[mid] <= at) lo = mid;
      else hi = mid;
    }
    out.push(first + lo);
    if (lo + 1 >= n) return;
    from = starts[lo + 1];
  }
}

/** true when one of the row's folded fields holds the folded term (fields never joined). */
function fieldsHold(t: EventTable, row: number, folded: string, term: string): boolean {
  if (!term.includes('\u0000')) return folded.includes(term);
  return foldText(t.titles[row]).includes(term) || foldText(t.excerpts[row]).includes(term) || foldText(t.descriptions[row]).includes(term);
}

/** Rows sorted by (local start, id). */
function sortRows(t: EventTable, rows: number[]): number[] {
  const starts = t.starts, ids = t.ids;
  return rows.sort((r, s) => (starts[r] < starts[s] ? -1 : starts[r] > starts[s] ? 1 : ids[r] - ids[s]));
}

/** The first `end` rows in (start, id) order. */
function firstInOrder(t: EventTable, hits: number[], end: number): number[] {
  const total = hits.length;
  if (end <= 0) return [];
  if (end * 8 >= total) return sortRows(t, hits).slice(0, end);
  const starts = t.starts, ids = t.ids;
  const before = (r: number, s: number) => starts[r] < starts[s] || (starts[r] === starts[s] && ids[r] < ids[s]);
  // a sorted buffer of the first `end` rows, insertion from the back
  const top: number[] = [];
  for (let i = 0; i < total; i++) {
    const row = hits[i];
    if (top.length === end && !before(row, top[end - 1])) continue;
    let j = top.length === end ? end - 1 : top.length;
    while (j > 0 && before(row, top[j - 1])) {
      top[j] = top[j - 1];
      j--;
    }
    top[j] = row;
  }
  return top;
}

/**
 * The query answered from the search index when that is cheaper than the chosen driver
 * (`driverCost` rows). Undefined = use the driver.
 */
export function searchQuery(st: CalendarState, q: EventQuery, matcher: Matcher, driverCost: number): QueryResult | undefined {
  if (!q.search || (q.search.include.length === 0 && q.search.exclude.length === 0)) return undefined;
  return searchIndexOf(st).query(st, q, matcher, driverCost);
}
