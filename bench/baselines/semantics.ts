// The list semantics of GET /events (docs/behaviour.md), written once in the
// plainest form so the baselines share one reading of the spec: REST parameters + actor →
// an EventFilter of wall-clock bounds ('Y-m-d H:i:s' strings, compared as strings), statuses,
// expanded term ids, folded search terms, geo, paging. Each baseline then applies the filter
// in its own way (Array.filter, SQL). The site time zone is UTC (the benchmark's setting).

import type { ImportData } from '../generate.ts';

export type BenchActor = { id: number; login: string; role: string } | null;
export type QueryParams = Record<string, string>;

/** What every implementation under test returns for one list call. */
export interface ListResult {
  status: number;
  total: number;
  /** event ids of the page, in order */
  ids: number[];
  /** the JSON text of the response body */
  body: string;
}

export interface SiteContext {
  now: Date;
  perPage: number;
  /** e.g. 'http://127.0.0.1:8080' */
  siteUrl: string;
  /** e.g. '/wp-json' */
  restPrefix: string;
}

export type GeoSpec =
  | { kind: 'has-coords'; value: boolean }
  | { kind: 'radius'; lat: number; lng: number; radiusKm: number };

export interface EventFilter {
  /** bounds on the local start/end wall clock ('Y-m-d H:i:s'); names say the comparison */
  startGte?: string;
  startGt?: string;
  startLt?: string;
  endLte?: string;
  endGt?: string;
  endLt?: string;
  statuses: string[];
  /** already expanded with descendants */
  categoryIds?: number[];
  tagIds?: number[];
  venueIds?: number[];
  organizerIds?: number[];
  featured?: boolean;
  ticketed?: boolean;
  /** when set: no date filters, order by (date, id) */
  includeIds?: number[];
  parentId?: number;
  geo?: GeoSpec;
  search?: { include: string[]; exclude: string[] };
  page: number;
  perPage: number;
  offset: number;
  /** the envelope's rest_url (this page) and the base it is built from */
  restUrl: string;
  restBase: string;
  restArgs: [string, string][];
}

/** Terms, venues and organizers the parameters refer to. Built once per calendar. */
export interface Vocabulary {
  categoryBySlug: Map<string, number>;
  categoryIds: Set<number>;
  childrenOf: Map<number, number[]>;
  tagBySlug: Map<string, number>;
  tagIds: Set<number>;
}

export function createVocabulary(data: Pick<ImportData, 'categories' | 'tags'>): Vocabulary {
  const childrenOf = new Map<number, number[]>();
  for (const c of data.categories) {
    if (!c.parent) continue;
    const list = childrenOf.get(c.parent);
    if (list) list.push(c.id);
    else childrenOf.set(c.parent, [c.id]);
  }
  return {
    categoryBySlug: new Map(data.categories.map((c) => [c.slug, c.id])),
    categoryIds: new Set(data.categories.map((c) => c.id)),
    childrenOf,
    tagBySlug: new Map(data.tags.map((t) => [t.slug, t.id])),
    tagIds: new Set(data.tags.map((t) => t.id)),
  };
}

const EDIT_ROLES = new Set(['administrator', 'editor', 'author', 'contributor']);
const ALL_BUT_TRASH = ['publish', 'future', 'draft', 'pending', 'private'];
const REGISTERED = new Set(['publish', 'future', 'draft', 'pending', 'private', 'trash', 'auto-draft', 'inherit']);
const TRUTHY = new Set(['1', 'true', 'yes', 'y', 'on', 'enable', 'enabled']);
const STOPWORDS = new Set(
  (
    'about an are as at be by com for from how in is it of on or that the this to was what ' +
    'when where who will with www'
  ).split(' '),
);
export const EARTH_RADIUS_KM = 6371.0088;
const KM_PER_MILE = 1.609344;

/** A rejected request (400): the baselines only need the status to compare. */
export class BadRequest extends Error {
  constructor(message: string) {
    super(message);
  }
}

/** list parameter: comma string (or array) → trimmed non-empty items */
function listItems(v: unknown): string[] {
  const parts = Array.isArray(v) ? v.map(String) : String(v).split(',');
  return parts.map((s) => s.trim()).filter((s) => s !== '');
}

function wpBool(v: string): boolean {
  const s = v.toLowerCase();
  if (s === 'true' || s === '1') return true;
  if (s === 'false' || s === '0' || s === '') return false;
  throw new BadRequest(`not a boolean: ${v}`);
}

function pad2(n: number): string {
  return n < 10 ? '0' + n : String(n);
}

function formatUtc(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`;
}

/** A date parameter → 'Y-m-d H:i:s' in the site zone (UTC). Accepts timestamps, 'Y-m-d', 'Y-m-d H:i[:s]'. */
function parseDateParam(v: string): string {
  const s = v.trim();
  if (/^\d+$/.test(s)) return formatUtc(Number(s) * 1000);
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(s);
  if (!m) throw new BadRequest(`unsupported date: ${v}`);
  const ms = Date.UTC(+m[1], +m[2] - 1, +m[3], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0));
  if (Number.isNaN(ms)) throw new BadRequest(`invalid date: ${v}`);
  return formatUtc(ms);
}

const dayStart = (s: string) => s.slice(0, 10) + ' 00:00:00';
const dayEnd = (s: string) => s.slice(0, 10) + ' 23:59:59';

/** Fold for accent- and case-insensitive matching (decisions.md "Search"). */
export function fold(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** WordPress search terms (WP_Query::parse_search + parse_search_terms), folded. */
export function parseSearch(q: string): { include: string[]; exclude: string[] } {
  const raw = q.match(/".*?("|$)|((?<=[\t ",+])|^)[^\t ",+]+/g) ?? [];
  let terms: string[] = [];
  for (let term of raw) {
    term = /^".+"$/.test(term) ? term.replace(/^["']+|["']+$/g, '') : term.replace(/^["' ]+|["' ]+$/g, '');
    if (term === '' || (term.length === 1 && /^[a-z-]$/i.test(term))) continue;
    if (STOPWORDS.has(term.toLowerCase())) continue;
    terms.push(term);
  }
  if (terms.length === 0 || terms.length > 9) terms = [q];
  const include: string[] = [],
    exclude: string[] = [];
  for (const t of terms) {
    if (t.length > 1 && t.startsWith('-')) exclude.push(fold(t.slice(1)));
    else include.push(fold(t));
  }
  return { include, exclude };
}

/** Great-circle distance in km (haversine on a sphere of radius 6371.0088 km). */
export function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad,
    dLng = (lng2 - lng1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

function resolveTerms(items: string[], bySlug: Map<string, number>, ids: Set<number>, what: string): number[] {
  return items.map((item) => {
    const bySlugId = bySlug.get(item);
    if (bySlugId !== undefined) return bySlugId;
    if (/^\d+$/.test(item) && ids.has(Number(item))) return Number(item);
    throw new BadRequest(`unknown ${what}: ${item}`);
  });
}

function withDescendants(ids: number[], childrenOf: Map<number, number[]>): number[] {
  const out = new Set<number>();
  const stack = [...ids];
  while (stack.length) {
    const id = stack.pop()!;
    if (out.has(id)) continue;
    out.add(id);
    for (const c of childrenOf.get(id) ?? []) stack.push(c);
  }
  return [...out].sort((a, b) => a - b);
}

function positiveInts(v: string, what: string): number[] {
  return listItems(v).map((s) => {
    if (!/^\d+$/.test(s) || Number(s) <= 0) throw new BadRequest(`bad ${what}: ${s}`);
    return Number(s);
  });
}

/** REST parameters + actor → EventFilter; throws BadRequest where the service answers 400. */
export function resolveQuery(
  params: QueryParams,
  actor: BenchActor,
  vocab: Vocabulary,
  site: SiteContext,
): EventFilter {
  const p = params;
  const has = (k: string) => p[k] !== undefined;
  const canEdit = actor !== null && EDIT_ROLES.has(actor.role);

  // ---- paging
  const page = has('page') ? Number(p.page) : 1;
  const perPageRaw = has('per_page') ? Number(p.per_page) : site.perPage;
  if (!Number.isInteger(page) || page <= 0 || !Number.isInteger(perPageRaw) || perPageRaw <= 0)
    throw new BadRequest('bad paging');
  const perPage = Math.min(50, perPageRaw);

  const f: EventFilter = {
    statuses: canEdit ? ALL_BUT_TRASH : ['publish'],
    page,
    perPage,
    offset: (page - 1) * perPage,
    restUrl: '',
    restBase: `${site.siteUrl}${site.restPrefix}/tribe/events/v1/events/`,
    restArgs: [],
  };
  const args: [string, string][] = [];

  // ---- status
  if (has('status')) {
    const items = listItems(p.status);
    if (!canEdit) {
      if (items.length !== 1 || items[0] !== 'publish') throw new BadRequest('status not allowed');
    } else if (items.some((s) => !REGISTERED.has(s))) throw new BadRequest('unknown status');
    f.statuses = items;
    args.push(['status', items.join(',')]);
  }

  // ---- dates (include ignores every date filter: decisions.md)
  if (has('include')) {
    f.includeIds = positiveInts(p.include, 'include');
    args.push(['include', f.includeIds.join(',')]);
  } else {
    const strict = has('strict_dates') && TRUTHY.has(String(p.strict_dates).trim().toLowerCase());
    const relative = ['starts_before', 'starts_after', 'ends_before', 'ends_after'].some(has);
    const nowMs = site.now.getTime();
    let start: string | undefined, end: string | undefined;
    if (has('start_date')) start = parseDateParam(p.start_date);
    else if (!relative) start = formatUtc(Math.floor(nowMs / 86_400_000) * 86_400_000 - 60_000); // yesterday 23:59
    if (has('end_date')) end = parseDateParam(p.end_date);
    else if (!relative) {
      const d = new Date(nowMs); // now + 24 months on the UTC clock (PHP month overflow)
      end = formatUtc(
        Date.UTC(
          d.getUTCFullYear(),
          d.getUTCMonth() + 24,
          d.getUTCDate(),
          d.getUTCHours(),
          d.getUTCMinutes(),
          d.getUTCSeconds(),
        ),
      );
    }
    const round = (s: string, toEnd: boolean) => (strict ? s : toEnd ? dayEnd(s) : dayStart(s));
    if (start !== undefined) {
      f.startGte = round(start, false);
      args.push(['start_date', f.startGte]);
    }
    if (end !== undefined) {
      f.endLte = round(end, true);
      args.push(['end_date', f.endLte]);
    }
    if (has('starts_before')) {
      f.startLt = round(parseDateParam(p.starts_before), true);
      args.push(['starts_before', f.startLt]);
    }
    if (has('starts_after')) {
      f.startGt = round(parseDateParam(p.starts_after), true);
      args.push(['starts_after', f.startGt]);
    }
    if (has('ends_before')) {
      f.endLt = round(parseDateParam(p.ends_before), true);
      args.push(['ends_before', f.endLt]);
    }
    if (has('ends_after')) {
      f.endGt = round(parseDateParam(p.ends_after), true);
      args.push(['ends_after', f.endGt]);
    }
    if (strict) args.push(['strict_dates', 'true']);
  }

  // ---- taxonomy, links, flags
  if (has('categories')) {
    const ids = resolveTerms(listItems(p.categories), vocab.categoryBySlug, vocab.categoryIds, 'category');
    f.categoryIds = withDescendants(ids, vocab.childrenOf);
  }
  if (has('tags')) f.tagIds = [...new Set(resolveTerms(listItems(p.tags), vocab.tagBySlug, vocab.tagIds, 'tag'))];
  if (has('venue')) {
    f.venueIds = positiveInts(p.venue, 'venue');
    args.push(['venue', f.venueIds.join(',')]);
  }
  if (has('organizer')) {
    f.organizerIds = positiveInts(p.organizer, 'organizer');
    args.push(['organizer', f.organizerIds.join(',')]);
  }
  if (has('featured')) {
    f.featured = wpBool(p.featured);
    args.push(['featured', f.featured ? '1' : '0']);
  }
  if (has('ticketed')) f.ticketed = wpBool(p.ticketed);
  if (has('post_parent')) f.parentId = positiveInts(p.post_parent, 'post_parent')[0];
  if (has('search') && p.search !== '') {
    f.search = parseSearch(p.search);
    args.push(['search', p.search]);
  }

  // ---- geo (decisions.md "Geo")
  if (has('geoloc_lat') !== has('geoloc_lng')) throw new BadRequest('geoloc_lat and geoloc_lng go together');
  if (has('geoloc_lat')) {
    const lat = Number(p.geoloc_lat),
      lng = Number(p.geoloc_lng);
    const radius = has('geoloc_radius') ? Number(p.geoloc_radius) : 25;
    const unit = has('geoloc_unit') ? p.geoloc_unit : 'mi';
    if (!Number.isFinite(lat) || !Number.isFinite(lng) || !Number.isFinite(radius)) throw new BadRequest('bad geo');
    f.geo = { kind: 'radius', lat, lng, radiusKm: unit === 'km' ? radius : radius * KM_PER_MILE };
  } else if (has('geoloc')) {
    f.geo = { kind: 'has-coords', value: wpBool(p.geoloc) };
  }

  args.push(['per_page', String(perPage)]);
  f.restArgs = args;
  f.restUrl = restUrl(f, page);
  return f;
}

function restUrl(f: EventFilter, page: number): string {
  const parts = page > 1 ? [`page=${page}`] : [];
  for (const [k, v] of f.restArgs) parts.push(`${k}=${v}`);
  return f.restBase + '?' + parts.join('&');
}

/** The 200 envelope around already-serialized event objects (same text as JSON.stringify of the objects). */
export function envelopeJson(f: EventFilter, eventsJson: string[], total: number): string {
  const pages = Math.ceil(total / f.perPage);
  let s = '{"events":[' + eventsJson.join(',') + '],"rest_url":' + JSON.stringify(f.restUrl);
  if (f.page < pages) s += ',"next_rest_url":' + JSON.stringify(restUrl(f, f.page + 1));
  if (f.page > 1 && f.page - 1 <= pages) s += ',"previous_rest_url":' + JSON.stringify(restUrl(f, f.page - 1));
  return s + ',"total":' + total + ',"total_pages":' + pages + '}';
}

/** The same envelope as an object (for baselines that stringify objects). */
export function envelopeObject(f: EventFilter, events: unknown[], total: number): Record<string, unknown> {
  const pages = Math.ceil(total / f.perPage);
  const o: Record<string, unknown> = { events, rest_url: f.restUrl };
  if (f.page < pages) o.next_rest_url = restUrl(f, f.page + 1);
  if (f.page > 1 && f.page - 1 <= pages) o.previous_rest_url = restUrl(f, f.page - 1);
  o.total = total;
  o.total_pages = pages;
  return o;
}

export const PAGE_NOT_FOUND_BODY = JSON.stringify({
  code: 'event-archive-page-not-found',
  message: 'The requested event archive page does not exist',
  data: { status: 404 },
});

export function badRequestResult(e: BadRequest): ListResult {
  return {
    status: 400,
    total: 0,
    ids: [],
    body: JSON.stringify({ code: 'rest_invalid_param', message: e.message, data: { status: 400 } }),
  };
}
