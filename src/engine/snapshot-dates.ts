// The date columns in a version 3 events chunk: the local start and end as Float64 naive ms in
// `dates`, the six others as the Int32 seconds their columns keep (date32-column.ts) in `secs`,
// with the naive ms of the rows out of the Int32's range in `farDates`; a string that is not a
// 'Y-m-d H:i:s' date in `oddDates` (NaN, or FAR without a far value, in its column). A chunk
// written before the Int32 columns has every date in `dates`: a load converts it.

import type { AnyDateColumn } from './date-column.ts';
import { Date32Column, EPOCH_MS, FAR } from './date32-column.ts';
import type { EventTable } from './event-table.ts';
import { base64Of, decodeInto, decodeNew } from './snapshot-bytes.ts';
import { DATE_FIELDS, type DateField, type EventChunk } from './snapshot-format.ts';
import type { Gatherable } from './gather.ts';

/** A date column as a snapshot reads it: Float64 ms, or Int32 seconds and far ms; odd strings beside. */
export type DateCopy =
  | { ms: Float64Array; odd: ReadonlyMap<number, string> }
  | { sec: Int32Array; far: ReadonlyMap<number, number>; odd: ReadonlyMap<number, string> };

/** The table's date columns (in DATE_FIELDS order): copies of rows [0, n) when `copy`, else the live arrays. */
export function dateCopies(t: EventTable, n: number, copy: boolean): DateCopy[] {
  return DATE_FIELDS.map((f): DateCopy => {
    const c = t[f];
    if (c instanceof Date32Column) return copy ? c.freeze(n) : c;
    return copy ? { ms: c.ms.slice(0, n), odd: new Map(c.odd) } : c;
  });
}

/** The chunk's date fields for the table rows `at`, in chunk order: `values(fi)` is date field
 *  fi's column values of those rows (as the column keeps them: Float64 ms or Int32 seconds). */
export function encodeDates(
  cols: readonly DateCopy[],
  at: Int32Array,
  values: (fi: number) => Gatherable,
): Pick<EventChunk, 'dates' | 'secs' | 'farDates' | 'oddDates'> {
  const n = at.length;
  const dates: Partial<Record<DateField, string>> = {},
    secs: Partial<Record<DateField, string>> = {};
  const farDates: [number, number, number][] = [],
    oddDates: [number, number, string][] = [];
  DATE_FIELDS.forEach((f, fi) => {
    const c = cols[fi];
    const odd = (r: number, i: number) => {
      const s = c.odd.get(r);
      if (s === undefined) throw new Error(`snapshot: expected a stored ${f} string for row ${r}, got none`);
      oddDates.push([fi, i, s]);
    };
    const v = values(fi);
    if ('ms' in c) {
      const ms = v as Float64Array;
      for (let i = 0; i < n; i++) if (ms[i] !== ms[i]) odd(at[i], i);
      dates[f] = base64Of(ms);
    } else {
      const sec = v as Int32Array;
      for (let i = 0; i < n; i++) {
        if (sec[i] !== FAR) continue;
        const r = at[i];
        const far = c.far.get(r);
        if (far !== undefined) farDates.push([fi, i, far]);
        else odd(r, i);
      }
      secs[f] = base64Of(sec);
    }
  });
  return { dates: dates as EventChunk['dates'], secs, farDates, oddDates };
}

/** The chunk's dates into rows [from, from + n) of the table (reserved). */
export function loadDates(t: EventTable, c: EventChunk, from: number, n: number): void {
  if (typeof c.dates !== 'object' || c.dates === null)
    throw new Error('snapshot load: expected dates in the events chunk');
  for (const f of DATE_FIELDS) {
    const col: AnyDateColumn = t[f],
      sec = c.secs?.[f];
    if (sec !== undefined) {
      if (col instanceof Date32Column) decodeInto(`secs.${f}`, sec, col.sec, from, n);
      else {
        const v = decodeNew(`secs.${f}`, sec, n, (m) => new Int32Array(m));
        for (let i = 0; i < n; i++) col.put(from + i, v[i] === FAR ? NaN : EPOCH_MS + v[i] * 1000);
      }
    } else if (col instanceof Date32Column) {
      const v = decodeNew(`dates.${f}`, c.dates[f], n, (m) => new Float64Array(m));
      for (let i = 0; i < n; i++) col.put(from + i, v[i]);
    } else decodeInto(`dates.${f}`, c.dates[f], col.ms, from, n);
  }
  if (c.farDates !== undefined && !Array.isArray(c.farDates)) throw new Error('snapshot load: expected farDates');
  for (const [fi, i, v] of c.farDates ?? []) {
    const col = t[DATE_FIELDS[fi]];
    if (
      col === undefined ||
      !(i >= 0 && i < n) ||
      typeof v !== 'number' ||
      v !== v ||
      col.at(from + i) === col.at(from + i)
    )
      throw new Error(
        `snapshot load: expected far date [field, row, ms] of a row without a date, got ${JSON.stringify([fi, i, v])}`,
      );
    col.put(from + i, v);
  }
  if (!Array.isArray(c.oddDates)) throw new Error('snapshot load: expected oddDates');
  for (const [fi, i, v] of c.oddDates) {
    const col = t[DATE_FIELDS[fi]];
    if (col === undefined || !(i >= 0 && i < n) || typeof v !== 'string' || col.at(from + i) === col.at(from + i))
      throw new Error(
        `snapshot load: expected odd date [field, row, string] of a row without a date, got ${JSON.stringify([fi, i, v])}`,
      );
    col.odd.set(from + i, v);
  }
  for (const f of DATE_FIELDS) {
    const col = t[f];
    const none = (i: number): never => {
      throw new Error(`snapshot load: expected a ${f} string for row ${i}, got none`);
    };
    if (col instanceof Date32Column) {
      // a row without a date in range (FAR) has its ms in `far` or its string in `odd`
      const sec = col.sec;
      for (let i = from; i < from + n; i++) if (sec[i] === FAR && !col.far.has(i) && !col.odd.has(i)) none(i);
    } else for (let i = from; i < from + n; i++) if (col.at(i) !== col.at(i) && !col.odd.has(i)) none(i);
  }
}
