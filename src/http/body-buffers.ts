// List bodies written to the socket from a few reused buffers. A list's body comes from the
// calendar as its pieces (RestResult.parts: the cached texts of its events, venues or organizers
// and the envelope around them, every one ASCII), and each piece is copied once, straight into
// one contiguous buffer, which is then handed to the socket as it is. Written as a string, the
// same page was first made one flat string in V8's heap (node:http prepends the headers to a
// string body and flattens the result) and then copied again for the kernel.
//
// A buffer is free again once its response has finished (node:http's 'finish': the bytes are
// with the kernel); one whose response never finishes (the client went away) is left to the
// garbage collector. At most `keep` free buffers are kept, so the footprint is bounded by the
// responses in flight. A fresh Buffer a response (tried first) was slower than the string: every
// 80 KB page was memory outside V8's heap, and its growth set off major collections.

import type { ServerResponse } from 'node:http';

export class BodyBuffers {
  private readonly free: Buffer[] = [];

  /** `size`: the largest body sent this way (a larger one is written as a string); `keep`: how
   *  many free buffers are kept for the next responses */
  constructor(
    readonly size = 256 * 1024,
    readonly keep = 16,
  ) {}

  /** Ends `res` with `parts` (ASCII, `bytes` characters in all) copied into a free buffer.
   *  False when they do not fit one (or are not `bytes` long): nothing is written. */
  end(res: ServerResponse, parts: readonly string[], bytes: number): boolean {
    if (bytes > this.size) return false;
    const buf = this.free.pop() ?? Buffer.allocUnsafeSlow(this.size);
    let at = 0;
    for (let i = 0; i < parts.length && at <= bytes; i++) at += buf.write(parts[i], at, 'latin1');
    if (at !== bytes) {
      this.free.push(buf);
      return false;
    }
    res.end(buf.subarray(0, at), () => {
      if (this.free.length < this.keep) this.free.push(buf);
    });
    return true;
  }

  /** free buffers kept now (for tests) */
  get kept(): number {
    return this.free.length;
  }
}
