// The row predicate of a query: every filter of an EventQuery, read straight from the columns
// (status, flags, start and end bounds, terms, venues, organizers, parent, geo), plus the sets
// and ranges it is built from. The planner (query.ts) and the search index's walk
// (search-index.ts) both check candidate rows with it; it depends on neither.

import { BitSet } from './bitset.ts';
import { COMBOS, comboOf } from './block-stats.ts';
import { FLAG_COORDS, FLAG_FEATURED, FLAG_HIDDEN, FLAG_TICKETED, type EventTable } from './event-table.ts';
import type { CalendarState } from './state.ts';
import type { EventQuery } from './types.ts';

/** The categories and all their descendants, without duplicates. */
export function expandCategories(st: CalendarState, ids: readonly number[]): number[] {
  const out: number[] = [];
  for (const id of ids) st.entities.descendantsOf(id, out);
  return out;
}

/** Membership test over a set of ids: a short array, or a bit set for longer lists. */
export type IdTest = (id: number) => boolean;

export function makeIdTest(ids: ArrayLike<number>): IdTest {
  const n = ids.length;
  if (n === 0) return () => false;
  if (n === 1) {
    const only = ids[0];
    return (id) => id === only;
  }
  if (n <= 8) {
    const list = Array.from(ids);
    return (id) => list.includes(id);
  }
  let max = 0;
  for (let i = 0; i < n; i++) if (ids[i] > max) max = ids[i];
  if (max < 1 << 16) {
    const bits = new BitSet(max + 1);
    for (let i = 0; i < n; i++) if (ids[i] >= 0) bits.add(ids[i]);
    return (id) => bits.has(id);
  }
  // large ids (posts: venues, organizers): a sorted array, no bit set as wide as the id space
  const sorted = Float64Array.from(ids).sort();
  return (id) => {
    let lo = 0,
      hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid] < id) lo = mid + 1;
      else hi = mid;
    }
    return lo < n && sorted[lo] === id;
  };
}

function anyIn(list: readonly number[], test: IdTest): boolean {
  for (let i = 0; i < list.length; i++) if (test(list[i])) return true;
  return false;
}

/** Bounds on the local start: [min, max] with open flags; end upper bounds also bound the start. */
export interface StartRange {
  min: number;
  minOpen: boolean;
  max: number;
  maxOpen: boolean;
}

function lower(r: StartRange, v: number | undefined, open: boolean): void {
  if (v === undefined) return;
  if (v > r.min || (v === r.min && open)) {
    r.min = v;
    r.minOpen = open;
  }
}

function upper(r: StartRange, v: number | undefined, open: boolean): void {
  if (v === undefined) return;
  if (v < r.max || (v === r.max && open)) {
    r.max = v;
    r.maxOpen = open;
  }
}

export function startRangeOf(q: EventQuery, withEnd: boolean): StartRange {
  const r: StartRange = { min: -Infinity, minOpen: false, max: Infinity, maxOpen: false };
  lower(r, q.startGte, false);
  lower(r, q.startGt, true);
  upper(r, q.startLte, false);
  upper(r, q.startLt, true);
  if (withEnd) {
    upper(r, q.endLte, false);
    upper(r, q.endLt, true);
  }
  return r;
}

export interface Matcher {
  /** every filter of the query, read from the columns */
  match: (row: number) => boolean;
  /** true when the only filters are start/end bounds, status and the hidden/featured/ticketed/coords flags */
  simple: boolean;
  /** the kind of the one filter beyond those ('category', 'tag', ...), when there is exactly one */
  only: string | undefined;
  /** bounds on the local end */
  end: StartRange;
  /** (status, flags) combinations that pass (see block-stats.ts) */
  combos: Int32Array;
  /** combination → 1 when it passes, else 0 (COMBOS entries) */
  comboOk: Uint8Array;
  /** with a radius: the ids of the venues in it, ascending (the planner's lists, once a query) */
  radiusVenues?: number[];
}

/** The row predicate: every filter of the query, read from the columns. */
export function buildMatcher(st: CalendarState, q: EventQuery): Matcher {
  const t = st.table;
  const mask = q.statusMask;
  // geoloc=true/false reads the derived coords flag (state.ts keeps it in step with venues)
  const coords = q.geo?.kind === 'has-coords' ? q.geo.value : undefined;
  const flagMask =
    FLAG_HIDDEN |
    (q.featured !== undefined ? FLAG_FEATURED : 0) |
    (q.ticketed !== undefined ? FLAG_TICKETED : 0) |
    (coords !== undefined ? FLAG_COORDS : 0);
  const flagWant = (q.featured ? FLAG_FEATURED : 0) | (q.ticketed ? FLAG_TICKETED : 0) | (coords ? FLAG_COORDS : 0);
  const s = startRangeOf(q, false);
  const e: StartRange = { min: -Infinity, minOpen: false, max: Infinity, maxOpen: false };
  lower(e, q.endGte, false);
  lower(e, q.endGt, true);
  upper(e, q.endLte, false);
  upper(e, q.endLt, true);

  const checks: ((row: number) => boolean)[] = [];
  const kinds: string[] = [];
  if (q.parentId !== undefined) {
    const parent = q.parentId,
      parentIds = t.parentIds;
    kinds.push('parent');
    checks.push((row) => parentIds[row] === parent);
  }
  if (q.categoryIds !== undefined) {
    const test = makeIdTest(expandCategories(st, q.categoryIds));
    const cats = t.categoryIds;
    kinds.push('category');
    checks.push((row) => cats.some(row, test));
  }
  if (q.tagIds !== undefined) {
    const test = makeIdTest(q.tagIds);
    const tags = t.tagIds;
    kinds.push('tag');
    checks.push((row) => tags.some(row, test));
  }
  if (q.organizerIds !== undefined) {
    const test = makeIdTest(q.organizerIds);
    const orgs = t.organizerIds;
    kinds.push('organizer');
    checks.push((row) => orgs.some(row, test));
  }
  if (q.venueIds !== undefined) {
    kinds.push('venue');
    checks.push(venueCheck(t, makeIdTest(q.venueIds)));
  }
  let radiusVenues: number[] | undefined;
  if (q.geo?.kind === 'radius') {
    kinds.push('radius');
    radiusVenues = st.geo.withinRadius(q.geo.lat, q.geo.lng, q.geo.radiusKm);
    checks.push(venueCheck(t, makeIdTest(radiusVenues)));
  }
  if (q.search && (q.search.include.length > 0 || q.search.exclude.length > 0)) {
    const include = q.search.include,
      exclude = q.search.exclude;
    kinds.push('search');
    checks.push((row) => {
      const text = t.foldedText(row);
      for (const term of include) if (!text.includes(term)) return false;
      for (const term of exclude) if (text.includes(term)) return false;
      return true;
    });
  }
  const nChecks = checks.length;

  const table = comboTable(mask, flagMask, flagWant);
  return {
    match: rowPredicate(t, mask, flagMask, flagWant, s, e, checks),
    simple: nChecks === 0,
    only: nChecks === 1 ? kinds[0] : undefined,
    end: e,
    combos: table.combos,
    comboOk: table.ok,
    radiusVenues,
  };
}

interface ComboTable {
  combos: Int32Array;
  ok: Uint8Array;
}

/** (status mask, flag mask, wanted flags) → its combination table. These depend on nothing but
 *  the three small numbers (at most 256 × 16 × 16 tables, never on the data), so each is built
 *  once and shared read-only. */
const comboTables = new Map<number, ComboTable>();

/** The (status, flags) combinations that pass a status mask and flags under flagMask = flagWant
 *  (hidden never passes: FLAG_HIDDEN is in every flagMask and never in flagWant). */
function comboTable(mask: number, flagMask: number, flagWant: number): ComboTable {
  const key = (mask & 0xff) | (flagMask << 8) | (flagWant << 16);
  let table = comboTables.get(key);
  if (table) return table;
  const combos: number[] = [];
  for (let status = 0; status < 8; status++) {
    if (((mask >>> status) & 1) === 0) continue;
    for (let k = 0; k < 8; k++) {
      const flagBits = (k & 1 ? FLAG_FEATURED : 0) | (k & 2 ? FLAG_TICKETED : 0) | (k & 4 ? FLAG_COORDS : 0);
      if ((flagBits & flagMask) === flagWant) combos.push(comboOf(status, flagBits));
    }
  }
  const ok = new Uint8Array(COMBOS);
  for (const c of combos) ok[c] = 1;
  table = { combos: Int32Array.from(combos), ok };
  comboTables.set(key, table);
  return table;
}

// (module-level factories: a closure bound to a name inside a per-query function gets a
// name-defining wrapper from the TypeScript loader's keepNames on every call)

/** The row predicate of buildMatcher. */
function rowPredicate(
  t: EventTable,
  mask: number,
  flagMask: number,
  flagWant: number,
  s: StartRange,
  e: StartRange,
  checks: ((row: number) => boolean)[],
): (row: number) => boolean {
  const starts = t.starts,
    ends = t.ends,
    statusCodes = t.statusCodes,
    flags = t.flags;
  const hasStart = s.min !== -Infinity || s.max !== Infinity;
  const hasEnd = e.min !== -Infinity || e.max !== Infinity;
  const nChecks = checks.length;
  return (row) => {
    if (((mask >>> statusCodes[row]) & 1) === 0) return false;
    if ((flags[row] & flagMask) !== flagWant) return false;
    if (hasStart) {
      const v = starts[row];
      if (v < s.min || (s.minOpen && v === s.min) || v > s.max || (s.maxOpen && v === s.max)) return false;
    }
    if (hasEnd) {
      const v = ends[row];
      if (v < e.min || (e.minOpen && v === e.min) || v > e.max || (e.maxOpen && v === e.max)) return false;
    }
    for (let i = 0; i < nChecks; i++) if (!checks[i](row)) return false;
    return true;
  };
}

/** Some venue of the row passes `test` (a row without a venue never does). */
function venueCheck(t: EventTable, test: IdTest): (row: number) => boolean {
  const first = t.venueIds,
    extra = t.extraVenues;
  return (row) => {
    const v = first[row];
    if (v === 0) return false;
    if (extra.size > 0) {
      const list = extra.get(row);
      if (list) return anyIn(list, test);
    }
    return test(v);
  };
}

/** Whether end value v passes the end bounds e. */
export function endPasses(e: StartRange, v: number): boolean {
  return !(v < e.min || (e.minOpen && v === e.min) || v > e.max || (e.maxOpen && v === e.max));
}

/** Whether every end in [lo, hi] passes the end bounds `e` (a block's zone map). */
export function endsWithin(lo: number, hi: number, e: StartRange): boolean {
  return (lo > e.min || (!e.minOpen && lo === e.min)) && (hi < e.max || (!e.maxOpen && hi === e.max));
}

/** Whether no end in [lo, hi] passes the end bounds `e`. */
export function endsOutside(lo: number, hi: number, e: StartRange): boolean {
  return hi < e.min || (e.minOpen && hi === e.min) || lo > e.max || (e.maxOpen && lo === e.max);
}
