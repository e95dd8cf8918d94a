// The search index's postings, packed: about half the four bytes an entry of plain row numbers.
//
// Every list holds its rows in (start, id) order as of the build, so an entry is kept as the
// row's rank in that order (`order[rank]` is the row). All lists are one sequence of positions,
// cut into blocks of 256 positions; a block keeps its smallest rank (base) and each entry's
// distance to it in as many bits as the block's largest distance needs (bit-packed into 32-bit
// words, a block starting on a word). A long list's ranks are close together (a few bits); a
// short list's are far apart, and a block holding the ends of several lists spans more. Any
// position reads back in a few operations: no list is decoded from its start.

const SHIFT = 8;
const BLOCK = 1 << SHIFT;

export class PackedPostings {
  static readonly EMPTY = new PackedPostings(
    new Int32Array(0),
    new Int32Array(0),
    new Uint32Array(0),
    new Uint8Array(0),
    new Uint32Array(1),
    0,
  );

  constructor(
    /** rank → row */
    readonly order: Int32Array,
    /** per block: its smallest rank */
    readonly base: Int32Array,
    /** per block: its first word in `words` */
    readonly start: Uint32Array,
    /** per block: bits an entry (1 to 31) */
    readonly width: Uint8Array,
    readonly words: Uint32Array,
    /** number of entries */
    readonly length: number,
  ) {
    this.ranked = !isIdentity(order);
  }

  /** false when `order` is the identity (the rows were in (start, id) order at the build, as after
   *  a load: a store keeps its rows in that order): a rank is then its row, and at() reads no
   *  `order` entry (at ten million rows each read of that 40 MB array missed the caches). */
  readonly ranked: boolean;

  /** The row at position p. */
  at(p: number): number {
    const b = p >>> SHIFT,
      w = this.width[b],
      bit = (p & (BLOCK - 1)) * w,
      i = this.start[b] + (bit >>> 5),
      sh = bit & 31;
    let v = this.words[i] >>> sh;
    if (sh + w > 32) v |= this.words[i + 1] << (32 - sh);
    const rank = this.base[b] + (v & (0xffffffff >>> (32 - w)));
    return this.ranked ? this.order[rank] : rank;
  }

  /** The rows at positions [from, to) into out[0, to - from), a block at a time: the block's
   *  base, width and first word are read once, not once an entry as at() does. */
  decode(from: number, to: number, out: Int32Array): void {
    const words = this.words;
    let o = 0;
    for (let p = from; p < to; ) {
      const b = p >>> SHIFT,
        w = this.width[b],
        base = this.base[b],
        at = this.start[b],
        mask = 0xffffffff >>> (32 - w),
        stop = Math.min(to, (b + 1) << SHIFT);
      for (let bit = (p & (BLOCK - 1)) * w; p < stop; p++, bit += w) {
        const i = at + (bit >>> 5),
          sh = bit & 31;
        let v = words[i] >>> sh;
        if (sh + w > 32) v |= words[i + 1] << (32 - sh);
        out[o++] = base + (v & mask);
      }
    }
    if (this.ranked) {
      const order = this.order;
      for (let k = 0; k < o; k++) out[k] = order[out[k]];
    }
  }

  get byteLength(): number {
    return (
      this.order.byteLength +
      this.base.byteLength +
      this.start.byteLength +
      this.width.byteLength +
      this.words.byteLength
    );
  }
}

/** true when order[i] === i for every i */
function isIdentity(order: Int32Array): boolean {
  for (let i = 0; i < order.length; i++) if (order[i] !== i) return false;
  return true;
}

/** Packs ranks[0, n) block by block (pack() up to a budget of blocks at a time, then done()): a
 *  first round takes each block's base and width, so the packed words are allocated once at their
 *  exact size (grown as it went, the copies left tens of MB of freed memory in malloc's heap); a
 *  second round writes them. */
export class PostingsPacker {
  private readonly base: Int32Array;
  private readonly start: Uint32Array;
  private readonly width: Uint8Array;
  private words = new Uint32Array(0);
  private used = 0;
  /** next block of the first round, then (once it is `blocks`) blocks + next block of the second */
  private next = 0;
  private readonly blocks: number;

  constructor(
    private readonly ranks: Int32Array,
    private readonly order: Int32Array,
  ) {
    const n = ranks.length;
    this.blocks = (n + BLOCK - 1) >>> SHIFT;
    this.base = new Int32Array(this.blocks);
    this.start = new Uint32Array(this.blocks);
    this.width = new Uint8Array(this.blocks);
    if (this.blocks === 0) this.words = new Uint32Array(1);
  }

  /** Do up to `budget` blocks (each is seen twice); true when every block is packed. */
  pack(budget: number): boolean {
    const ranks = this.ranks,
      n = ranks.length,
      blocks = this.blocks;
    budget = Math.max(1, budget);
    if (this.next < blocks) {
      const stop = Math.min(blocks, this.next + budget);
      for (let b = this.next; b < stop; b++) {
        const from = b << SHIFT,
          to = Math.min(n, from + BLOCK);
        let min = ranks[from],
          max = min;
        for (let p = from + 1; p < to; p++) {
          const r = ranks[p];
          if (r < min) min = r;
          else if (r > max) max = r;
        }
        const w = Math.max(1, 32 - Math.clz32(max - min));
        this.base[b] = min;
        this.start[b] = this.used;
        this.width[b] = w;
        this.used += Math.ceil(((to - from) * w) / 32);
      }
      budget -= stop - this.next;
      this.next = stop;
      if (stop < blocks) return false;
      // one word of room after the last: at() may read the word after an entry that ends a word
      this.words = new Uint32Array(this.used + 1);
      if (budget <= 0) return false;
    }
    const words = this.words;
    const first = this.next - blocks,
      stop = Math.min(blocks, first + budget);
    for (let b = first; b < stop; b++) {
      const from = b << SHIFT,
        to = Math.min(n, from + BLOCK),
        min = this.base[b],
        w = this.width[b],
        at = this.start[b];
      for (let p = from, bit = 0; p < to; p++, bit += w) {
        const v = ranks[p] - min,
          i = at + (bit >>> 5),
          sh = bit & 31;
        words[i] |= v << sh;
        if (sh + w > 32) words[i + 1] |= v >>> (32 - sh);
      }
    }
    this.next = blocks + stop;
    return stop === blocks;
  }

  /** The packed postings (after pack() returned true). */
  done(): PackedPostings {
    return new PackedPostings(this.order, this.base, this.start, this.width, this.words, this.ranks.length);
  }
}
