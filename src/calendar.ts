// Composition root: builds the engine, opens the store (snapshot + replay through the same
// mutator as live writes), and hands out the five collections of the embedding API.

import { Engine } from './engine/engine.ts';
import type { EventRecord, Op, Write } from './engine/records.ts';
import type { ImportSet } from './engine/engine-api.ts';
import type { EventTable } from './engine/event-table.ts';
import { resolveActor } from './api/wordpress/auth.ts';
import { Collections, targetOf } from './api/collections.ts';
import { ResourceApi } from './resource-api.ts';
import type { Core } from './api/context.ts';
import { horizonOps } from './recurrence/series.ts';
import { fail } from './api/wordpress/errors.ts';
import { ChangeFeed, changeOf, describeWrite, type Change, type ChangeType, type HeldChange } from './changes/feed.ts';
import {
  changeFilter,
  checkSince,
  followChanges,
  subscribeWrites,
  type ChangePageQuery,
  type ChangeWindow,
} from './changes/follow.ts';
import { storeDispatcher } from './changes/store-webhooks.ts';
import { type ChangeLog, openChangeLog, readChangeLogFile, startingWrites } from './changes/log.ts';
import { prepareImport, type ImportData, type ImportProgress, type ImportSummary } from './import/index.ts';
import { stageRows, type ImportRow } from './import/rows.ts';
import { exportRecords, writeExport, type ExportRecord, type ExportSink } from './export/json.ts';
import type { ImportFormat } from './import/read-records.ts';
import { stageImportFile } from './import/file.ts';
import { readCsvRecords, type CsvType } from './import/csv.ts';
import { eventFeed, listFeed } from './export/feeds.ts';
import { readIcsRecords } from './import/ical.ts';
import { createSite } from './api/representation/represent.ts';
import { Renderer } from './api/representation/render.ts';
import { embeddedOptions } from './options/options.ts';
import type { Actor, AsArg, Page, Params, RestCall, RestResult, SiteConfig } from './api/wordpress/types.ts';
import { UserRegistry } from './users/registry.ts';
import { openStore, type Store } from './store/store.ts';
import { type StoreGuard, storeGuard, type StoreHealth } from './faults/guard.ts';
import type { SnapshotStream } from './store/snapshot-stream.ts';
import type { ClusterNode } from './cluster/node.ts';
import type { CalendarOptions } from './calendar-options.ts';
import { MediaLibrary } from './media/library.ts';
import { DiskFiles, MemoryFiles } from './media/files.ts';
import { exportMedia, mediaPlaceholders, syncReader, withMediaBytes } from './media/export.ts';
import { writeImportedMedia } from './media/import.ts';
import path from 'node:path';

export type { CalendarOptions } from './calendar-options.ts';

type Item = Record<string, unknown>;

export class Calendar {
  readonly events: ResourceApi;
  readonly venues: ResourceApi;
  readonly organizers: ResourceApi;
  readonly categories: ResourceApi;
  readonly tags: ResourceApi;
  /** the media library (/wp/v2/media): uploads kept in DIR/uploads, or in memory without a dir */
  media: MediaLibrary;
  /** @internal the five collections (the media library reaches the calendar's core through them) */
  collections!: Collections;
  /** the cache of rendered representations (its stats() say how full it is) */
  render!: Renderer;
  /** the engine (replaced as a whole only when a cluster node rebuilds its state) */
  engine: Engine;
  /** this calendar's node of a cluster (docs/cluster.md) */
  cluster: ClusterNode | undefined;
  private seqWaiters: Array<{ seq: number; resolve: (reached: boolean) => void }> = [];
  /** refuses writes while the store's disk fails, and takes back what it refused (src/faults/) */
  guard: StoreGuard | undefined;
  private broken: Error | undefined;
  private closed = false;
  /** every acknowledged write as change records (src/changes/feed.ts) */
  readonly feed: ChangeFeed;
  /** keeps the feed on disk (a store-backed calendar) */
  changeLog: ChangeLog | undefined;
  /** delivers the feed to the webhooks (a store-backed calendar; in a cluster, the writer) */
  webhooks: { stop(): Promise<void> } | undefined;
  /** a memory-only calendar numbers its writes itself */
  private memorySeq: number;
  /** acknowledged writes waiting for an earlier one before they join the feed (acks in seq order) */
  private readonly acked = new Map<number, HeldChange[]>();

  constructor(
    engine: Engine,
    readonly site: SiteConfig,
    readonly users: UserRegistry,
    private readonly store: Store | undefined,
    private readonly cacheBytes: number,
    feed?: ChangeFeed,
  ) {
    this.engine = engine;
    this.wire(engine, createSite(site));
    this.feed = feed ?? new ChangeFeed(store?.seq ?? 0);
    this.memorySeq = this.feed.head;
    this.events = new ResourceApi(this, 'events');
    this.venues = new ResourceApi(this, 'venues');
    this.organizers = new ResourceApi(this, 'organizers');
    this.categories = new ResourceApi(this, 'categories');
    this.tags = new ResourceApi(this, 'tags');
    this.media = new MediaLibrary(() => this.collections.core, new MemoryFiles());
  }

  private wire(engine: Engine, siteInfo: Core['site']): void {
    this.render = new Renderer(siteInfo, engine, this.cacheBytes);
    const core: Core = {
      engine,
      site: siteInfo,
      render: this.render,
      users: this.users,
      commit: (ops, actor) => this.commit(ops, actor),
    };
    this.collections = new Collections(core);
  }

  /** One REST operation, transport-free; rejects with CalendarError. In a cluster, a write that
   *  reaches a follower runs on the writer, and resolves once this node has applied it. */
  async rest(call: RestCall): Promise<RestResult> {
    if (this.closed) throw fail('calendar_closed');
    if (this.guard && call.action !== 'list' && call.action !== 'get') await this.guard.ready();
    if (!this.cluster || call.action === 'list' || call.action === 'get') return this.collections.rest(call);
    if (!this.cluster.isWriter) {
      const { result, seq } = await this.cluster.forward(call);
      await this.waitForSeq(seq);
      return result;
    }
    return this.restHere(call);
  }

  /** A write run on this node (the writer), after any pause for a snapshot's capture. */
  async restHere(call: RestCall): Promise<RestResult> {
    while (this.cluster?.gate) await this.cluster.gate;
    return this.collections.rest(call);
  }

  /** The seq of the newest write this calendar reflects (acknowledged and applied; in a cluster
   *  a node rebuilding its state goes back to its snapshot's seq until it has caught up). */
  get seq(): number {
    return this.cluster ? Math.min(this.feed.head, this.cluster.applied) : this.feed.head;
  }

  /** Every body rest() answers is ASCII: JSON text with each character above 0x7f escaped, as
   *  wp_json_encode writes it (the HTTP shell then sends it without counting UTF-8 bytes). */
  readonly asciiJson = true;

  /** In a cluster: this node's id and role, `ID; role=writer` or `ID; role=follower`. */
  get nodeInfo(): string | undefined {
    return this.cluster ? `${this.cluster.node}; role=${this.cluster.isWriter ? 'writer' : 'follower'}` : undefined;
  }

  /** Resolves true once this calendar reflects write `seq` (at once if it does), false after `ms`. */
  waitForSeq(seq: number, ms = 5_000): Promise<boolean> {
    if (seq <= this.seq) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter = { seq, resolve };
      this.seqWaiters.push(waiter);
      setTimeout(() => {
        const i = this.seqWaiters.indexOf(waiter);
        if (i >= 0) this.seqWaiters.splice(i, 1);
        resolve(seq <= this.seq);
      }, ms).unref?.();
    });
  }

  private seqReached(): void {
    if (this.seqWaiters.length === 0) return;
    const head = this.seq;
    this.seqWaiters = this.seqWaiters.filter((w) => (w.seq <= head ? (w.resolve(true), false) : true));
  }

  /** Cluster: a write from the log that this node did not make. */
  applyWrite(write: Write): void {
    const fresh = write.seq > this.feed.head; // (a node rebuilding its state applies some again)
    const held = fresh ? describeWrite(this.engine, write.ops, write.seq, write.time ?? '', write.author ?? 0) : [];
    this.engine.apply(write.ops);
    if (fresh) this.feed.add(held, write.seq);
    this.seqReached();
  }

  /** Serve from `engine` from now on (a rebuilt state). */
  useEngine(engine: Engine): void {
    this.engine = engine;
    this.wire(engine, this.collections.core.site);
  }

  /** The store's state for the health route: ok, read-only or degraded (with the fault). */
  health(): StoreHealth | { status: 'ok'; seq: number } {
    const warnings = this.changeLog?.fault ? [this.changeLog.fault] : [];
    if (this.media?.fault) warnings.push(this.media.fault);
    return this.guard ? this.guard.health(this.seq, warnings) : { status: 'ok', seq: this.seq };
  }

  /** Cluster: the state was rebuilt from a snapshot at `seq`; serve from `engine` from now on. */
  replaceEngine(engine: Engine, seq: number): void {
    this.useEngine(engine);
    // a snapshot more than one write past the feed (this node was far behind) skips the changes
    // between: the feed's window starts at it (at head + 1 it is an import's marker, not a change)
    if (seq > this.feed.head + 1) this.feed.skipTo(seq);
    else this.feed.add([], seq);
    engine.warmInBackground();
    this.seqReached();
  }

  /** list/get as fresh objects (the embedding API's read path); throws CalendarError. */
  read(call: RestCall): Page<Item> | Item {
    if (this.closed) throw fail('calendar_closed');
    return this.collections.read(call);
  }

  /** Apply in one tick, then wait for durability. A failed journal write stops further writes. */
  private commit(ops: Op[], actor?: Actor): Promise<void> {
    if (this.broken) throw fail('internal_error');
    const refusal = this.guard?.refusal(); // before anything is applied
    if (refusal) throw refusal;
    const time = new Date().toISOString();
    const author = actor?.id ?? 0;
    const seq = this.cluster ? this.cluster.nextSeq() : this.store ? this.store.seq + 1 : ++this.memorySeq;
    const held = describeWrite(this.engine, ops, seq, time, author);
    this.engine.apply(ops);
    if (this.cluster) return this.cluster.append(seq, ops, { time, author }).then(() => this.acknowledged(seq, held));
    if (!this.store) {
      this.acknowledged(seq, held);
      return Promise.resolve();
    }
    return this.store.commit(ops, { time, author }).then(
      () => this.acknowledged(seq, held),
      (err: Error) => {
        const fault = this.guard?.failed(err); // the disk refused it: taken back from memory, writes refused meanwhile
        if (fault) throw fault;
        this.broken = err;
        console.error(`calendar-engine: journal write failed, refusing further writes: ${err.message}`);
        throw fail('internal_error');
      },
    );
  }

  /** A write is durable: its changes join the feed, in seq order. */
  private acknowledged(seq: number, held: HeldChange[]): void {
    this.acked.set(seq, held);
    for (let next = this.feed.head + 1; this.acked.has(next); next++) {
      const changes = this.acked.get(next)!;
      this.acked.delete(next);
      this.feed.add(changes, next);
    }
    this.seqReached();
  }

  /** In-process listeners: `fn` hears every change (every status), once its write is durable. A
   *  listener that throws never breaks a write. Returns a function that removes the listener. */
  on(event: 'change', fn: (change: Change) => void): () => void {
    if (event !== 'change') throw fail('invalid_option', [`on: expected 'change', got ${String(event)}`]);
    return this.feed.on((changes) => {
      for (const c of changes) fn(changeOf(c)); // a fresh object for each listener
    });
  }

  /**
   * The changes after `since` (a seq; default: from now on), then every later one as it is
   * acknowledged, as an async iterator; `types` narrows to some record types; `as` is the reader
   * (changes to records it may not read are left out; default: everything). A `since` older
   * than what is retained throws CalendarError 410 `rest_changes_expired`: resynchronise from the
   * lists. End the iteration (break, return) to stop following.
   */
  changes(opts: { since?: number; types?: ChangeType[]; as?: AsArg } = {}): AsyncIterableIterator<Change> {
    const visible = changeFilter(opts.types, opts.as === undefined ? undefined : resolveActor(opts.as, this.users));
    return followChanges(this.feed, opts.since ?? this.feed.head, visible);
  }

  /** One page of the feed as the feed holds it (the HTTP shell writes GET .../changes from the
   *  changes' texts): `next` is the `since` of the next page. */
  changeWindow(opts: ChangePageQuery): ChangeWindow {
    const since = opts.since ?? this.feed.floor;
    checkSince(this.feed, since);
    const page = this.feed.after(since, opts.limit, changeFilter(opts.types, opts.actor));
    return { held: page.changes, next: page.last, head: this.feed.head, oldest: this.feed.floor };
  }

  /** One page of the feed with its changes as fresh objects. */
  changePage(opts: ChangePageQuery): { changes: Change[]; next: number; head: number; oldest: number } {
    const { held, ...rest } = this.changeWindow(opts);
    return { changes: held.map(changeOf), ...rest };
  }

  /** The feed a write at a time, for a Server-Sent Events reader (default: from now on): the
   *  retained writes at once, then each new one as it is acknowledged; returns the unsubscribe. */
  subscribeWrites(
    opts: { since?: number; types?: ChangeType[]; actor: Actor },
    onWrite: (changes: readonly HeldChange[]) => void,
  ): () => void {
    return subscribeWrites(this.feed, opts.since ?? this.feed.head, changeFilter(opts.types, opts.actor), onWrite);
  }

  /** Bulk-load the import shape (validated whole first; nothing is imported on error). */
  async import(data: ImportData, onProgress?: ImportProgress): Promise<ImportSummary> {
    const { set, table, summary } = prepareImport(this.collections.core, data, onProgress);
    await this.loadImport(set, table);
    return summary;
  }

  /**
   * Bulk-load an import file, read as a stream (any size): the import shape (.json) or JSON
   * Lines (.jsonl/.ndjson, one {"type": ...} object a line); `format` overrides the guess from
   * the name and first line. All or nothing, as import(); errors name the record and its line.
   * Validated events go straight into a staging table (engine.stagingTable()), which joins the
   * calendar at the end; a failure drops it. `alone`: nothing else uses the calendar meanwhile and
   * the process ends after the import (the import command): no search index built after the
   * load, the snapshot written without pausing for writers. `workers`: worker threads that read a
   * JSON file's events (default 2 for a file of 128 MiB or more when there are 2 cores; 0: none).
   */
  async importFile(
    file: string,
    opts: {
      format?: ImportFormat;
      onProgress?: ImportProgress;
      alone?: boolean;
      workers?: number;
      blockBytes?: number;
    } = {},
  ): Promise<ImportSummary> {
    // alone into a store-backed calendar without events, the staged rows become its rows as they
    // are: the snapshot's events are written (by a worker thread) while the file is still read
    const stream =
      opts.alone && this.store && !this.cluster && this.engine.eventRowCount === 0
        ? this.store.beginSnapshot()
        : undefined;
    try {
      const { set, table, summary, chunkedRows } = await stageImportFile(
        this.collections.core,
        file,
        opts,
        stream && ((chunk) => stream.add(chunk)),
      );
      await this.loadImport(set, table, opts, [], stream && { stream, rows: chunkedRows });
      return summary;
    } catch (err) {
      await stream?.abort();
      throw err;
    }
  }

  /** A validated import joins the calendar in one bulk load; a store-backed one then writes its
   *  snapshot. `alone`: nothing else uses this calendar (the import command): its indexes are
   *  left to the first read that needs them, no search index is built after the load, and the
   *  snapshot does not pause for concurrent writers. */
  private async loadImport(
    set: ImportSet,
    table: EventTable,
    opts: { alone?: boolean } = {},
    updates: EventRecord[] = [],
    streamed?: { stream: SnapshotStream; rows: number },
  ): Promise<void> {
    const refusal = this.cluster ? undefined : this.guard?.refusal();
    if (refusal) throw refusal;
    // the files of the uploads it brings first (src/media/import.ts): taken back if it fails
    const undoFiles = await writeImportedMedia(this.media.files, set.attachments);
    try {
      await this.loadImported(set, table, opts, updates, streamed);
    } catch (err) {
      await undoFiles();
      throw err;
    }
  }

  private async loadImported(
    set: ImportSet,
    table: EventTable,
    opts: { alone?: boolean },
    updates: EventRecord[],
    streamed: { stream: SnapshotStream; rows: number } | undefined,
  ): Promise<void> {
    const load = () => {
      this.engine.bulkLoad(set, table, { searchIndex: !opts.alone, deferIndexes: opts.alone });
      // existing events a CSV import updates: after the load, which may bring what they link to
      if (updates.length > 0) this.engine.apply(updates.map((rec) => ({ t: 'event', a: 'put', rec })));
    };
    // in a cluster: on the writer, writes paused, then a snapshot + a marker every node loads
    if (this.cluster) {
      this.feed.add([], await this.cluster.bulkLoad(load));
      this.seqReached();
    } else {
      const refusal = this.guard?.refusal();
      if (refusal) throw refusal;
      load();
      if (streamed && this.engine.eventRowCount !== streamed.rows)
        throw new Error(
          `import: expected the ${streamed.rows} rows streamed to the snapshot, got ${this.engine.eventRowCount} events`,
        );
      // an import is durable once its snapshot is: one the disk refuses is taken back
      if (this.store)
        await this.store
          .compact({
            alone: opts.alone,
            ...(streamed && { streamed: { stream: streamed.stream, head: [this.engine.snapshotHead()] } }),
          })
          .catch((err) => {
            throw this.guard?.failed(err) ?? err;
          });
    }
    // series imported without (all) their occurrences get them, in a write of their own
    await this.extendHorizon();
  }

  /**
   * An iCalendar feed (RFC 5545 text) of the events a list call gives (the REST list parameters:
   * dates, categories, tags, venue, organizer, featured, search, geo...; `per_page` up to 50,
   * default 30), as the plugin serves `{site}/events/?ical=1`. Throws CalendarError as list() does.
   */
  ical(query: Params = {}, as?: AsArg): string {
    return listFeed(this, query, as === undefined ? null : resolveActor(as, this.users));
  }

  /** The iCalendar text of one event (by id or slug), as `{site}/event/{slug}/?ical=1` serves it. */
  icalEvent(idOrSlug: number | string, as?: AsArg): string {
    return eventFeed(this, targetOf(idOrSlug), as === undefined ? null : resolveActor(as, this.users));
  }

  /**
   * Import a CSV file as The Events Calendar's CSV importer reads it (src/import/csv.ts): one
   * `type` a file; venues, organizers and terms matched by name, created when missing. All or
   * nothing; errors name the row.
   */
  async importCsv(file: string, type: CsvType = 'events'): Promise<ImportSummary> {
    return this.importRecords(file, () => readCsvRecords(file, type, this.engine, this.site.timezone, this.site.now()));
  }

  /** Import an iCalendar (.ics) file: each VEVENT an event, a recurring one a series with its
   *  overrides as exceptions; LOCATION, ORGANIZER and CATEGORIES matched by name to venues,
   *  organizers and categories (created when missing). All or nothing. */
  async importIcs(file: string): Promise<ImportSummary> {
    return this.importRecords(file, async () => readIcsRecords(file, this.engine, this.site.timezone));
  }

  private async importRecords(file: string, read: () => Promise<ImportRow[]>): Promise<ImportSummary> {
    const { set, table, updates, summary } = await stageRows(this.collections.core, file, read);
    await this.loadImport(set, table, {}, updates);
    return summary;
  }

  /**
   * The calendar in its import shape, record by record ({type, ...fields}: categories, tags,
   * venues, organizers, then events of every status). Importing what it yields into an empty
   * calendar gives back the same calendar. It reads the calendar as it iterates: writes made
   * between two steps of the iteration may or may not be in it.
   */
  export(): Iterable<ExportRecord> {
    const media = exportMedia(this.engine, this.site.siteUrl, syncReader(this.media.files));
    return exportRecords(this.engine, this.collections.core.site.origin, this.site.siteUrl, media);
  }

  /** Write export() to a stream as the import shape (`json`) or JSON Lines (`jsonl`). A
   *  cluster's media files are read from its object store as the export reaches them. */
  exportTo(out: ExportSink, format: ImportFormat = 'json'): Promise<ImportSummary> {
    const files = this.media.files;
    if (files.readSync || !files.readAll) return writeExport(this.export(), format, out);
    const origin = this.collections.core.site.origin;
    const records = exportRecords(this.engine, origin, this.site.siteUrl, mediaPlaceholders(this.engine));
    return writeExport(withMediaBytes(records, this.engine, this.site.siteUrl, files.readAll.bind(files)), format, out);
  }

  /** True when the calendar holds no records at all. */
  isEmpty(): boolean {
    const e = this.engine;
    return (
      e.eventRowCount === 0 &&
      e.venues()[Symbol.iterator]().next().done === true &&
      e.organizers()[Symbol.iterator]().next().done === true &&
      e.terms('tribe_events_cat')[Symbol.iterator]().next().done === true &&
      e.terms('post_tag')[Symbol.iterator]().next().done === true
    );
  }

  /** Compact the store: a new snapshot and an empty journal. No-op in memory. */
  async snapshot(): Promise<void> {
    if (this.store) await this.store.compact();
    await this.cluster?.snapshot();
  }

  private horizonTimer: ReturnType<typeof setInterval> | undefined;

  /** The occurrences series gain as the rolling horizon moves on, in one write (docs/recurrence.md):
   *  on the writer (followers get the write), at open and then hourly (startHorizon, unref'd). */
  async extendHorizon(): Promise<void> {
    if (this.closed || this.broken || (this.cluster && !this.cluster.isWriter)) return;
    while (this.cluster?.gate) await this.cluster.gate;
    // a read-only store, or one whose disk fails, keeps the horizon it has until writes are back
    if (this.guard?.refusal()) return;
    const ops = horizonOps(this.collections.core);
    if (ops.length > 0) await this.commit(ops, null);
  }

  startHorizon(): void {
    const run = () =>
      this.extendHorizon().catch((err: Error) => console.error(`calendar-engine: recurrence horizon: ${err.message}`));
    (this.horizonTimer ??= setInterval(run, 3_600_000)).unref?.();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.guard?.stop();
    if (this.horizonTimer) clearInterval(this.horizonTimer);
    await this.webhooks?.stop();
    this.changeLog?.stop();
    await this.cluster?.close();
    await this.store?.close();
    this.users.close();
  }
}

export async function openCalendar(options: CalendarOptions = {}): Promise<Calendar> {
  // checked and defaulted by the options table (src/options/options.ts)
  const { options: opts, problem } = embeddedOptions(options);
  if (problem) throw fail('invalid_option', [problem]);
  const { timezone, perPage, cacheBytes, uploadLimit } = opts as Required<
    Pick<CalendarOptions, 'timezone' | 'perPage' | 'cacheBytes' | 'uploadLimit'>
  >;
  const restPrefix = '/' + (opts.restPrefix ?? '').replace(/^\/+|\/+$/g, '');
  const site: SiteConfig = {
    timezone,
    perPage,
    restPrefix: restPrefix === '/' ? '' : restPrefix,
    siteUrl: (opts.siteUrl ?? 'http://127.0.0.1:8080').replace(/\/+$/, ''),
    now: opts.now ?? (() => new Date()),
  };
  const engine = new Engine();
  const users = opts.users ?? UserRegistry.open(opts.dir);
  if (opts.cluster) {
    // loaded only for a cluster: a single process never loads the NATS client
    const { openNode } = await import('./cluster/open.ts');
    const retain = {
      retainCount: opts.changesRetainCount,
      retainMs: opts.changesRetainMs,
      retainBytes: opts.changesRetainBytes,
    };
    const node = await openNode(
      opts.cluster,
      engine,
      (seq) => {
        return new Calendar(engine, site, users, undefined, cacheBytes, new ChangeFeed(seq, retain));
      },
      opts.webhooks,
    );
    // the files in the cluster's object store, writes on the writer (loaded only for a cluster)
    const { clusterMediaLibrary } = await import('./cluster/media.ts');
    try {
      node.media = await clusterMediaLibrary(node.cluster!, node, uploadLimit);
    } catch (err) {
      await node.close();
      throw err;
    }
    node.startHorizon();
    return node;
  }
  let store: Store | undefined;
  // the changes of the writes replayed from the journal (those since the last snapshot)
  const replayed: Array<{ seq: number; held: HeldChange[] }> = [];
  if (opts.dir) {
    store = await openStore(
      opts.dir,
      {
        loadSnapshot: (chunks) => engine.loadSnapshotChunks(chunks),
        replay: (write) => {
          replayed.push({
            seq: write.seq,
            held: describeWrite(engine, write.ops, write.seq, write.time ?? '', write.author ?? 0),
          });
          engine.apply(write.ops);
        },
        snapshotChunks: () => engine.snapshotChunks(),
        // the engine's snapshotChunks() copies its columns when called and builds chunks from the
        // copies: compaction pauses writers for that copy only
      },
      {
        detachedChunks: true,
        readOnly: opts.readOnly,
        ...(opts.compactBytes ? { compactBytes: opts.compactBytes } : {}),
      },
    );
    // the snapshot load left the block statistics and the search index to be built: now, between requests
    engine.warmInBackground();
  }
  const head = store?.seq ?? 0;
  const feed = new ChangeFeed(head, {
    retainCount: opts.changesRetainCount,
    retainMs: opts.changesRetainMs,
    retainBytes: opts.changesRetainBytes,
  });
  // (the options were checked before the store was opened)
  // webhooks pin the feed at their positions before it is filled: what they lack is kept
  const webhooks =
    opts.dir && opts.webhooks !== false && !opts.readOnly
      ? storeDispatcher(opts.dir, feed, typeof opts.webhooks === 'object' ? opts.webhooks : {})
      : undefined;
  // the feed starts with the logged changes (DIR/changes.jsonl) and the writes replayed after them
  const snapshotSeq = replayed.length > 0 ? replayed[0].seq - 1 : head;
  const log = opts.dir ? readChangeLogFile(opts.dir) : undefined;
  const start = log ? startingWrites(log.writes, replayed, snapshotSeq) : replayed;
  if (start.length > 0) {
    feed.backfill(start[0].seq - 1);
    for (const w of start) feed.add(w.held, w.seq);
  }
  const cal = new Calendar(engine, site, users, store, cacheBytes, feed);
  // (after the store: its replay named every file that must stay; only temp files are swept)
  // (media writes are refused as the calendar's other writes are: read-only, or a store with a fault)
  const files = opts.dir ? DiskFiles.open(path.join(opts.dir, 'uploads'), opts.readOnly) : new MemoryFiles();
  cal.media = new MediaLibrary(() => cal.collections.core, files, {
    limit: uploadLimit,
    ready: async () => cal.guard?.admit(),
  });
  if (opts.dir && log && !opts.readOnly) cal.changeLog = openChangeLog(opts.dir, feed, log, snapshotSeq);
  if (store) cal.guard = storeGuard(store, (fresh) => cal.useEngine(fresh), opts.faultProbeMs);
  cal.webhooks = webhooks;
  webhooks?.start();
  await cal.extendHorizon();
  cal.startHorizon();
  return cal;
}
