// The lingering close of a connection whose request body was refused unread (413): the answer
// goes out, the sending side is shut, and what the client still sends is read and dropped for a
// while before the connection is closed (nginx's lingering_close).

import type { IncomingMessage } from 'node:http';

/** How long, and how many bytes, the rest of a refused body is read after the answer, at most. */
const LINGER_MS = 2_000;
const LINGER_BYTES = 8 * 1024 * 1024;

/**
 * A body too large is answered 413 at once (with Connection: close), unread: its Content-Length
 * said so, or its chunks reached the limit. Closing a socket with the client's data unread makes
 * the kernel reset the connection, which can destroy the answer on its way to a client still
 * sending; so once the answer is written, the connection's sending side is shut and what still
 * comes is read and dropped, for at most LINGER_MS and LINGER_BYTES (a lingering close, as
 * nginx's), then the connection is closed.
 */
export function lingerAfterAnswer(req: IncomingMessage): void {
  const socket = req.socket;
  if (req.complete || socket.destroyed) return;
  // node:http ends a Connection: close answer with socket.destroySoon() (end, then destroy)
  socket.destroySoon = function lingeringClose(this: typeof socket) {
    // the parser goes on reading (and dropping) the body; watch how much of it came
    const start = this.bytesRead;
    const t0 = Date.now();
    const watch = setInterval(() => {
      if (req.complete || this.bytesRead - start > LINGER_BYTES || Date.now() - t0 >= LINGER_MS) this.destroy();
    }, 20);
    watch.unref();
    this.once('close', () => clearInterval(watch));
    // a body cut off at the limit was paused by readBody: drop the rest as it comes
    req.on('data', () => {});
    req.resume();
    this.end();
  };
}
