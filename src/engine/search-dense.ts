// Bit sets of the search index's densest word lists, for a search whose rows must hold several
// words. Two words common at ten million rows have lists of ~670,000 entries each: walking one
// and testing the other decodes and tests every entry (~10 ms). As bit sets (a bit a row) the
// two are ANDed 32 rows at a time and only the rows in both are visited.
//
// A list has a bit set when that is no larger than its entries as plain 32-bit rows (it holds at
// least one row in 32) and the postings are unranked (an entry is its row, as after every load).
// A bit set is made from its list the first time a search needs it and kept with those postings
// (a rebuild of the index makes new postings, and these go with the old), at most DENSE_KEPT of
// them, the least recently used dropped first. A row written since the build is stale in its
// lists and in these alike: the walk skips touched rows.
//
// While no row was written since the build, the rows whose status and flags pass the query's
// test are one more kept set (passingBits), and a row range whose ends all pass is counted with
// a popcount a word in one pass with no branch a word (countAnd), walked row by row only where
// the page falls.
//
// The sets live in the bit arena (bit-arena.ts), where countAnd runs as WebAssembly; a set
// dropped from the kept ones, or kept for postings that are gone, goes back to the arena.

import { andCounter, dropBits, keptBits } from './bit-arena.ts';
import { FLAG_COORDS } from './event-rows.ts';
import { endPasses, type StartRange } from './matcher.ts';
import type { PackedPostings } from './packed-postings.ts';

/** Bit sets kept for one packed postings. */
export const DENSE_KEPT = 16;

/** Positions decoded at a time while a bit set is made. */
const DECODED = 4096;

const kept = new WeakMap<PackedPostings, Map<number, Int32Array>>();

/** Bit sets kept for these postings. */
export function denseCount(rows: PackedPostings): number {
  return kept.get(rows)?.size ?? 0;
}

/** Whether word list `id` gets a bit set (denseBits): it holds one row in 32 or more of
 *  [0, rowCount) and the postings are unranked. */
export function isDense(rows: PackedPostings, offsets: Int32Array, id: number, rowCount: number): boolean {
  if (rows.ranked || id < 0 || id + 1 >= offsets.length) return false;
  return offsets[id + 1] - offsets[id] >= Math.max(1, rowCount >> 5);
}

/**
 * The bit set of word list `id` (positions [offsets[id], offsets[id + 1]) of `rows`) over rows
 * [0, rowCount), or undefined when the list is too sparse or the postings are ranked.
 */
export function denseBits(
  rows: PackedPostings,
  offsets: Int32Array,
  id: number,
  rowCount: number,
): Int32Array | undefined {
  if (!isDense(rows, offsets, id, rowCount)) return undefined;
  const from = offsets[id],
    to = offsets[id + 1];
  return keptOrMade(kept, rows, id, DENSE_KEPT, () => {
    const bits = keptBits((rowCount >> 5) + 1),
      buf = new Int32Array(DECODED);
    for (let p = from; p < to; p += DECODED) {
      const n = Math.min(DECODED, to - p);
      rows.decode(p, p + n, buf);
      for (let k = 0; k < n; k++) {
        const row = buf[k];
        if (row < rowCount) bits[row >> 5] |= 1 << (row & 31);
      }
    }
    return bits;
  });
}

/** The sets kept for postings that were collected go back to the arena. */
const gone = new FinalizationRegistry<Map<unknown, Int32Array>>((sets) => {
  for (const bits of sets.values()) dropBits(bits);
});

/** The bit set kept under `key` for these postings, else made, kept (the most recently used last)
 *  and the least recently used dropped past `limit` (given back to the arena after this task). */
function keptOrMade<K>(
  byPostings: WeakMap<PackedPostings, Map<K, Int32Array>>,
  rows: PackedPostings,
  key: K,
  limit: number,
  make: () => Int32Array,
): Int32Array {
  let sets = byPostings.get(rows);
  if (sets === undefined) {
    byPostings.set(rows, (sets = new Map()));
    gone.register(rows, sets as Map<unknown, Int32Array>);
  }
  const have = sets.get(key);
  if (have !== undefined) {
    sets.delete(key);
    sets.set(key, have);
    return have;
  }
  const made = make();
  sets.set(key, made);
  if (sets.size > limit) {
    const [oldest, bits] = sets.entries().next().value as [K, Int32Array];
    sets.delete(oldest);
    dropBits(bits);
  }
  return made;
}

/** What a row must pass besides holding the words: with `pass`, its (status, flags) entry in
 *  `pass` is 1 and, where a row range is marked so, its end within `end`; without, `match`. Rows
 *  marked in `stale` (touched since the build) are left out. */
export interface RowCheck {
  pass: Uint8Array | undefined;
  statusCodes: Uint8Array;
  flags: Uint8Array;
  ends: Float64Array;
  end: StartRange;
  match: (row: number) => boolean;
  stale: Uint8Array | undefined;
  /** with `pass` and no `stale` rows: the rows that pass `pass`, as a bit set (passingBits) */
  passing?: Int32Array;
}

/**
 * Rows whose bit is set in every one of `sets`, in increasing order, from the row ranges `segs`
 * (triples: first row, last row, and 1 when the range's ends must be read, else 0) that pass
 * `check`: `total` of them, and `page` = the ones numbered [pageFrom, pageTo) among them.
 */
export function andRows(
  sets: Int32Array[],
  segs: number[],
  check: RowCheck,
  pageFrom: number,
  pageTo: number,
): { page: number[]; total: number } {
  const page: number[] = [];
  let total = 0;
  let top = 0x7fffffff;
  for (const s of sets) top = Math.min(top, s.length - 1);
  const a = sets[0],
    b = sets.length > 1 ? sets[1] : sets[0],
    n = sets.length;
  const { pass, statusCodes, flags, ends, end: e, match, stale } = check;
  // the rows that pass the (status, flags) check as one more set: only with no stale rows
  const passing = pass !== undefined && stale === undefined ? check.passing : undefined;
  // whole ranges counted in WebAssembly when the sets are in the bit arena
  const counter =
    passing === undefined
      ? undefined
      : (andCounter(sets, passing) ?? ((from: number, to: number) => countAnd(sets, passing, from, to)));
  for (let g = 0; g < segs.length; g += 3) {
    const r0 = segs[g],
      r1 = segs[g + 1],
      first = r0 >> 5,
      last = Math.min(r1 >> 5, top),
      readEnds = segs[g + 2] === 1;
    if (passing !== undefined && counter !== undefined && !readEnds && last > first) {
      // every row of the range in the sets is a match: counted in one branch-free pass, and
      // visited only when the page falls in it
      const c =
        bitCount(wordAnd(sets, passing, first) & (-1 << (r0 & 31))) +
        counter(first + 1, last - 1) +
        bitCount(wordAnd(sets, passing, last) & (last === r1 >> 5 ? lowMask(r1) : -1));
      if (total + c <= pageFrom || total >= pageTo) {
        total += c;
        continue;
      }
    }
    for (let i = first; i <= last; i++) {
      let x = a[i] & b[i];
      for (let k = 2; k < n && x !== 0; k++) x &= sets[k][i];
      if (passing !== undefined) x &= passing[i];
      if (x === 0) continue;
      if (i === first) x &= -1 << (r0 & 31);
      if (i === r1 >> 5) x &= lowMask(r1);
      if (passing !== undefined && !readEnds) {
        // every row left is a match: counted, visited only for the page
        const c = bitCount(x);
        if (total + c <= pageFrom || total >= pageTo) {
          total += c;
          continue;
        }
      }
      while (x !== 0) {
        const low = x & -x;
        x ^= low;
        const row = (i << 5) | (31 - Math.clz32(low));
        if (passing !== undefined) {
          if (readEnds) {
            if (!endPasses(e, ends[row])) continue;
          }
        } else if (stale !== undefined && stale[row] === 1) continue;
        else if (pass === undefined) {
          if (!match(row)) continue;
        } else {
          if (pass[(statusCodes[row] << 8) | flags[row]] === 0) continue;
          if (readEnds) {
            if (!endPasses(e, ends[row])) continue;
          }
        }
        if (total >= pageFrom && total < pageTo) page.push(row);
        total++;
      }
    }
  }
  return { page, total };
}

/** The bits of rows up to `row` in its 32-row word. */
function lowMask(row: number): number {
  return (row & 31) === 31 ? -1 : (1 << ((row & 31) + 1)) - 1;
}

/** Word `i` of every set and `passing` ANDed. */
function wordAnd(sets: Int32Array[], passing: Int32Array, i: number): number {
  let x = passing[i];
  for (let k = 0; k < sets.length; k++) x &= sets[k][i];
  return x;
}

/** Bits set in words [from, to] of every set and `passing` ANDed, in one pass with no branch a
 *  word (the usual two words and three sets read side by side): for sets outside the bit arena,
 *  or more than its counter takes (andCounter). */
export function countAnd(sets: Int32Array[], passing: Int32Array, from: number, to: number): number {
  let total = 0;
  if (sets.length === 2) {
    const a = sets[0],
      b = sets[1];
    for (let i = from; i <= to; i++) total += bitCount(a[i] & b[i] & passing[i]);
  } else if (sets.length === 1) {
    const a = sets[0];
    for (let i = from; i <= to; i++) total += bitCount(a[i] & passing[i]);
  } else for (let i = from; i <= to; i++) total += bitCount(wordAnd(sets, passing, i));
  return total;
}

/** Number of bits set in a 32-bit word. */
function bitCount(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

const passKept = new WeakMap<PackedPostings, Map<string, Int32Array>>();

/** a pass table's content as a key, or null when it reads the coordinates flag; made once a
 *  table (search-walk.ts keeps one table per matcher combination table) */
const passKeys = new WeakMap<Uint8Array, string | null>();

function passKey(pass: Uint8Array): string | null {
  let key = passKeys.get(pass);
  if (key !== undefined) return key;
  key = String.fromCharCode(...pass);
  for (let i = 0; i < pass.length; i++) if (pass[i] !== pass[i ^ FLAG_COORDS]) key = null;
  passKeys.set(pass, key);
  return key;
}

/** Bit sets of passing rows kept for one packed postings. */
export const PASS_KEPT = 4;

/**
 * The rows of [0, rowCount) whose (status, flags) entry in `pass` is 1, as a bit set kept with
 * the postings (at most PASS_KEPT of them, one a pass table), or undefined when `pass` reads the
 * venue-has-coordinates flag (a venue's write changes it on rows it does not touch). Right for
 * every row while no row was written since the build: the caller asks only then.
 */
export function passingBits(
  rows: PackedPostings,
  pass: Uint8Array,
  statusCodes: Uint8Array,
  flags: Uint8Array,
  rowCount: number,
): Int32Array | undefined {
  const key = passKey(pass);
  if (key === null) return undefined;
  return keptOrMade(passKept, rows, key, PASS_KEPT, () => {
    const bits = keptBits((rowCount >> 5) + 1);
    for (let row = 0; row < rowCount; row++)
      if (pass[(statusCodes[row] << 8) | flags[row]] === 1) bits[row >> 5] |= 1 << (row & 31);
    return bits;
  });
}
