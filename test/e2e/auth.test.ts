import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openCalendar } from '../../src/calendar.ts';
import { startServer } from '../../src/http/server.ts';
import { UserRegistry } from '../../src/users/registry.ts';
import { request } from '../http/request.ts';
import { NOW } from '../helpers/server.ts';

const A = suite('e2e :: auth (users.json shared with the command line)');

A('users added, reset and removed by another process show within a second', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-http-auth-'));
  const cal = await openCalendar({ dir, now: () => NOW });
  // the polls below fail until the server sees each change: those are not a password flood
  const srv = await startServer(cal, { port: 0, log: () => {}, loginLimits: false });
  cal.users.watch();
  const cli = UserRegistry.open(dir); // what `calendar-engine user add` does, in its own registry
  const NS = '/wp-json/tribe/events/v1';
  const create = (login: string, pw: string) =>
    request(srv.url, `${NS}/tags`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"t' + Math.random() + '"}',
      auth: [login, pw],
    });
  const waitFor = async (fn: () => Promise<boolean>) => {
    const until = Date.now() + 1500;
    while (Date.now() < until) {
      if (await fn()) return true;
      await new Promise((r) => setTimeout(r, 50));
    }
    return false;
  };
  try {
    const { password } = cli.add('ann', 'editor');
    const t0 = Date.now();
    assert.ok(await waitFor(async () => (await create('ann', password)).status === 201), '~> added user works');
    assert.ok(Date.now() - t0 < 1000, '~> within a second');
    assert.is((await create('ann', password)).status, 201);
    const fresh = cli.reset('ann');
    const t1 = Date.now();
    assert.ok(await waitFor(async () => (await create('ann', password)).status === 401), '~> old password stops');
    assert.ok(Date.now() - t1 < 1000, `~> reset effective within a second (${Date.now() - t1} ms)`);
    assert.is((await create('ann', fresh)).status, 201);
    cli.remove('ann');
    assert.ok(
      await waitFor(async () => (await create('ann', fresh)).json.code === 'invalid_username'),
      '~> removed user stops',
    );
    const sub = cli.add('sam', 'subscriber');
    assert.ok(await waitFor(async () => (await create('sam', sub.password)).status === 403), '~> subscriber is 403');
  } finally {
    cli.close();
    await srv.close();
    await cal.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

A.run();
