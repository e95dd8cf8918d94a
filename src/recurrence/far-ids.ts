// Ids of far occurrences: the instances of a series past its occurrence rows (beyond the rolling
// horizon), which are expanded when a list or a GET asks for them and never stored. Their ids
// are computed, not allocated, so every process that has the series gives the same one (after a
// restart, a snapshot, an export and import, on every node of a cluster):
//
//   id = 2^52 + seriesId × 2^21 + ordinal,   ordinal = dayOffset × slotsPerDay + indexInDay
//
// dayOffset: days from the series' first day to the occurrence's day (wall clock in its zone);
// indexInDay: its place among that day's instances of the series, EXDATEs left in (so leaving one
// out renumbers none); slotsPerDay: the most instances a day can have (from the rules' BYHOUR,
// BYMINUTE, BYSECOND and the RDATEs, one more for the start). Post ids stored as rows are below
// 2^31, so the ranges never meet; 2^52 + (2^31 - 1) × 2^21 + 2^21 - 1 = 2^53 - 1, the largest
// integer a JSON number carries exactly.

import { DAY_MS } from './set.ts';
import type { RecurrenceSet } from './set.ts';

/** the first far occurrence id */
export const FAR_ID_MIN = 2 ** 52;
/** ordinals per series (2^21) */
export const FAR_ORDINALS = 2 ** 21;

/** Whether `id` lies in the far occurrence range. */
export function isFarId(id: number): boolean {
  return Number.isSafeInteger(id) && id >= FAR_ID_MIN;
}

export function farIdOf(seriesId: number, ordinal: number): number {
  return FAR_ID_MIN + seriesId * FAR_ORDINALS + ordinal;
}

/** A far id's series id and ordinal. */
export function decodeFarId(id: number): { seriesId: number; ordinal: number } {
  const x = id - FAR_ID_MIN;
  const seriesId = Math.floor(x / FAR_ORDINALS);
  return { seriesId, ordinal: x - seriesId * FAR_ORDINALS };
}

const slots = new WeakMap<RecurrenceSet, number>();

/** The most instances one day of the set can have, plus one (the start, and a DST shift's spill). */
export function slotsPerDay(set: RecurrenceSet): number {
  let n = slots.get(set);
  if (n !== undefined) return n;
  n = 1;
  for (const r of set.rules) {
    if (r.empty) continue;
    const x = r.rule;
    // FREQ index: 4 HOURLY, 5 MINUTELY, 6 SECONDLY (rule.ts FREQS)
    const h = x.byHour?.length ?? (x.freq >= 4 ? 24 : 1);
    const m = x.byMinute?.length ?? (x.freq >= 5 ? 60 : 1);
    const s = x.bySecond?.length ?? (x.freq === 6 ? 60 : 1);
    n += h * m * s;
  }
  let most = 0,
    run = 0,
    prev = Number.NaN;
  for (const t of set.rdates) {
    const day = Math.floor(t / DAY_MS);
    run = day === prev ? run + 1 : 1;
    prev = day;
    if (run > most) most = run;
  }
  n += most;
  slots.set(set, n);
  return n;
}
