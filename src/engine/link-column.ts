// The link columns of the event table (organizers, categories, tags): each row holds the number of
// its list in a pool the three columns share, and the pool keeps each distinct list once, its ids
// packed in one Int32Array. A million events hold ~650,000 distinct lists: as arrays they took
// ~70 bytes each plus an 8-byte pointer a row and column; here a list is its ids at 4 bytes each
// plus a 4-byte offset, and a row 4 bytes a column.

import { growInt32 } from './columns.ts';
import { grownPairs, pairMask, pairSlots, placePair } from './hash-slots.ts';
import { ListInterner, listHash } from './list-interner.ts';

/**
 * Distinct lists of ids, numbered from 0 (the empty list): list k is values[offsets[k],
 * offsets[k + 1]). Lists are never changed or removed, so a list's number means the same for as
 * long as the pool lives (a frozen copy of a column may keep reading it). Singletons of small ids
 * are found by index, other lists by listHash in an open-addressing table of list numbers.
 *
 * A snapshot load appends the lists a snapshot holds as they are (appendPacked) without finding
 * them: they join that lookup a slice at a time between requests (indexSome), or all at once
 * before the next list is interned.
 */
export class IdListPool {
  values = new Int32Array(256);
  /** offsets[k]: where list k starts; offsets[count]: where the next one will */
  offsets = new Int32Array(256);
  /** number of lists (list 0, the empty list, is always there) */
  count = 1;
  /** list numbers by listHash, each with its hash (pairSlots; linear probing) */
  private slots = pairSlots(1024);
  private slotsUsed = 0;
  /** the list number of [id] for a small id, by id (0 = not made yet) */
  private singles = new Int32Array(0);
  /** lists [1, indexed) are in the lookup (slots, singles); the others were appended by a load */
  private indexed = 1;

  /** The number of the list equal to src[from, from + n) (added when new). */
  internRange(src: ArrayLike<number>, from: number, n: number): number {
    if (n === 0) return 0;
    if (ListInterner.bySingle(src, from, n)) return this.single(src[from]);
    return this.internHashed(src, from, n, listHash(src, from, n));
  }

  /** internRange of a whole list. */
  intern(list: ArrayLike<number>): number {
    return this.internRange(list, 0, list.length);
  }

  /** The number of the list [id], for an id ListInterner.bySingle accepts. */
  single(id: number): number {
    if (this.indexed < this.count) this.indexSome(Infinity);
    if (this.singles.length === 0) this.singles = new Int32Array(65_536);
    let k = this.singles[id];
    if (k === 0) {
      k = this.add([id], 0, 1);
      this.singles[id] = k;
      this.indexed = this.count;
    }
    return k;
  }

  /**
   * internRange of a list that is not a singleton of a small id, whose listHash is `key` (it must
   * be: the table's growth places lists by listHash of their content).
   */
  internHashed(src: ArrayLike<number>, from: number, n: number, key: number): number {
    if (this.indexed < this.count) this.indexSome(Infinity);
    const slots = this.slots,
      mask = pairMask(slots);
    let i = key & mask;
    for (let k = slots[2 * i]; k !== 0; k = slots[2 * (i = (i + 1) & mask)])
      if (slots[2 * i + 1] === key && this.equals(k, src, from, n)) return k;
    const k = this.add(src, from, n);
    slots[2 * i] = k;
    slots[2 * i + 1] = key;
    this.indexed = this.count;
    if (++this.slotsUsed * 2 > mask + 1) this.growSlots();
    return k;
  }

  /**
   * Append lists as they are, numbered from `count` on: list j is values[ends[j - 1], ends[j])
   * (from 0 for j = 0). The caller has checked them: each end greater than the one before, the
   * last one values.length. They are not found by intern until indexSome has taken them in.
   */
  appendPacked(values: Int32Array, ends: Int32Array): void {
    const k = ends.length,
      first = this.count;
    if (first + k + 1 > this.offsets.length) this.offsets = growInt32(this.offsets, first + k + 1, grow);
    const at = this.offsets[first];
    if (at + values.length > this.values.length) this.values = growInt32(this.values, at + values.length, grow);
    this.values.set(values, at);
    const o = this.offsets;
    for (let j = 0; j < k; j++) o[first + j + 1] = at + ends[j];
    this.count = first + k;
  }

  /** Room for `lists` lists of `values` ids in all, made at once (a load that knows its pool's size). */
  reserve(lists: number, values: number): void {
    this.offsets = growInt32(this.offsets, lists + 1, exactly);
    this.values = growInt32(this.values, values, exactly);
  }

  /**
   * Takes up to `max` of the lists appendPacked left out into the lookup; true once none is left.
   * The lookup finds the first of equal lists (a pool a snapshot brings has none).
   */
  indexSome(max: number): boolean {
    const to = Math.min(this.count, this.indexed + max);
    if (to <= this.indexed) return this.indexed === this.count;
    const v = this.values,
      o = this.offsets;
    // room for every list still out at once (the first slice), not a rehash every few slices
    this.slotsFor(this.slotsUsed + this.count - this.indexed);
    const slots = this.slots,
      mask = pairMask(slots);
    for (let k = this.indexed; k < to; k++) {
      const a = o[k],
        n = o[k + 1] - a;
      if (ListInterner.bySingle(v, a, n)) {
        if (this.singles.length === 0) this.singles = new Int32Array(65_536);
        if (this.singles[v[a]] === 0) this.singles[v[a]] = k;
        continue;
      }
      placePair(slots, mask, k, listHash(v, a, n));
      this.slotsUsed++;
    }
    this.indexed = to;
    return to === this.count;
  }

  /** list k holds src[from, from + n) */
  private equals(k: number, src: ArrayLike<number>, from: number, n: number): boolean {
    const a = this.offsets[k];
    if (this.offsets[k + 1] - a !== n) return false;
    const v = this.values;
    for (let i = 0; i < n; i++) if (v[a + i] !== src[from + i]) return false;
    return true;
  }

  /** Append src[from, from + n) as a new list; returns its number. */
  private add(src: ArrayLike<number>, from: number, n: number): number {
    const k = this.count;
    if (k + 2 > this.offsets.length) this.offsets = growInt32(this.offsets, k + 2, grow);
    const at = this.offsets[k];
    if (at + n > this.values.length) this.values = growInt32(this.values, at + n, grow);
    const v = this.values;
    for (let i = 0; i < n; i++) v[at + i] = src[from + i];
    this.offsets[k + 1] = at + n;
    this.count = k + 1;
    return k;
  }

  /** Room for `factor` times the lists and values held now, made at once (a load that has read a
   *  sample of its rows): no copies and rehashes as the pool grows. */
  expect(factor: number): void {
    if (!(factor > 1 && Number.isFinite(factor))) return;
    const lists = Math.ceil(this.count * factor),
      values = Math.ceil(this.offsets[this.count] * factor);
    this.offsets = growInt32(this.offsets, lists + 1, grow);
    this.values = growInt32(this.values, values, grow);
    if (this.indexed === this.count) this.slotsFor(lists);
  }

  /** A table of slot pairs at most half full with `lists` lists in it. */
  private slotsFor(lists: number): void {
    while (pairMask(this.slots) + 1 < 2 * lists) this.growSlots();
  }

  /** The hashed lists in a table twice as large. */
  private growSlots(): void {
    this.slots = grownPairs(this.slots);
  }

  /** List k as a new array. */
  list(k: number): number[] {
    const a = this.offsets[k],
      b = this.offsets[k + 1],
      v = this.values;
    const out: number[] = [];
    for (let i = a; i < b; i++) out.push(v[i]);
    return out;
  }

  /** Bytes held (its typed arrays). */
  byteSize(): number {
    return this.values.byteLength + this.offsets.byteLength + this.slots.byteLength + this.singles.byteLength;
  }
}

/** Capacity for the pool's arrays: half as much again (they only grow, a list at a time). */
function grow(current: number, need: number): number {
  let cap = Math.max(256, current);
  while (cap < need) cap += cap >> 1;
  return cap;
}

function exactly(_current: number, need: number): number {
  return need;
}

/** A frozen link column: the list numbers of its rows, and the pool they number. */
export interface LinkLists {
  readonly lists: Int32Array;
  readonly pool: IdListPool;
}

/** One link column: the number of each row's list in the shared pool. */
export class LinkColumn implements LinkLists {
  lists = new Int32Array(0);

  constructor(readonly pool: IdListPool) {}

  grow(cap: number): void {
    this.lists = growInt32(this.lists, cap);
  }

  /** The row's ids, a new array. */
  get(row: number): number[] {
    const k = this.lists[row];
    return k === 0 ? [] : this.pool.list(k);
  }

  /** Number of ids of the row. */
  size(row: number): number {
    const k = this.lists[row],
      o = this.pool.offsets;
    return o[k + 1] - o[k];
  }

  /** Whether the row's ids are `ids`, in order. */
  equals(row: number, ids: ArrayLike<number>): boolean {
    const k = this.lists[row],
      pool = this.pool,
      v = pool.values,
      a = pool.offsets[k];
    if (pool.offsets[k + 1] - a !== ids.length) return false;
    for (let i = 0; i < ids.length; i++) if (v[a + i] !== ids[i]) return false;
    return true;
  }

  set(row: number, ids: ArrayLike<number>): void {
    this.lists[row] = this.pool.intern(ids);
  }

  /** Whether some id of the row passes `test`. */
  some(row: number, test: (id: number) => boolean): boolean {
    const k = this.lists[row],
      pool = this.pool,
      v = pool.values;
    const b = pool.offsets[k + 1];
    for (let i = pool.offsets[k]; i < b; i++) if (test(v[i])) return true;
    return false;
  }

  /** The numbers of rows [0, n), copied (later writes do not change them). */
  freeze(n: number): LinkLists {
    return { lists: this.lists.slice(0, n), pool: this.pool };
  }
}
