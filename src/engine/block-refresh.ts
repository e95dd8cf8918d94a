// The pieces of a block statistics refresh (block-stats.ts): the summaries of one block at a
// time into a job, so that a refresh can be done in steps between requests (refreshSome).
import { BLOCK_SHIFT, BLOCK_SIZE, COMBOS, SEG_CAP, comboOf } from './block-layout.ts';
import type { EventTable } from './event-table.ts';

/** A refresh done in steps (BlockStats.refreshSome): the summaries made so far, blocks [0, next). */
export interface RefreshJob {
  /** the stats' generation when it began: any change since makes it stale */
  generation: number;
  n: number;
  next: number;
  blocks: number;
  bounds: Int32Array<ArrayBuffer>;
  counts: Int32Array<ArrayBuffer>;
  minEnds: Float64Array<ArrayBuffer>;
  maxEnds: Float64Array<ArrayBuffer>;
  segEnds: Float64Array<ArrayBuffer>;
  segCombos: Uint8Array<ArrayBuffer>;
}

export function startJob(n: number, generation: number, segmented: boolean): RefreshJob {
  const blocks = (n + BLOCK_SIZE - 1) >> BLOCK_SHIFT;
  const bounds = new Int32Array(blocks + 1);
  for (let b = 0; b < blocks; b++) bounds[b] = b << BLOCK_SHIFT;
  bounds[blocks] = n;
  const seg = segmented ? Math.max(1, blocks) * SEG_CAP : 0;
  return {
    generation,
    n,
    next: 0,
    blocks,
    bounds,
    counts: new Int32Array(blocks * COMBOS),
    minEnds: new Float64Array(blocks).fill(Infinity),
    maxEnds: new Float64Array(blocks).fill(-Infinity),
    segEnds: new Float64Array(seg),
    segCombos: new Uint8Array(seg),
  };
}

/** Block b's counters and zone map (and its end-sorted segment, for the main index). */
export function fillBlock(
  job: RefreshJob,
  b: number,
  rows: Int32Array,
  table: EventTable,
  segmented: boolean,
  combos?: Uint8Array,
): void {
  const statusCodes = table.statusCodes,
    flags = table.flags,
    ends = table.ends,
    counts = job.counts,
    base = b * COMBOS;
  const from = job.bounds[b],
    to = job.bounds[b + 1];
  let lo = Infinity,
    hi = -Infinity;
  for (let i = from; i < to; i++) {
    const row = rows[i];
    counts[base + (combos ? combos[i] : comboOf(statusCodes[row], flags[row]))]++;
    const e = ends[row];
    if (e < lo) lo = e;
    if (e > hi) hi = e;
  }
  job.minEnds[b] = lo;
  job.maxEnds[b] = hi;
  if (segmented) fillSegment(rows, from, to, table, job.segEnds, job.segCombos, b * SEG_CAP);
}

/** The (end, combo) of rows[from, to), sorted by end, into segEnds/segCombos from `base` on. */
export function fillSegment(
  rows: Int32Array,
  from: number,
  to: number,
  table: EventTable,
  segEnds: Float64Array,
  segCombos: Uint8Array,
  base: number,
): void {
  const ends = table.ends,
    statusCodes = table.statusCodes,
    flags = table.flags;
  const order: number[] = [];
  for (let i = from; i < to; i++) order.push(rows[i]);
  order.sort((x, y) => ends[x] - ends[y]);
  for (let k = 0; k < order.length; k++) {
    const row = order[k];
    segEnds[base + k] = ends[row];
    segCombos[base + k] = comboOf(statusCodes[row], flags[row]);
  }
}
