import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import dns from 'node:dns';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { refusedAddress, checkUrlTarget } from '../../src/security/addresses.ts';
import { PostConnection } from '../../src/changes/http-post.ts';
import { REGISTRY, readWebhookState } from '../../src/changes/webhook-registry.ts';
import { openCalendar } from '../../src/index.ts';

const ranges = suite('security :: addresses');

ranges('refused: loopback, private, link-local, reserved, also inside IPv6 forms; public passes', () => {
  const cases: Array<[string, RegExp | undefined]> = [
    ['127.0.0.1', /^loopback$/],
    ['127.255.0.9', /^loopback$/],
    ['10.1.2.3', /^private$/],
    ['172.31.255.255', /^private$/],
    ['192.168.0.1', /^private$/],
    ['169.254.169.254', /^link-local$/],
    ['100.64.0.1', /shared/],
    ['0.0.0.0', /unspecified/],
    ['224.0.0.1', /multicast/],
    ['255.255.255.255', /broadcast/],
    ['198.18.0.1', /benchmarking/],
    ['::1', /^loopback$/],
    ['::', /^unspecified$/],
    ['fe80::1', /^link-local$/],
    ['fd12:3456::1', /unique local/],
    ['ff02::1', /multicast/],
    ['::ffff:127.0.0.1', /^loopback, as 127\.0\.0\.1$/],
    ['::ffff:7f00:1', /^loopback, as 127\.0\.0\.1$/],
    ['::ffff:a00:1', /^private, as 10\.0\.0\.1$/],
    ['::127.0.0.1', /loopback/],
    ['64:ff9b::7f00:1', /loopback, as 127\.0\.0\.1/],
    ['2002:c0a8:101::1', /private, as 192\.168\.1\.1/],
    ['8.8.8.8', undefined],
    ['1.1.1.1', undefined],
    ['172.32.0.1', undefined],
    ['2606:4700:4700::1111', undefined],
    ['::ffff:8.8.8.8', undefined],
  ];
  for (const [address, why] of cases) {
    const got = refusedAddress(address);
    if (why === undefined) assert.is(got, undefined, address);
    else assert.match(got ?? '(passes)', why, address);
  }
});

ranges("this host's own interface addresses are refused", () => {
  const own = Object.values(os.networkInterfaces())
    .flat()
    .filter((a) => a !== undefined)
    .map((a) => a!.address);
  assert.ok(own.length > 0);
  for (const a of own) assert.ok(refusedAddress(a) !== undefined, a);
});

ranges('URL spellings: hex, decimal, octal, short IPv4, bracketed IPv6, localhost', async () => {
  for (const url of [
    'http://0x7f.1/',
    'http://2130706433/',
    'http://0177.0.0.1/',
    'http://127.1/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://localhost/',
  ]) {
    let err: Error | undefined;
    await checkUrlTarget(url).catch((e: Error) => (err = e));
    assert.ok(err, url);
    assert.match(err!.message, /loopback/, url);
  }
  await checkUrlTarget('http://8.8.8.8/hook');
});

ranges.run();

// ---

const delivery = suite('security :: addresses at delivery');

async function receiver(): Promise<{ url: string; hits: () => number; close(): Promise<void> }> {
  let hits = 0;
  const server = http.createServer((req, res) => {
    hits++;
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits: () => hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

delivery('a name that resolves to loopback at delivery (DNS rebinding) is not connected to', async () => {
  const rx = await receiver();
  const port = new URL(rx.url).port;
  const real = dns.lookup;
  let lookups = 0;
  // rebind.test resolved to a public address when it was checked; now it answers 127.0.0.1
  (dns as { lookup: unknown }).lookup = (host: string, opts: unknown, cb: (...a: unknown[]) => void) => {
    if (host !== 'rebind.test') return (real as (...a: unknown[]) => void)(host, opts, cb);
    lookups++;
    const all = [{ address: '127.0.0.1', family: 4 }];
    if ((opts as { all?: boolean }).all) cb(null, all);
    else cb(null, '127.0.0.1', 4);
  };
  try {
    const guarded = new PostConnection(`http://rebind.test:${port}/hook`, {});
    const status = await guarded.post({}, Buffer.from('{}'), 5_000);
    guarded.destroy();
    assert.match(status, /^error: rebind\.test \(127\.0\.0\.1\) is loopback: refused/);
    assert.ok(lookups >= 1, '~> resolved by the connection itself');
    assert.is(rx.hits(), 0, '~> the receiver got nothing');
    const allowed = new PostConnection(`http://rebind.test:${port}/hook`, {}, { allowPrivate: true });
    assert.is(await allowed.post({}, Buffer.from('{}'), 5_000), '204', '~> allowed: delivered');
    allowed.destroy();
    assert.is(rx.hits(), 1);
  } finally {
    (dns as { lookup: unknown }).lookup = real;
    await rx.close();
  }
});

delivery('a loopback webhook written into webhooks.json without allowPrivate is never delivered to', async () => {
  const rx = await receiver();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-ssrf-'));
  const hook = {
    id: 'wh_000000000001',
    url: `${rx.url}/admin`,
    types: [],
    secret: 'a-long-enough-secret',
    created: new Date().toISOString(),
  };
  fs.writeFileSync(path.join(dir, REGISTRY), JSON.stringify({ webhooks: [hook] }));
  const cal = await openCalendar({ dir, webhooks: { retryBaseMs: 20, retryMaxMs: 50, lingerMs: 0 } });
  try {
    await cal.events.create({ title: 'x', start_date: '2030-01-01 10:00', end_date: '2030-01-01 11:00' });
    const t0 = Date.now();
    while (Date.now() - t0 < 3_000 && !(readWebhookState(dir)[hook.id]?.lastStatus ?? '').startsWith('error'))
      await new Promise((r) => setTimeout(r, 50));
    assert.is(rx.hits(), 0);
  } finally {
    await cal.close();
    await rx.close();
  }
  assert.match(readWebhookState(dir)[hook.id].lastStatus, /^error: 127\.0\.0\.1 is loopback: refused/);
});

delivery.run();
