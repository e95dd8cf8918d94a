// The engine: composes the event columns, id registry, small tables, sorted indexes, posting
// lists and geo index (state.ts) behind EngineApi. Synchronous, in memory, no user input.

import { applyOp } from './apply.ts';
import type { EngineApi, ImportSet, LinkKind } from './engine-api.ts';
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
import { POST_STATUSES } from './records.ts';
import { runQuery } from './query.ts';
import { buildMatcher } from './matcher.ts';
import {
  dropSearchIndex,
  existingSearchIndex,
  rebuildSearchIndex,
  scheduleSearchIndexBuild,
  searchIndexOnWorker,
  searchIndexReady,
} from './search-index.ts';
import { backgroundDone, inSlices } from './background.ts';
import { WarmUp } from './warm-up.ts';
import { decodeSnapshot, encodeSnapshot, liveSnapshot, snapshotHead, startSnapshotWorkers } from './snapshot.ts';
import { CalendarState, type ChangeHooks } from './state.ts';
import { EventTable } from './event-table.ts';
import { rebuildMain } from './index-rebuild.ts';
import type { EventQuery, QueryResult } from './types.ts';

/** A run of at least this many event puts in one write updates the indexes in one pass each
 *  (CalendarState.beginBatch): a merge costs about what a few single inserts do. */
const BATCH_PUTS = 32;

export class Engine implements EngineApi {
  /** internals, for tests and benches; api/ should stay on the EngineApi surface */
  readonly state = new CalendarState();

  /** The columns of every event row, for renderers that read a row's fields without building a record. Read only. */
  get eventTable(): EventTable {
    return this.state.table;
  }

  /** Install what hears of every change a rendered representation may depend on (one set per engine). */
  setHooks(hooks: ChangeHooks): void {
    this.state.hooks = hooks;
  }

  // ---- writes ---------------------------------------------------------------------------

  private changes = 0;

  /** Counts the calls that changed (or may have changed) the state: apply, bulkLoad, loadSnapshotChunks. */
  get version(): number {
    return this.changes;
  }

  apply(ops: readonly Op[]): void {
    this.changes++;
    this.indexed();
    const st = this.state;
    for (let i = 0; i < ops.length; ) {
      // a run of event puts (a series' occurrences): one pass over each index for the run
      let j = i;
      while (j < ops.length && ops[j].t === 'event' && ops[j].a === 'put') j++;
      if (j - i < BATCH_PUTS) {
        applyOp(st, ops[i++]);
        continue;
      }
      st.beginBatch();
      try {
        for (; i < j; i++) applyOp(st, ops[i]);
      } finally {
        st.endBatch();
      }
    }
  }

  /** term counts before a bulk load whose indexes are not built yet (deferIndexes) */
  private countsBeforeLoad: Map<number, number> | undefined;

  /** Builds the indexes a bulk load deferred (before anything reads or updates them). */
  private indexed(): void {
    const before = this.countsBeforeLoad;
    if (before === undefined) return;
    this.countsBeforeLoad = undefined;
    const st = this.state;
    st.rebuildIndexes();
    for (const [id, n] of st.termCounts.entries()) if (before.get(id) !== n) st.hooks.termCountChanged(id);
    for (const [id, n] of before) if (st.termCounts.get(id) === undefined && n !== 0) st.hooks.termCountChanged(id);
  }

  stagingTable(): EventTable {
    return new EventTable(this.state.table);
  }

  bulkLoad(set: ImportSet, staged?: EventTable, opts: { searchIndex?: boolean; deferIndexes?: boolean } = {}): void {
    this.changes++;
    this.indexed();
    const st = this.state;
    const seen = new Set<number>();
    const checkNew = (id: number, what: string) => {
      if (st.ids.postKind(id) !== undefined || seen.has(id))
        throw new Error(`bulk load: expected a new post id for ${what}, got existing id ${id}`);
      seen.add(id);
    };
    for (const a of set.attachments) checkNew(a.id, 'an attachment');
    for (const v of set.venues) checkNew(v.id, 'a venue');
    for (const o of set.organizers) checkNew(o.id, 'an organizer');
    for (const e of set.events) checkNew(e.id, 'an event');
    if (staged) {
      // the importer made the staged ids unique; here they must also be new to the calendar
      const ids = staged.ids;
      for (let row = 0; row < staged.count; row++) {
        if (st.ids.postKind(ids[row]) !== undefined || seen.has(ids[row]))
          throw new Error(`bulk load: expected a new post id for an event, got existing id ${ids[row]}`);
      }
    }
    const termIds = new Set<number>();
    for (const term of set.terms) {
      if (st.entities.terms.has(term.id) || termIds.has(term.id))
        throw new Error(`bulk load: expected a new term id, got existing id ${term.id}`);
      termIds.add(term.id);
    }

    for (const rec of set.attachments) applyOp(st, { t: 'attachment', a: 'put', rec });
    for (const rec of set.terms) applyOp(st, { t: 'term', a: 'put', rec });
    for (const rec of set.venues) applyOp(st, { t: 'venue', a: 'put', rec });
    for (const rec of set.organizers) applyOp(st, { t: 'organizer', a: 'put', rec });
    if (set.events.length === 0 && (!staged || staged.count === 0)) return;

    const t = st.table;
    // the word index knows none of the rows appended here: forgotten, so that no search answers
    // from it and no snapshot keeps it (it is built again below, or by the first search)
    dropSearchIndex(st);
    if (staged && staged.count > 0) {
      const first = t.appendTable(staged);
      // rows that are most of the table: the slug lookup is made again when next needed (each
      // slug read back and put one by one took ~2 s of a million-event import that needs none)
      const slugs = st.ids.tracksSlugs && first < t.count - first ? st.ids.dropSlugs() : st.ids.tracksSlugs;
      for (let row = first; row < t.count; row++) {
        st.ids.setPost(t.ids[row], 'event', row);
        if (slugs) st.ids.setEventSlug(row, undefined, t.slug(row));
      }
    }
    t.reserve(t.count + set.events.length);
    for (const rec of set.events) {
      const row = t.append(rec);
      st.ids.setPost(rec.id, 'event', row);
      st.ids.setEventSlug(row, undefined, rec.slug);
    }
    this.countsBeforeLoad = new Map(st.termCounts.entries());
    if (opts.deferIndexes) return; // built by the first call that needs them (a snapshot does not)
    this.indexed();
    // the search index is built in slices after the load (a search that comes first builds it
    // on the spot): a bulk load does not wait for it, and a process that only imports never does
    if (opts.searchIndex !== false) scheduleSearchIndexBuild(st);
  }

  allocPostId(): number {
    return this.state.ids.allocPostId();
  }

  allocTermId(): number {
    return this.state.ids.allocTermId();
  }

  postKind(id: number): PostKind | undefined {
    return this.state.ids.postKind(id);
  }

  // ---- events ---------------------------------------------------------------------------

  get eventRowCount(): number {
    return this.state.table.count;
  }

  eventRow(id: number): number {
    return this.state.ids.eventRow(id);
  }

  eventRowBySlug(slug: string): number {
    return this.state.ids.eventRowBySlug(slug);
  }

  eventId(row: number): number {
    this.checkRow(row);
    return this.state.table.ids[row];
  }

  eventStatus(row: number): PostStatus {
    this.checkRow(row);
    return POST_STATUSES[this.state.table.statusCodes[row]];
  }

  eventRecord(row: number): EventRecord {
    return this.state.table.record(row);
  }

  linkedEventRows(kind: LinkKind, id: number): readonly number[] {
    this.indexed();
    const st = this.state;
    const postings =
      kind === 'venue'
        ? st.venuePostings
        : kind === 'organizer'
          ? st.organizerPostings
          : kind === 'category'
            ? st.categoryPostings
            : st.tagPostings;
    return postings.get(id)?.toArray() ?? [];
  }

  childRows(id: number): readonly number[] {
    this.indexed();
    const rows = this.state.parentPostings.get(id)?.toArray() ?? [];
    return rows.slice().sort((a, b) => a - b);
  }

  seriesRows(): number[] {
    const rows: number[] = [];
    for (const [row, info] of this.state.table.recur) if (info.recurrence) rows.push(row);
    return rows.sort((a, b) => a - b);
  }

  query(q: EventQuery): QueryResult {
    this.indexed();
    return runQuery(this.state, q);
  }

  rowFilter(q: EventQuery): (row: number) => boolean {
    this.indexed();
    const { startGte, startGt, startLt, startLte, endGte, endGt, endLt, endLte, parentId, includeIds, ...rest } = q;
    return buildMatcher(this.state, rest).match;
  }

  private checkRow(row: number): void {
    const n = this.state.table.count;
    if (!(Number.isInteger(row) && row >= 0 && row < n))
      throw new Error(`event row: expected an integer in [0, ${n}), got ${row}`);
  }

  // ---- small tables ---------------------------------------------------------------------

  venue(id: number): VenueRecord | undefined {
    return this.state.entities.venues.get(id);
  }

  venueBySlug(slug: string): VenueRecord | undefined {
    return this.state.entities.venues.bySlug(slug);
  }

  venues(): Iterable<VenueRecord> {
    return this.state.entities.venues.values();
  }

  organizer(id: number): OrganizerRecord | undefined {
    return this.state.entities.organizers.get(id);
  }

  organizerBySlug(slug: string): OrganizerRecord | undefined {
    return this.state.entities.organizers.bySlug(slug);
  }

  organizers(): Iterable<OrganizerRecord> {
    return this.state.entities.organizers.values();
  }

  linkedNewestFirst(kind: LinkKind): readonly (VenueRecord | OrganizerRecord)[] {
    return kind === 'venue' ? this.state.entities.venues.newestFirst() : this.state.entities.organizers.newestFirst();
  }

  attachment(id: number): AttachmentRecord | undefined {
    return this.state.entities.attachments.get(id);
  }

  attachments(): Iterable<AttachmentRecord> {
    return this.state.entities.attachments.values();
  }

  attachmentByUrl(url: string): AttachmentRecord | undefined {
    return this.state.entities.attachmentByUrl(url);
  }

  term(id: number): TermRecord | undefined {
    return this.state.entities.terms.get(id);
  }

  termBySlug(taxonomy: Taxonomy, slug: string): TermRecord | undefined {
    return this.state.entities.termBySlug(taxonomy, slug);
  }

  termByName(taxonomy: Taxonomy, name: string, parent?: number): TermRecord | undefined {
    return this.state.entities.termByName(taxonomy, name, parent);
  }

  terms(taxonomy: Taxonomy): Iterable<TermRecord> {
    return this.state.entities.termsOf(taxonomy);
  }

  termCount(id: number): number {
    this.indexed();
    return this.state.termCounts.get(id) ?? 0;
  }

  termChildren(id: number): number[] {
    return this.state.entities.termChildren(id);
  }

  // ---- snapshots --------------------------------------------------------------------------

  snapshotChunks(): Iterable<unknown> {
    // posting lines only when the indexes are built (a deferred bulk load's are not)
    return encodeSnapshot(this.state, this.countsBeforeLoad === undefined);
  }

  snapshotHead(): unknown[] {
    this.indexed(); // its posting lines: a load then reads them instead of making them anew
    return snapshotHead(this.state);
  }

  streamedSnapshot(): { head: unknown[]; body: AsyncIterable<unknown> } {
    const st = this.state;
    // after a deferred bulk load, the main index only: the posting lines are made straight from
    // the columns, and the lists themselves are left to the first read that needs them
    const listsBuilt = this.countsBeforeLoad === undefined;
    if (!listsBuilt) rebuildMain(st);
    // a large snapshot's worker threads start now, while the block statistics are made here
    const workers = startSnapshotWorkers(st, listsBuilt);
    st.mainBlocks(); // the block statistics, which a load then reads instead of making them
    return liveSnapshot(st, listsBuilt, workers);
  }

  loadSnapshotChunks(chunks: Iterable<unknown>): void {
    this.changes++;
    decodeSnapshot(this.state, chunks);
  }

  /**
   * After a snapshot load, between requests, in slices of SLICE_MS on the event loop
   * (background.ts): the main index's block statistics, the block statistics of the large
   * category, tag, venue and organizer lists, the slug lookup, the lookup of the link lists the
   * snapshot brought (warm-up.ts), then the search index (one built on a worker thread,
   * search-workers.ts, is started first and takes no slices).
   * A request that comes meanwhile waits at most about a slice; one that needs what is not built
   * yet makes it on the spot (mainBlocks() keeps the blocks already done), as it would anyway.
   */
  warmInBackground(): void {
    const st = this.state;
    const warm = new WarmUp(st, () => this.indexed());
    let started = false;
    inSlices((deadline) => {
      if (!started) {
        started = true;
        this.indexed();
        // a search index built on a worker thread takes no slices here: it starts first
        if (existingSearchIndex(st) === undefined && searchIndexOnWorker(st)) scheduleSearchIndexBuild(st);
      }
      if (!warm.step(deadline)) return false;
      // a snapshot that held the search index left nothing to build
      if (existingSearchIndex(st) === undefined) scheduleSearchIndexBuild(st);
      return true;
    });
  }

  /**
   * Finish now what warmInBackground() would build (the block statistics, the search index), so
   * that a snapshot written next holds them: before an explicit snapshot (the `snapshot` command,
   * Calendar.snapshot()), where nothing waits on the engine.
   */
  finishIndexes(): void {
    const st = this.state;
    this.indexed();
    st.mainBlocks();
    const si = existingSearchIndex(st);
    if (si === undefined) rebuildSearchIndex(st);
    else si.finish(st);
  }

  /** Resolves once the search index is no longer being built on a worker thread (at once when it
   *  is not): until then a search is answered by a scan of the rows, so a caller that can wait
   *  (a REST list with `search`) waits for this first. */
  searchReady(): Promise<void> {
    return searchIndexReady(this.state);
  }

  /** Resolves once the work begun in the background so far is done (the warm-up after a load, a
   *  search index on a worker thread, the venue groups a radius query started): what a benchmark
   *  of the settled engine waits for, where its own calls leave the event loop no turn. */
  async settled(): Promise<void> {
    await this.searchReady();
    await backgroundDone();
  }
}
