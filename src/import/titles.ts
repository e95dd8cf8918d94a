// The title dictionary's index of each staged event's title (TextStore.titleId), found by the
// hash a parallel import's workers compute (pack.ts P_TITLE_HASH) in an open-addressing table of
// typed arrays: the dictionary's own lookup, a Map of strings that hashes each fresh title, took
// ~2 s of a million-event import's importing thread (25,000 distinct titles, a million lookups).
// The workers hand the titles over as bytes (pack-texts.ts KeyPacker), compared here byte for
// byte: a title is made a string once, when it is new here. A title met in a block of Latin-1
// bytes and in one of UTF-16 bytes is kept twice (each with the dictionary's one index).
import { hashSlots, withHash } from '../engine/hash-slots.ts';
import type { TextStore } from '../engine/text-store.ts';

export class TitleIds {
  /** the titles met, one after the other, as they came (Latin-1 or UTF-16 bytes: wide[n]) */
  private bytes = Buffer.allocUnsafeSlow(64 * 1024);
  private used = 0;
  /** for each title met: where its bytes end, their kind, its hash and its index in the dictionary */
  private ends = new Int32Array(256);
  private wide = new Int32Array(256);
  private hashes = new Int32Array(256);
  private ids = new Int32Array(256);
  private count = 0;
  /** 1 + index in ends, 0: empty */
  private slots = new Int32Array(512);
  private mask = 511;

  constructor(private readonly texts: TextStore) {}

  /** The dictionary's index of the title whose bytes are src[a, e) (Latin-1, or UTF-16 when
   *  `wide`) and whose stringHash is `h`. */
  id(src: Buffer, a: number, e: number, wide: boolean, h: number): number {
    const { slots, hashes, mask, bytes, ends } = this;
    const len = e - a,
      w = wide ? 1 : 0;
    let at = h & mask;
    probe: for (; ; at = (at + 1) & mask) {
      const k = slots[at];
      if (k === 0) break;
      if (hashes[k - 1] !== h || this.wide[k - 1] !== w) continue;
      const from = k === 1 ? 0 : ends[k - 2];
      if (ends[k - 1] - from !== len) continue;
      for (let j = 0; j < len; j++) if (bytes[from + j] !== src[a + j]) continue probe;
      return this.ids[k - 1];
    }
    const n = this.count;
    const id = this.texts.titleId(src.toString(wide ? 'utf16le' : 'latin1', a, e));
    if (this.used + len > bytes.length) {
      const next = Buffer.allocUnsafeSlow(Math.max(2 * bytes.length, this.used + len));
      bytes.copy(next, 0, 0, this.used);
      this.bytes = next;
    }
    src.copy(this.bytes, this.used, a, e);
    this.used += len;
    this.ends = withHash(ends, n, this.used);
    this.wide = withHash(this.wide, n, w);
    this.hashes = withHash(hashes, n, h);
    this.ids = withHash(this.ids, n, id);
    this.count = n + 1;
    slots[at] = n + 1;
    if ((n + 1) * 2 > slots.length) {
      this.slots = hashSlots(this.hashes, n + 1, slots.length * 2);
      this.mask = this.slots.length - 1;
    }
    return id;
  }
}
