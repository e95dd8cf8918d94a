// The typed columns of a version 3 snapshot chunk as base64 strings of their little-endian bytes:
// JSON.parse reads one long string far faster than as many numbers, and the bytes are decoded
// straight into the column they belong to (no array of numbers, no intermediate buffer).

import os from 'node:os';
import type { TextView } from './text-view.ts';

const LITTLE = os.endianness() === 'LE';

type Column = Int32Array | Uint32Array | Uint16Array | Uint8Array | Float64Array;

/** Bytes of one value of the column's type. */
function width(a: Column): number {
  return a.BYTES_PER_ELEMENT;
}

/** On a big-endian machine, the bytes of each value in reverse order (in place). */
function swapBytes(bytes: Uint8Array, w: number): void {
  for (let i = 0; i + w <= bytes.length; i += w) {
    for (let a = i, b = i + w - 1; a < b; a++, b--) {
      const x = bytes[a];
      bytes[a] = bytes[b];
      bytes[b] = x;
    }
  }
}

/** The values a[from, to) as base64 of their little-endian bytes. */
export function base64Of(a: Column, from = 0, to = a.length): string {
  const w = width(a);
  const bytes = Buffer.from(a.buffer, a.byteOffset + from * w, (to - from) * w);
  if (LITTLE || w === 1) return bytes.toString('base64');
  const copy = Buffer.from(bytes);
  swapBytes(copy, w);
  return copy.toString('base64');
}

/** Bytes that base64 text `s` decodes to (what Buffer's decoder writes for it). */
export function base64Bytes(s: string): number {
  return Buffer.byteLength(s, 'base64');
}

/**
 * Decode base64 text `s` (base64Of's) into dst[at, at + n); throws naming `what` unless it holds
 * exactly n values.
 */
export function decodeInto(what: string, s: unknown, dst: Column, at: number, n: number): void {
  const w = width(dst);
  if (typeof s !== 'string') throw new Error(`snapshot load: expected base64 text for ${what}, got ${typeof s}`);
  const bytes = base64Bytes(s);
  if (bytes !== n * w)
    throw new Error(`snapshot load: expected ${n} values (${n * w} bytes) of ${what}, got ${bytes} bytes`);
  if (at + n > dst.length)
    throw new Error(`snapshot load: expected room for ${n} values of ${what} at ${at}, got ${dst.length}`);
  const view = Buffer.from(dst.buffer, dst.byteOffset + at * w, n * w);
  const wrote = view.write(s, 0, n * w, 'base64');
  if (wrote !== n * w) throw new Error(`snapshot load: expected ${n * w} bytes of ${what}, decoded ${wrote}`);
  if (!LITTLE && w > 1) swapBytes(view, w);
}

/** The values of base64 text `s` as a new column of `n` values (`make(n)` makes it). */
export function decodeNew<T extends Column>(what: string, s: unknown, n: number, make: (n: number) => T): T {
  const out = make(n);
  decodeInto(what, s, out, 0, n);
  return out;
}

/** The texts of an events chunk whose rows are `at` (table rows, in the chunk's order): their
 *  records one after the other and the end of each, as base64 (TextView.copyRecords). */
export function chunkTexts(texts: TextView, at: Int32Array): { bytes: string; ends: string } {
  return recordsBase64(texts.copyRecords(at));
}

/** Records one after the other and the end of each (TextView.copyRecords'), as a chunk holds them. */
export function recordsBase64(t: { bytes: Uint8Array; ends: Uint32Array }): { bytes: string; ends: string } {
  const b = t.bytes;
  return { bytes: Buffer.from(b.buffer, b.byteOffset, b.length).toString('base64'), ends: base64Of(t.ends) };
}
