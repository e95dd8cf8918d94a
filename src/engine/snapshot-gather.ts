// The typed columns of the events chunks read in the rows' write order (the main index's), a
// window of positions at a time: each column's values for the window's rows are gathered in one
// pass into a buffer kept for the next window, and the window's chunks then read them in order.
//
// The rows' table order is the order they were added (a file's order), so the write order reads
// each column at random. Gathered chunk by chunk, a row's twenty-odd columns are each read ten
// thousand rows at a time, from loops that see every column's array type; gathered a window of a
// few hundred thousand rows and one column at a time, each loop reads one array type into
// another, and at ten million rows the gathers take about half as long (docs/store.md, "Import").

import type { CostColumn } from './cost-column.ts';
import { type Gatherable, gatherInto } from './gather.ts';
import type { DateCopy } from './snapshot-dates.ts';
import {
  DATE_FIELDS,
  EVENT_CHUNK_ROWS,
  INT_FIELDS,
  intWidth,
  LINK_FIELDS,
  type IntField,
  type LinkField,
} from './snapshot-format.ts';

export type { Gatherable } from './gather.ts';

/** Positions a window holds: a multiple of the events chunks' rows, so no chunk straddles two. */
export const WINDOW_CHUNKS = 32;

/** A column to gather: where its values are, and a buffer of `rows` values of the type wanted. */
export interface GatherSource {
  src: Gatherable;
  buffer(rows: number): Gatherable;
}

/**
 * The columns `sources` read in `order`, a window of `windowRows` positions at a time. take(k,
 * from, to) is source k's values at positions [from, to), which must lie in one window; the
 * values stay valid until a take of another window.
 */
export class OrderedGather {
  private readonly buffers: Gatherable[];
  private start = -1;
  private end = -1;

  constructor(
    private readonly sources: readonly GatherSource[],
    private readonly order: Int32Array,
    private readonly windowRows: number,
  ) {
    const rows = Math.min(windowRows, order.length);
    this.buffers = sources.map((s) => s.buffer(rows));
  }

  take(k: number, from: number, to: number): Gatherable {
    if (from < this.start || to > this.end) this.fill(from);
    return this.buffers[k].subarray(from - this.start, to - this.start);
  }

  /** The window holding position `from`: every column gathered, one after the other. */
  private fill(from: number): void {
    const w = this.windowRows;
    const start = from - (from % w),
      end = Math.min(this.order.length, start + w);
    const at = this.order.subarray(start, end);
    for (let k = 0; k < this.sources.length; k++) gatherInto(this.sources[k].src, at, this.buffers[k], end - start);
    this.start = start;
    this.end = end;
  }
}

/** What an events chunk reads of a table's typed columns (a snapshot's copies, or the live ones). */
export interface ChunkColumns {
  ints: Record<IntField, Int32Array | Uint8Array>;
  dates: readonly DateCopy[];
  costs: CostColumn;
  links: Record<LinkField, { lists: Int32Array }>;
}

// The typed columns an events chunk reads, in this order: the int fields, the date fields, the
// cost list numbers, the link fields' list numbers.
export const DATES_AT = INT_FIELDS.length,
  COSTS_AT = DATES_AT + DATE_FIELDS.length,
  LINKS_AT = COSTS_AT + 1;

/** The columns an events chunk reads (in the order above), each with a buffer of its type: an int
 *  column is kept at the width a chunk stores (snapshot-format.ts INT_WIDTH), so that its values
 *  are written as they are. */
export function gatherSources(fz: ChunkColumns): GatherSource[] {
  const like = (src: Gatherable): GatherSource => ({
    src,
    buffer: (rows) => new (src.constructor as new (n: number) => Gatherable)(rows),
  });
  for (const f of INT_FIELDS)
    if (fz.ints[f].BYTES_PER_ELEMENT !== intWidth(f))
      throw new Error(`snapshot: expected ${f} in ${intWidth(f)}-byte values, got ${fz.ints[f].BYTES_PER_ELEMENT}`);
  return [
    ...INT_FIELDS.map((f) => like(fz.ints[f])),
    ...fz.dates.map((c) => like('ms' in c ? c.ms : c.sec)),
    like(fz.costs.nums),
    ...LINK_FIELDS.map((f) => like(fz.links[f].lists)),
  ];
}

/** Positions a window of OrderedGather holds for the events chunks. */
export const WINDOW_ROWS = WINDOW_CHUNKS * EVENT_CHUNK_ROWS;

/** The distinct cost lists of a chunk's rows, whose list numbers are `nums` (a number is one list
 *  and a list one number), and per row 0 (none) or 1 + the index of its list. */
export function costLists(
  costs: CostColumn,
  nums: ArrayLike<number>,
): { lists: (readonly string[])[]; rows: Int32Array } {
  const index = new Map<number, number>();
  const lists: (readonly string[])[] = [];
  const n = nums.length;
  const rows = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const num = nums[i];
    let k = index.get(num);
    if (k === undefined) {
      const list = costs.lists.list(num);
      k = list.length === 0 ? 0 : lists.push(list);
      index.set(num, k);
    }
    rows[i] = k;
  }
  return { lists, rows };
}
