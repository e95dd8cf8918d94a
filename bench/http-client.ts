// One keep-alive HTTP/1.1 connection that times GET requests, one at a time, reading every
// answer into the same buffer (net's `onread`). What bench/scale.ts measures the server with.
//
// Node's own client (http.get with a keep-alive agent) makes a new buffer for each read of the
// socket, outside V8's heap. At a few thousand answers of tens of kilobytes a second, that memory
// set off V8's collections for outside memory in the client: runs of 20-30 full collections a
// second, each pausing it 1-6 ms, for ten seconds and more, while its heap held 8-13 MB. The
// answers timed meanwhile took their p99 from 0.3-0.6 ms to 1.3-3.7 ms and their longest to
// 12-30 ms, the server's part unchanged. This client allocates nothing a read, so what it times
// is the server and the socket.
//
// It reads the status line, Content-Length and chunked bodies (each byte counted, none kept),
// and connects again, untimed, when the server has closed the idle connection.

import net from 'node:net';

/** A timed answer: its status, the time from the request's write to its last byte (ms), and the
 *  body's length. */
export interface Timed {
  status: number;
  ms: number;
  bytes: number;
}

/** where the parser is in an answer */
enum Part {
  Head,
  Body,
  ChunkSize,
  ChunkData,
  ChunkEnd,
  Trailer,
}

const READ_BUFFER = 1 << 20;

export class TimingClient {
  private socket: net.Socket | undefined;
  private readonly buffer = Buffer.allocUnsafe(READ_BUFFER);
  private pending: { resolve: (t: Timed) => void; reject: (e: Error) => void; t0: number } | undefined;
  private part = Part.Head;
  /** the head or chunk-size line read so far (latin1) */
  private line = '';
  private status = 0;
  /** body bytes (or the current chunk's) still to come */
  private left = 0;
  private bytes = 0;
  private closeAfter = false;
  /** a request is under way (from get() on, its connect included) */
  private busy = false;

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  /** A client for `base` (http://host:port). */
  static of(base: string): TimingClient {
    const u = new URL(base);
    if (u.protocol !== 'http:') throw new Error(`TimingClient speaks http only, not ${u.protocol}`);
    return new TimingClient(u.hostname, Number(u.port || 80));
  }

  /** GET `path`: resolves once the whole answer has come. One request at a time. */
  async get(path: string): Promise<Timed> {
    if (this.busy) throw new Error('TimingClient: one request at a time');
    this.busy = true;
    try {
      const socket = this.socket ?? (await this.connect());
      return await new Promise<Timed>((resolve, reject) => {
        this.pending = { resolve, reject, t0: performance.now() };
        this.part = Part.Head;
        this.line = '';
        this.bytes = 0;
        socket.write(`GET ${path} HTTP/1.1\r\nHost: ${this.host}:${this.port}\r\n\r\n`, 'latin1');
      });
    } finally {
      this.busy = false;
    }
  }

  /** The request under way, no longer pending. */
  private takePending(): typeof this.pending {
    const p = this.pending;
    this.pending = undefined;
    return p;
  }

  close(): void {
    this.socket?.destroy();
    this.socket = undefined;
  }

  private connect(): Promise<net.Socket> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({
        host: this.host,
        port: this.port,
        noDelay: true,
        onread: { buffer: this.buffer, callback: (n: number, buf: Uint8Array) => this.read(buf as Buffer, n) },
      });
      const fail = (err: Error) => {
        if (this.socket === socket) this.socket = undefined;
        this.takePending()?.reject(err);
        reject(err);
      };
      socket.once('connect', () => {
        this.socket = socket;
        resolve(socket);
      });
      socket.on('error', fail);
      socket.on('close', () => fail(new Error('the server closed the connection')));
    });
  }

  /** n bytes came in buf; false would pause the socket (never) */
  private read(buf: Buffer, n: number): boolean {
    try {
      let at = 0;
      while (at < n) at = this.step(buf, at, n);
    } catch (err) {
      const p = this.takePending();
      this.close();
      p?.reject(err as Error);
    }
    return true;
  }

  /** parse from `at`; returns where the next part starts */
  private step(buf: Buffer, at: number, n: number): number {
    if (!this.pending) throw new Error('TimingClient: bytes with no request pending');
    switch (this.part) {
      case Part.Head:
      case Part.ChunkSize:
      case Part.ChunkEnd:
      case Part.Trailer: {
        const end = buf.indexOf(10, at); // '\n'
        const stop = end < 0 || end >= n ? n : end + 1;
        this.line += buf.toString('latin1', at, stop);
        if (stop === n && !this.line.endsWith('\n')) return n;
        this.lineDone();
        return stop;
      }
      case Part.Body:
      case Part.ChunkData: {
        const take = Math.min(this.left, n - at);
        this.left -= take;
        this.bytes += take;
        if (this.left === 0) {
          if (this.part === Part.Body) this.finish();
          else this.part = Part.ChunkEnd;
        }
        return at + take;
      }
    }
  }

  /** a whole line is in this.line */
  private lineDone(): void {
    const line = this.line;
    if (this.part === Part.Head) {
      // the head ends with an empty line
      if (!line.endsWith('\r\n\r\n')) return;
      this.line = '';
      const lines = line.slice(0, -4).split('\r\n');
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0]);
      if (!m) throw new Error(`TimingClient: not an HTTP answer: ${JSON.stringify(lines[0])}`);
      this.status = Number(m[1]);
      let length = -1,
        chunked = false;
      this.closeAfter = false;
      for (const h of lines.slice(1)) {
        const colon = h.indexOf(':');
        const name = h.slice(0, colon).trim().toLowerCase(),
          value = h
            .slice(colon + 1)
            .trim()
            .toLowerCase();
        if (name === 'content-length') length = Number(value);
        else if (name === 'transfer-encoding') chunked = value.split(',').some((v) => v.trim() === 'chunked');
        else if (name === 'connection') this.closeAfter = value === 'close';
      }
      if (this.status === 204 || this.status === 304 || (this.status >= 100 && this.status < 200)) length = 0;
      if (chunked) this.part = Part.ChunkSize;
      else if (length >= 0) {
        this.left = length;
        this.part = Part.Body;
        if (length === 0) this.finish();
      } else throw new Error('TimingClient: an answer with neither a length nor chunks');
      return;
    }
    this.line = '';
    if (this.part === Part.ChunkSize) {
      const size = Number.parseInt(line, 16);
      if (!Number.isFinite(size) || size < 0) throw new Error(`TimingClient: bad chunk size ${JSON.stringify(line)}`);
      if (size === 0) this.part = Part.Trailer;
      else {
        this.left = size;
        this.part = Part.ChunkData;
      }
    } else if (this.part === Part.ChunkEnd) {
      if (line !== '\r\n') throw new Error('TimingClient: a chunk not followed by CRLF');
      this.part = Part.ChunkSize;
    } else if (line === '\r\n') this.finish(); // Trailer: the empty line ends the answer
  }

  private finish(): void {
    const p = this.takePending()!;
    this.part = Part.Head;
    p.resolve({ status: this.status, ms: performance.now() - p.t0, bytes: this.bytes });
    if (this.closeAfter) this.close();
  }
}
