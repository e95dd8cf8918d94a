// The text store's records re-coded from one coding of their one-byte texts to another (none, or a
// symbol table of text-symbols.ts): what compaction does when the table is made or made again,
// and a load does with a snapshot chunk coded with another table. Also the sample a table is
// learnt from. Records are laid out as text-view.ts says; two-byte texts are copied as they are.

import { learnSymbols, SymbolTable } from './text-symbols.ts';
import type { Bytes } from './text-view.ts';

/** Bytes of text a table is learnt from (FSST learns from 16 KiB; more costs time, gains little). */
const SAMPLE_BYTES = 64 * 1024;
/** the longest piece of one text in the sample */
const SAMPLE_TEXT = 512;

let at = 0;
function varint(b: Uint8Array, p: number): number {
  let v = 0,
    mul = 1,
    c = 128;
  while (c >= 128) {
    c = b[p++];
    v += (c & 127) * mul;
    mul *= 128;
  }
  at = p;
  return v;
}

/** v as a varint at b[p]; returns the position after it. */
export function writeVarint(b: Uint8Array, p: number, v: number): number {
  while (v >= 128) {
    b[p++] = (v % 128) | 128;
    v = Math.floor(v / 128);
  }
  b[p++] = v;
  return p;
}

/** Scratch for one text as plain bytes. */
let plain = new Uint8Array(4096);

/** The one-byte text of n units at b[p] as plain bytes in `plain`; returns their count. */
function plainOf(b: Uint8Array, p: number, n: number, from: SymbolTable | null): number {
  const need = from === null ? n : 8 * n;
  if (need > plain.length) plain = new Uint8Array(Math.max(need, 2 * plain.length));
  if (from === null) {
    plain.set(b.subarray(p, p + n));
    return n;
  }
  return from.decode(b, p, p + n, plain, 0);
}

/**
 * Copy the record at src[p] to dst at q, its one-byte texts re-coded from `from` to `to`; returns
 * the end in dst, or -1 when dst has not room for it past q (up to `limit`).
 */
export function recodeRecord(
  src: Uint8Array,
  p: number,
  from: SymbolTable | null,
  to: SymbolTable | null,
  dst: Uint8Array,
  q: number,
  limit: number,
): number {
  const tid = varint(src, p);
  p = at;
  if (q + 10 > limit) return -1;
  q = writeVarint(dst, q, tid);
  return recodeFields(src, p, 0, 4, from, to, dst, q, limit);
}

/**
 * Copy text fields [first, last) of a record (0 description, 1 excerpt, 2 slug, 3 website), laid
 * out one after the other from src[p], to dst at q, their one-byte texts re-coded from `from` to
 * `to`; returns the end in dst, or -1 when dst has not room for them past q (up to `limit`).
 */
export function recodeFields(
  src: Uint8Array,
  p: number,
  first: number,
  last: number,
  from: SymbolTable | null,
  to: SymbolTable | null,
  dst: Uint8Array,
  q: number,
  limit: number,
): number {
  for (let f = first; f < last; f++) {
    let h = varint(src, p);
    p = at;
    const bias = f === 3 && h > 0 ? 1 : 0;
    h -= bias;
    if (h % 2 === 1 || h === 0) {
      // two-byte (or empty, or a null website): as it is
      const size = h % 2 === 1 ? h - 1 : 0;
      if (q + 10 + size > limit) return -1;
      q = writeVarint(dst, q, h + bias);
      dst.set(src.subarray(p, p + size), q);
      q += size;
      p += size;
      continue;
    }
    const n = plainOf(src, p, h / 2, from);
    p += h / 2;
    if (q + 10 + 2 * n > limit) return -1;
    if (to === null) {
      q = writeVarint(dst, q, 2 * n + bias);
      dst.set(plain.subarray(0, n), q);
      q += n;
    } else {
      // the codes after room for the longest header, then moved to follow the real one
      const body = q + 10;
      const codes = to.encode(plain, 0, n, dst, body) - body;
      q = writeVarint(dst, q, 2 * codes + bias);
      dst.copyWithin(q, body, body + codes);
      q += codes;
    }
  }
  return q;
}

/**
 * Text field i (as recodeFields numbers them) of the string s written to dst at q as a record
 * holds it, its one-byte text coded with `to`; `input`: scratch of at least s.length bytes. dst
 * must have room for 10 + 2 * s.length bytes past q. Returns the end in dst.
 */
export function writeField(
  s: string | null,
  f: number,
  to: SymbolTable | null,
  input: Bytes,
  dst: Bytes,
  q: number,
): number {
  if (s === null) return writeVarint(dst, q, 0);
  const bias = f === 3 ? 1 : 0;
  const n = s.length;
  if (!NARROW.test(s)) {
    q = writeVarint(dst, q, 2 * n + 1 + bias);
    dst.ucs2Write(s, q, 2 * n);
    return q + 2 * n;
  }
  if (to === null || n === 0) {
    q = writeVarint(dst, q, 2 * n + bias);
    dst.latin1Write(s, q, n);
    return q + n;
  }
  input.latin1Write(s, 0, n);
  const body = q + 10;
  const codes = to.encode(input, 0, n, dst, body) - body;
  q = writeVarint(dst, q, 2 * codes + bias);
  dst.copyWithin(q, body, body + codes);
  return q + codes;
}

/** A text of one-byte characters only (a record holds it one byte a character). */
export const NARROW = /^[\x00-\xff]*$/;

/** The end of the record at b[p]. */
export function recordEnd(b: Uint8Array, p: number): number {
  varint(b, p);
  p = at;
  for (let f = 0; f < 4; f++) {
    let h = varint(b, p);
    if (f === 3 && h > 0) h--;
    p = at + (h % 2 === 1 ? h - 1 : h / 2);
  }
  return p;
}

/**
 * A table learnt from the one-byte texts (description, excerpt, slug, website) of records spread
 * over the rows (`starts`, 0: no record), read with the coding `from`; null when they hold no
 * one-byte text.
 */
export function learnFrom(
  b: Uint8Array,
  starts: Uint32Array,
  live: number,
  from: SymbolTable | null,
): SymbolTable | null {
  const sample = new Uint8Array(SAMPLE_BYTES + SAMPLE_TEXT);
  const ends: number[] = [];
  let o = 0;
  const stride = Math.max(1, Math.floor((live * (from === null ? 1 : 2)) / SAMPLE_BYTES));
  for (let r = 0; r < starts.length && o < SAMPLE_BYTES; r += stride) {
    let p = starts[r];
    if (p === 0) continue;
    varint(b, p);
    p = at;
    for (let f = 0; f < 4; f++) {
      let h = varint(b, p);
      p = at;
      if (f === 3 && h > 0) h--;
      if (h % 2 === 1) {
        p += h - 1;
        continue;
      }
      const n = plainOf(b, p, h / 2, from);
      p += h / 2;
      const k = Math.min(n, SAMPLE_TEXT, SAMPLE_BYTES + SAMPLE_TEXT - o);
      if (k === 0) continue;
      sample.set(plain.subarray(0, k), o);
      ends.push((o += k));
    }
  }
  return o === 0 ? null : learnSymbols(sample, ends);
}

/**
 * The end of the record at b[p], read no further than `limit`; -1 when it would pass it, its title
 * is not below `titles`, or its one-byte texts are not valid codes of `table` (when given).
 */
export function checkedEnd(b: Uint8Array, p: number, limit: number, titles: number, table: SymbolTable | null): number {
  for (let f = 0; f < 5; f++) {
    let v = 0,
      mul = 1,
      c = 128;
    while (c >= 128) {
      if (p >= limit || mul > 2 ** 35) return -1;
      c = b[p++];
      v += (c & 127) * mul;
      mul *= 128;
    }
    if (f === 0) {
      if (v >= titles) return -1;
      continue;
    }
    if (f === 4 && v > 0) v--;
    const size = v % 2 === 1 ? v - 1 : v / 2;
    if (p + size > limit) return -1;
    if (table !== null && v % 2 === 0 && !table.valid(b, p, p + size)) return -1;
    p += size;
  }
  return p;
}

/** A snapshot chunk's table; throws saying what is wrong with it. */
export function tableOf(text: unknown): SymbolTable {
  try {
    return SymbolTable.fromText(text);
  } catch (err) {
    throw new Error(`snapshot load: ${(err as Error).message}`);
  }
}

/** Header and body size of a text field of n units (or codes; `narrow`: one byte each). */
export function fieldSize(n: number, narrow: boolean): number {
  return varintSize(2 * n + 2) + (narrow ? n : 2 * n);
}

/** Bytes of the varint of v (v >= 0). */
export function varintSize(v: number): number {
  let n = 1;
  while (v >= 128) {
    v = Math.floor(v / 128);
    n++;
  }
  return n;
}

/** The most bytes of records a text store holds (its offsets are 32-bit). */
export const MAX_BYTES = 2 ** 32 - 1;

/**
 * A buffer of `size` bytes for records, in a SharedArrayBuffer: a build of the search index on a
 * worker thread (search-workers.ts) reads the records in place, without a copy of them (records
 * are never overwritten, so what it reads does not change under it). Its memory is zeroed by the
 * system page by page as it is first touched, as a large ArrayBuffer's is.
 */
export function recordBytes(size: number): Bytes {
  return Buffer.from(new SharedArrayBuffer(size)) as Bytes;
}

/** A larger copy of next's first `used` bytes, with room for `need` (a compaction's new buffer). */
export function regrown(next: Bytes, used: number, need: number): Bytes {
  if (need > MAX_BYTES)
    throw new Error(`event texts: expected at most ${MAX_BYTES} bytes of texts in one calendar, need ${need}`);
  const bigger = recordBytes(Math.min(MAX_BYTES, Math.max(need, Math.ceil(next.length * 1.25))));
  next.copy(bigger, 0, 0, used);
  return bigger;
}

/** A larger copy of b's first `used` bytes, with room for `need`: b doubled up to 16 MiB, then a
 *  quarter more each time (at most a fifth of it is room), or `need` bytes when `exact`. */
export function grownTo(b: Bytes, used: number, need: number, exact: boolean): Bytes {
  if (need > MAX_BYTES)
    throw new Error(`event texts: expected at most ${MAX_BYTES} bytes of texts in one calendar, need ${need}`);
  const cap = exact
    ? need
    : Math.min(MAX_BYTES, Math.max(need, b.length < 1 << 24 ? b.length * 2 : Math.ceil(b.length * 1.25)));
  const next = recordBytes(cap);
  b.copy(next, 0, 0, used);
  return next;
}
