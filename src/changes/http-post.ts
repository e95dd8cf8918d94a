// The webhooks' HTTP client: one keep-alive connection per webhook (a webhook makes one delivery
// at a time), POSTs written as a prepared head and the body in one socket write, the answer read
// only as far as HTTP/1.1 needs to reuse the connection (status, Content-Length or chunked
// framing, Connection: close). node:http's client made each POST cost about twice the CPU of the
// same bytes on a bare socket (request and response objects, header validation, its parser's
// callbacks, the agent's bookkeeping: 240-400 µs against 130-160 µs a ~100 KB POST, signature
// included, measured on the bench machine), and webhooks make about a hundred POSTs a second
// under the change bench's writes. Plain http: and https: URLs (user:password@ in the URL becomes
// Basic authorization, as node:http does); no proxies, no redirects (a 3xx is not a 2xx: retried).

import net from 'node:net';
import tls from 'node:tls';

/** the longest answer head read (status line and headers) */
const MAX_HEAD = 64 * 1024;

const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');

/** How the answer's body ends. */
type BodyMode = 'none' | 'length' | 'chunked' | 'close';

/**
 * A POST in progress: the bytes of its answer fed in, `status` once the whole answer (body
 * included) has been read. Exported for tests.
 */
export class AnswerReader {
  status = 0;
  done = false;
  /** false: the connection cannot carry another request (Connection: close, HTTP/1.0, a body read
   *  to the end of the connection, bytes after the answer) */
  reusable = true;
  private pending: Buffer = Buffer.alloc(0);
  private state: 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailers' | 'close' = 'head';
  private left = 0;

  /** Feeds bytes; throws on an answer that is not HTTP/1.x. */
  feed(chunk: Buffer): void {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    for (;;) {
      if (this.done) {
        if (this.pending.length > 0) this.reusable = false; // nothing was asked for them
        return;
      }
      if (!this.step()) return;
    }
  }

  /** The connection ended: an answer whose body runs to the end of the connection is complete. */
  end(): boolean {
    if (this.state === 'close' && this.status !== 0) this.finish(false);
    return this.done;
  }

  private finish(reusable: boolean): void {
    this.done = true;
    if (!reusable) this.reusable = false;
  }

  /** One step of parsing; false: more bytes are needed. */
  private step(): boolean {
    const p = this.pending;
    switch (this.state) {
      case 'head': {
        const end = p.indexOf(HEAD_END);
        if (end < 0) {
          if (p.length > MAX_HEAD) throw new Error('answer head too large');
          return false;
        }
        const mode = this.head(p.toString('latin1', 0, end));
        this.pending = p.subarray(end + 4);
        if (mode === undefined) return true; // a 1xx: the answer follows
        if (mode === 'none') this.finish(true);
        else if (mode === 'length') {
          if (this.left === 0) this.finish(true);
          else this.state = 'length';
        } else this.state = mode === 'chunked' ? 'chunk-size' : 'close';
        if (mode === 'close') this.reusable = false;
        return true;
      }
      case 'length':
      case 'chunk-data': {
        if (p.length === 0) return false;
        const n = Math.min(this.left, p.length);
        this.left -= n;
        this.pending = p.subarray(n);
        if (this.left === 0) {
          if (this.state === 'length') this.finish(true);
          else this.state = 'chunk-end';
        }
        return true;
      }
      case 'chunk-size': {
        const eol = p.indexOf(CRLF);
        if (eol < 0) {
          if (p.length > 1024) throw new Error('bad chunk size');
          return false;
        }
        const text = p.toString('latin1', 0, eol).split(';')[0].trim();
        if (!/^[0-9a-fA-F]{1,8}$/.test(text)) throw new Error('bad chunk size');
        this.left = parseInt(text, 16);
        this.pending = p.subarray(eol + 2);
        this.state = this.left === 0 ? 'trailers' : 'chunk-data';
        return true;
      }
      case 'chunk-end': {
        if (p.length < 2) return false;
        if (p[0] !== 13 || p[1] !== 10) throw new Error('bad chunk end');
        this.pending = p.subarray(2);
        this.state = 'chunk-size';
        return true;
      }
      case 'trailers': {
        const eol = p.indexOf(CRLF);
        if (eol < 0) {
          if (p.length > MAX_HEAD) throw new Error('trailers too large');
          return false;
        }
        this.pending = p.subarray(eol + 2);
        if (eol === 0) this.finish(true);
        return true;
      }
      case 'close':
        this.pending = Buffer.alloc(0);
        return false;
    }
  }

  /** Reads a head: the status and how the body ends (undefined: an interim 1xx answer). */
  private head(text: string): BodyMode | undefined {
    const lines = text.split('\r\n');
    const m = /^HTTP\/1\.([01]) (\d{3})(?: |$)/.exec(lines[0]);
    if (!m) throw new Error(`not an HTTP/1.x answer: ${JSON.stringify(lines[0].slice(0, 40))}`);
    const status = Number(m[2]);
    if (status >= 100 && status < 200) return undefined;
    this.status = status;
    let length: number | undefined, chunked = false, close = m[1] === '0', keepAlive = false;
    for (let i = 1; i < lines.length; i++) {
      const colon = lines[i].indexOf(':');
      if (colon <= 0) continue;
      const name = lines[i].slice(0, colon).trim().toLowerCase(), value = lines[i].slice(colon + 1).trim().toLowerCase();
      if (name === 'content-length') {
        if (!/^\d+$/.test(value)) throw new Error('bad Content-Length');
        length = Number(value);
      } else if (name === 'transfer-encoding') chunked = value.split(',').map((s) => s.trim()).includes('chunked');
      else if (name === 'connection') {
        const tokens = value.split(',').map((s) => s.trim());
        if (tokens.includes('close')) close = true;
        if (tokens.includes('keep-alive')) keepAlive = true;
      }
    }
    if (m[1] === '0' && keepAlive && !chunked) close = false;
    if (close) this.reusable = false;
    if (status === 204 || status === 304) return 'none';
    if (chunked) return 'chunked';
    if (length !== undefined) {
      this.left = length;
      return 'length';
    }
    return 'close';
  }
}

/** A receiver's URL made into what every POST to it shares. */
interface Target {
  secure: boolean;
  host: string;
  port: number;
  servername: string | undefined;
  /** the request line and the headers every POST has, up to the varying ones */
  head: string;
}

function target(url: string, fixed: Record<string, string>): Target {
  const u = new URL(url);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`unsupported protocol ${u.protocol}`);
  const secure = u.protocol === 'https:';
  const host = u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname;
  let head = `POST ${u.pathname || '/'}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\n`;
  if (u.username || u.password) {
    const auth = Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64');
    head += `Authorization: Basic ${auth}\r\n`;
  }
  for (const [k, v] of Object.entries(fixed)) {
    if (/[\r\n]/.test(k + v)) throw new Error(`header ${k}: line breaks`);
    head += `${k}: ${v}\r\n`;
  }
  head += 'Connection: keep-alive\r\n';
  return { secure, host, port: Number(u.port) || (secure ? 443 : 80), servername: secure && net.isIP(host) === 0 ? host : undefined, head };
}

/**
 * One receiver's keep-alive connection, a POST at a time. post() answers the status code as text
 * ('204'), or 'error: ...'; an idle connection the receiver closes is dropped, and the next POST
 * opens a new one.
 */
export class PostConnection {
  private readonly target: Target;
  private socket: net.Socket | undefined;
  private busy = false;
  /** ends the POST in flight (destroy(), a timeout) */
  private finish: ((status: string) => void) | undefined;

  /** `fixed`: headers every POST has (their names as they should be sent). Throws on a bad URL. */
  constructor(url: string, fixed: Record<string, string>) {
    this.target = target(url, fixed);
  }

  private connect(): net.Socket {
    const t = this.target;
    const s = t.secure
      ? tls.connect({ host: t.host, port: t.port, servername: t.servername, ALPNProtocols: ['http/1.1'] })
      : net.connect({ host: t.host, port: t.port });
    s.setNoDelay(true);
    // while idle: the receiver closing it (or an error) drops it
    const drop = () => {
      if (this.socket === s && !this.busy) this.socket = undefined;
      s.destroy();
    };
    s.on('end', drop);
    s.on('close', drop);
    s.on('error', drop);
    s.on('data', () => {
      if (!this.busy) drop(); // bytes nobody asked for: the connection is in no known state
    });
    return s;
  }

  /** POSTs `body` with the fixed headers and `headers` (lines, each ending in \r\n). */
  post(headers: string, body: Buffer, timeoutMs: number): Promise<string> {
    if (this.busy) return Promise.reject(new Error('a POST is already in flight on this connection'));
    this.busy = true;
    let s = this.socket;
    if (s === undefined || s.destroyed || !s.writable) s = this.socket = this.connect();
    s.ref();
    const socket = s;
    return new Promise<string>((resolve) => {
      const reader = new AnswerReader();
      const timer = setTimeout(() => end('timeout', false), timeoutMs);
      timer.unref();
      const end = (status: string, keep: boolean) => {
        if (this.finish === undefined) return;
        this.finish = undefined;
        clearTimeout(timer);
        socket.off('data', onData);
        socket.off('end', onEnd);
        socket.off('close', onEnd);
        socket.off('error', onError);
        this.busy = false;
        if (keep && this.socket === socket) socket.unref();
        else {
          if (this.socket === socket) this.socket = undefined;
          socket.destroy();
        }
        resolve(status);
      };
      const onData = (chunk: Buffer) => {
        try {
          reader.feed(chunk);
        } catch (err) {
          return end(`error: ${(err as Error).message}`, false);
        }
        if (reader.done) end(String(reader.status), reader.reusable);
      };
      const onEnd = () => (reader.end() ? end(String(reader.status), false) : end('error: socket hang up', false));
      const onError = (err: Error) => end(`error: ${err.message}`, false);
      this.finish = (status) => end(status, false);
      socket.on('data', onData);
      socket.on('end', onEnd);
      socket.on('close', onEnd);
      socket.on('error', onError);
      socket.cork();
      socket.write(`${this.target.head}Content-Length: ${body.length}\r\n${headers}\r\n`, 'latin1');
      socket.write(body);
      socket.uncork();
    });
  }

  /** Ends the POST in flight (answering `status`, by default 'aborted') and closes the connection. */
  destroy(status = 'aborted'): void {
    this.finish?.(status);
    this.socket?.destroy();
    this.socket = undefined;
  }
}
