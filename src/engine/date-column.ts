// A date-string column of the event table: naive ms when the 'Y-m-d H:i:s' string round-trips,
// else NaN plus the raw string aside; and the checks of a row's local start and end.

import { growFloat64 } from './columns.ts';
import type { Date32Column } from './date32-column.ts';
import { daysFromCivil, exactNaive, naiveToString, wholeSecondMs } from './naive-time.ts';
import { statusCode, type EventRecord } from './records.ts';

const EXACT_MIN = daysFromCivil(1000, 1, 1) * 86_400_000;
const EXACT_MAX = daysFromCivil(9999, 12, 31) * 86_400_000 + 86_399_000;

/** What a DateColumn keeps of naive ms v: v as whole seconds when its string round-trips, else NaN. */
function exactMs(v: number): number {
  return v >= EXACT_MIN && v <= EXACT_MAX && wholeSecondMs(v) ? v : exactNaive(naiveToString(v));
}

/** A date-string column: naive ms when the string round-trips, else NaN plus the raw string aside. */
export class DateColumn {
  ms = new Float64Array(16);
  readonly odd = new Map<number, string>();

  grow(need: number): void {
    this.ms = growFloat64(this.ms, need);
  }

  set(row: number, s: string): void {
    const v = exactNaive(s);
    this.ms[row] = v;
    if (v !== v) this.odd.set(row, s);
    else if (this.odd.size > 0) this.odd.delete(row);
  }

  /** set(row, naiveToString(v)) without making the string when it round-trips. */
  setMs(row: number, v: number): void {
    if (v >= EXACT_MIN && v <= EXACT_MAX && wholeSecondMs(v)) {
      this.ms[row] = v;
      if (this.odd.size > 0) this.odd.delete(row);
    } else this.set(row, naiveToString(v));
  }

  /** The row's naive ms; NaN when it keeps a string. */
  at(row: number): number {
    return this.ms[row];
  }

  /** Naive ms as a snapshot keeps them (a round-tripping date, or NaN for a row whose string comes next). */
  put(row: number, v: number): void {
    this.ms[row] = v;
  }

  get(row: number): string {
    const v = this.ms[row];
    if (v === v) return naiveToString(v);
    const s = this.odd.get(row);
    if (s === undefined) throw new Error(`date column: expected a stored string for row ${row}, got none`);
    return s;
  }

  /** Rows [0, n) of `from` into rows [base, base + n), or its arrays taken over when `adopt`. */
  copyRows(from: DateColumn, n: number, base: number, adopt: boolean): void {
    if (adopt) this.ms = from.ms;
    else this.ms.set(from.ms.subarray(0, n), base);
    for (const [row, s] of from.odd) this.odd.set(base + row, s);
  }

  clear(): void {
    this.ms = new Float64Array(16);
    this.odd.clear();
  }
}

/** Either kind of date column (the local start and end keep 8 bytes: the indexes read them). */
export type AnyDateColumn = DateColumn | Date32Column;

/** What appendStaged and appendParts check of a row: a positive integer id, whole local start and
 *  end (naive ms), end not before start. */
export function checkStaged(id: number, startMs: number, endMs: number): void {
  if (!(Number.isInteger(id) && id > 0)) throw new Error(`event: expected a positive integer id, got ${id}`);
  const start = exactMs(startMs),
    end = exactMs(endMs);
  if (start !== start || end !== end) {
    throw new Error(
      `event ${id}: expected 'Y-m-d H:i:s' local start/end, got '${naiveToString(start)}' / '${naiveToString(end)}'`,
    );
  }
  if (end < start)
    throw new Error(`event ${id}: expected end >= start, got ${naiveToString(start)} > ${naiveToString(end)}`);
}

/** Throws when a record breaks a column invariant; called before anything is written. */
export function checkEventRecord(rec: EventRecord): void {
  if (!(Number.isInteger(rec.id) && rec.id > 0))
    throw new Error(`event: expected a positive integer id, got ${rec.id}`);
  statusCode(rec.status);
  const start = exactNaive(rec.startLocal),
    end = exactNaive(rec.endLocal);
  if (start !== start || end !== end) {
    throw new Error(
      `event ${rec.id}: expected 'Y-m-d H:i:s' local start/end, got '${rec.startLocal}' / '${rec.endLocal}'`,
    );
  }
  if (end < start) throw new Error(`event ${rec.id}: expected end >= start, got ${rec.startLocal} > ${rec.endLocal}`);
}
