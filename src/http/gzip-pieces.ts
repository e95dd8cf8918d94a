// A gzip stream made of pieces compressed once and sent to many streams: each piece is deflated
// on its own (a fresh compressor, ended with a sync flush, so it refers to nothing before it and
// ends on a byte boundary), and any sequence of such pieces after a gzip header is a valid deflate
// stream, as pigz joins the blocks its threads compress. What each stream needs of its own is the
// CRC-32 and length of what it was sent, for the trailer when it ends: each piece's CRC is
// computed once, and a stream's CRC is combined with it in a 32-step loop (zlib's crc32_combine),
// without reading the bytes again.
//
// Used by the change feed's Server-Sent Events (src/http/changes.ts) for clients that accept
// gzip: a hundred streams cost one compression of each batch, and a fifteenth of the bytes.

import zlib from 'node:zlib';

const POLY = 0xedb88320;

const TABLE = (() => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? POLY ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  return t;
})();

/** CRC-32 (as gzip's trailer has it) of `buf`, a byte at a time (for Node versions without zlib.crc32). */
export function crc32Bytes(buf: Uint8Array): number {
  let c = -1;
  for (let i = 0; i < buf.length; i++) c = TABLE[(c ^ buf[i]) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

/** CRC-32 of `buf`: zlib's (Node 20.15 and later), else crc32Bytes. */
export const crc32: (buf: Uint8Array) => number = (zlib as { crc32?: (b: Uint8Array) => number }).crc32 ?? crc32Bytes;

/** a·b modulo the CRC polynomial (reflected), zlib's multmodp */
function multmodp(a: number, b: number): number {
  let m = 0x80000000,
    p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}

/** x^(2^k) modulo the polynomial, k = 0..31 */
const X2N = (() => {
  const t = new Array<number>(32);
  let p = 0x40000000; // x^1
  t[0] = p;
  for (let k = 1; k < 32; k++) t[k] = p = multmodp(p, p);
  return t;
})();

/** x^(8·len) modulo the polynomial: what combining with a piece of `len` bytes multiplies by */
export function shiftOf(len: number): number {
  let p = 0x80000000,
    k = 3; // x^0
  for (let n = len; n > 0; n = Math.floor(n / 2), k++) if (n & 1) p = multmodp(X2N[k & 31], p);
  return p;
}

/** The CRC-32 of A followed by B, from crc(A), crc(B) and shiftOf(length of B). */
export function crc32Combine(crcA: number, crcB: number, shiftB: number): number {
  return (multmodp(shiftB, crcA) ^ crcB) >>> 0;
}

/** A text compressed once, for any number of gzip streams. */
export class GzipPiece {
  readonly deflated: Buffer;
  readonly crc: number;
  readonly length: number;
  readonly shift: number;
  constructor(raw: Buffer) {
    this.deflated = zlib.deflateRawSync(raw, { level: 1, finishFlush: zlib.constants.Z_SYNC_FLUSH });
    this.crc = crc32(raw);
    this.length = raw.length;
    this.shift = shiftOf(raw.length);
  }
}

/** The gzip header: deflate, no name or time, unknown OS. */
export const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/** What a gzip stream has been sent (for its trailer). */
export class GzipState {
  crc = 0;
  size = 0;
  /** Account for `piece`, and return its bytes to send. */
  add(piece: GzipPiece): Buffer {
    this.crc = crc32Combine(this.crc, piece.crc, piece.shift);
    this.size = (this.size + piece.length) >>> 0;
    return piece.deflated;
  }
  /** The end of the stream: an empty final block (fixed Huffman: 3 bits, then end-of-block), CRC-32, length mod 2^32. */
  trailer(): Buffer {
    const b = Buffer.alloc(10);
    b[0] = 0x03;
    b[1] = 0x00;
    b.writeUInt32LE(this.crc, 2);
    b.writeUInt32LE(this.size, 6);
    return b;
  }
}

/** True when an Accept-Encoding header accepts gzip (named, with a q above 0). */
export function acceptsGzip(acceptEncoding: string | string[] | undefined): boolean {
  const text = Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : acceptEncoding;
  if (!text) return false;
  for (const part of text.split(',')) {
    const [name, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (name !== 'gzip' && name !== 'x-gzip') continue;
    const q = params.find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  }
  return false;
}
