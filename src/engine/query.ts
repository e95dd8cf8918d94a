// EventQuery → { rows of the page, total }. Plan: pick the driver with the smallest known
// count (the main index's start range, a union of posting lists restricted to the same start
// range, or the include list); walk it in result order; check every predicate against the
// columns; count everything, keep only [offset, offset + limit) (arquero's scan). No sort of
// the result set, no materialised match list.

import { BitSet } from './bitset.ts';
import { COMBOS, comboOf, type BlockStats } from './block-stats.ts';
import { FLAG_COORDS, FLAG_FEATURED, FLAG_HIDDEN, FLAG_TICKETED } from './event-table.ts';
import type { PostingList } from './sorted-index.ts';
import type { CalendarState, Postings } from './state.ts';
import type { EventQuery, QueryResult } from './types.ts';
import { searchQuery } from './search-index.ts';

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
    let lo = 0, hi = n;
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
interface StartRange {
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
}

/** The row predicate: every filter of the query, read from the columns. */
export function buildMatcher(st: CalendarState, q: EventQuery): Matcher {
  const t = st.table;
  const starts = t.starts, ends = t.ends, statusCodes = t.statusCodes, flags = t.flags;
  const mask = q.statusMask;
  // geoloc=true/false reads the derived coords flag (state.ts keeps it in step with venues)
  const coords = q.geo?.kind === 'has-coords' ? q.geo.value : undefined;
  const flagMask = FLAG_HIDDEN | (q.featured !== undefined ? FLAG_FEATURED : 0) | (q.ticketed !== undefined ? FLAG_TICKETED : 0) |
    (coords !== undefined ? FLAG_COORDS : 0);
  const flagWant = (q.featured ? FLAG_FEATURED : 0) | (q.ticketed ? FLAG_TICKETED : 0) | (coords ? FLAG_COORDS : 0);
  const s = startRangeOf(q, false);
  const e: StartRange = { min: -Infinity, minOpen: false, max: Infinity, maxOpen: false };
  lower(e, q.endGte, false);
  lower(e, q.endGt, true);
  upper(e, q.endLte, false);
  upper(e, q.endLt, true);
  const hasStart = s.min !== -Infinity || s.max !== Infinity;
  const hasEnd = e.min !== -Infinity || e.max !== Infinity;

  const checks: ((row: number) => boolean)[] = [];
  const kinds: string[] = [];
  if (q.parentId !== undefined) {
    const parent = q.parentId, parentIds = t.parentIds;
    kinds.push('parent');
    checks.push((row) => parentIds[row] === parent);
  }
  if (q.categoryIds !== undefined) {
    const test = makeIdTest(expandCategories(st, q.categoryIds));
    const cats = t.categoryIds;
    kinds.push('category');
    checks.push((row) => anyIn(cats[row], test));
  }
  if (q.tagIds !== undefined) {
    const test = makeIdTest(q.tagIds);
    const tags = t.tagIds;
    kinds.push('tag');
    checks.push((row) => anyIn(tags[row], test));
  }
  if (q.organizerIds !== undefined) {
    const test = makeIdTest(q.organizerIds);
    const orgs = t.organizerIds;
    kinds.push('organizer');
    checks.push((row) => anyIn(orgs[row], test));
  }
  const venueCheck = (kind: string, test: IdTest, want: boolean) => {
    const first = t.venueIds, extra = t.extraVenues;
    kinds.push(kind);
    checks.push((row) => {
      const v = first[row];
      if (v === 0) return !want;
      if (extra.size > 0) {
        const list = extra.get(row);
        if (list) return anyIn(list, test) === want;
      }
      return test(v) === want;
    });
  };
  if (q.venueIds !== undefined) venueCheck('venue', makeIdTest(q.venueIds), true);
  if (q.geo?.kind === 'radius') venueCheck('radius', makeIdTest(st.geo.withinRadius(q.geo.lat, q.geo.lng, q.geo.radiusKm)), true);
  if (q.search && (q.search.include.length > 0 || q.search.exclude.length > 0)) {
    const include = q.search.include, exclude = q.search.exclude;
    kinds.push('search');
    checks.push((row) => {
      const text = t.foldedText(row);
      for (const term of include) if (!text.includes(term)) return false;
      for (const term of exclude) if (text.includes(term)) return false;
      return true;
    });
  }
  const nChecks = checks.length;

  const combos: number[] = [];
  for (let status = 0; status < 8; status++) {
    if (((mask >>> status) & 1) === 0) continue;
    for (let k = 0; k < 8; k++) {
      const flagBits = (k & 1 ? FLAG_FEATURED : 0) | (k & 2 ? FLAG_TICKETED : 0) | (k & 4 ? FLAG_COORDS : 0);
      if ((flagBits & flagMask) === flagWant) combos.push(comboOf(status, flagBits));
    }
  }

  const match = (row: number) => {
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
  const comboOk = new Uint8Array(COMBOS);
  for (const c of combos) comboOk[c] = 1;
  return { match, simple: nChecks === 0, only: nChecks === 1 ? kinds[0] : undefined, end: e, combos: Int32Array.from(combos), comboOk };
}

/** Whether end value v passes the end bounds e. */
function endPasses(e: StartRange, v: number): boolean {
  return !(v < e.min || (e.minOpen && v === e.min) || v > e.max || (e.maxOpen && v === e.max));
}

/**
 * For a matcher simple over the list: the exact number of matching rows in the whole block b.
 * Decided by the end zone map and the (status, flags) counters; a block that straddles an end
 * bound is counted from its end-sorted segment when the stats keep one, else -1 (walk it).
 */
function blockCount(blocks: BlockStats, m: Matcher, b: number): number {
  const e = m.end;
  const lo = blocks.minEnds[b], hi = blocks.maxEnds[b];
  if (hi < e.min || (e.minOpen && hi === e.min) || lo > e.max || (e.maxOpen && lo === e.max)) return 0;
  const n = blocks.countBlock(b, m.combos);
  if (n === 0 || ((lo > e.min || (!e.minOpen && lo === e.min)) && (hi < e.max || (!e.maxOpen && hi === e.max)))) return n;
  if (!blocks.segmented) return -1;
  // the rows whose end passes are the segment positions [a, z); count the smaller side
  const from = blocks.bounds[b], to = blocks.bounds[b + 1];
  const a = e.min === -Infinity ? from : blocks.segLower(from, to, e.min, e.minOpen);
  const z = e.max === Infinity ? to : blocks.segLower(from, to, e.max, !e.maxOpen);
  if (z <= a) return 0;
  const ok = m.comboOk, segCombos = blocks.segCombos;
  let c = 0;
  if (2 * (z - a) <= to - from) {
    for (let q = a; q < z; q++) c += ok[segCombos[q]];
    return c;
  }
  for (let q = from; q < a; q++) c += ok[segCombos[q]];
  for (let q = z; q < to; q++) c += ok[segCombos[q]];
  return n - c;
}

/**
 * Number of matching rows at positions [from, to) of a sorted row list whose block counters
 * are fresh, for a matcher that is simple over that list (every row of it passes the
 * non-simple filters): whole blocks are counted by blockCount; the rest is walked over the
 * list's inline combination bytes (and inline ends when the list has them, else the end
 * column), and the end is only read when the block's zone map straddles an end bound.
 */
function countRange(rows: Int32Array, blocks: BlockStats, m: Matcher, from: number, to: number, combos: Uint8Array,
  inlineEnds: Float64Array | undefined, tableEnds: Float64Array): number {
  const e = m.end, ok = m.comboOk, minEnds = blocks.minEnds, maxEnds = blocks.maxEnds, bounds = blocks.bounds;
  let total = 0;
  let i = from;
  if (i >= to) return 0;
  for (let b = blocks.blockOf(i); i < to; b++) {
    const blockEnd = bounds[b + 1];
    if (blockEnd <= i) continue; // empty block (rows removed)
    const stop = Math.min(blockEnd, to);
    const lo = minEnds[b], hi = maxEnds[b];
    if (hi < e.min || (e.minOpen && hi === e.min) || lo > e.max || (e.maxOpen && lo === e.max)) {
      i = stop; // no row of the block passes the end bounds
      continue;
    }
    if (i === bounds[b] && blockEnd <= to) {
      const n = blockCount(blocks, m, b);
      if (n >= 0) {
        total += n;
        i = blockEnd;
        continue;
      }
    }
    const endsPass = (lo > e.min || (!e.minOpen && lo === e.min)) && (hi < e.max || (!e.maxOpen && hi === e.max));
    if (endsPass) for (; i < stop; i++) total += ok[combos[i]];
    else if (inlineEnds) for (; i < stop; i++) { if (ok[combos[i]] === 1 && endPasses(e, inlineEnds[i])) total++; }
    else for (; i < stop; i++) { if (ok[combos[i]] === 1 && endPasses(e, tableEnds[rows[i]])) total++; }
  }
  return total;
}

/** The categories and all their descendants, without duplicates. */
export function expandCategories(st: CalendarState, ids: readonly number[]): number[] {
  const out: number[] = [];
  for (const id of ids) st.entities.descendantsOf(id, out);
  return out;
}

/** A union of posting lists (of one link kind), each restricted to [lo, hi) positions. */
interface ListDriver {
  /** the matcher kind whose filter membership in these lists implies */
  kind: string;
  /** the row's ids of that kind (may repeat an id) */
  links: (row: number) => ArrayLike<number>;
  /** the same as a column, when there is one (read directly in hot loops) */
  column: readonly (readonly number[])[] | undefined;
  /** the postings the lists come from (their pair lists serve two-list unions) */
  postings: Postings;
  lists: PostingList[];
  /** the id of each list */
  ids: number[];
  los: number[];
  his: number[];
  cost: number;
}

function listDriver(st: CalendarState, kind: string, links: (row: number) => ArrayLike<number>, postings: Postings, ids: ArrayLike<number>, r: StartRange,
  column?: readonly (readonly number[])[]): ListDriver {
  const starts = st.table.starts;
  const d: ListDriver = { kind, links, column, postings, lists: [], ids: [], los: [], his: [], cost: 0 };
  const seen: number[] = [];
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    if (seen.includes(id)) continue;
    seen.push(id);
    const list = postings.get(id);
    if (!list) continue;
    const [lo, hi] = list.range(starts, r.min, r.minOpen, r.max, r.maxOpen);
    if (hi <= lo) continue;
    d.lists.push(list);
    d.ids.push(id);
    d.los.push(lo);
    d.his.push(hi);
    d.cost += hi - lo;
  }
  return d;
}

/**
 * Walks the union of the lists in (start, id) order, each row once, calling visit(row) until
 * full() says the page is complete; then counts the matching rows left over, in list order
 * (no merge needed, a bit set over rows drops rows seen in another list). Returns that count.
 */
function walkUnion(st: CalendarState, d: ListDriver, ok: Uint8Array, visit: (row: number) => void, full: () => boolean, match: ((row: number) => boolean) | undefined): number {
  const k = d.lists.length;
  if (k === 0) return 0;
  const pos = d.los.slice();
  if (k === 1) {
    // a row whose (status, flags) combination fails cannot match: its inline byte says so
    const rows = d.lists[0].rows, combos = d.lists[0].combos, hi = d.his[0];
    let i = pos[0];
    for (; i < hi && !full(); i++) if (ok[combos[i]] === 1) visit(rows[i]);
    if (!match) return 0;
    let rest = 0;
    for (; i < hi; i++) if (ok[combos[i]] === 1 && match(rows[i])) rest++;
    return rest;
  }
  const starts = st.table.starts, ids = st.table.ids;
  // binary min-heap of list indexes keyed by the (start, id) of each list's head
  const heap: number[] = [];
  const head = (j: number) => d.lists[j].rows[pos[j]];
  const less = (a: number, b: number) => {
    const ra = head(a), rb = head(b);
    const sa = starts[ra], sb = starts[rb];
    return sa < sb || (sa === sb && ids[ra] < ids[rb]);
  };
  const down = (i: number) => {
    const n = heap.length;
    for (;;) {
      const l = 2 * i + 1, r = l + 1;
      let m = i;
      if (l < n && less(heap[l], heap[m])) m = l;
      if (r < n && less(heap[r], heap[m])) m = r;
      if (m === i) return;
      const tmp = heap[i]; heap[i] = heap[m]; heap[m] = tmp;
      i = m;
    }
  };
  const advanceTop = () => {
    const j = heap[0];
    pos[j]++;
    if (pos[j] >= d.his[j]) {
      const tail = heap.pop()!;
      if (heap.length === 0) return;
      heap[0] = tail;
    }
    down(0);
  };
  for (let j = 0; j < k; j++) heap.push(j);
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  let last = -1;
  while (heap.length > 0 && !full()) {
    const row = head(heap[0]);
    if (row !== last) {
      visit(row);
      last = row;
    }
    advanceTop();
  }
  // the same row may still head other lists: everything left is now after `last`
  while (heap.length > 0 && head(heap[0]) === last) advanceTop();
  if (heap.length === 0 || !match) return 0;
  const seen = new BitSet(st.table.count);
  let rest = 0;
  for (const j of heap) {
    const rows = d.lists[j].rows;
    for (let i = pos[j], hi = d.his[j]; i < hi; i++) {
      const row = rows[i];
      if (seen.has(row)) continue;
      seen.add(row);
      if (match(row)) rest++;
    }
  }
  return rest;
}

/**
 * Number of matching rows in the union of the driver's lists, for a matcher whose only
 * non-simple filter is the driver's own (membership implies it). Sum of the per-list block
 * counts, minus the rows counted more than once: those carry >= 2 of the query's ids, so they
 * sit in the `multi` sublist of each of those lists. The multi lists are visited smallest
 * first; a row found in c lists takes the correction c - 1 once, in the first visited list
 * that holds it. The largest multi list is never visited: each of its rows that needs a
 * correction also sits in a list visited before it.
 */
function unionCount(st: CalendarState, m: Matcher, d: ListDriver, r: StartRange, test: IdTest): number {
  const t = st.table, starts = t.starts, match = m.match, links = d.links;
  const k = d.lists.length;
  let total = 0;
  for (let j = 0; j < k; j++) {
    const list = d.lists[j];
    list.blocks.refresh(list.rows, list.count, t, list.combos);
    total += countRange(list.rows, list.blocks, m, d.los[j], d.his[j], list.combos, undefined, t.ends);
  }
  if (k < 2) return total;
  if (k === 2) {
    // two lists: minus the rows in both, which is the pair list of the two ids, counted alike
    const a = d.ids[0], b = d.ids[1];
    const pair = d.postings.get(Math.min(a, b))?.pairs?.get(Math.max(a, b));
    if (!pair || pair.count === 0) return total;
    pair.blocks.refresh(pair.rows, pair.count, t, pair.combos);
    const [lo, hi] = pair.range(starts, r.min, r.minOpen, r.max, r.maxOpen);
    return total - countRange(pair.rows, pair.blocks, m, lo, hi, pair.combos, undefined, t.ends);
  }
  const multiCount = (j: number) => d.lists[j].multi?.count ?? 0;
  const order = Array.from({ length: k }, (_, j) => j).sort((a, b) => multiCount(a) - multiCount(b));
  /** id → its list's place in `order` (only needed when more than one list is visited) */
  const rank = new Map<number, number>();
  for (let o = 0; o < k; o++) rank.set(d.ids[order[o]], o);
  const single = k === 2, column = d.column;
  for (let o = 0; o < k - 1; o++) {
    const multi = d.lists[order[o]].multi;
    if (!multi || multi.count === 0) continue;
    const [lo, hi] = multi.range(starts, r.min, r.minOpen, r.max, r.maxOpen);
    const rows = multi.rows;
    for (let i = lo; i < hi; i++) {
      const row = rows[i];
      const ids = column ? column[row] : links(row);
      let c = 0, first = k;
      for (let a = 0; a < ids.length; a++) {
        const id = ids[a];
        if (!test(id)) continue;
        let dup = false;
        for (let z = 0; z < a; z++) if (ids[z] === id) { dup = true; break; }
        if (dup) continue;
        c++;
        if (single) continue; // the one visited list is first for every row in it
        const at = rank.get(id);
        if (at !== undefined && at < first) first = at;
      }
      if (c > 1 && (single || first === o) && match(row)) total -= c - 1;
    }
  }
  return total;
}

export function runQuery(st: CalendarState, q: EventQuery): QueryResult {
  const matcher = buildMatcher(st, q);
  const match = matcher.match;
  const offset = Math.max(0, q.offset), end = offset + Math.max(0, q.limit);
  const page: number[] = [];
  let total = 0;
  const visit = (row: number) => {
    if (!match(row)) return;
    if (total >= offset && total < end) page.push(row);
    total++;
  };

  if (q.includeIds !== undefined) {
    for (const row of includeRows(st, q.includeIds)) visit(row);
    return { rows: page, total };
  }

  const r = startRangeOf(q, true);
  const [lo, hi] = st.main.range(r.min, r.minOpen, r.max, r.maxOpen);
  let best: ListDriver | undefined;
  let bestCost = hi - lo;
  const t = st.table;
  const parentLinks = (row: number) => [t.parentIds[row]];
  const venueLinks = (row: number) => t.venueList(row);
  // the ids each candidate driver covers, for the overlap correction of unionCount
  let driverIds: ArrayLike<number> = [];
  const consider = (d: ListDriver, ids: ArrayLike<number>) => {
    if (d.cost < bestCost) {
      best = d;
      bestCost = d.cost;
      driverIds = ids;
    }
  };
  const candidate = (kind: string, links: (row: number) => ArrayLike<number>, postings: Postings, ids: ArrayLike<number>, column?: readonly (readonly number[])[]) =>
    consider(listDriver(st, kind, links, postings, ids, r, column), ids);
  if (q.parentId !== undefined) candidate('parent', parentLinks, st.parentPostings, [q.parentId]);
  if (q.categoryIds !== undefined) {
    const cats = q.categoryIds;
    // one category: its closure list holds exactly the rows of it and its descendants
    if (cats.length > 0 && cats.every((id) => id === cats[0])) candidate('category', (row) => t.categoryIds[row], st.ensureClosure(), [cats[0]]);
    else candidate('category', (row) => t.categoryIds[row], st.categoryPostings, expandCategories(st, cats), t.categoryIds);
  }
  if (q.tagIds !== undefined) candidate('tag', (row) => t.tagIds[row], st.tagPostings, q.tagIds, t.tagIds);
  if (q.venueIds !== undefined) candidate('venue', venueLinks, st.venuePostings, q.venueIds);
  if (q.organizerIds !== undefined) candidate('organizer', (row) => t.organizerIds[row], st.organizerPostings, q.organizerIds, t.organizerIds);
  if (q.geo?.kind === 'radius') candidate('radius', venueLinks, st.venuePostings, st.geo.withinRadius(q.geo.lat, q.geo.lng, q.geo.radiusKm));

  const bySearch = q.search ? searchQuery(st, q, matcher, bestCost) : undefined; // trigram candidates, when fewer
  if (bySearch) return bySearch;

  if (best) {
    const d: ListDriver = best;
    if (matcher.only === d.kind) {
      // page by walking the union, count from the lists' block counters
      walkUnion(st, d, matcher.comboOk, visit, () => total >= end, undefined);
      total = unionCount(st, matcher, d, r, d.lists.length > 2 ? makeIdTest(driverIds) : () => false);
    } else {
      const rest = walkUnion(st, d, matcher.comboOk, visit, () => total >= end, match); // visit() moves total: add after
      total += rest;
    }
  } else {
    // walk in order until the page is full, then only count
    const main = st.main, rows = main.rows, combos = main.combos, ok = matcher.comboOk;
    let i = lo;
    if (matcher.simple) {
      // every filter reads the inline start/end/combination columns; whole blocks before the
      // page are counted, not walked, and blocks without a match are skipped
      const blocks = st.blocks, ends = main.ends, e = matcher.end;
      blocks.refresh(rows, main.count, st.table);
      for (let b = i < hi ? blocks.blockOf(i) : 0; i < hi && total < end; b++) {
        const stop = Math.min(blocks.bounds[b + 1], hi);
        if (stop <= i) continue;
        if (i === blocks.bounds[b] && stop === blocks.bounds[b + 1]) {
          const n = blockCount(blocks, matcher, b);
          if (n === 0 || (n > 0 && total + n <= offset)) {
            total += n;
            i = stop;
            continue;
          }
        }
        for (; i < stop && total < end; i++) {
          if (ok[combos[i]] === 1 && endPasses(e, ends[i])) {
            if (total >= offset) page.push(rows[i]);
            total++;
          }
        }
      }
      total += countRange(rows, blocks, matcher, i, hi, combos, ends, st.table.ends);
    } else {
      for (; i < hi && total < end; i++) if (ok[combos[i]] === 1) visit(rows[i]);
      for (; i < hi; i++) if (ok[combos[i]] === 1 && match(rows[i])) total++;
    }
  }
  return { rows: page, total };
}

/** Distinct event rows of the include list, in (publication date, id) order. */
function includeRows(st: CalendarState, includeIds: readonly number[]): number[] {
  const t = st.table;
  const rows: number[] = [];
  for (const id of includeIds) {
    const row = st.ids.eventRow(id);
    if (row >= 0) rows.push(row);
  }
  const dates = t.date.ms, ids = t.ids;
  const key = (row: number) => {
    const v = dates[row];
    return v === v ? v : -Infinity;
  };
  rows.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : ids[a] - ids[b]));
  let w = 0;
  for (let i = 0; i < rows.length; i++) if (i === 0 || rows[i] !== rows[i - 1]) rows[w++] = rows[i];
  rows.length = w;
  return rows;
}
