// The layout of the block statistics (block-stats.ts, block-refresh.ts): block and segment sizes,
// and the (status, flags) combination a row counts under.
import { FLAG_COORDS, FLAG_FEATURED, FLAG_HIDDEN, FLAG_TICKETED } from './event-table.ts';

export const BLOCK_SHIFT = 8;
export const BLOCK_SIZE = 1 << BLOCK_SHIFT;
/** 8 statuses × 16 flag combinations */
export const COMBOS = 128;
/** entries a segment slot holds: a block grows to 2 × BLOCK_SIZE + 1 rows, then splits */
export const SEG_CAP = 2 * BLOCK_SIZE + 1;
/** blocks per superblock: a long range adds whole superblocks' counters (sums of their blocks') */
export const SUPER_SHIFT = 5;

/** Combination index of a row: status * 16 + hidden + 2 featured + 4 ticketed + 8 coords. */
export function comboOf(status: number, flags: number): number {
  return (
    (status << 4) |
    ((flags & FLAG_HIDDEN) !== 0 ? 1 : 0) |
    ((flags & FLAG_FEATURED) !== 0 ? 2 : 0) |
    ((flags & FLAG_TICKETED) !== 0 ? 4 : 0) |
    ((flags & FLAG_COORDS) !== 0 ? 8 : 0)
  );
}
