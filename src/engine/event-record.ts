// An event row as a record: what EventTable.record() returns, every list and string a copy.

import {
  FLAG_ALL_DAY,
  FLAG_FEATURED,
  FLAG_HIDDEN,
  FLAG_SHOW_MAP,
  FLAG_SHOW_MAP_LINK,
  FLAG_STICKY,
  FLAG_TICKETED,
} from './event-rows.ts';
import type { StringPool } from './columns.ts';
import type { AnyDateColumn } from './date-column.ts';
import type { IdList } from './event-rows.ts';
import { POST_STATUSES, type EventRecord, type RecurInfo } from './records.ts';
import type { TextView } from './text-view.ts';

type Ints = Int32Array | Uint8Array;

/** What recordOf reads of the event table (EventTable has it; named here, not imported from it). */
export interface RecordColumns {
  readonly count: number;
  readonly ids: Ints;
  readonly authorIds: Ints;
  readonly statusCodes: Ints;
  readonly flags: Ints;
  readonly imageIds: Ints;
  readonly parentIds: Ints;
  readonly timezones: Ints;
  readonly abbrs: Ints;
  readonly currencySymbols: Ints;
  readonly currencyPositions: Ints;
  readonly currencyCodes: Ints;
  readonly date: AnyDateColumn;
  readonly dateUtc: AnyDateColumn;
  readonly modified: AnyDateColumn;
  readonly modifiedUtc: AnyDateColumn;
  readonly startLocal: AnyDateColumn;
  readonly endLocal: AnyDateColumn;
  readonly startUtc: AnyDateColumn;
  readonly endUtc: AnyDateColumn;
  readonly texts: TextView;
  readonly costs: { get(row: number): readonly string[] };
  readonly organizerIds: LinkIds;
  readonly categoryIds: LinkIds;
  readonly tagIds: LinkIds;
  readonly lineages: ReadonlyMap<number, string[]>;
  readonly recur: ReadonlyMap<number, RecurInfo>;
  readonly pool: Record<'timezone' | 'abbr' | 'currencySymbol' | 'currencyPosition' | 'currencyCode', StringPool>;
  venueList(row: number): IdList;
}

/** A link column: a row's ids as a new array. */
interface LinkIds {
  get(row: number): number[];
}

/** The record of a row of `t` (fresh lists: the caller may change them). */
export function recordOf(t: RecordColumns, row: number): EventRecord {
  if (row < 0 || row >= t.count) throw new Error(`event table: expected row in [0, ${t.count}), got ${row}`);
  const flags = t.flags[row];
  const pool = t.pool;
  const rec: EventRecord = {
    id: t.ids[row],
    authorId: t.authorIds[row],
    status: POST_STATUSES[t.statusCodes[row]],
    date: t.date.get(row),
    dateUtc: t.dateUtc.get(row),
    modified: t.modified.get(row),
    modifiedUtc: t.modifiedUtc.get(row),
    title: t.texts.title(row),
    description: t.texts.description(row),
    excerpt: t.texts.excerpt(row),
    slug: t.texts.slug(row),
    imageId: t.imageIds[row],
    timezone: pool.timezone.get(t.timezones[row]),
    timezoneAbbr: pool.abbr.get(t.abbrs[row]),
    allDay: (flags & FLAG_ALL_DAY) !== 0,
    startLocal: t.startLocal.get(row),
    endLocal: t.endLocal.get(row),
    startUtc: t.startUtc.get(row),
    endUtc: t.endUtc.get(row),
    costs: t.costs.get(row).slice(),
    currencySymbol: pool.currencySymbol.get(t.currencySymbols[row]),
    currencyPosition: pool.currencyPosition.get(t.currencyPositions[row]),
    currencyCode: pool.currencyCode.get(t.currencyCodes[row]),
    website: t.texts.website(row),
    showMap: (flags & FLAG_SHOW_MAP) !== 0,
    showMapLink: (flags & FLAG_SHOW_MAP_LINK) !== 0,
    hideFromListings: (flags & FLAG_HIDDEN) !== 0,
    sticky: (flags & FLAG_STICKY) !== 0,
    featured: (flags & FLAG_FEATURED) !== 0,
    ticketed: (flags & FLAG_TICKETED) !== 0,
    venueIds: t.venueList(row).slice(),
    organizerIds: t.organizerIds.get(row),
    categoryIds: t.categoryIds.get(row),
    tagIds: t.tagIds.get(row),
    parentId: t.parentIds[row],
  };
  const lineage = t.lineages.size > 0 ? t.lineages.get(row) : undefined;
  if (lineage) rec.lineage = lineage.slice();
  const recur = t.recur.size > 0 ? t.recur.get(row) : undefined;
  if (recur) {
    if (recur.recurrence) {
      const r = recur.recurrence;
      rec.recurrence = { rules: r.rules.slice(), rdates: r.rdates.slice(), exdates: r.exdates.slice() };
    }
    if (recur.recurrenceId !== undefined) rec.recurrenceId = recur.recurrenceId;
    if (recur.exception) rec.exception = true;
  }
  return rec;
}
