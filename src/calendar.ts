// Composition root: openCalendar builds the engine, opens the write log (memory, a store
// directory or a cluster node: src/write-log/) and hands out the embedding API. Calendar is the
// public face; its engine, write path and feed live in its internal handle (calendar-handle.ts).

import type { Engine } from './engine/engine.ts';
import { resolveActor } from './api/wordpress/auth.ts';
import { targetOf } from './api/collections.ts';
import { ResourceApi } from './resource-api.ts';
import type { Change, ChangeFeed, ChangeType, HeldChange } from './changes/feed.ts';
import type { ChangePageQuery, ChangeWindow } from './changes/follow.ts';
import { changePage, changeWindow, followFeed, onChange, subscribeFeed } from './changes/verbs.ts';
import { exportRecords, writeExport, type ExportRecord, type ExportSink } from './export/json.ts';
import type { ImportFormat } from './import/read-records.ts';
import { readCsvRecords, type CsvType } from './import/csv.ts';
import { eventFeed, listFeed } from './export/feeds.ts';
import { readIcsRecords } from './import/ical.ts';
import type { Renderer } from './api/representation/render.ts';
import type { Actor, AsArg, Page, Params, RestCall, RestResult, SiteConfig } from './api/wordpress/types.ts';
import type { UserRegistry } from './users/registry.ts';
import type { CalendarOptions } from './calendar-options.ts';
import { exportMedia, mediaPlaceholders, syncReader, withMediaBytes } from './media/export.ts';
import type { CalendarHandle } from './calendar-handle.ts';
import { openHandle } from './calendar-open.ts';
import { importData, importFile, type ImportFileOptions, importRows } from './calendar-imports.ts';
import type { ImportData, ImportProgress, ImportSummary } from './import/index.ts';
import type { MediaLibrary } from './media/library.ts';
import type { LogHealth } from './write-log/log.ts';

export type { CalendarOptions } from './calendar-options.ts';

type Item = Record<string, unknown>;

const handles = new WeakMap<Calendar, CalendarHandle>();

/** @internal A calendar's internal handle: what the shells (the cluster node, `serve`) and the
 *  tests reach beyond the public API. Not exported by the package. */
export function handleOf(cal: Calendar): CalendarHandle {
  return handles.get(cal)!;
}

export class Calendar {
  readonly events: ResourceApi;
  readonly venues: ResourceApi;
  readonly organizers: ResourceApi;
  readonly categories: ResourceApi;
  readonly tags: ResourceApi;
  readonly site: SiteConfig;
  readonly users: UserRegistry;
  /** Every body rest() answers is ASCII: JSON text with each character above 0x7f escaped, as
   *  wp_json_encode writes it (the HTTP shell then sends it without counting UTF-8 bytes). */
  readonly asciiJson = true;
  /** the media library (/wp/v2/media): uploads kept in DIR/uploads, or in memory without a dir */
  readonly media: MediaLibrary;
  /** every acknowledged write as change records (src/changes/feed.ts) */
  readonly feed: ChangeFeed;
  readonly #h: CalendarHandle;

  /** @internal openCalendar makes calendars. */
  constructor(handle: CalendarHandle) {
    this.#h = handle;
    handles.set(this, handle);
    this.site = handle.site;
    this.users = handle.users;
    this.media = handle.media;
    this.feed = handle.feed;
    this.events = new ResourceApi(handle, 'events');
    this.venues = new ResourceApi(handle, 'venues');
    this.organizers = new ResourceApi(handle, 'organizers');
    this.categories = new ResourceApi(handle, 'categories');
    this.tags = new ResourceApi(handle, 'tags');
  }

  /** the cache of rendered representations (its stats() say how full it is) */
  get render(): Renderer {
    return this.#h.render;
  }

  /** the engine the calendar serves from */
  get engine(): Engine {
    return this.#h.engine;
  }

  /** One REST operation, transport-free; rejects with CalendarError. In a cluster, a write that
   *  reaches a follower runs on the writer, and resolves once this node has applied it. */
  rest(call: RestCall): Promise<RestResult> {
    return this.#h.rest(call);
  }

  /** list/get as fresh objects (the embedding API's read path); throws CalendarError. */
  read(call: RestCall): Page<Item> | Item {
    return this.#h.read(call);
  }

  /** The seq of the newest write this calendar reflects (acknowledged and applied; in a cluster
   *  a node rebuilding its state goes back to its snapshot's seq until it has caught up). */
  get seq(): number {
    return this.#h.seq;
  }

  /** In a cluster: this node's id and role, `ID; role=writer` or `ID; role=follower`. */
  get nodeInfo(): string | undefined {
    return this.#h.log.nodeInfo;
  }

  /** Resolves true once this calendar reflects write `seq` (at once if it does), false after `ms`. */
  waitForSeq(seq: number, ms = 5_000): Promise<boolean> {
    return this.#h.waitForSeq(seq, ms);
  }

  /** The store's state for the health route: ok, read-only or degraded (with the fault). */
  health(): LogHealth {
    const warnings = this.#h.changeLog?.fault ? [this.#h.changeLog.fault] : [];
    if (this.media.fault) warnings.push(this.media.fault);
    return this.#h.log.health(this.seq, warnings);
  }

  /** In-process listeners: `fn` hears every change (every status), once its write is durable. A
   *  listener that throws never breaks a write. Returns a function that removes the listener. */
  on(event: 'change', fn: (change: Change) => void): () => void {
    return onChange(this.feed, event, fn);
  }

  /**
   * The changes after `since` (a seq; default: from now on), then every later one as it is
   * acknowledged, as an async iterator; `types` narrows to some record types; `as` is the reader
   * (changes to records it may not read are left out; default: everything). A `since` older
   * than what is retained throws CalendarError 410 `rest_changes_expired`: resynchronise from the
   * lists. End the iteration (break, return) to stop following.
   */
  changes(opts: { since?: number; types?: ChangeType[]; as?: AsArg } = {}): AsyncIterableIterator<Change> {
    return followFeed(this.feed, opts, opts.as === undefined ? undefined : resolveActor(opts.as, this.users));
  }

  /** One page of the feed as the feed holds it (the HTTP shell writes GET .../changes from the
   *  changes' texts): `next` is the `since` of the next page. */
  changeWindow(opts: ChangePageQuery): ChangeWindow {
    return changeWindow(this.feed, opts);
  }

  /** One page of the feed with its changes as fresh objects. */
  changePage(opts: ChangePageQuery): { changes: Change[]; next: number; head: number; oldest: number } {
    return changePage(this.feed, opts);
  }

  /** The feed a write at a time, for a Server-Sent Events reader (default: from now on): the
   *  retained writes at once, then each new one as it is acknowledged; returns the unsubscribe. */
  subscribeWrites(
    opts: { since?: number; types?: ChangeType[]; actor: Actor },
    onWrite: (changes: readonly HeldChange[]) => void,
  ): () => void {
    return subscribeFeed(this.feed, opts, onWrite);
  }

  /** Bulk-load the import shape (validated whole first; nothing is imported on error). */
  import(data: ImportData, onProgress?: ImportProgress): Promise<ImportSummary> {
    return importData(this.#h, data, onProgress);
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
  importFile(file: string, opts: ImportFileOptions = {}): Promise<ImportSummary> {
    return importFile(this.#h, file, opts);
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
  importCsv(file: string, type: CsvType = 'events'): Promise<ImportSummary> {
    return importRows(this.#h, file, () =>
      readCsvRecords(file, type, this.engine, this.site.timezone, this.site.now()),
    );
  }

  /** Import an iCalendar (.ics) file: each VEVENT an event, a recurring one a series with its
   *  overrides as exceptions; LOCATION, ORGANIZER and CATEGORIES matched by name to venues,
   *  organizers and categories (created when missing). All or nothing. */
  importIcs(file: string): Promise<ImportSummary> {
    return importRows(this.#h, file, async () => readIcsRecords(file, this.engine, this.site.timezone));
  }

  /**
   * The calendar in its import shape, record by record ({type, ...fields}: categories, tags,
   * venues, organizers, then events of every status). Importing what it yields into an empty
   * calendar gives back the same calendar. It reads the calendar as it iterates: writes made
   * between two steps of the iteration may or may not be in it.
   */
  export(): Iterable<ExportRecord> {
    const media = exportMedia(this.engine, this.site.siteUrl, syncReader(this.media.files));
    return exportRecords(this.engine, this.#h.collections.core.site.origin, this.site.siteUrl, media);
  }

  /** Write export() to a stream as the import shape (`json`) or JSON Lines (`jsonl`). A
   *  cluster's media files are read from its object store as the export reaches them. */
  exportTo(out: ExportSink, format: ImportFormat = 'json'): Promise<ImportSummary> {
    const files = this.media.files;
    if (files.readSync || !files.readAll) return writeExport(this.export(), format, out);
    const origin = this.#h.collections.core.site.origin;
    const records = exportRecords(this.engine, origin, this.site.siteUrl, mediaPlaceholders(this.engine));
    return writeExport(withMediaBytes(records, this.engine, this.site.siteUrl, files.readAll.bind(files)), format, out);
  }

  /** True when the calendar holds no records at all. */
  isEmpty(): boolean {
    const e = this.engine;
    const none = (records: Iterable<unknown>) => records[Symbol.iterator]().next().done === true;
    return (
      e.eventRowCount === 0 &&
      none(e.venues()) &&
      none(e.organizers()) &&
      none(e.terms('tribe_events_cat')) &&
      none(e.terms('post_tag'))
    );
  }

  /** Compact the store: a new snapshot and an empty journal (in a cluster, a snapshot in its
   *  object store). No-op in memory. */
  snapshot(): Promise<void> {
    return this.#h.log.snapshot();
  }

  /** Stops the writes, flushes and releases the store (or leaves the cluster). */
  close(): Promise<void> {
    return this.#h.close();
  }
}

/** Opens a calendar: in memory, on a store directory (`dir`) or as a node of a cluster (`cluster`). */
export async function openCalendar(options: CalendarOptions = {}): Promise<Calendar> {
  return new Calendar(await openHandle(options));
}
