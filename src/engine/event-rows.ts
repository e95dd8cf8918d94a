// What a row of the event table is made of, outside the table: flags, shared id lists, the
// parts appendParts takes, the staged record, the folding search uses, recurrence fields.

import type { EventRecord, RecurInfo } from './records.ts';
import type { SymbolTable } from './text-symbols.ts';

export const FLAG_ALL_DAY = 1;
export const FLAG_FEATURED = 2;
export const FLAG_HIDDEN = 4;
export const FLAG_STICKY = 8;
export const FLAG_TICKETED = 16;
export const FLAG_SHOW_MAP = 32;
export const FLAG_SHOW_MAP_LINK = 64;
/** derived, not part of the record: some venue of the event has coordinates (state.ts keeps it) */
export const FLAG_COORDS = 128;

/** A list of linked ids; shared, never mutated in place (replaced on change). */
export type IdList = readonly number[];
export const EMPTY_IDS: IdList = Object.freeze([]);

/** Folding used by search: NFD, combining marks stripped, lower case. */
export function foldText(s: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(s)) return s.toLowerCase();
  return s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The date fields of an event record, in the order of EventTable.dateColumns(). */
export const STAGED_DATES = [
  'startLocal',
  'endLocal',
  'startUtc',
  'endUtc',
  'date',
  'dateUtc',
  'modified',
  'modifiedUtc',
] as const;
/** An event record without its dates (appendStaged takes them as naive ms). */
export type StagedEvent = Omit<EventRecord, (typeof STAGED_DATES)[number]>;

/** The parts of a row appendParts takes (one object, filled again for each row). */
export class RowParts {
  id = 0;
  authorId = 0;
  /** statusCode() */
  status = 0;
  /** FLAG_* bits */
  flags = 0;
  imageId = 0;
  parentId = 0;
  /** indexes in the table's pools */
  timezone = 0;
  abbr = 0;
  currencySymbol = 0;
  currencyPosition = 0;
  currencyCode = 0;
  title = '';
  /** title's index in the table's title dictionary when the caller has it (-1: found by title) */
  titleId = -1;
  description = '';
  excerpt = '';
  /** null (with `coded` only): the slug coded there */
  slug: string | null = '';
  website: string | null = null;
  /** description, excerpt, a slug and website as the text store's records hold them instead (a
   *  worker coded them: TextStore.setCoded's src, at, slugAt, web, end, from); undefined: they are
   *  the strings */
  coded: Uint8Array | undefined = undefined;
  codedAt = 0;
  codedSlug = 0;
  codedWeb = 0;
  codedEnd = 0;
  codedWith: SymbolTable | null = null;
  /** the table's shared cost list (costLists) */
  costs: readonly string[] = [];
  /** the link lists' numbers in the table's idLists (0: empty) */
  organizerIds = 0;
  categoryIds = 0;
  tagIds = 0;
  /** the first venue (0: none), and all of them when there are several (kept as is) */
  venue = 0;
  venues: IdList | undefined = undefined;
  /** kept as is */
  lineage: string[] | undefined = undefined;
  /** a series' or occurrence's recurrence fields, kept as is */
  recur: RecurInfo | undefined = undefined;
}

/** The recurrence fields of a record, copied (the table keeps them; records are the caller's). */
export function recurInfoOf(rec: Pick<EventRecord, 'recurrence' | 'recurrenceId' | 'exception'>): RecurInfo {
  const info: RecurInfo = {};
  if (rec.recurrence) {
    const r = rec.recurrence;
    info.recurrence = { rules: r.rules.slice(), rdates: r.rdates.slice(), exdates: r.exdates.slice() };
  }
  if (rec.recurrenceId !== undefined) info.recurrenceId = rec.recurrenceId;
  if (rec.exception) info.exception = true;
  return info;
}

export function toIds(list: readonly number[]): IdList {
  return list.length === 0 ? EMPTY_IDS : list.slice();
}
