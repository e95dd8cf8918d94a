// The posters that make webhook deliveries' POSTs (src/changes/webhook-post.ts): on a worker
// thread (the default) and on the calendar's thread, the same request: signed, the body as made.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { InlinePoster, ThreadPoster, sharedBody, type Poster } from '../../src/changes/webhook-post.ts';
import { verifySignature, type Webhook } from '../../src/changes/webhook-registry.ts';

const post = suite('webhook posts');
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface Got { url: string; headers: http.IncomingHttpHeaders; body: string }

async function server(answer: (got: Got, res: http.ServerResponse) => void): Promise<{ base: string; got: Got[]; close(): Promise<void> }> {
  const got: Got[] = [];
  const srv = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const g = { url: req.url!, headers: req.headers, body };
      got.push(g);
      answer(g, res);
    });
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`, got,
    close: () => new Promise((resolve) => { srv.closeAllConnections(); srv.close(() => resolve()); }),
  };
}

const hook = (url: string, id = 'wh_test'): Webhook => ({ id, url, types: [], secret: 'a-secret-of-some-length-0123', created: '' });
const status = (p: Poster, h: Webhook, t: number, body: Uint8Array) => new Promise<string>((resolve) => p.send(h, t, body, resolve));

for (const [name, make] of [['a worker thread', () => new ThreadPoster()], ['this thread', () => new InlinePoster()]] as const) {
  post(`${name}: a signed POST of the body, its status; one body for several webhooks`, async () => {
    const rx = await server((g, res) => res.writeHead(g.url === '/fail' ? 503 : 204).end());
    const p = make();
    const text = '{"changes":[{"seq":1,"type":"tag","fields":{"name":"Café ☕"}}]}';
    const body = sharedBody(text);
    assert.is(body.toString('utf8'), text);
    assert.ok(body.buffer instanceof SharedArrayBuffer);
    const t = Math.floor(Date.now() / 1000);
    const [a, b] = await Promise.all([status(p, hook(`${rx.base}/a`, 'wh_a'), t, body), status(p, hook(`${rx.base}/fail`, 'wh_b'), t, body)]);
    assert.equal([a, b], ['204', '503']);
    assert.is(rx.got.length, 2);
    for (const g of rx.got) {
      assert.is(g.body, text);
      assert.is(g.headers['content-type'], 'application/json');
      assert.ok(verifySignature('a-secret-of-some-length-0123', String(g.headers['x-calendar-signature']), g.body), 'the signature verifies');
    }
    assert.equal(rx.got.map((g) => g.headers['x-calendar-webhook']).sort(), ['wh_a', 'wh_b']);
    // nothing listening: an error status
    const dead = await status(p, hook('http://127.0.0.1:9/x'), t, body);
    assert.match(dead, /^error: /);
    await p.close();
    await rx.close();
  });

  post(`${name}: an abandoned POST reports nothing and its connection is closed`, async () => {
    let closed!: () => void;
    const gone = new Promise<void>((resolve) => (closed = resolve));
    const rx = await server((_g, res) => res.on('close', () => closed())); // never answers
    const p = make();
    let reported: string | undefined;
    const abandon = p.send(hook(`${rx.base}/slow`), 1, sharedBody('{}'), (s) => (reported = s));
    const until = Date.now() + 5000;
    while (rx.got.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    assert.is(rx.got.length, 1, 'the receiver had it');
    abandon();
    await gone;
    await new Promise((r) => setTimeout(r, 50));
    assert.is(reported, undefined);
    await p.close();
    await rx.close();
  });
}

post('a worker thread: a thread that dies fails the POSTs in flight, and the next POST starts another', async () => {
  const rx = await server((g, res) => {
    if (g.url !== '/hang') res.writeHead(200).end();
  });
  const p = new ThreadPoster();
  const hanging = status(p, hook(`${rx.base}/hang`), 1, sharedBody('{}'));
  while (rx.got.length === 0) await new Promise((r) => setTimeout(r, 10));
  await (p as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
  assert.match(await hanging, /^error: webhook thread exited/);
  assert.is(await status(p, hook(`${rx.base}/ok`), 1, sharedBody('{}')), '200');
  await p.close();
  await rx.close();
});

post('a worker thread keeps the process alive while a POST is in flight, not once it is answered', () => {
  const script = `
    import http from 'node:http';
    import { ThreadPoster, sharedBody } from './src/changes/webhook-post.ts';
    const srv = http.createServer((req, res) => { req.socket.unref(); req.resume(); setTimeout(() => res.writeHead(204).end(), 300).unref(); });
    srv.listen(0, '127.0.0.1', () => {
      const url = 'http://127.0.0.1:' + srv.address().port + '/h';
      srv.unref(); // only the POST in flight keeps the process alive (its server side and timer are unref'd)
      new ThreadPoster().send({ id: 'wh', url, types: [], secret: 'a-secret-of-some-length-0123' }, 1, sharedBody('{}'), (s) => console.log('status ' + s));
    });`;
  const started = Date.now();
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 20_000 });
  assert.is(r.stdout.trim(), 'status 204', `${r.stdout} ${r.stderr}`);
  assert.is(r.status, 0, 'the process ended by itself, the thread not holding it');
  assert.ok(Date.now() - started < 15_000);
});

post.run();
