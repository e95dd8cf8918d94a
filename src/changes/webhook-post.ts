// Making a webhook delivery's POST: signing it (HMAC-SHA256 of `${t}.${body}`) and sending it
// through a keep-alive connection. The dispatcher (webhooks.ts) decides what to send and when,
// keeps the positions, the timeout and the retries; a Poster only makes the request and reports
// its status.
//
// By default the POSTs are made on a worker thread (ThreadPoster): signing each webhook's copy of
// a batch and writing it to a socket is most of what webhooks cost the server (about 12–16 µs per
// write with 10 webhooks in `npm run bench:changes`, on the thread that also serves the writes);
// on the worker it costs that thread one message out and one back per POST. The body is made once
// per batch, in a SharedArrayBuffer, so that handing it to the worker copies nothing however many
// webhooks send it. InlinePoster makes them on the calendar's own thread (`postThread: false`,
// and the fallback when a worker cannot be started).

import http from 'node:http';
import https from 'node:https';
import { Worker } from 'node:worker_threads';
import { signature, type Webhook } from './webhook-registry.ts';

export interface Poster {
  /** Starts a POST of `body` to `hook`, signed at `t` (UNIX seconds); `done` gets its status once
   *  (the HTTP status code, or `error: ...`). Returns a function that abandons it (its connection
   *  is destroyed; `done` is not called after). */
  send(hook: Webhook, t: number, body: Uint8Array, done: (status: string) => void): () => void;
  /** Ends the connections (and the thread). */
  close(): Promise<void>;
}

/** A body made once, readable by every webhook's POST (on whichever thread): bytes in a SharedArrayBuffer. */
export function sharedBody(text: string): Buffer {
  const bytes = Buffer.from(new SharedArrayBuffer(Buffer.byteLength(text, 'utf8')));
  bytes.write(text, 'utf8');
  return bytes;
}

const headers = (hook: Webhook, t: number, body: Uint8Array) => ({
  'content-type': 'application/json', 'content-length': body.byteLength,
  'x-calendar-signature': signature(hook.secret, t, body as Buffer), 'x-calendar-webhook': hook.id,
});

/** POSTs on the calendar's thread (node:http keep-alive agents: a fraction of fetch's CPU). */
export class InlinePoster implements Poster {
  private readonly agents = { http: new http.Agent({ keepAlive: true, maxSockets: 4 }), https: new https.Agent({ keepAlive: true, maxSockets: 4 }) };

  send(hook: Webhook, t: number, body: Uint8Array, done: (status: string) => void): () => void {
    let settled = false;
    const once = (status: string) => {
      if (settled) return;
      settled = true;
      done(status);
    };
    let req: http.ClientRequest;
    try {
      const url = new URL(hook.url);
      const secure = url.protocol === 'https:';
      req = (secure ? https : http).request(url, {
        method: 'POST', agent: secure ? this.agents.https : this.agents.http, headers: headers(hook, t, body),
      }, (res) => {
        res.resume(); // the answer's body is not read, only drained
        res.on('end', () => once(String(res.statusCode)));
        res.on('error', (err) => once(`error: ${err.message}`));
      });
    } catch (err) {
      once(`error: ${(err as Error).message}`);
      return () => {};
    }
    req.on('error', (err) => once(`error: ${err.message}`));
    req.end(body);
    return () => {
      settled = true;
      req.destroy();
    };
  }

  close(): Promise<void> {
    this.agents.http.destroy();
    this.agents.https.destroy();
    return Promise.resolve();
  }
}

// The worker: plain CommonJS (eval: no loader, as the snapshot's hash worker). Messages in:
// {id, url, hook, secret, t, body} (body: a Uint8Array over the batch's SharedArrayBuffer) and
// {abort: id}; out: {id, status}. The signature is webhook-registry.ts's signature(), the same
// formula (a test checks every delivery's with verifySignature).
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const http = require('node:http');
const https = require('node:https');
const { createHmac } = require('node:crypto');
const agents = { 'http:': new http.Agent({ keepAlive: true, maxSockets: 4 }), 'https:': new https.Agent({ keepAlive: true, maxSockets: 4 }) };
const reqs = new Map();
parentPort.on('message', (m) => {
  if (m.abort !== undefined) {
    const req = reqs.get(m.abort);
    reqs.delete(m.abort);
    if (req) req.destroy();
    return;
  }
  const { id, url, hook, secret, t, body } = m;
  const done = (status) => {
    if (!reqs.has(id)) return;
    reqs.delete(id);
    parentPort.postMessage({ id, status });
  };
  reqs.set(id, undefined);
  try {
    const u = new URL(url);
    const buf = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    const v1 = createHmac('sha256', secret).update(t + '.').update(buf).digest('hex');
    const req = (u.protocol === 'https:' ? https : http).request(u, {
      method: 'POST', agent: agents[u.protocol],
      headers: { 'content-type': 'application/json', 'content-length': buf.length, 'x-calendar-signature': 't=' + t + ',v1=' + v1, 'x-calendar-webhook': hook },
    }, (res) => {
      res.resume();
      res.on('end', () => done(String(res.statusCode)));
      res.on('error', (err) => done('error: ' + err.message));
    });
    reqs.set(id, req);
    req.on('error', (err) => done('error: ' + err.message));
    req.end(buf);
  } catch (err) {
    done('error: ' + err.message);
  }
});
`;

/** POSTs on a worker thread, started at the first POST (and again after it failed). The thread
 *  keeps the process alive only while POSTs are in flight, as their sockets would. */
export class ThreadPoster implements Poster {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, (status: string) => void>();
  private readonly fallback = new InlinePoster();
  private failed = false;

  private start(): Worker | undefined {
    if (this.worker || this.failed) return this.worker;
    let worker: Worker;
    try {
      worker = new Worker(WORKER_SOURCE, { eval: true, execArgv: [], stdout: false, stderr: false });
    } catch {
      this.failed = true; // no threads here: POSTs are made on this one
      return undefined;
    }
    worker.unref();
    worker.on('message', (m: { id: number; status: string }) => {
      const done = this.waiting.get(m.id);
      if (!done) return; // abandoned meanwhile
      this.waiting.delete(m.id);
      if (this.waiting.size === 0) worker.unref();
      done(m.status);
    });
    const lost = (why: string) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      const all = [...this.waiting.values()];
      this.waiting.clear();
      for (const done of all) done(`error: webhook thread ${why}`);
    };
    worker.on('error', (err) => lost(`failed: ${err.message}`));
    worker.on('exit', (code) => lost(`exited (${code})`));
    return (this.worker = worker);
  }

  send(hook: Webhook, t: number, body: Uint8Array, done: (status: string) => void): () => void {
    const worker = this.start();
    if (!worker) return this.fallback.send(hook, t, body, done);
    const id = this.nextId++;
    if (this.waiting.size === 0) worker.ref();
    this.waiting.set(id, done);
    worker.postMessage({ id, url: hook.url, hook: hook.id, secret: hook.secret, t, body });
    return () => {
      if (!this.waiting.delete(id)) return;
      if (this.waiting.size === 0) worker.unref();
      if (this.worker === worker) worker.postMessage({ abort: id });
    };
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.waiting.clear();
    await this.fallback.close();
    if (worker) await worker.terminate();
  }
}
