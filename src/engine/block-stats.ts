// Per-block summaries of the main index (crossfilter-style reduce, zone maps): for each block
// of BLOCK_SIZE consecutive index positions, the number of rows per (status, hidden, featured,
// ticketed) combination and the min/max local end. A query whose only predicates are
// start/end bounds, status and those flags counts whole blocks without visiting their rows.
// Rebuilt lazily (one pass) on the first query after a write that touched the index.

import { FLAG_FEATURED, FLAG_HIDDEN, FLAG_TICKETED, type EventTable } from './event-table.ts';
import type { SortedIndex } from './sorted-index.ts';

export const BLOCK_SHIFT = 8;
export const BLOCK_SIZE = 1 << BLOCK_SHIFT;
/** 8 statuses × 8 flag combinations */
export const COMBOS = 64;

/** Combination index of a row: status * 8 + hidden + 2 featured + 4 ticketed. */
export function comboOf(status: number, flags: number): number {
  return (status << 3) | ((flags & FLAG_HIDDEN) !== 0 ? 1 : 0) | ((flags & FLAG_FEATURED) !== 0 ? 2 : 0) | ((flags & FLAG_TICKETED) !== 0 ? 4 : 0);
}

export class BlockStats {
  dirty = true;
  counts = new Int32Array(0);
  minEnds = new Float64Array(0);
  maxEnds = new Float64Array(0);

  /** Bring the summaries up to date with the index (no-op unless dirty). */
  refresh(index: SortedIndex, table: EventTable): void {
    if (!this.dirty) return;
    const n = index.count;
    const blocks = (n + BLOCK_SIZE - 1) >> BLOCK_SHIFT;
    const counts = new Int32Array(blocks * COMBOS);
    const minEnds = new Float64Array(blocks).fill(Infinity);
    const maxEnds = new Float64Array(blocks).fill(-Infinity);
    const rows = index.rows, statusCodes = table.statusCodes, flags = table.flags, ends = table.ends;
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
