// The walks and counts a query's plan (query.ts) runs: a sorted list's matching rows counted
// block by block from the block counters and end zone maps (blockCount, countRange); a union of
// posting lists walked in (start, id) order into the page (walkUnion, over a heap of list heads)
// and counted without walking it (unionCount, minus the rows counted more than once).

import { BitSet } from './bitset.ts';
import { SUPER_SHIFT, type BlockStats } from './block-stats.ts';
import type { EventTable, LinkColumn } from './event-table.ts';
import type { PostingList } from './posting-list.ts';
import type { CalendarState, Postings } from './state.ts';
import { endPasses, endsOutside, endsWithin, makeIdTest, type Matcher, type StartRange } from './matcher.ts';

/**
 * For a matcher simple over the list: the exact number of matching rows in the whole block b.
 * Decided by the end zone map and the (status, flags) counters; a block that straddles an end
 * bound is counted from its end-sorted segment when the stats keep one, else -1 (walk it).
 */
export function blockCount(blocks: BlockStats, m: Matcher, b: number): number {
  const e = m.end;
  const lo = blocks.minEnds[b],
    hi = blocks.maxEnds[b];
  if (endsOutside(lo, hi, e)) return 0;
  const n = blocks.countBlock(b, m.combos);
  if (n === 0 || endsWithin(lo, hi, e)) return n;
  if (!blocks.segmented) return -1;
  // the rows whose end passes are the segment positions [a, z); count the smaller side
  const from = blocks.segBase(b),
    to = blocks.segEnd(b);
  const a = e.min === -Infinity ? from : blocks.segLower(from, to, e.min, e.minOpen);
  const z = e.max === Infinity ? to : blocks.segLower(from, to, e.max, !e.maxOpen);
  if (z <= a) return 0;
  const ok = m.comboOk,
    segCombos = blocks.segCombos;
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
export function countRange(
  rows: Int32Array,
  blocks: BlockStats,
  m: Matcher,
  from: number,
  to: number,
  combos: Uint8Array,
  inlineEnds: Float64Array | undefined,
  tableEnds: Float64Array,
): number {
  const e = m.end,
    ok = m.comboOk,
    minEnds = blocks.minEnds,
    maxEnds = blocks.maxEnds,
    bounds = blocks.bounds;
  let total = 0;
  let i = from;
  if (i >= to) return 0;
  const nBlocks = blocks.blocks,
    superSize = 1 << SUPER_SHIFT;
  for (let b = blocks.blockOf(i); i < to; b++) {
    const blockEnd = bounds[b + 1];
    if (blockEnd <= i) continue; // empty block (rows removed)
    if ((b & (superSize - 1)) === 0 && i === bounds[b]) {
      // a whole superblock in the range, decided by its zone map: add or skip it at once
      const last = Math.min(b + superSize, nBlocks);
      if (bounds[last] <= to) {
        const sb = b >> SUPER_SHIFT,
          lo = blocks.superMinEnds[sb],
          hi = blocks.superMaxEnds[sb];
        const none = endsOutside(lo, hi, e);
        if (none || endsWithin(lo, hi, e)) {
          if (!none) total += blocks.countSuper(sb, m.combos);
          i = bounds[last];
          b = last - 1;
          continue;
        }
      }
    }
    const stop = Math.min(blockEnd, to);
    const lo = minEnds[b],
      hi = maxEnds[b];
    if (endsOutside(lo, hi, e)) {
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
    const endsPass = endsWithin(lo, hi, e);
    if (endsPass && 2 * (stop - i) > blockEnd - bounds[b]) {
      // most of the block: its counters' count less the rows outside [i, stop), the smaller side
      // (a window's first block of each of a radius's hundreds of lists)
      let outside = 0;
      for (let q = bounds[b]; q < i; q++) outside += ok[combos[q]];
      for (let q = stop; q < blockEnd; q++) outside += ok[combos[q]];
      total += blocks.countBlock(b, m.combos) - outside;
      i = stop;
    } else if (endsPass) for (; i < stop; i++) total += ok[combos[i]];
    else if (inlineEnds)
      for (; i < stop; i++) {
        if (ok[combos[i]] === 1 && endPasses(e, inlineEnds[i])) total++;
      }
    else
      for (; i < stop; i++) {
        if (ok[combos[i]] === 1 && endPasses(e, tableEnds[rows[i]])) total++;
      }
  }
  return total;
}

/** A union of posting lists (of one link kind), each restricted to [lo, hi) positions. */
export interface ListDriver {
  /** the matcher kind whose filter membership in these lists implies */
  kind: string;
  /** the row's ids of that kind (may repeat an id) */
  links: (t: EventTable, row: number) => ArrayLike<number>;
  /** the same as a column, when there is one (read directly in hot loops) */
  column: LinkColumn | undefined;
  /** the postings the lists come from (their pair lists serve two-list unions) */
  postings: Postings;
  lists: PostingList[];
  /** the id of each list but the last `grouped` */
  ids: number[];
  /** the last lists are venue groups' (venue-groups.ts): no row of theirs is in another list */
  grouped: number;
  los: number[];
  his: number[];
  cost: number;
}

/** The page being collected: every match is counted, those in [offset, end) kept. */
export class Pager {
  readonly rows: number[] = [];
  total = 0;
  constructor(
    readonly match: (row: number) => boolean,
    readonly offset: number,
    readonly end: number,
  ) {}

  visit(row: number): void {
    if (!this.match(row)) return;
    if (this.total >= this.offset && this.total < this.end) this.rows.push(row);
    this.total++;
  }

  get full(): boolean {
    return this.total >= this.end;
  }
}

/** (start, id) order of the heads of two lists of a union walk. */
function headLess(d: ListDriver, pos: number[], starts: Float64Array, ids: Int32Array, a: number, b: number): boolean {
  const ra = d.lists[a].rows[pos[a]],
    rb = d.lists[b].rows[pos[b]];
  const sa = starts[ra],
    sb = starts[rb];
  return sa < sb || (sa === sb && ids[ra] < ids[rb]);
}

/** Sift heap[i] down the binary min-heap of list indexes keyed by their heads. */
function heapDown(
  heap: number[],
  i: number,
  d: ListDriver,
  pos: number[],
  starts: Float64Array,
  ids: Int32Array,
): void {
  const n = heap.length;
  for (;;) {
    const l = 2 * i + 1,
      r = l + 1;
    let m = i;
    if (l < n && headLess(d, pos, starts, ids, heap[l], heap[m])) m = l;
    if (r < n && headLess(d, pos, starts, ids, heap[r], heap[m])) m = r;
    if (m === i) return;
    const tmp = heap[i];
    heap[i] = heap[m];
    heap[m] = tmp;
    i = m;
  }
}

/** Advance the list at the top of the heap by one position (dropping it when exhausted). */
function heapAdvance(heap: number[], d: ListDriver, pos: number[], starts: Float64Array, ids: Int32Array): void {
  const j = heap[0];
  pos[j]++;
  if (pos[j] >= d.his[j]) {
    const tail = heap.pop()!;
    if (heap.length === 0) return;
    heap[0] = tail;
  }
  heapDown(heap, 0, d, pos, starts, ids);
}

/**
 * Walks the union of the lists in (start, id) order, each row once, into the pager until it
 * is full; then counts the matching rows left over, in list order (no merge needed, a bit set
 * over rows drops rows seen in another list). Returns that count (0 when match is undefined).
 */
export function walkUnion(
  st: CalendarState,
  d: ListDriver,
  ok: Uint8Array,
  pager: Pager,
  match: ((row: number) => boolean) | undefined,
): number {
  const k = d.lists.length;
  if (k === 0) return 0;
  const pos = d.los.slice();
  if (k === 1) {
    // a row whose (status, flags) combination fails cannot match: its inline byte says so
    const rows = d.lists[0].rows,
      combos = d.lists[0].combos,
      hi = d.his[0];
    let i = pos[0];
    for (; i < hi && !pager.full; i++) if (ok[combos[i]] === 1) pager.visit(rows[i]);
    if (!match) return 0;
    let rest = 0;
    for (; i < hi; i++) if (ok[combos[i]] === 1 && match(rows[i])) rest++;
    return rest;
  }
  const starts = st.table.starts,
    ids = st.table.ids;
  const heap: number[] = [];
  for (let j = 0; j < k; j++) heap.push(j);
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) heapDown(heap, i, d, pos, starts, ids);
  let last = -1;
  while (heap.length > 0 && !pager.full) {
    const j = heap[0];
    const row = d.lists[j].rows[pos[j]];
    if (row !== last) {
      if (ok[d.lists[j].combos[pos[j]]] === 1) pager.visit(row);
      last = row;
    }
    heapAdvance(heap, d, pos, starts, ids);
  }
  // the same row may still head other lists: everything left is now after `last`
  while (heap.length > 0 && d.lists[heap[0]].rows[pos[heap[0]]] === last) heapAdvance(heap, d, pos, starts, ids);
  if (heap.length === 0 || !match) return 0;
  const seen = new BitSet(st.table.count);
  let rest = 0;
  for (const j of heap) {
    const rows = d.lists[j].rows,
      combos = d.lists[j].combos;
    for (let i = pos[j], hi = d.his[j]; i < hi; i++) {
      const row = rows[i];
      if (seen.has(row)) continue;
      seen.add(row);
      if (ok[combos[i]] === 1 && match(row)) rest++;
    }
  }
  return rest;
}

/**
 * Number of matching rows in the union of the driver's lists, for a matcher whose only
 * non-simple filter is the driver's own (membership implies it). Sum of the per-list block
 * counts, minus the rows counted more than once. Two lists: minus the count of their pair
 * list (the rows carrying both ids), counted the same way. More: the rows counted more than
 * once carry >= 2 of the query's ids, so they sit in the `multi` sublist of each of those
 * lists. The multi lists are visited smallest first; a row found in c lists takes the
 * correction c - 1 once, in the first visited list that holds it. The largest multi list is
 * never visited: each of its rows that needs a correction also sits in a list visited before it.
 */
export function unionCount(
  st: CalendarState,
  m: Matcher,
  d: ListDriver,
  r: StartRange,
  queryIds: ArrayLike<number>,
): number {
  const t = st.table,
    starts = t.starts,
    match = m.match;
  let total = 0;
  for (let j = 0; j < d.lists.length; j++) {
    const list = d.lists[j];
    list.blocks.refresh(list.rows, list.count, t, list.combos);
    total += countRange(list.rows, list.blocks, m, d.los[j], d.his[j], list.combos, undefined, t.ends);
  }
  // rows counted more than once: only in the lists of ids (a group's rows are in no other list)
  const k = d.lists.length - d.grouped;
  if (k < 2) return total;
  if (k === 2) {
    // two lists: minus the rows in both, which is the pair list of the two ids, counted alike
    const pair = st.pairList(d.postings, d.ids[0], d.ids[1]);
    if (!pair || pair.count === 0) return total;
    pair.blocks.refresh(pair.rows, pair.count, t, pair.combos);
    const [lo, hi] = pair.range(starts, r.min, r.minOpen, r.max, r.maxOpen);
    return total - countRange(pair.rows, pair.blocks, m, lo, hi, pair.combos, undefined, t.ends);
  }
  const test = makeIdTest(queryIds);
  const order = Array.from({ length: k }, (_, j) => j).sort(
    (a, b) => (d.lists[a].multi?.count ?? 0) - (d.lists[b].multi?.count ?? 0),
  );
  /** id → its list's place in `order` */
  const rank = new Map<number, number>();
  for (let o = 0; o < k; o++) rank.set(d.ids[order[o]], o);
  const column = d.column;
  for (let o = 0; o < k - 1; o++) {
    const multi = d.lists[order[o]].multi;
    if (!multi || multi.count === 0) continue;
    const [lo, hi] = multi.range(starts, r.min, r.minOpen, r.max, r.maxOpen);
    const rows = multi.rows,
      combos = multi.combos,
      ok = m.comboOk;
    for (let i = lo; i < hi; i++) {
      if (ok[combos[i]] === 0) continue;
      const row = rows[i];
      // the row's ids are ids[at, at + len): a range of the pool's values, or the list links gives
      let ids: ArrayLike<number>,
        at = 0,
        len: number;
      if (column) {
        const pool = column.pool,
          list = column.lists[row];
        ids = pool.values;
        at = pool.offsets[list];
        len = pool.offsets[list + 1] - at;
      } else {
        ids = d.links(t, row);
        len = ids.length;
      }
      let c = 0,
        first = k;
      for (let a = at; a < at + len; a++) {
        const id = ids[a];
        if (!test(id)) continue;
        let dup = false;
        for (let z = at; z < a; z++)
          if (ids[z] === id) {
            dup = true;
            break;
          }
        if (dup) continue;
        c++;
        const place = rank.get(id);
        if (place !== undefined && place < first) first = place;
      }
      if (c > 1 && first === o && match(row)) total -= c - 1;
    }
  }
  return total;
}
