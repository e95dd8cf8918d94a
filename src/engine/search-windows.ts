// The search index's word lists as a query reads them: the window of a list between the query's
// start bounds (a position range: every list is in (start, id) order), and per-block counters of
// a list (rows by status and flags, the smallest and largest end) that count whole blocks, or let
// a walk skip reading the rows' ends, without visiting their rows.

import { comboOf, COMBOS } from './block-stats.ts';
import type { EventTable } from './event-table.ts';
import { endsOutside, endsWithin, type Matcher } from './matcher.ts';
import type { Constraint, ListBlocks, SearchIndex, Window } from './search-index.ts';
import { BLOCK, BLOCK_SHIFT } from './search-words.ts';

/**
 * First position p in [lo, hi) of the postings such that every untouched row before p
 * starts before the bound (open: at or before it) and every untouched row from p on does
 * not. Touched rows (stale positions) are stepped over.
 */
function bound(si: SearchIndex, starts: Float64Array, lo: number, hi: number, key: number, open: boolean): number {
  const rows = si.rows,
    touched = si.touched;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    let m = mid;
    while (m < hi && touched[rows.at(m)] === 1) m++;
    if (m === hi) {
      hi = mid;
      continue;
    }
    const v = starts[rows.at(m)];
    if (v < key || (open && v === key)) lo = m + 1;
    else hi = mid;
  }
  return lo;
}

/** The window of word w's list for the start bounds. */
function windowOf(
  si: SearchIndex,
  w: number,
  starts: Float64Array,
  min: number,
  minOpen: boolean,
  max: number,
  maxOpen: boolean,
): Window {
  if (w >= si.listCount) return { id: w, lo: 0, hi: 0 };
  const a = si.offsets[w],
    b = si.offsets[w + 1];
  const lo = min === -Infinity ? a : bound(si, starts, a, b, min, minOpen);
  const hi = max === Infinity ? b : bound(si, starts, lo, b, max, !maxOpen);
  return { id: w, lo, hi: Math.max(lo, hi) };
}

export function constraint(
  si: SearchIndex,
  ids: number[],
  starts: Float64Array,
  r: { min: number; minOpen: boolean; max: number; maxOpen: boolean },
): Constraint {
  const windows: Window[] = [];
  let size = 0;
  for (const id of ids) {
    const w = windowOf(si, id, starts, r.min, r.minOpen, r.max, r.maxOpen);
    windows.push(w);
    size += w.hi - w.lo;
  }
  return { ids, windows, size };
}

/** Block counters of word w's list (untouched rows only), built or rebuilt when out of date. */
export function blocksOf(si: SearchIndex, t: EventTable, w: number): ListBlocks {
  const have = si.blocks.get(w);
  if (have && have.version === si.version) return have;
  const a = si.offsets[w],
    n = si.offsets[w + 1] - a;
  const nb = (n + BLOCK - 1) >> BLOCK_SHIFT;
  const counts = new Uint16Array(nb * COMBOS);
  const minEnds = new Float64Array(nb).fill(Infinity),
    maxEnds = new Float64Array(nb).fill(-Infinity);
  const rows = si.rows,
    touched = si.touched,
    statusCodes = t.statusCodes,
    flags = t.flags,
    ends = t.ends;
  for (let i = 0; i < n; i++) {
    const row = rows.at(a + i);
    if (touched[row] === 1) continue;
    const b = i >> BLOCK_SHIFT;
    counts[b * COMBOS + comboOf(statusCodes[row], flags[row])]++;
    const e = ends[row];
    if (e < minEnds[b]) minEnds[b] = e;
    if (e > maxEnds[b]) maxEnds[b] = e;
  }
  const made: ListBlocks = { version: si.version, counts, minEnds, maxEnds };
  si.blocks.set(w, made);
  return made;
}

/** Matching untouched rows of one window of a counted list (rest = every filter but search). */
export function countWindow(si: SearchIndex, t: EventTable, win: Window, rest: Matcher): number {
  const a = si.offsets[win.id];
  const bl = blocksOf(si, t, win.id);
  const rows = si.rows,
    touched = si.touched,
    match = rest.match,
    e = rest.end,
    combos = rest.combos;
  const n = si.offsets[win.id + 1] - a;
  let total = 0;
  let i = win.lo - a;
  const to = win.hi - a;
  while (i < to) {
    const b = i >> BLOCK_SHIFT;
    const blockStart = b << BLOCK_SHIFT,
      blockEnd = Math.min(blockStart + BLOCK, n);
    if (i === blockStart && blockEnd <= to) {
      const lo = bl.minEnds[b],
        hi = bl.maxEnds[b];
      if (endsOutside(lo, hi, e)) {
        i = blockEnd;
        continue;
      }
      if (endsWithin(lo, hi, e)) {
        const base = b * COMBOS,
          counts = bl.counts;
        for (let c = 0; c < combos.length; c++) total += counts[base + combos[c]];
        i = blockEnd;
        continue;
      }
    }
    const stop = Math.min(blockEnd, to);
    for (; i < stop; i++) {
      const row = rows.at(a + i);
      if (touched[row] === 0 && match(row)) total++;
    }
  }
  return total;
}
