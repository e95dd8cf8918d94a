// Per-block summaries of a sorted list of rows, the main index or one posting list
// (crossfilter-style reduce, zone maps): for each block of BLOCK_SIZE consecutive positions,
// the number of rows per (status, hidden, featured, ticketed, venue-has-coords) combination and
// the min/max local end. A query whose only predicates are start/end bounds, status and those
// flags (plus membership of the list itself) counts whole blocks without visiting their rows.
// Rebuilt lazily (one pass) on the first query after a write that touched the list.
//
// The main index's stats also keep, per block, its rows' (end, combination) pairs sorted by end
// (`segEnds`/`segCombos`, one fixed-size slot per block, so an insert shifts only its own
// block's segment): a block that straddles an end bound (long events make most blocks do that
// for "overlapping a window" filters) is counted by two bisections and a scan of the smaller
// side, not by visiting its rows.

import { growFloat64, growUint8 } from './columns.ts';
import type { EventTable } from './event-table.ts';
import { BLOCK_SIZE, COMBOS, SEG_CAP, SUPER_SHIFT, comboOf } from './block-layout.ts';
import { fillBlock, fillSegment, startJob, type RefreshJob } from './block-refresh.ts';

export { BLOCK_SHIFT, BLOCK_SIZE, COMBOS, SEG_CAP, SUPER_SHIFT, comboOf } from './block-layout.ts';

/**
 * Blocks are consecutive position ranges [bounds[b], bounds[b + 1]). A full refresh makes
 * them BLOCK_SIZE long; insertAt/removeAt then keep the counters in step one row at a time
 * (the bounds after the touched block shift by one), and a block that grows past
 * 2 × BLOCK_SIZE is split in two. Removals leave the zone map as it was: a min/max end that is
 * wider than the rows is still a true bound, so decisions made from it stay correct.
 */
/** blocks done between two looks at the clock in refreshSome */
const CLOCK_BLOCKS = 4;

// What a BlockStats holds until its first refresh: arrays shared by every instance, never written
// (a write needs a block, and blocks come only with arrays of their own from install or split).
// A store has a posting list, with its BlockStats, for every link id and for every pair of ids
// carried together (pair-lists.ts): at ten million events some 140,000 lists, most never counted
// by blocks. Ten arrays of their own each made 1.4 million small V8 objects, 300 MB of V8's old
// space, and every young-generation collection walks the old space's pages (1.2 ms against 0.1).
const NO_F64 = new Float64Array(0);
const NO_I32 = new Int32Array(0);
const NO_U8 = new Uint8Array(0);
/** the bounds of no blocks: [0] */
const NO_BOUNDS = new Int32Array(1);

export class BlockStats {
  private isDirty = true;
  /** bumped whenever the summaries are marked dirty or a change passes them by while dirty */
  private generation = 0;
  private job: RefreshJob | undefined;

  /** true when the summaries must be refreshed before they are read */
  get dirty(): boolean {
    return this.isDirty;
  }

  set dirty(value: boolean) {
    if (value) this.generation++;
    this.isDirty = value;
  }

  /** end-sorted (end, combo) segments per block (the main index): block b's segment is
   *  [segBase(b), segEnd(b)) */
  readonly segmented: boolean;
  segEnds: Float64Array<ArrayBuffer> = NO_F64;
  segCombos: Uint8Array<ArrayBuffer> = NO_U8;
  /** block → its segment slot (a split gives the new block a new slot) */
  slotOf: Int32Array<ArrayBuffer> = NO_I32;
  slots = 0;

  constructor(segmented = false) {
    this.segmented = segmented;
  }

  /** number of blocks */
  blocks = 0;
  /** block b holds positions [bounds[b], bounds[b + 1]); blocks + 1 entries */
  bounds: Int32Array<ArrayBuffer> = NO_BOUNDS;
  counts: Int32Array<ArrayBuffer> = NO_I32;
  minEnds: Float64Array<ArrayBuffer> = NO_F64;
  maxEnds: Float64Array<ArrayBuffer> = NO_F64;
  /** superblock s = blocks [s << SUPER_SHIFT, (s + 1) << SUPER_SHIFT): summed counters and
   *  bounds on its ends (like the blocks' zone maps: removals may leave them wider) */
  superCounts: Int32Array<ArrayBuffer> = NO_I32;
  superMinEnds: Float64Array<ArrayBuffer> = NO_F64;
  superMaxEnds: Float64Array<ArrayBuffer> = NO_F64;

  /** Take made (or read) summaries of `b.blocks` blocks, and sum their superblocks. */
  install(b: {
    blocks: number;
    bounds: Int32Array<ArrayBuffer>;
    counts: Int32Array<ArrayBuffer>;
    minEnds: Float64Array<ArrayBuffer>;
    maxEnds: Float64Array<ArrayBuffer>;
  }): void {
    this.blocks = b.blocks;
    this.bounds = b.bounds;
    this.counts = b.counts;
    this.minEnds = b.minEnds;
    this.maxEnds = b.maxEnds;
    this.sumSupers();
  }

  /** Bring the summaries up to date with rows[0..n) (no-op unless dirty); `combos` = the
   *  list's inline combination bytes (read from the table when absent). */
  refresh(rows: Int32Array, n: number, table: EventTable, combos?: Uint8Array): void {
    this.refreshSome(rows, n, table, Infinity, combos);
  }

  /**
   * Part of a refresh: blocks until `deadline` (performance.now()) has passed, looked at every
   * CLOCK_BLOCKS blocks; true once the summaries are fresh. The blocks done are kept for the next
   * call (or refresh(), which finishes them) unless the list changed in between (any insert,
   * removal or change of combination while dirty): then it begins again.
   */
  refreshSome(rows: Int32Array, n: number, table: EventTable, deadline: number, combos?: Uint8Array): boolean {
    if (!this.isDirty) return true;
    let job = this.job;
    if (!job || job.generation !== this.generation || job.n !== n)
      job = this.job = startJob(n, this.generation, this.segmented);
    for (let b = job.next; b < job.blocks; b++) {
      fillBlock(job, b, rows, table, this.segmented, combos);
      if ((b + 1) % CLOCK_BLOCKS === 0 && b + 1 < job.blocks && performance.now() >= deadline) {
        job.next = b + 1;
        return false;
      }
    }
    this.job = undefined;
    this.install(job);
    if (this.segmented) {
      this.slots = job.blocks;
      this.slotOf = new Int32Array(job.blocks);
      for (let b = 0; b < job.blocks; b++) this.slotOf[b] = b;
      this.segEnds = job.segEnds;
      this.segCombos = job.segCombos;
    }
    this.isDirty = false;
    return true;
  }

  /** Recompute the superblock counters and zone maps from the blocks'. */
  sumSupers(): void {
    const blocks = this.blocks,
      supers = (blocks + (1 << SUPER_SHIFT) - 1) >> SUPER_SHIFT;
    const counts = this.counts,
      sc = new Int32Array(supers * COMBOS);
    const smin = new Float64Array(supers).fill(Infinity),
      smax = new Float64Array(supers).fill(-Infinity);
    for (let b = 0; b < blocks; b++) {
      const s = b >> SUPER_SHIFT,
        base = s * COMBOS,
        from = b * COMBOS;
      for (let c = 0; c < COMBOS; c++) sc[base + c] += counts[from + c];
      if (this.minEnds[b] < smin[s]) smin[s] = this.minEnds[b];
      if (this.maxEnds[b] > smax[s]) smax[s] = this.maxEnds[b];
    }
    this.superCounts = sc;
    this.superMinEnds = smin;
    this.superMaxEnds = smax;
  }

  /** Sum of the counters of `combos` in superblock s. */
  countSuper(s: number, combos: Int32Array): number {
    const base = s * COMBOS,
      counts = this.superCounts;
    let n = 0;
    for (let i = 0; i < combos.length; i++) n += counts[base + combos[i]];
    return n;
  }

  /** First position of block b's segment. */
  segBase(b: number): number {
    return this.slotOf[b] * SEG_CAP;
  }

  /** Position after block b's segment (its base plus the block's row count). */
  segEnd(b: number): number {
    return this.slotOf[b] * SEG_CAP + this.bounds[b + 1] - this.bounds[b];
  }

  /** Fill block b's segment with the (end, combo) of its rows, sorted by end. */
  private sortSegment(b: number, rows: Int32Array, table: EventTable): void {
    fillSegment(rows, this.bounds[b], this.bounds[b + 1], table, this.segEnds, this.segCombos, this.segBase(b));
  }

  /** First position in segment [from, to) whose end is > end (open) or >= end. */
  segLower(from: number, to: number, end: number, open: boolean): number {
    const segEnds = this.segEnds;
    let lo = from,
      hi = to;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const v = segEnds[mid];
      if (v < end || (open && v === end)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Position of an entry (end, combo) in the segment of block b; throws when absent. */
  private segFind(b: number, end: number, combo: number): number {
    const from = this.segBase(b),
      to = this.segEnd(b);
    const segEnds = this.segEnds,
      segCombos = this.segCombos;
    for (let q = this.segLower(from, to, end, false); q < to && segEnds[q] === end; q++)
      if (segCombos[q] === combo) return q;
    throw new Error(`block stats: expected an entry (end ${end}, combo ${combo}) in block ${b}, got none`);
  }

  /**
   * Returns the block b with bounds[b] <= pos < bounds[b + 1], skipping empty blocks
   * (the last block when pos is at or past the end).
   */
  blockOf(pos: number): number {
    const bounds = this.bounds;
    let lo = 0,
      hi = this.blocks;
    // last b in [0, blocks) with bounds[b] <= pos
    while (hi - lo > 1) {
      const mid = (lo + hi) >>> 1;
      if (bounds[mid] <= pos) lo = mid;
      else hi = mid;
    }
    return lo;
  }

  /** While dirty a change is not counted, but a refresh under way (refreshSome) is then stale. */
  private passedBy(): boolean {
    if (!this.isDirty) return false;
    this.generation++;
    return true;
  }

  /** A row of combination `combo` and local end `end` was inserted at position pos. */
  insertAt(pos: number, combo: number, end: number, rows: Int32Array, table: EventTable): void {
    if (this.passedBy()) return;
    if (this.blocks === 0) {
      this.dirty = true;
      return;
    }
    const b = this.blockOf(pos);
    this.counts[b * COMBOS + combo]++;
    if (end < this.minEnds[b]) this.minEnds[b] = end;
    if (end > this.maxEnds[b]) this.maxEnds[b] = end;
    const sb = b >> SUPER_SHIFT;
    this.superCounts[sb * COMBOS + combo]++;
    if (end < this.superMinEnds[sb]) this.superMinEnds[sb] = end;
    if (end > this.superMaxEnds[sb]) this.superMaxEnds[sb] = end;
    const bounds = this.bounds;
    if (this.segmented) {
      // the block holds at most 2 × BLOCK_SIZE rows before this one (it splits past that)
      const from = this.segBase(b),
        to = this.segEnd(b);
      const q = this.segLower(from, to, end, true);
      this.segEnds.copyWithin(q + 1, q, to);
      this.segCombos.copyWithin(q + 1, q, to);
      this.segEnds[q] = end;
      this.segCombos[q] = combo;
    }
    for (let i = b + 1; i <= this.blocks; i++) bounds[i]++;
    if (bounds[b + 1] - bounds[b] > 2 * BLOCK_SIZE) this.split(b, rows, table);
  }

  /** The row of combination `combo` and local end `end` at position pos was removed. */
  removeAt(pos: number, combo: number, end: number): void {
    if (this.passedBy()) return;
    const b = this.blockOf(pos);
    const at = b * COMBOS + combo;
    if (this.counts[at] <= 0) throw new Error(`block stats: expected a row in combo ${combo} of block ${b}, got none`);
    this.counts[at]--;
    this.superCounts[(b >> SUPER_SHIFT) * COMBOS + combo]--;
    const bounds = this.bounds;
    if (this.segmented) {
      const q = this.segFind(b, end, combo),
        to = this.segEnd(b);
      this.segEnds.copyWithin(q, q + 1, to);
      this.segCombos.copyWithin(q, q + 1, to);
    }
    for (let i = b + 1; i <= this.blocks; i++) bounds[i]--;
  }

  /** Split block b into two halves, recounted from rows. */
  private split(b: number, rows: Int32Array, table: EventTable): void {
    const n = this.blocks + 1;
    const bounds = new Int32Array(n + 1);
    bounds.set(this.bounds.subarray(0, b + 1), 0);
    bounds.set(this.bounds.subarray(b + 1, this.blocks + 1), b + 2);
    const from = this.bounds[b],
      to = this.bounds[b + 1];
    bounds[b + 1] = (from + to) >>> 1;
    const counts = new Int32Array(n * COMBOS);
    counts.set(this.counts.subarray(0, b * COMBOS), 0);
    counts.set(this.counts.subarray((b + 1) * COMBOS), (b + 2) * COMBOS);
    const minEnds = new Float64Array(n),
      maxEnds = new Float64Array(n);
    minEnds.set(this.minEnds.subarray(0, b), 0);
    minEnds.set(this.minEnds.subarray(b + 1), b + 2);
    maxEnds.set(this.maxEnds.subarray(0, b), 0);
    maxEnds.set(this.maxEnds.subarray(b + 1), b + 2);
    const statusCodes = table.statusCodes,
      flags = table.flags,
      ends = table.ends;
    for (const k of [b, b + 1]) {
      let lo = Infinity,
        hi = -Infinity;
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
    this.sumSupers();
    if (this.segmented) {
      // block b keeps its slot; the new block b + 1 takes a new one
      const slot = this.slots++;
      this.segEnds = growFloat64(this.segEnds, this.slots * SEG_CAP);
      this.segCombos = growUint8(this.segCombos, this.slots * SEG_CAP);
      const slotOf = new Int32Array(n);
      slotOf.set(this.slotOf.subarray(0, b + 1), 0);
      slotOf.set(this.slotOf.subarray(b + 1, n - 1), b + 2);
      slotOf[b + 1] = slot;
      this.slotOf = slotOf;
      this.sortSegment(b, rows, table);
      this.sortSegment(b + 1, rows, table);
    }
  }

  /** A row at position `pos` (local end `end`) changed combination (status/flags) in place. */
  moveCombo(pos: number, from: number, to: number, end: number): void {
    if (this.passedBy()) return;
    const b = this.blockOf(pos);
    const base = b * COMBOS;
    if (this.counts[base + from] <= 0)
      throw new Error(`block stats: expected a row in combo ${from} of block ${b}, got none`);
    this.counts[base + from]--;
    this.counts[base + to]++;
    const sbase = (b >> SUPER_SHIFT) * COMBOS;
    this.superCounts[sbase + from]--;
    this.superCounts[sbase + to]++;
    if (this.segmented) this.segCombos[this.segFind(b, end, from)] = to;
  }

  /** Sum of the counters of `combos` in block b. */
  countBlock(b: number, combos: Int32Array): number {
    const base = b * COMBOS,
      counts = this.counts;
    let s = 0;
    for (let i = 0; i < combos.length; i++) s += counts[base + combos[i]];
    return s;
  }
}
