// A static symbol table for the one-byte texts of the text store, after FSST (Boncz, Neumann,
// Leis, "FSST: Fast Random Access String Compression", VLDB 2020): up to 255 symbols of 1 to 8
// bytes, learnt from a sample of the texts. A coded text is one byte a code: a code below 255 stands
// for its symbol's bytes, 255 (the escape) for the one literal byte after it. Each text is coded on
// its own, so any one decodes without the others: decoding is a table lookup and a copy per code.
//
// Coding is greedy: at each position the longest symbol that matches. The table is learnt as FSST
// does: five rounds, each coding (part of) the sample with the table of the round before, counting
// how often each symbol (or escaped byte) is used and how often each one follows another; the
// next table is the 255 of those symbols and of their concatenations (cut at 8 bytes) that save
// the most bytes (a single byte's saving counted eight times: it keeps a byte from its escape).

export const ESCAPE = 255;
const MAX_SYMBOLS = 255;
const MAX_LENGTH = 8;

/** A symbol table; immutable once made (text stores and their frozen views share it). */
export class SymbolTable {
  /** symbol count (codes 0 .. count - 1) */
  readonly count: number;
  /** length of each code's symbol (0: no such code; 255, the escape, has none) */
  readonly lens = new Uint8Array(256);
  /** each code's symbol at code * 8 */
  readonly bytes = new Uint8Array(256 * MAX_LENGTH);
  /** each code's symbol as two little-endian words (bytes 0-3, 4-7; zeros past its end), and
   *  the masks of its bytes in them */
  private readonly lo = new Int32Array(256);
  private readonly hi = new Int32Array(256);
  private readonly loMask = new Int32Array(256);
  private readonly hiMask = new Int32Array(256);
  /** the table as text (base64 of each symbol's length and bytes), as a snapshot carries it */
  readonly text: string;
  /** the encoder's lookups (made by its first use): 1 + the code of the symbol of 3 bytes or more
   *  of each slot (hash of its first 3 bytes: one symbol a slot); per two bytes (b0 | b1 << 8),
   *  the symbol of one or two bytes that starts there (length << 8 | code; 0: none); per byte,
   *  its one-byte symbol (-1: none) */
  private long: Uint8Array | undefined;
  private short: Uint16Array | undefined;
  private single: Int16Array | undefined;

  constructor(symbols: readonly Uint8Array[]) {
    if (symbols.length > MAX_SYMBOLS)
      throw new Error(`symbol table: expected at most ${MAX_SYMBOLS} symbols, got ${symbols.length}`);
    this.count = symbols.length;
    let size = 0;
    for (const s of symbols) size += 1 + s.length;
    const out = Buffer.alloc(size);
    let o = 0;
    symbols.forEach((s, c) => {
      if (s.length < 1 || s.length > MAX_LENGTH)
        throw new Error(`symbol table: expected symbols of 1 to ${MAX_LENGTH} bytes, got ${s.length}`);
      this.lens[c] = s.length;
      this.bytes.set(s, c * MAX_LENGTH);
      const b = this.bytes,
        k = c * MAX_LENGTH;
      this.lo[c] = b[k] | (b[k + 1] << 8) | (b[k + 2] << 16) | (b[k + 3] << 24);
      this.hi[c] = b[k + 4] | (b[k + 5] << 8) | (b[k + 6] << 16) | (b[k + 7] << 24);
      this.loMask[c] = s.length >= 4 ? -1 : (1 << (8 * s.length)) - 1;
      this.hiMask[c] = s.length <= 4 ? 0 : s.length === 8 ? -1 : (1 << (8 * (s.length - 4))) - 1;
      out[o++] = s.length;
      out.set(s, o);
      o += s.length;
    });
    this.text = out.toString('base64');
  }

  /** The table a snapshot carries (`text`); throws an Error saying what is wrong with it. */
  static fromText(text: unknown): SymbolTable {
    if (typeof text !== 'string') throw new Error(`symbol table: expected base64 text, got ${typeof text}`);
    const b = Buffer.from(text, 'base64');
    if (b.toString('base64') !== text) throw new Error('symbol table: expected base64 text, got other characters');
    const symbols: Uint8Array[] = [];
    for (let p = 0; p < b.length; ) {
      const n = b[p++];
      if (n < 1 || n > MAX_LENGTH || p + n > b.length)
        throw new Error(`symbol table: symbol ${symbols.length} is damaged (length ${n})`);
      symbols.push(b.subarray(p, p + n));
      p += n;
    }
    return new SymbolTable(symbols);
  }

  /** The symbol of code c. */
  symbol(c: number): Uint8Array {
    return this.bytes.subarray(c * MAX_LENGTH, c * MAX_LENGTH + this.lens[c]);
  }

  /** Decode codes src[p, end) into dst from o (room for 8 bytes a code); returns the end in dst. */
  decode(src: Uint8Array, p: number, end: number, dst: Uint8Array, o: number): number {
    return this.decodeTo(src, p, end, new DataView(dst.buffer, dst.byteOffset, dst.byteLength), o);
  }

  /**
   * decode() into the bytes of a DataView (kept by the caller: no view made a call): each symbol
   * is written as two 4-byte words, whatever its length, and the next one written over the rest.
   */
  decodeTo(src: Uint8Array, p: number, end: number, dst: DataView, o: number): number {
    const lens = this.lens,
      lo = this.lo,
      hi = this.hi;
    while (p < end) {
      const c = src[p++];
      if (c === ESCAPE) {
        dst.setUint8(o++, src[p++]);
        continue;
      }
      dst.setInt32(o, lo[c], true);
      dst.setInt32(o + 4, hi[c], true);
      o += lens[c];
    }
    return o;
  }

  /** Whether src[p, end) are codes of this table (no unknown code, no escape cut off). */
  valid(src: Uint8Array, p: number, end: number): boolean {
    if (this.count === MAX_SYMBOLS) {
      // every byte but the escape is a code: only an escape cut off at the end is wrong. A byte
      // other than the escape ends a code (its own, or an escape's literal), so the codes after the
      // last such byte are a run of escapes and literals: the run's length must be even.
      let q = end;
      while (q > p && src[q - 1] === ESCAPE) q--;
      return (end - q) % 2 === 0;
    }
    const lens = this.lens;
    while (p < end) {
      const c = src[p++];
      if (c === ESCAPE) {
        if (p++ >= end) return false;
      } else if (lens[c] === 0) return false;
    }
    return true;
  }

  /** Code src[p, end) into dst from o (room for 2 bytes a byte); returns the end in dst. */
  encode(src: Uint8Array, p: number, end: number, dst: Uint8Array, o: number): number {
    if (this.long === undefined) this.index();
    // longest() written out, its lookups in locals
    const long = this.long!,
      short = this.short!,
      single = this.single!,
      lens = this.lens,
      lo = this.lo,
      hi = this.hi,
      loMask = this.loMask,
      hiMask = this.hiMask;
    while (p < end) {
      const rest = end - p;
      const b0 = src[p];
      if (rest >= 4) {
        const w = b0 | (src[p + 1] << 8) | (src[p + 2] << 16) | (src[p + 3] << 24);
        const c = long[Math.imul(w & 0xffffff, 0x9e3779b1) >>> 16] - 1;
        if (c >= 0) {
          const l = lens[c];
          if (
            l <= rest &&
            (w & loMask[c]) === lo[c] &&
            (l <= 4 || (this.word(src, p + 4, end) & hiMask[c]) === hi[c])
          ) {
            dst[o++] = c;
            p += l;
            continue;
          }
        }
      } else if (rest === 3) {
        const c = this.longest(src, p, end);
        if (c >= 0) {
          dst[o++] = c;
          p += lens[c];
          continue;
        }
      }
      const s = rest >= 2 ? short[b0 | (src[p + 1] << 8)] : single[b0] >= 0 ? (1 << 8) | single[b0] : 0;
      if (s !== 0) {
        dst[o++] = s & 255;
        p += s >> 8;
      } else {
        dst[o++] = ESCAPE;
        dst[o++] = b0;
        p++;
      }
    }
    return o;
  }

  /**
   * The longest symbol at src[p] (before end): its code, or -1 - byte when there is none. As FSST:
   * the symbol of 3 bytes or more of the slot of the next 3 bytes if it matches, else the symbol of
   * one or two bytes that starts there.
   */
  longest(src: Uint8Array, p: number, end: number): number {
    if (this.long === undefined) this.index();
    const rest = end - p;
    if (rest >= 3) {
      const w = this.word(src, p, end);
      const c = this.long![slot(w & 0xffffff)] - 1;
      if (c >= 0) {
        const l = this.lens[c];
        if (
          l <= rest &&
          (w & this.loMask[c]) === this.lo[c] &&
          (l <= 4 || (this.word(src, p + 4, end) & this.hiMask[c]) === this.hi[c])
        )
          return c;
      }
    }
    const b0 = src[p];
    if (rest >= 2) {
      const s = this.short![b0 | (src[p + 1] << 8)];
      if (s !== 0) return s & 255;
    } else {
      const c = this.single![b0];
      if (c >= 0) return c;
    }
    return -1 - b0;
  }

  /** The 4 bytes at src[p] as a little-endian word (zeros past end). */
  private word(src: Uint8Array, p: number, end: number): number {
    if (p + 4 <= end) return src[p] | (src[p + 1] << 8) | (src[p + 2] << 16) | (src[p + 3] << 24);
    let w = 0;
    for (let k = 0; p + k < end; k++) w |= src[p + k] << (8 * k);
    return w;
  }

  /** The encoder's lookups. */
  private index(): void {
    const long = new Uint8Array(1 << 16),
      short = new Uint16Array(1 << 16),
      single = new Int16Array(256).fill(-1);
    for (let c = 0; c < this.count; c++) {
      const l = this.lens[c];
      if (l >= 3) long[slot(this.lo[c] & 0xffffff)] ||= c + 1;
      else if (l === 2) short[this.lo[c]] ||= (2 << 8) | c;
      else if (single[this.lo[c]] < 0) single[this.lo[c]] = c;
    }
    for (let b = 0; b < 256; b++) {
      if (single[b] < 0) continue;
      for (let x = 0; x < 256; x++) short[b | (x << 8)] ||= (1 << 8) | single[b];
    }
    this.long = long;
    this.short = short;
    this.single = single;
  }
}

/** The slot of a symbol of 3 bytes or more: a hash of its first 3 bytes. */
function slot(w24: number): number {
  return Math.imul(w24, 0x9e3779b1) >>> 16;
}

/**
 * Learn a table from sample texts: `sample` holds them one after the other, `ends` the end of
 * each. Deterministic: the same sample gives the same table.
 */
export function learnSymbols(sample: Uint8Array, ends: ArrayLike<number>): SymbolTable {
  let table = new SymbolTable([]);
  const count1 = new Uint32Array(512);
  const count2 = new Uint32Array(512 * 512);
  for (let round = 1; round <= 5; round++) {
    // the first rounds look at part of the texts (as FSST: 8/128, 38/128, ... of them)
    const frac = round === 5 ? 128 : 8 + 30 * (round - 1);
    count1.fill(0);
    count2.fill(0);
    let start = 0;
    for (let i = 0; i < ends.length; start = ends[i++]) {
      const end = ends[i];
      if (frac < 128 && Math.imul(i + 1, 0x9e3779b1) >>> 25 >= frac) continue;
      let prev = -1;
      for (let p = start; p < end; ) {
        const c = table.longest(sample, p, end);
        // 0-255: a byte (escaped), 256 + code: a symbol
        const k = c < 0 ? -1 - c : 256 + c;
        count1[k]++;
        if (k >= 256 && table.lens[c] > 1) count1[sample[p]]++;
        if (prev >= 0) count2[prev * 512 + k]++;
        prev = k;
        p += c < 0 ? 1 : table.lens[c];
      }
    }
    table = nextTable(table, count1, count2, round === 5, (5 * frac) / 128);
  }
  return full(table);
}

/**
 * The table with its unused codes given to single bytes that are no symbol of it (bytes the
 * sample lacked, else escaped: one byte instead of two), so that every byte but the escape is a
 * code and checking codes (valid) needs to look at the end of a text only.
 */
function full(table: SymbolTable): SymbolTable {
  if (table.count === MAX_SYMBOLS) return table;
  const symbols: Uint8Array[] = [];
  const single = new Uint8Array(256);
  for (let c = 0; c < table.count; c++) {
    symbols.push(table.symbol(c).slice());
    if (table.lens[c] === 1) single[table.symbol(c)[0]] = 1;
  }
  for (let b = 0; b < 256 && symbols.length < MAX_SYMBOLS; b++) if (single[b] === 0) symbols.push(Uint8Array.of(b));
  return new SymbolTable(symbols);
}

function symbolOf(table: SymbolTable, k: number): Uint8Array {
  return k < 256 ? Uint8Array.of(k) : table.symbol(k - 256);
}

/** The 255 symbols that save the most, from the counts of a round coded with `table`. */
function nextTable(
  table: SymbolTable,
  count1: Uint32Array,
  count2: Uint32Array,
  last: boolean,
  least: number,
): SymbolTable {
  const gains = new Map<string, number>();
  const add = (s: Uint8Array, n: number): void => {
    if (n < least) return;
    const key = Buffer.from(s.buffer, s.byteOffset, s.length).toString('latin1');
    gains.set(key, (gains.get(key) ?? 0) + n * s.length * (s.length === 1 ? 8 : 1));
  };
  const pair = new Uint8Array(2 * MAX_LENGTH);
  for (let a = 0; a < 256 + table.count; a++) {
    const n1 = count1[a];
    if (n1 === 0) continue;
    const s1 = symbolOf(table, a);
    add(s1, n1);
    if (last || s1.length === MAX_LENGTH) continue;
    pair.set(s1, 0);
    for (let b = 0; b < 256 + table.count; b++) {
      const n2 = count2[a * 512 + b];
      if (n2 === 0) continue;
      const s2 = symbolOf(table, b);
      pair.set(s2, s1.length);
      add(pair.subarray(0, Math.min(MAX_LENGTH, s1.length + s2.length)), n2);
    }
  }
  const best = [...gains].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
  // the best symbols, one of 3 bytes or more a slot (the encoder looks up one there)
  const taken = new Uint8Array(1 << 16);
  const symbols: Uint8Array[] = [];
  for (const [s] of best) {
    if (symbols.length === MAX_SYMBOLS) break;
    if (s.length >= 3) {
      const k = slot(s.charCodeAt(0) | (s.charCodeAt(1) << 8) | (s.charCodeAt(2) << 16));
      if (taken[k] !== 0) continue;
      taken[k] = 1;
    }
    symbols.push(Buffer.from(s, 'latin1'));
  }
  return new SymbolTable(symbols);
}
