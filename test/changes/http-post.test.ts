// The webhooks' HTTP client: what it sends, how it reads answers (lengths, chunks, answers read
// to the end of the connection, interim 1xx, split anywhere), and when it reuses a connection.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { AnswerReader, PostConnection } from '../../src/changes/http-post.ts';

const post = suite('webhook HTTP client');

/** Feeds `text` to a reader in pieces of `size` bytes. */
function read(text: string, size: number): AnswerReader {
  const r = new AnswerReader();
  const b = Buffer.from(text, 'latin1');
  for (let i = 0; i < b.length; i += size) r.feed(b.subarray(i, i + size));
  return r;
}

post('answers: Content-Length, chunked with trailers, 204, HTTP/1.0, Connection: close, interim 1xx; in pieces of any size', () => {
  const cases: Array<[string, number, boolean]> = [
    ['HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello', 200, true],
    ['HTTP/1.1 201 Created\r\ncontent-length: 0\r\n\r\n', 201, true],
    ['HTTP/1.1 204 No Content\r\nConnection: keep-alive\r\n\r\n', 204, true],
    ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=1\r\nhello\r\n10\r\n0123456789abcdef\r\n0\r\nX-T: 1\r\n\r\n', 200, true],
    ['HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 202 Accepted\r\nContent-Length: 2\r\n\r\nok', 202, true],
    ['HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 4\r\n\r\nbusy', 503, false],
    ['HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok', 200, false],
    ['HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nok', 200, true],
    ['HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokEXTRA', 200, false],
  ];
  for (const [text, status, reusable] of cases) {
    for (const size of [1, 3, 7, 1000]) {
      const r = read(text, size);
      assert.ok(r.done, `${JSON.stringify(text)} in pieces of ${size}: done`);
      assert.is(r.status, status, `${JSON.stringify(text)}: status`);
      assert.is(r.reusable, reusable, `${JSON.stringify(text)} in pieces of ${size}: reusable`);
    }
  }
  // not done before its body is whole
  assert.not.ok(read('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhell', 2).done);
  assert.not.ok(read('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n', 4).done);
  // a body without a length runs to the end of the connection
  const r = read('HTTP/1.1 200 OK\r\n\r\nsome text', 4);
  assert.not.ok(r.done);
  assert.ok(r.end());
  assert.is(r.status, 200);
  assert.not.ok(r.reusable);
  assert.throws(() => read('SMTP ready\r\n\r\n', 100), /not an HTTP/);
  assert.throws(() => read('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', 100), /chunk/);
});

async function server(handler: http.RequestListener): Promise<{ url: string; server: http.Server; close(): Promise<void> }> {
  const s = http.createServer(handler);
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, server: s,
    close: () => new Promise((resolve) => { s.closeAllConnections(); s.close(() => resolve()); }),
  };
}

post('a POST: its head, headers and body as sent; the connection kept for the next; auth from the URL', async () => {
  const seen: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string; port: number }> = [];
  const srv = await server((req, res) => {
    let body = '';
    req.setEncoding('latin1');
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body, port: req.socket.remotePort! });
      if (seen.length === 2) res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(100_000)); // chunked, large
      else res.writeHead(204).end();
    });
  });
  const url = srv.url.replace('http://', 'http://user%40x:p%3Ass@') + '/hook/a?b=1';
  const c = new PostConnection(url, { 'Content-Type': 'application/json', 'X-Calendar-Webhook': 'wh_1' });
  const body = Buffer.from(JSON.stringify({ changes: [{ name: 'é' }] }));
  assert.is(await c.post('X-Calendar-Signature: t=1,v1=ab\r\n', body, 5000), '204');
  assert.is(await c.post('X-Calendar-Signature: t=2,v1=cd\r\n', body, 5000), '200');
  assert.is(await c.post('X-Calendar-Signature: t=3,v1=ef\r\n', Buffer.alloc(300_000, 'a'), 5000), '204');
  c.destroy();
  await srv.close();
  assert.is(seen.length, 3);
  assert.is(seen[0].method, 'POST');
  assert.is(seen[0].url, '/hook/a?b=1');
  assert.is(seen[0].headers['content-type'], 'application/json');
  assert.is(seen[0].headers['x-calendar-webhook'], 'wh_1');
  assert.is(seen[0].headers['x-calendar-signature'], 't=1,v1=ab');
  assert.is(seen[0].headers['content-length'], String(body.length));
  assert.is(seen[0].headers.authorization, `Basic ${Buffer.from('user@x:p:ss').toString('base64')}`);
  assert.is(seen[0].headers.host, new URL(srv.url).host);
  assert.is(Buffer.from(seen[0].body, 'latin1').toString('utf8'), JSON.stringify({ changes: [{ name: 'é' }] }));
  assert.is(seen[2].body.length, 300_000);
  assert.is(seen[1].port, seen[0].port, 'the second POST on the same connection');
  assert.is(seen[2].port, seen[0].port, 'the third too, after a large chunked answer');
});

post('a new connection after the receiver closes one (Connection: close, or an idle keep-alive timeout); errors and timeouts are statuses', async () => {
  const ports: number[] = [];
  let n = 0;
  const srv = await server((req, res) => {
    req.resume();
    req.on('end', () => {
      ports.push(req.socket.remotePort!);
      n++;
      if (n === 1) res.writeHead(500, { connection: 'close' }).end('no');
      else if (n === 4) setTimeout(() => res.writeHead(204).end(), 1000); // too slow
      else res.writeHead(204).end();
      if (n === 2) res.on('finish', () => setTimeout(() => req.socket.destroy(), 50)); // an idle connection closed
    });
  });
  const c = new PostConnection(srv.url, {});
  const body = Buffer.from('{}');
  assert.is(await c.post('', body, 5000), '500');
  assert.is(await c.post('', body, 5000), '204');
  await new Promise((r) => setTimeout(r, 200)); // the server closes the idle connection
  assert.is(await c.post('', body, 5000), '204');
  assert.is(ports.length, 3);
  assert.is.not(ports[1], ports[0], 'after Connection: close');
  assert.is.not(ports[2], ports[1], 'after the idle timeout');
  assert.is(await c.post('', body, 200), 'timeout');
  // a receiver that is not there
  await srv.close();
  assert.match(await c.post('', body, 5000), /^error: /);
  // one that answers garbage
  const junk = net.createServer((s) => s.once('data', () => s.end('220 smtp.example ready\r\n\r\n')));
  await new Promise<void>((resolve) => junk.listen(0, '127.0.0.1', resolve));
  const j = new PostConnection(`http://127.0.0.1:${(junk.address() as AddressInfo).port}/`, {});
  assert.match(await j.post('', body, 5000), /^error: not an HTTP/);
  // one that hangs up without answering
  const rude = net.createServer((s) => s.once('data', () => s.destroy()));
  await new Promise<void>((resolve) => rude.listen(0, '127.0.0.1', resolve));
  const r = new PostConnection(`http://127.0.0.1:${(rude.address() as AddressInfo).port}/`, {});
  assert.match(await r.post('', body, 5000), /^error: /);
  // destroy() ends a POST in flight
  const silent = net.createServer(() => {});
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const s = new PostConnection(`http://127.0.0.1:${(silent.address() as AddressInfo).port}/`, {});
  const pending = s.post('', body, 5000);
  setTimeout(() => s.destroy(), 50);
  assert.is(await pending, 'aborted');
  for (const x of [junk, rude, silent]) x.close();
  assert.throws(() => new PostConnection('ftp://example.org/', {}), /protocol/);
});

post.run();
