// Events as struct-of-arrays. Rows are dense (0..count-1) and never freed: deleting an event
// moves it to the trash status. Hot fields are typed-array columns; cold strings sit in plain
// side arrays. Indexes (sorted-index.ts) live elsewhere; this file only stores and rebuilds.

import { growInt32, growUint8, nextCapacity, StringPool } from './columns.ts';
import { checkEventRecord, checkStaged, DateColumn } from './date-column.ts';
import {
  EMPTY_IDS,
  FLAG_ALL_DAY,
  FLAG_FEATURED,
  FLAG_HIDDEN,
  FLAG_SHOW_MAP,
  FLAG_SHOW_MAP_LINK,
  FLAG_STICKY,
  FLAG_TICKETED,
  foldText,
  recurInfoOf,
  type IdList,
  type RowParts,
  type StagedEvent,
} from './event-rows.ts';
import { recordOf } from './event-record.ts';
import { TextStore } from './text-store.ts';
import { statusCode, type EventRecord, type RecurInfo } from './records.ts';
import { ListInterner } from './list-interner.ts';
import { IdListPool, LinkColumn } from './link-column.ts';

export { listHash, ListInterner } from './list-interner.ts';
export { IdListPool, LinkColumn, type LinkLists } from './link-column.ts';
export { checkEventRecord, DateColumn } from './date-column.ts';
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

/** The table's Int32Array columns, one value a row (the snapshot writes them as they are). */
export const TYPED_COLUMNS = [
  'ids',
  'authorIds',
  'statusCodes',
  'flags',
  'imageIds',
  'parentIds',
  'venueIds',
  'timezones',
  'abbrs',
  'currencySymbols',
  'currencyPositions',
  'currencyCodes',
] as const;
const LINK_COLUMNS = ['organizerIds', 'categoryIds', 'tagIds'] as const;

export class EventTable {
  count = 0;
  capacity = 0;

  ids = new Int32Array(0);
  authorIds = new Int32Array(0);
  statusCodes = new Uint8Array(0);
  flags = new Uint8Array(0);
  imageIds = new Int32Array(0);
  parentIds = new Int32Array(0);
  /** first venue id, 0 = none; the full list is in extraVenues when there are several */
  venueIds = new Int32Array(0);
  timezones = new Int32Array(0);
  abbrs = new Int32Array(0);
  currencySymbols = new Int32Array(0);
  currencyPositions = new Int32Array(0);
  currencyCodes = new Int32Array(0);

  readonly startLocal = new DateColumn();
  readonly endLocal = new DateColumn();
  readonly startUtc = new DateColumn();
  readonly endUtc = new DateColumn();
  readonly date = new DateColumn();
  readonly dateUtc = new DateColumn();
  readonly modified = new DateColumn();
  readonly modifiedUtc = new DateColumn();

  /** title, description, excerpt, slug and website of every row, outside V8's heap */
  texts = new TextStore();
  costs: (readonly string[])[] = [];
  /** rows with a lineage (few: events imported with one) */
  readonly lineages = new Map<number, string[]>();
  /** each row's organizer, category and tag list: its number in idLists */
  readonly organizerIds: LinkColumn;
  readonly categoryIds: LinkColumn;
  readonly tagIds: LinkColumn;
  readonly extraVenues = new Map<number, IdList>();
  /** series and occurrences: their recurrence fields (other rows have no entry) */
  readonly recur = new Map<number, RecurInfo>();
  /** bumped whenever a row's recurrence entry is set or removed (what caches of series read) */
  recurVersion = 0;
  /** the distinct link lists (organizers, categories, tags), and the shared cost lists */
  readonly idLists: IdListPool;
  readonly costLists: ListInterner<string>;
  /** folded title\0excerpt\0description of the rows a search checked, cleared on writes */
  readonly folded = new Map<number, string>();

  readonly pool: {
    timezone: StringPool;
    abbr: StringPool;
    currencySymbol: StringPool;
    currencyPosition: StringPool;
    currencyCode: StringPool;
  };

  /**
   * `sharing`: a staging table (an import filling rows before they join the calendar) shares the
   * string pools and list interners of the live table, so its rows move over as they are:
   * pool indexes and shared lists mean the same in both (pools and interners only ever grow).
   */
  constructor(sharing?: EventTable) {
    this.idLists = sharing?.idLists ?? new IdListPool();
    this.organizerIds = new LinkColumn(this.idLists);
    this.categoryIds = new LinkColumn(this.idLists);
    this.tagIds = new LinkColumn(this.idLists);
    this.costLists = sharing?.costLists ?? new ListInterner<string>([]);
    this.pool = sharing?.pool ?? {
      timezone: new StringPool(),
      abbr: new StringPool(),
      currencySymbol: new StringPool(),
      currencyPosition: new StringPool(),
      currencyCode: new StringPool(),
    };
  }

  get starts(): Float64Array {
    return this.startLocal.ms;
  }

  get ends(): Float64Array {
    return this.endLocal.ms;
  }

  /** Make room for `need` rows. */
  reserve(need: number): void {
    if (need <= this.capacity) return;
    const cap = nextCapacity(this.capacity, need);
    this.ids = growInt32(this.ids, cap);
    this.authorIds = growInt32(this.authorIds, cap);
    this.statusCodes = growUint8(this.statusCodes, cap);
    this.flags = growUint8(this.flags, cap);
    this.imageIds = growInt32(this.imageIds, cap);
    this.parentIds = growInt32(this.parentIds, cap);
    this.venueIds = growInt32(this.venueIds, cap);
    this.timezones = growInt32(this.timezones, cap);
    this.abbrs = growInt32(this.abbrs, cap);
    this.currencySymbols = growInt32(this.currencySymbols, cap);
    this.currencyPositions = growInt32(this.currencyPositions, cap);
    this.currencyCodes = growInt32(this.currencyCodes, cap);
    for (const c of this.dateColumns()) c.grow(cap);
    for (const f of LINK_COLUMNS) this[f].grow(cap);
    this.texts.reserve(cap);
    this.capacity = cap;
  }

  /** in the order of STAGED_DATES */
  dateColumns(): DateColumn[] {
    return [
      this.startLocal,
      this.endLocal,
      this.startUtc,
      this.endUtc,
      this.date,
      this.dateUtc,
      this.modified,
      this.modifiedUtc,
    ];
  }

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
    this.texts.set(row, p.title, p.description, p.excerpt, p.slug, p.website);
    this.costs[row] = p.costs;
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
      this.costs = from.costs;
      for (const f of LINK_COLUMNS) this[f].lists = from[f].lists;
      this.texts = from.texts;
      this.capacity = from.capacity;
    } else {
      this.reserve(base + n);
      for (const f of TYPED_COLUMNS) (this[f] as Int32Array).set((from[f] as Int32Array).subarray(0, n), base);
      for (let i = 0; i < n; i++) this.costs[base + i] = from.costs[i];
      for (const f of LINK_COLUMNS) this[f].lists.set(from[f].lists.subarray(0, n), base);
      const tx = from.texts;
      for (let i = 0; i < n; i++)
        this.texts.set(base + i, tx.title(i), tx.description(i), tx.excerpt(i), tx.slug(i), tx.website(i));
    }
    const dates = this.dateColumns(),
      staged = from.dateColumns();
    for (let c = 0; c < dates.length; c++) {
      if (adopt) dates[c].ms = staged[c].ms;
      else dates[c].ms.set(staged[c].ms.subarray(0, n), base);
      for (const [row, s] of staged[c].odd) dates[c].odd.set(base + row, s);
    }
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
    this.costs = [];
    for (const f of LINK_COLUMNS) this[f].lists = new Int32Array(0);
    this.texts = new TextStore();
    for (const c of this.dateColumns()) {
      c.ms = new Float64Array(16);
      c.odd.clear();
    }
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
    this.costs[row] = this.costLists.intern(rec.costs);
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

  /** All venue ids of a row, in stored order. */
  venueList(row: number): IdList {
    const extra = this.extraVenues.get(row);
    if (extra) return extra;
    const v = this.venueIds[row];
    return v === 0 ? EMPTY_IDS : [v];
  }

  isPublished(row: number): boolean {
    return this.statusCodes[row] === 0;
  }

  title(row: number): string {
    return this.texts.title(row);
  }

  description(row: number): string {
    return this.texts.description(row);
  }

  excerpt(row: number): string {
    return this.texts.excerpt(row);
  }

  slug(row: number): string {
    return this.texts.slug(row);
  }

  website(row: number): string | null {
    return this.texts.website(row);
  }

  foldedText(row: number): string {
    let f = this.folded.get(row);
    if (f === undefined) {
      f =
        foldText(this.texts.title(row)) +
        '\u0000' +
        foldText(this.texts.excerpt(row)) +
        '\u0000' +
        foldText(this.texts.description(row));
      this.folded.set(row, f);
    }
    return f;
  }

  record(row: number): EventRecord {
    return recordOf(this, row);
  }
}
