// Growable typed columns (capacity doubles on overflow, the count lives with the owner, as
// flatbush's _boxes/_pos and crossfilter's arrayLengthen), plus a string pool for repetitive
// short strings (time zones, currency symbols).

/** Smallest power-of-two-ish capacity >= need, at least 16. */
export function nextCapacity(current: number, need: number): number {
  let cap = Math.max(16, current);
  while (cap < need) cap *= 2;
  return cap;
}

export function growFloat64(a: Float64Array<ArrayBuffer>, need: number): Float64Array<ArrayBuffer> {
  if (need <= a.length) return a;
  const b = new Float64Array(nextCapacity(a.length, need));
  b.set(a);
  return b;
}

export function growInt32(a: Int32Array<ArrayBuffer>, need: number): Int32Array<ArrayBuffer> {
  if (need <= a.length) return a;
  const b = new Int32Array(nextCapacity(a.length, need));
  b.set(a);
  return b;
}

export function growUint8(a: Uint8Array<ArrayBuffer>, need: number): Uint8Array<ArrayBuffer> {
  if (need <= a.length) return a;
  const b = new Uint8Array(nextCapacity(a.length, need));
  b.set(a);
  return b;
}

/** Interns strings: each distinct string gets a small index, stored in an Int32Array column. */
export class StringPool {
  readonly values: string[] = [];
  private readonly byValue = new Map<string, number>();

  private lastValue: string | undefined;
  private lastIndex = -1;

  intern(s: string): number {
    if (s === this.lastValue) return this.lastIndex;
    let i = this.byValue.get(s);
    if (i === undefined) {
      i = this.values.length;
      this.values.push(s);
      this.byValue.set(s, i);
    }
    this.lastValue = s;
    this.lastIndex = i;
    return i;
  }

  get(i: number): string {
    const s = this.values[i];
    if (s === undefined) throw new Error(`string pool: expected index < ${this.values.length}, got ${i}`);
    return s;
  }

  /** Replace the whole pool (snapshot load); indexes keep their meaning. */
  load(values: readonly string[]): void {
    this.values.length = 0;
    this.byValue.clear();
    this.lastValue = undefined;
    for (const v of values) this.intern(v);
    if (this.values.length !== values.length) throw new Error(`string pool: expected ${values.length} distinct values, got ${this.values.length}`);
  }
}

/** ids below this go to the dense array of an IdMap */
const ID_MAP_DENSE_LIMIT = 1 << 22;

/**
 * Map from a (mostly dense, positive) integer id to a value: a plain array indexed by id, with a
 * Map for ids beyond ID_MAP_DENSE_LIMIT. Much cheaper than Map for the hot lookups of bulk loads.
 */
export class IdMap<V> {
  private dense: (V | undefined)[] = [];
  private readonly sparse = new Map<number, V>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(id: number): V | undefined {
    if (id >= 0 && id < this.dense.length) return this.dense[id];
    return this.sparse.size > 0 ? this.sparse.get(id) : undefined;
  }

  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  set(id: number, value: V): void {
    if (value === undefined) throw new Error(`id map: expected a value for id ${id}, got undefined`);
    if (Number.isInteger(id) && id >= 0 && id < ID_MAP_DENSE_LIMIT) {
      const dense = this.dense;
      while (dense.length <= id) dense.push(undefined);
      if (dense[id] === undefined) this.count++;
      dense[id] = value;
    } else {
      if (!this.sparse.has(id)) this.count++;
      this.sparse.set(id, value);
    }
  }

  delete(id: number): void {
    if (id >= 0 && id < this.dense.length) {
      if (this.dense[id] !== undefined) this.count--;
      this.dense[id] = undefined;
    } else if (this.sparse.delete(id)) this.count--;
  }

  clear(): void {
    this.dense = [];
    this.sparse.clear();
    this.count = 0;
  }

  *entries(): IterableIterator<[number, V]> {
    const dense = this.dense;
    for (let id = 0; id < dense.length; id++) {
      const v = dense[id];
      if (v !== undefined) yield [id, v];
    }
    yield* this.sparse;
  }
}
