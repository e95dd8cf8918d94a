// Growable typed columns (capacity doubles on overflow, or grows by an eighth for columns that take
// inserts: insertCapacity; the count lives with the owner, as flatbush's _boxes/_pos and
// crossfilter's arrayLengthen), plus a string pool for repetitive
// short strings (time zones, currency symbols).

/** Smallest power-of-two-ish capacity >= need, at least 16 (bulk loads and appends: few copies). */
export function nextCapacity(current: number, need: number): number {
  let cap = Math.max(16, current);
  while (cap < need) cap *= 2;
  return cap;
}

/**
 * Capacity >= need for a column that grows an entry at a time at any place (a sorted index's
 * inserts): doubling up to 65,536 entries, then an eighth more at a time. A column loaded at its
 * exact size would otherwise double at its first insert: 25 MiB more for the main sorted index of
 * 1,000,000 events after one created event. Each insert already moves the entries after it, so
 * the copy of a growth (one every n/8 inserts) adds little.
 */
export function insertCapacity(current: number, need: number): number {
  let cap = Math.max(16, current);
  while (cap < need) cap = cap < 65_536 ? cap * 2 : cap + (cap >> 3);
  return cap;
}

type Capacity = (current: number, need: number) => number;

export function growFloat64(
  a: Float64Array<ArrayBuffer>,
  need: number,
  capacity: Capacity = nextCapacity,
): Float64Array<ArrayBuffer> {
  if (need <= a.length) return a;
  const b = new Float64Array(capacity(a.length, need));
  b.set(a);
  return b;
}

export function growInt32(
  a: Int32Array<ArrayBuffer>,
  need: number,
  capacity: Capacity = nextCapacity,
): Int32Array<ArrayBuffer> {
  if (need <= a.length) return a;
  const b = new Int32Array(capacity(a.length, need));
  b.set(a);
  return b;
}

export function growUint8(
  a: Uint8Array<ArrayBuffer>,
  need: number,
  capacity: Capacity = nextCapacity,
): Uint8Array<ArrayBuffer> {
  if (need <= a.length) return a;
  const b = new Uint8Array(capacity(a.length, need));
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
    if (this.values.length !== values.length)
      throw new Error(`string pool: expected ${values.length} distinct values, got ${this.values.length}`);
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

  /** `denseLimit`: ids below it go to the dense array (0: a Map for all, for ids spread thinly
   *  over a large range, such as the parents of occurrences among a million event ids) */
  constructor(private readonly denseLimit = ID_MAP_DENSE_LIMIT) {}

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
    if (Number.isInteger(id) && id >= 0 && id < this.denseLimit) {
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

const RADIX_BITS = 11;
const RADIX = 1 << RADIX_BITS;

/**
 * Sorts `rows` in place by (starts[row], ids[row]) ascending: an LSD radix sort (ids first, then
 * start keys, 11 bits per pass, passes over constant digits skipped), linear in the row count.
 * Starts are whole seconds in practice; any finite values work (ms keys, more passes). ids must
 * be non-negative int32. Falls back to a comparison sort for NaN/infinite starts. Rows already in
 * order are found so in the first pass and left as they are.
 */
export function sortRowsByStartId(rows: Int32Array, starts: Float64Array, ids: Int32Array): void {
  const n = rows.length;
  if (n < 2) return;
  let min = Infinity,
    max = -Infinity,
    seconds = true,
    idMax = 0,
    sorted = true,
    prevStart = -Infinity,
    prevId = -1;
  for (let i = 0; i < n; i++) {
    const r = rows[i];
    const s = starts[r];
    // already in order (a snapshot's rows are written in index order): nothing to move
    if (sorted && !(s > prevStart || (s === prevStart && ids[r] > prevId))) sorted = false;
    prevStart = s;
    prevId = ids[r];
    if (s < min) min = s;
    if (s > max) max = s;
    if (seconds && s % 1000 !== 0) seconds = false;
    const id = ids[r];
    if (id < 0) idMax = -1;
    else if (idMax >= 0 && id > idMax) idMax = id;
  }
  if (sorted) return;
  const scale = seconds ? 1000 : 1;
  const range = (max - min) / scale;
  if (!Number.isFinite(range) || idMax < 0 || range >= 2 ** 52) {
    rows.sort((a, b) => starts[a] - starts[b] || ids[a] - ids[b]);
    return;
  }
  const keys = new Float64Array(n); // start keys by position, moved along with the rows
  for (let i = 0; i < n; i++) keys[i] = (starts[rows[i]] - min) / scale;
  let src: Int32Array = rows,
    dst: Int32Array = new Int32Array(n);
  let srcKeys: Float64Array = keys,
    dstKeys: Float64Array = new Float64Array(n);
  const counts = new Int32Array(RADIX);
  const digits = new Uint16Array(n);
  /** one stable counting pass over digits[] (filled by the caller for the current order) */
  const pass = (): void => {
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[digits[i]]++;
    for (let d = 0; d < RADIX; d++) if (counts[d] === n) return; // one digit value: order unchanged
    let sum = 0;
    for (let d = 0; d < RADIX; d++) {
      const c = counts[d];
      counts[d] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const at = counts[digits[i]]++;
      dst[at] = src[i];
      dstKeys[at] = srcKeys[i];
    }
    const t = src;
    src = dst;
    dst = t;
    const tk = srcKeys;
    srcKeys = dstKeys;
    dstKeys = tk;
  };
  for (let shift = 0; shift < 31 && idMax >>> shift !== 0; shift += RADIX_BITS) {
    for (let i = 0; i < n; i++) digits[i] = (ids[src[i]] >>> shift) & (RADIX - 1);
    pass();
  }
  for (let div = 1; div <= range; div *= RADIX) {
    for (let i = 0; i < n; i++) digits[i] = Math.floor(srcKeys[i] / div) % RADIX;
    pass();
  }
  if (src !== rows) rows.set(src);
}
