// Webhooks end to end: a local receiver that fails the first deliveries, is down across a
// restart of the calendar, then recovers: every change arrives, in order, signed, and nothing
// acknowledged with a 2xx is delivered again.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { openCalendar } from '../../src/index.ts';
import {
  addWebhook,
  readWebhooks,
  removeWebhook,
  signature,
  verifySignature,
  WebhookError,
} from '../../src/changes/webhook-registry.ts';

/** the receivers of these tests listen on loopback: their webhooks must allow private addresses */
const LOOPBACK = { allowPrivate: true };
import type { Change } from '../../src/changes/change.ts';
import { NOW } from '../helpers/calendar.ts';

const hooks = suite('webhooks');
const FAST = { retryBaseMs: 20, retryMaxMs: 200, reloadMs: 50, log: () => {} };

interface Receiver {
  url: string;
  /** deliveries answered 2xx, in arrival order */
  accepted: Change[][];
  attempts: number;
  badSignatures: number;
  failNext: number;
  close(): Promise<void>;
}

async function receiver(secret: () => string, port = 0): Promise<Receiver> {
  const r: Receiver = { url: '', accepted: [], attempts: 0, badSignatures: 0, failNext: 0, close: async () => {} };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      r.attempts++;
      if (!verifySignature(secret(), String(req.headers['x-calendar-signature']), body)) r.badSignatures++;
      if (r.failNext > 0) {
        r.failNext--;
        res.writeHead(503).end();
        return;
      }
      r.accepted.push((JSON.parse(body) as { changes: Change[] }).changes);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  r.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return r;
}

/** A store with one webhook, to a receiver that fails every delivery for now. */
async function failingHook(): Promise<{ dir: string; rx: Receiver }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-hooks-'));
  let secret = '';
  const rx = await receiver(() => secret);
  secret = addWebhook(dir, rx.url, [], undefined, LOOPBACK).secret;
  rx.failNext = 1_000;
  return { dir, rx };
}

async function until(what: string, ok: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

hooks('signatures: HMAC-SHA256 over the timestamp and the body; verification refuses changes and old ones', () => {
  const sig = signature('s3cret-s3cret-s3cret', 1700000000, '{"a":1}');
  assert.match(sig, /^t=1700000000,v1=[0-9a-f]{64}$/);
  assert.ok(verifySignature('s3cret-s3cret-s3cret', sig, '{"a":1}', 1700000100));
  assert.not.ok(verifySignature('s3cret-s3cret-s3cret', sig, '{"a":2}', 1700000100), 'another body');
  assert.not.ok(verifySignature('another-secret-xx', sig, '{"a":1}', 1700000100), 'another secret');
  assert.not.ok(verifySignature('s3cret-s3cret-s3cret', sig, '{"a":1}', 1700009999), 'too old');
});

hooks('the registry: add checks the URL, types and secret; remove by id or URL', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-hooks-'));
  assert.throws(
    () => addWebhook(dir, 'ftp://x'),
    (e: unknown) => e instanceof WebhookError,
  );
  assert.throws(
    () => addWebhook(dir, 'not a url'),
    (e: unknown) => e instanceof WebhookError,
  );
  assert.throws(
    () => addWebhook(dir, 'http://x/h', ['party' as never]),
    (e: unknown) => e instanceof WebhookError,
  );
  assert.throws(
    () => addWebhook(dir, 'http://x/h', [], 'short'),
    (e: unknown) => e instanceof WebhookError,
  );
  const a = addWebhook(dir, 'http://x/a', ['event']);
  const b = addWebhook(dir, 'http://x/b');
  assert.ok(a.secret.length >= 24, 'a generated secret');
  assert.equal(
    readWebhooks(dir).map((h) => h.url),
    ['http://x/a', 'http://x/b'],
  );
  removeWebhook(dir, a.id);
  removeWebhook(dir, 'http://x/b');
  assert.equal(readWebhooks(dir), []);
  assert.is(b.types.length, 0);
});

hooks('a flaky receiver, down across a restart: every change arrives once, in order, signed', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-hooks-'));
  let secret = '';
  const rx = await receiver(() => secret);
  const hook = addWebhook(dir, rx.url, ['tag', 'category'], undefined, LOOPBACK);
  secret = hook.secret;
  let cal = await openCalendar({ dir, now: () => NOW, webhooks: FAST });
  rx.failNext = 3; // the first deliveries fail
  for (let i = 0; i < 5; i++) await cal.tags.create({ name: `tag ${i}` });
  await cal.events.create({ title: 'not wanted', start_date: '2030-01-01 10:00', end_date: '2030-01-01 11:00' });
  await until('the first five', () => rx.accepted.flat().length === 5);
  // the receiver goes down; writes go on; the calendar restarts
  const port = Number(new URL(rx.url).port);
  await rx.close();
  for (let i = 5; i < 9; i++) await cal.categories.create({ name: `cat ${i}` });
  await new Promise((r) => setTimeout(r, 100)); // a few failed attempts
  await cal.close();
  cal = await openCalendar({ dir, now: () => NOW, webhooks: FAST });
  await cal.tags.create({ name: 'after the restart' });
  const rx2 = await receiver(() => secret, port); // back up on the same address
  await until('all ten', () => rx2.accepted.flat().length === 5);
  const all = [...rx.accepted.flat(), ...rx2.accepted.flat()];
  assert.equal(
    all.map((c) => c.seq),
    [1, 2, 3, 4, 5, 7, 8, 9, 10, 11],
    'in order, each once, the event not sent',
  );
  assert.equal(
    all.map((c) => c.type),
    ['tag', 'tag', 'tag', 'tag', 'tag', 'category', 'category', 'category', 'category', 'tag'],
  );
  assert.is(rx.badSignatures + rx2.badSignatures, 0);
  assert.ok(rx.attempts > rx.accepted.length, 'failed attempts were retried');
  await cal.close();
  await rx2.close();
});

hooks(
  'a lagging webhook keeps its changes past the retention window (across a restart), up to maxBacklog; past it the skip is in its state',
  async () => {
    const { dir, rx } = await failingHook();
    const opts = { dir, now: () => NOW, changesRetainCount: 2, webhooks: { ...FAST, maxBacklog: 6 } };
    let cal = await openCalendar(opts);
    for (let i = 0; i < 5; i++) await cal.tags.create({ name: `kept ${i}` });
    assert.is(cal.feed.floor, 0, 'the window (2 changes) is held open for the webhook');
    await cal.close();
    cal = await openCalendar(opts);
    assert.is(cal.feed.floor, 0, 'and still after a restart (the change log kept them)');
    rx.failNext = 0;
    await until('the five', () => rx.accepted.flat().length === 5);
    assert.equal(
      rx.accepted.flat().map((c) => c.seq),
      [1, 2, 3, 4, 5],
    );
    const delivered = () => {
      try {
        return Object.values(
          JSON.parse(fs.readFileSync(path.join(dir, 'webhooks-state.json'), 'utf8')) as Record<
            string,
            { delivered: number }
          >,
        )[0].delivered;
      } catch {
        return -1; // being replaced
      }
    };
    await cal.tags.create({ name: 'more' });
    await until('the sixth acknowledged', () => delivered() === 6);
    await cal.tags.create({ name: 'and more' }); // the window follows the webhook again
    assert.is(cal.feed.floor, 5);
    // down again, for more than maxBacklog changes: 7..15, of which the newest 6 are kept
    await until('the seventh acknowledged', () => delivered() === 7);
    rx.failNext = 1_000;
    for (let i = 0; i < 9; i++) await cal.tags.create({ name: `lost ${i}` });
    assert.is(cal.feed.floor, 10, 'at most maxBacklog changes kept');
    rx.failNext = 0;
    await until('the newest six', () => rx.accepted.flat().at(-1)?.seq === 16);
    await cal.close();
    const [st] = Object.values(
      JSON.parse(fs.readFileSync(path.join(dir, 'webhooks-state.json'), 'utf8')) as Record<
        string,
        { skipped: number; delivered: number }
      >,
    );
    assert.equal([st.skipped, st.delivered], [3, 16], 'writes 8..10 skipped, and said so');
    assert.equal(
      rx.accepted.flat().map((c) => c.seq),
      [1, 2, 3, 4, 5, 6, 7, 11, 12, 13, 14, 15, 16],
    );
    await rx.close();
  },
);

hooks(
  'close() while a POST is in flight: its 2xx is recorded and it is not delivered again; one unanswered within stopWaitMs is aborted and comes again',
  async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-hooks-'));
    /** the seqs of every delivery the receiver had, answered or not */
    const got: number[][] = [];
    /** answer the requests: held until told (undefined: answer at once) */
    let hold: Array<() => void> | undefined = [];
    let received!: () => void;
    let arrived = new Promise<void>((resolve) => (received = resolve));
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        got.push((JSON.parse(body) as { changes: Change[] }).changes.map((c) => c.seq));
        received();
        const answer = () => res.writeHead(204).end();
        if (hold) hold.push(answer);
        else answer();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const hook = addWebhook(
      dir,
      `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
      [],
      undefined,
      LOOPBACK,
    );
    const state = () =>
      (
        JSON.parse(fs.readFileSync(path.join(dir, 'webhooks-state.json'), 'utf8')) as Record<
          string,
          { delivered: number; lastStatus: string }
        >
      )[hook.id];
    const opts = { dir, now: () => NOW, webhooks: { ...FAST, timeoutMs: 60_000, stopWaitMs: 30_000 } };

    // 1. the receiver has the delivery, its 204 comes only once close() has begun: close waits for it
    let cal = await openCalendar(opts);
    await cal.tags.create({ name: 'one' });
    await arrived;
    const closing = cal.close();
    await new Promise((r) => setTimeout(r, 50)); // close() is waiting on the POST
    for (const answer of hold!.splice(0)) answer();
    await closing;
    assert.equal([state().delivered, state().lastStatus], [1, '204'], 'the 2xx that came during close() is recorded');
    hold = undefined;
    cal = await openCalendar(opts);
    await cal.tags.create({ name: 'two' });
    await until('the second write', () => got.length === 2);
    await cal.close();
    assert.equal(got, [[1], [2]], 'the first write is not delivered again after the restart');

    // 2. a receiver that does not answer within stopWaitMs: aborted, recorded as nothing, comes again
    hold = [];
    arrived = new Promise<void>((resolve) => (received = resolve));
    cal = await openCalendar({ ...opts, webhooks: { ...opts.webhooks, stopWaitMs: 100 } });
    await cal.tags.create({ name: 'three' });
    await arrived;
    const started = Date.now();
    await cal.close();
    assert.ok(
      Date.now() - started < 20_000,
      `close() gave up on the POST after stopWaitMs, not the 60 s timeout: ${Date.now() - started} ms`,
    );
    assert.equal([state().delivered, state().lastStatus], [2, '204'], 'the aborted delivery is not recorded');
    for (const answer of hold!.splice(0)) answer(); // (its socket is gone)
    hold = undefined;
    cal = await openCalendar(opts);
    await until('the aborted delivery again', () => got.length === 4);
    await cal.close();
    assert.equal(got, [[1], [2], [3], [3]]);
    assert.is(state().delivered, 3);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  },
);

hooks('a failing receiver is retried on its backoff, not at every write', async () => {
  const { dir, rx } = await failingHook();
  const cal = await openCalendar({ dir, now: () => NOW, webhooks: { ...FAST, retryBaseMs: 2_000, retryMaxMs: 2_000 } });
  await cal.tags.create({ name: 'first' });
  await until('the first attempt', () => rx.attempts === 1);
  for (let i = 0; i < 10; i++) await cal.tags.create({ name: `during the backoff ${i}` });
  await new Promise((r) => setTimeout(r, 50));
  assert.is(rx.attempts, 1, 'no attempt before the backoff (at least 1 s) is over');
  await cal.close();
  await rx.close();
});

hooks(
  'a receiver that never answers times out and is retried; an unreachable one is an error; both shown in the state',
  async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-hooks-'));
    let answer = false;
    const delivered: number[] = [];
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        if (!answer) return; // hangs: the dispatcher must give up on its own
        delivered.push(...(JSON.parse(body) as { changes: Change[] }).changes.map((c) => c.seq));
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const hanging = addWebhook(
      dir,
      `http://127.0.0.1:${(server.address() as AddressInfo).port}/slow`,
      [],
      undefined,
      LOOPBACK,
    );
    // a port nothing listens on: taken, then released
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const deadPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const dead = addWebhook(dir, `http://127.0.0.1:${deadPort}/gone`, [], undefined, LOOPBACK);
    const cal = await openCalendar({ dir, now: () => NOW, webhooks: { ...FAST, timeoutMs: 100 } });
    await cal.tags.create({ name: 'patient' });
    const state = () =>
      JSON.parse(fs.readFileSync(path.join(dir, 'webhooks-state.json'), 'utf8')) as Record<
        string,
        { lastStatus: string; failures: number; delivered: number }
      >;
    await until('a timeout and an error', () => {
      try {
        const st = state();
        return (
          st[hanging.id]?.lastStatus === 'timeout' &&
          st[dead.id]?.lastStatus.startsWith('error: ') &&
          st[hanging.id].failures >= 2
        );
      } catch {
        return false;
      }
    });
    answer = true;
    // acknowledged: the 2xx came within the timeout (on a loaded machine an answer may come after
    // it, and that attempt counts as failed: the receiver then gets the change again)
    await until('the delivery acknowledged once the receiver answers', () => {
      try {
        return state()[hanging.id]?.lastStatus === '200';
      } catch {
        return false;
      }
    });
    await cal.close();
    assert.ok(
      delivered.length > 0 && delivered.every((seq) => seq === 1),
      `delivered once it answered, after the timed-out attempts: ${delivered}`,
    );
    const st = state();
    assert.equal([st[hanging.id].lastStatus, st[hanging.id].delivered, st[hanging.id].failures], ['200', 1, 0]);
    assert.ok(st[dead.id].lastStatus.startsWith('error: ') && st[dead.id].delivered === 0, st[dead.id].lastStatus);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  },
);

hooks(
  'webhooks that keep up linger together: each delivery of a steady stream of writes is the same batch for all of them',
  async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-hooks-'));
    /** path → the seqs of each delivery */
    const got = new Map<string, number[][]>();
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const list = got.get(req.url!) ?? [];
        got.set(req.url!, list);
        list.push([...new Set((JSON.parse(body) as { changes: Change[] }).changes.map((c) => c.seq))]);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const paths = ['/a', '/b', '/c', '/d', '/e', '/f'];
    for (const p of paths) addWebhook(dir, base + p, [], undefined, LOOPBACK);
    const cal = await openCalendar({ dir, now: () => NOW, webhooks: { ...FAST, lingerMs: 150 } });
    // writes one after the other for 600 ms: a few ms apart, so that webhooks lingering on clocks
    // of their own (their deliveries end at different times) would soon ask for different batches
    let writes = 0;
    for (const end = Date.now() + 600; Date.now() < end; writes++) await cal.tags.create({ name: `steady ${writes}` });
    const delivered = (p: string) => (got.get(p) ?? []).reduce((n, d) => n + d.length, 0);
    await until('every write at every webhook', () => paths.every((p) => delivered(p) === writes));
    await cal.close();
    server.closeAllConnections();
    server.close();
    const first = got.get('/a')!;
    assert.ok(
      first.length >= 3 && first.length < 20 && first.length < writes / 4,
      `batched by the linger: ${first.length} deliveries of ${writes} writes`,
    );
    for (const p of paths) assert.equal(got.get(p), first, `${p}: the same batches as /a`);
  },
);

hooks.run();
