// The title dictionary's index of each staged event's title (TextStore.titleId), found by the
// hash a parallel import's workers compute (pack.ts P_TITLE_HASH) in an open-addressing table of
// typed arrays: the dictionary's own lookup, a Map of strings that hashes each fresh title, took
// ~2 s of a million-event import's importing thread (25,000 distinct titles, a million lookups).
import { hashSlots, withHash } from '../engine/hash-slots.ts';
import type { TextStore } from '../engine/text-store.ts';

export class TitleIds {
  /** the titles met, and for each its hash and its index in the dictionary */
  private readonly titles: string[] = [];
  private hashes = new Int32Array(256);
  private ids = new Int32Array(256);
  /** 1 + index in titles, 0: empty */
  private slots = new Int32Array(512);
  private mask = 511;

  constructor(private readonly texts: TextStore) {}

  /** The dictionary's index of `title`, whose stringHash is `h`. */
  id(title: string, h: number): number {
    const { slots, hashes, mask } = this;
    let at = h & mask;
    for (; ; at = (at + 1) & mask) {
      const k = slots[at];
      if (k === 0) break;
      if (hashes[k - 1] === h && this.titles[k - 1] === title) return this.ids[k - 1];
    }
    const n = this.titles.length;
    const id = this.texts.titleId(title);
    this.hashes = withHash(this.hashes, n, h);
    this.ids = withHash(this.ids, n, id);
    this.titles.push(title);
    slots[at] = n + 1;
    if ((n + 1) * 2 > slots.length) {
      this.slots = hashSlots(this.hashes, n + 1, slots.length * 2);
      this.mask = this.slots.length - 1;
    }
    return id;
  }
}
