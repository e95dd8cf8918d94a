// EventQuery → { rows of the page, total }. Plan: pick the driver with the smallest known
// count (the main index's start range, a union of posting lists restricted to the same start
// range, or the include list); walk it in result order; check every predicate against the
// columns; count everything, keep only [offset, offset + limit) (arquero's scan). No sort of
// the result set, no materialised match list.
// The walks and counts are in query-scan.ts.

import type { EventTable, LinkColumn } from './event-table.ts';
import type { PostingList } from './posting-list.ts';
import type { CalendarState, Postings } from './state.ts';
import type { EventQuery, QueryResult } from './types.ts';
import { searchQuery } from './search-walk.ts';
import { buildMatcher, endPasses, expandCategories, startRangeOf, type StartRange } from './matcher.ts';
import { Pager, blockCount, countRange, unionCount, walkUnion, type ListDriver } from './query-scan.ts';

const parentLinks = (t: EventTable, row: number): ArrayLike<number> => [t.parentIds[row]];
const categoryLinks = (t: EventTable, row: number): ArrayLike<number> => t.categoryIds.get(row);
const tagLinks = (t: EventTable, row: number): ArrayLike<number> => t.tagIds.get(row);
const venueLinks = (t: EventTable, row: number): ArrayLike<number> => t.venueList(row);
const organizerLinks = (t: EventTable, row: number): ArrayLike<number> => t.organizerIds.get(row);

function listDriver(
  st: CalendarState,
  kind: string,
  links: (t: EventTable, row: number) => ArrayLike<number>,
  postings: Postings,
  ids: ArrayLike<number>,
  r: StartRange,
  column?: LinkColumn,
): ListDriver {
  const starts = st.table.starts;
  const d: ListDriver = { kind, links, column, postings, lists: [], ids: [], los: [], his: [], cost: 0, grouped: 0 };
  // distinct ids (a radius holds hundreds of venues: a Set, not a scan of the ids so far)
  const seen = new Set<number>();
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    if (seen.has(id)) continue;
    seen.add(id);
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

/** Group lists (venue-groups.ts) joined to a radius's driver, after its venue lists: their rows
 *  sit in no other list of the union (unionCount corrects the venue lists only). */
function addGroupLists(d: ListDriver, lists: PostingList[], starts: Float64Array, r: StartRange): void {
  for (const list of lists) {
    const [lo, hi] = list.range(starts, r.min, r.minOpen, r.max, r.maxOpen);
    if (hi <= lo) continue;
    d.lists.push(list);
    d.los.push(lo);
    d.his.push(hi);
    d.cost += hi - lo;
    d.grouped++;
  }
}

const NO_IDS: readonly number[] = [];

export function runQuery(st: CalendarState, q: EventQuery): QueryResult {
  const matcher = buildMatcher(st, q);
  const match = matcher.match;
  const offset = Math.max(0, q.offset),
    end = offset + Math.max(0, q.limit);
  const pager = new Pager(match, offset, end);

  if (q.includeIds !== undefined) {
    for (const row of includeRows(st, q.includeIds)) pager.visit(row);
    return { rows: pager.rows, total: pager.total };
  }

  const r = startRangeOf(q, true);
  const [lo, hi] = st.main.range(r.min, r.minOpen, r.max, r.maxOpen);
  const t = st.table;
  // the cheapest driver: the main index's start range, or a union of posting lists; driverIds
  // = the ids the chosen union covers, for the overlap correction of unionCount
  let best: ListDriver | undefined;
  let bestCost = hi - lo;
  let driverIds: ArrayLike<number> = NO_IDS;
  for (let c = 0; c < 6; c++) {
    let d: ListDriver | undefined,
      ids: ArrayLike<number> = NO_IDS;
    if (c === 0 && q.parentId !== undefined)
      d = listDriver(st, 'parent', parentLinks, st.parentPostings, (ids = [q.parentId]), r);
    else if (c === 1 && q.categoryIds !== undefined) {
      const cats = q.categoryIds;
      // one category: its closure list holds exactly the rows of it and its descendants
      if (cats.length > 0 && cats.every((id) => id === cats[0]))
        d = listDriver(st, 'category', categoryLinks, st.ensureClosure(), (ids = [cats[0]]), r);
      else
        d = listDriver(
          st,
          'category',
          categoryLinks,
          st.categoryPostings,
          (ids = expandCategories(st, cats)),
          r,
          t.categoryIds,
        );
    } else if (c === 2 && q.tagIds !== undefined)
      d = listDriver(st, 'tag', tagLinks, st.tagPostings, (ids = q.tagIds), r, t.tagIds);
    else if (c === 3 && q.venueIds !== undefined)
      d = listDriver(st, 'venue', venueLinks, st.venuePostings, (ids = q.venueIds), r);
    else if (c === 4 && q.organizerIds !== undefined)
      d = listDriver(st, 'organizer', organizerLinks, st.organizerPostings, (ids = q.organizerIds), r, t.organizerIds);
    else if (c === 5 && q.geo?.kind === 'radius') {
      // the matcher's radius test found them (one Flatbush search a query)
      if (matcher.radiusVenues === undefined)
        throw new Error('query: expected the radius venues of the matcher, got none');
      ids = matcher.radiusVenues;
      // groups of nearby venues all within the radius as one list each, the other venues' own
      const cover = st.venueGroups.cover(st, ids);
      d = listDriver(st, 'radius', venueLinks, st.venuePostings, cover ? cover.venues : ids, r);
      if (cover) addGroupLists(d, cover.lists, st.table.starts, r);
    }
    if (d && d.cost < bestCost) {
      best = d;
      bestCost = d.cost;
      driverIds = ids;
    }
  }

  const bySearch = q.search ? searchQuery(st, q, matcher, bestCost) : undefined; // the word index's candidates, when fewer
  if (bySearch) return bySearch;

  if (best) {
    const d: ListDriver = best;
    if (matcher.only === d.kind) {
      // page by walking the union, count from the lists' block counters
      walkUnion(st, d, matcher.comboOk, pager, undefined);
      return { rows: pager.rows, total: unionCount(st, matcher, d, r, driverIds) };
    }
    const rest = walkUnion(st, d, matcher.comboOk, pager, match);
    return { rows: pager.rows, total: pager.total + rest };
  }
  // walk in order until the page is full, then only count
  const main = st.main,
    rows = main.rows,
    combos = main.combos,
    ok = matcher.comboOk;
  let i = lo;
  if (!matcher.simple) {
    for (; i < hi && !pager.full; i++) if (ok[combos[i]] === 1) pager.visit(rows[i]);
    let rest = 0;
    for (; i < hi; i++) if (ok[combos[i]] === 1 && match(rows[i])) rest++;
    return { rows: pager.rows, total: pager.total + rest };
  }
  // every filter reads the inline start/end/combination columns; whole blocks before the page
  // are counted, not walked, and blocks without a match are skipped
  const blocks = st.mainBlocks(),
    ends = main.ends,
    e = matcher.end,
    page = pager.rows;
  let total = 0;
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
  return { rows: page, total };
}

/** Distinct event rows of the include list, in (publication date, id) order. */
function includeRows(st: CalendarState, includeIds: readonly number[]): number[] {
  const t = st.table,
    dates = t.date,
    ids = t.ids;
  // insertion into order as the rows come (the list is the caller's, a few dozen ids):
  // NaN dates (strings that are not 'Y-m-d H:i:s') first; a row given twice is kept once
  const rows: number[] = [],
    keys: number[] = [];
  for (let k = 0; k < includeIds.length; k++) {
    const row = st.ids.eventRow(includeIds[k]);
    if (row < 0) continue;
    const v = dates.at(row),
      key = v === v ? v : -Infinity,
      id = ids[row];
    let i = rows.length;
    while (i > 0 && (keys[i - 1] > key || (keys[i - 1] === key && ids[rows[i - 1]] > id))) i--;
    if (i > 0 && rows[i - 1] === row) continue;
    rows.splice(i, 0, row);
    keys.splice(i, 0, key);
  }
  return rows;
}
