// A least-recently-used cache of rendered pieces under a byte budget. Keys are event rows
// (dense, looked up through a typed array), the ids of posts and terms (Maps), or the text keys
// of whole list pages (page-cache.ts); recency is an
// intrusive doubly linked list over slot arrays, so a hit is a handful of array writes and no
// allocation. Sizes are what the caller says a piece costs (its strings plus a fixed overhead);
// when the total passes the budget, the least recently used pieces go first.

export const KIND_EVENT = 0;
export const KIND_POST = 1;
export const KIND_TERM = 2;
/** whole list answers, by a text key (page-cache.ts) */
export const KIND_PAGE = 3;
type Kind = typeof KIND_EVENT | typeof KIND_POST | typeof KIND_TERM;
type AnyKind = Kind | typeof KIND_PAGE;

export interface CacheStats {
  budget: number;
  bytes: number;
  /** event pieces not stored on their first sight (admitOnSecondSight) */
  rejections: number;
  entries: number;
  hits: number;
  misses: number;
  evictions: number;
}

export class PieceCache {
  private prev = new Int32Array(64);
  private next = new Int32Array(64);
  private sizes = new Float64Array(64);
  private kinds = new Uint8Array(64);
  private keys = new Int32Array(64);
  private values: unknown[] = [];
  private freeSlots: number[] = [];
  private used = 0;
  /** most and least recently used slots, -1 when empty */
  private mru = -1;
  private lru = -1;
  /** event row → slot + 1 (0: not cached) */
  private rowSlots = new Int32Array(0);
  private readonly idSlots = [new Map<number, number>(), new Map<number, number>(), new Map<number, number>()];
  /** page key → slot, and the key of each page's slot */
  private readonly pageSlots = new Map<string, number>();
  private readonly pageKeys = new Map<number, string>();
  bytes = 0;
  entries = 0;
  hits = 0;
  misses = 0;
  evictions = 0;

  /** rows asked to be stored once since the last reset (the doorkeeper of admitOnSecondSight) */
  private seen = new Uint8Array(0);
  private seenCount = 0;
  /** rows stored on their first sight were not kept */
  rejections = 0;

  /**
   * `budget` in bytes; 0 keeps nothing (every piece is rendered for the call that needs it).
   * `admitOnSecondSight`: a row's piece is stored only the second time it is offered within a
   * window (a doorkeeper, as TinyLFU's), so one pass over many rows read once (a crawl, random
   * deep pages) does not push out the rows read again and again, nor churn the heap with pieces
   * that die evicted. The window closes when as many rows were seen as the cache holds entries
   * (at least 4,096). Pieces of posts and terms (few, shared by many events) are always stored.
   */
  constructor(
    readonly budget: number,
    readonly admitOnSecondSight = false,
  ) {
    if (!(Number.isFinite(budget) && budget >= 0))
      throw new Error(`piece cache: expected a byte budget >= 0, got ${budget}`);
  }

  /** True when a new row may be stored now (see admitOnSecondSight). */
  private admit(row: number): boolean {
    if (!this.admitOnSecondSight) return true;
    if (this.seenOnce(row)) {
      this.seen[row] = 0;
      this.seenCount--;
      return true;
    }
    if (row >= this.seen.length) {
      const grown = new Uint8Array(Math.max(row + 1, this.seen.length * 2, 1024));
      grown.set(this.seen);
      this.seen = grown;
    }
    if (this.seenCount >= Math.max(4096, this.entries)) {
      this.seen.fill(0);
      this.seenCount = 0;
    }
    this.seen[row] = 1;
    this.seenCount++;
    this.rejections++;
    return false;
  }

  /** Whether `row` was offered once in the current window (its next offer is stored). */
  private seenOnce(row: number): boolean {
    return row < this.seen.length && this.seen[row] === 1;
  }

  /** The slot holding `row`'s piece, -1 when it has none. */
  private slotOf(row: number): number {
    return row < this.rowSlots.length ? this.rowSlots[row] - 1 : -1;
  }

  stats(): CacheStats {
    return {
      budget: this.budget,
      bytes: this.bytes,
      rejections: this.rejections,
      entries: this.entries,
      hits: this.hits,
      misses: this.misses,
      evictions: this.evictions,
    };
  }

  // ---- event rows ---------------------------------------------------------------------------

  getRow(row: number): unknown {
    const s = this.slotOf(row);
    if (s < 0) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.touch(s);
    return this.values[s];
  }

  /** A row's piece without counting a hit or making it recent (for invalidation). */
  peekRow(row: number): unknown {
    const s = this.slotOf(row);
    return s < 0 ? undefined : this.values[s];
  }

  /** Store (or replace) a row's piece, as the most recently used. A piece bigger than the
   *  whole budget is not kept (it would only push out everything else on its way through), nor a
   *  new row's piece the doorkeeper turns away (admitOnSecondSight). */
  setRow(row: number, value: unknown, bytes: number): void {
    if (bytes > this.budget) return this.dropRow(row);
    if (row >= this.rowSlots.length) {
      const grown = new Int32Array(Math.max(row + 1, this.rowSlots.length * 2, 1024));
      grown.set(this.rowSlots);
      this.rowSlots = grown;
    }
    const s = this.rowSlots[row] - 1;
    if (s >= 0) this.update(s, value, bytes);
    else if (this.admit(row)) this.rowSlots[row] = this.insert(KIND_EVENT, row, value, bytes) + 1;
    else return;
    this.evict();
  }

  dropRow(row: number): void {
    const s = this.slotOf(row);
    if (s >= 0) this.remove(s);
  }

  // ---- posts and terms by id ----------------------------------------------------------------

  get(kind: Kind, id: number): unknown {
    const s = this.idSlots[kind].get(id);
    if (s === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.touch(s);
    return this.values[s];
  }

  /** A piece without counting a hit or making it recent (for invalidation). */
  peek(kind: Kind, id: number): unknown {
    const s = this.idSlots[kind].get(id);
    return s === undefined ? undefined : this.values[s];
  }

  set(kind: Kind, id: number, value: unknown, bytes: number): void {
    if (bytes > this.budget) return this.drop(kind, id);
    const map = this.idSlots[kind];
    const s = map.get(id);
    if (s !== undefined) this.update(s, value, bytes);
    else map.set(id, this.insert(kind, id, value, bytes));
    this.evict();
  }

  drop(kind: Kind, id: number): void {
    const s = this.idSlots[kind].get(id);
    if (s !== undefined) this.remove(s);
  }

  /** Drop every piece of one kind. */
  dropKind(kind: Kind): void {
    if (kind === KIND_EVENT) {
      for (let row = 0; row < this.rowSlots.length; row++)
        if (this.rowSlots[row] > 0) this.remove(this.rowSlots[row] - 1);
      return;
    }
    for (const s of [...this.idSlots[kind].values()]) this.remove(s);
  }

  // ---- whole pages by a text key ------------------------------------------------------------

  getPage(key: string): unknown {
    const s = this.pageSlots.get(key);
    if (s === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.touch(s);
    return this.values[s];
  }

  /** Store a page as the most recently used (not one bigger than the whole budget). */
  setPage(key: string, value: unknown, bytes: number): void {
    const s = this.pageSlots.get(key);
    if (s !== undefined) this.remove(s);
    if (bytes > this.budget) return;
    const slot = this.insert(KIND_PAGE, 0, value, bytes);
    this.pageSlots.set(key, slot);
    this.pageKeys.set(slot, key);
    this.evict();
  }

  /** Drop every page. */
  dropPages(): void {
    for (const s of [...this.pageSlots.values()]) this.remove(s);
  }

  /** pages kept now */
  get pages(): number {
    return this.pageSlots.size;
  }

  // ---- the list -----------------------------------------------------------------------------

  private insert(kind: AnyKind, key: number, value: unknown, bytes: number): number {
    let s = this.freeSlots.pop();
    if (s === undefined) {
      s = this.used++;
      if (s >= this.prev.length) this.grow();
    }
    this.kinds[s] = kind;
    this.keys[s] = key;
    this.values[s] = value;
    this.sizes[s] = bytes;
    this.bytes += bytes;
    this.entries++;
    this.linkFront(s);
    return s;
  }

  private update(s: number, value: unknown, bytes: number): void {
    this.values[s] = value;
    this.bytes += bytes - this.sizes[s];
    this.sizes[s] = bytes;
    this.touch(s);
  }

  private remove(s: number): void {
    this.unlink(s);
    const kind = this.kinds[s] as AnyKind;
    if (kind === KIND_EVENT) this.rowSlots[this.keys[s]] = 0;
    else if (kind === KIND_PAGE) {
      this.pageSlots.delete(this.pageKeys.get(s)!);
      this.pageKeys.delete(s);
    } else this.idSlots[kind].delete(this.keys[s]);
    this.values[s] = undefined;
    this.bytes -= this.sizes[s];
    this.sizes[s] = 0;
    this.entries--;
    this.freeSlots.push(s);
  }

  private evict(): void {
    while (this.bytes > this.budget && this.lru !== -1) {
      this.evictions++;
      this.remove(this.lru);
    }
  }

  private touch(s: number): void {
    if (s === this.mru) return;
    this.unlink(s);
    this.linkFront(s);
  }

  private linkFront(s: number): void {
    this.prev[s] = -1;
    this.next[s] = this.mru;
    if (this.mru !== -1) this.prev[this.mru] = s;
    this.mru = s;
    if (this.lru === -1) this.lru = s;
  }

  private unlink(s: number): void {
    const p = this.prev[s],
      n = this.next[s];
    if (p !== -1) this.next[p] = n;
    else this.mru = n;
    if (n !== -1) this.prev[n] = p;
    else this.lru = p;
  }

  private grow(): void {
    const cap = this.prev.length * 2;
    const g32 = (a: Int32Array) => {
      const b = new Int32Array(cap);
      b.set(a);
      return b;
    };
    this.prev = g32(this.prev);
    this.next = g32(this.next);
    this.keys = g32(this.keys);
    const sizes = new Float64Array(cap);
    sizes.set(this.sizes);
    this.sizes = sizes;
    const kinds = new Uint8Array(cap);
    kinds.set(this.kinds);
    this.kinds = kinds;
  }
}
