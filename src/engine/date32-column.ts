// A date-string column in four bytes a row: whole seconds from 2000-01-01 00:00:00 (naive) as an
// Int32, which holds every date from 1931-12-13 20:45:53 to 2068-01-19 03:14:07. Any other value
// (a date outside that range, such as a series' occurrence a century out, or one before 1932) is
// FAR in the Int32 and its naive ms are kept in a map; a string that is not a 'Y-m-d H:i:s' date
// is FAR too, with the raw string in `odd` as DateColumn keeps it. Reads give what DateColumn
// gives (naive ms, NaN for an odd string), so the columns are interchangeable to their readers.

import { growInt32 } from './columns.ts';
import { daysFromCivil, exactNaive, naiveToString, wholeSecondMs } from './naive-time.ts';

/** naive ms of second 0 (2000-01-01 00:00:00) */
export const EPOCH_MS = daysFromCivil(2000, 1, 1) * 86_400_000;
/** the Int32 of a row whose value is not in range: its ms are in `far` (or its string in `odd`) */
export const FAR = -0x80000000;
const MIN_MS = EPOCH_MS + (FAR + 1) * 1000;
const MAX_MS = EPOCH_MS + 0x7fffffff * 1000;

/** The column's Int32 for naive ms v (FAR when v is not a whole second in range, or NaN). */
export function secondsOf(v: number): number {
  return v >= MIN_MS && v <= MAX_MS && wholeSecondMs(v) ? (v - EPOCH_MS) / 1000 : FAR;
}

/** What a column holds at one instant (a snapshot being written reads it while writes go on). */
export interface FrozenDates {
  sec: Int32Array;
  far: ReadonlyMap<number, number>;
  odd: ReadonlyMap<number, string>;
}

/** A date-string column: whole seconds in an Int32 when in range, else FAR and the ms or string aside. */
export class Date32Column {
  sec = new Int32Array(16);
  /** naive ms of the rows that are FAR without an odd string */
  readonly far = new Map<number, number>();
  readonly odd = new Map<number, string>();

  grow(need: number): void {
    this.sec = growInt32(this.sec, need);
  }

  set(row: number, s: string): void {
    const v = exactNaive(s);
    if (v !== v) {
      this.sec[row] = FAR;
      this.odd.set(row, s);
      if (this.far.size > 0) this.far.delete(row);
    } else this.setMs(row, v);
  }

  /** set(row, naiveToString(v)) without making the string when it round-trips. */
  setMs(row: number, v: number): void {
    const s = secondsOf(v);
    this.sec[row] = s;
    if (s !== FAR) {
      if (this.far.size > 0) this.far.delete(row);
      if (this.odd.size > 0) this.odd.delete(row);
    } else if (v === v && wholeSecondMs(v) && exactNaive(naiveToString(v)) === v) {
      this.far.set(row, v);
      if (this.odd.size > 0) this.odd.delete(row);
    } else this.set(row, naiveToString(v));
  }

  /** The row's naive ms; NaN when it keeps a string. */
  at(row: number): number {
    const s = this.sec[row];
    if (s !== FAR) return EPOCH_MS + s * 1000;
    const v = this.far.get(row);
    return v === undefined ? NaN : v;
  }

  /** Naive ms as a snapshot keeps them (a round-tripping date, or NaN for a row whose string comes next). */
  put(row: number, v: number): void {
    const s = v === v ? secondsOf(v) : FAR;
    this.sec[row] = s;
    if (s === FAR && v === v) this.far.set(row, v);
    else if (this.far.size > 0) this.far.delete(row);
  }

  get(row: number): string {
    const v = this.at(row);
    if (v === v) return naiveToString(v);
    const s = this.odd.get(row);
    if (s === undefined) throw new Error(`date column: expected a stored string for row ${row}, got none`);
    return s;
  }

  /** Rows [0, n) as they are now. */
  freeze(n: number): FrozenDates {
    return { sec: this.sec.slice(0, n), far: new Map(this.far), odd: new Map(this.odd) };
  }

  /** Rows [0, n) of `from` into rows [base, base + n), or its arrays taken over when `adopt`. */
  copyRows(from: Date32Column, n: number, base: number, adopt: boolean): void {
    if (adopt) this.sec = from.sec;
    else this.sec.set(from.sec.subarray(0, n), base);
    for (const [row, v] of from.far) this.far.set(base + row, v);
    for (const [row, s] of from.odd) this.odd.set(base + row, s);
  }

  clear(): void {
    this.sec = new Int32Array(16);
    this.far.clear();
    this.odd.clear();
  }
}
