// Posting lists: the rows of one category, tag, venue, organizer or parent, in the main index's
// (local start, event id) order (sorted-index.ts), with each row's combination byte; start and
// id are read through the event columns (5 bytes per link). Each list carries lazily rebuilt
// block counters (block-stats.ts) and, for link kinds where an event can carry several ids,
// `multi`: the sublist of its rows that carry two or more distinct ids of that kind (the only
// rows that a union of lists can count twice, see query-scan.ts), and `pairs`: for each larger
// id B, the rows carrying both this list's id and B (a union of two lists subtracts that list's
// count).

import { BlockStats } from './block-stats.ts';
import { growInt32, growUint8, insertCapacity } from './columns.ts';

/** Rows only, ordered by (starts[row], ids[row]) of the event columns passed to each call. */
export class PostingList {
  rows: Int32Array<ArrayBuffer>;
  /** (status, flags) combination of each entry's row (comboOf), kept by the owner */
  combos: Uint8Array<ArrayBuffer>;
  count = 0;
  /** per-block counters over this list's positions, made when first read (most lists, those of
   *  pairs of ids above all, are never counted by blocks: at ten million events 140,090 lists,
   *  whose statistics took 20 MB of V8's old space as objects); dirty after any change */
  get blocks(): BlockStats {
    return (this.stats ??= new BlockStats());
  }
  private stats: BlockStats | undefined;
  /** rows of this list with >= 2 distinct links of the list's kind (a superset is allowed:
   *  rows that lost links stay until they are next unindexed); undefined = none yet */
  multi: PostingList | undefined;
  /** larger id B → the rows linking both this list's id and B (exact) */
  pairs: Map<number, PostingList> | undefined;

  constructor(capacity = 4) {
    this.rows = new Int32Array(capacity);
    this.combos = new Uint8Array(capacity);
  }

  /** The rows changed: statistics made before are stale (none made yet: nothing to do). */
  private changed(): void {
    if (this.stats !== undefined) this.stats.dirty = true;
  }

  /** Returns i such that starts of rows[0..i) < key <= starts of rows[i..count). */
  lowerBound(starts: Float64Array, key: number, lo = 0): number {
    let hi = this.count;
    const rows = this.rows;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (starts[rows[mid]] < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Returns i such that starts of rows[0..i) <= key < starts of rows[i..count). */
  upperBound(starts: Float64Array, key: number, lo = 0): number {
    let hi = this.count;
    const rows = this.rows;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (starts[rows[mid]] <= key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Returns i such that rows[0..i) sort before (key, tie) and rows[i..count) at or after it. */
  position(starts: Float64Array, ids: Int32Array, key: number, tie: number): number {
    let lo = 0,
      hi = this.count;
    const rows = this.rows;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const r = rows[mid];
      const k = starts[r];
      if (k < key || (k === key && ids[r] < tie)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Position range [lo, hi) of rows whose start lies within the bounds (see SortedIndex.range). */
  range(starts: Float64Array, min: number, minOpen: boolean, max: number, maxOpen: boolean): [number, number] {
    const n = this.count;
    if (n === 0) return [0, 0];
    // a bound outside the list's first and last starts needs no bisection (the default window's
    // end, two years ahead, is past the last start of most lists: a radius query bisected each of
    // its hundreds of venue lists for nothing, two cache misses a step)
    const first = starts[this.rows[0]],
      last = starts[this.rows[n - 1]];
    const lo =
      min === -Infinity || (minOpen ? first > min : first >= min)
        ? 0
        : minOpen
          ? this.upperBound(starts, min)
          : this.lowerBound(starts, min);
    const hi =
      max === Infinity || (maxOpen ? last < max : last <= max)
        ? n
        : maxOpen
          ? this.lowerBound(starts, max, lo)
          : this.upperBound(starts, max, lo);
    return [lo, Math.max(lo, hi)];
  }

  insert(starts: Float64Array, ids: Int32Array, row: number, combo = 0): void {
    const n = this.count;
    const i = this.position(starts, ids, starts[row], ids[row]);
    if (i < n && this.rows[i] === row) throw new Error(`posting list: expected row ${row} absent, got it at ${i}`);
    this.rows = growInt32(this.rows, n + 1, insertCapacity);
    this.combos = growUint8(this.combos, n + 1, insertCapacity);
    this.rows.copyWithin(i + 1, i, n);
    this.combos.copyWithin(i + 1, i, n);
    this.rows[i] = row;
    this.combos[i] = combo;
    this.count = n + 1;
    this.changed();
  }

  /** Set the combination byte of `row` (located by its (start, id)) when it is in the list. */
  setCombo(starts: Float64Array, ids: Int32Array, row: number, combo: number): boolean {
    const i = this.position(starts, ids, starts[row], ids[row]);
    if (i >= this.count || this.rows[i] !== row) return false;
    if (this.combos[i] !== combo) {
      this.combos[i] = combo;
      this.changed();
    }
    return true;
  }

  /** Removes `row` when it is there (located by its current (start, id) as given); returns whether it was. */
  removeIfPresent(starts: Float64Array, ids: Int32Array, row: number, start: number, id: number): boolean {
    const n = this.count;
    const i = this.position(starts, ids, start, id);
    if (i >= n || this.rows[i] !== row) return false;
    this.rows.copyWithin(i, i + 1, n);
    this.combos.copyWithin(i, i + 1, n);
    this.count = n - 1;
    this.changed();
    return true;
  }

  /** Removes `row`, located by its current (start, id) as given. */
  remove(starts: Float64Array, ids: Int32Array, row: number, start: number, id: number): void {
    const n = this.count;
    const i = this.position(starts, ids, start, id);
    if (i >= n || this.rows[i] !== row) {
      throw new Error(
        `posting list: expected row ${row} at (${start}, ${id}), got ${i < n ? `row ${this.rows[i]}` : 'nothing'}`,
      );
    }
    this.rows.copyWithin(i, i + 1, n);
    this.combos.copyWithin(i, i + 1, n);
    this.count = n - 1;
    this.changed();
  }

  /**
   * Many changes in one pass (see SortedIndex.merge): the rows in `gone` leave (`strict`: each
   * must be there), then `add` (rows sorted by (starts, ids), with their combinations) is merged in.
   */
  merge(
    gone: ReadonlySet<number>,
    strict: boolean,
    add: Int32Array,
    addCombos: Uint8Array,
    starts: Float64Array,
    ids: Int32Array,
  ): void {
    const n = this.count;
    let w = n;
    if (gone.size > 0) {
      const { rows, combos } = this;
      w = 0;
      for (let i = 0; i < n; i++) {
        const r = rows[i];
        if (gone.has(r)) continue;
        rows[w] = r;
        combos[w] = combos[i];
        w++;
      }
      if (strict && n - w !== gone.size)
        throw new Error(`posting list: expected to remove ${gone.size} rows, found ${n - w}`);
    }
    const total = w + add.length;
    this.rows = growInt32(this.rows, total, insertCapacity);
    this.combos = growUint8(this.combos, total, insertCapacity);
    const { rows, combos } = this;
    let i = w - 1,
      j = add.length - 1,
      k = total - 1;
    // from the back: the kept rows after each added one move up a run at a time (found by
    // bisection, moved by copyWithin), the added ones drop in between
    while (j >= 0) {
      const r = add[j],
        key = starts[r],
        tie = ids[r];
      // the kept rows after (key, tie): positions [p, i]
      let p = 0,
        hi = i + 1;
      while (p < hi) {
        const mid = (p + hi) >>> 1;
        const m = rows[mid];
        if (starts[m] < key || (starts[m] === key && ids[m] < tie)) p = mid + 1;
        else hi = mid;
      }
      if (p <= i && rows[p] === r) throw new Error(`posting list: expected row ${r} absent, got it`);
      if (p <= i) {
        const to = k - (i - p);
        if (to !== p) {
          rows.copyWithin(to, p, i + 1);
          combos.copyWithin(to, p, i + 1);
        }
        k = to - 1;
        i = p - 1;
      }
      rows[k] = r;
      combos[k] = addCombos[j];
      j--;
      k--;
    }
    this.count = total;
    this.changed();
  }

  /** Append without ordering checks (bulk builds that walk rows in index order). */
  push(row: number, combo = 0): void {
    const n = this.count;
    if (n === this.rows.length) {
      this.rows = growInt32(this.rows, n + 1);
      this.combos = growUint8(this.combos, n + 1);
    }
    this.rows[n] = row;
    this.combos[n] = combo;
    this.count = n + 1;
    this.changed();
  }

  toArray(): number[] {
    return Array.from(this.rows.subarray(0, this.count));
  }
}
