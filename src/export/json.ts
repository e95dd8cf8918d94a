// A calendar written out in its own import shape, record by record: categories, tags, venues,
// organizers, then events (every status, trash included), each with its id, author, dates and
// stored fields, so that importing the export into an empty store gives back the same calendar
// (ids, slugs, dates, terms, links, statuses). Streamed: one record at a time, never the whole
// calendar as one string.

import type { EngineApi } from '../engine/engine-api.ts';
import { attachmentUrl } from '../media/represent.ts';
import type { EventRecord, OrganizerRecord, PostRecord, TermRecord, VenueRecord } from '../engine/records.ts';
import type { ImportKind } from '../import/index.ts';
import type { ImportFormat } from '../import/read-records.ts';

export type ExportType = 'category' | 'tag' | 'media' | 'venue' | 'organizer' | 'event';

/** One record of an export: its type and its fields in the import shape. */
export interface ExportRecord {
  type: ExportType;
  [field: string]: unknown;
}

const ORDER: readonly ImportKind[] = ['categories', 'tags', 'media', 'venues', 'organizers', 'events'];

const LIST_OF: Record<ExportType, ImportKind> = {
  category: 'categories',
  tag: 'tags',
  media: 'media',
  venue: 'venues',
  organizer: 'organizers',
  event: 'events',
};

/** The calendar's records in import order. `origin` is the site's global-id origin (lineage);
 *  `siteUrl` makes the URLs of uploaded images absolute; `media`: the uploads' records
 *  (src/media/export.ts), before the records that show them. */
export function* exportRecords(
  engine: EngineApi,
  origin: string,
  siteUrl = '',
  media: Iterable<ExportRecord> = [],
): Generator<ExportRecord> {
  for (const t of engine.terms('tribe_events_cat')) yield term('category', t);
  for (const t of engine.terms('post_tag')) yield term('tag', t);
  yield* media;
  for (const v of engine.venues()) yield venue(engine, origin, siteUrl, v);
  for (const o of engine.organizers()) yield organizer(engine, origin, siteUrl, o);
  // series and single events, then occurrences (each after its series); occurrences a series no
  // longer generates (status inherit) are not written
  const recur = engine.eventTable.recur;
  for (let row = 0; row < engine.eventRowCount; row++) {
    if (recur.size === 0 || recur.get(row)?.recurrenceId === undefined)
      yield event(engine, origin, siteUrl, engine.eventRecord(row));
  }
  if (recur.size === 0) return;
  for (let row = 0; row < engine.eventRowCount; row++) {
    if (recur.get(row)?.recurrenceId === undefined || engine.eventStatus(row) === 'inherit') continue;
    yield event(engine, origin, siteUrl, engine.eventRecord(row));
  }
}

function term(type: 'category' | 'tag', t: TermRecord): ExportRecord {
  const r: ExportRecord = { type, id: t.id, name: t.name, slug: t.slug, description: t.description };
  if (type === 'category') r.parent = t.parent;
  return r;
}

function post(
  engine: EngineApi,
  origin: string,
  siteUrl: string,
  type: ExportType,
  titleField: string,
  p: PostRecord,
): ExportRecord {
  const r: ExportRecord = {
    type,
    id: p.id,
    author: p.authorId,
    status: p.status,
    date: p.date,
    date_utc: p.dateUtc,
    modified: p.modified,
    modified_utc: p.modifiedUtc,
    [titleField]: p.title,
    description: p.description,
    excerpt: p.excerpt,
  };
  if (p.slug !== '') r.slug = p.slug; // an unpublished post without a slug stays without one
  if (p.imageId !== 0) {
    const att = engine.attachment(p.imageId);
    if (att) r.image = attachmentUrl(siteUrl, att);
  }
  if (p.lineage !== undefined) r.global_id_lineage = [`${origin}?id=${p.id}`, ...p.lineage];
  return r;
}

function venue(engine: EngineApi, origin: string, siteUrl: string, v: VenueRecord): ExportRecord {
  return {
    ...post(engine, origin, siteUrl, 'venue', 'venue', v),
    address: v.address,
    city: v.city,
    country: v.country,
    province: v.province,
    state: v.state,
    stateprovince: v.stateprovince,
    zip: v.zip,
    phone: v.phone,
    website: v.website,
    show_map: v.showMap,
    show_map_link: v.showMapLink,
    geo_lat: v.geoLat,
    geo_lng: v.geoLng,
  };
}

function organizer(engine: EngineApi, origin: string, siteUrl: string, o: OrganizerRecord): ExportRecord {
  return {
    ...post(engine, origin, siteUrl, 'organizer', 'organizer', o),
    phone: o.phone,
    email: o.email,
    website: o.website,
  };
}

function event(engine: EngineApi, origin: string, siteUrl: string, e: EventRecord): ExportRecord {
  const r: ExportRecord = {
    ...post(engine, origin, siteUrl, 'event', 'title', e),
    timezone: e.timezone,
    all_day: e.allDay,
    start_date: e.startLocal,
    end_date: e.endLocal,
    cost: e.costs,
    currency_symbol: e.currencySymbol,
    currency_position: e.currencyPosition,
    currency_code: e.currencyCode,
    show_map: e.showMap,
    show_map_link: e.showMapLink,
    hide_from_listings: e.hideFromListings,
    sticky: e.sticky,
    featured: e.featured,
    ticketed: e.ticketed,
    venue: e.venueIds.length === 1 ? e.venueIds[0] : e.venueIds.length === 0 ? 0 : e.venueIds,
    organizer: e.organizerIds,
    categories: e.categoryIds,
    tags: e.tagIds,
    post_parent: e.parentId,
  };
  if (e.website !== null) r.website = e.website;
  if (e.recurrence) r.recurrence = e.recurrence;
  if (e.recurrenceId !== undefined) {
    r.recurrence_id = e.recurrenceId;
    r.is_exception = e.exception === true;
  }
  return r;
}

/**
 * Write records as the import shape (`json`: one object of arrays, a record a line) or as JSON
 * Lines (`jsonl`: one object a line, with its "type"), waiting for the stream to drain. Resolves
 * to the number of records of each list.
 */
/** Where an export goes: a Writable (its back-pressure is honoured) or anything with write(). */
export interface ExportSink {
  write(text: string): unknown;
  once?(event: 'drain' | 'error', fn: (err?: Error) => void): unknown;
  off?(event: 'drain' | 'error', fn: (err?: Error) => void): unknown;
}

export async function writeExport(
  records: Iterable<ExportRecord> | AsyncIterable<ExportRecord>,
  format: ImportFormat,
  out: ExportSink,
): Promise<Record<ImportKind, number>> {
  const counts: Record<ImportKind, number> = {
    categories: 0,
    tags: 0,
    media: 0,
    venues: 0,
    organizers: 0,
    events: 0,
  };
  let buffer = '';
  /** json: lists opened so far (all five are written, in order, empty ones too) */
  let opened = 0;
  let list: ImportKind | undefined;
  const openUpTo = (kind: ImportKind | undefined): void => {
    const until = kind === undefined ? ORDER.length : ORDER.indexOf(kind) + 1;
    while (opened < until) {
      buffer += `${opened === 0 ? '' : '],'}\n"${ORDER[opened]}":[`;
      opened++;
      list = undefined;
    }
  };
  const flush = async (): Promise<void> => {
    if (buffer === '') return;
    const ok = out.write(buffer);
    buffer = '';
    const { once, off } = out;
    if (ok === false && once && off)
      await new Promise<void>((resolve, reject) => {
        const done = (err?: Error) => {
          off.call(out, 'drain', done);
          off.call(out, 'error', done);
          if (err) reject(err);
          else resolve();
        };
        once.call(out, 'drain', done);
        once.call(out, 'error', done);
      });
  };
  if (format === 'json') buffer = '{';
  const add = (rec: ExportRecord): Promise<void> | undefined => {
    const kind = LIST_OF[rec.type];
    if (format === 'jsonl') {
      buffer += JSON.stringify(rec) + '\n';
    } else {
      const { type: _type, ...fields } = rec;
      if (kind !== list) {
        if (ORDER.indexOf(kind) < opened - 1) throw new Error(`export: ${kind} after ${ORDER[opened - 1]}`);
        openUpTo(kind);
        list = kind;
        buffer += '\n';
      } else buffer += ',\n';
      buffer += JSON.stringify(fields);
    }
    counts[kind]++;
    return buffer.length >= 1 << 16 ? flush() : undefined;
  };
  // (a cluster's media come from its object store: an async iteration; otherwise no await a record)
  if (Symbol.asyncIterator in records) for await (const rec of records) await add(rec);
  else
    for (const rec of records) {
      const flushed = add(rec);
      if (flushed) await flushed;
    }
  if (format === 'json') {
    openUpTo(undefined);
    buffer += '\n]}\n';
  }
  await flush();
  if (counts.media === 0) delete (counts as Partial<typeof counts>).media;
  return counts;
}
