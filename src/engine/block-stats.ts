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

/**
 * Blocks are consecutive position ranges [bounds[b], bounds[b + 1]). A full refresh makes
 * them BLOCK_SIZE long; insertAt/removeAt then keep the counters in step one row at a time
 * (the bounds after the touched block shift by one), and a block that grows past
 * 2 × BLOCK_SIZE is split in two. Removals leave the zone map as it was: a min/max end that is
 * wider than the rows is still a true bound, so decisions made from it stay correct.
 */
export class BlockStats {
  dirty = true;
  /** number of blocks */
  blocks = 0;
  /** block b holds positions [bounds[b], bounds[b + 1]); blocks + 1 entries */
  bounds = new Int32Array(1);
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
    const bounds = new Int32Array(blocks + 1);
    for (let b = 0; b < blocks; b++) bounds[b] = b << BLOCK_SHIFT;
    bounds[blocks] = n;
    const statusCodes = table.statusCodes, flags = table.flags, ends = table.ends;
    for (let i = 0; i < n; i++) {
      const row = rows[i];
      const b = i >> BLOCK_SHIFT;
      counts[b * COMBOS + comboOf(statusCodes[row], flags[row])]++;
      const e = ends[row];
      if (e < minEnds[b]) minEnds[b] = e;
      if (e > maxEnds[b]) maxEnds[b] = e;
    }
    this.blocks = blocks;
    this.bounds = bounds;
    this.counts = counts;
    this.minEnds = minEnds;
    this.maxEnds = maxEnds;
    this.dirty = false;
  }

  /**
   * Returns the block b with bounds[b] <= pos < bounds[b + 1], skipping empty blocks
   * (the last block when pos is at or past the end).
   */
  blockOf(pos: number): number {
    const bounds = this.bounds;
    let lo = 0, hi = this.blocks;
    // last b in [0, blocks) with bounds[b] <= pos
    while (hi - lo > 1) {
      const mid = (lo + hi) >>> 1;
      if (bounds[mid] <= pos) lo = mid;
      else hi = mid;
    }
    return lo;
  }

  /** A row of combination `combo` and local end `end` was inserted at position pos. */
  insertAt(pos: number, combo: number, end: number, rows: Int32Array, table: EventTable): void {
    if (this.dirty) return;
    if (this.blocks === 0) {
      this.dirty = true;
      return;
    }
    const b = this.blockOf(pos);
    this.counts[b * COMBOS + combo]++;
    if (end < this.minEnds[b]) this.minEnds[b] = end;
    if (end > this.maxEnds[b]) this.maxEnds[b] = end;
    const bounds = this.bounds;
    for (let i = b + 1; i <= this.blocks; i++) bounds[i]++;
    if (bounds[b + 1] - bounds[b] > 2 * BLOCK_SIZE) this.split(b, rows, table);
  }

  /** The row of combination `combo` at position pos was removed. */
  removeAt(pos: number, combo: number): void {
    if (this.dirty) return;
    const b = this.blockOf(pos);
    const at = b * COMBOS + combo;
    if (this.counts[at] <= 0) throw new Error(`block stats: expected a row in combo ${combo} of block ${b}, got none`);
    this.counts[at]--;
    const bounds = this.bounds;
    for (let i = b + 1; i <= this.blocks; i++) bounds[i]--;
  }

  /** Split block b into two halves, recounted from rows. */
  private split(b: number, rows: Int32Array, table: EventTable): void {
    const n = this.blocks + 1;
    const bounds = new Int32Array(n + 1);
    bounds.set(this.bounds.subarray(0, b + 1), 0);
    bounds.set(this.bounds.subarray(b + 1, this.blocks + 1), b + 2);
    const from = this.bounds[b], to = this.bounds[b + 1];
    bounds[b + 1] = (from + to) >>> 1;
    const counts = new Int32Array(n * COMBOS);
    counts.set(this.counts.subarray(0, b * COMBOS), 0);
    counts.set(this.counts.subarray((b + 1) * COMBOS), (b + 2) * COMBOS);
    const minEnds = new Float64Array(n), maxEnds = new Float64Array(n);
    minEnds.set(this.minEnds.subarray(0, b), 0);
    minEnds.set(this.minEnds.subarray(b + 1), b + 2);
    maxEnds.set(this.maxEnds.subarray(0, b), 0);
    maxEnds.set(this.maxEnds.subarray(b + 1), b + 2);
    const statusCodes = table.statusCodes, flags = table.flags, ends = table.ends;
    for (const k of [b, b + 1]) {
      let lo = Infinity, hi = -Infinity;
      for (let i = bounds[k]; i < bounds[k + 1]; i++) {
        const row = rows[i];
        counts[k * COMBOS + comboOf(statusCodes[row], flags[row])]++;
        const e = ends[row];
        if (e < lo) lo = e;
        if (e > hi) hi = e;
      }
      minEnds[k] = lo;
      maxEnds[k] = hi;
    }
    this.blocks = n;
    this.bounds = bounds;
    this.counts = counts;
    this.minEnds = minEnds;
    this.maxEnds = maxEnds;
  }

  /** A row at position `pos` changed combination (status/flags) in place. */
  moveCombo(pos: number, from: number, to: number): void {
    if (this.dirty) return;
    const b = this.blockOf(pos);
    const base = b * COMBOS;
    if (this.counts[base + from] <= 0) throw new Error(`block stats: expected a row in combo ${from} of block ${b}, got none`);
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
