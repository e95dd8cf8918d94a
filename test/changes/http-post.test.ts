// The webhooks' HTTP client (undici's Client under src/changes/http-post.ts): what it sends, the
// statuses it answers (errors and timeouts included), and when it reuses a connection.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { PostConnection } from '../../src/changes/http-post.ts';

/** these receivers listen on loopback */
const LOOPBACK = { allowPrivate: true };

const post = suite('webhook HTTP client');

async function server(
  handler: http.RequestListener,
): Promise<{ url: string; server: http.Server; close(): Promise<void> }> {
  const s = http.createServer(handler);
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
    server: s,
    close: () =>
      new Promise((resolve) => {
        s.closeAllConnections();
        s.close(() => resolve());
      }),
  };
}

post('a POST: its head, headers and body as sent; the connection kept for the next; auth from the URL', async () => {
  const seen: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string; port: number }> =
    [];
  const srv = await server((req, res) => {
    let body = '';
    req.setEncoding('latin1');
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body, port: req.socket.remotePort! });
      if (seen.length === 2)
        res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(100_000)); // chunked, large
      else res.writeHead(204).end();
    });
  });
  const url = srv.url.replace('http://', 'http://user%40x:p%3Ass@') + '/hook/a?b=1';
  const c = new PostConnection(url, { 'Content-Type': 'application/json', 'X-Calendar-Webhook': 'wh_1' }, LOOPBACK);
  const body = Buffer.from(JSON.stringify({ changes: [{ name: 'é' }] }));
  assert.is(await c.post({ 'X-Calendar-Signature': 't=1,v1=ab' }, body, 5000), '204');
  assert.is(await c.post({ 'X-Calendar-Signature': 't=2,v1=cd' }, body, 5000), '200');
  assert.is(await c.post({ 'X-Calendar-Signature': 't=3,v1=ef' }, Buffer.alloc(300_000, 'a'), 5000), '204');
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

post(
  'a new connection after the receiver closes one (Connection: close, or an idle keep-alive timeout); errors and timeouts are statuses',
  async () => {
    const ports: number[] = [];
    let n = 0;
    const srv = await server((req, res) => {
      req.resume();
      req.on('end', () => {
        ports.push(req.socket.remotePort!);
        n++;
        if (n === 1) res.writeHead(500, { connection: 'close' }).end('no');
        else if (n === 4)
          setTimeout(() => res.writeHead(204).end(), 1000); // too slow
        else res.writeHead(204).end();
        if (n === 2) res.on('finish', () => setTimeout(() => req.socket.destroy(), 50)); // an idle connection closed
      });
    });
    const c = new PostConnection(srv.url, {}, LOOPBACK);
    const body = Buffer.from('{}');
    assert.is(await c.post({}, body, 5000), '500');
    assert.is(await c.post({}, body, 5000), '204');
    await new Promise((r) => setTimeout(r, 200)); // the server closes the idle connection
    assert.is(await c.post({}, body, 5000), '204');
    assert.is(ports.length, 3);
    assert.is.not(ports[1], ports[0], 'after Connection: close');
    assert.is.not(ports[2], ports[1], 'after the idle timeout');
    assert.is(await c.post({}, body, 200), 'timeout');
    // a receiver that is not there
    await srv.close();
    assert.match(await c.post({}, body, 5000), /^error: /);
    // one that answers garbage
    const junk = net.createServer((s) => s.once('data', () => s.end('220 smtp.example ready\r\n\r\n')));
    await new Promise<void>((resolve) => junk.listen(0, '127.0.0.1', resolve));
    const j = new PostConnection(`http://127.0.0.1:${(junk.address() as AddressInfo).port}/`, {}, LOOPBACK);
    assert.match(await j.post({}, body, 5000), /^error: /);
    // one that hangs up without answering
    const rude = net.createServer((s) => s.once('data', () => s.destroy()));
    await new Promise<void>((resolve) => rude.listen(0, '127.0.0.1', resolve));
    const r = new PostConnection(`http://127.0.0.1:${(rude.address() as AddressInfo).port}/`, {}, LOOPBACK);
    assert.match(await r.post({}, body, 5000), /^error: /);
    // destroy() ends a POST in flight
    const held: net.Socket[] = []; // never read: a silent receiver sees no hang-up either
    const silent = net.createServer((sock) => held.push(sock));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const s = new PostConnection(`http://127.0.0.1:${(silent.address() as AddressInfo).port}/`, {}, LOOPBACK);
    const pending = s.post({}, body, 5000);
    setTimeout(() => s.destroy(), 50);
    assert.is(await pending, 'aborted');
    // every client and server closed, so nothing is left holding the process
    for (const p of [c, j, r]) p.destroy();
    for (const sock of held) sock.destroy();
    await Promise.all([junk, rude, silent].map((x) => new Promise((resolve) => x.close(resolve))));
    assert.throws(() => new PostConnection('ftp://example.org/', {}), /not supported/);
  },
);

post.run();
