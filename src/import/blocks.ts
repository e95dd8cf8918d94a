// What the importing thread keeps per block of a parallel import (src/import/pack.ts) to
// stage its events straight into the table's columns (ImportBuilder.addPacked, import.ts): the
// block's small strings as indexes in the table's pools and its cost texts parsed, each once a
// block rather than once an event; the workers' flag bits as the table's; link lists interned by
// the hash the workers computed.
import {
  FLAG_ALL_DAY,
  FLAG_FEATURED,
  FLAG_HIDDEN,
  FLAG_SHOW_MAP,
  FLAG_SHOW_MAP_LINK,
  FLAG_STICKY,
  FLAG_TICKETED,
  ListInterner,
  type EventTable,
  type IdListPool,
} from '../engine/event-table.ts';
import {
  B_ALL_DAY,
  B_FEATURED,
  B_HIDDEN,
  B_SHOW_MAP,
  B_SHOW_MAP_LINK,
  B_STICKY,
  B_TICKETED,
  P_NONE,
  type PackedEvents,
} from './pack.ts';
import type { StringPool } from '../engine/columns.ts';
import type { parseCost } from '../api/wordpress/cost.ts';

export const NO_COST = { costs: [] as string[], currencySymbol: '', currencyPosition: '' };

/** A packed event's list: its number in the table's pool (the workers computed listHash when needed). */
export function internPacked(lists: IdListPool, links: Int32Array, from: number, n: number, hash: number): number {
  if (n === 0) return 0;
  if (ListInterner.bySingle(links, from, n)) return lists.single(links[from]);
  return lists.internHashed(links, from, n, hash);
}

/** pack.ts's B_* flags (but B_NO_SLUG) as the table's FLAG_* bits */
export const FLAGS_OF = new Uint8Array(128);
for (let b = 0; b < 128; b++) {
  FLAGS_OF[b] =
    (b & B_ALL_DAY ? FLAG_ALL_DAY : 0) |
    (b & B_SHOW_MAP ? FLAG_SHOW_MAP : 0) |
    (b & B_SHOW_MAP_LINK ? FLAG_SHOW_MAP_LINK : 0) |
    (b & B_HIDDEN ? FLAG_HIDDEN : 0) |
    (b & B_STICKY ? FLAG_STICKY : 0) |
    (b & B_FEATURED ? FLAG_FEATURED : 0) |
    (b & B_TICKETED ? FLAG_TICKETED : 0);
}

export const POOL_ZONE = 0,
  POOL_ABBR = 1,
  POOL_SYMBOL = 2,
  POOL_POSITION = 3,
  POOL_CODE = 4;

/** A cost as a row stores it: its shared list, and the symbol and position it implies (their pool
 *  indexes looked up when first used, so that the pools grow in the order appendStaged's would). */
interface BlockCost {
  costs: readonly string[];
  c: ReturnType<typeof parseCost>;
  symbol: number;
  position: number;
}

/** The small strings of a worker's block (p.pool) as indexes in the table's pools, and its cost
 *  texts parsed, each once a block; its titles and slugs (p.titles, p.slugs) as Buffers. */
export class BlockMaps {
  private readonly indexes: Int32Array;
  private readonly costs: (BlockCost | undefined)[] = [];
  private none: BlockCost | undefined;
  /** the table's pools, by POOL_* */
  private readonly pools: StringPool[];
  private readonly pool: string[];
  readonly titles: Buffer;
  readonly slugs: Buffer;

  constructor(
    p: PackedEvents,
    private readonly table: EventTable,
    private readonly parse: (v: unknown) => ReturnType<typeof parseCost>,
  ) {
    this.pool = p.pool;
    this.indexes = new Int32Array(p.pool.length * 5).fill(-1);
    const t = table.pool;
    this.pools = [t.timezone, t.abbr, t.currencySymbol, t.currencyPosition, t.currencyCode];
    const view = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);
    this.titles = view(p.titles.bytes);
    this.slugs = view(p.slugs.bytes);
  }

  /** The slug as wanted at slugs[a, e), a string. */
  slug(p: PackedEvents, a: number, e: number): string {
    return this.slugs.toString(p.slugs.narrow ? 'latin1' : 'utf16le', a, e);
  }

  /** p.pool[at] in the table's pool `which` (POOL_*) */
  index(which: number, at: number): number {
    const k = which * this.pool.length + at;
    let v = this.indexes[k];
    if (v < 0) this.indexes[k] = v = this.pools[which].intern(this.pool[at]);
    return v;
  }

  /** the cost text p.pool[at] (P_NONE: none) */
  cost(at: number): BlockCost {
    if (at === P_NONE) return (this.none ??= this.costOf(NO_COST));
    return (this.costs[at] ??= this.costOf(this.parse(this.pool[at])));
  }

  costOf(c: ReturnType<typeof parseCost>): BlockCost {
    return { costs: this.table.costLists.intern(c.costs), c, symbol: -1, position: -1 };
  }

  costSymbol(b: BlockCost): number {
    return b.symbol >= 0 ? b.symbol : (b.symbol = this.table.pool.currencySymbol.intern(b.c.currencySymbol));
  }

  costPosition(b: BlockCost): number {
    return b.position >= 0 ? b.position : (b.position = this.table.pool.currencyPosition.intern(b.c.currencyPosition));
  }
}
