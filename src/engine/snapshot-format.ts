// The snapshot's format: the header chunk, the titles and link-lists chunks of version 3, the
// events chunks of versions 1, 2 and 3, and the column lists both the encoder (snapshot.ts) and the decoder
// (snapshot-decode.ts) walk.

import { TYPED_COLUMNS } from './event-table.ts';
import type { AttachmentRecord, OrganizerRecord, RecurInfo, TermRecord, VenueRecord } from './records.ts';

/** written by encodeSnapshot; decodeSnapshot reads this one and versions 1 and 2 */
export const SNAPSHOT_VERSION = 3;
export const EVENT_CHUNK_ROWS = 10_000;
/** titles a version 3 titles chunk holds at most */
export const TITLE_CHUNK_SIZE = 50_000;
/** lists a link-lists chunk holds at most */
export const LINK_LISTS_CHUNK = 262_144;
/** ids past which a link-lists chunk holds no further list */
export const LINK_VALUES_CHUNK = 1_048_576;

export interface SnapshotHeader {
  type: 'calendar-engine-snapshot';
  version: number;
  nextPostId: number;
  nextTermId: number;
  eventCount: number;
  pools: {
    timezone: string[];
    abbr: string[];
    currencySymbol: string[];
    currencyPosition: string[];
    currencyCode: string[];
  };
  venues: VenueRecord[];
  organizers: OrganizerRecord[];
  terms: TermRecord[];
  attachments: AttachmentRecord[];
  /** version 3: the size of the title dictionary, whose titles chunks follow the header */
  titles?: number;
  /** version 3: about the bytes of the rows' text records (the room a load reserves for them) */
  textBytes?: number;
  /** version 3: the lists of the link-lists chunks that follow the header (none: every events
   *  chunk has its own `links`) */
  linkLists?: number;
  /** version 3: the ids those lists hold in all */
  linkValues?: number;
}

/**
 * Version 3: lists [from, from + k) of the link columns' pool (numbered from 1; 0 is the empty
 * list), after the titles chunks and before any events chunk: `values`, the lists' ids one list
 * after the other, and `ends`, the end of each list in them (non-empty lists), both base64 Int32.
 * Events chunks then give each row's list by its number (`linkRows`).
 */
export interface LinkListsChunk {
  type: 'link-lists';
  from: number;
  values: string;
  ends: string;
}

/** Version 3: titles [from, from + titles.length) of the dictionary the text records index. */
export interface TitlesChunk {
  type: 'titles';
  from: number;
  titles: string[];
}

export const DATE_FIELDS = [
  'startLocal',
  'endLocal',
  'startUtc',
  'endUtc',
  'date',
  'dateUtc',
  'modified',
  'modifiedUtc',
] as const;
export type DateField = (typeof DATE_FIELDS)[number];
export const INT_FIELDS = TYPED_COLUMNS;
export type IntField = (typeof INT_FIELDS)[number];
/** Version 3: the bytes a row of an int column takes (1: Uint8, else Int32), whatever the table keeps. */
export const INT_WIDTH: Readonly<Record<string, 1 | 4>> = { statusCodes: 1, flags: 1 };
export function intWidth(f: IntField): 1 | 4 {
  return INT_WIDTH[f] ?? 4;
}
export const LINK_FIELDS = ['organizerIds', 'categoryIds', 'tagIds'] as const;
export type LinkField = (typeof LINK_FIELDS)[number];
export const TEXT_FIELDS = ['titles', 'descriptions', 'excerpts', 'slugs'] as const;
/**
 * Version 2 stores a date as whole seconds relative to another date of the row (small numbers
 * parse faster than 13-digit ones): the base's index in DATE_FIELDS, -1 = absolute.
 */
export const DATE_BASE: readonly number[] = [-1, 0, 0, 1, -1, 4, 4, 6];

/** Version 1 events chunk (still read). */
export interface EventChunkV1 {
  type: 'events';
  /** first row of the chunk */
  from: number;
  count: number;
  ints: Record<IntField, number[]>;
  /** naive ms, null where the string is kept in `oddDates` */
  dates: Record<DateField, (number | null)[]>;
  /** [field index in DATE_FIELDS, row within chunk, raw string] */
  oddDates: [number, number, string][];
  titles: string[];
  descriptions: string[];
  excerpts: string[];
  slugs: string[];
  websites: (string | null)[];
  costs: string[][];
  /** [row within chunk, lineage] */
  lineages: [number, string[]][];
  /** [row within chunk, all venue ids] for events with several venues */
  extraVenues: [number, number[]][];
  /** per link kind: count per row, then the ids flattened */
  links: Record<LinkField, { counts: number[]; ids: number[] }>;
}

/**
 * Version 2 events chunk: flat arrays only (no array per row), small numbers.
 * - ints.ids: first id of the chunk, then differences to the previous row's id
 * - dates: whole seconds; DATE_BASE says which are differences to another date of the row
 *   (absolute when that base is null); null = not whole seconds, the value is in oddDates
 * - costs and links: the distinct lists of the chunk, and per row 0 (none) or 1 + the index
 *   of its list (rows share few distinct lists: the table keeps one array per content)
 */
export interface EventChunkV2 {
  type: 'events';
  from: number;
  count: number;
  ints: Record<IntField, number[]>;
  dates: Record<DateField, (number | null)[]>;
  /** [field index in DATE_FIELDS, row within chunk, raw string (not a 'Y-m-d H:i:s' date) or naive ms] */
  oddDates: [number, number, string | number][];
  titles: string[];
  descriptions: string[];
  excerpts: string[];
  slugs: string[];
  websites: (string | null)[];
  costs: ListColumn<string>;
  lineages: [number, string[]][];
  extraVenues: [number, number[]][];
  links: Record<LinkField, ListColumn<number>>;
  /** [row within chunk, recurrence fields] of series and occurrences (absent: none) */
  recur?: [number, RecurInfo][];
}

export interface ListColumn<T> {
  lists: T[][];
  rows: number[];
}

/**
 * Version 3 events chunk: every per-row column is base64 text of a typed array's little-endian
 * bytes (snapshot-bytes.ts), so a load parses a few long strings and copies their bytes into the
 * columns instead of parsing a number per row and field.
 * - ints: each table column as it is (Int32 or Uint8 a row)
 * - dates: naive ms as Float64 (NaN where the column keeps a string: in oddDates), of the local
 *   start and end; a chunk written before the Int32 columns has all eight dates here
 * - secs: the six other dates as Int32 whole seconds from 2000-01-01 00:00:00 (naive), FAR
 *   (-2^31) where the value is out of that range (its naive ms in farDates) or a string (in
 *   oddDates); snapshot-dates.ts reads and writes both
 * - texts: the rows' records of the text store one after the other (text-view.ts: title index
 *   in the dictionary of the titles chunks, description, excerpt, slug, website), the end of
 *   each as Uint32, and the symbol table their one-byte texts are coded with (text-symbols.ts;
 *   none: they are not)
 * - linkRows: per link column, each row's list number in the link-lists chunks (Int32; 0: none);
 *   or, in chunks written before those (or when a snapshot has none), links: the chunk's distinct
 *   lists as values and ends (Int32), and per row 0 (none) or 1 + the index of its list (Int32)
 * - costs: the distinct lists as JSON, the per-row index as Int32
 */
export interface EventChunk {
  type: 'events';
  from: number;
  count: number;
  ints: Record<IntField, string>;
  dates: Partial<Record<DateField, string>>;
  secs?: Partial<Record<DateField, string>>;
  /** [field index in DATE_FIELDS, row within chunk, naive ms] of the FAR rows of `secs` */
  farDates?: [number, number, number][];
  /** [field index in DATE_FIELDS, row within chunk, raw string (not a 'Y-m-d H:i:s' date)] */
  oddDates: [number, number, string][];
  texts: { bytes: string; ends: string; symbols?: string };
  costs: { lists: string[][]; rows: string };
  linkRows?: Record<LinkField, string>;
  links?: Record<LinkField, { values: string; ends: string; rows: string }>;
  lineages: [number, string[]][];
  extraVenues: [number, number[]][];
  recur?: [number, RecurInfo][];
}
