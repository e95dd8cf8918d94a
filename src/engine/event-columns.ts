// Events as struct-of-arrays: the columns of EventTable (event-table.ts), their growth and the
// reads of a row. Rows are dense (0..count-1) and never freed: deleting an event moves it to the
// trash status. Hot fields are typed-array columns; cold strings sit in plain side arrays.

import { growInt32, growUint8, nextCapacity, StringPool } from './columns.ts';
import { type AnyDateColumn, DateColumn } from './date-column.ts';
import { Date32Column } from './date32-column.ts';
import { EMPTY_IDS, foldText, type IdList } from './event-rows.ts';
import { recordOf } from './event-record.ts';
import { TextStore } from './text-store.ts';
import type { EventRecord, RecurInfo } from './records.ts';
import { ListInterner } from './list-interner.ts';
import { CostColumn } from './cost-column.ts';
import { IdListPool, LinkColumn } from './link-column.ts';

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
export const LINK_COLUMNS = ['organizerIds', 'categoryIds', 'tagIds'] as const;

/** The columns of the event table and the reads of a row; EventTable adds the writes. */
export class EventColumns {
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

  /** the local start and end in 8 bytes (the indexes read them as a Float64Array), the other six
   *  dates in 4 (date32-column.ts) */
  readonly startLocal = new DateColumn();
  readonly endLocal = new DateColumn();
  readonly startUtc = new Date32Column();
  readonly endUtc = new Date32Column();
  readonly date = new Date32Column();
  readonly dateUtc = new Date32Column();
  readonly modified = new Date32Column();
  readonly modifiedUtc = new Date32Column();

  /** title, description, excerpt, slug and website of every row, outside V8's heap */
  texts = new TextStore();
  /** each row's cost list: its number in costLists */
  readonly costs: CostColumn;
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
  constructor(sharing?: EventColumns) {
    this.idLists = sharing?.idLists ?? new IdListPool();
    this.organizerIds = new LinkColumn(this.idLists);
    this.categoryIds = new LinkColumn(this.idLists);
    this.tagIds = new LinkColumn(this.idLists);
    this.costLists = sharing?.costLists ?? new ListInterner<string>([]);
    this.costs = new CostColumn(this.costLists);
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
    this.costs.grow(cap);
    this.texts.reserve(cap);
    this.capacity = cap;
  }

  /** in the order of STAGED_DATES */
  dateColumns(): AnyDateColumn[] {
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
