// GET /events parameters → EventQuery (spec/filters.md §1, spec/decisions.md "Event list"),
// and the archive envelope with rest_url / next_rest_url / previous_rest_url.

import { endOfNaiveDay, naiveToString, startOfNaiveDay } from '../engine/naive-time.ts';
import { POST_STATUSES } from '../engine/records.ts';
import type { EventQuery, GeoFilter } from '../engine/types.ts';
import { canEditPosts } from './auth.ts';
import type { Core } from './context.ts';
import { epochToZoned, nowIn, parseDateInput } from './dates.ts';
import { invalidParams } from './errors.ts';
import { toJson } from './represent.ts';
import { Problems, asList, asNumber, asPositiveInt, asStrictBoolean, asString, has, isTruthy } from './params.ts';
import { parseSearch } from './text.ts';
import type { Actor, Params } from './types.ts';

export const MAX_PER_PAGE = 50;
const DAY = 86_400_000;

/** Statuses listed when none is asked for: everything but trash/auto-draft for editors of the type. */
export function defaultStatusMask(actor: Actor): number {
  if (!canEditPosts(actor)) return 1 << POST_STATUSES.indexOf('publish');
  return ['publish', 'future', 'draft', 'pending', 'private'].reduce((m, s) => m | (1 << POST_STATUSES.indexOf(s as never)), 0);
}

/** `status` list parameter (events, venues, organizers): a bit mask, or undefined when invalid. */
export function statusMaskParam(value: unknown, actor: Actor): number | undefined {
  const items = asList(value);
  if (!items || items.length === 0) return undefined;
  if (!canEditPosts(actor)) return items.length === 1 && items[0] === 'publish' ? 1 << POST_STATUSES.indexOf('publish') : undefined;
  let mask = 0;
  for (const s of items) {
    const i = (POST_STATUSES as readonly string[]).indexOf(s);
    if (i < 0) return undefined;
    mask |= 1 << i;
  }
  return mask;
}

export interface Paging {
  page: number;
  perPage: number;
}

export function readPaging(core: Core, params: Params, problems: Problems): Paging {
  let page = 1, perPage = core.site.config.perPage;
  if (has(params, 'page')) {
    const n = asPositiveInt(params.page);
    if (n === undefined) problems.add('page');
    else page = n;
  }
  if (has(params, 'per_page')) {
    const n = asPositiveInt(params.per_page);
    if (n === undefined) problems.add('per_page');
    else perPage = n;
  }
  return { page, perPage: Math.min(perPage, MAX_PER_PAGE) };
}

export interface EventListPlan {
  query: EventQuery;
  paging: Paging;
  /** effective arguments reflected into rest_url, in order */
  urlArgs: Array<[string, string]>;
}

const RELATIVE = ['starts_before', 'starts_after', 'ends_before', 'ends_after'] as const;

/** Validate every list parameter (all problems reported at once) and build the engine query. */
export function planEventList(core: Core, params: Params, actor: Actor): EventListPlan {
  const problems = new Problems();
  const engine = core.engine;
  const { timezone: siteTz, now: clock } = core.site.config;
  const now = clock();
  const paging = readPaging(core, params, problems);
  const q: EventQuery = { statusMask: defaultStatusMask(actor), offset: 0, limit: 0 };
  const urlArgs: Array<[string, string]> = [];

  let strict = false;
  if (has(params, 'strict_dates')) {
    const s = asString(params.strict_dates);
    if (s === undefined || s === '') problems.add('strict_dates');
    else strict = isTruthy(s);
  }
  /** A boundary as naive ms in the site zone (strict) or as the literal/UTC day (inclusive). */
  const boundary = (name: string): number | undefined => {
    if (!has(params, name)) return undefined;
    const raw = params[name];
    const digits = typeof raw === 'number' || (typeof raw === 'string' && /^\d+$/.test(raw.trim()));
    let n: number | null;
    if (strict) {
      const utc = digits ? Number(raw) * 1000 : parseDateInput(raw, 'UTC', now);
      n = utc === null || !Number.isFinite(utc) ? null : epochToZoned(utc, siteTz);
    } else {
      n = digits ? Number(raw) * 1000 : parseDateInput(raw, siteTz, now);
    }
    if (n === null || !Number.isFinite(n)) {
      problems.add(name);
      return undefined;
    }
    return n;
  };
  const startDate = boundary('start_date');
  const endDate = boundary('end_date');
  const relative = RELATIVE.map((name) => boundary(name));

  if (has(params, 'search')) {
    const s = asString(params.search);
    if (s === undefined || s === '') problems.add('search');
    else {
      q.search = parseSearch(s);
      urlArgs.push(['search', s]);
    }
  }
  for (const [name, taxonomy] of [['categories', 'tribe_events_cat'], ['tags', 'post_tag']] as const) {
    if (!has(params, name)) continue;
    const items = asList(params[name]);
    const ids: number[] = [];
    for (const item of items ?? []) {
      const t = engine.termBySlug(taxonomy, item) ?? (/^\d+$/.test(item) ? engine.term(Number(item)) : undefined);
      if (!t || t.taxonomy !== taxonomy) {
        problems.add(name);
        break;
      }
      ids.push(t.id);
    }
    if (!items) problems.add(name);
    else if (ids.length) q[name === 'categories' ? 'categoryIds' : 'tagIds'] = ids;
  }
  for (const name of ['venue', 'organizer'] as const) {
    if (!has(params, name)) continue;
    const items = asList(params[name]);
    const ids = (items ?? []).map((s) => (/^\d+$/.test(s) ? Number(s) : NaN));
    if (!items || ids.some((id) => Number.isNaN(id) || engine.postKind(id) !== name)) problems.add(name);
    else if (ids.length) {
      q[name === 'venue' ? 'venueIds' : 'organizerIds'] = ids;
      urlArgs.push([name, ids.join(',')]);
    }
  }
  for (const [name, key] of [['featured', 'featured'], ['ticketed', 'ticketed'], ['ticket', 'ticketed']] as const) {
    if (!has(params, name)) continue;
    const b = asStrictBoolean(params[name]);
    if (b === undefined) problems.add(name);
    else {
      q[key] = b;
      urlArgs.push([name, b ? '1' : '0']);
    }
  }
  if (has(params, 'status')) {
    const mask = statusMaskParam(params.status, actor);
    if (mask === undefined) problems.add('status');
    else {
      q.statusMask = mask;
      urlArgs.push(['status', (asList(params.status) ?? []).join(',')]);
    }
  }
  if (has(params, 'include')) {
    const items = asList(params.include);
    const ids = (items ?? []).map((s) => (/^\d+$/.test(s) && Number(s) > 0 ? Number(s) : NaN));
    if (!items || ids.some(Number.isNaN)) problems.add('include');
    else {
      q.includeIds = ids;
      urlArgs.push(['include', ids.join(',')]);
    }
  }
  if (has(params, 'post_parent')) {
    const s = asString(params.post_parent);
    const id = s !== undefined && /^\d+$/.test(s) ? Number(s) : NaN;
    if (Number.isNaN(id) || engine.postKind(id) !== 'event') problems.add('post_parent');
    else {
      q.parentId = id;
      urlArgs.push(['post_parent', String(id)]);
    }
  }
  readGeo(params, problems, q, urlArgs);
  if (problems.any) throw invalidParams(problems.reasons);

  // Dates: include ignores every date filter (INTERFACE.md); starts_*/ends_* drop the defaults.
  if (!q.includeIds) {
    const anyRelative = relative.some((v) => v !== undefined);
    const round = strict ? (n: number) => n : startOfNaiveDay;
    const roundEnd = strict ? (n: number) => n : endOfNaiveDay;
    let lower = startDate;
    let upper = endDate;
    if (lower === undefined && !anyRelative) lower = startOfNaiveDay(nowIn(siteTz, now)) - DAY + 23 * 3_600_000 + 59 * 60_000;
    if (upper === undefined && !anyRelative) upper = addMonthsNaive(Math.floor(now.getTime() / 1000) * 1000, 24);
    if (lower !== undefined) {
      q.startGte = round(lower);
      urlArgs.unshift(['start_date', naiveToString(q.startGte)]);
    }
    if (upper !== undefined) {
      q.endLte = roundEnd(upper);
      urlArgs.splice(lower !== undefined ? 1 : 0, 0, ['end_date', naiveToString(q.endLte)]);
    }
    const [startsBefore, startsAfter, endsBefore, endsAfter] = relative.map((v) => (v === undefined ? undefined : roundEnd(v)));
    if (startsBefore !== undefined) q.startLt = startsBefore;
    if (startsAfter !== undefined) q.startGt = startsAfter;
    if (endsBefore !== undefined) q.endLt = endsBefore;
    if (endsAfter !== undefined) q.endGt = endsAfter;
    RELATIVE.forEach((name, i) => {
      const v = [startsBefore, startsAfter, endsBefore, endsAfter][i];
      if (v !== undefined) urlArgs.push([name, naiveToString(v)]);
    });
    if (has(params, 'strict_dates')) urlArgs.push(['strict_dates', String(params.strict_dates)]);
  }
  q.offset = (paging.page - 1) * paging.perPage;
  q.limit = paging.perPage;
  return { query: q, paging, urlArgs };
}

function readGeo(params: Params, problems: Problems, q: EventQuery, urlArgs: Array<[string, string]>): void {
  if (has(params, 'geoloc')) {
    const b = asStrictBoolean(params.geoloc);
    if (b === undefined) problems.add('geoloc');
    else {
      q.geo = { kind: 'has-coords', value: b };
      urlArgs.push(['geoloc', b ? '1' : '0']);
    }
  }
  const hasLat = has(params, 'geoloc_lat'), hasLng = has(params, 'geoloc_lng');
  if (!hasLat && !hasLng) return;
  const lat = hasLat ? asNumber(params.geoloc_lat) : undefined;
  const lng = hasLng ? asNumber(params.geoloc_lng) : undefined;
  if (lat === undefined || lat < -90 || lat > 90) problems.add('geoloc_lat');
  if (lng === undefined || lng < -180 || lng > 180) problems.add('geoloc_lng');
  let radius = 25;
  if (has(params, 'geoloc_radius')) {
    const r = asNumber(params.geoloc_radius);
    if (r === undefined || r <= 0) problems.add('geoloc_radius');
    else radius = r;
  }
  let unit = 'mi';
  if (has(params, 'geoloc_unit')) {
    const u = asString(params.geoloc_unit)?.toLowerCase();
    if (u !== 'mi' && u !== 'km') problems.add('geoloc_unit');
    else unit = u;
  }
  if (lat === undefined || lng === undefined || problems.any) return;
  const geo: GeoFilter = { kind: 'radius', lat, lng, radiusKm: unit === 'km' ? radius : radius * 1.609344 };
  q.geo = geo;
  urlArgs.push(['geoloc_lat', String(lat)], ['geoloc_lng', String(lng)], ['geoloc_radius', String(radius)], ['geoloc_unit', unit]);
}

/** UTC clock + n months, day clamped to the month's length, as naive ms of the UTC wall clock. */
function addMonthsNaive(ms: number, months: number): number {
  const d = new Date(ms);
  const y = d.getUTCFullYear(), m = d.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return Date.UTC(y, m, Math.min(d.getUTCDate(), lastDay), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds());
}

/** `{base}?a=1&b=2` without URL-encoding values, as TEC builds it. */
export function buildUrl(base: string, args: Array<[string, string]>): string {
  return args.length ? `${base}?${args.map(([k, v]) => `${k}=${v}`).join('&')}` : base;
}

/** The archive envelope of events/venues/organizers as JSON text (keys in the real order). */
export function archiveEnvelope(key: string, base: string, items: string[], total: number, paging: Paging, urlArgs: Array<[string, string]>): string {
  const totalPages = total === 0 ? 0 : Math.ceil(total / paging.perPage);
  const withPage = (page: number): Array<[string, string]> => [['page', String(page)], ['per_page', String(paging.perPage)], ...urlArgs];
  let out = `{"${key}":[${items.join(',')}],"rest_url":${toJson(buildUrl(base, withPage(paging.page)))}`;
  if (paging.page < totalPages) out += `,"next_rest_url":${toJson(buildUrl(base, withPage(paging.page + 1)))}`;
  if (paging.page > 1 && paging.page - 1 <= totalPages) {
    const prev = paging.page - 1 === 1 ? withPage(1).slice(1) : withPage(paging.page - 1);
    out += `,"previous_rest_url":${toJson(buildUrl(base, prev))}`;
  }
  return out + `,"total":${total},"total_pages":${totalPages}}`;
}
