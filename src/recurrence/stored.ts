// A series' stored recurrence and the recurrence library's view of it: what both the write path
// and the representation need (kept apart from series.ts, which needs the write path's Tx).

import type { EngineApi } from '../engine/engine-api.ts';
import { FLAG_ALL_DAY } from '../engine/event-table.ts';
import type { EventRecord, RecurInfo, StoredRecurrence } from '../engine/records.ts';
import { parseRecurrence, representRecurrence, type RecurrenceSet, type SeriesTime } from './index.ts';

/** The recurrence library's view of a series record. */
export function seriesTimeOf(rec: EventRecord, siteZone: string): SeriesTime {
  return { start: rec.startLocal, timezone: rec.timezone || siteZone, allDay: rec.allDay };
}

export function storedOf(set: RecurrenceSet, series: SeriesTime): StoredRecurrence {
  const r = representRecurrence(set, series);
  return { rules: r.rules, rdates: r.rdates, exdates: r.exdates };
}

/** The stored recurrence of a record as the library's set (stored forms always parse). */
export function setOf(rec: EventRecord, siteZone: string): RecurrenceSet | null {
  if (!rec.recurrence) return null;
  return parseRecurrence(rec.recurrence, seriesTimeOf(rec, siteZone), 'recurrence');
}

/** A series row's time, read from the table's columns. */
export function seriesTimeAt(engine: EngineApi, row: number, siteZone: string): SeriesTime {
  const t = engine.eventTable;
  return {
    start: t.startLocal.get(row),
    timezone: t.pool.timezone.get(t.timezones[row]) || siteZone,
    allDay: (t.flags[row] & FLAG_ALL_DAY) !== 0,
  };
}

/** Parsed sets by the table's recurrence entry of a series row: an entry is replaced, never
 *  changed, when its row is written (the series' start and zone with it), so it keys its set. */
const parsed = new WeakMap<RecurInfo, RecurrenceSet>();

/** The set of a series row (null when the row is no series), parsed once per write of the row. */
export function setAt(engine: EngineApi, row: number, siteZone: string): RecurrenceSet | null {
  const info = engine.eventTable.recur.get(row);
  if (!info?.recurrence) return null;
  let set = parsed.get(info);
  if (set === undefined) {
    set = parseRecurrence(info.recurrence, seriesTimeAt(engine, row, siteZone), 'recurrence')!;
    parsed.set(info, set);
  }
  return set;
}
