// Far occurrences: the instances of a series past its occurrence rows. Rows reach the rolling
// horizon (series.ts); a list whose window goes further expands, for that window only, the series
// that match its filters, and merges those instances with the rows in start order, counted and
// paged exactly. Nothing of it is stored: a GET of a far id (far-ids.ts) expands that one day of
// its series, and a write to a far occurrence makes it a row (an exception or an exclusion) with
// an allocated id, which its far id keeps naming.
//
// What a list holds at once: the far index (one small entry per series that has instances past
// its rows; rebuilt after a series write, and only for a list that reaches past the rows), one
// series' expansion at a time, and the first offset + per_page far occurrences of the window in
// a bounded heap. A list whose window ends before every series' first far instance costs one
// comparison more than before.
//
// A list without an upper bound on its starts (only starts_after/ends_after) pages the same way,
// lazily: each series is expanded only as far as the page needs, and its total counts what starts
// within HORIZON_DAYS of the list's lower bound (the list's events are endless when an unbounded
// series matches). A list by `include` takes far ids as it takes post ids.
//
// far-index.ts finds the series with far instances and expands them; far-occurrence.ts answers
// one far occurrence (its id, its representation, writes to it).

import type { Core } from '../api/context.ts';
import { nowIn } from '../api/wordpress/dates.ts';
import { type StartRange, endPasses, startRangeOf } from '../engine/matcher.ts';
import type { EventQuery, QueryResult } from '../engine/types.ts';
import { type FarIndex, type FarItem, farInstances, indexFor } from './far-index.ts';
import { isFarId } from './far-ids.ts';
import { resolveFarTarget } from './far-occurrence.ts';
import { HORIZON_DAYS } from './series.ts';
import { DAY_MS } from './set.ts';

export { isFarId } from './far-ids.ts';
export type { FarItem } from './far-index.ts';
export {
  farItemRecord,
  farObject,
  farSingleObject,
  farUpdateTarget,
  resolveFarId,
  resolveFarSlug,
  stageFarDelete,
} from './far-occurrence.ts';

// ---- lists --------------------------------------------------------------------------------

/** A list's page: rows, and far instances as entries -1 - k of `rows` (k indexing `far`). */
export interface ListResult extends QueryResult {
  far?: FarItem[];
}

function startPasses(r: StartRange, v: number): boolean {
  return !(v < r.min || (r.minOpen && v === r.min) || v > r.max || (r.maxOpen && v === r.max));
}

function endRangeOf(q: EventQuery): StartRange {
  const r = startRangeOf(
    { statusMask: 0, offset: 0, limit: 0, startGte: q.endGte, startGt: q.endGt, startLt: q.endLt, startLte: q.endLte },
    false,
  );
  return r;
}

/** Keeps the `k` smallest items by (start, id): a max-heap. */
class SmallestK {
  readonly items: FarItem[] = [];
  constructor(private readonly k: number) {}

  private static less(a: FarItem, b: FarItem): boolean {
    return a.start < b.start || (a.start === b.start && a.id < b.id);
  }

  /** whether `x` would be kept: the heap is not full or `x` is smaller than its largest */
  takes(x: FarItem): boolean {
    return this.items.length < this.k || SmallestK.less(x, this.items[0]);
  }

  offer(x: FarItem): void {
    const h = this.items;
    if (this.k <= 0) return;
    if (h.length < this.k) {
      h.push(x);
      for (let i = h.length - 1; i > 0; ) {
        const p = (i - 1) >> 1;
        if (!SmallestK.less(h[p], h[i])) break;
        [h[p], h[i]] = [h[i], h[p]];
        i = p;
      }
      return;
    }
    if (!SmallestK.less(x, h[0])) return;
    h[0] = x;
    for (let i = 0; ; ) {
      const l = 2 * i + 1,
        r = l + 1;
      let m = i;
      if (l < h.length && SmallestK.less(h[m], h[l])) m = l;
      if (r < h.length && SmallestK.less(h[m], h[r])) m = r;
      if (m === i) break;
      [h[m], h[i]] = [h[i], h[m]];
      i = m;
    }
  }

  sorted(): FarItem[] {
    return this.items.slice().sort((a, b) => (SmallestK.less(a, b) ? -1 : SmallestK.less(b, a) ? 1 : 0));
  }
}

/**
 * Positions [offset, end) of rows (in the engine's order) merged with far items (sorted), by
 * `before(item, row)`; `more`: whether anything follows `end`. `rows` may begin later than the
 * first row: then `pos` is the merged position of rows[0] and `skip` the far items before it.
 */
function mergePage(
  rows: readonly number[],
  far: readonly FarItem[],
  offset: number,
  end: number,
  before: (f: FarItem, row: number) => boolean,
  pos = 0,
  skip = 0,
): { rows: number[]; far: FarItem[]; more: boolean } {
  const out: number[] = [],
    items: FarItem[] = [];
  let i = 0,
    j = skip;
  for (; pos < end && (i < rows.length || j < far.length); pos++) {
    const takeFar = j < far.length && (i >= rows.length || before(far[j], rows[i]));
    if (pos >= offset) {
      if (takeFar) {
        items.push(far[j]);
        out.push(-items.length);
      } else out.push(rows[i]);
    }
    if (takeFar) j++;
    else i++;
  }
  return { rows: out, far: items, more: i < rows.length || j < far.length };
}

/** Whether the series (its id and row) may have instances in a list of `q` (its filters but
 *  dates and include, `post_parent`). */
function seriesTest(core: Core, q: EventQuery): (id: number, row: number) => boolean {
  const match = core.engine.rowFilter(q);
  return (id, row) => (q.parentId === undefined || id === q.parentId) && match(row);
}

/** Per series of a far index (by place), its count of far instances in each of the last few
 *  windows lists asked for (-1: not counted yet), so that a list paged through, or asked again,
 *  expands each series only as far as its page: a count needs every instance of the window, a
 *  page only the first few of each series. Gone with the index (a series write). */
const windowCache = new WeakMap<FarIndex, Array<{ key: string; counts: Int32Array }>>();
const WINDOWS_KEPT = 16;

function windowCounts(ix: FarIndex, bounds: unknown[]): Int32Array {
  const key = JSON.stringify(bounds, (_k, v) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v));
  let list = windowCache.get(ix);
  if (list === undefined) windowCache.set(ix, (list = []));
  const at = list.findIndex((w) => w.key === key);
  if (at >= 0) {
    const w = list[at];
    if (at > 0) {
      list.splice(at, 1);
      list.unshift(w);
    }
    return w.counts;
  }
  const counts = new Int32Array(ix.series.length).fill(-1);
  list.unshift({ key, counts });
  if (list.length > WINDOWS_KEPT) list.pop();
  return counts;
}

/**
 * The engine's answer to `q`, with the far instances of the window merged in (start order,
 * counted in `total`); a list by `include` with the far occurrences it names.
 */
export function listEvents(core: Core, q: EventQuery): ListResult {
  const engine = core.engine;
  const t = engine.eventTable;
  if (t.recur.size === 0) return engine.query(q);
  if (q.includeIds !== undefined) return includeList(core, q);
  const window = startRangeOf(q, true);
  if (window.max === Number.POSITIVE_INFINITY) return openList(core, q, window);
  const ix = indexFor(core, window.max);
  if (ix === undefined) return engine.query(q);

  const starts = startRangeOf(q, false),
    ends = endRangeOf(q);
  const wanted = seriesTest(core, q);
  const k = Math.max(0, q.offset) + Math.max(0, q.limit);
  const heap = new SmallestK(k);
  const counts = windowCounts(ix, [window, starts, ends]);
  let farTotal = 0;
  for (let i = 0; i < ix.series.length; i++) {
    const fs = ix.series[i];
    if (fs.next > window.max || !wanted(fs.id, fs.row)) continue;
    const known = counts[i];
    if (known === 0) continue;
    // an end bound bounds the start too: start = end - duration
    const lo = Math.max(window.min, ends.min - fs.duration);
    let n = 0;
    for (const item of farInstances(fs, lo, window.max)) {
      if (!startPasses(starts, item.start) || !endPasses(ends, item.start + fs.duration)) continue;
      n++;
      if (heap.takes(item)) heap.offer(item);
      // counted before: the later instances, in start order, are not on the page either
      else if (known > 0) break;
    }
    if (known < 0) counts[i] = n;
    farTotal += known < 0 ? n : known;
  }
  if (farTotal === 0) return engine.query(q);

  const { base, page } = pageOf(core, q, heap.sorted(), Math.max(0, q.offset), k);
  return { rows: page.rows, total: base.total + farTotal, far: page.far };
}

/**
 * The page [offset, end) of the engine's rows for `q` merged with the far items `far` (sorted,
 * every one that may come before `end`), and the engine's answer it read (rows to `readTo`): at most far.length far
 * items come before the page, so its rows are among positions [offset - far.length, end), and
 * only those are read (not every row before the page).
 */
function pageOf(
  core: Core,
  q: EventQuery,
  far: readonly FarItem[],
  offset: number,
  end: number,
  readTo = end,
): { base: QueryResult; page: ReturnType<typeof mergePage> } {
  const engine = core.engine;
  const before = byStart(core);
  const from = Math.max(0, offset - far.length);
  if (from > 0) {
    const base = engine.query({ ...q, offset: from, limit: readTo - from });
    if (base.rows.length > 0) {
      // the merged position of the row at `from`: `from` rows and the far items before it
      let c = 0;
      while (c < far.length && before(far[c], base.rows[0])) c++;
      return { base, page: mergePage(base.rows, far, offset, end, before, from + c, c) };
    }
  }
  const base = engine.query({ ...q, offset: 0, limit: readTo });
  return { base, page: mergePage(base.rows, far, offset, end, before) };
}

/** A far item before a row in start order (then id). */
function byStart(core: Core): (f: FarItem, row: number) => boolean {
  const t = core.engine.eventTable,
    starts = t.starts,
    ids = t.ids;
  return (f, row) => f.start < starts[row] || (f.start === starts[row] && f.id < ids[row]);
}

/**
 * A list without an upper bound on its starts: its page exactly (rows and far instances in
 * start order, each series expanded only as far as the page needs); its total counts what starts
 * up to HORIZON_DAYS after the list's lower bound (or after now, when later), every event when
 * none starts later, and on a page past those at least the events up to the page and one more
 * when more follow (so that the next page is linked).
 */
function openList(core: Core, q: EventQuery, window: StartRange): ListResult {
  const engine = core.engine;
  const ix = indexFor(core, Number.POSITIVE_INFINITY);
  if (ix === undefined) return engine.query(q);
  const starts = startRangeOf(q, false),
    ends = endRangeOf(q);
  const lower = Math.max(starts.min, ends.min, nowIn(core.site.config.timezone, core.site.config.now()));
  const counted = lower + HORIZON_DAYS * DAY_MS;
  const wanted = seriesTest(core, q);
  const offset = Math.max(0, q.offset),
    k = offset + Math.max(0, q.limit);
  // one more than the page: whether anything follows it
  const heap = new SmallestK(k + 1);
  // per series: its instances up to `counted` × 2, + 1 when it has later ones
  const counts = windowCounts(ix, [window, starts, ends, counted]);
  let farCounted = 0,
    any = false,
    later = false;
  for (let i = 0; i < ix.series.length; i++) {
    const fs = ix.series[i];
    if (!wanted(fs.id, fs.row)) continue;
    const known = counts[i];
    if (known === 0) continue;
    const lo = Math.max(window.min, ends.min - fs.duration);
    let n = 0,
      beyond = 0;
    for (const item of farInstances(fs, lo, Number.POSITIVE_INFINITY)) {
      // the bounds are lower bounds: past the first instance that passes, every later one does
      if (!startPasses(starts, item.start) || !endPasses(ends, item.start + fs.duration)) continue;
      if (item.start <= counted) n++;
      else beyond = 1;
      if (heap.takes(item)) heap.offer(item);
      else if (beyond === 1 || known > 0) break;
    }
    const c = known < 0 ? n * 2 + beyond : known;
    if (known < 0) counts[i] = c;
    farCounted += c >> 1;
    if (c > 0) any = true;
    if ((c & 1) === 1) later = true;
  }
  if (!any) return engine.query(q);
  const { base, page } = pageOf(core, q, heap.sorted(), offset, k, k + 1);
  const rowsCounted = base.total === 0 ? 0 : engine.query({ ...q, startLte: counted, offset: 0, limit: 0 }).total;
  let total = rowsCounted + farCounted;
  if (later || rowsCounted < base.total) total = Math.max(total, offset + page.rows.length + (page.more ? 1 : 0));
  else total = base.total + farCounted;
  return { rows: page.rows, total, far: page.far };
}

/**
 * A list by `include`: the rows it names (post ids, and far ids whose occurrence is a row now)
 * and the far occurrences it names, in (publication date, id) order as the engine orders
 * includes, filtered as the rows are (an occurrence has its series' fields).
 */
function includeList(core: Core, q: EventQuery): ListResult {
  const engine = core.engine;
  const ids = q.includeIds!;
  if (!ids.some(isFarId)) return engine.query(q);
  const rowIds: number[] = [];
  const far: FarItem[] = [];
  const wanted = seriesTest(core, q);
  const dates = engine.eventTable.date;
  /** the engine's key: the publication date, NaN (a date that is not 'Y-m-d H:i:s') first */
  const key = (row: number) => {
    const v = dates.at(row);
    return v === v ? v : Number.NEGATIVE_INFINITY;
  };
  for (const id of ids) {
    if (!isFarId(id)) {
      rowIds.push(id);
      continue;
    }
    const target = resolveFarTarget(core, id);
    if (target === undefined) continue;
    if (target.rec !== undefined) rowIds.push(target.rec.id);
    else if (!far.some((f) => f.id === id)) far.push(target.item);
  }
  const kept = far.filter((f) => wanted(engine.eventId(f.row), f.row));
  kept.sort((a, b) => key(a.row) - key(b.row) || a.id - b.id);
  const offset = Math.max(0, q.offset),
    k = offset + Math.max(0, q.limit);
  const base = engine.query({ ...q, includeIds: rowIds, offset: 0, limit: k });
  const rowIdsOf = engine.eventTable.ids;
  const page = mergePage(
    base.rows,
    kept,
    offset,
    k,
    (f, row) => key(f.row) < key(row) || (key(f.row) === key(row) && f.id < rowIdsOf[row]),
  );
  return { rows: page.rows, total: base.total + kept.length, far: page.far };
}
