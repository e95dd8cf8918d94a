// The shared cost lists of an event table: one list per distinct content, handed out by
// ListInterner; and the hash and the test by which the link lists' pool (link-column.ts) and a
// parallel import's workers (src/import/pack.ts) find a list of ids.

/** The key a list of ids is found by (30 bits): a hash of src[from, from + n). */
export function listHash(src: ArrayLike<number>, from: number, n: number): number {
  let h = n;
  for (let i = 0; i < n; i++) h = Math.imul(h ^ (src[from + i] | 0), 0x9e3779b1) ^ (h >>> 15);
  return h & 0x3fffffff;
}

/**
 * Hands out one shared list per distinct content (cost lists are never mutated in place, only
 * replaced), so the million rows of a calendar hold a few dozen small arrays instead of a
 * million. Lists are found by their JSON. The lists are not frozen: frozen arrays have their
 * own elements kind, and the loops over these lists should stay monomorphic.
 */
export class ListInterner<T extends number | string> {
  /** the numbers of the lists handed out, by their JSON */
  private readonly byKey = new Map<string, number>();
  /** the numbers of the lists handed out (shared, never changed in place), by the list */
  private readonly owned = new Map<object, number>();
  /** the lists handed out, by number (0: the empty list); numbers never change */
  private readonly all: (readonly T[])[];

  constructor(readonly empty: readonly T[]) {
    this.all = [empty];
  }

  /** How many lists have numbers (the empty one included). */
  get count(): number {
    return this.all.length;
  }

  /** The shared list numbered k. */
  list(k: number): readonly T[] {
    return this.all[k];
  }

  /** The shared list equal to `list` (a copy is kept the first time). */
  intern(list: readonly T[]): readonly T[] {
    return this.all[this.number(list)];
  }

  /** The number of the shared list equal to `list` (0: the empty list). */
  number(list: readonly T[]): number {
    if (list.length === 0) return 0;
    // one of the shared lists (given back by an importer that memoises them): its own number
    const k = this.owned.get(list);
    return k !== undefined ? k : this.numberRange(list, 0, list.length);
  }

  /** Whether the pool finds src[from, from + n) by index (a singleton of a small id) rather than by listHash. */
  static bySingle(src: ArrayLike<number>, from: number, n: number): boolean {
    const first = src[from];
    return n === 1 && first >= 0 && first < 65_536 && (first | 0) === first;
  }

  /** The shared list equal to src[from, from + n), built only when it is new. */
  internRange(src: ArrayLike<T>, from: number, n: number): readonly T[] {
    if (n === 0) return this.empty;
    if (n === src.length && from === 0) {
      const k = this.owned.get(src as object);
      if (k !== undefined) return this.all[k];
    }
    return this.all[this.numberRange(src, from, n)];
  }

  private numberRange(src: ArrayLike<T>, from: number, n: number): number {
    // strings may hold any character: JSON keeps the boundaries unambiguous
    const key = JSON.stringify(n === src.length && from === 0 ? src : Array.prototype.slice.call(src, from, from + n));
    let k = this.byKey.get(key);
    if (k === undefined) {
      const out = copyRange(src, from, n);
      k = this.all.length;
      this.all.push(out);
      this.byKey.set(key, k);
      this.owned.set(out, k);
    }
    return k;
  }
}

/** A packed array (the elements kind every other list the loops see has). */
function copyRange<T>(src: ArrayLike<T>, from: number, n: number): T[] {
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(src[from + i]);
  return out;
}
