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
// far-index.ts finds the series with far instances and expands them; far-occurrence.ts answers
// one far occurrence (its id, its representation, writes to it).

import type { Core } from '../api/context.ts';
import { type StartRange, endPasses, startRangeOf } from '../engine/matcher.ts';
import type { EventQuery, QueryResult } from '../engine/types.ts';
import { type FarItem, farInstances, indexFor } from './far-index.ts';

export { isFarId } from './far-ids.ts';
export type { FarItem } from './far-index.ts';
export {
  farItemRecord,
  farObject,
  farSingleObject,
  farUpdateTarget,
  resolveFarId,
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
 * The engine's answer to `q`, with the far instances of the window merged in (start order,
 * counted in `total`). A list with an include list, or without an upper bound on its starts
 * (only starts_after/ends_after), shows rows alone: an unbounded series has no last instance.
 */
export function listEvents(core: Core, q: EventQuery): ListResult {
  const engine = core.engine;
  const t = engine.eventTable;
  if (q.includeIds !== undefined || t.recur.size === 0) return engine.query(q);
  const window = startRangeOf(q, true);
  if (window.max === Number.POSITIVE_INFINITY) return engine.query(q);
  const ix = indexFor(core, window.max);
  if (ix === undefined) return engine.query(q);

  const starts = startRangeOf(q, false),
    ends = endRangeOf(q);
  const match = engine.rowFilter(q);
  const k = Math.max(0, q.offset) + Math.max(0, q.limit);
  const heap = new SmallestK(k);
  let farTotal = 0;
  for (const fs of ix.series) {
    if (fs.next > window.max) continue;
    if (q.parentId !== undefined && fs.id !== q.parentId) continue;
    if (!match(fs.row)) continue;
    // an end bound bounds the start too: start = end - duration
    const lo = Math.max(window.min, ends.min - fs.duration);
    for (const item of farInstances(fs, lo, window.max)) {
      if (!startPasses(starts, item.start) || !endPasses(ends, item.start + fs.duration)) continue;
      farTotal++;
      heap.offer(item);
    }
  }
  if (farTotal === 0) return engine.query(q);

  const base = engine.query({ ...q, offset: 0, limit: k });
  const far = heap.sorted();
  const rows: number[] = [],
    items: FarItem[] = [];
  const ids = t.ids,
    rowStarts = t.starts;
  let i = 0,
    j = 0;
  for (let pos = 0; pos < k && (i < base.rows.length || j < far.length); pos++) {
    let takeFar = j < far.length;
    if (takeFar && i < base.rows.length) {
      const row = base.rows[i],
        f = far[j];
      takeFar = f.start < rowStarts[row] || (f.start === rowStarts[row] && f.id < ids[row]);
    }
    if (pos >= q.offset) {
      if (takeFar) {
        items.push(far[j]);
        rows.push(-items.length);
      } else rows.push(base.rows[i]);
    }
    if (takeFar) j++;
    else i++;
  }
  return { rows, total: base.total + farTotal, far: items };
}
