// CSV files as The Events Calendar's CSV importer reads them (Events → Import → CSV), turned into
// records of the import shape. One file holds one type: events, venues or organizers; the first
// row names the columns with the importer's labels ("Event Name", "Event Start Date", ...) or
// its keys ("event_name", ...). Like the plugin: dates and times are read as strtotime reads them,
// a start time is joined to the start date, an end before the start is moved to the start;
// venues and organizers are matched to existing ones by name (created when there is none);
// categories and tags are comma-separated names or slugs, created when missing.
// Parsing is csv-parse's: quoted fields, embedded newlines, a BOM, CRLF; `;` is used when the
// header row has more semicolons than commas (spreadsheets in locales with a decimal comma).

import fs from 'node:fs';
import { parse } from 'csv-parse';
import type { EngineApi } from '../engine/engine-api.ts';
import { naiveToString } from '../engine/naive-time.ts';
import { FLAG_ALL_DAY } from '../engine/event-table.ts';
import { isValidTimezone, parseDateInput } from '../api/wordpress/dates.ts';
import { sanitizeSlug } from '../api/wordpress/text.ts';
import type { ImportKind } from './index.ts';
import { ImportFileError } from './scanners.ts';

export type CsvType = 'events' | 'venues' | 'organizers';

/** column key → the importer's label */
const COLUMNS: Record<CsvType, Record<string, string>> = {
  events: {
    event_name: 'Event Name',
    event_description: 'Event Description',
    event_excerpt: 'Event Excerpt',
    event_start_date: 'Event Start Date',
    event_start_time: 'Event Start Time',
    event_end_date: 'Event End Date',
    event_end_time: 'Event End Time',
    event_all_day: 'All Day Event',
    event_timezone: 'Event Time Zone',
    event_venue_name: 'Event Venue Name',
    event_organizer_name: 'Event Organizer Name',
    event_show_map_link: 'Event Show Map Link',
    event_show_map: 'Event Show Map',
    event_cost: 'Event Cost',
    event_currency_symbol: 'Event Currency Symbol',
    event_currency_position: 'Event Currency Position',
    event_category: 'Event Category',
    event_tags: 'Event Tags',
    event_website: 'Event Website',
    event_hide: 'Hide from Event Listings',
    event_sticky: 'Sticky in Month View',
    feature_event: 'Event Featured',
    featured_image: 'Event Featured Image',
  },
  venues: {
    venue_name: 'Venue Name',
    venue_description: 'Venue Description',
    venue_country: 'Venue Country',
    venue_address: 'Venue Address',
    venue_address2: 'Venue Address 2',
    venue_city: 'Venue City',
    venue_state: 'Venue State/Province',
    venue_zip: 'Venue Zip',
    venue_phone: 'Venue Phone',
    venue_url: 'Venue Website',
    featured_image: 'Venue Featured Image',
    venue_latitude: 'Venue Latitude',
    venue_longitude: 'Venue Longitude',
  },
  organizers: {
    organizer_name: 'Organizer Name',
    organizer_description: 'Organizer Description',
    organizer_email: 'Organizer Email',
    organizer_website: 'Organizer Website',
    organizer_phone: 'Organizer Phone',
    featured_image: 'Organizer Featured Image',
  },
};

const REQUIRED: Record<CsvType, string[]> = {
  events: ['event_name', 'event_start_date'],
  venues: ['venue_name'],
  organizers: ['organizer_name'],
};

const norm = (s: string) =>
  s
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ');

/** header cell → column key (labels or keys, any case); undefined for a column not imported. */
function columnKey(type: CsvType, header: string): string | undefined {
  const h = norm(header);
  for (const [key, label] of Object.entries(COLUMNS[type])) if (h === key || h === norm(label)) return key;
  return undefined;
}

const truthy = (v: string | undefined) => ['yes', 'true', '1'].includes((v ?? '').trim().toLowerCase());

export interface CsvRecord {
  kind: ImportKind;
  rec: Record<string, unknown>;
  /** the spreadsheet row (the header is row 1) */
  row: number;
  /** an event row matching this existing event: its new version (see matchKeys) */
  update?: number;
}

/**
 * How The Events Calendar's CSV importer finds the event a row updates (match_existing_post): a
 * published event with the same title (compared as MySQL's default collation does: case aside)
 * and the same local start and end, or, for an all-day row, an all-day event starting the same
 * day. The keys an event is found by; a row looks for the first (its own kind).
 */
function matchKeys(title: string, allDay: boolean, start: string, end: string): string[] {
  const t = title.trim().toLowerCase();
  const exact = `t\u0000${t}\u0000${start}\u0000${end}`;
  return allDay ? [`d\u0000${t}\u0000${start.slice(0, 10)}`, exact] : [exact];
}

/** The published events of the calendar by their match keys (the most recently published one
 *  of several: WordPress's get_posts order). */
function existingEvents(engine: EngineApi): Map<string, number> {
  const t = engine.eventTable,
    byKey = new Map<string, number>(),
    dates = new Map<number, string>();
  for (let row = 0; row < engine.eventRowCount; row++) {
    if (engine.eventStatus(row) !== 'publish') continue;
    const date = t.date.get(row);
    for (const key of matchKeys(
      t.title(row),
      (t.flags[row] & FLAG_ALL_DAY) !== 0,
      t.startLocal.get(row),
      t.endLocal.get(row),
    )) {
      const seen = byKey.get(key);
      if (seen === undefined || (dates.get(seen) ?? '') < date) {
        byKey.set(key, t.ids[row]);
        dates.set(t.ids[row], date);
      }
    }
  }
  return byKey;
}

/** `;` when the first line has more semicolons than commas (outside quotes), else `,`. */
function delimiterOf(file: string): string {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(8192);
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    const line = buf
      .toString('utf8', 0, n)
      .split(/\r?\n/)[0]
      .replace(/"[^"]*"/g, '');
    return (line.match(/;/g)?.length ?? 0) > (line.match(/,/g)?.length ?? 0) ? ';' : ',';
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The records of a CSV file of `type`, in import-shape fields, venues/organizers/terms they name
 * matched by name against `engine` and against each other (new ones get ids from the engine).
 * Throws ImportFileError naming the row for anything wrong.
 */
export async function readCsvRecords(
  file: string,
  type: CsvType,
  engine: EngineApi,
  siteZone: string,
  now: Date,
): Promise<CsvRecord[]> {
  const out: CsvRecord[] = [];
  const parser = fs
    .createReadStream(file)
    .pipe(parse({ bom: true, delimiter: delimiterOf(file), relax_quotes: false, skip_empty_lines: true, trim: false }));
  let keys: Array<string | undefined> | undefined;
  let row = 0;
  /** match keys → index in `out` of the event rows of this file; the calendar's, once needed */
  const madeHere = new Map<string, number>();
  let existing: Map<string, number> | undefined;
  const created = {
    venues: new Map<string, number>(),
    organizers: new Map<string, number>(),
    categories: new Map<string, number>(),
    tags: new Map<string, number>(),
  };
  const fail = (message: string): never => {
    throw new ImportFileError(`${file}: row ${row}: ${message}`);
  };
  try {
    for await (const cells of parser as AsyncIterable<string[]>) {
      row++;
      if (!keys) {
        keys = cells.map((c) => columnKey(type, c));
        for (const req of REQUIRED[type])
          if (!keys.includes(req))
            fail(
              `no "${COLUMNS[type][req]}" column (the header row names ${cells.map((c) => JSON.stringify(c.trim())).join(', ')})`,
            );
        continue;
      }
      if (cells.length !== keys.length) fail(`${cells.length} fields where the header row has ${keys.length}`);
      const v: Record<string, string> = {};
      keys.forEach((k, i) => {
        if (k !== undefined) v[k] = cells[i].trim();
      });
      for (const req of REQUIRED[type]) if (!v[req]) fail(`"${COLUMNS[type][req]}" is empty`);
      if (type === 'events') matchEvent(eventRecord(v));
      else if (type === 'venues') out.push({ kind: 'venues', rec: venueRecord(v), row });
      else out.push({ kind: 'organizers', rec: organizerRecord(v), row });
    }
  } catch (err) {
    if (err instanceof ImportFileError) throw err;
    const e = err as Error & { lines?: number };
    throw new ImportFileError(
      `${file}: ${e.lines !== undefined ? `line ${e.lines}: ` : ''}${e.message.replace(/^Invalid Record Length: /, '')}`,
    );
  }
  if (!keys) throw new ImportFileError(`${file}: empty: no header row`);
  return out;

  /** A row's event: the update of the published event it matches, or of an event an earlier row
   *  of this file made or updated (the importer saves each row before it reads the next), or new. */
  function matchEvent(rec: Record<string, unknown>): void {
    const [key, ...others] = matchKeys(
      rec.title as string,
      rec.all_day as boolean,
      rec.start_date as string,
      rec.end_date as string,
    );
    const earlier = madeHere.get(key);
    if (earlier !== undefined) {
      out[earlier] = { ...out[earlier], rec, row };
      return;
    }
    existing ??= existingEvents(engine);
    const id = existing.get(key);
    const updating = id === undefined ? undefined : madeHere.get(`u${id}`);
    if (updating !== undefined) {
      out[updating] = { ...out[updating], rec, row };
      return;
    }
    for (const k of [key, ...others, ...(id === undefined ? [] : [`u${id}`])])
      if (!madeHere.has(k)) madeHere.set(k, out.length);
    out.push(id === undefined ? { kind: 'events', rec, row } : { kind: 'events', rec, row, update: id });
  }

  function when(date: string, time: string | undefined, zone: string, what: string): number {
    const text = time ? `${date} ${time}` : date;
    const n = parseDateInput(text, zone, now);
    return n ?? fail(`${what} ${JSON.stringify(text)} is not a date`);
  }

  function eventRecord(v: Record<string, string>): Record<string, unknown> {
    const zone = v.event_timezone || siteZone;
    if (!isValidTimezone(zone)) fail(`"Event Time Zone" ${JSON.stringify(zone)} is not a time zone`);
    const allDay = truthy(v.event_all_day);
    const start = when(v.event_start_date, allDay ? undefined : v.event_start_time, zone, '"Event Start Date"');
    let end =
      v.event_end_date || v.event_end_time
        ? when(v.event_end_date || v.event_start_date, allDay ? undefined : v.event_end_time, zone, '"Event End Date"')
        : start;
    if (end < start) end = start; // as the importer does
    const rec: Record<string, unknown> = {
      title: v.event_name,
      description: v.event_description ?? '',
      excerpt: v.event_excerpt ?? '',
      timezone: zone,
      all_day: allDay,
      start_date: naiveToString(start),
      end_date: naiveToString(allDay ? end + 86_399_000 - (end % 86_400_000) : end),
      show_map: v.event_show_map === undefined || v.event_show_map === '' ? true : truthy(v.event_show_map),
      show_map_link:
        v.event_show_map_link === undefined || v.event_show_map_link === '' ? true : truthy(v.event_show_map_link),
      hide_from_listings: truthy(v.event_hide),
      sticky: truthy(v.event_sticky),
      featured: truthy(v.feature_event),
      categories: terms(v.event_category, 'categories', 'tribe_events_cat'),
      tags: terms(v.event_tags, 'tags', 'post_tag'),
    };
    if (v.event_cost) rec.cost = v.event_cost;
    if (v.event_currency_symbol) rec.currency_symbol = v.event_currency_symbol;
    if (v.event_currency_position)
      rec.currency_position = /^(after|suffix|postfix)$/i.test(v.event_currency_position) ? 'postfix' : 'prefix';
    if (v.event_website) rec.website = v.event_website;
    if (v.featured_image) rec.image = v.featured_image;
    if (v.event_venue_name) rec.venue = linked('venues', v.event_venue_name);
    if (v.event_organizer_name)
      rec.organizer = v.event_organizer_name
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean)
        .map((n) => linked('organizers', n));
    return rec;
  }

  function venueRecord(v: Record<string, string>): Record<string, unknown> {
    const rec: Record<string, unknown> = {
      venue: v.venue_name,
      description: v.venue_description ?? '',
      country: v.venue_country ?? '',
      address: [v.venue_address, v.venue_address2].filter(Boolean).join(', '),
      city: v.venue_city ?? '',
      state: v.venue_state ?? '',
      province: v.venue_state ?? '',
      zip: v.venue_zip ?? '',
      phone: v.venue_phone ?? '',
      website: v.venue_url ?? '',
    };
    if (v.venue_latitude || v.venue_longitude) {
      rec.geo_lat = v.venue_latitude;
      rec.geo_lng = v.venue_longitude;
    }
    if (v.featured_image) rec.image = v.featured_image;
    return rec;
  }

  function organizerRecord(v: Record<string, string>): Record<string, unknown> {
    const rec: Record<string, unknown> = {
      organizer: v.organizer_name,
      description: v.organizer_description ?? '',
      email: v.organizer_email ?? '',
      website: v.organizer_website ?? '',
      phone: v.organizer_phone ?? '',
    };
    if (v.featured_image) rec.image = v.featured_image;
    return rec;
  }

  /** A venue or organizer by name: an existing one (not trashed), one made earlier in this file, or a new one. */
  function linked(kind: 'venues' | 'organizers', name: string): number {
    const key = name.toLowerCase();
    const known = created[kind].get(key);
    if (known !== undefined) return known;
    const all = kind === 'venues' ? engine.venues() : engine.organizers();
    for (const r of all) if (r.status !== 'trash' && r.title.trim().toLowerCase() === key) return r.id;
    const id = engine.allocPostId();
    created[kind].set(key, id);
    out.push({ kind, rec: kind === 'venues' ? { id, venue: name } : { id, organizer: name }, row });
    return id;
  }

  /** Comma-separated names or slugs → term ids, new terms made (after the rows that first name them). */
  function terms(
    list: string | undefined,
    kind: 'categories' | 'tags',
    taxonomy: 'tribe_events_cat' | 'post_tag',
  ): number[] {
    const ids: number[] = [];
    for (const raw of (list ?? '').split(',')) {
      const name = raw.trim();
      if (!name) continue;
      const key = name.toLowerCase();
      let id = created[kind].get(key);
      if (id === undefined) {
        for (const t of engine.terms(taxonomy))
          if (t.name.toLowerCase() === key || t.slug === sanitizeSlug(name)) id = t.id;
      }
      if (id === undefined) {
        id = engine.allocTermId();
        created[kind].set(key, id);
        out.push({ kind, rec: { id, name }, row });
      }
      if (!ids.includes(id)) ids.push(id);
    }
    return ids;
  }
}
