// Users of a cluster, cluster-wide (src/cluster/users.ts), on a NATS cluster that itself requires
// a user and password (so every connection here goes through the credentials options): a user
// created through one node's command line authenticates on another, a reset or a removal takes
// effect everywhere, a single server's users.json seeds the cluster, a late node has them all.
// Then TLS: a NATS server with a certificate from a CA made here by openssl, reached with
// --cluster-tls-ca. Skipped, with a printed reason, when nats-server is not installed.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openCalendar, type Calendar } from '../../src/calendar.ts';
import { startServer } from '../../src/http/server.ts';
import { UserRegistry } from '../../src/users/registry.ts';
import { main } from '../../src/cli/main.ts';
import { resolveServeOptions, startServe, type RunningServer } from '../../src/cli/serve.ts';
import { memoryIo } from '../cli/io.ts';
import { NATS_MISSING, natsServerPath, startNatsCluster, type NatsCluster } from '../helpers/nats-cluster.ts';

const test = suite('cluster users');
const bin = natsServerPath();
const NATS_USER = 'calendar';
const NATS_PASS = 'natsSecret42';
/** how every connection here reaches NATS: the command line's environment */
const NATS_ENV = { CALENDAR_CLUSTER_USER: NATS_USER, CALENDAR_CLUSTER_PASSWORD: NATS_PASS };
const API = '/wp-json/tribe/events/v1';
let nats: NatsCluster | undefined;
const closers: Array<() => Promise<void>> = [];
const quiet = () => {};

test.before(async () => {
  if (!bin) console.log(NATS_MISSING);
  else nats = await startNatsCluster(3, { bin, args: ['--user', NATS_USER, '--pass', NATS_PASS] });
});

test.after(async () => {
  for (const close of closers.reverse()) await close().catch(() => {});
  await nats?.stop();
});

async function cli(argv: string[], env: Record<string, string> = {}) {
  const io = memoryIo(env);
  const code = await main(argv, io);
  return { code, out: io.out(), err: io.err(), last: io.out().trimEnd().split('\n').pop() ?? '' };
}

const basic = (login: string, password: string) => 'Basic ' + Buffer.from(`${login}:${password}`).toString('base64');

/** POST an event as `auth` on the server at `url`: the status (201 made, 401 unknown credentials) */
async function post(url: string, auth: string, title: string): Promise<number> {
  const res = await fetch(`${url}${API}/events`, {
    method: 'POST',
    headers: { Authorization: auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ title, start_date: '2027-03-01 10:00:00', end_date: '2027-03-01 11:00:00' }),
  });
  await res.arrayBuffer();
  return res.status;
}

/** until `check` holds (the change reaches another node by a KV watch: within milliseconds) */
async function eventually(check: () => Promise<boolean>, what: string, ms = 5_000): Promise<void> {
  for (const until = Date.now() + ms; Date.now() < until; await new Promise((r) => setTimeout(r, 50)))
    if (await check()) return;
  assert.unreachable(what);
}

test('users are cluster-wide: made through one node, they log in on another; reset and remove reach every node', async () => {
  if (!nats) return;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-cluster-users-'));
  const dirA = path.join(tmp, 'a');
  const dirB = path.join(tmp, 'b');
  // a single server's users.json, carried into the cluster by its first node
  const seeded = UserRegistry.open(dirA).add('carried', 'author');
  // node A: serve, as an operator starts it (credentials by option, the admin by environment)
  const envA = { CALENDAR_ADMIN_PASSWORD: 'adminPass1', CALENDAR_CLUSTER_LEASE_MS: '1000' };
  const optsA = resolveServeOptions(
    {
      port: '0',
      data: dirA,
      'site-url': 'http://calendar.test',
      cluster: nats.urls,
      'cluster-name': 'people',
      'node-id': 'a',
      'cluster-user': NATS_USER,
      'cluster-password': NATS_PASS,
    },
    memoryIo(envA),
  );
  const a: RunningServer = await startServe(optsA, memoryIo(envA));
  closers.push(() => a.shutdown());
  assert.ok(fs.existsSync(path.join(dirA, 'cluster.json')), 'serve --cluster names its cluster in DIR/cluster.json');
  assert.not.ok(
    fs.readFileSync(path.join(dirA, 'cluster.json'), 'utf8').includes(NATS_PASS),
    'never the NATS password',
  );
  // node B: embedded, with an empty data folder of its own
  const b: Calendar = await openCalendar({
    dir: dirB,
    siteUrl: 'http://calendar.test',
    cluster: {
      servers: nats.urls,
      name: 'people',
      node: 'b',
      leaseMs: 1_000,
      warn: quiet,
      nats: { user: NATS_USER, pass: NATS_PASS },
    },
  });
  closers.push(() => b.close());
  const bs = await startServer(b, { port: 0, log: quiet });
  closers.push(() => bs.close());

  assert.is(
    await post(bs.url, basic('admin', 'adminPass1'), 'By the admin'),
    201,
    "node A's CALENDAR_ADMIN_PASSWORD works on B",
  );
  assert.is(
    await post(bs.url, basic('carried', seeded.password), 'By carried'),
    201,
    "node A's users.json seeded the cluster",
  );

  // user add through the cluster options, and a login on the other node at once
  const add = await cli(
    ['user', 'add', 'alice', '--role', 'editor', '--cluster', nats.urls, '--cluster-name', 'people'],
    NATS_ENV,
  );
  assert.is(add.code, 0, add.err);
  assert.match(add.out, /^created user \d+ \(alice, editor\) in cluster people\n/);
  const first = add.last;
  await eventually(
    async () => (await post(bs.url, basic('alice', first), 'By alice')) === 201,
    'alice logs in on node B',
  );
  assert.is(await post(a.url, basic('alice', first), 'By alice on A'), 201);

  // user reset against node A's data folder (its cluster.json): the old password stops on B
  const reset = await cli(['user', 'reset', 'alice', '--data', dirA], NATS_ENV);
  assert.is(reset.code, 0, reset.err);
  await eventually(
    async () => (await post(bs.url, basic('alice', first), 'old')) === 401,
    'the old password stops working on B',
  );
  assert.is(await post(bs.url, basic('alice', reset.last), 'By alice again'), 201);
  assert.is(
    fs.existsSync(path.join(dirA, 'users.json')) && UserRegistry.open(dirA).byLogin('alice'),
    undefined,
    "a node's users.json is not the cluster's",
  );

  // a node started later has every user
  const late = await openCalendar({
    siteUrl: 'http://calendar.test',
    cluster: {
      servers: nats.urls,
      name: 'people',
      node: 'late',
      writer: false,
      warn: quiet,
      nats: { user: NATS_USER, pass: NATS_PASS },
    },
  });
  closers.push(() => late.close());
  assert.equal(
    late.users
      .list()
      .map((u) => u.login)
      .sort(),
    ['admin', 'alice', 'carried'],
  );
  const list = await cli(['user', 'list', '--data', dirA], NATS_ENV);
  assert.equal(
    list.out
      .trim()
      .split('\n')
      .map((l) => l.split(' ')[1])
      .sort(),
    ['admin', 'alice', 'carried'],
  );

  // remove: gone on every node
  assert.is(
    (await cli(['user', 'remove', 'carried', '--cluster', nats.urls, '--cluster-name', 'people'], NATS_ENV)).code,
    0,
  );
  await eventually(
    async () => (await post(bs.url, basic('carried', seeded.password), 'gone')) === 401,
    'a removed user is refused on B',
  );
  await eventually(async () => late.users.byLogin('carried') === undefined, 'and gone on the late node');

  // wrong NATS credentials: refused at once, named
  const t0 = Date.now();
  const wrong = await cli(['user', 'list', '--cluster', nats.urls, '--cluster-name', 'people'], {
    CALENDAR_CLUSTER_USER: NATS_USER,
    CALENDAR_CLUSTER_PASSWORD: 'wrong',
  });
  assert.is(wrong.code, 1);
  assert.match(wrong.err, /cannot reach cluster people .*(authorization|authentication)/i);
  assert.ok(Date.now() - t0 < 5_000, 'refused credentials are not retried until the timeout');
});

test('TLS: a NATS server with a certificate from its own CA, reached with --cluster-tls-ca', async () => {
  if (!bin) return;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-cluster-tls-'));
  const ssl = (...args: string[]) => {
    const r = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`openssl ${args.join(' ')}: ${r.stderr}`);
  };
  // a CA, and a server certificate for 127.0.0.1 signed by it
  ssl(
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=calendar test CA',
  );
  ssl(
    'req',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
    '-subj',
    '/CN=127.0.0.1',
  );
  fs.writeFileSync(path.join(dir, 'ext.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  ssl(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.pem',
    '-days',
    '2',
    '-extfile',
    'ext.cnf',
  );
  const tls = await startNatsCluster(1, {
    bin,
    args: ['--tls', '--tlscert', path.join(dir, 'server.pem'), '--tlskey', path.join(dir, 'server.key')],
  });
  try {
    const url = tls.servers[0].url.replace('nats://', 'tls://');
    const env = { CALENDAR_CLUSTER_REPLICAS: '1' };
    const add = await cli(
      [
        'user',
        'add',
        'tina',
        '--role',
        'author',
        '--cluster',
        url,
        '--cluster-name',
        'sealed',
        '--cluster-tls-ca',
        path.join(dir, 'ca.pem'),
      ],
      env,
    );
    assert.is(add.code, 0, add.err);
    const list = await cli(
      ['user', 'list', '--cluster', url, '--cluster-name', 'sealed', '--cluster-tls-ca', path.join(dir, 'ca.pem')],
      env,
    );
    assert.match(list.out, /^\d+ tina author$/m);
    // without the CA the server's certificate is not trusted: refused, with the reason
    const untrusted = await cli(['user', 'list', '--cluster', url, '--cluster-name', 'sealed'], env);
    assert.is(untrusted.code, 1);
    assert.match(untrusted.err, /cannot reach cluster sealed .*(certificate|self[- ]signed|tls)/i);
  } finally {
    await tls.stop();
  }
});

test('cluster options: a bad value is a usage error (exit 2) naming the option, before anything starts', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-cluster-opts-'));
  const notPem = path.join(dir, 'not.pem');
  fs.writeFileSync(notPem, 'hello\n');
  const base = ['serve', '--port', '0', '--data', dir, '--cluster', 'nats://127.0.0.1:4222', '--cluster-name', 'x'];
  const cases: Array<[string[], Record<string, string>, RegExp]> = [
    [['--cluster-user', 'u'], {}, /--cluster-user needs a password/],
    [[], { CALENDAR_CLUSTER_PASSWORD: 'p' }, /CALENDAR_CLUSTER_PASSWORD needs a user/],
    [['--cluster-token', 't', '--cluster-user', 'u', '--cluster-password', 'p'], {}, /one way to log in/],
    [['--cluster-creds', path.join(dir, 'missing.creds')], {}, /--cluster-creds: cannot read .*no such file/],
    [['--cluster-creds', notPem], {}, /not a NATS credentials file/],
    [['--cluster-tls-ca', notPem], {}, /--cluster-tls-ca: .* is not a PEM certificate/],
    [['--cluster-tls-cert', notPem], {}, /--cluster-tls-cert needs the client's private key/],
    [[], { CALENDAR_CLUSTER_REPLICAS: '7' }, /CALENDAR_CLUSTER_REPLICAS: expected 1 to 5/],
  ];
  for (const [args, env, message] of cases) {
    const r = await cli([...base, ...args], env);
    assert.is(r.code, 2, `${args.join(' ')} ${JSON.stringify(env)}: ${r.err}`);
    assert.match(r.err, message);
  }
  const stray = await cli(['serve', '--cluster-user', 'u', '--data', dir], {});
  assert.is(stray.code, 2);
  assert.match(stray.err, /--cluster-user needs --cluster/);
});

test.run();
