// The snapshot's format: the header chunk, the events chunks of versions 1 and 2, and the column
// lists both the encoder (snapshot.ts) and the decoder (snapshot-decode.ts) walk.

import { TYPED_COLUMNS } from './event-table.ts';
import type { AttachmentRecord, OrganizerRecord, RecurInfo, TermRecord, VenueRecord } from './records.ts';

/** written by encodeSnapshot; decodeSnapshot reads this one and version 1 */
export const SNAPSHOT_VERSION = 2;
export const EVENT_CHUNK_ROWS = 10_000;

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
export interface EventChunk {
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
