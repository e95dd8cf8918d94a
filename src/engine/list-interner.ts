// The shared lists of an event table (its organizer, category and tag lists, and its cost lists):
// one list per distinct content, handed out by ListInterner.

/** The key ListInterner finds a numeric list by (30 bits): a hash of src[from, from + n). */
export function listHash(src: ArrayLike<number>, from: number, n: number): number {
  let h = n;
  for (let i = 0; i < n; i++) h = Math.imul(h ^ (src[from + i] | 0), 0x9e3779b1) ^ (h >>> 15);
  return h & 0x3fffffff;
}

/**
 * Hands out one shared list per distinct content (link lists and cost lists are never mutated in
 * place, only replaced), so the million rows of a calendar hold a few thousand small arrays
 * instead of a million. Singletons of small ids are found by index, other lists by a key.
 * The lists are not frozen: frozen arrays have their own elements kind, and the query loops
 * over these lists should stay monomorphic.
 */
export class ListInterner<T extends number | string> {
  /** numeric lists of one small id, by that id */
  private readonly singles: (T[] | undefined)[] = [];
  /**
   * Other numeric lists, by a 30-bit hash of their ids, in an open-addressing table (linear
   * probing): slotKeys[i] the hash of the list in slotLists[i], -1 for an empty slot; lists
   * sharing a hash take successive slots. A Map of a million-event import's ~300,000 lists took
   * about twice as long to find them in (its entries and buckets are more memory to miss in).
   */
  private slotKeys = new Int32Array(1024).fill(-1);
  private slotLists: T[][] = new Array<T[]>(1024).fill(EMPTY as T[]);
  private slotsUsed = 0;
  /** string lists, by their JSON */
  private readonly byKey = new Map<string, T[]>();
  /** the string lists handed out (shared, never changed in place) */
  private readonly owned = new WeakSet<object>();

  constructor(readonly empty: readonly T[]) {}

  /** The shared list equal to `list` (a copy is kept the first time). */
  intern(list: readonly T[]): readonly T[] {
    return list.length === 0 ? this.empty : this.internRange(list, 0, list.length);
  }

  /**
   * internRange of a numeric list that is not a singleton of a small id, whose listHash is `key`
   * (a parallel import's workers compute it, src/import/pack.ts).
   */
  internHashed(src: ArrayLike<T>, from: number, n: number, key: number): readonly T[] {
    const keys = this.slotKeys,
      mask = keys.length - 1;
    let i = key & mask;
    for (let k = keys[i]; k !== -1; k = keys[(i = (i + 1) & mask)]) {
      if (k === key && sameRange(this.slotLists[i], src, from, n)) return this.slotLists[i];
    }
    const list = copyRange(src, from, n);
    keys[i] = key;
    this.slotLists[i] = list;
    if (++this.slotsUsed * 2 > keys.length) this.growSlots();
    return list;
  }

  /** The hashed lists in a table twice as large. */
  private growSlots(): void {
    const oldKeys = this.slotKeys,
      oldLists = this.slotLists;
    const keys = new Int32Array(oldKeys.length * 2).fill(-1),
      lists = new Array<T[]>(keys.length).fill(EMPTY as T[]),
      mask = keys.length - 1;
    for (let j = 0; j < oldKeys.length; j++) {
      const key = oldKeys[j];
      if (key === -1) continue;
      let i = key & mask;
      while (keys[i] !== -1) i = (i + 1) & mask;
      keys[i] = key;
      lists[i] = oldLists[j];
    }
    this.slotKeys = keys;
    this.slotLists = lists;
  }

  /** The shared list [id] of a small id (bySingle). */
  single(id: T): readonly T[] {
    return this.singles[id as number] ?? (this.singles[id as number] = [id]);
  }

  /** Whether internRange finds src[from, from + n) by index rather than by listHash. */
  static bySingle(src: ArrayLike<number>, from: number, n: number): boolean {
    const first = src[from];
    return n === 1 && first >= 0 && first < 65_536 && (first | 0) === first;
  }

  /** The shared list equal to src[from, from + n), built only when it is new. */
  internRange(src: ArrayLike<T>, from: number, n: number): readonly T[] {
    if (n === 0) return this.empty;
    const first = src[from];
    if (typeof first === 'number') {
      if (ListInterner.bySingle(src as ArrayLike<number>, from, n)) return this.single(first);
      return this.internHashed(src, from, n, listHash(src as ArrayLike<number>, from, n));
    }
    // one of the shared lists (given back by an importer that memoises them): it is its own answer
    if (n === src.length && from === 0 && this.owned.has(src as object)) return src as readonly T[];
    // strings may hold any character: JSON keeps the boundaries unambiguous
    const key = JSON.stringify(n === src.length && from === 0 ? src : Array.prototype.slice.call(src, from, from + n));
    let out = this.byKey.get(key);
    if (!out) {
      this.byKey.set(key, (out = copyRange(src, from, n)));
      this.owned.add(out);
    }
    return out;
  }
}

/** what an empty slot of the hashed table holds (a packed array: the slots' elements kind stays that of lists) */
const EMPTY: number[] = [];

/** `list` holds src[from, from + n) */
function sameRange<T>(list: readonly T[], src: ArrayLike<T>, from: number, n: number): boolean {
  if (list.length !== n) return false;
  for (let i = 0; i < n; i++) if (list[i] !== src[from + i]) return false;
  return true;
}

/** A packed array (the elements kind every other list the query loops see has). */
function copyRange<T>(src: ArrayLike<T>, from: number, n: number): T[] {
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(src[from + i]);
  return out;
}
