// The slugs an import has handed out, per kind (ImportBuilder's uniqueSlug, src/import/index.ts): a
// set of strings found by a hash that a parallel import's workers compute beside the importing
// thread (src/import/pack.ts), so that the usual case, a slug new to the import, costs that
// thread one probe of a typed array and no hashing. A string Set of a million event slugs cost
// ~3-4 s of a million-event import's importing thread; this costs a fraction of a second.

import { hashSlots, stringHash, withHash } from '../engine/hash-slots.ts';

/** The hash of a slug (stringHash). */
export const slugHash = stringHash;

/** A growing set of strings, each given with its slugHash (open addressing, linear probing). */
export class SlugSet {
  private keys: string[] = [];
  private hashes = new Int32Array(256);
  /** 1 + index in keys, 0: empty */
  private slots = new Int32Array(512);
  private mask = 511;

  get size(): number {
    return this.keys.length;
  }

  has(s: string, h = slugHash(s)): boolean {
    const { slots, hashes, keys, mask } = this;
    for (let at = h & mask; ; at = (at + 1) & mask) {
      const k = slots[at];
      if (k === 0) return false;
      if (hashes[k - 1] === h && keys[k - 1] === s) return true;
    }
  }

  /** Adds s; false when it was there already. */
  add(s: string, h = slugHash(s)): boolean {
    const { slots, hashes, keys, mask } = this;
    let at = h & mask;
    for (; ; at = (at + 1) & mask) {
      const k = slots[at];
      if (k === 0) break;
      if (hashes[k - 1] === h && keys[k - 1] === s) return false;
    }
    const n = keys.length;
    this.hashes = withHash(hashes, n, h);
    keys.push(s);
    slots[at] = n + 1;
    if ((n + 1) * 2 > slots.length) this.rehash();
    return true;
  }

  private rehash(): void {
    this.slots = hashSlots(this.hashes, this.keys.length, this.slots.length * 2);
    this.mask = this.slots.length - 1;
  }
}
