// The block statistics (block-stats.ts) of the larger posting lists in a version 3 snapshot, those
// of LIST_STATS_MIN rows and more: the ones the warm-up (warm-up.ts) would make after a load (of
// LIST_WARM_MIN rows and more), and the venue lists of a large calendar (a geo radius query counts
// the list of every venue in its circle; at ten million events they hold about 5,000 rows each).
// A load has them at once, and the first query by a category, tag, venue or organizer counts whole
// blocks instead of making them on the spot. One line a list, after the events chunks:
//
//   {"type":"list-stats","kind":"category","id":7,"rows":N,"combos":"…","bounds":"…","counts":"…",
//    "minEnds":"…","maxEnds":"…"}
//
// base64 typed arrays: `combos` (Uint8) the combinations any block counts rows under, `bounds`
// (Int32, blocks + 1) the blocks' first positions and the list's length, `counts` (Uint16, blocks ×
// combos) each block's counters of those combinations, `minEnds`/`maxEnds` (Float64) the zone maps.
// Positions are the list's own (its rows in the main index's order), so the lines hold whatever
// order the events chunks take. A save writes the statistics the lists hold (none for a list whose
// statistics are stale); an import's streamed snapshot, whose lists are made from the columns
// (snapshot-postings.ts), gathers them while it puts the positions in their lists, from the main
// index's inline end and combination columns. A load checks each line (the list there with that
// many rows, bounds rising from 0 to it, blocks of at most 2 × BLOCK_SIZE rows, counters summing
// to each block's rows, zone maps) and refuses a damaged one; a snapshot without them loads as
// before (the warm-up makes the largest lists').

import { BLOCK_SHIFT, BLOCK_SIZE, COMBOS } from './block-layout.ts';
import { base64Bytes, base64Of, decodeNew } from './snapshot-bytes.ts';
import { POSTING_KINDS, type Kind } from './snapshot-indexes.ts';
import type { CalendarState } from './state.ts';
import { WARM_KINDS } from './warm-up.ts';

// the layout's constants as this module's own (an imported binding may be read through a getter
// by a loader that compiles to CommonJS, as the tests' does: a cost in add(), once a list entry)
const SHIFT = BLOCK_SHIFT;
const WIDTH = COMBOS;

/** Lists of fewer rows have no line: their statistics are made by the first query that counts
 *  them (~30-150 ns a row). Lower, an import would spend more on lists few queries count. */
export const LIST_STATS_MIN = 4096;

export interface ListStatsLine {
  type: 'list-stats';
  kind: Kind;
  id: number;
  rows: number;
  combos: string;
  bounds: string;
  counts: string;
  minEnds: string;
  maxEnds: string;
}

/** The line of one list's statistics (`counts`: blocks × COMBOS counters). */
function lineOf(
  kind: Kind,
  id: number,
  rows: number,
  blocks: number,
  bounds: Int32Array,
  counts: ArrayLike<number>,
  minEnds: Float64Array,
  maxEnds: Float64Array,
): ListStatsLine {
  const used = new Uint8Array(COMBOS);
  for (let i = 0; i < blocks * COMBOS; i++) if (counts[i] !== 0) used[i & (COMBOS - 1)] = 1;
  const combos: number[] = [];
  for (let c = 0; c < COMBOS; c++) if (used[c] !== 0) combos.push(c);
  const k = combos.length,
    packed = new Uint16Array(blocks * k);
  for (let b = 0; b < blocks; b++) for (let j = 0; j < k; j++) packed[b * k + j] = counts[b * COMBOS + combos[j]];
  return {
    type: 'list-stats',
    kind,
    id,
    rows,
    combos: base64Of(Uint8Array.from(combos)),
    bounds: base64Of(bounds, 0, blocks + 1),
    counts: base64Of(packed),
    minEnds: base64Of(minEnds, 0, blocks),
    maxEnds: base64Of(maxEnds, 0, blocks),
  };
}

/** The lines of the fresh statistics of the state's large lists, made now (a save: the lines are
 *  detached from later writes). None when the lists are not written (capturePostings). */
export function captureListStats(st: CalendarState): ListStatsLine[] {
  const out: ListStatsLine[] = [];
  if (st.main.count !== st.table.count) return out;
  for (const kind of WARM_KINDS) {
    if (kind === 'closure' && st.closureDirty) continue;
    for (const [id, list] of st[POSTING_KINDS[kind]].entries()) {
      if (list.count < LIST_STATS_MIN) continue;
      const b = list.blocks;
      if (b.dirty) continue;
      out.push(lineOf(kind, id, list.count, b.blocks, b.bounds, b.counts, b.minEnds, b.maxEnds));
    }
  }
  return out;
}

/**
 * The statistics of the large lists among those an import's snapshot makes from the columns
 * (snapshot-postings.ts), gathered while its second walk puts each position in its lists: `add`
 * counts the position (its combination in `combos`, its end in `ends`: the main index's inline
 * columns, read in order) in its list's block, as a full refresh of the loaded list would
 * (block-refresh.ts). Counters while gathering are Uint16 (a block has at most BLOCK_SIZE rows).
 */
export class ListStatsGatherer {
  /** slot → its index among the large lists, or -1 */
  private readonly large: Int32Array;
  /** per large list: its slot, its first value, its first block among all the large lists' */
  private readonly slots: number[] = [];
  private readonly firsts: number[] = [];
  private readonly firstBlocks: number[] = [];
  private readonly counts: Uint16Array;
  private readonly minEnds: Float64Array;
  private readonly maxEnds: Float64Array;

  /** `rows`: each slot's rows; `first`: where each slot's rows begin among the values. */
  private constructor(
    rows: Int32Array,
    first: Int32Array,
    slots: number,
    private readonly combos: Uint8Array,
    private readonly ends: Float64Array,
  ) {
    this.large = new Int32Array(slots).fill(-1);
    let blocks = 0;
    for (let s = 0; s < slots; s++) {
      if (rows[s] < LIST_STATS_MIN) continue;
      this.large[s] = this.slots.length;
      this.slots.push(s);
      this.firsts.push(first[s]);
      this.firstBlocks.push(blocks);
      blocks += (rows[s] + BLOCK_SIZE - 1) >> BLOCK_SHIFT;
    }
    this.firstBlocks.push(blocks);
    this.counts = new Uint16Array(blocks * COMBOS);
    this.minEnds = new Float64Array(blocks).fill(Infinity);
    this.maxEnds = new Float64Array(blocks).fill(-Infinity);
  }

  /** A gatherer for a kind's slots when the kind's large lists get statistics and it has some. */
  static of(
    kind: Kind,
    rows: Int32Array,
    first: Int32Array,
    slots: number,
    combos: Uint8Array,
    ends: Float64Array,
  ): ListStatsGatherer | undefined {
    if (!WARM_KINDS.includes(kind)) return undefined;
    let any = false;
    for (let s = 0; s < slots && !any; s++) any = rows[s] >= LIST_STATS_MIN;
    return any ? new ListStatsGatherer(rows, first, slots, combos, ends) : undefined;
  }

  /** Position `at` put at value `k` of slot s's rows. */
  add(s: number, k: number, at: number): void {
    const j = this.large[s];
    if (j < 0) return;
    const b = this.firstBlocks[j] + ((k - this.firsts[j]) >> SHIFT);
    this.counts[b * WIDTH + this.combos[at]]++;
    const e = this.ends[at];
    if (e < this.minEnds[b]) this.minEnds[b] = e;
    if (e > this.maxEnds[b]) this.maxEnds[b] = e;
  }

  /** The lines, made one by one as iterated (`ids`: each slot's id, `rows`: its rows). */
  *lines(kind: Kind, ids: Int32Array, rows: Int32Array): Generator<ListStatsLine> {
    for (let j = 0; j < this.slots.length; j++) {
      const s = this.slots[j],
        n = rows[s];
      const from = this.firstBlocks[j],
        blocks = this.firstBlocks[j + 1] - from;
      const bounds = new Int32Array(blocks + 1);
      for (let b = 0; b < blocks; b++) bounds[b] = b << BLOCK_SHIFT;
      bounds[blocks] = n;
      yield lineOf(
        kind,
        ids[s],
        n,
        blocks,
        bounds,
        this.counts.subarray(from * COMBOS, (from + blocks) * COMBOS),
        this.minEnds.subarray(from, from + blocks),
        this.maxEnds.subarray(from, from + blocks),
      );
    }
  }
}

const fail = (what: string): never => {
  throw new Error(`snapshot load: expected ${what}`);
};

interface Read {
  kind: Kind;
  id: number;
  rows: number;
  blocks: number;
  bounds: Int32Array<ArrayBuffer>;
  counts: Int32Array<ArrayBuffer>;
  minEnds: Float64Array<ArrayBuffer>;
  maxEnds: Float64Array<ArrayBuffer>;
}

/** The list-stats lines of a snapshot as read (each checked), put on their lists by install(). */
export class ListStatsReader {
  private readonly read = new Map<string, Read>();

  /** Takes a list-stats line (true); else false. */
  take(chunk: { type?: unknown } & Record<string, unknown>): boolean {
    if (chunk.type !== 'list-stats') return false;
    const kind = chunk.kind as Kind;
    if (!WARM_KINDS.includes(kind))
      fail(`the statistics of a list of one of ${WARM_KINDS.join(', ')}, got ${JSON.stringify(chunk.kind)}`);
    const id = chunk.id,
      rows = chunk.rows;
    if (!(Number.isSafeInteger(id) && (id as number) > 0 && Number.isSafeInteger(rows) && (rows as number) > 0))
      fail(`the statistics of a list of an id > 0 and 1.. rows, got id ${id}: ${rows} rows`);
    const what = `the ${kind} list statistics of ${id}`;
    const key = `${kind} ${id}`;
    if (this.read.has(key)) fail(`one line of ${what}, got another`);
    const n = rows as number;
    const blocks = base64Bytes(typeof chunk.bounds === 'string' ? chunk.bounds : '') / 4 - 1;
    if (!(Number.isInteger(blocks) && blocks >= 1)) fail(`1 block or more in ${what}, got ${blocks}`);
    const combos = decodeNew(
      `${what}.combos`,
      chunk.combos,
      base64Bytes(typeof chunk.combos === 'string' ? chunk.combos : ''),
      (m) => new Uint8Array(m),
    );
    for (let j = 0; j < combos.length; j++)
      if (!(combos[j] < COMBOS && (j === 0 || combos[j] > combos[j - 1])))
        fail(`rising combinations below ${COMBOS} in ${what}, got ${combos[j]}`);
    const bounds = decodeNew(`${what}.bounds`, chunk.bounds, blocks + 1, (m) => new Int32Array(m));
    const k = combos.length;
    const packed = decodeNew(`${what}.counts`, chunk.counts, blocks * k, (m) => new Uint16Array(m));
    const minEnds = decodeNew(`${what}.minEnds`, chunk.minEnds, blocks, (m) => new Float64Array(m));
    const maxEnds = decodeNew(`${what}.maxEnds`, chunk.maxEnds, blocks, (m) => new Float64Array(m));
    if (bounds[0] !== 0 || bounds[blocks] !== n) fail(`block bounds from 0 to ${n} in ${what}`);
    const counts = new Int32Array(blocks * COMBOS);
    for (let b = 0; b < blocks; b++) {
      const size = bounds[b + 1] - bounds[b];
      // removals may leave a block empty; a block splits past 2 × BLOCK_SIZE rows
      if (!(size >= 0 && size <= 2 * BLOCK_SIZE)) fail(`blocks of 0 to ${2 * BLOCK_SIZE} rows in ${what}, got ${size}`);
      let total = 0;
      for (let j = 0; j < k; j++) {
        const x = packed[b * k + j];
        counts[b * COMBOS + combos[j]] = x;
        total += x;
      }
      if (total !== size) fail(`block counters summing to its ${size} rows in ${what}, got ${total}`);
      const lo = minEnds[b],
        hi = maxEnds[b];
      // a block of rows without an end (NaN) only keeps its zone map empty
      if (!(lo <= hi || (lo === Infinity && hi === -Infinity)))
        fail(`end bounds lo <= hi in ${what}, got ${lo}, ${hi}`);
    }
    this.read.set(key, { kind, id: id as number, rows: n, blocks, bounds, counts, minEnds, maxEnds });
    return true;
  }

  /** After the posting lists are in: each statistics read put on its list (which must be there,
   *  of as many rows) as fresh. */
  install(st: CalendarState): void {
    for (const r of this.read.values()) {
      // closure lists left to be made when first needed get their statistics made with them
      if (r.kind === 'closure' && st.closureDirty) continue;
      const list = st[POSTING_KINDS[r.kind]].get(r.id);
      if (!list || list.count !== r.rows)
        fail(`a ${r.kind} list of ${r.id} of ${r.rows} rows for its statistics, got ${list ? list.count : 'none'}`);
      list!.blocks.install(r);
      list!.blocks.dirty = false;
    }
    this.read.clear();
  }
}
