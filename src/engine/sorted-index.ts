// Sorted lists of event rows in (local start naive ms, event id) order, crossfilter bisect.js
// style: two or three parallel typed arrays and bisect functions whose comments state the
// partition they return. Inserts are one bisect plus copyWithin; bulk loads sort once.
//
// SortedIndex keeps its own keys (start ms), ties (event ids), local ends and (status, flags)
// combinations (block-stats.ts) next to the rows: the main index over every event, whose
// simple filters read only these sequential arrays. The posting lists of categories, tags,
// venues, organizers and parents keep the same order (posting-list.ts).

import { growFloat64, growInt32, growUint8, insertCapacity, sortRowsByStartId } from './columns.ts';
import { gatherInto } from './gather.ts';

/**
 * Returns i in [lo, hi] such that keys[lo..i) < key <= keys[i..hi).
 * (first position whose key is >= key)
 */
export function bisectLeft(keys: Float64Array, key: number, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Returns i in [lo, hi] such that keys[lo..i) <= key < keys[i..hi).
 * (first position whose key is > key)
 */
export function bisectRight(keys: Float64Array, key: number, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Returns i in [lo, hi] such that (keys, ties)[lo..i) < (key, tie) <= (keys, ties)[i..hi),
 * pairs compared lexicographically. (first position whose pair is >= (key, tie))
 */
export function bisectPair(
  keys: Float64Array,
  ties: Int32Array,
  key: number,
  tie: number,
  lo: number,
  hi: number,
): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const k = keys[mid];
    if (k < key || (k === key && ties[mid] < tie)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Sort rows by (starts[row], ids[row]) in place. */
export function sortRowsByStart(rows: Int32Array, starts: Float64Array, ids: Int32Array): void {
  sortRowsByStartId(rows, starts, ids); // radix sort (columns.ts): linear, for bulk and snapshot loads
}

export class SortedIndex {
  keys = new Float64Array(16);
  ties = new Int32Array(16);
  rows = new Int32Array(16);
  /** local end of each entry's row */
  ends = new Float64Array(16);
  /** (status, flags) combination of each entry's row (comboOf) */
  combos = new Uint8Array(16);
  count = 0;

  /** Position range [lo, hi) of the entries whose key k satisfies lower bounds and upper bounds.
   *  `min`/`max` are inclusive bounds, `minOpen`/`maxOpen` say whether they are exclusive. */
  range(min: number, minOpen: boolean, max: number, maxOpen: boolean): [number, number] {
    const n = this.count;
    const lo = min === -Infinity ? 0 : minOpen ? bisectRight(this.keys, min, 0, n) : bisectLeft(this.keys, min, 0, n);
    const hi = max === Infinity ? n : maxOpen ? bisectLeft(this.keys, max, lo, n) : bisectRight(this.keys, max, lo, n);
    return [lo, Math.max(lo, hi)];
  }

  /** Inserts the entry; returns its position. */
  insert(key: number, tie: number, row: number, end = key, combo = 0): number {
    const n = this.count;
    const i = bisectPair(this.keys, this.ties, key, tie, 0, n);
    if (i < n && this.keys[i] === key && this.ties[i] === tie) {
      throw new Error(`sorted index: expected no entry (${key}, ${tie}), got one at ${i} (row ${this.rows[i]})`);
    }
    this.keys = growFloat64(this.keys, n + 1, insertCapacity);
    this.ties = growInt32(this.ties, n + 1, insertCapacity);
    this.rows = growInt32(this.rows, n + 1, insertCapacity);
    this.ends = growFloat64(this.ends, n + 1, insertCapacity);
    this.combos = growUint8(this.combos, n + 1, insertCapacity);
    this.keys.copyWithin(i + 1, i, n);
    this.ties.copyWithin(i + 1, i, n);
    this.rows.copyWithin(i + 1, i, n);
    this.ends.copyWithin(i + 1, i, n);
    this.combos.copyWithin(i + 1, i, n);
    this.keys[i] = key;
    this.ties[i] = tie;
    this.rows[i] = row;
    this.ends[i] = end;
    this.combos[i] = combo;
    this.count = n + 1;
    return i;
  }

  /** Removes the entry; returns the position it had. */
  remove(key: number, tie: number, row: number): number {
    const n = this.count;
    const i = bisectPair(this.keys, this.ties, key, tie, 0, n);
    if (i >= n || this.keys[i] !== key || this.ties[i] !== tie || this.rows[i] !== row) {
      throw new Error(
        `sorted index: expected row ${row} at (${key}, ${tie}), got ${i < n ? `row ${this.rows[i]} at (${this.keys[i]}, ${this.ties[i]})` : 'nothing'}`,
      );
    }
    this.keys.copyWithin(i, i + 1, n);
    this.ties.copyWithin(i, i + 1, n);
    this.rows.copyWithin(i, i + 1, n);
    this.ends.copyWithin(i, i + 1, n);
    this.combos.copyWithin(i, i + 1, n);
    this.count = n - 1;
    return i;
  }

  /**
   * Many changes in one pass (what a write of many rows does instead of one insert or remove
   * each, which moves the arrays' tails every time): the entries of the rows marked in `gone`
   * (indexed by row; `removals` of them expected) leave, then `add` (rows sorted by (starts, ids))
   * is merged in with its keys, ends and combinations read from the columns and `combo`.
   */
  merge(
    gone: Uint8Array | undefined,
    removals: number,
    add: Int32Array,
    starts: Float64Array,
    ids: Int32Array,
    ends: Float64Array,
    combo: (row: number) => number,
  ): void {
    const { keys, ties, rows, ends: endCol, combos } = this;
    let w = 0;
    if (gone !== undefined && removals > 0) {
      const n = this.count;
      for (let i = 0; i < n; i++) {
        const r = rows[i];
        if (gone[r] === 1) continue;
        if (w !== i) {
          keys[w] = keys[i];
          ties[w] = ties[i];
          rows[w] = r;
          endCol[w] = endCol[i];
          combos[w] = combos[i];
        }
        w++;
      }
      if (this.count - w !== removals)
        throw new Error(`sorted index: expected to remove ${removals} entries, found ${this.count - w}`);
    } else w = this.count;
    const total = w + add.length;
    this.keys = growFloat64(this.keys, total, insertCapacity);
    this.ties = growInt32(this.ties, total, insertCapacity);
    this.rows = growInt32(this.rows, total, insertCapacity);
    this.ends = growFloat64(this.ends, total, insertCapacity);
    this.combos = growUint8(this.combos, total, insertCapacity);
    // from the back: the kept entries move up to make room (a run at a time, found by bisection,
    // moved by copyWithin: only the entries after the first added one move, natively), the added
    // ones drop in between
    let i = w - 1,
      j = add.length - 1,
      k = total - 1;
    while (j >= 0) {
      const r = add[j],
        key = starts[r],
        tie = ids[r];
      // the kept entries after (key, tie): positions [p, i]
      const p = bisectPair(this.keys, this.ties, key, tie, 0, i + 1);
      if (p <= i && this.keys[p] === key && this.ties[p] === tie)
        throw new Error(`sorted index: expected no entry (${key}, ${tie}), got one (row ${this.rows[p]})`);
      if (p <= i) {
        const to = k - (i - p);
        if (to !== p) {
          this.keys.copyWithin(to, p, i + 1);
          this.ties.copyWithin(to, p, i + 1);
          this.rows.copyWithin(to, p, i + 1);
          this.ends.copyWithin(to, p, i + 1);
          this.combos.copyWithin(to, p, i + 1);
        }
        k = to - 1;
        i = p - 1;
      }
      this.keys[k] = key;
      this.ties[k] = tie;
      this.rows[k] = r;
      this.ends[k] = ends[r];
      this.combos[k] = combo(r);
      j--;
      k--;
    }
    this.count = total;
  }

  /** Position of the entry (key, tie) of `row`; throws when it is not there. */
  positionOf(key: number, tie: number, row: number): number {
    const i = bisectPair(this.keys, this.ties, key, tie, 0, this.count);
    if (i >= this.count || this.rows[i] !== row) {
      throw new Error(
        `sorted index: expected row ${row} at (${key}, ${tie}), got ${i < this.count ? `row ${this.rows[i]}` : 'nothing'}`,
      );
    }
    return i;
  }

  /** Replace the content with rows 0..n-1 keyed by starts/ids: one sort, no inserts.
   *  `ends` and `comboOf(row)` fill the inline end and combination columns when given. */
  load(n: number, starts: Float64Array, ids: Int32Array, ends?: Float64Array, comboOf?: (row: number) => number): void {
    const rows = new Int32Array(Math.max(16, n));
    for (let r = 0; r < n; r++) rows[r] = r;
    sortRowsByStart(rows.subarray(0, n), starts, ids);
    const keys = new Float64Array(rows.length);
    const ties = new Int32Array(rows.length);
    const endCol = new Float64Array(rows.length);
    const combos = new Uint8Array(rows.length);
    // each column read in the sorted order on its own (gather.ts); the combinations by row first
    gatherInto(starts, rows, keys, n);
    gatherInto(ids, rows, ties, n);
    gatherInto(ends ?? starts, rows, endCol, n);
    if (comboOf) {
      const byRow = new Uint8Array(n);
      for (let r = 0; r < n; r++) byRow[r] = comboOf(r);
      gatherInto(byRow, rows, combos, n);
    }
    this.rows = rows;
    this.keys = keys;
    this.ties = ties;
    this.ends = endCol;
    this.combos = combos;
    this.count = n;
  }
}
