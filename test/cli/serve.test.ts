import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CliError } from '../../src/cli/common.ts';
import {
  defaultSiteUrl,
  heapGrowingFlag,
  resolveServeOptions,
  startServe,
  SERVE_HEAP_GROWING_PERCENT,
} from '../../src/cli/serve.ts';
import { main } from '../../src/cli/main.ts';
import { memoryIo } from './io.ts';

function resolve(values: Record<string, unknown>, env: Record<string, string> = {}) {
  return resolveServeOptions(values, memoryIo(env, '/srv/app'));
}

function rejects(values: Record<string, unknown>, env: Record<string, string>, message: RegExp): void {
  try {
    resolve(values, env);
  } catch (err) {
    assert.instance(err, CliError);
    assert.is((err as CliError).exitCode, 2);
    assert.match((err as Error).message, message);
    return;
  }
  assert.unreachable(`~> expected ${message} to be rejected`);
}

const options = suite('cli :: serve options');

options('defaults', () => {
  assert.equal(resolve({}), {
    host: '127.0.0.1',
    port: 8080,
    dir: '/srv/app/data/store',
    timezone: 'UTC',
    perPage: 12,
    restPrefix: '/wp-json',
    siteUrl: undefined,
    cacheBytes: 64 * 1024 * 1024,
    changesRetain: { ms: 7 * 86_400_000 },
    changesBytes: 128 * 1024 * 1024,
    seed: true,
    readOnly: false,
    adminPassword: undefined,
    site: { title: 'Events', locale: 'en-US' },
    uploadBytes: 20 * 1024 * 1024,
  });
});

options('env, and options over env', () => {
  const env = {
    HOST: '0.0.0.0',
    PORT: '9000',
    CALENDAR_DATA: 'store',
    CALENDAR_TIMEZONE: 'Europe/Paris',
    CALENDAR_PER_PAGE: '20',
    CALENDAR_REST_PREFIX: '/api',
    CALENDAR_SITE_URL: 'https://events.example.com/',
    CALENDAR_ADMIN_PASSWORD: 'abcd efgh',
    CALENDAR_CACHE_MB: '16',
    CALENDAR_CHANGES_RETAIN: '12h',
    CALENDAR_CHANGES_MB: '32',
  };
  assert.equal(resolve({}, env), {
    host: '0.0.0.0',
    port: 9000,
    dir: '/srv/app/store',
    timezone: 'Europe/Paris',
    perPage: 20,
    restPrefix: '/api',
    siteUrl: 'https://events.example.com',
    cacheBytes: 16 * 1024 * 1024,
    changesRetain: { ms: 12 * 3_600_000 },
    changesBytes: 32 * 1024 * 1024,
    seed: true,
    readOnly: false,
    adminPassword: 'abcd efgh',
    site: { title: 'Events', locale: 'en-US' },
    uploadBytes: 20 * 1024 * 1024,
  });
  const o = resolve(
    {
      host: '::1',
      port: '0',
      data: '/var/cal',
      timezone: 'America/New_York',
      'per-page': '5',
      'rest-prefix': '/wp-json/',
      'site-url': 'http://localhost:3000/blog',
      'no-seed': true,
      'cache-mb': '0.5',
      'changes-retain': '5000',
      'changes-mb': '0.25',
      'upload-mb': '2.5',
    },
    env,
  );
  assert.equal(o, {
    host: '::1',
    port: 0,
    dir: path.resolve('/var/cal'),
    timezone: 'America/New_York',
    perPage: 5,
    restPrefix: '/wp-json',
    siteUrl: 'http://localhost:3000/blog',
    cacheBytes: 512 * 1024,
    changesRetain: { count: 5000 },
    changesBytes: 256 * 1024,
    seed: false,
    readOnly: false,
    adminPassword: 'abcd efgh',
    site: { title: 'Events', locale: 'en-US' },
    uploadBytes: 2.5 * 1024 * 1024,
  });
});

options('the public pages: --no-site, --site-title and --site-locale over their variables', () => {
  assert.equal(resolve({ 'no-site': true }, { CALENDAR_SITE_TITLE: 'Ignored' }).site, false);
  assert.equal(resolve({}, { CALENDAR_SITE_TITLE: ' Town Hall ', CALENDAR_SITE_LOCALE: 'fr-FR' }).site, {
    title: 'Town Hall',
    locale: 'fr-FR',
  });
  assert.equal(resolve({ 'site-title': 'Library', 'site-locale': 'de' }, { CALENDAR_SITE_TITLE: 'Town Hall' }).site, {
    title: 'Library',
    locale: 'de',
  });
  rejects({ 'site-title': '  ' }, {}, /^--site-title: expected a title of 1 to 200 characters on one line/);
  rejects({}, { CALENDAR_SITE_TITLE: 'a\nb' }, /^CALENDAR_SITE_TITLE: expected a title/);
  rejects({ 'site-locale': 'not a locale!' }, {}, /^--site-locale: not a locale this Node.js knows/);
});

options('every bad value is a clear usage error naming where it came from', () => {
  rejects({ port: '70000' }, {}, /^--port: expected a port number from 0 to 65535, got '70000'$/);
  rejects({ port: 'http' }, {}, /^--port: expected a port number/);
  rejects({}, { PORT: '-1' }, /^PORT: expected a port number/);
  rejects({ timezone: 'Mars/Olympus' }, {}, /^--timezone: unknown time zone 'Mars\/Olympus'/);
  rejects({}, { CALENDAR_TIMEZONE: 'nowhere' }, /^CALENDAR_TIMEZONE: unknown time zone/);
  rejects({ 'per-page': '0' }, {}, /^--per-page: expected a positive integer, got '0'$/);
  rejects({ 'per-page': '2.5' }, {}, /^--per-page: expected a positive integer/);
  rejects({}, { CALENDAR_PER_PAGE: 'ten' }, /^CALENDAR_PER_PAGE: expected a positive integer/);
  rejects({ 'rest-prefix': 'wp-json' }, {}, /^--rest-prefix: the REST prefix must start with '\/', got 'wp-json'$/);
  rejects({ 'rest-prefix': '/wp json' }, {}, /^--rest-prefix: not a usable path prefix/);
  rejects({ 'site-url': 'example.com' }, {}, /^--site-url: not a URL: 'example.com'/);
  rejects({ 'site-url': 'ftp://example.com' }, {}, /^--site-url: expected an http or https URL/);
  rejects({ 'site-url': 'http://example.com/?x=1' }, {}, /^--site-url: the site URL takes no query/);
  rejects({ host: 'bad host' }, {}, /^--host: not a host name or address/);
  rejects({ 'cache-mb': '-1' }, {}, /^--cache-mb: expected a number of MiB from 0 to 1048576, got '-1'$/);
  rejects({}, { CALENDAR_CACHE_MB: '64MB' }, /^CALENDAR_CACHE_MB: expected a number of MiB/);
  rejects(
    { 'changes-retain': '7 days' },
    {},
    /^--changes-retain: expected a duration such as 30m, 12h or 7d, or a number of changes, got '7 days'$/,
  );
  rejects({}, { CALENDAR_CHANGES_RETAIN: '0' }, /^CALENDAR_CHANGES_RETAIN: expected a duration/);
  rejects({ 'changes-mb': '0' }, {}, /^--changes-mb: expected a number of MiB above 0, at most 1048576, got '0'$/);
  rejects({}, { CALENDAR_CHANGES_MB: '1G' }, /^CALENDAR_CHANGES_MB: expected a number of MiB/);
  rejects({ 'upload-mb': '0' }, {}, /^--upload-mb: expected a number of MiB above 0, at most 4096, got '0'$/);
  rejects({}, { CALENDAR_UPLOAD_MB: '20M' }, /^CALENDAR_UPLOAD_MB: expected a number of MiB/);
  rejects({}, { CALENDAR_ADMIN_PASSWORD: '  ' }, /^CALENDAR_ADMIN_PASSWORD is set but empty$/);
});

options('default site URL: http://HOST:PORT, IPv6 in brackets', () => {
  assert.is(defaultSiteUrl('127.0.0.1', 8080), 'http://127.0.0.1:8080');
  assert.is(defaultSiteUrl('::1', 8080), 'http://[::1]:8080');
});

options('through main: bad option exits 2 with message and usage, nothing on stdout', async () => {
  const io = memoryIo({}, '/tmp');
  assert.is(await main(['serve', '--port', '99999'], io), 2);
  assert.is(io.out(), '');
  assert.ok(
    io.err().startsWith("calendar-engine serve: --port: expected a port number from 0 to 65535, got '99999'\n"),
    io.err(),
  );
  assert.is(io.err().split('\n')[1], '(calendar-engine serve --help shows the usage)');
  const extra = memoryIo({}, '/tmp');
  assert.is(await main(['serve', 'now'], extra), 2);
  assert.match(extra.err(), /unexpected argument 'now'/);
});

options('--cluster: NATS URLs, a name, a node id; env too; checked before anything starts', () => {
  const o = resolve(
    { cluster: 'nats://127.0.0.1:4222, nats://127.0.0.1:4223', 'cluster-name': 'site_1', 'node-id': 'web-1' },
    { CALENDAR_CLUSTER_LEASE_MS: '1500' },
  );
  assert.equal(o.cluster, {
    servers: ['nats://127.0.0.1:4222', 'nats://127.0.0.1:4223'],
    name: 'site_1',
    node: 'web-1',
    leaseMs: 1500,
  });
  assert.is(o.seed, false); // a cluster is never seeded with the demo calendar
  assert.equal(resolve({}, { CALENDAR_CLUSTER: 'nats://n1:4222', CALENDAR_CLUSTER_NAME: 'x' }).cluster, {
    servers: ['nats://n1:4222'],
    name: 'x',
  });
  assert.is(resolve({}).cluster, undefined);
  rejects({ cluster: 'nats://127.0.0.1:4222' }, {}, /--cluster needs --cluster-name/);
  rejects({ cluster: 'http://127.0.0.1:4222', 'cluster-name': 'x' }, {}, /--cluster: expected nats:\/\/host:port URLs/);
  rejects(
    { cluster: 'nats://127.0.0.1:4222', 'cluster-name': 'no spaces' },
    {},
    /--cluster-name: expected 1-64 letters/,
  );
  rejects({ 'cluster-name': 'x' }, {}, /--cluster-name needs --cluster/);
  rejects(
    { cluster: 'nats://127.0.0.1:4222', 'cluster-name': 'x' },
    { CALENDAR_CLUSTER_LEASE_MS: '10' },
    /CALENDAR_CLUSTER_LEASE_MS: expected a whole number >= 300/,
  );
});

options('--read-only and CALENDAR_READ_ONLY: no seeding, no cluster', () => {
  assert.is(resolve({ 'read-only': true }).readOnly, true);
  assert.is(resolve({ 'read-only': true }).seed, false, 'a read-only store is never seeded');
  assert.is(resolve({}, { CALENDAR_READ_ONLY: '1' }).readOnly, true);
  assert.is(resolve({}, { CALENDAR_READ_ONLY: 'no' }).readOnly, false);
  assert.is(resolve({}, { CALENDAR_READ_ONLY: '' }).readOnly, false);
  rejects({}, { CALENDAR_READ_ONLY: 'maybe' }, /CALENDAR_READ_ONLY: expected 1 or 0/);
  rejects(
    { 'read-only': true, cluster: 'nats://127.0.0.1:4222', 'cluster-name': 'x' },
    {},
    /--read-only serves a store directory/,
  );
});

options('the heap growth it bounds after the load, unless node was started with its own --heap-growing-percent', () => {
  assert.is(heapGrowingFlag([]), `--heap-growing-percent=${SERVE_HEAP_GROWING_PERCENT}`);
  assert.is(
    heapGrowingFlag(['--import', 'tsx', '--max-semi-space-size=64']),
    `--heap-growing-percent=${SERVE_HEAP_GROWING_PERCENT}`,
  );
  assert.is(heapGrowingFlag(['--heap-growing-percent=20']), undefined);
  assert.is(heapGrowingFlag(['--heap_growing_percent', '0']), undefined);
  assert.is(
    heapGrowingFlag(['--heap-growing-percentage=5']),
    `--heap-growing-percent=${SERVE_HEAP_GROWING_PERCENT}`,
    'not the flag',
  );
});

options('login limits and errors: options over env, bad values refused', () => {
  assert.is(resolve({}).auth, undefined, "~> nothing set: the listener's defaults");
  assert.equal(resolve({}, { CALENDAR_LOGIN_LIMIT: '5', CALENDAR_LOGIN_ERRORS: 'uniform' }).auth, {
    loginLimits: { perClient: 5 },
    loginErrors: 'uniform',
  });
  assert.equal(resolve({ 'login-limit': '0', 'login-user-limit': '7' }, { CALENDAR_LOGIN_LIMIT: '5' }).auth, {
    loginLimits: { perClient: 0, perLogin: 7 },
  });
  rejects({ 'login-limit': 'many' }, {}, /^--login-limit: expected a whole number of failed logins/);
  rejects({}, { CALENDAR_LOGIN_USER_LIMIT: '-1' }, /^CALENDAR_LOGIN_USER_LIMIT: expected a whole number/);
  rejects({ 'login-errors': 'quiet' }, {}, /^--login-errors: expected wordpress or uniform, got 'quiet'$/);
});

options.run();

// ---

const running = suite('cli :: serve in-process');

/** A fresh folder for a store. */
const storeDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'ce-cli-serve-'));
/** The admin that CALENDAR_ADMIN_PASSWORD 'abcd efgh ijkl' makes, as a Basic authorization. */
const ADMIN_AUTH = 'Basic ' + Buffer.from('admin:abcdefghijkl').toString('base64');

running(
  'admin from CALENDAR_ADMIN_PASSWORD, custom prefix, --no-seed, port 0 in the links, shutdown snapshots',
  async () => {
    const dir = storeDir();
    const io = memoryIo({ CALENDAR_ADMIN_PASSWORD: 'abcd efgh ijkl' }, dir);
    const opts = resolveServeOptions({ port: '0', data: dir, 'rest-prefix': '/api', 'no-seed': true }, io);
    const srv = await startServe(opts, io);
    try {
      const m = /^calendar-engine listening on (http:\/\/127\.0\.0\.1:(\d+))\/api\/tribe\/events\/v1$/.exec(srv.banner);
      assert.ok(m, srv.banner);
      const api = `${m![1]}/api/tribe/events/v1`;
      const empty = (await (await fetch(`${api}/events`)).json()) as { total: number };
      assert.is(empty.total, 0, '~> --no-seed leaves the store empty');
      const res = await fetch(`${api}/tags`, {
        method: 'POST',
        headers: { authorization: ADMIN_AUTH, 'content-type': 'application/json' },
        body: '{"name":"Jazz"}',
      });
      assert.is(res.status, 201);
      const tag = (await res.json()) as { urls: { self: string } };
      assert.ok(tag.urls.self.startsWith(`${api}/tags/`), `~> links carry the real port: ${tag.urls.self}`);
      const wrong = await fetch(`${api}/tags`, {
        method: 'POST',
        headers: { authorization: 'Basic ' + Buffer.from('admin:nope').toString('base64') },
        body: '{"name":"X"}',
      });
      assert.is(wrong.status, 401);
    } finally {
      await srv.shutdown();
    }
    assert.ok(fs.existsSync(path.join(dir, 'snapshot.json')));
    assert.match(fs.readFileSync(path.join(dir, 'users.json'), 'utf8'), /"login": "admin"/);
    assert.not.match(fs.readFileSync(path.join(dir, 'users.json'), 'utf8'), /abcd/);
  },
);

running('shutdown writes a snapshot only when a write came after the last one', async () => {
  const dir = storeDir();
  const io = memoryIo({ CALENDAR_ADMIN_PASSWORD: 'abcd efgh ijkl' }, dir);
  const opts = resolveServeOptions({ port: '0', data: dir, 'no-seed': true }, io);
  const manifest = () => JSON.parse(fs.readFileSync(path.join(dir, 'snapshot.json'), 'utf8'));
  const journal = () => {
    const f = path.join(dir, 'journal.jsonl');
    return fs.existsSync(f) ? fs.statSync(f).size : 0;
  };
  const serveOnce = async (write: boolean) => {
    const srv = await startServe(opts, io);
    try {
      if (!write) return;
      const api = /listening on (\S+)$/.exec(srv.banner)![1];
      const res = await fetch(`${api}/tags`, {
        method: 'POST',
        headers: {
          authorization: ADMIN_AUTH,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ name: `Tag ${Date.now()}` }),
      });
      assert.is(res.status, 201);
    } finally {
      await srv.shutdown();
    }
  };
  await serveOnce(true);
  const first = manifest();
  assert.is(journal(), 0, '~> the write is in the snapshot');
  await serveOnce(false);
  assert.equal(manifest(), first, '~> no write since: the snapshot on disk is kept as it is');
  await serveOnce(true);
  const third = manifest();
  assert.ok(third.seq > first.seq, `~> a write since: a new snapshot (${first.seq} -> ${third.seq})`);
  assert.is.not(third.createdAt, first.createdAt);
  assert.is(journal(), 0);
});

running('a port in use is a one-line error', async () => {
  const net = await import('node:net');
  const blocker = net.createServer();
  await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
  const port = (blocker.address() as { port: number }).port;
  const dir = storeDir();
  const io = memoryIo({}, dir);
  try {
    assert.is(await main(['serve', '--port', String(port), '--data', dir, '--no-seed'], io), 1);
    assert.is(
      io.err(),
      `calendar-engine serve: port ${port} on 127.0.0.1 is already in use (choose another with --port, or 0 for a free one)\n`,
    );
    // the store was released again
    assert.not.ok(fs.existsSync(path.join(dir, 'lock')));
  } finally {
    blocker.close();
  }
});

running.run();
