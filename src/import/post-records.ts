// The import's records other than events, one by one: each term, venue, organizer and attachment
// of the import shape checked and turned into an engine record, and what every record shares: its
// id, its unique slug, its dates, stamps and status, its featured image. Events: records.ts.

import type { ImportSet } from '../engine/engine-api.ts';
import { naiveFromString, naiveToString } from '../engine/naive-time.ts';
import type {
  AttachmentRecord,
  OrganizerRecord,
  PostKind,
  PostStatus,
  TermRecord,
  VenueRecord,
} from '../engine/records.ts';
import { PostKinds } from './post-kinds.ts';
import type { EventTable } from '../engine/event-table.ts';
import { SlugSet, slugHash } from './slugs.ts';
import type { Core } from '../api/context.ts';
import { epochToZoned } from '../api/wordpress/dates.ts';
import { IMAGE_EXTENSIONS, ownUpload } from '../api/images.ts';
import { asId, asNumber, asString } from '../api/wordpress/params.ts';
import { sanitizeSlug } from '../api/wordpress/text.ts';
import { importMedia, mediaSlugTaken } from '../media/import.ts';
import { bad, flag, noImage, RecordError, RecordReader, req, str, validUrl, type Rec } from './local.ts';

/**
 * Builds engine records out of the import shape: terms, venues, organizers, attachments, and what
 * every record shares (ids, slugs, dates, stamps, images). Events: Importer (records.ts).
 */
export class PostRecords {
  /** everything but events, which go straight into `table` (a staging table of the engine) */
  readonly set: ImportSet = { events: [], venues: [], organizers: [], terms: [], attachments: [] };
  readonly table: EventTable;
  /** kinds of the post ids this import brings (venues, organizers, events, attachments) */
  readonly kinds = new PostKinds();
  protected readonly termIds = new Map<number, TermRecord>();
  protected readonly slugs = new Map<string, SlugSet>();
  protected readonly attachmentsByUrl = new Map<string, AttachmentRecord>();
  /** the uploads this import brings (media records), by id */
  protected readonly uploads = new Map<number, AttachmentRecord>();
  protected readonly uploadFiles = new Set<string>();
  readonly stamps: { local: string; utc: string };
  /** the record-local checks (also what a parallel import's workers run) */
  readonly rd: RecordReader;
  /** the dates of the event being read, as naive ms (STAGED_DATES order) */
  protected readonly dates: Float64Array;

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
  /** The slugs this import has handed out to records of `kind`. */
  protected slugSet(kind: string): SlugSet {
    let set = this.slugs.get(kind);
    if (!set) this.slugs.set(kind, (set = new SlugSet()));
    return set;
  }

  uniqueSlug(kind: string, wanted: string, id: number, exists: (s: string) => boolean, hash?: number): string {
    const set = this.slugSet(kind);
    const base = wanted || String(id);
    const h = wanted !== '' && hash !== undefined ? hash : slugHash(base);
    // the usual case in one probe: a slug new to the calendar and to the import (add: false when
    // the import has it already)
    if (!exists(base) && set.add(base, h)) return base;
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
  protected stampStrings(): { date: string; dateUtc: string; modified: string; modifiedUtc: string } {
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

  protected isKind(id: number, kind: PostKind): boolean {
    return id === 0 || this.kinds.get(id) === kind || this.core.engine.postKind(id) === kind;
  }

  protected isTerm(id: number, taxonomy: string): boolean {
    return (this.termIds.get(id) ?? this.core.engine.term(id))?.taxonomy === taxonomy;
  }
}
