// GET /events parameters → EventQuery (docs/behaviour.md, "Lists") and the effective filters its
// rest_url shows (envelope.ts writes the envelope). The date bounds: list-bounds.ts; the status
// and paging every list reads: ../list-paging.ts.

import { endOfNaiveDay, naiveToString, startOfNaiveDay } from '../../engine/naive-time.ts';
import { POST_STATUSES } from '../../engine/records.ts';
import type { EventQuery, GeoFilter } from '../../engine/types.ts';
import type { Core } from '../context.ts';
import { invalidParams } from '../wordpress/errors.ts';
import { Problems, asList, asNumber, asStrictBoolean, asString, has, isTruthy } from '../wordpress/params.ts';
import { parseSearch } from '../wordpress/text.ts';
import type { Actor, Params } from '../wordpress/types.ts';
import { defaultStatusArg, defaultStatusMask, readPaging, statusMaskParam, type Paging } from '../list-paging.ts';
import { boundary, defaultWindow } from './list-bounds.ts';

const INHERIT_MASK = 1 << POST_STATUSES.indexOf('inherit');

export interface EventListPlan {
  query: EventQuery;
  paging: Paging;
  /** effective arguments reflected into rest_url, in order */
  urlArgs: Array<[string, string]>;
}

const RELATIVE = ['starts_before', 'starts_after', 'ends_before', 'ends_after'] as const;
const TERM_PARAMS = [
  ['categories', 'tribe_events_cat'],
  ['tags', 'post_tag'],
] as const;
const POST_PARAMS = ['venue', 'organizer'] as const;
const FLAG_PARAMS = [
  ['featured', 'featured'],
  ['ticketed', 'ticketed'],
  ['ticket', 'ticketed'],
] as const;
const GEO_PARAMS = ['geoloc', 'geoloc_lat', 'geoloc_lng', 'geoloc_radius', 'geoloc_unit'] as const;

/** Groups of list parameters: a call that carries no name of a group skips the group whole
 *  (most calls carry two or three of the thirty names read here). */
const G_DATES = 1,
  G_LINKS = 2,
  G_GEO = 4;
const PARAM_GROUP = new Map<string, number>([
  ...['strict_dates', 'start_date', 'end_date', ...RELATIVE].map((n): [string, number] => [n, G_DATES]),
  ...[...TERM_PARAMS.map(([n]) => n), ...POST_PARAMS, ...FLAG_PARAMS.map(([n]) => n)].map((n): [string, number] => [
    n,
    G_LINKS,
  ]),
  ...GEO_PARAMS.map((n): [string, number] => [n, G_GEO]),
]);
const NO_RELATIVE: readonly (number | undefined)[] = [undefined, undefined, undefined, undefined];

/** The groups among the parameters' own names (every name `has` can see). */
function paramGroups(params: Params): number {
  const names = Object.getOwnPropertyNames(params);
  let groups = 0;
  for (let i = 0; i < names.length; i++) groups |= PARAM_GROUP.get(names[i]) ?? 0;
  return groups;
}

/** The number a string of ASCII digits only stands for (/^\d+$/), else NaN. */
function digitsValue(s: string): number {
  const n = s.length;
  if (n === 0) return NaN;
  let v = 0;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return NaN;
    v = v * 10 + (c - 48);
  }
  return n <= 15 ? v : Number(s); // up to 15 digits the sum is exact
}

/** Validate every list parameter (all problems reported at once) and build the engine query. */
export function planEventList(core: Core, params: Params, actor: Actor): EventListPlan {
  const problems = new Problems();
  const engine = core.engine;
  const { timezone: siteTz, now: clock } = core.site.config;
  const now = clock();
  const paging = readPaging(core, params, problems);
  const q: EventQuery = { statusMask: defaultStatusMask(actor), offset: 0, limit: 0 };
  const urlArgs: Array<[string, string]> = [];
  const groups = paramGroups(params);

  let strict = false,
    strictArg: string | undefined;
  let startDate: number | undefined, endDate: number | undefined;
  let relative = NO_RELATIVE;
  if (groups & G_DATES) {
    if (has(params, 'strict_dates')) {
      const s = asString(params.strict_dates);
      strictArg = String(params.strict_dates);
      if (s === undefined || s === '') problems.add('strict_dates');
      else strict = isTruthy(s);
    }
    startDate = boundary(params, 'start_date', strict, siteTz, now, problems);
    endDate = boundary(params, 'end_date', strict, siteTz, now, problems);
    relative = RELATIVE.map((name) => boundary(params, name, strict, siteTz, now, problems));
  }

  if (has(params, 'search')) {
    const s = asString(params.search);
    if (s === undefined || s === '') problems.add('search');
    else {
      q.search = parseSearch(s);
      urlArgs.push(['search', s]);
    }
  }
  if (groups & G_LINKS) readLinks(core, params, problems, q, urlArgs);
  if (has(params, 'status')) {
    const mask = statusMaskParam(params.status, actor);
    if (mask === undefined) problems.add('status');
    else {
      q.statusMask = mask & ~INHERIT_MASK; // dropped occurrences are never listed
      urlArgs.push(['status', (asList(params.status) ?? []).join(',')]);
    }
  } else urlArgs.push(['status', defaultStatusArg(actor)]);
  // `featured` is added to the URL after the query's own arguments (TEC's extra arguments)
  const featuredAt = urlArgs.findIndex((a) => a[0] === 'featured');
  if (featuredAt >= 0) urlArgs.push(urlArgs.splice(featuredAt, 1)[0]);
  if (has(params, 'include')) {
    const items = asList(params.include);
    let bad = !items;
    const ids: number[] = [];
    for (let i = 0; items && i < items.length; i++) {
      const id = digitsValue(items[i]);
      if (id > 0) ids.push(id);
      else {
        ids.push(NaN);
        bad = true;
      }
    }
    if (bad) problems.add('include');
    else {
      q.includeIds = ids;
      urlArgs.push(['include', ids.join(',')]);
    }
  }
  if (has(params, 'post_parent')) {
    const s = asString(params.post_parent);
    const id = s !== undefined ? digitsValue(s) : NaN;
    if (Number.isNaN(id) || engine.postKind(id) !== 'event') problems.add('post_parent');
    else {
      q.parentId = id;
      urlArgs.push(['post_parent', String(id)]);
    }
  }
  if (groups & G_GEO) readGeo(params, problems, q, urlArgs);
  if (problems.any) throw invalidParams(problems.reasons);

  // Dates: include ignores every date filter (the interface); starts_*/ends_* drop the defaults.
  if (!q.includeIds) {
    const anyRelative =
      relative[0] !== undefined || relative[1] !== undefined || relative[2] !== undefined || relative[3] !== undefined;
    const round = strict ? (n: number) => n : startOfNaiveDay;
    const roundEnd = strict ? (n: number) => n : endOfNaiveDay;
    let lower = startDate,
      upper = endDate;
    // a bound left out takes the default window's; its day-rounded text is ready unless strict
    let lowerText: string | undefined, upperText: string | undefined;
    if (!anyRelative && (lower === undefined || upper === undefined)) {
      const win = defaultWindow(siteTz, now);
      if (lower === undefined) {
        lower = win.lower;
        if (!strict) lowerText = win.lowerText;
      }
      if (upper === undefined) {
        upper = win.upper;
        if (!strict) upperText = win.upperText;
      }
    }
    if (lower !== undefined) {
      q.startGte = round(lower);
      urlArgs.unshift(['start_date', lowerText ?? naiveToString(q.startGte)]);
    }
    if (upper !== undefined) {
      q.endLte = roundEnd(upper);
      urlArgs.splice(lower !== undefined ? 1 : 0, 0, ['end_date', upperText ?? naiveToString(q.endLte)]);
    }
    if (anyRelative) {
      for (let i = 0; i < RELATIVE.length; i++) {
        const raw = relative[i];
        if (raw === undefined) continue;
        const v = roundEnd(raw);
        if (i === 0) q.startLt = v;
        else if (i === 1) q.startGt = v;
        else if (i === 2) q.endLt = v;
        else q.endGt = v;
        urlArgs.push([RELATIVE[i], naiveToString(v)]);
      }
    }
    if (strictArg !== undefined) urlArgs.push(['strict_dates', strictArg]);
  }
  q.offset = (paging.page - 1) * paging.perPage;
  q.limit = paging.perPage;
  return { query: q, paging, urlArgs };
}

/** categories/tags (slugs or ids), venue/organizer (post ids) and the featured/ticketed flags. */
function readLinks(
  core: Core,
  params: Params,
  problems: Problems,
  q: EventQuery,
  urlArgs: Array<[string, string]>,
): void {
  const engine = core.engine;
  for (let k = 0; k < TERM_PARAMS.length; k++) {
    const [name, taxonomy] = TERM_PARAMS[k];
    if (!has(params, name)) continue;
    const items = asList(params[name]);
    const ids: number[] = [];
    for (const item of items ?? []) {
      const t =
        engine.termBySlug(taxonomy, item) ?? (!Number.isNaN(digitsValue(item)) ? engine.term(Number(item)) : undefined);
      if (!t || t.taxonomy !== taxonomy) {
        problems.add(name);
        break;
      }
      ids.push(t.id);
    }
    if (!items) problems.add(name);
    else if (ids.length) q[name === 'categories' ? 'categoryIds' : 'tagIds'] = ids;
  }
  for (let k = 0; k < POST_PARAMS.length; k++) {
    const name = POST_PARAMS[k];
    if (!has(params, name)) continue;
    const items = asList(params[name]);
    let bad = !items;
    const ids: number[] = [];
    for (let i = 0; items && i < items.length; i++) {
      const id = digitsValue(items[i]);
      ids.push(id);
      if (id !== id || engine.postKind(id) !== name) bad = true;
    }
    if (bad) problems.add(name);
    else if (ids.length) {
      q[name === 'venue' ? 'venueIds' : 'organizerIds'] = ids;
      urlArgs.push([name, ids.join(',')]);
    }
  }
  for (let k = 0; k < FLAG_PARAMS.length; k++) {
    const [name, key] = FLAG_PARAMS[k];
    if (!has(params, name)) continue;
    const b = asStrictBoolean(params[name]);
    if (b === undefined) problems.add(name);
    else {
      q[key] = b;
      urlArgs.push([name, b ? '1' : '0']);
    }
  }
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
  const hasLat = has(params, 'geoloc_lat'),
    hasLng = has(params, 'geoloc_lng');
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
  urlArgs.push(
    ['geoloc_lat', String(lat)],
    ['geoloc_lng', String(lng)],
    ['geoloc_radius', String(radius)],
    ['geoloc_unit', unit],
  );
}
