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
  /** the table as text (base64 of each symbol's length and bytes), as a snapshot carries it */
  readonly text: string;
  /** code of the one-byte symbol of each byte value, else -1 */
  private single: Int16Array | undefined;
  /** per two first bytes (b0 | b1 << 8), the codes of the longer symbols that start so, longest first */
  private firsts: Uint32Array | undefined;
  private longer: Uint8Array | undefined;

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
    const lens = this.lens,
      sym = this.bytes;
    while (p < end) {
      const c = src[p++];
      if (c === ESCAPE) {
        dst[o++] = src[p++];
        continue;
      }
      const s = c << 3,
        l = lens[c];
      dst[o] = sym[s];
      for (let j = 1; j < l; j++) dst[o + j] = sym[s + j];
      o += l;
    }
    return o;
  }

  /** Whether src[p, end) are codes of this table (no unknown code, no escape cut off). */
  valid(src: Uint8Array, p: number, end: number): boolean {
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
    if (this.single === undefined) this.index();
    const single = this.single!,
      firsts = this.firsts!,
      longer = this.longer!,
      lens = this.lens,
      sym = this.bytes;
    while (p < end) {
      const b0 = src[p];
      let code = -1,
        len = 1;
      if (p + 1 < end) {
        const key = b0 | (src[p + 1] << 8);
        for (let k = firsts[key], e = firsts[key + 1]; k < e; k++) {
          const c = longer[k],
            l = lens[c];
          if (p + l > end) continue;
          const s = c << 3;
          let j = 2;
          while (j < l && src[p + j] === sym[s + j]) j++;
          if (j === l) {
            code = c;
            len = l;
            break;
          }
        }
      }
      if (code < 0) code = single[b0];
      if (code < 0) {
        dst[o++] = ESCAPE;
        dst[o++] = b0;
        p++;
      } else {
        dst[o++] = code;
        p += len;
      }
    }
    return o;
  }

  /** The longest symbol at src[p] (before end): its code, or -1 - byte when there is none. */
  longest(src: Uint8Array, p: number, end: number): number {
    if (this.single === undefined) this.index();
    const b0 = src[p];
    if (p + 1 < end) {
      const firsts = this.firsts!,
        key = b0 | (src[p + 1] << 8);
      for (let k = firsts[key], e = firsts[key + 1]; k < e; k++) {
        const c = this.longer![k],
          l = this.lens[c];
        if (p + l > end) continue;
        let j = 2;
        while (j < l && src[p + j] === this.bytes[(c << 3) + j]) j++;
        if (j === l) return c;
      }
    }
    const c = this.single![b0];
    return c >= 0 ? c : -1 - b0;
  }

  /** The encoder's lookups: one-byte symbols by byte, longer ones by their first two bytes. */
  private index(): void {
    const single = new Int16Array(256).fill(-1);
    const counts = new Uint32Array(65537);
    const codes: number[] = [];
    for (let c = 0; c < this.count; c++) {
      const l = this.lens[c];
      if (l === 1) {
        if (single[this.bytes[c << 3]] < 0) single[this.bytes[c << 3]] = c;
      } else {
        counts[this.bytes[c << 3] | (this.bytes[(c << 3) + 1] << 8)]++;
        codes.push(c);
      }
    }
    const firsts = new Uint32Array(65537);
    for (let k = 0, sum = 0; k < 65536; k++) {
      firsts[k] = sum;
      sum += counts[k];
    }
    firsts[65536] = codes.length;
    codes.sort((a, b) => this.lens[b] - this.lens[a] || a - b);
    const longer = new Uint8Array(codes.length);
    const fill = firsts.slice(0, 65536);
    for (const c of codes) longer[fill[this.bytes[c << 3] | (this.bytes[(c << 3) + 1] << 8)]++] = c;
    this.single = single;
    this.firsts = firsts;
    this.longer = longer;
  }
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
  return table;
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
  return new SymbolTable(best.slice(0, MAX_SYMBOLS).map(([s]) => Buffer.from(s, 'latin1')));
}
