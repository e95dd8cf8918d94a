// A snapshot chunk's line as bytes, for the streamed snapshot's writer thread
// (snapshot-stream.ts): the bytes of chunkLine() (src/store/snapshot.ts), JSON.stringify with every
// character above 0x7f as a \uXXXX escape (src/ascii-json.ts), made with less work:
// - the numbers of typed arrays (an import's chunks hold its columns so) joined natively;
// - the escapes of characters 0x80-0xff (é, ñ...: what most non-ASCII text in a calendar is)
//   are written into the bytes of the Latin-1 copy that the writer needs anyway, rather than by
//   a replace() calling back for each one (~0.9 µs a character: a million-event import's
//   snapshot has ~1.1 million of them). Text with characters above 0xff is escaped as before.
// - the bytes are made in two buffers kept from one chunk to the next (valid until the next call),
//   not in fresh ones: ~7 MB a chunk of new memory made V8 collect the writer's heap early for it
//   (17 of its 43 scavenges at a million events) and cost a page fault each 4 KiB.
// The writer is plain CommonJS run by eval (no loader), so this is its source text; chunkBytes
// below is the same code compiled here (its answer copied), for the tests that compare it with chunkLine.

export const CHUNK_BYTES_SOURCE = String.raw`
const CHUNK_WIDE = /[\u0100-\uffff]/;
const CHUNK_NON_ASCII = /[\u0080-\uffff]/g;
const chunkEscapeUnit = (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0');
const CHUNK_HEX = [48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 97, 98, 99, 100, 101, 102];
// JSON.stringify(v) of a plain value (no toJSON) whose objects may hold typed arrays (not inside
// its arrays), each written as the list of its numbers
function chunkJson(v) {
  if (ArrayBuffer.isView(v)) return chunkTypedJson(v);
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return JSON.stringify(v);
  let out = '';
  for (const k in v) {
    const x = v[k];
    if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
    out += (out === '' ? '{' : ',') + JSON.stringify(k) + ':' + chunkJson(x);
  }
  return out === '' ? '{}' : out + '}';
}
// a typed array's numbers as JSON (NaN as null): joined natively, rather than copied into an array
// and stringified (twice the time)
function chunkTypedJson(a) {
  if (a.length === 0 || a instanceof DataView) return JSON.stringify(chunkPlainOf(a));
  if (a instanceof Float64Array || a instanceof Float32Array) {
    const s = a.join(',');
    if (s.includes('Infinity')) return JSON.stringify(chunkPlainOf(a));
    return '[' + (s.includes('NaN') ? s.replaceAll('NaN', 'null') : s) + ']';
  }
  if (a instanceof BigInt64Array || a instanceof BigUint64Array) return JSON.stringify(chunkPlainOf(a));
  return '[' + a.join(',') + ']';
}
function chunkPlainOf(v) {
  const n = v.length, a = new Array(n);
  for (let i = 0; i < n; i++) a[i] = v[i];
  return a;
}
// the buffers chunkBytes writes in (null: none yet), and one of at least n bytes
let chunkRaw = null, chunkOut = null;
function chunkScratch(b, n) {
  return b !== null && b.length >= n ? b : Buffer.allocUnsafeSlow(Math.max(n + (n >> 3), b === null ? 0 : b.length * 2));
}
// the chunk's line (its JSON, ASCII only, and a newline) as bytes, valid until the next call; its
// objects' typed arrays (not inside its arrays) as lists of numbers
function chunkBytes(chunk) {
  const json = chunkJson(chunk);
  if (CHUNK_WIDE.test(json)) return Buffer.from(json.replace(CHUNK_NON_ASCII, chunkEscapeUnit) + '\n', 'latin1');
  // one byte more than the text, for the newline (the text is not copied to add it)
  const n = json.length + 1;
  const raw = (chunkRaw = chunkScratch(chunkRaw, n));
  raw.write(json, 0, 'latin1');
  raw[n - 1] = 10;
  // the bytes above 0x7f, found four at a time (the buffer is its own memory: aligned)
  const at = [];
  const words = n >> 2;
  const w32 = new Int32Array(raw.buffer, 0, words);
  for (let w = 0; w < words; w++) {
    if ((w32[w] & 0x80808080) === 0) continue;
    for (let i = w << 2, e = i + 4; i < e; i++) if (raw[i] > 0x7f) at.push(i);
  }
  for (let i = words << 2; i < n; i++) if (raw[i] > 0x7f) at.push(i);
  if (at.length === 0) return raw.subarray(0, n);
  const out = (chunkOut = chunkScratch(chunkOut, n + 5 * at.length));
  let o = 0, last = 0;
  for (let j = 0; j < at.length; j++) {
    const i = at[j], c = raw[i];
    o += raw.copy(out, o, last, i);
    out[o] = 92; out[o + 1] = 117; out[o + 2] = 48; out[o + 3] = 48; out[o + 4] = CHUNK_HEX[c >> 4]; out[o + 5] = CHUNK_HEX[c & 15];
    o += 6;
    last = i + 1;
  }
  o += raw.copy(out, o, last, n);
  return out.subarray(0, o);
}
`;

/** The writer's chunkBytes (the bytes of chunkLine(chunk)), for tests. */
const writerChunkBytes = new Function('Buffer', `${CHUNK_BYTES_SOURCE}\nreturn chunkBytes;`)(Buffer) as (
  chunk: unknown,
) => Buffer;
export const chunkBytes = (chunk: unknown): Buffer => Buffer.from(writerChunkBytes(chunk));
