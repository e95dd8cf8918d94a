// The word index (search-index.ts) and the main index's block statistics (block-stats.ts) in a
// version 3 snapshot, after its events chunks, so that a load has them at once instead of
// building them between requests (docs/store.md, "The chunks (version 3)"):
//
//   {"type":"search-index","rows":N,"lists":L,"entries":E,"blocks":B,"packed":P,"touched":"…"}
//   {"type":"search-words","from":I,"words":"w w w …"}        the vocabulary, space-separated
//   {"type":"search-array","name":"offsets","from":I,"data":"…"}  offsets, base, start, width,
//                                                              packed, order: base64 pieces
//   {"type":"block-stats","rows":N,"blocks":B}
//   {"type":"block-array","name":"bounds","from":I,"data":"…"}    bounds, counts, minEnds,
//                                                              maxEnds, segEnds, segCombos
//
// then the large posting lists' block statistics, a line a list (snapshot-list-stats.ts).
//
// Rows are snapshot positions (the rows' order in the events chunks). Everything read is checked
// (lengths, ranges, every posting decoded once); anything wrong refuses the snapshot as a damaged
// events chunk does. A snapshot without these chunks loads as before.

import { COMBOS, SEG_CAP } from './block-stats.ts';
import { PackedPostings } from './packed-postings.ts';
import { existingSearchIndex, installSearchIndex, SearchIndex } from './search-index.ts';
import { base64Of, decodeInto } from './snapshot-bytes.ts';
import { captureListStats, ListStatsReader } from './snapshot-list-stats.ts';
import type { CalendarState } from './state.ts';

/** values of an array in one line (16 MiB of 4-byte values) */
const PIECE = 1 << 22;
/** words of the vocabulary in one line */
const WORDS_PIECE = 1 << 18;
const POSTING_SHIFT = 8;

type Column = Int32Array<ArrayBuffer> | Uint32Array<ArrayBuffer> | Uint8Array<ArrayBuffer> | Float64Array<ArrayBuffer>;

/** What encodeSnapshot keeps of the two, captured when it is called. */
export interface Extras {
  words?: { words: string[]; offsets: Int32Array; rows: PackedPostings; touched: Uint8Array };
  blocks?: { n: number; arrays: Record<string, Column> };
  /** table row → snapshot position; none: the same */
  positions?: Int32Array;
  /** the large posting lists' block statistics lines (snapshot-list-stats.ts) */
  lists?: unknown[];
}

/** The state's word index and main block statistics as they are now (those that are built). */
export function captureExtras(st: CalendarState, positions: Int32Array | undefined): Extras {
  const out: Extras = { positions };
  const si = existingSearchIndex(st);
  const words = si?.persisted();
  if (words) out.words = words;
  const lists = captureListStats(st);
  if (lists.length > 0) out.lists = lists;
  const b = st.blocks;
  // the statistics follow the main index's order, which is the snapshot's when it has one
  if (!b.dirty && positions && st.main.count === st.table.count && b.segmented) {
    const n = st.main.count;
    const segEnds = new Float64Array(n),
      segCombos = new Uint8Array(n);
    for (let k = 0, at = 0; k < b.blocks; k++) {
      const from = b.segBase(k),
        to = b.segEnd(k);
      segEnds.set(b.segEnds.subarray(from, to), at);
      segCombos.set(b.segCombos.subarray(from, to), at);
      at += to - from;
    }
    out.blocks = {
      n,
      arrays: {
        bounds: b.bounds.slice(0, b.blocks + 1),
        counts: b.counts.slice(0, b.blocks * COMBOS),
        minEnds: b.minEnds.slice(0, b.blocks),
        maxEnds: b.maxEnds.slice(0, b.blocks),
        segEnds,
        segCombos,
      },
    };
  }
  return out;
}

function* arrayChunks(type: string, name: string, a: Column): Generator<unknown> {
  for (let from = 0; from < a.length || from === 0; from += PIECE) {
    yield { type, name, from, data: base64Of(a, from, Math.min(a.length, from + PIECE)) };
    if (a.length === 0) return;
  }
}

/** The chunks after the events chunks (none when nothing was captured). */
export function* extraChunks(x: Extras, tableRows: number): Generator<unknown> {
  if (x.words) {
    const { words, offsets, rows, touched } = x.words;
    const inv = x.positions;
    const pos = (r: number) => (inv ? inv[r] : r);
    const order = new Int32Array(rows.order.length);
    for (let i = 0; i < order.length; i++) order[i] = pos(rows.order[i]);
    const marks: number[] = [];
    for (let r = 0; r < Math.min(tableRows, touched.length); r++) if (touched[r] !== 0) marks.push(pos(r));
    yield {
      type: 'search-index',
      rows: order.length,
      lists: words.length,
      entries: rows.length,
      blocks: rows.base.length,
      packed: rows.words.length,
      touched: base64Of(Int32Array.from(marks)),
    };
    for (let from = 0; from < words.length; from += WORDS_PIECE)
      yield { type: 'search-words', from, words: words.slice(from, from + WORDS_PIECE).join(' ') };
    yield* arrayChunks('search-array', 'offsets', offsets as Int32Array<ArrayBuffer>);
    yield* arrayChunks('search-array', 'base', rows.base as Int32Array<ArrayBuffer>);
    yield* arrayChunks('search-array', 'start', rows.start as Uint32Array<ArrayBuffer>);
    yield* arrayChunks('search-array', 'width', rows.width as Uint8Array<ArrayBuffer>);
    yield* arrayChunks('search-array', 'packed', rows.words as Uint32Array<ArrayBuffer>);
    yield* arrayChunks('search-array', 'order', order);
  }
  if (x.blocks) {
    const { n, arrays } = x.blocks;
    yield { type: 'block-stats', rows: n, blocks: arrays.bounds.length - 1 };
    for (const [name, a] of Object.entries(arrays)) yield* arrayChunks('block-array', name, a);
  }
  if (x.lists) yield* x.lists;
}

const fail = (what: string): never => {
  throw new Error(`snapshot load: expected ${what}`);
};

const count = (v: unknown, what: string, max = 2 ** 31 - 1): number =>
  Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) <= max ? (v as number) : fail(`${what}, got ${v}`);

/** The extra chunks of a snapshot as they are read, then checked and installed (install()). */
export class ExtrasReader {
  private search?: {
    rows: number;
    lists: number;
    entries: number;
    touched: Int32Array;
    words: string[];
    arrays: Record<string, Column>;
    filled: Record<string, number>;
  };
  private stats?: { rows: number; blocks: number; arrays: Record<string, Column>; filled: Record<string, number> };
  private readonly lists = new ListStatsReader();

  /** True when `chunk` is one of these (taken); `rows`: the snapshot's rows (all read before). */
  take(chunk: { type?: unknown } & Record<string, unknown>, rows: number): boolean {
    const type = chunk.type;
    if (this.lists.take(chunk)) return true;
    if (type === 'search-index') {
      const blocks = count(chunk.blocks, 'a number of posting blocks');
      const entries = count(chunk.entries, 'a number of postings');
      if (blocks !== (entries + (1 << POSTING_SHIFT) - 1) >>> POSTING_SHIFT)
        fail(`${(entries + 255) >>> 8} posting blocks for ${entries} postings, got ${blocks}`);
      const lists = count(chunk.lists, 'a number of word lists');
      const touched = new Int32Array(Buffer.byteLength(String(chunk.touched ?? ''), 'base64') >>> 2);
      decodeInto('search-index.touched', chunk.touched, touched, 0, touched.length);
      this.search = {
        rows: count(chunk.rows, 'a number of indexed rows', rows),
        lists,
        entries,
        touched,
        words: [],
        arrays: {
          offsets: new Int32Array(lists + 1),
          base: new Int32Array(blocks),
          start: new Uint32Array(blocks),
          width: new Uint8Array(blocks),
          packed: new Uint32Array(count(chunk.packed, 'a number of packed words')),
          order: new Int32Array(count(chunk.rows, 'a number of indexed rows', rows)),
        },
        filled: {},
      };
      return true;
    }
    if (type === 'search-words') {
      const s = this.search ?? fail('the search-index chunk before its words');
      if (chunk.from !== s.words.length || typeof chunk.words !== 'string')
        fail(`the words from ${s.words.length} on, got a chunk from ${chunk.from}`);
      for (const w of (chunk.words as string).split(' ')) s.words.push(w);
      return true;
    }
    if (type === 'search-array') {
      const s = this.search ?? fail('the search-index chunk before its arrays');
      this.piece('search-index', s, chunk);
      return true;
    }
    if (type === 'block-stats') {
      const blocks = count(chunk.blocks, 'a number of blocks');
      this.stats = {
        rows: count(chunk.rows, 'a number of rows in the block statistics', rows),
        blocks,
        arrays: {
          bounds: new Int32Array(blocks + 1),
          counts: new Int32Array(blocks * COMBOS),
          minEnds: new Float64Array(blocks),
          maxEnds: new Float64Array(blocks),
          segEnds: new Float64Array(count(chunk.rows, 'rows')),
          segCombos: new Uint8Array(count(chunk.rows, 'rows')),
        },
        filled: {},
      };
      return true;
    }
    if (type === 'block-array') {
      this.piece('block-stats', this.stats ?? fail('the block-stats chunk before its arrays'), chunk);
      return true;
    }
    return false;
  }

  private piece(
    what: string,
    into: { arrays: Record<string, Column>; filled: Record<string, number> },
    chunk: Record<string, unknown>,
  ): void {
    const name = String(chunk.name);
    const a = Object.hasOwn(into.arrays, name) ? into.arrays[name] : fail(`a ${what} array, got ${name}`);
    const from = into.filled[name] ?? 0;
    if (chunk.from !== from) fail(`${what}.${name} from ${from} on, got a piece from ${chunk.from}`);
    const n = Math.min(PIECE, a.length - from);
    decodeInto(`${what}.${name}`, chunk.data, a, from, n);
    into.filled[name] = from + Math.max(1, n);
  }

  /** After the indexes are built from the rows: the word index and block statistics read, checked
   *  and put in place (the word index's touched rows touched again, against their texts). */
  install(st: CalendarState): void {
    const s = this.search;
    if (s) {
      for (const [name, a] of Object.entries(s.arrays))
        if ((s.filled[name] ?? 0) < Math.max(1, a.length)) fail(`all of search-index.${name}`);
      if (s.words.length !== s.lists) fail(`${s.lists} words, got ${s.words.length}`);
      const rows = checkPostings(s, st.table.count);
      const si = new SearchIndex();
      const wrong = si.restore(st, s.words, s.arrays.offsets as Int32Array<ArrayBuffer>, rows);
      if (wrong !== undefined) fail(`a vocabulary of distinct folded words, got ${wrong}`);
      installSearchIndex(st, si);
      // rows written since that build (those added since too): their current words aside
      const seen = new Uint8Array(st.table.count);
      for (const p of s.touched) {
        if (!(p >= 0 && p < st.table.count)) fail(`touched rows below ${st.table.count}, got ${p}`);
        seen[p] = 1;
      }
      for (let r = 0; r < seen.length; r++) if (seen[r] !== 0) si.touch(st.table, r);
    }
    const b = this.stats;
    if (b) {
      for (const [name, a] of Object.entries(b.arrays))
        if ((b.filled[name] ?? 0) < Math.max(1, a.length)) fail(`all of block-stats.${name}`);
      restoreBlocks(st, b.rows, b.blocks, b.arrays);
    }
    this.lists.install(st);
  }
}

/** The postings read, every one decoded once: each list's ranks increasing, below the rows. */
function checkPostings(s: NonNullable<ExtrasReader['search']>, tableRows: number): PackedPostings {
  const offsets = s.arrays.offsets as Int32Array,
    base = s.arrays.base as Int32Array,
    start = s.arrays.start as Uint32Array,
    width = s.arrays.width as Uint8Array,
    packed = s.arrays.packed as Uint32Array,
    order = s.arrays.order as Int32Array;
  if (offsets[0] !== 0 || offsets[s.lists] !== s.entries) fail(`word list offsets from 0 to ${s.entries}`);
  for (let w = 0; w < s.lists; w++) if (offsets[w + 1] < offsets[w]) fail('increasing word list offsets');
  for (let i = 0; i < order.length; i++)
    if (!(order[i] >= 0 && order[i] < tableRows)) fail(`indexed rows below ${tableRows}, got ${order[i]}`);
  const rows = new PackedPostings(order, base, start, width, packed, s.entries);
  let list = 0,
    prev = -1,
    listEnd = s.lists > 0 ? offsets[1] : s.entries;
  const ranks = order.length;
  for (let b = 0; b < base.length; b++) {
    const w = width[b],
      from = b << POSTING_SHIFT,
      to = Math.min(s.entries, from + (1 << POSTING_SHIFT));
    if (!(w >= 1 && w <= 31)) fail(`posting widths of 1 to 31 bits, got ${w}`);
    if (start[b] + Math.ceil(((to - from) * w) / 32) >= packed.length) fail('packed postings within their words');
    const mask = 0xffffffff >>> (32 - w),
      first = start[b],
      at = base[b];
    for (let p = from, bit = 0; p < to; p++, bit += w) {
      while (listEnd <= p) {
        list++;
        listEnd = offsets[list + 1];
        prev = -1;
      }
      const i = first + (bit >>> 5),
        sh = bit & 31;
      const v = sh + w > 32 ? (packed[i] >>> sh) | (packed[i + 1] << (32 - sh)) : packed[i] >>> sh;
      const rank = at + (v & mask);
      if (!(rank > prev && rank < ranks)) fail(`increasing postings below ${ranks}, got ${rank}`);
      prev = rank;
    }
  }
  return rows;
}

/** The main index's block statistics read back: consistent counts, bounds and sorted segments. */
function restoreBlocks(st: CalendarState, n: number, blocks: number, a: Record<string, Column>): void {
  const main = st.main;
  if (main.count !== n) fail(`block statistics of ${main.count} rows, got ${n}`);
  // they describe the rows in the snapshot's order: the main index must hold them so
  for (let i = 0; i < n; i++) if (main.rows[i] !== i) return; // another order: refreshed as before
  const bounds = a.bounds as Int32Array,
    counts = a.counts as Int32Array,
    segEnds = a.segEnds as Float64Array,
    segCombos = a.segCombos as Uint8Array;
  if (bounds[0] !== 0 || bounds[blocks] !== n) fail(`block bounds from 0 to ${n}`);
  const minEnds = a.minEnds as Float64Array,
    maxEnds = a.maxEnds as Float64Array;
  const seg = new Float64Array(Math.max(1, blocks) * SEG_CAP),
    combos = new Uint8Array(Math.max(1, blocks) * SEG_CAP);
  for (let b = 0; b < blocks; b++) {
    const from = bounds[b],
      to = bounds[b + 1];
    // removals may leave a block empty
    if (!(to >= from && to - from <= SEG_CAP)) fail(`blocks of 0 to ${SEG_CAP} rows, got ${to - from}`);
    let total = 0;
    for (let c = 0; c < COMBOS; c++) total += counts[b * COMBOS + c];
    if (total !== to - from) fail(`block counters summing to its ${to - from} rows, got ${total}`);
    // ends of rows without a date are NaN: they sort anywhere, and the zone maps leave them out
    let hasNaN = false,
      sorted = true;
    for (let i = from; i < to; i++) {
      const e = segEnds[i];
      if (e !== e) hasNaN = true;
      else if (e < minEnds[b] || e > maxEnds[b]) fail("blocks' end bounds around their ends");
      if (i > from && e < segEnds[i - 1]) sorted = false;
      if (segCombos[i] >= COMBOS) fail(`combinations below ${COMBOS}`);
    }
    if (!sorted && !hasNaN) fail('block segments sorted by end');
    seg.set(segEnds.subarray(from, to), b * SEG_CAP);
    combos.set(segCombos.subarray(from, to), b * SEG_CAP);
  }
  const stats = st.blocks;
  stats.blocks = blocks;
  stats.bounds = bounds as Int32Array<ArrayBuffer>;
  stats.counts = counts as Int32Array<ArrayBuffer>;
  stats.minEnds = minEnds as Float64Array<ArrayBuffer>;
  stats.maxEnds = maxEnds as Float64Array<ArrayBuffer>;
  stats.segEnds = seg;
  stats.segCombos = combos;
  stats.slots = blocks;
  stats.slotOf = new Int32Array(blocks);
  for (let b = 0; b < blocks; b++) stats.slotOf[b] = b;
  stats.sumSupers();
  stats.dirty = false;
}
