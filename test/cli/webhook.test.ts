// calendar-engine webhook add|list|remove, as an operator types them.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { main } from '../../src/cli/main.ts';
import { memoryIo } from './io.ts';

const cli = suite('cli :: webhook');

cli('add prints the id and the secret once; list shows it; remove takes it away', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-cli-hook-'));
  const add = memoryIo({}, dir);
  assert.is(await main(['webhook', 'add', 'https://example.org/hook', '--types', 'event,venue', '--data', 'store'], add), 0, add.err());
  const m = /^added webhook (wh_[0-9a-f]{12}) → https:\/\/example\.org\/hook \(event, venue\) in store\nsigning secret, shown only this once:\n(\S{24,})\n$/.exec(add.out());
  assert.ok(m, add.out());
  const list = memoryIo({}, dir);
  assert.is(await main(['webhook', 'list', '--data', 'store'], list), 0);
  assert.match(list.out(), new RegExp(`^${m![1]} https://example.org/hook types=event,venue delivered=- backlog=0 last=not started yet\\n$`));
  assert.not.match(list.out(), new RegExp(m![2].replace(/[-]/g, '\\-')), 'list never shows the secret');
  const given = memoryIo({}, dir);
  assert.is(await main(['webhook', 'add', 'http://127.0.0.1:9/x', '--secret', 'a-long-enough-secret', '--data', 'store'], given), 0);
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
    [['webhook', 'list', '--types', 'event'], 2, /--types and --secret go with webhook add/],
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
    [['webhook', 'list', '--cluster', 'nats://127.0.0.1:4222', '--cluster-name', 'x', '--data', 'store'], 2, /--data and --cluster: one or the other/],
    [['webhook', 'list', '--cluster-name', 'x'], 2, /--cluster-name needs --cluster/],
    [['webhook', 'list', '--cluster', 'nats://127.0.0.1:4222'], 2, /--cluster needs --cluster-name/],
    [['webhook', 'list', '--cluster', 'http://x', '--cluster-name', 'x'], 2, /expected nats:\/\/host:port URLs/],
    // a port nothing listens on
    [['webhook', 'list', '--cluster', 'nats://127.0.0.1:1', '--cluster-name', 'x'], 1, /cannot reach NATS at nats:\/\/127\.0\.0\.1:1/],
  ];
  for (const [args, code, message] of cases) {
    const io = memoryIo({}, dir);
    assert.is(await main(args, io), code, args.join(' '));
    assert.match(io.err(), message, `${args.join(' ')}: ${io.err()}`);
  }
});

cli("--data DIR of a cluster node: its cluster.json names the cluster; a broken one is named, not thrown", async () => {
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
  for (const [text, message] of [['{"servers": [', /cluster\.json: not JSON \(.+\); 'serve --cluster' writes it again/], ['[1, 2]', /cluster\.json: expected \{"servers": \[\.\.\.\], "name": \.\.\.\}/], ['null', /expected \{"servers"/]] as const) {
    fs.writeFileSync(marker, text);
    for (const args of [['webhook', 'list', '--data', 'node'], ['user', 'list', '--data', 'node']]) {
      const bad = memoryIo({}, dir);
      assert.is(await main(args, bad), 1, `${args[0]} with cluster.json ${text}`);
      assert.match(bad.err(), message, `${args[0]} with cluster.json ${text}`);
      assert.is(bad.err().trim().split('\n').length, 1, 'one line');
    }
  }
});

cli.run();
