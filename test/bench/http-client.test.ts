import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TimingClient } from '../../bench/http-client.ts';

/** a server whose routes answer with known bodies; counts the connections it accepted */
async function server(): Promise<{ base: string; connections: () => number; close: () => Promise<void> }> {
  let connections = 0;
  const body = (n: number) => Buffer.alloc(n, 'x');
  const s = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const n = Number(url.searchParams.get('n') ?? 0);
    if (url.pathname === '/length') {
      res.writeHead(200, { 'content-length': n });
      res.end(body(n));
    } else if (url.pathname === '/chunked') {
      // several writes: chunked transfer, each chunk of its own size
      res.writeHead(201, { 'content-type': 'text/plain' });
      let left = n;
      for (let i = 1; left > 0; i++) {
        const k = Math.min(left, 1000 * i);
        res.write(body(k));
        left -= k;
      }
      res.end();
    } else if (url.pathname === '/empty') {
      res.writeHead(204);
      res.end();
    } else if (url.pathname === '/close') {
      res.writeHead(404, { connection: 'close', 'content-length': 3 });
      res.end('no!');
    } else if (url.pathname === '/drop') {
      req.socket.destroy();
    }
  });
  s.on('connection', () => connections++);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    connections: () => connections,
    close: () => new Promise((r) => s.close(() => r())),
  };
}

type Served = Awaited<ReturnType<typeof server>>;

/** fn with a fresh server and a client of it, both closed afterwards */
async function withClient(fn: (c: TimingClient, s: Served) => Promise<void>): Promise<void> {
  const s = await server();
  const c = TimingClient.of(s.base);
  try {
    await fn(c, s);
  } finally {
    c.close();
    await s.close();
  }
}

test('TimingClient :: bodies by length and by chunks, whole, on one connection', () =>
  withClient(async (c, s) => {
    // larger than a read of the socket, and than the client's buffer
    for (const n of [0, 1, 5000, 300_000, 3_000_000]) {
      const a = await c.get(`/length?n=${n}`);
      assert.equal([a.status, a.bytes], [200, n], `length ${n}`);
      const b = await c.get(`/chunked?n=${n}`);
      assert.equal([b.status, b.bytes], [201, n], `chunked ${n}`);
      assert.ok(a.ms > 0 && b.ms > 0);
    }
    const e = await c.get('/empty');
    assert.equal([e.status, e.bytes], [204, 0]);
    assert.is(s.connections(), 1);
  }));

test('TimingClient :: connects again after the server closed the connection', () =>
  withClient(async (c, s) => {
    const a = await c.get('/close');
    assert.equal([a.status, a.bytes], [404, 3]);
    const b = await c.get('/length?n=10');
    assert.equal([b.status, b.bytes], [200, 10]);
    assert.is(s.connections(), 2);
  }));

test('TimingClient :: a connection dropped before the answer rejects the request', () =>
  withClient(async (c) => {
    await c.get('/drop').then(
      () => assert.unreachable('answered'),
      (err: Error) => assert.match(err.message, /closed/),
    );
    const b = await c.get('/length?n=7');
    assert.equal([b.status, b.bytes], [200, 7]);
  }));

test('TimingClient :: one request at a time', () =>
  withClient(async (c) => {
    const first = c.get('/length?n=1');
    await c.get('/length?n=1').then(
      () => assert.unreachable('a second request was sent'),
      (err: Error) => assert.match(err.message, /one request at a time/),
    );
    assert.is((await first).bytes, 1);
  }));

test.run();
