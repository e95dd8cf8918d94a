// A snapshot chunk's line as bytes, for the streamed snapshot's writer thread
// (snapshot-stream.ts): the bytes of chunkLine() (src/store/snapshot.ts), JSON.stringify with every
// character above 0x7f as a \uXXXX escape (src/ascii-json.ts), made with less work:
// - the numbers of typed arrays (an import's chunks hold its columns so) joined natively;
// - a long string (the base64 text of a chunk's columns: most of its bytes) copied as it is, once
//   native scans (Buffer's isAscii and indexOf, and a loop over four bytes at a time) find that
//   none of its characters needs an escape: JSON.stringify of such a string takes ~3 ns a character
//   (~10 ms for one of an import's 3 MB chunks), the scans and the copy ~0.6;
// - the line's bytes written piece by piece, not made as one string first (which a regular
//   expression then scanned and a copy flattened);
// - the escapes of characters 0x80-0xff (é, ñ...: what most non-ASCII text in a calendar is)
//   are written into the bytes of the Latin-1 copy that the writer needs anyway, rather than by
//   a replace() calling back for each one (~0.9 µs a character: a million-event import's
//   snapshot has ~1.1 million of them). Text with characters above 0xff is escaped as before.
// - the bytes are made in a buffer kept from one chunk to the next (valid until the next call),
//   not in a fresh one: ~7 MB a chunk of new memory made V8 collect the writer's heap early for it
//   (17 of its 43 scavenges at a million events) and cost a page fault each 4 KiB.
// The writer is plain CommonJS run by eval (no loader), so this is its source text (it expects
// Buffer, and node:buffer's isAscii as chunkIsAscii); chunkBytes below is the same code compiled here (its answer copied), for the tests that compare it with chunkLine.

import { isAscii } from 'node:buffer';

export const CHUNK_BYTES_SOURCE = String.raw`
const CHUNK_WIDE = /[\u0100-\uffff]/;
const CHUNK_NON_ASCII = /[\u0080-\uffff]/g;
const chunkEscapeUnit = (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0');
const CHUNK_HEX = [48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 97, 98, 99, 100, 101, 102];
// strings this long are copied as they are when none of their characters needs an escape
const CHUNK_LONG = 256;
// the line is written here (kept from one chunk to the next: valid until the next call), up to chunkAt;
// JSON text not written yet waits in chunkText
let chunkRaw = null, chunkAt = 0, chunkText = '';
function chunkRoom(n) {
  if (chunkRaw !== null && chunkAt + n <= chunkRaw.length) return;
  const b = Buffer.allocUnsafeSlow(Math.max(chunkAt + n + ((chunkAt + n) >> 3), chunkRaw === null ? 0 : chunkRaw.length * 2));
  if (chunkRaw !== null) chunkRaw.copy(b, 0, 0, chunkAt);
  chunkRaw = b;
}
// JSON text written: characters above 0x7f as \uXXXX escapes (those up to 0xff found in the
// bytes of its Latin-1 copy rather than by a replace() calling back for each, ~0.9 µs apiece)
function chunkFlush() {
  let t = chunkText;
  if (t === '') return;
  chunkText = '';
  if (CHUNK_WIDE.test(t)) t = t.replace(CHUNK_NON_ASCII, chunkEscapeUnit);
  chunkRoom(t.length);
  const start = chunkAt;
  chunkAt += chunkRaw.write(t, chunkAt, 'latin1');
  let high = start;
  while (high < chunkAt && chunkRaw[high] < 0x80) high++;
  if (high === chunkAt) return;
  const rest = Buffer.from(chunkRaw.subarray(high, chunkAt));
  chunkAt = high;
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i];
    chunkRoom(6);
    if (c < 0x80) chunkRaw[chunkAt++] = c;
    else {
      const r = chunkRaw, o = chunkAt;
      r[o] = 92; r[o + 1] = 117; r[o + 2] = 48; r[o + 3] = 48; r[o + 4] = CHUNK_HEX[c >> 4]; r[o + 5] = CHUNK_HEX[c & 15];
      chunkAt += 6;
    }
  }
}
// text known to be ASCII (numbers joined), written as it is
function chunkAscii(t) {
  chunkFlush();
  chunkRoom(t.length);
  chunkAt += chunkRaw.write(t, chunkAt, 'latin1');
}
// whether bytes [from, to) of b (all below 0x80) hold no control character, four at a time over
// the aligned words (b is its own memory)
function chunkNoControl(b, from, to) {
  let i = from;
  for (; i < to && (i & 3) !== 0; i++) if (b[i] < 0x20) return false;
  const w = new Int32Array(b.buffer, b.byteOffset + i, (to - i) >> 2);
  let low = 0;
  for (let k = 0; k < w.length; k++) {
    const x = w[k];
    low |= (x - 0x20202020) & ~x;
  }
  if ((low & 0x80808080) !== 0) return false;
  for (i += w.length << 2; i < to; i++) if (b[i] < 0x20) return false;
  return true;
}
// a long string: its characters copied between quotes when none needs escaping (ASCII, no
// quote, backslash or control character: found by native scans, far faster than
// JSON.stringify's), else JSON.stringify's text
function chunkLongString(s) {
  chunkFlush();
  if (!CHUNK_WIDE.test(s)) {
    chunkRoom(s.length + 2);
    const from = chunkAt + 1, to = from + chunkRaw.write(s, from, 'latin1');
    const bytes = chunkRaw.subarray(from, to);
    if (to - from === s.length && chunkIsAscii(bytes) && bytes.indexOf(34) < 0 && bytes.indexOf(92) < 0 && chunkNoControl(chunkRaw, from, to)) {
      chunkRaw[chunkAt] = 34;
      chunkRaw[to] = 34;
      chunkAt = to + 1;
      return;
    }
  }
  chunkText = JSON.stringify(s);
  chunkFlush();
}
// JSON.stringify(v) of a plain value (no toJSON) whose objects may hold typed arrays (not inside
// its arrays), each written as the list of its numbers, appended to the line
function chunkJson(v) {
  if (ArrayBuffer.isView(v)) return chunkTypedJson(v);
  if (typeof v === 'string' && v.length >= CHUNK_LONG) return chunkLongString(v);
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    chunkText += JSON.stringify(v);
    return;
  }
  let first = true;
  for (const k in v) {
    const x = v[k];
    if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
    chunkText += (first ? '{' : ',') + JSON.stringify(k) + ':';
    first = false;
    chunkJson(x);
  }
  chunkText += first ? '{}' : '}';
}
// a typed array's numbers as JSON (NaN as null): joined natively, rather than copied into an array
// and stringified (twice the time)
function chunkTypedJson(a) {
  if (a.length === 0 || a instanceof DataView || a instanceof BigInt64Array || a instanceof BigUint64Array) {
    chunkText += JSON.stringify(chunkPlainOf(a));
    return;
  }
  let s = a.join(',');
  if (a instanceof Float64Array || a instanceof Float32Array) {
    if (s.includes('Infinity')) {
      chunkText += JSON.stringify(chunkPlainOf(a));
      return;
    }
    if (s.includes('NaN')) s = s.replaceAll('NaN', 'null');
  }
  chunkText += '[';
  chunkAscii(s);
  chunkText += ']';
}
function chunkPlainOf(v) {
  const n = v.length, a = new Array(n);
  for (let i = 0; i < n; i++) a[i] = v[i];
  return a;
}
// the chunk's line (its JSON, ASCII only, and a newline) as bytes, valid until the next call; its
// objects' typed arrays (not inside its arrays) as lists of numbers
function chunkBytes(chunk) {
  chunkAt = 0;
  chunkText = '';
  chunkJson(chunk);
  chunkText += '\n';
  chunkFlush();
  return chunkRaw.subarray(0, chunkAt);
}
`;

/** The writer's chunkBytes (the bytes of chunkLine(chunk)), for tests. */
const writerChunkBytes = new Function('Buffer', 'chunkIsAscii', `${CHUNK_BYTES_SOURCE}\nreturn chunkBytes;`)(
  Buffer,
  isAscii,
) as (chunk: unknown) => Buffer;
export const chunkBytes = (chunk: unknown): Buffer => Buffer.from(writerChunkBytes(chunk));
