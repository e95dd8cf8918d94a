// A fixed-size bit set over Uint32Array words.

export class BitSet {
  readonly words: Uint32Array;
  readonly size: number;

  constructor(size: number) {
    this.size = size;
    this.words = new Uint32Array((size + 31) >>> 5);
  }

  add(i: number): void {
    if (i < 0 || i >= this.size) throw new Error(`bitset: expected 0 <= i < ${this.size}, got ${i}`);
    this.words[i >>> 5] |= 1 << (i & 31);
  }

  /** false for anything outside [0, size) */
  has(i: number): boolean {
    return i >= 0 && i < this.size && (this.words[i >>> 5] & (1 << (i & 31))) !== 0;
  }
}
