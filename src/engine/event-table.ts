// EventTable: the event columns (event-columns.ts) and the writes of rows: a record written or
// appended, the staged rows of an import (dates as naive ms, or a row's parts) and a staging
// table's rows moved over. Indexes (sorted-index.ts) live elsewhere; this file only stores.

import { checkEventRecord, checkStaged } from './date-column.ts';
import { EventColumns, LINK_COLUMNS, TYPED_COLUMNS } from './event-columns.ts';
import {
  FLAG_ALL_DAY,
  FLAG_FEATURED,
  FLAG_HIDDEN,
  FLAG_SHOW_MAP,
  FLAG_SHOW_MAP_LINK,
  FLAG_STICKY,
  FLAG_TICKETED,
  recurInfoOf,
  type RowParts,
  type StagedEvent,
} from './event-rows.ts';
import { TextStore } from './text-store.ts';
import { statusCode, type EventRecord } from './records.ts';

export { EventColumns, TYPED_COLUMNS } from './event-columns.ts';
export { listHash, ListInterner } from './list-interner.ts';
export { IdListPool, LinkColumn, type LinkLists } from './link-column.ts';
export { type AnyDateColumn, checkEventRecord, DateColumn } from './date-column.ts';
export { Date32Column } from './date32-column.ts';
export {
  EMPTY_IDS,
  FLAG_ALL_DAY,
  FLAG_COORDS,
  FLAG_FEATURED,
  FLAG_HIDDEN,
  FLAG_SHOW_MAP,
  FLAG_SHOW_MAP_LINK,
  FLAG_STICKY,
  FLAG_TICKETED,
  foldText,
  RowParts,
  STAGED_DATES,
  toIds,
  type IdList,
  type StagedEvent,
} from './event-rows.ts';

export class EventTable extends EventColumns {
  /**
   * Append a row from an event's fields and its eight dates as naive ms (in the order of
   * STAGED_DATES), as append() would store the record with those dates as 'Y-m-d H:i:s' strings,
   * without making the strings. Returns the row.
   */
  appendStaged(rec: StagedEvent, dates: ArrayLike<number>): number {
    checkStaged(rec.id, dates[0], dates[1]);
    const row = this.count;
    this.reserve(row + 1);
    this.writeFields(row, rec);
    const cols = this.dateColumns();
    for (let i = 0; i < cols.length; i++) cols[i].setMs(row, dates[i]);
    this.count = row + 1;
    return row;
  }

  /**
   * appendStaged from a row's parts rather than a record (a parallel import's events, staged by
   * src/import/index.ts): pool indexes of this table's pools, FLAG_* bits, cost lists that are
   * this table's shared lists and link lists as their numbers in its idLists; its dates are dates[at, at + 8). Returns the row.
   */
  appendParts(p: RowParts, dates: Float64Array, at: number): number {
    checkStaged(p.id, dates[at], dates[at + 1]);
    const row = this.count;
    this.reserve(row + 1);
    this.ids[row] = p.id;
    this.authorIds[row] = p.authorId;
    this.statusCodes[row] = p.status;
    this.flags[row] = p.flags;
    this.imageIds[row] = p.imageId;
    this.parentIds[row] = p.parentId;
    this.timezones[row] = p.timezone;
    this.abbrs[row] = p.abbr;
    this.currencySymbols[row] = p.currencySymbol;
    this.currencyPositions[row] = p.currencyPosition;
    this.currencyCodes[row] = p.currencyCode;
    if (p.coded === undefined)
      this.texts.set(row, p.title, p.description, p.excerpt, p.slug ?? '', p.website, p.titleId);
    else
      this.texts.setCoded(
        row,
        p.titleId >= 0 ? p.titleId : this.texts.titleId(p.title),
        p.slug,
        p.coded,
        p.codedAt,
        p.codedSlug,
        p.codedWeb,
        p.codedEnd,
        p.codedWith,
      );
    this.costs.set(row, p.costs);
    this.setLineage(row, p.lineage);
    this.venueIds[row] = p.venue;
    if (p.venues !== undefined) this.extraVenues.set(row, p.venues);
    else if (this.extraVenues.size > 0) this.extraVenues.delete(row);
    if (p.recur !== undefined) {
      this.recur.set(row, p.recur);
      this.recurVersion++;
    } else if (this.recur.size > 0 && this.recur.delete(row)) this.recurVersion++;
    this.organizerIds.lists[row] = p.organizerIds;
    this.categoryIds.lists[row] = p.categoryIds;
    this.tagIds.lists[row] = p.tagIds;
    if (this.folded.size > 0) this.folded.delete(row);
    this.startLocal.setMs(row, dates[at]);
    this.endLocal.setMs(row, dates[at + 1]);
    this.startUtc.setMs(row, dates[at + 2]);
    this.endUtc.setMs(row, dates[at + 3]);
    this.date.setMs(row, dates[at + 4]);
    this.dateUtc.setMs(row, dates[at + 5]);
    this.modified.setMs(row, dates[at + 6]);
    this.modifiedUtc.setMs(row, dates[at + 7]);
    this.count = row + 1;
    return row;
  }

  /**
   * Append every row of a staging table made with `new EventTable(this)`; `from` is emptied (its
   * columns may move here as they are). Returns the first new row.
   */
  appendTable(from: EventTable): number {
    if (from.pool !== this.pool || from.idLists !== this.idLists)
      throw new Error("event table: expected a staging table sharing this table's pools");
    const base = this.count,
      n = from.count;
    const adopt = base === 0 && this.capacity === 0;
    if (adopt) {
      // an empty table takes the staged columns over: no copy
      for (const f of TYPED_COLUMNS) (this as unknown as Record<string, unknown>)[f] = from[f];
      for (const f of LINK_COLUMNS) this[f].lists = from[f].lists;
      this.texts = from.texts;
      this.capacity = from.capacity;
    } else {
      this.reserve(base + n);
      for (const f of TYPED_COLUMNS) (this[f] as Int32Array).set((from[f] as Int32Array).subarray(0, n), base);
      for (const f of LINK_COLUMNS) this[f].lists.set(from[f].lists.subarray(0, n), base);
      const tx = from.texts;
      for (let i = 0; i < n; i++)
        this.texts.set(base + i, tx.title(i), tx.description(i), tx.excerpt(i), tx.slug(i), tx.website(i));
    }
    this.costs.copyRows(from.costs, n, base, adopt);
    const dates = this.dateColumns(),
      staged = from.dateColumns();
    for (let c = 0; c < dates.length; c++) dates[c].copyRows(staged[c] as never, n, base, adopt);
    for (const [row, list] of from.extraVenues) this.extraVenues.set(base + row, list);
    for (const [row, l] of from.lineages) this.lineages.set(base + row, l);
    for (const [row, info] of from.recur) this.recur.set(base + row, info);
    if (from.recur.size > 0) this.recurVersion++;
    this.count = base + n;
    from.clear();
    return base;
  }

  private clear(): void {
    for (const f of TYPED_COLUMNS)
      (this as unknown as Record<string, unknown>)[f] =
        this[f] instanceof Uint8Array ? new Uint8Array(0) : new Int32Array(0);
    this.costs.clear();
    for (const f of LINK_COLUMNS) this[f].lists = new Int32Array(0);
    this.texts = new TextStore();
    for (const c of this.dateColumns()) c.clear();
    this.extraVenues.clear();
    this.lineages.clear();
    this.folded.clear();
    this.recur.clear();
    this.recurVersion++;
    this.count = 0;
    this.capacity = 0;
  }

  /** Append a row for a new event; returns the row. */
  append(rec: EventRecord): number {
    const row = this.count;
    this.reserve(row + 1);
    this.write(row, rec);
    this.count = row + 1;
    return row;
  }

  /** Overwrite every column of `row` from the record (indexes are the caller's business). */
  write(row: number, rec: EventRecord): void {
    checkEventRecord(rec);
    this.writeFields(row, rec);
    this.startLocal.set(row, rec.startLocal);
    this.endLocal.set(row, rec.endLocal);
    this.startUtc.set(row, rec.startUtc);
    this.endUtc.set(row, rec.endUtc);
    this.date.set(row, rec.date);
    this.dateUtc.set(row, rec.dateUtc);
    this.modified.set(row, rec.modified);
    this.modifiedUtc.set(row, rec.modifiedUtc);
  }

  /** Every column but the dates. */
  private writeFields(row: number, rec: StagedEvent): void {
    this.ids[row] = rec.id;
    this.authorIds[row] = rec.authorId;
    this.statusCodes[row] = statusCode(rec.status);
    this.flags[row] =
      (rec.allDay ? FLAG_ALL_DAY : 0) |
      (rec.featured ? FLAG_FEATURED : 0) |
      (rec.hideFromListings ? FLAG_HIDDEN : 0) |
      (rec.sticky ? FLAG_STICKY : 0) |
      (rec.ticketed ? FLAG_TICKETED : 0) |
      (rec.showMap ? FLAG_SHOW_MAP : 0) |
      (rec.showMapLink ? FLAG_SHOW_MAP_LINK : 0);
    this.imageIds[row] = rec.imageId;
    this.parentIds[row] = rec.parentId;
    const pool = this.pool;
    this.timezones[row] = pool.timezone.intern(rec.timezone);
    this.abbrs[row] = pool.abbr.intern(rec.timezoneAbbr);
    this.currencySymbols[row] = pool.currencySymbol.intern(rec.currencySymbol);
    this.currencyPositions[row] = pool.currencyPosition.intern(rec.currencyPosition);
    this.currencyCodes[row] = pool.currencyCode.intern(rec.currencyCode);

    this.texts.set(row, rec.title, rec.description, rec.excerpt, rec.slug, rec.website);
    this.costs.set(row, rec.costs);
    this.setLineage(row, rec.lineage ? rec.lineage.slice() : undefined);
    this.setVenues(row, rec.venueIds);
    this.organizerIds.set(row, rec.organizerIds);
    this.categoryIds.set(row, rec.categoryIds);
    this.tagIds.set(row, rec.tagIds);
    if (this.folded.size > 0) this.folded.delete(row);
    if (rec.recurrence !== undefined || rec.recurrenceId !== undefined) {
      this.recur.set(row, recurInfoOf(rec));
      this.recurVersion++;
    } else if (this.recur.size > 0 && this.recur.delete(row)) this.recurVersion++;
  }

  setLineage(row: number, lineage: string[] | undefined): void {
    if (lineage !== undefined) this.lineages.set(row, lineage);
    else if (this.lineages.size > 0) this.lineages.delete(row);
  }

  setVenues(row: number, venueIds: readonly number[]): void {
    this.venueIds[row] = venueIds.length > 0 ? venueIds[0] : 0;
    if (venueIds.length > 1) this.extraVenues.set(row, venueIds.slice());
    else if (this.extraVenues.size > 0) this.extraVenues.delete(row);
  }
}
