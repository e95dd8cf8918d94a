import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { main } from '../../src/cli/main.ts';
import { UserRegistry } from '../../src/users/registry.ts';
import { memoryIo } from './io.ts';

function tmpDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'ce-cli-user-'));
}

async function run(argv: string[], env: Record<string, string> = {}, cwd?: string) {
  const io = memoryIo(env, cwd);
  const code = await main(argv, io);
  return { code, out: io.out(), err: io.err(), lines: io.out().trimEnd().split('\n') };
}

const user = suite('cli :: user');

user('add: first line names the id, last line is the password alone, and it verifies', async () => {
  const dir = tmpDir();
  const a = await run(['user', 'add', 'alice', '--role', 'editor', '--data', dir]);
  assert.is(a.code, 0, a.err);
  assert.match(a.lines[0], /^created user 1 \(alice, editor\)/);
  const password = a.lines[a.lines.length - 1];
  assert.match(password, /^[A-Za-z0-9]{4}( [A-Za-z0-9]{4}){5}$/);
  assert.equal(UserRegistry.open(dir).verifySync('alice', password), { id: 1, login: 'alice', role: 'editor' });
  assert.not.ok(fs.readFileSync(path.join(dir, 'users.json'), 'utf8').includes(password));

  const b = await run(['user', 'add', 'bob', '--data', dir, '--role=author']);
  assert.match(b.lines[0], /^created user 2 \(bob, author\)/);
});

user('list prints "id login role" per user; remove and reset', async () => {
  const dir = tmpDir();
  await run(['user', 'add', 'alice', '--role', 'editor', '--data', dir]);
  await run(['user', 'add', 'bob', '--role', 'subscriber', '--data', dir]);
  const list = await run(['user', 'list', '--data', dir]);
  assert.is(list.out, '1 alice editor\n2 bob subscriber\n');

  const reset = await run(['user', 'reset', 'bob', '--data', dir]);
  assert.is(reset.code, 0);
  const fresh = reset.lines[reset.lines.length - 1];
  assert.match(fresh, /^[A-Za-z0-9]{4}( [A-Za-z0-9]{4}){5}$/);
  assert.ok(UserRegistry.open(dir).verifySync('bob', fresh));

  const removed = await run(['user', 'remove', 'alice', '--data', dir]);
  assert.is(removed.code, 0);
  assert.is(removed.out, 'removed user 1 (alice)\n');
  assert.is((await run(['user', 'list', '--data', dir])).out, '2 bob subscriber\n');
  // the id of a removed user is not handed out again
  assert.match((await run(['user', 'add', 'carol', '--role', 'author', '--data', dir])).lines[0], /^created user 3 /);
});

user('--data defaults to CALENDAR_DATA, then ./data/store under the working directory', async () => {
  const cwd = tmpDir();
  await run(['user', 'add', 'alice', '--role', 'author'], {}, cwd);
  assert.ok(fs.existsSync(path.join(cwd, 'data/store/users.json')));
  await run(['user', 'add', 'bob', '--role', 'author'], { CALENDAR_DATA: 'elsewhere' }, cwd);
  assert.is((await run(['user', 'list', '--data', 'elsewhere'], {}, cwd)).out, '1 bob author\n');
});

user('mistakes: exit codes and messages', async () => {
  const dir = tmpDir();
  const cases: Array<[string[], number, RegExp]> = [
    [['user'], 2, /^calendar-engine user: missing user command/],
    [['user', 'rename', 'x'], 2, /^calendar-engine user: unknown user command 'rename'/],
    [['user', 'add', '--role', 'editor'], 2, /^calendar-engine user: missing LOGIN/],
    [['user', 'add', 'alice'], 2, /^calendar-engine user: user add needs --role/],
    [
      ['user', 'add', 'alice', '--role', 'owner'],
      2,
      /^calendar-engine user: unknown role "owner": expected one of administrator, editor/,
    ],
    [['user', 'add', 'al ice', '--role', 'editor'], 1, /^calendar-engine user: invalid login "al ice"/],
    [['user', 'add', 'a', 'b', '--role', 'editor'], 2, /^calendar-engine user: unexpected argument 'b'/],
    [['user', 'list', '--role', 'editor'], 2, /--role only goes with 'user add'/],
    [['user', 'remove', 'ghost'], 1, /^calendar-engine user: no user "ghost"\n$/],
    [['user', 'reset', 'ghost'], 1, /^calendar-engine user: no user "ghost"\n$/],
  ];
  for (const [argv, code, message] of cases) {
    const r = await run([...argv, '--data', dir]);
    assert.is(r.code, code, `~> ${argv.join(' ')}: ${r.err}`);
    assert.match(r.err, message);
    assert.is(r.out, '');
  }
  await run(['user', 'add', 'alice', '--role', 'editor', '--data', dir]);
  const dup = await run(['user', 'add', 'alice', '--role', 'author', '--data', dir]);
  assert.is(dup.code, 1);
  assert.is(dup.err, 'calendar-engine user: user "alice" already exists\n');
});

user('list on an empty store prints nothing on stdout and a hint on stderr', async () => {
  const r = await run(['user', 'list', '--data', tmpDir()]);
  assert.is(r.code, 0);
  assert.is(r.out, '');
  assert.match(r.err, /no users in/);
});

user.run();
