// The slugs an import has handed out, per kind (ImportBuilder's uniqueSlug, src/import/index.ts): a
// set of strings found by a hash that a parallel import's workers compute beside the importing
// thread (src/import/pack.ts), so that the usual case, a slug new to the import, costs that
// thread one probe of a typed array and no hashing. A string Set of a million event slugs cost
// ~3-4 s of a million-event import's importing thread; this costs a fraction of a second. The
// slugs themselves are kept as UTF-8 bytes in one buffer, read back only when a probe meets an
// equal hash: held as strings, ten million of them were ~0.5 GiB of the importing thread's heap.
// The workers hand their slugs over as bytes too (addBytes: no string made for a slug new to the set).

import { grownPairs, pairMask, pairSlots, stringHash } from '../engine/hash-slots.ts';

/** The hash of a slug (stringHash). */
export const slugHash = stringHash;

/** slugs whose bytes are written together (SlugSet.flush) */
const PENDING_SLUGS = 4096;

/** A growing set of strings, each given with its slugHash (open addressing, linear probing). */
export class SlugSet {
  private count = 0;
  /** the slugs' UTF-8 bytes, one after the other; slug i is bytes[ends[i - 1], ends[i]) */
  private bytes = Buffer.allocUnsafeSlow(4096);
  private ends = new Float64Array(256);
  /** slot pairs (pairSlots): 1 + the slug's index (0: empty), its hash */
  private slots = pairSlots(512);
  private mask = 511;

  get size(): number {
    return this.count;
  }

  /** the slugs added since their bytes were last written (the last pending.length of them): their
   *  bytes are written PENDING_SLUGS at a time, joined, one native call rather than one a slug */
  private pending: string[] = [];

  /** Slug i (0-based) as it was added. */
  private key(i: number): string {
    const firstPending = this.count - this.pending.length;
    if (i >= firstPending) return this.pending[i - firstPending];
    return this.bytes.toString('utf8', i === 0 ? 0 : this.ends[i - 1], this.ends[i]);
  }

  private push(s: string): void {
    this.pending.push(s);
    this.count++;
    if (this.pending.length >= PENDING_SLUGS) this.flush();
  }

  /** Room for `bytes` bytes of slugs from `at` (where the slugs so far end) and `count` slugs. */
  private room(at: number, bytes: number, count: number): void {
    if (at + bytes > this.bytes.length) {
      const next = Buffer.allocUnsafeSlow(Math.max(2 * this.bytes.length, at + bytes));
      this.bytes.copy(next, 0, 0, at);
      this.bytes = next;
    }
    if (count > this.ends.length) {
      const next = new Float64Array(Math.max(2 * this.ends.length, count));
      next.set(this.ends);
      this.ends = next;
    }
  }

  /** The pending slugs' bytes written after the others', and where each ends. */
  private flush(): void {
    const p = this.pending;
    const first = this.count - p.length;
    const joined = p.join('');
    const at = first === 0 ? 0 : this.ends[first - 1];
    this.room(at, 3 * joined.length, this.count);
    const written = this.bytes.write(joined, at, 'utf8');
    // as many bytes as UTF-16 units: every character was ASCII, one byte each
    const ascii = written === joined.length;
    let end = at;
    for (let k = 0; k < p.length; k++) {
      end += ascii ? p[k].length : Buffer.byteLength(p[k], 'utf8');
      this.ends[first + k] = end;
    }
    this.pending = [];
  }

  has(s: string, h = slugHash(s)): boolean {
    return this.slots[2 * this.pairOf(s, h)] !== 0;
  }

  /** Adds s; false when it was there already. */
  add(s: string, h = slugHash(s)): boolean {
    const at = this.pairOf(s, h);
    if (this.slots[2 * at] !== 0) return false;
    this.push(s);
    this.place(at, h);
    return true;
  }

  /** The slot pair holding s, else the empty one where s would go. */
  private pairOf(s: string, h: number): number {
    const { slots, mask } = this;
    for (let at = h & mask; ; at = (at + 1) & mask) {
      const k = slots[2 * at];
      if (k === 0 || (slots[2 * at + 1] === h && this.key(k - 1) === s)) return at;
    }
  }

  /** The slug just counted (the count-th) into the empty slot pair `at`; the table grown past half full. */
  private place(at: number, h: number): void {
    const n = this.count;
    this.slots[2 * at] = n;
    this.slots[2 * at + 1] = h;
    if (n * 2 > this.mask + 1) this.rehash();
  }

  /**
   * Adds the slug whose UTF-8 bytes are src[a, e) and whose slugHash is h (add(s, h) for the s
   * they are, with no string made); false when it was there already.
   */
  addBytes(src: Uint8Array, a: number, e: number, h: number): boolean {
    if (this.pending.length > 0) this.flush();
    const { slots, mask, bytes, ends } = this;
    const len = e - a;
    let at = h & mask;
    probe: for (; ; at = (at + 1) & mask) {
      const k = slots[2 * at];
      if (k === 0) break;
      if (slots[2 * at + 1] !== h) continue;
      const from = k === 1 ? 0 : ends[k - 2];
      if (ends[k - 1] - from !== len) continue;
      for (let j = 0; j < len; j++) if (bytes[from + j] !== src[a + j]) continue probe;
      return false;
    }
    const n = this.count;
    const start = n === 0 ? 0 : ends[n - 1];
    this.room(start, len, n + 1);
    const to = this.bytes;
    for (let j = 0; j < len; j++) to[start + j] = src[a + j];
    this.ends[n] = start + len;
    this.count = n + 1;
    this.place(at, h);
    return true;
  }

  private rehash(): void {
    this.slots = grownPairs(this.slots);
    this.mask = pairMask(this.slots);
  }
}
