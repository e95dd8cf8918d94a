// Records → REST representations (docs/behaviour.md): the site, JSON text as WordPress
// writes it, venue, organizer and term objects, and the single-GET extras (JSON-LD). An event's
// own fields are read from the columns by events/head.ts; render.ts caches and joins the pieces.

import { pluginImage } from '../../media/represent.ts';
import { escapeJsonText, escapeNonAscii } from '../../ascii-json.ts';
import type { EngineApi } from '../../engine/engine-api.ts';
import { naiveFromString } from '../../engine/naive-time.ts';
import type { AttachmentRecord, EventRecord, OrganizerRecord, TermRecord, VenueRecord } from '../../engine/records.ts';
import { costValues } from '../wordpress/cost.ts';
import { displayContent, displayExcerpt, displayTitle } from '../wordpress/display.ts';
import { escapeUrl } from '../wordpress/text.ts';
import type { SiteConfig } from '../wordpress/types.ts';

/** What every representation needs to know about the site. */
export interface Site {
  config: SiteConfig;
  /** API root with trailing slash: {siteUrl}{restPrefix}/tribe/events/v1/ */
  root: string;
  /** host[:port][/path] of the site URL, for global ids */
  origin: string;
  /** the archive URLs ({root}events/ …) as JSON text without quotes, for list envelopes */
  archiveText: { events: string; venues: string; organizers: string };
  /** `origin` and `root` as JSON text without quotes (an event's head is written with them) */
  originText: string;
  rootText: string;
  /** the site URL, and the base of a published event's permalink ({siteUrl}/event/), as JSON text without quotes */
  homeText: string;
  eventBaseText: string;
}

export function createSite(config: SiteConfig): Site {
  const url = new URL(config.siteUrl);
  const path = url.pathname.replace(/\/+$/, '');
  const root = `${config.siteUrl}${config.restPrefix}/tribe/events/v1/`;
  const text = (plural: string) => jsonText(root + plural + '/');
  const origin = url.hostname + path; // the host name without its port, as WordPress's global ids
  return {
    config,
    root,
    origin,
    archiveText: { events: text('events'), venues: text('venues'), organizers: text('organizers') },
    originText: jsonText(origin),
    rootText: jsonText(root),
    homeText: jsonText(config.siteUrl),
    eventBaseText: jsonText(`${config.siteUrl}/event/`),
  };
}

const DRAFTISH = new Set(['draft', 'pending', 'future', 'auto-draft', 'trash']);

/** Whether a post's permalink is the plain `?post_type=…&p=ID` form (no slug, not published yet,
 *  or in the trash, as the plugin shows a trashed post) rather than `/{base}/{slug}/`. */
export const plainPermalink = (slug: string, status: string): boolean => slug === '' || DRAFTISH.has(status);

/**
 * JSON text with every non-ASCII character escaped as \uXXXX, as WordPress's wp_json_encode
 * emits it. Besides matching the real service, it keeps every cached piece a one-byte string,
 * so joining a page of them is a plain copy (one two-byte item would widen the whole page).
 */
export function toJson(value: unknown): string {
  const json = JSON.stringify(value);
  return oneByte(escapeNonAscii(json));
}

/** The JSON text of a string without its quotes, as one-byte ASCII: printable ASCII without '"'
 *  and '\\' is its own text (one scan, no copy); anything else is escaped (escapeJsonText). */
export function jsonText(s: string): string {
  const text = escapeJsonText(s);
  // the escaped text is one-byte when `s` was (its slices are): only a two-byte `s` needs the copy
  return text === s || !BEYOND_LATIN1.test(s) ? text : oneByte(text);
}

/** a character only a two-byte string can hold */
const BEYOND_LATIN1 = /[\u0100-\uffff]/;

/**
 * The same ASCII text as a flat one-byte V8 string (a rope copied once, too). JSON.stringify/replace keep a two-byte
 * representation when their input had one, even once every character is ASCII, and joining
 * mixed representations takes V8's slow per-character path (10x slower than a copy).
 */
export function oneByte(ascii: string): string {
  return Buffer.from(ascii, 'latin1').toString('latin1');
}

/** what flat() reads, kept so that the read is not optimised away */
// biome-ignore lint/correctness/noUnusedVariables: a sink, written so that the read is kept
let flatSeen = 0;

/**
 * The same string, flattened in place: a rope (the result of concatenations) copied once into
 * one flat string that the rope then points to (a collection drops the rope's cells). Reading a
 * character of a rope is what makes V8 flatten it; reading it as a number (`s | 0`, as the
 * flatstr package does) flattens it too but then hashes the whole text, which cost about 2 µs
 * for a 1.5 KB head. The text keeps its representation: a rope of one-byte parts becomes a
 * one-byte string.
 */
export function flat(s: string): string {
  flatSeen ^= s.charCodeAt(0);
  return s;
}

function globalIds(site: Site, id: number, lineage: string[] | undefined): [string, string[]] {
  const own = `${site.origin}?id=${id}`;
  return [own, [own, ...(lineage ?? [])]];
}

function permalink(
  site: Site,
  base: string,
  postType: string,
  rec: { id: number; slug: string; status: string },
): string {
  const home = site.config.siteUrl;
  if (plainPermalink(rec.slug, rec.status)) return `${home}/?post_type=${postType}&p=${rec.id}`;
  return `${home}/${base}/${rec.slug}/`;
}

export function eventUrl(site: Site, rec: { id: number; slug: string; status: string }): string {
  return permalink(site, 'event', 'tribe_events', rec);
}

/** The permalink of an event, venue or organizer (`/{kind}/{slug}/`, or the plain form). */
export function postUrl(
  site: Site,
  kind: 'event' | 'venue' | 'organizer',
  rec: { id: number; slug: string; status: string },
): string {
  return permalink(site, kind, kind === 'event' ? 'tribe_events' : `tribe_${kind}`, rec);
}

/** The plugin's image object (src/media/represent.ts), or undefined without an attachment. */
function imageObject(site: Site, att: AttachmentRecord | undefined): Record<string, unknown> | undefined {
  return att ? pluginImage(site.config.siteUrl, att) : undefined;
}

/** Drop every empty value (empty string, false, 0, '0', empty array, null), as TEC's linked-post builders do. */
function dropEmpty(obj: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (v === '' || v === false || v === 0 || v === '0' || v === null || v === undefined) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    out[k] = v;
  }
  return out;
}

// ---- venues and organizers -------------------------------------------------------------

export function venueObject(site: Site, engine: EngineApi, v: VenueRecord, jsonLd = false): Record<string, unknown> {
  const [globalId, lineage] = globalIds(site, v.id, v.lineage);
  const hasGeo = v.geoLat !== null && v.geoLng !== null;
  const base = dropEmpty({
    id: v.id,
    author: String(v.authorId),
    status: v.status,
    date: v.date,
    date_utc: v.dateUtc,
    modified: v.modified,
    modified_utc: v.modifiedUtc,
    url: permalink(site, 'venue', 'tribe_venue', v),
    venue: displayTitle(v.title),
    description: displayContent(v.description),
    excerpt: displayExcerpt(v.excerpt),
    slug: v.slug,
    image: imageObject(site, engine.attachment(v.imageId)),
    address: v.address,
    city: v.city,
    country: v.country,
    province: v.province,
    state: v.state,
    zip: v.zip,
    phone: v.phone,
    website: escapeUrl(v.website),
    stateprovince: v.stateprovince,
  });
  if (hasGeo) {
    base.geo_lat = v.geoLat;
    base.geo_lng = v.geoLng;
  }
  if (jsonLd) base.json_ld = venueJsonLd(site, v);
  base.show_map = v.showMap;
  base.show_map_link = v.showMapLink;
  base.global_id = globalId;
  base.global_id_lineage = lineage;
  return base;
}

export function organizerObject(
  site: Site,
  engine: EngineApi,
  o: OrganizerRecord,
  jsonLd = false,
): Record<string, unknown> {
  const [globalId, lineage] = globalIds(site, o.id, o.lineage);
  return dropEmpty({
    id: o.id,
    author: String(o.authorId),
    status: o.status,
    date: o.date,
    date_utc: o.dateUtc,
    modified: o.modified,
    modified_utc: o.modifiedUtc,
    url: permalink(site, 'organizer', 'tribe_organizer', o),
    organizer: displayTitle(o.title),
    description: displayContent(o.description),
    excerpt: displayExcerpt(o.excerpt),
    slug: o.slug,
    image: imageObject(site, engine.attachment(o.imageId)),
    phone: o.phone,
    website: escapeUrl(o.website),
    email: o.email,
    json_ld: jsonLd ? organizerJsonLd(site, o) : undefined,
    global_id: globalId,
    global_id_lineage: lineage,
  });
}

// ---- terms ---------------------------------------------------------------------------

function termCollection(site: Site, t: TermRecord): string {
  return `${site.root}${t.taxonomy === 'post_tag' ? 'tags' : 'categories'}`;
}

function termUrls(site: Site, t: TermRecord): Record<string, string> {
  const collection = termCollection(site, t);
  const urls: Record<string, string> = { self: `${collection}/${t.id}`, collection };
  if (t.parent !== 0) urls.up = `${collection}/${t.parent}`;
  return urls;
}

/** Public archive link: {site}/events/category/{ancestors...}/{slug}/ or {site}/tag/{slug}/ */
export function termLink(site: Site, engine: EngineApi, t: TermRecord): string {
  if (t.taxonomy === 'post_tag') return `${site.config.siteUrl}/tag/${t.slug}/`;
  const path = [t.slug];
  const seen = new Set([t.id]);
  for (let p = engine.term(t.parent); p && !seen.has(p.id); p = engine.term(p.parent)) {
    path.unshift(p.slug);
    seen.add(p.id);
  }
  return `${site.config.siteUrl}/events/category/${path.join('/')}/`;
}

/** Term as embedded in an event (representation.md 5a). */
export function termEmbeddedObject(site: Site, engine: EngineApi, t: TermRecord): Record<string, unknown> {
  return {
    name: t.name,
    slug: t.slug,
    term_group: 0,
    term_taxonomy_id: t.id,
    taxonomy: t.taxonomy,
    description: t.description,
    parent: t.parent,
    count: engine.termCount(t.id),
    filter: 'raw',
    id: t.id,
    urls: termUrls(site, t),
  };
}

/** Term as returned by /categories and /tags (representation.md 5b). */
export function termObject(site: Site, engine: EngineApi, t: TermRecord): Record<string, unknown> {
  const obj: Record<string, unknown> = {
    id: t.id,
    count: engine.termCount(t.id),
    description: t.description,
    name: t.name,
    slug: t.slug,
    taxonomy: t.taxonomy,
  };
  if (t.taxonomy === 'tribe_events_cat') obj.parent = t.parent;
  obj.meta = [];
  obj.url = termLink(site, engine, t);
  obj.urls = termUrls(site, t);
  return obj;
}

// ---- single reads -----------------------------------------------------------------------

/** Single-GET representation: the event's list object (fresh, changed in place) plus `json_ld`, embedded venue/organizers with their own. */
export function eventSingleObject(
  site: Site,
  engine: EngineApi,
  row: number,
  listObject: Record<string, unknown>,
): Record<string, unknown> {
  const obj = listObject;
  const e = engine.eventRecord(row);
  const venues = e.venueIds.map((id) => engine.venue(id)).filter((v): v is VenueRecord => v !== undefined);
  const orgs = e.organizerIds.map((id) => engine.organizer(id)).filter((o): o is OrganizerRecord => o !== undefined);
  const vObjs = venues.map((v) => venueObject(site, engine, v, true));
  obj.venue = vObjs.length === 1 ? vObjs[0] : vObjs;
  obj.organizer = orgs.map((o) => organizerObject(site, engine, o, true));
  obj.json_ld = eventJsonLd(site, e, obj, venues, orgs);
  return obj;
}

// ---- JSON-LD (schema.org) for single reads -----------------------------------------------

export function isoWithOffset(local: string, utc: string): string {
  const offsetMin = Math.round((naiveFromString(local) - naiveFromString(utc)) / 60000);
  const sign = offsetMin < 0 ? '-' : '+';
  const abs = Math.abs(offsetMin);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0'),
    mm = String(abs % 60).padStart(2, '0');
  return `${local.replace(' ', 'T')}${sign}${hh}:${mm}`;
}

function plain(html: string): string {
  return html.replace(/<[^>]*>/g, '').trim();
}

function venueJsonLd(site: Site, v: VenueRecord): Record<string, unknown> {
  const ld: Record<string, unknown> = {
    '@context': 'http://schema.org',
    '@type': 'Place',
    name: displayTitle(v.title),
    description: plain(displayContent(v.description)),
    url: permalink(site, 'venue', 'tribe_venue', v),
    address: dropEmpty({
      '@type': 'PostalAddress',
      streetAddress: v.address,
      addressLocality: v.city,
      addressRegion: v.stateprovince || v.state || v.province,
      postalCode: v.zip,
      addressCountry: v.country,
    }),
  };
  if (v.phone) ld.telephone = v.phone;
  if (v.website) ld.sameAs = v.website;
  if (v.geoLat !== null && v.geoLng !== null)
    ld.geo = { '@type': 'GeoCoordinates', latitude: v.geoLat, longitude: v.geoLng };
  return ld;
}

function organizerJsonLd(site: Site, o: OrganizerRecord): Record<string, unknown> {
  return dropEmpty({
    '@context': 'http://schema.org',
    '@type': 'Person',
    name: displayTitle(o.title),
    description: plain(displayContent(o.description)),
    url: permalink(site, 'organizer', 'tribe_organizer', o),
    telephone: o.phone,
    email: o.email,
    sameAs: o.website,
  });
}

function eventJsonLd(
  site: Site,
  e: EventRecord,
  obj: Record<string, unknown>,
  venues: VenueRecord[],
  orgs: OrganizerRecord[],
): Record<string, unknown> {
  const ld: Record<string, unknown> = {
    '@context': 'http://schema.org',
    '@type': 'Event',
    name: displayTitle(e.title),
    description: plain(displayContent(e.description)),
    url: obj.url,
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    eventStatus: 'https://schema.org/EventScheduled',
    startDate: isoWithOffset(e.startLocal, e.startUtc),
    endDate: isoWithOffset(e.endLocal, e.endUtc),
  };
  if (obj.image && typeof obj.image === 'object') ld.image = (obj.image as { url: string }).url;
  if (venues.length) ld.location = venueJsonLd(site, venues[0]);
  if (orgs.length) ld.organizer = orgs.map((o) => organizerJsonLd(site, o));
  ld.performer = 'Organization';
  const values = costValues(e.costs).filter((v) => v !== '' && Number.isFinite(Number(v)));
  if (values.length) {
    ld.offers = {
      '@type': 'Offer',
      price: values[0],
      priceCurrency: e.currencyCode || undefined,
      url: obj.url,
      category: 'primary',
      availability: 'inStock',
      validFrom: isoWithOffset(e.date, e.dateUtc),
    };
  }
  return ld;
}

/** An attachment's image object, as events, venues and organizers show it. */
export function imageOf(site: Site, engine: EngineApi, id: number): Record<string, unknown> | undefined {
  return imageObject(site, engine.attachment(id));
}
