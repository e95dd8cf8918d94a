// Per-block summaries of a sorted list of rows, the main index or one posting list
// (crossfilter-style reduce, zone maps): for each block of BLOCK_SIZE consecutive positions,
// the number of rows per (status, hidden, featured, ticketed, venue-has-coords) combination and
// the min/max local end. A query whose only predicates are start/end bounds, status and those
// flags (plus membership of the list itself) counts whole blocks without visiting their rows.
// Rebuilt lazily (one pass) on the first query after a write that touched the list.

import { FLAG_COORDS, FLAG_FEATURED, FLAG_HIDDEN, FLAG_TICKETED, type EventTable } from './event-table.ts';

export const BLOCK_SHIFT = 8;
export const BLOCK_SIZE = 1 << BLOCK_SHIFT;
/** 8 statuses × 16 flag combinations */
export const COMBOS = 128;

/** Combination index of a row: status * 16 + hidden + 2 featured + 4 ticketed + 8 coords. */
export function comboOf(status: number, flags: number): number {
  return (status << 4) | ((flags & FLAG_HIDDEN) !== 0 ? 1 : 0) | ((flags & FLAG_FEATURED) !== 0 ? 2 : 0) |
    ((flags & FLAG_TICKETED) !== 0 ? 4 : 0) | ((flags & FLAG_COORDS) !== 0 ? 8 : 0);
}

export class BlockStats {
  dirty = true;
  counts = new Int32Array(0);
  minEnds = new Float64Array(0);
  maxEnds = new Float64Array(0);

  /** Bring the summaries up to date with rows[0..n) (no-op unless dirty). */
  refresh(rows: Int32Array, n: number, table: EventTable): void {
    if (!this.dirty) return;
    const blocks = (n + BLOCK_SIZE - 1) >> BLOCK_SHIFT;
    const counts = new Int32Array(blocks * COMBOS);
    const minEnds = new Float64Array(blocks).fill(Infinity);
    const maxEnds = new Float64Array(blocks).fill(-Infinity);
    const statusCodes = table.statusCodes, flags = table.flags, ends = table.ends;
    for (let i = 0; i < n; i++) {
      const row = rows[i];
      const b = i >> BLOCK_SHIFT;
      counts[b * COMBOS + comboOf(statusCodes[row], flags[row])]++;
      const e = ends[row];
      if (e < minEnds[b]) minEnds[b] = e;
      if (e > maxEnds[b]) maxEnds[b] = e;
    }
    this.counts = counts;
    this.minEnds = minEnds;
    this.maxEnds = maxEnds;
    this.dirty = false;
  }

  /** A row at index position `pos` changed combination (status/flags) in place. */
  moveCombo(pos: number, from: number, to: number): void {
    if (this.dirty) return;
    const base = (pos >> BLOCK_SHIFT) * COMBOS;
    if (this.counts[base + from] <= 0) throw new Error(`block stats: expected a row in combo ${from} of block ${pos >> BLOCK_SHIFT}, got none`);
    this.counts[base + from]--;
    this.counts[base + to]++;
  }

  /** Sum of the counters of `combos` in block b. */
  countBlock(b: number, combos: Int32Array): number {
    const base = b * COMBOS, counts = this.counts;
    let s = 0;
    for (let i = 0; i < combos.length; i++) s += counts[base + combos[i]];
    return s;
  }
}
