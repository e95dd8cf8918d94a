// The webhooks' HTTP client: one keep-alive connection per webhook (a webhook makes one delivery
// at a time) through undici's Client, the Node.js project's HTTP/1.1 client, used at its lowest
// level (dispatch with a handler: no request or response objects, no body stream; the answer's
// body is read and dropped). node:http's client cost about half as much CPU again a ~100 KB POST
// (request and response objects, header validation, the agent's bookkeeping): measured on this
// machine, signature included, node:http 280-390 µs against 170-310 µs through dispatch.
// http: and https: URLs; user:password@ in the URL becomes Basic authorization, as node:http does.
// Unless the webhook allows private addresses, the receiver's address is checked at every
// connection (src/security/addresses.ts): an IP literal before the POST, a name through the
// connection's own resolver, so the address connected to is the one checked (DNS rebinding). No
// redirect is followed.

import { Client, type Dispatcher } from 'undici';
import { checkUrlLiteral, guardedLookup } from '../security/addresses.ts';

export interface PostOptions {
  /** may connect to loopback, private, link-local and this host's own addresses */
  allowPrivate?: boolean;
}

/**
 * One receiver's keep-alive connection, a POST at a time. post() answers the status code as text
 * ('204'), 'timeout', or 'error: ...'; an idle connection the receiver closes is reopened by the
 * next POST.
 */
export class PostConnection {
  private readonly origin: string;
  private readonly path: string;
  /** header names and values every POST has, flat (name, value, name, value…) */
  private readonly fixed: string[];
  private client: Client | undefined;
  /** ends the POST in flight (destroy(), a timeout) */
  private finish: ((status: string) => void) | undefined;

  private readonly allowPrivate: boolean;

  /** `fixed`: headers every POST has. Throws on a URL it cannot POST to (or may not reach). */
  constructor(url: string, fixed: Record<string, string>, opts: PostOptions = {}) {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:')
      throw new Error(`${u.protocol} URLs are not supported (http: or https:)`);
    this.allowPrivate = opts.allowPrivate === true;
    if (!this.allowPrivate) checkUrlLiteral(url);
    this.origin = u.origin;
    this.path = `${u.pathname}${u.search}`;
    this.fixed = [];
    for (const [k, v] of Object.entries(fixed)) this.fixed.push(k, v);
    if (u.username || u.password) {
      this.fixed.push(
        'authorization',
        `Basic ${Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64')}`,
      );
    }
  }

  /** POSTs `body` with the fixed headers and `headers`. */
  post(headers: Record<string, string>, body: Buffer, timeoutMs: number): Promise<string> {
    if (this.finish !== undefined) return Promise.reject(new Error('a POST is already in flight on this connection'));
    const guard = this.allowPrivate ? {} : { connect: { lookup: guardedLookup } };
    const client = (this.client ??= new Client(this.origin, { pipelining: 1, ...guard }));
    const all = this.fixed.slice();
    for (const k in headers) all.push(k, headers[k]);
    return new Promise<string>((resolve) => {
      let status = 0;
      let abort: ((err?: Error) => void) | undefined;
      // the whole POST's time limit (undici's own, per phase, are far longer and never reached)
      const timer = setTimeout(() => end('timeout', true), timeoutMs);
      timer.unref();
      const end = (answer: string, cut: boolean) => {
        if (this.finish === undefined) return;
        this.finish = undefined;
        clearTimeout(timer);
        if (cut) abort?.();
        resolve(answer);
      };
      this.finish = (answer) => end(answer, true);
      const handler: Dispatcher.DispatchHandlers = {
        onConnect: (a) => {
          abort = a;
        },
        onHeaders: (code) => {
          status = code;
          return true;
        },
        onData: () => true,
        onComplete: () => end(String(status), false),
        onError: (err) => end(`error: ${err.message}`, false),
      };
      try {
        client.dispatch({ origin: this.origin, path: this.path, method: 'POST', headers: all, body }, handler);
      } catch (err) {
        end(`error: ${(err as Error).message}`, false);
      }
    });
  }

  /** Ends the POST in flight (answering `status`, by default 'aborted') and closes the connection. */
  destroy(status = 'aborted'): void {
    this.finish?.(status);
    const client = this.client;
    this.client = undefined;
    void client?.destroy().catch(() => {});
  }
}
