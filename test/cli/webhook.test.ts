// calendar-engine webhook add|list|remove, as an operator types them.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { main } from '../../src/cli/main.ts';
import { DIST_MAIN, ensureDist, ROOT } from '../helpers/dist.ts';
import { memoryIo } from './io.ts';

const cli = suite('cli :: webhook');

cli('add prints the id and the secret once; list shows it; remove takes it away', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-cli-hook-'));
  const add = memoryIo({}, dir);
  assert.is(
    await main(['webhook', 'add', 'https://example.org/hook', '--types', 'event,venue', '--data', 'store'], add),
    0,
    add.err(),
  );
  const m =
    /^added webhook (wh_[0-9a-f]{12}) → https:\/\/example\.org\/hook \(event, venue\) in store\nsigning secret, shown only this once:\n(\S{24,})\n$/.exec(
      add.out(),
    );
  assert.ok(m, add.out());
  const list = memoryIo({}, dir);
  assert.is(await main(['webhook', 'list', '--data', 'store'], list), 0);
  assert.match(
    list.out(),
    new RegExp(`^${m![1]} https://example.org/hook types=event,venue delivered=- backlog=0 last=not started yet\\n$`),
  );
  assert.not.match(list.out(), new RegExp(m![2].replace(/[-]/g, '\\-')), 'list never shows the secret');
  const given = memoryIo({}, dir);
  assert.is(
    await main(
      [
        'webhook',
        'add',
        'http://127.0.0.1:9/x',
        '--secret',
        'a-long-enough-secret',
        '--allow-private',
        '--data',
        'store',
      ],
      given,
    ),
    0,
    given.err(),
  );
  assert.not.match(given.out(), /shown only this once/);
  const rm = memoryIo({}, dir);
  assert.is(await main(['webhook', 'remove', m![1], '--data', 'store'], rm), 0);
  assert.match(rm.out(), /^removed webhook wh_/);
  const after = memoryIo({}, dir);
  await main(['webhook', 'list', '--data', 'store'], after);
  assert.is(after.out().split('\n').filter(Boolean).length, 1);
});

cli('bad command lines and values: one-line errors, exit 2 or 1', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-cli-hook-'));
  const cases: Array<[string[], number, RegExp]> = [
    [['webhook'], 2, /missing webhook command/],
    [['webhook', 'ping'], 2, /unknown webhook command 'ping'/],
    [['webhook', 'add'], 2, /missing URL/],
    [['webhook', 'add', 'https://x/h', '--types', 'party'], 2, /--types: unknown change type 'party'/],
    [['webhook', 'add', 'ftp://x/h'], 1, /expected an http or https URL/],
    [['webhook', 'add', 'https://x/h', '--secret', 'short'], 1, /at least 16 characters/],
    [['webhook', 'remove', 'wh_nope'], 1, /no webhook 'wh_nope'/],
    [['webhook', 'list', '--types', 'event'], 2, /--types, --secret and --allow-private go with webhook add/],
    [['webhook', 'remove', 'wh_x', '--allow-private'], 2, /--types, --secret and --allow-private go with webhook add/],
  ];
  for (const [args, code, message] of cases) {
    const io = memoryIo({}, dir);
    assert.is(await main([...args, '--data', 'store'], io), code, args.join(' '));
    assert.match(io.err(), message, args.join(' '));
  }
});

cli('--cluster: one-line errors for a bad command line and for NATS out of reach', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-cli-hook-'));
  const cases: Array<[string[], number, RegExp]> = [
    [
      ['webhook', 'list', '--cluster', 'nats://127.0.0.1:4222', '--cluster-name', 'x', '--data', 'store'],
      2,
      /--data and --cluster: one or the other/,
    ],
    [['webhook', 'list', '--cluster-name', 'x'], 2, /--cluster-name needs --cluster/],
    [['webhook', 'list', '--cluster', 'nats://127.0.0.1:4222'], 2, /--cluster needs --cluster-name/],
    [['webhook', 'list', '--cluster', 'http://x', '--cluster-name', 'x'], 2, /expected nats:\/\/host:port URLs/],
    // a port nothing listens on
    [
      ['webhook', 'list', '--cluster', 'nats://127.0.0.1:1', '--cluster-name', 'x'],
      1,
      /cannot reach NATS at nats:\/\/127\.0\.0\.1:1/,
    ],
  ];
  for (const [args, code, message] of cases) {
    const io = memoryIo({}, dir);
    assert.is(await main(args, io), code, args.join(' '));
    assert.match(io.err(), message, `${args.join(' ')}: ${io.err()}`);
  }
});

cli('--data DIR of a cluster node: its cluster.json names the cluster; a broken one is named, not thrown', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-cli-hook-'));
  const store = path.join(dir, 'node');
  fs.mkdirSync(store);
  const marker = path.join(store, 'cluster.json');
  // what serve --cluster writes, naming a port nothing listens on: the command goes there, not to DIR
  fs.writeFileSync(marker, JSON.stringify({ servers: ['nats://127.0.0.1:1'], name: 'x' }));
  const io = memoryIo({}, dir);
  assert.is(await main(['webhook', 'list', '--data', 'node'], io), 1);
  assert.match(io.err(), /cannot reach NATS at nats:\/\/127\.0\.0\.1:1/);
  assert.not.ok(fs.existsSync(path.join(store, 'webhooks.json')), 'nothing written to the folder');
  for (const [text, message] of [
    ['{"servers": [', /cluster\.json: not JSON \(.+\); 'serve --cluster' writes it again/],
    ['[1, 2]', /cluster\.json: expected \{"servers": \[\.\.\.\], "name": \.\.\.\}/],
    ['null', /expected \{"servers"/],
  ] as const) {
    fs.writeFileSync(marker, text);
    for (const args of [
      ['webhook', 'list', '--data', 'node'],
      ['user', 'list', '--data', 'node'],
    ]) {
      const bad = memoryIo({}, dir);
      assert.is(await main(args, bad), 1, `${args[0]} with cluster.json ${text}`);
      assert.match(bad.err(), message, `${args[0]} with cluster.json ${text}`);
      assert.is(bad.err().trim().split('\n').length, 1, 'one line');
    }
  }
});

cli('loopback, private and link-local URLs, in any spelling, are refused unless --allow-private', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-cli-hook-'));
  const refused: Array<[string, RegExp]> = [
    ['http://127.0.0.1:8080/wp-json/tribe/events/v1/events', /127\.0\.0\.1 is loopback: refused/],
    ['http://0x7f.1/hook', /127\.0\.0\.1 is loopback/],
    ['http://2130706433/hook', /127\.0\.0\.1 is loopback/],
    ['http://0177.0.0.1/hook', /127\.0\.0\.1 is loopback/],
    ['http://[::1]:9/hook', /::1 is loopback/],
    ['http://[::ffff:127.0.0.1]/hook', /is loopback, as 127\.0\.0\.1/],
    ['http://localhost:9/hook', /localhost is loopback/],
    ['http://10.0.0.5/hook', /10\.0\.0\.5 is private/],
    ['http://192.168.1.1/hook', /is private/],
    ['http://172.20.0.1/hook', /is private/],
    ['http://169.254.169.254/latest/meta-data/', /is link-local/],
    ['http://[fd00::1]/hook', /is private \(unique local\)/],
    ['http://0.0.0.0:8080/', /is unspecified/],
  ];
  for (const [url, message] of refused) {
    const io = memoryIo({}, dir);
    assert.is(await main(['webhook', 'add', url, '--data', 'store'], io), 1, url);
    assert.match(io.err(), message, url);
    assert.match(io.err(), /--allow-private/, url);
  }
  const none = memoryIo({}, dir);
  await main(['webhook', 'list', '--data', 'store'], none);
  assert.is(none.out(), '', '~> nothing was added');
  const ok = memoryIo({}, dir);
  assert.is(
    await main(['webhook', 'add', 'http://[::1]:9/hook', '--allow-private', '--data', 'store'], ok),
    0,
    ok.err(),
  );
  const list = memoryIo({}, dir);
  await main(['webhook', 'list', '--data', 'store'], list);
  assert.match(list.out(), /^wh_[0-9a-f]{12} http:\/\/\[::1\]:9\/hook types=all allow-private delivered=/);
});

cli(
  'credentials in a URL are never printed: add, list, remove show *** for the password and query values',
  async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-cli-hook-'));
    const url = 'https://hookuser:s3cr3t-pass@example.org/hook?token=abcdef123&x=1';
    const add = memoryIo({}, dir);
    assert.is(
      await main(['webhook', 'add', url, '--secret', 'a-long-enough-secret', '--data', 'store'], add),
      0,
      add.err(),
    );
    const list = memoryIo({}, dir);
    await main(['webhook', 'list', '--data', 'store'], list);
    const rm = memoryIo({}, dir);
    assert.is(await main(['webhook', 'remove', url, '--data', 'store'], rm), 0, rm.err());
    for (const io of [add, list, rm]) {
      const out = io.out() + io.err();
      assert.not.match(out, /s3cr3t-pass|abcdef123|a-long-enough-secret/, out);
      assert.match(out, /https:\/\/hookuser:\*\*\*@example\.org\/hook\?token=\*\*\*&x=\*\*\*/, out);
    }
    const missing = memoryIo({}, dir);
    assert.is(await main(['webhook', 'remove', url, '--data', 'store'], missing), 1);
    assert.not.match(missing.err(), /s3cr3t-pass|abcdef123/);
  },
);

// the processes run the built program (dist/, as the package's bin does): plain node starts in a
// quarter of the CPU time tsx takes to load the sources, and they are fourteen
cli('concurrent webhook add and remove commands (separate processes) never lose one', async () => {
  ensureDist();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-cli-hook-'));
  const root = ROOT;
  const run = (args: string[]) =>
    new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
      const child = spawn(process.execPath, [DIST_MAIN, 'webhook', ...args, '--data', dir], { cwd: root });
      let out = '';
      let err = '';
      child.stdout.on('data', (c) => (out += c));
      child.stderr.on('data', (c) => (err += c));
      child.on('close', (code) => resolve({ code, out, err }));
    });
  const N = 4;
  const added = await Promise.all(
    Array.from({ length: N }, (_, i) =>
      run(['add', `https://example.org/hook-${i}`, '--secret', 'a-long-enough-secret']),
    ),
  );
  for (const r of added) assert.is(r.code, 0, r.err);
  const listed = () =>
    JSON.parse(fs.readFileSync(path.join(dir, 'webhooks.json'), 'utf8')).webhooks as Array<{ id: string; url: string }>;
  assert.is(listed().length, N, '~> every concurrent add is kept');
  // half removed while as many are added, all at once
  const gone = listed().slice(0, N / 2);
  const mixed = await Promise.all([
    ...gone.map((h) => run(['remove', h.id])),
    ...Array.from({ length: N / 2 }, (_, i) =>
      run(['add', `https://example.org/more-${i}`, '--secret', 'a-long-enough-secret']),
    ),
  ]);
  for (const r of mixed) assert.is(r.code, 0, r.err);
  const after = listed();
  assert.is(after.length, N);
  for (const h of gone)
    assert.not.ok(
      after.some((a) => a.id === h.id),
      `~> ${h.id} removed`,
    );
  assert.is(after.filter((h) => h.url.includes('/more-')).length, N / 2);
  assert.not.ok(fs.existsSync(path.join(dir, 'webhooks.json.lock')), '~> the lock is released');

  // the same code in tight loops, four processes at once: their read-change-write windows overlap
  const loops = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-cli-hook-'));
  const script = (body: string) =>
    new Promise<number | null>((resolve) => {
      const code = `import { addWebhook, removeWebhook, readWebhooks } from ${JSON.stringify(path.join(root, 'dist/changes/webhook-registry.js'))};\n${body}`;
      const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
        cwd: root,
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      child.on('close', resolve);
    });
  const P = 4,
    EACH = 40;
  const codes = await Promise.all(
    Array.from({ length: P }, (_, p) =>
      script(
        `for (let i = 0; i < ${EACH}; i++) addWebhook(${JSON.stringify(loops)}, 'https://example.org/p${p}-' + i, [], 'a-long-enough-secret');`,
      ),
    ),
  );
  assert.equal(codes, Array(P).fill(0));
  const urls = JSON.parse(fs.readFileSync(path.join(loops, 'webhooks.json'), 'utf8')).webhooks.map(
    (h: { url: string }) => h.url,
  );
  assert.is(urls.length, P * EACH, `~> ${P * EACH - urls.length} adds lost`);
  const removals = await Promise.all(
    Array.from({ length: P }, (_, p) =>
      script(
        `for (let i = 0; i < ${EACH}; i += 2) removeWebhook(${JSON.stringify(loops)}, 'https://example.org/p${p}-' + i);`,
      ),
    ),
  );
  assert.equal(removals, Array(P).fill(0));
  const left = JSON.parse(fs.readFileSync(path.join(loops, 'webhooks.json'), 'utf8')).webhooks.map(
    (h: { url: string }) => h.url,
  );
  assert.is(left.length, (P * EACH) / 2, '~> every remove is kept, and nothing else went');
});

cli.run();
