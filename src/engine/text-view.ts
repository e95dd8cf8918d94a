// Reading the event rows' texts (title, description, excerpt, slug, website) from the byte
// records text-store.ts writes: one record per row in one byte buffer, found by the row's offset.
//
// A record is, in this order:
// - the title's id in a dictionary of distinct titles (a varint): titles repeat (recurring and
//   series events, "Yoga class"), and the dictionary's strings are returned as they are;
// - description, excerpt, slug: a varint header `length * 2 + wide`, then the text, one byte a
//   unit when every unit is below 256 (Latin-1), else two bytes a unit (UTF-16LE, lone surrogates
//   kept): both decode losslessly to the string that was stored;
// - website: a header of 0 for null, else `length * 2 + wide + 1`, then the text.
// In a store with a symbol table (text-symbols.ts) the one-byte texts are coded: `length` is the
// number of codes and the bytes are codes, decoded into a scratch buffer and made a string from
// there. Two-byte texts stay as they are; the wide bit of each header says which a text is.
//
// A TextView reads a live TextStore (its subclass) or a frozen view of one (TextStore.freeze):
// records are never overwritten, so a view keeps reading the rows as they were, with the table
// they were coded with.

import type { SymbolTable } from './text-symbols.ts';

/** The decoding methods of Buffer that V8 runs natively (Node's own, present on every Buffer). */
export type Bytes = Buffer & {
  latin1Slice(start: number, end: number): string;
  ucs2Slice(start: number, end: number): string;
  latin1Write(s: string, offset: number, length: number): number;
  ucs2Write(s: string, offset: number, length: number): number;
};

/** Read-only access to rows' texts: a live TextStore, or a frozen view of one. */
export class TextView {
  constructor(
    protected bytes: Bytes,
    protected starts: Uint32Array,
    protected titleList: string[],
    protected symbols: SymbolTable | null = null,
  ) {}

  /** where coded texts are decoded (8 bytes a code at most) */
  protected scratch: Bytes = Buffer.allocUnsafeSlow(1024) as Bytes;
  private scratchView = new DataView(this.scratch.buffer, 0, 1024);

  /** Decode the codes b[s, e) into the scratch buffer; returns the length decoded. */
  protected decoded(s: number, e: number): number {
    if (8 * (e - s) > this.scratch.length) {
      const size = Math.max(8 * (e - s), 2 * this.scratch.length);
      this.scratch = Buffer.allocUnsafeSlow(size) as Bytes;
      this.scratchView = new DataView(this.scratch.buffer, 0, size);
    }
    return this.symbols!.decodeTo(this.bytes, s, e, this.scratchView, 0);
  }

  /** A one-byte text of n units (codes when coded) at s. */
  protected narrowText(s: number, n: number): string {
    if (this.symbols === null) return this.bytes.latin1Slice(s, s + n);
    const m = this.decoded(s, s + n); // first: it may replace the scratch buffer
    return this.scratch.latin1Slice(0, m);
  }

  /** The table the one-byte texts are coded with (null: they are not). */
  get symbolTable(): SymbolTable | null {
    return this.symbols;
  }

  /** Position just past the varint at p (its value is not needed). */
  protected skipVarint(p: number): number {
    const b = this.bytes;
    while (b[p] >= 128) p++;
    return p + 1;
  }

  /** The varint at p; this.at is set past it. */
  protected at = 0;
  protected varint(p: number): number {
    const b = this.bytes;
    let c = b[p++];
    if (c < 128) {
      this.at = p;
      return c;
    }
    let v = c & 127,
      mul = 128;
    for (;;) {
      c = b[p++];
      v += (c & 127) * mul;
      if (c < 128) break;
      mul *= 128;
    }
    this.at = p;
    return v;
  }

  /** Position of the text field after the title: 0 description, 1 excerpt, 2 slug, 3 website. */
  protected fieldAt(row: number, field: number): number {
    return this.fieldFrom(this.starts[row], field);
  }

  /** fieldAt from a record's position: 4 is the end of the record. */
  protected fieldFrom(p: number, field: number): number {
    p = this.skipVarint(p);
    for (let f = 0; f < field; f++) {
      let h = this.varint(p);
      if (f === 3 && h > 0) h--;
      p = this.at + (h % 2 === 1 ? h - 1 : h / 2);
    }
    return p;
  }

  /** The text whose header (length * 2 + wide) is at p. */
  protected textAt(p: number): string {
    const h = this.varint(p);
    if (h === 0) return '';
    const s = this.at;
    if (h % 2 === 0) return this.narrowText(s, h / 2);
    return this.bytes.ucs2Slice(s, s + (h - 1));
  }

  /** The record buffer. */
  get raw(): Uint8Array {
    return this.bytes;
  }

  /** where the text found by descriptionAt / excerptAt is (the record buffer, or the scratch
   *  buffer it was decoded into: read it before the next call), and its end there */
  found: Uint8Array = this.scratch;
  end = 0;

  /** Where the row's one-byte description starts in this.found, its end in this.end; -1 when it
   *  is two-byte. */
  descriptionAt(row: number): number {
    return this.latin1At(this.fieldAt(row, 0));
  }

  /** As descriptionAt, for the excerpt. */
  excerptAt(row: number): number {
    return this.latin1At(this.fieldAt(row, 1));
  }

  private latin1At(p: number): number {
    const h = this.varint(p);
    if (h % 2 === 1) return -1;
    if (this.symbols !== null) {
      this.end = this.decoded(this.at, this.at + h / 2);
      this.found = this.scratch;
      return 0;
    }
    this.found = this.bytes;
    this.end = this.at + h / 2;
    return this.at;
  }

  title(row: number): string {
    return this.titleList[this.varint(this.starts[row])];
  }

  description(row: number): string {
    return this.textAt(this.fieldAt(row, 0));
  }

  excerpt(row: number): string {
    return this.textAt(this.fieldAt(row, 1));
  }

  slug(row: number): string {
    return this.textAt(this.fieldAt(row, 2));
  }

  website(row: number): string | null {
    const p = this.fieldAt(row, 3);
    const h = this.varint(p);
    if (h === 0) return null;
    const s = this.at;
    if (h === 1) return '';
    if ((h - 1) % 2 === 0) return this.narrowText(s, (h - 1) / 2);
    return this.bytes.ucs2Slice(s, s + (h - 2));
  }

  /** A copy of the record offsets of rows [0, n). */
  offsets(n: number): Uint32Array<ArrayBuffer> {
    return this.starts.slice(0, n);
  }

  /** The end of the record at p. */
  recordEndFrom(p: number): number {
    return this.fieldFrom(p, 4);
  }

  /** Distinct titles in the dictionary. */
  get titleCount(): number {
    return this.titleList.length;
  }

  /** Titles [from, to) of the dictionary (a record's first varint is an index in it). */
  titleRange(from: number, to: number): string[] {
    return this.titleList.slice(from, to);
  }

  /**
   * The records of rows `at` (in that order), copied one after the other, and the end of each
   * (its offset in the copy plus its size): what a version 3 snapshot chunk holds of the texts.
   */
  copyRecords(at: Int32Array): { bytes: Buffer; ends: Uint32Array } {
    const n = at.length,
      starts = this.starts;
    const ends = new Uint32Array(n);
    let total = 0;
    for (let i = 0; i < n; i++) {
      const p = starts[at[i]];
      total += this.fieldFrom(p, 4) - p;
      ends[i] = total;
    }
    const out = Buffer.allocUnsafe(total);
    const b = this.bytes;
    let o = 0;
    for (let i = 0; i < n; i++) {
      const p = starts[at[i]],
        size = ends[i] - o;
      if (size < 64) for (let k = 0; k < size; k++) out[o + k] = b[p + k];
      else b.copy(out, o, p, p + size);
      o = ends[i];
    }
    return { bytes: out, ends };
  }

  /** The values of one field for rows [from, to). */
  column(field: 'titles' | 'descriptions' | 'excerpts' | 'slugs', from: number, to: number): string[];
  column(field: 'websites', from: number, to: number): (string | null)[];
  column(field: string, from: number, to: number): (string | null)[] {
    const out = new Array<string | null>(to - from);
    for (let r = from; r < to; r++) {
      out[r - from] =
        field === 'titles'
          ? this.title(r)
          : field === 'descriptions'
            ? this.description(r)
            : field === 'excerpts'
              ? this.excerpt(r)
              : field === 'slugs'
                ? this.slug(r)
                : this.website(r);
    }
    return out;
  }
}
