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

  intern(s: string): number {
    let i = this.byValue.get(s);
    if (i === undefined) {
      i = this.values.length;
      this.values.push(s);
      this.byValue.set(s, i);
    }
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
    for (const v of values) this.intern(v);
    if (this.values.length !== values.length) throw new Error(`string pool: expected ${values.length} distinct values, got ${this.values.length}`);
  }
}
