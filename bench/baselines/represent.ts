// REST-shaped objects (docs/behaviour.md) built from import records, so the baselines
// serialize pages of the same shape and about the same size as the engine's. Close to the
// real representation, not byte-identical: the cross-check compares totals and ids only.

import type { ImportData, ImportEvent, ImportOrganizer, ImportVenue } from '../generate.ts';
import type { SiteContext } from './semantics.ts';

type Obj = Record<string, unknown>;

interface ZoneInfo {
  offsetMs: number;
  abbr: string;
}
const zoneCache = new Map<string, ZoneInfo>();
const formatters = new Map<string, Intl.DateTimeFormat>();

function zoneInfoAt(tz: string, utcMs: number): ZoneInfo {
  let fmt = formatters.get(tz);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZoneName: 'short',
    });
    formatters.set(tz, fmt);
  }
  const parts: Record<string, string> = {};
  for (const p of fmt.formatToParts(new Date(utcMs))) parts[p.type] = p.value;
  const wall = Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour, +parts.minute, +parts.second);
  return { offsetMs: wall - Math.floor(utcMs / 1000) * 1000, abbr: parts.timeZoneName ?? tz };
}

/** Local wall clock 'Y-m-d H:i:s' in `tz` → { utc 'Y-m-d H:i:s', abbr }; offsets cached per zone and day. */
export function localToUtc(local: string, tz: string): { utc: string; abbr: string } {
  // one offset per zone and day, except in the small hours where DST transitions happen
  const hour = +local.slice(11, 13);
  const key = hour >= 5 ? tz + '|' + local.slice(0, 10) : tz + '|' + local.slice(0, 13);
  let info = zoneCache.get(key);
  const naive = Date.UTC(
    +local.slice(0, 4),
    +local.slice(5, 7) - 1,
    +local.slice(8, 10),
    +local.slice(11, 13),
    +local.slice(14, 16),
    +local.slice(17, 19),
  );
  if (!info) {
    if (!tz || tz === 'UTC') info = { offsetMs: 0, abbr: 'UTC' };
    else {
      const first = zoneInfoAt(tz, naive);
      const second = zoneInfoAt(tz, naive - first.offsetMs);
      info = second;
    }
    zoneCache.set(key, info);
  }
  return { utc: formatNaive(naive - info.offsetMs), abbr: info.abbr };
}

function pad2(n: number): string {
  return n < 10 ? '0' + n : String(n);
}
function formatNaive(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`;
}

function details(s: string): Obj {
  return {
    year: s.slice(0, 4),
    month: s.slice(5, 7),
    day: s.slice(8, 10),
    hour: s.slice(11, 13),
    minutes: s.slice(14, 16),
    seconds: s.slice(17, 19),
  };
}

const para = (s: string) => (s === '' ? '' : `<p>${s}</p>`);

/** Representations of the small tables, built once per calendar and shared by every page. */
export interface LinkedObjects {
  venues: Map<number, Obj>;
  organizers: Map<number, Obj>;
  terms: Map<number, Obj>;
}

/** Add a published event's terms to the count of each term (a term's `count`: its published events). */
export function countTerms(counts: Map<number, number>, e: Pick<ImportEvent, 'status' | 'categories' | 'tags'>): void {
  if (e.status !== 'publish') return;
  for (const t of e.categories) counts.set(t, (counts.get(t) ?? 0) + 1);
  for (const t of e.tags) counts.set(t, (counts.get(t) ?? 0) + 1);
}

/** The linked objects of a calendar; the terms' counts from its events, or given (counted by countTerms
 *  as the events streamed by, when they are not all held). */
export function buildLinkedObjects(
  data: Omit<ImportData, 'events'> & { events?: ImportEvent[] },
  site: SiteContext,
  termCounts?: Map<number, number>,
): LinkedObjects {
  const root = `${site.siteUrl}${site.restPrefix}/tribe/events/v1/`;
  const host = site.siteUrl.replace(/^https?:\/\//, '');
  let counts = termCounts;
  if (!counts) {
    counts = new Map<number, number>();
    for (const e of data.events ?? []) countTerms(counts, e);
  }
  const terms = new Map<number, Obj>();
  for (const [list, taxonomy, path] of [
    [data.categories, 'tribe_events_cat', 'categories'],
    [data.tags, 'post_tag', 'tags'],
  ] as const) {
    for (const t of list) {
      terms.set(t.id, {
        name: t.name,
        slug: t.slug,
        term_group: 0,
        term_taxonomy_id: t.id,
        taxonomy,
        description: t.description,
        parent: 'parent' in t ? t.parent : 0,
        count: counts.get(t.id) ?? 0,
        filter: 'raw',
        id: t.id,
        urls: { self: `${root}${path}/${t.id}`, collection: `${root}${path}` },
      });
    }
  }
  const post = (p: ImportVenue | ImportOrganizer, kind: string): Obj => ({
    id: p.id,
    author: String(p.author),
    status: p.status,
    date: p.date,
    date_utc: p.date,
    modified: p.date,
    modified_utc: p.date,
    url: `${site.siteUrl}/${kind}/${p.slug}/`,
  });
  const dropEmpty = (o: Obj): Obj => {
    for (const k of Object.keys(o)) {
      const v = o[k];
      if (v === '' || v === false || v === 0 || v === '0' || (Array.isArray(v) && v.length === 0)) delete o[k];
    }
    return o;
  };
  const venues = new Map<number, Obj>();
  for (const v of data.venues) {
    const o = dropEmpty({
      ...post(v, 'venue'),
      venue: v.venue,
      description: para(v.description),
      slug: v.slug,
      address: v.address,
      city: v.city,
      country: v.country,
      province: v.province,
      state: v.state,
      zip: v.zip,
      phone: v.phone,
      website: v.website,
      stateprovince: v.state || v.province,
      geo_lat: v.geo_lat ?? '',
      geo_lng: v.geo_lng ?? '',
    });
    Object.assign(o, {
      show_map: v.show_map,
      show_map_link: v.show_map_link,
      global_id: `${host}?id=${v.id}`,
      global_id_lineage: [`${host}?id=${v.id}`],
    });
    venues.set(v.id, o);
  }
  const organizers = new Map<number, Obj>();
  for (const g of data.organizers) {
    const o = dropEmpty({
      ...post(g, 'organizer'),
      organizer: g.organizer,
      description: para(g.description),
      slug: g.slug,
      phone: g.phone,
      website: g.website,
      email: g.email,
    });
    Object.assign(o, { global_id: `${host}?id=${g.id}`, global_id_lineage: [`${host}?id=${g.id}`] });
    organizers.set(g.id, o);
  }
  return { venues, organizers, terms };
}

function costOf(cost: string): { text: string; values: string[] } {
  if (cost === '') return { text: '', values: [] };
  const values = cost
    .split(/\s*-\s*/)
    .filter((s) => s !== '')
    .sort((a, b) => Number(a) - Number(b));
  const show = (v: string) => (Number(v) === 0 ? 'Free' : v);
  return {
    text: values.length > 1 ? `${show(values[0])} – ${show(values[values.length - 1])}` : show(values[0]),
    values,
  };
}

/** The event's own fields, id … featured, in the emitted order. */
export function eventOwnFields(e: ImportEvent, site: SiteContext): Obj {
  const host = site.siteUrl.replace(/^https?:\/\//, '');
  const s = localToUtc(e.start_date, e.timezone);
  const en = localToUtc(e.end_date, e.timezone);
  const cost = costOf(e.cost);
  const url = `${site.siteUrl}/event/${e.slug}/`;
  return {
    id: e.id,
    global_id: `${host}?id=${e.id}`,
    global_id_lineage: [`${host}?id=${e.id}`],
    author: String(e.author),
    status: e.status,
    date: e.date,
    date_utc: e.date,
    modified: e.date,
    modified_utc: e.date,
    url,
    rest_url: `${site.siteUrl}${site.restPrefix}/tribe/events/v1/events/${e.id}`,
    title: e.title,
    description: para(e.description),
    excerpt: para(e.excerpt),
    slug: e.slug,
    image: false,
    all_day: e.all_day,
    start_date: e.start_date,
    start_date_details: details(e.start_date),
    end_date: e.end_date,
    end_date_details: details(e.end_date),
    utc_start_date: s.utc,
    utc_start_date_details: details(s.utc),
    utc_end_date: en.utc,
    utc_end_date_details: details(en.utc),
    timezone: e.timezone,
    timezone_abbr: s.abbr,
    cost: cost.text,
    cost_details: { currency_symbol: '', currency_code: '', currency_position: 'prefix', values: cost.values },
    website: e.website,
    show_map: e.show_map,
    show_map_link: e.show_map_link,
    hide_from_listings: e.hide_from_listings,
    sticky: e.sticky,
    featured: e.featured,
  };
}

/** The whole event object: own fields plus embedded terms, venue, organizers. */
export function representEvent(e: ImportEvent, linked: LinkedObjects, site: SiteContext): Obj {
  const o = eventOwnFields(e, site);
  o.categories = e.categories.map((id) => linked.terms.get(id));
  o.tags = e.tags.map((id) => linked.terms.get(id));
  o.venue = e.venue ? (linked.venues.get(e.venue) ?? []) : [];
  o.organizer = e.organizer.map((id) => linked.organizers.get(id)).filter((x) => x !== undefined);
  o.custom_fields = [];
  return o;
}
