// A series' stored recurrence and the recurrence library's view of it: what both the write path
// and the representation need (kept apart from series.ts, which needs the write path's Tx).

import type { EventRecord, StoredRecurrence } from '../engine/records.ts';
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
