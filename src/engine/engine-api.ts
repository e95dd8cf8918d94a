// The engine's public surface, as api/ and store/ use it. engine/engine.ts implements it as
// `class Engine implements EngineApi`. Synchronous and pure in-memory: no I/O, no user input.

import type {
  AttachmentRecord,
  EventRecord,
  Op,
  OrganizerRecord,
  PostKind,
  PostStatus,
  Taxonomy,
  TermRecord,
  VenueRecord,
} from './records.ts';
import type { EventQuery, QueryResult } from './types.ts';
import type { EventTable } from './event-table.ts';
import type { ChangeHooks } from './state.ts';

/** Everything a bulk load brings; ids are kept. */
export interface ImportSet {
  events: EventRecord[];
  venues: VenueRecord[];
  organizers: OrganizerRecord[];
  terms: TermRecord[];
  attachments: AttachmentRecord[];
}

export type LinkKind = 'venue' | 'organizer' | 'category' | 'tag';

export interface EngineApi {
  // ---- writes -------------------------------------------------------------------------
  /**
   * The only mutator. Applies the ops of one write in order (see Op in records.ts for the
   * meaning of each). Input is trusted (validated by api/); a broken invariant throws a plain Error.
   */
  apply(ops: readonly Op[]): void;
  /**
   * Bulk path for imports and demo seeding: adds every record in one pass (columns filled,
   * indexes sorted once), not one apply at a time. Ids must not exist yet. `staged`: rows an
   * import filled (stagingTable()), added before set.events. `opts.searchIndex: false`: no
   * background build of the search index after the load (a process that only imports; the
   * first search builds it). `opts.deferIndexes`: the indexes (sorted index, postings, term
   * counts) are built by the first call that needs them, not now: a process that only imports
   * and writes the snapshot (which holds no index) never builds them.
   */
  bulkLoad(set: ImportSet, staged?: EventTable, opts?: { searchIndex?: boolean; deferIndexes?: boolean }): void;
  /**
   * An empty table for an import to fill row by row before bulkLoad(set, staged) adds its rows
   * to the calendar (moved, not copied, when the calendar has no events yet); dropping it
   * undoes the import. It shares the calendar's string pools and list interners.
   */
  stagingTable(): EventTable;
  /** Next unused post id (events, venues, organizers, attachments share one space). Never reused. */
  allocPostId(): number;
  /** Next unused term id (categories and tags share one space). Never reused. */
  allocTermId(): number;

  /** Which post type an id belongs to (including trashed posts); undefined when unknown. */
  postKind(id: number): PostKind | undefined;

  // ---- events --------------------------------------------------------------------------
  /** Number of event rows (every status, trash included). Rows are 0..eventRowCount-1, dense. */
  readonly eventRowCount: number;
  /** Row of the event with this public id, or -1. */
  eventRow(id: number): number;
  /** Row of the event with this slug (exact, any status), or -1. '' never matches. */
  eventRowBySlug(slug: string): number;
  eventId(row: number): number;
  eventStatus(row: number): PostStatus;
  /** The full record of a row, as a fresh object (safe to mutate). */
  eventRecord(row: number): EventRecord;
  /** Event rows linked to a venue/organizer/category/tag (categories: the term itself only), in (local start, id) order. */
  linkedEventRows(kind: LinkKind, id: number): readonly number[];
  /** Rows whose parent is the event `id` (a series' occurrences), every status, in row order. */
  childRows(id: number): readonly number[];
  /** Rows that are series (carry a recurrence), every status. */
  seriesRows(): number[];
  /** Filter, count and page events; see EventQuery. Hidden-from-listings events never match. */
  query(q: EventQuery): QueryResult;
  /** The query's filters but its date bounds, parent and include list, as a row predicate
   *  (status, hidden, flags, terms, venues, organizers, geo, search). */
  rowFilter(q: EventQuery): (row: number) => boolean;

  // ---- small tables (records returned are the engine's own: do not mutate) -------------
  venue(id: number): VenueRecord | undefined;
  venueBySlug(slug: string): VenueRecord | undefined;
  venues(): Iterable<VenueRecord>;
  organizer(id: number): OrganizerRecord | undefined;
  organizerBySlug(slug: string): OrganizerRecord | undefined;
  organizers(): Iterable<OrganizerRecord>;
  /** every venue or organizer, newest publication date first, then the higher id (kept sorted
   *  until the next write to that table) */
  linkedNewestFirst(kind: LinkKind): readonly (VenueRecord | OrganizerRecord)[];
  attachment(id: number): AttachmentRecord | undefined;
  attachmentByUrl(url: string): AttachmentRecord | undefined;
  /** every attachment, in id order of their first put */
  attachments(): Iterable<AttachmentRecord>;
  term(id: number): TermRecord | undefined;
  termBySlug(taxonomy: Taxonomy, slug: string): TermRecord | undefined;
  /** case-insensitive name match within the taxonomy, optionally at a given parent */
  termByName(taxonomy: Taxonomy, name: string, parent?: number): TermRecord | undefined;
  /** terms of the taxonomy in id order */
  terms(taxonomy: Taxonomy): Iterable<TermRecord>;
  /** WordPress term count: number of events with status 'publish' carrying the term directly */
  termCount(id: number): number;
  /** direct children of a category */
  termChildren(id: number): number[];

  // ---- what renderers need -------------------------------------------------------------
  /** The columns of every event row (read only): a renderer reads a row's fields from them without building a record. */
  readonly eventTable: EventTable;
  /** Install what hears of every change a rendered representation may depend on (see ChangeHooks). */
  setHooks(hooks: ChangeHooks): void;
  /** Grows with every call that changes the state (a write, a bulk load, a snapshot load): a
   *  whole answer kept at one version is the answer at that version. */
  readonly version: number;

  // ---- snapshots -------------------------------------------------------------------------
  /** The whole state as JSON-able chunks (the first is a header with the id counters); columnar for events. */
  snapshotChunks(): Iterable<unknown>;
  /** The snapshot's chunks before its events chunks (the header, the title dictionary), as they
   *  are now: for a snapshot whose events chunks were made as they were staged
   *  (engine/snapshot.ts encodeRows). */
  snapshotHead(): unknown[];
  /**
   * The whole state's snapshot for a writer that takes its chunks one by one (an import alone
   * into an empty store, engine/snapshot.ts liveSnapshot): `head`, the header and the title
   * dictionary; `body`, made as iterated, the events chunks in the main index's order, the
   * posting lines and the block statistics (async: a large table's chunk texts come from a worker
   * thread, which stops once the body is read to its end or left). Builds the indexes first;
   * nothing may write to the engine until the body has been read.
   */
  streamedSnapshot(): { head: unknown[]; body: AsyncIterable<unknown> };
  /** Rebuild state from snapshotChunks() output; only on an empty engine. */
  loadSnapshotChunks(chunks: Iterable<unknown>): void;
}
