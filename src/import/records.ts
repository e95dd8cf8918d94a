// The import's records one by one: each record of the import shape checked and turned into an engine
// record (terms, venues, organizers, attachments) or a staged event row, and the checks that link
// records to each other once all are in. ImportBuilder (import.ts) drives it, from a whole object, a
// streamed file, or the packed blocks of a parallel import's workers.

import type { ImportSet } from '../engine/engine-api.ts';
import { naiveFromString, naiveToString } from '../engine/naive-time.ts';
import type {
  AttachmentRecord,
  EventRecord,
  OrganizerRecord,
  PostKind,
  PostStatus,
  TermRecord,
  VenueRecord,
} from '../engine/records.ts';
import { IdMap } from '../engine/columns.ts';
import { EMPTY_IDS, RowParts, type EventTable, type StagedEvent } from '../engine/event-table.ts';
import { SlugSet, slugHash } from './slugs.ts';
import {
  BlockMaps,
  FLAGS_OF,
  internPacked,
  NO_COST,
  POOL_ABBR,
  POOL_CODE,
  POOL_POSITION,
  POOL_SYMBOL,
  POOL_ZONE,
} from './blocks.ts';
import type { Core } from '../api/context.ts';
import { parseCost } from '../api/wordpress/cost.ts';
import { epochToZoned } from '../api/wordpress/dates.ts';
import { computeDatesMs } from '../api/events/write.ts';
import { IMAGE_EXTENSIONS, ownUpload } from '../api/images.ts';
import { asId, asNumber, asString } from '../api/wordpress/params.ts';
import { sanitizeSlug } from '../api/wordpress/text.ts';
import { CalendarError } from '../api/wordpress/errors.ts';
import { importMedia, mediaSlugTaken } from '../media/import.ts';
import { parseRecurrence } from '../recurrence/index.ts';
import { storedOf } from '../recurrence/stored.ts';
import {
  B_NO_SLUG,
  P_AUTHOR,
  P_CATEGORIES,
  P_CODE,
  P_COST,
  P_EXTRA,
  P_FLAGS,
  P_ID,
  P_INTS,
  P_NONE,
  P_ORGANIZERS,
  P_PARENT,
  P_POSITION,
  P_STATUS,
  P_STRINGS,
  P_SYMBOL,
  P_TAGS,
  P_VENUES,
  P_ZONE,
  P_ABBR,
  P_CATEGORIES_HASH,
  P_ORGANIZERS_HASH,
  P_SLUG_HASH,
  P_TAGS_HASH,
  type PackedEvents,
} from './pack.ts';
import { bad, flag, noImage, RecordError, RecordReader, req, str, validUrl, type Rec } from './local.ts';

/** Builds engine records out of the import shape; `fail` carries the resource, index and id. */
export class Importer {
  /** everything but events, which go straight into `table` (a staging table of the engine) */
  readonly set: ImportSet = { events: [], venues: [], organizers: [], terms: [], attachments: [] };
  readonly table: EventTable;
  /** kinds of the post ids this import brings (venues, organizers, events, attachments) */
  readonly kinds = new IdMap<PostKind>();
  private readonly termIds = new Map<number, TermRecord>();
  private readonly slugs = new Map<string, SlugSet>();
  private readonly attachmentsByUrl = new Map<string, AttachmentRecord>();
  /** the uploads this import brings (media records), by id */
  private readonly uploads = new Map<number, AttachmentRecord>();
  private readonly uploadFiles = new Set<string>();
  readonly stamps: { local: string; utc: string };
  /** the record-local checks (also what a parallel import's workers run) */
  readonly rd: RecordReader;
  /** the dates of the event being read, as naive ms (STAGED_DATES order) */
  private readonly dates: Float64Array;

  constructor(readonly core: Core) {
    this.table = core.engine.stagingTable();
    const now = core.site.config.now().getTime();
    const siteZone = core.site.config.timezone;
    this.stamps = {
      local: naiveToString(epochToZoned(now, siteZone)),
      utc: naiveToString(Math.floor(now / 1000) * 1000),
    };
    this.rd = new RecordReader(siteZone, () => core.site.config.now(), {
      local: naiveFromString(this.stamps.local),
      utc: naiveFromString(this.stamps.utc),
    });
    this.dates = this.rd.dates;
  }

  postId(r: Rec, kind: PostKind): number {
    return this.takeId(this.rd.givenId(r), kind);
  }

  /** `given` (a checked positive id), or a new one when undefined, as the id of a new post of `kind`. */
  takeId(given: number | undefined, kind: PostKind): number {
    const id = given ?? this.core.engine.allocPostId();
    if (this.kinds.has(id) || this.core.engine.postKind(id) !== undefined)
      bad(`id ${id} is already used by another post`);
    this.kinds.set(id, kind);
    return id;
  }

  /** `hash`: wanted's slugHash, when the caller has it (a parallel import's workers compute it). */
  uniqueSlug(kind: string, wanted: string, id: number, exists: (s: string) => boolean, hash?: number): string {
    let set = this.slugs.get(kind);
    if (!set) this.slugs.set(kind, (set = new SlugSet()));
    const base = wanted || String(id);
    const h = wanted !== '' && hash !== undefined ? hash : slugHash(base);
    // the usual case in one probe: a slug new to the import and to the calendar
    if (!set.has(base, h) && !exists(base)) {
      set.add(base, h);
      return base;
    }
    let slug = base;
    for (let n = 2; set.has(slug) || exists(slug); n++) slug = `${base}-${n}`;
    set.add(slug);
    return slug;
  }

  zone(tz: string): string {
    return this.rd.zone(tz);
  }

  date(r: Rec, name: string, tz: string): number | undefined {
    return this.rd.date(r, name, tz);
  }

  stampsOf(r: Rec): void {
    this.rd.stampsOf(r);
  }

  status(r: Rec): PostStatus {
    return this.rd.status(r);
  }

  image(r: Rec): number {
    const v = r.image;
    if (noImage(v)) return 0;
    const url = typeof v === 'object' && !Array.isArray(v) ? asString((v as Rec).url) : asString(v);
    const id = asId(url);
    if (id !== undefined) {
      const att = this.core.engine.attachment(id) ?? this.uploads.get(id);
      return att ? att.id : bad(`image ${id} is not an image attachment`);
    }
    if (!url || !validUrl(url)) bad('image must be an attachment id or an image URL');
    const ext = /\.([a-z0-9]+)$/i.exec(new URL(url).pathname)?.[1]?.toLowerCase();
    if (!ext || !IMAGE_EXTENSIONS.has(ext)) bad('image URL must end in an image file extension');
    const own = ownUpload(this.core.site.config.siteUrl, url);
    const known = this.attachmentsByUrl.get(url) ?? this.core.engine.attachmentByUrl(own ?? url);
    if (known) return known.id;
    const rec: AttachmentRecord = {
      id: this.core.engine.allocPostId(),
      authorId: 0,
      url,
      extension: ext,
      date: this.stamps.local,
      dateUtc: this.stamps.utc,
    };
    this.kinds.set(rec.id, 'attachment');
    this.attachmentsByUrl.set(url, rec);
    this.set.attachments.push(rec);
    return rec.id;
  }

  /** An upload of the media library with its files (src/media/import.ts). */
  media(r: Rec): void {
    const id = this.postId(r, 'attachment');
    this.stampsOf(r);
    const { rec, urls, files } = importMedia(r, {
      engine: this.core.engine,
      siteUrl: this.core.site.config.siteUrl,
      id,
      stamps: this.stampStrings(),
      slug: (wanted) => this.uniqueSlug('attachment', wanted, id, (s) => mediaSlugTaken(this.core.engine, s)),
      fileTaken: (rel) => this.uploadFiles.has(rel),
      bad,
    });
    for (const rel of files) this.uploadFiles.add(rel);
    this.uploads.set(id, rec);
    for (const url of urls) this.attachmentsByUrl.set(url, rec);
    this.set.attachments.push(rec);
  }

  postBase(r: Rec, kind: 'venue' | 'organizer' | 'event', titleName: string, exists: (s: string) => boolean) {
    const id = this.postId(r, kind);
    const title = req(r, titleName);
    const status = this.status(r);
    const wanted =
      r.slug === undefined || r.slug === ''
        ? status === 'draft' || status === 'pending'
          ? ''
          : sanitizeSlug(title)
        : sanitizeSlug(str(r, 'slug'));
    this.stampsOf(r);
    return {
      id,
      authorId: asId(r.author ?? 0) ?? bad('author must be a user id'),
      status,
      title,
      description: str(r, 'description'),
      excerpt: str(r, 'excerpt'),
      slug: wanted === '' && r.slug === undefined ? '' : this.uniqueSlug(kind, wanted, id, exists),
      imageId: this.image(r),
      lineage: Array.isArray(r.global_id_lineage) ? (r.global_id_lineage as unknown[]).slice(1).map(String) : undefined,
    };
  }

  /** The stamps postBase read, as the strings a venue or organizer record keeps. */
  private stampStrings(): { date: string; dateUtc: string; modified: string; modifiedUtc: string } {
    const d = this.dates;
    return {
      date: naiveToString(d[4]),
      dateUtc: naiveToString(d[5]),
      modified: naiveToString(d[6]),
      modifiedUtc: naiveToString(d[7]),
    };
  }

  term(r: Rec, taxonomy: 'tribe_events_cat' | 'post_tag'): void {
    const id = r.id === undefined ? this.core.engine.allocTermId() : asId(r.id);
    if (id === undefined || id === 0) bad('id must be a positive integer');
    if (this.termIds.has(id) || this.core.engine.term(id)) bad(`term id ${id} is already used`);
    const name = req(r, 'name');
    const parent = taxonomy === 'tribe_events_cat' ? (asId(r.parent ?? 0) ?? bad('parent must be a category id')) : 0;
    const slug = this.uniqueSlug(
      taxonomy,
      sanitizeSlug(str(r, 'slug') || name),
      id,
      (s) => this.core.engine.termBySlug(taxonomy, s) !== undefined,
    );
    const rec: TermRecord = { id, taxonomy, name, slug, description: str(r, 'description'), parent };
    this.termIds.set(id, rec);
    this.set.terms.push(rec);
  }

  checkParents(): void {
    for (const t of this.set.terms) {
      if (t.parent === 0) continue;
      const p = this.termIds.get(t.parent) ?? this.core.engine.term(t.parent);
      if (!p || p.taxonomy !== 'tribe_events_cat')
        throw new RecordError(`category ${t.id}: parent ${t.parent} is not a category`);
    }
    for (const a of this.uploads.values()) {
      const p = a.media!.parent;
      const kind = p === 0 ? 'event' : (this.kinds.get(p) ?? this.core.engine.postKind(p));
      if (kind !== 'event' && kind !== 'venue' && kind !== 'organizer')
        throw new RecordError(`media ${a.id}: post ${p} is not an event, venue or organizer`);
    }
  }

  venue(r: Rec): void {
    const base = this.postBase(r, 'venue', 'venue', (s) => this.core.engine.venueBySlug(s) !== undefined);
    const lat =
      r.geo_lat === undefined || r.geo_lat === null || r.geo_lat === ''
        ? null
        : (asNumber(r.geo_lat) ?? bad('geo_lat must be a number'));
    const lng =
      r.geo_lng === undefined || r.geo_lng === null || r.geo_lng === ''
        ? null
        : (asNumber(r.geo_lng) ?? bad('geo_lng must be a number'));
    if ((lat === null) !== (lng === null)) bad('geo_lat and geo_lng come together');
    if (lat !== null && (lat < -90 || lat > 90)) bad('geo_lat must be within [-90, 90]');
    if (lng !== null && (lng < -180 || lng > 180)) bad('geo_lng must be within [-180, 180]');
    const v: VenueRecord = {
      ...base,
      ...this.stampStrings(),
      address: str(r, 'address'),
      city: str(r, 'city'),
      country: str(r, 'country'),
      province: str(r, 'province'),
      state: str(r, 'state'),
      zip: str(r, 'zip'),
      phone: str(r, 'phone'),
      stateprovince: '',
      website: str(r, 'website'),
      showMap: flag(r, 'show_map', true),
      showMapLink: flag(r, 'show_map_link', true),
      geoLat: lat,
      geoLng: lng,
    };
    const given = r.stateprovince ?? r.stateProvince;
    const usa = v.country === '' || v.country === 'US' || v.country === 'United States';
    v.stateprovince = given !== undefined ? String(given) : v.state !== '' && usa ? v.state : v.province;
    if (v.website !== '' && !validUrl(v.website)) bad('website must be a URL');
    this.set.venues.push(v);
  }

  organizer(r: Rec): void {
    const base = this.postBase(r, 'organizer', 'organizer', (s) => this.core.engine.organizerBySlug(s) !== undefined);
    const o: OrganizerRecord = {
      ...base,
      ...this.stampStrings(),
      phone: str(r, 'phone'),
      email: str(r, 'email'),
      website: str(r, 'website'),
    };
    if (o.website !== '' && !validUrl(o.website)) bad('website must be a URL');
    this.set.organizers.push(o);
  }

  linkIds(r: Rec, name: string): number[] {
    return this.rd.linkIds(r, name);
  }

  // (a calendar without events has no slugs: its slug lookup is not built for nothing)
  private readonly eventSlugTaken = (s: string): boolean =>
    this.core.engine.eventRowCount > 0 && this.core.engine.eventRowBySlug(s) !== -1;
  private readonly isVenue = (id: number): boolean => this.isKind(id, 'venue');
  private readonly isOrganizer = (id: number): boolean => this.isKind(id, 'organizer');
  private readonly isCategory = (id: number): boolean => this.isTerm(id, 'tribe_events_cat');
  private readonly isTag = (id: number): boolean => this.isTerm(id, 'post_tag');

  private isKind(id: number, kind: PostKind): boolean {
    return id === 0 || this.kinds.get(id) === kind || this.core.engine.postKind(id) === kind;
  }

  private isTerm(id: number, taxonomy: string): boolean {
    return (this.termIds.get(id) ?? this.core.engine.term(id))?.taxonomy === taxonomy;
  }

  event(r: Rec): void {
    const base = this.postBase(r, 'event', 'title', this.eventSlugTaken);
    this.table.appendStaged(this.eventFields(r, base, 0), this.dates);
  }

  /**
   * The packed event k of a worker's block (pack.ts: the record-local checks passed), with
   * the checks and lookups that need the calendar, in the order event() makes them, written into
   * the table's columns as event() would write it (appendParts). `extra`: its entry in p.extras;
   * `at`: where its link lists begin in p.links; `bm`: the block's pool indexes and costs as the
   * table has them. Returns where the next event's link lists begin.
   */
  eventPacked(
    p: PackedEvents,
    k: number,
    extra: PackedEvents['extras'][number] | undefined,
    at: number,
    bm: BlockMaps,
  ): number {
    const i = k * P_INTS,
      ints = p.i32,
      s = k * P_STRINGS,
      strs = p.strs,
      t = this.table,
      row = this.parts;
    const givenId = ints[i + P_ID];
    const id = this.takeId(givenId === P_NONE ? undefined : givenId, 'event');
    const flags = ints[i + P_FLAGS];
    row.slug =
      (flags & B_NO_SLUG) !== 0
        ? ''
        : this.uniqueSlug('event', strs[s + 3]!, id, this.eventSlugTaken, ints[i + P_SLUG_HASH]);
    row.imageId = extra?.image === undefined ? 0 : this.image({ image: extra.image });
    const costAt = ints[i + P_COST];
    const cost = costAt === P_EXTRA ? bm.costOf(this.cost(extra!.cost)) : bm.cost(costAt);
    const symbol = ints[i + P_SYMBOL],
      position = ints[i + P_POSITION];
    row.id = id;
    row.authorId = ints[i + P_AUTHOR];
    row.status = ints[i + P_STATUS];
    row.flags = FLAGS_OF[flags & 127];
    row.parentId = ints[i + P_PARENT];
    row.timezone = bm.index(POOL_ZONE, ints[i + P_ZONE]);
    row.abbr = bm.index(POOL_ABBR, ints[i + P_ABBR]);
    row.currencySymbol = symbol === P_NONE ? bm.costSymbol(cost) : bm.index(POOL_SYMBOL, symbol);
    row.currencyPosition = position === P_NONE ? bm.costPosition(cost) : bm.index(POOL_POSITION, position);
    row.currencyCode = bm.index(POOL_CODE, ints[i + P_CODE]);
    row.costs = cost.costs;
    row.title = strs[s]!;
    row.description = strs[s + 1]!;
    row.excerpt = strs[s + 2]!;
    row.website = strs[s + 4];
    row.lineage = extra?.lineage;
    const links = p.links;
    const nv = ints[i + P_VENUES],
      no = ints[i + P_ORGANIZERS],
      nc = ints[i + P_CATEGORIES],
      nt = ints[i + P_TAGS];
    row.venue = nv > 0 ? links[at] : 0;
    if (nv > 1) {
      const venues: number[] = [];
      for (let v = 0; v < nv; v++) venues.push(links[at + v]);
      row.venues = venues;
    } else row.venues = undefined;
    const lists = t.idLists;
    row.organizerIds = internPacked(lists, links, at + nv, no, ints[i + P_ORGANIZERS_HASH]);
    row.categoryIds = internPacked(lists, links, at + nv + no, nc, ints[i + P_CATEGORIES_HASH]);
    row.tagIds = internPacked(lists, links, at + nv + no + nc, nt, ints[i + P_TAGS_HASH]);
    t.appendParts(row, p.f64, k * 8);
    return at + nv + no + nc + nt;
  }

  /** the row eventPacked fills */
  private readonly parts = new RowParts();

  /** The pool indexes and costs of a worker's block as this import's table has them. */
  blockMaps(p: PackedEvents): BlockMaps {
    return new BlockMaps(p.pool, this.table, (v) => this.cost(v));
  }

  /** updates of existing events (CSV rows matching them), applied after the bulk load */
  readonly updates: EventRecord[] = [];

  /**
   * `r` as the new version of existing event `id` (The Events Calendar's CSV importer updates the
   * event a row matches): validated as a new event is; the event keeps its id, slug, author,
   * publication date, parent and image (unless the row has one); modified now.
   */
  eventUpdate(r: Rec, id: number): void {
    const row = this.core.engine.eventRow(id);
    if (row < 0 || this.kinds.has(id)) bad(`event ${id} cannot be updated twice by one import`);
    this.kinds.set(id, 'event');
    const old = this.core.engine.eventRecord(row);
    const base = {
      id,
      authorId: old.authorId,
      status: this.status(r),
      title: req(r, 'title'),
      description: str(r, 'description'),
      excerpt: str(r, 'excerpt'),
      slug: old.slug,
      imageId: r.image === undefined ? old.imageId : this.image(r),
      lineage: old.lineage,
    };
    const e = this.eventFields(r, base, old.parentId),
      d = this.dates;
    this.updates.push({
      ...e,
      startLocal: naiveToString(d[0]),
      endLocal: naiveToString(d[1]),
      startUtc: naiveToString(d[2]),
      endUtc: naiveToString(d[3]),
      date: old.date,
      dateUtc: old.dateUtc,
      modified: this.stamps.local,
      modifiedUtc: this.stamps.utc,
    });
  }

  /** An event's fields from `r` and `base` (what postBase read); its dates into this.dates[0..3]. */
  private eventFields(
    r: Rec,
    base: Omit<
      StagedEvent,
      | 'timezone'
      | 'timezoneAbbr'
      | 'allDay'
      | 'costs'
      | 'currencySymbol'
      | 'currencyPosition'
      | 'currencyCode'
      | 'website'
      | 'showMap'
      | 'showMapLink'
      | 'hideFromListings'
      | 'sticky'
      | 'featured'
      | 'ticketed'
      | 'venueIds'
      | 'organizerIds'
      | 'categoryIds'
      | 'tagIds'
      | 'parentId'
    >,
    parentId: number,
  ): StagedEvent {
    const tz = this.zone(str(r, 'timezone').trim());
    const allDay = flag(r, 'all_day', false);
    const start = this.date(r, 'start_date', tz) ?? bad('start_date is required');
    const end = this.date(r, 'end_date', tz) ?? bad('end_date is required');
    const cost = r.cost === undefined || r.cost === null ? NO_COST : this.cost(r.cost);
    const website = r.website === undefined || r.website === null ? null : str(r, 'website');
    if (website && !validUrl(website)) bad('website must be a URL');
    const parent = asId(r.post_parent ?? r.parent ?? parentId) ?? bad('post_parent must be an event id');
    const abbr = computeDatesMs(tz, start, end, allDay, this.dates);
    return {
      id: base.id,
      authorId: base.authorId,
      status: base.status,
      title: base.title,
      description: base.description,
      excerpt: base.excerpt,
      slug: base.slug,
      imageId: base.imageId,
      lineage: base.lineage,
      timezone: tz,
      timezoneAbbr: abbr,
      allDay,
      costs: cost === NO_COST ? [] : cost.costs,
      currencySymbol: r.currency_symbol === undefined ? cost.currencySymbol : str(r, 'currency_symbol'),
      currencyPosition: r.currency_position === undefined ? cost.currencyPosition : str(r, 'currency_position'),
      currencyCode: str(r, 'currency_code'),
      website,
      showMap: flag(r, 'show_map', true),
      showMapLink: flag(r, 'show_map_link', true),
      hideFromListings: flag(r, 'hide_from_listings', false),
      sticky: flag(r, 'sticky', false),
      featured: flag(r, 'featured', false),
      ticketed: flag(r, 'ticketed', false),
      venueIds: this.linkIds(r, 'venue'),
      organizerIds: this.linkIds(r, 'organizer'),
      categoryIds: this.linkIds(r, 'categories'),
      tagIds: this.linkIds(r, 'tags'),
      parentId: parent,
      ...this.recurrenceFields(r, tz, allDay, parent),
    };
  }

  /** A series' recurrence, or an occurrence's original start (its parent is its series). */
  private recurrenceFields(
    r: Rec,
    tz: string,
    allDay: boolean,
    parent: number,
  ): Pick<StagedEvent, 'recurrence' | 'recurrenceId' | 'exception'> {
    const out: Pick<StagedEvent, 'recurrence' | 'recurrenceId' | 'exception'> = {};
    if (r.recurrence_id !== undefined) {
      const rid = r.recurrence_id;
      if (
        typeof rid !== 'string' ||
        !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(rid) ||
        naiveToString(naiveFromString(rid)) !== rid
      ) {
        bad("recurrence_id must be a local date and time 'Y-m-d H:i:s'");
      }
      if (parent === 0) bad('an occurrence (recurrence_id) needs its series as post_parent');
      out.recurrenceId = rid;
      if (flag(r, 'is_exception', false)) out.exception = true;
      return out;
    }
    const v = r.recurrence;
    if (v === undefined || v === null || v === false || v === '') return out;
    const series = { start: naiveToString(this.dates[0]), timezone: tz || this.core.site.config.timezone, allDay };
    try {
      const set = parseRecurrence(v, series, 'recurrence');
      if (set) out.recurrence = storedOf(set, series);
    } catch (err) {
      if (err instanceof CalendarError) bad(err.message);
      throw err;
    }
    return out;
  }

  /** parseCost, memoised by text: a calendar has few distinct cost texts (the result is shared, never changed) */
  private cost(v: unknown): ReturnType<typeof parseCost> {
    if (typeof v !== 'string') return parseCost(v);
    let c = this.costs.get(v);
    if (c === undefined) {
      c = parseCost(v);
      // the shared list the table keeps for these costs: rows with this text then add it as is
      c = { ...c, costs: this.table.costLists.intern(c.costs) as string[] };
      if (this.costs.size < 10_000) this.costs.set(v, c);
    }
    return c;
  }

  private readonly costs = new Map<string, ReturnType<typeof parseCost>>();

  /** What the staged event at `row` links to exists and is of the right kind (checked once
   *  every record is in, so records may come in any order); the first problem, or undefined.
   *  Link lists are shared by content in the table: each distinct list is checked once. */
  eventLinksProblem(row: number): string | undefined {
    const t = this.table;
    const extra = t.extraVenues.size > 0 ? t.extraVenues.get(row) : undefined;
    const venue = t.venueIds[row];
    // one venue (nearly every event) found to be one: no list made for it, each venue looked up once
    // (all records are in: a venue then stays one)
    const venueOk =
      extra === undefined &&
      venue !== 0 &&
      (this.venuesOk.has(venue) || (this.isVenue(venue) && this.venuesOk.add(venue) !== undefined));
    return this.linksProblem(
      t.parentIds[row],
      venueOk ? EMPTY_IDS : (extra ?? t.venueList(row)),
      t.organizerIds[row],
      t.categoryIds[row],
      t.tagIds[row],
    );
  }

  private readonly venuesOk = new Set<number>();

  linksProblem(
    parent: number,
    venues: readonly number[],
    organizers: readonly number[],
    categories: readonly number[],
    tags: readonly number[],
  ): string | undefined {
    if (parent !== 0 && !this.isKind(parent, 'event')) return `post_parent ${parent} is not an event`;
    return (
      this.listProblem('venue', venues, this.isVenue) ??
      this.listProblem('organizer', organizers, this.isOrganizer) ??
      this.listProblem('categories', categories, this.isCategory) ??
      this.listProblem('tags', tags, this.isTag)
    );
  }

  private readonly listsOk = new WeakSet<readonly number[]>();

  private listProblem(name: string, ids: readonly number[], ok: (id: number) => boolean): string | undefined {
    if (ids.length === 0 || this.listsOk.has(ids)) return undefined;
    for (const id of ids) if (!ok(id)) return `${name} ${id} does not exist`;
    if (ids.length > 1 || name !== 'venue') this.listsOk.add(ids); // a single venue's list is made per call
    return undefined;
  }
}
