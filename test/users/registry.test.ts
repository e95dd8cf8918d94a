import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UserRegistry } from '../../src/users/registry.ts';
import { UserError, USERS_FILE } from '../../src/users/records.ts';
import { generatePassword } from '../../src/users/passwords.ts';

function tmpDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'ce-users-'));
}

function throwsUserError(fn: () => unknown, pattern: RegExp): void {
  try {
    fn();
  } catch (err) {
    assert.instance(err, UserError, `~> expected a UserError, got ${String(err)}`);
    assert.match((err as Error).message, pattern);
    return;
  }
  assert.unreachable('~> expected a throw');
}

// ---

const passwords = suite('users :: passwords');

passwords('generated passwords look like WordPress application passwords', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 50; i++) {
    const p = generatePassword();
    assert.match(p, /^[A-Za-z0-9]{4}( [A-Za-z0-9]{4}){5}$/);
    seen.add(p);
  }
  assert.is(seen.size, 50);
});

passwords('verify: right, wrong, spaces ignored, unknown login', () => {
  const reg = UserRegistry.open();
  const { user, password } = reg.add('alice', 'editor');
  assert.equal(reg.verifySync('alice', password), user);
  assert.equal(reg.verifySync('alice', password.replace(/ /g, '')), user);
  assert.equal(reg.verifySync('alice', ` ${password.replace(/ /g, '  ')} `), user);
  assert.equal(reg.verifySync('ALICE', password), user, '~> logins are case-insensitive, as in WordPress');
  assert.is(reg.verifySync('alice', password.slice(0, -1) + (password.endsWith('a') ? 'b' : 'a')), null);
  assert.is(reg.verifySync('alice', ''), null);
  assert.is(reg.verifySync('bob', password), null);
  // a cached success does not let a different password through
  assert.equal(reg.verifySync('alice', password), user);
  assert.is(reg.verifySync('alice', 'x' + password), null);
});

passwords('verify (async): off the event loop, same answers, a reset forgets the cached success', async () => {
  const reg = UserRegistry.open();
  const { user, password } = reg.add('alice', 'editor');
  assert.is(reg.known('alice', password), undefined, '~> nothing known before a first success');
  // while a wrong password is hashed on the thread pool, the event loop keeps turning
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  const wrong = await Promise.all([
    reg.verify('alice', 'nope'),
    reg.verify('alice', 'nope2'),
    reg.verify('bob', 'x'),
    reg.verify('alice', 'y'),
  ]);
  clearInterval(timer);
  assert.equal(wrong, [null, null, null, null]);
  assert.ok(ticks >= 3, `~> the event loop ran while hashing (${ticks} ticks)`);
  assert.equal(await reg.verify('alice', password), user);
  assert.equal(reg.known('alice', password), user, '~> a success is remembered');
  assert.is(reg.known('alice', password + 'x'), undefined);
  const fresh = reg.reset('alice');
  assert.is(reg.known('alice', password), undefined, '~> a reset forgets it');
  assert.is(await reg.verify('alice', password), null);
  assert.equal(await reg.verify('alice', fresh), user);
  reg.remove('alice');
  assert.is(reg.known('alice', fresh), undefined, '~> a removal forgets it');
  assert.is(await reg.verify('alice', fresh), null);
});

passwords.run();

// ---

const registry = suite('users :: registry');

registry('add, list, byLogin, byId, remove, reset', () => {
  const reg = UserRegistry.open();
  const a = reg.add('alice', 'editor');
  const b = reg.add('bob', 'subscriber');
  assert.equal(a.user, { id: 1, login: 'alice', role: 'editor' });
  assert.equal(b.user, { id: 2, login: 'bob', role: 'subscriber' });
  assert.equal(reg.list(), [a.user, b.user]);
  assert.equal(reg.byLogin('bob'), b.user);
  assert.equal(reg.byId(1), a.user);
  assert.is(reg.byId(3), undefined);

  const fresh = reg.reset('alice');
  assert.is.not(fresh, a.password);
  assert.is(reg.verifySync('alice', a.password), null, '~> the old password stops working');
  assert.equal(reg.verifySync('alice', fresh), a.user);

  reg.remove('alice');
  assert.is(reg.byLogin('alice'), undefined);
  assert.is(reg.verifySync('alice', fresh), null);
  assert.equal(reg.list(), [b.user]);
});

registry('invalid logins, unknown roles, duplicates, missing users', () => {
  const reg = UserRegistry.open();
  throwsUserError(() => reg.add('', 'editor'), /empty/);
  throwsUserError(() => reg.add('has space', 'editor'), /no spaces/);
  throwsUserError(() => reg.add('x'.repeat(61), 'editor'), /at most 60/);
  throwsUserError(
    () => reg.add('carol', 'owner' as never),
    /unknown role "owner".*administrator, editor, author, contributor, subscriber/,
  );
  reg.add('carol', 'author');
  throwsUserError(() => reg.add('Carol', 'author'), /already exists/);
  throwsUserError(() => reg.remove('nobody'), /no user "nobody"/);
  throwsUserError(() => reg.reset('nobody'), /no user "nobody"/);
  assert.is(reg.list().length, 1);
});

registry('ensure creates, keeps, and updates role and password', () => {
  const reg = UserRegistry.open();
  reg.add('alice', 'editor');
  const admin = reg.ensure('admin', 'administrator', 's3cret pass');
  assert.equal(admin, { id: 2, login: 'admin', role: 'administrator' });
  assert.equal(reg.verifySync('admin', 's3cretpass'), admin);
  assert.equal(reg.ensure('admin', 'administrator', 's3cret pass'), admin);
  const changed = reg.ensure('admin', 'editor', 'other');
  assert.equal(changed, { id: 2, login: 'admin', role: 'editor' });
  assert.is(reg.verifySync('admin', 's3cret pass'), null);
  assert.equal(reg.verifySync('admin', 'other'), changed);
  throwsUserError(() => reg.ensure('admin', 'administrator', '   '), /empty/);
});

registry.run();

// ---

const file = suite('users :: file');

file('persists hashes only, 0600, and reopens the same users', () => {
  const dir = tmpDir();
  const reg = UserRegistry.open(dir);
  const { user, password } = reg.add('alice', 'administrator');
  const target = path.join(dir, USERS_FILE);
  const text = fs.readFileSync(target, 'utf8');
  assert.not.ok(text.includes(password), '~> the password itself is not in the file');
  assert.not.ok(text.includes(password.replace(/ /g, '')));
  assert.match(text, /"password": "scrypt\$16384\$8\$1\$/);
  assert.is(fs.statSync(target).mode & 0o777, 0o600);
  // no temp or lock files are left behind
  assert.equal(fs.readdirSync(dir), [USERS_FILE]);

  const again = UserRegistry.open(dir);
  assert.equal(again.list(), [user]);
  assert.equal(again.verifySync('alice', password), user);
});

file('a missing file means no users; a missing dir is created on the first add', () => {
  const dir = path.join(tmpDir(), 'nested', 'store');
  const reg = UserRegistry.open(dir);
  assert.equal(reg.list(), []);
  reg.add('alice', 'author');
  assert.ok(fs.existsSync(path.join(dir, USERS_FILE)));
});

file('ids are never reused, also across reopen', () => {
  const dir = tmpDir();
  const reg = UserRegistry.open(dir);
  reg.add('a', 'author');
  reg.add('b', 'author');
  reg.remove('b');
  assert.is(reg.add('c', 'author').user.id, 3);
  reg.remove('c');
  const again = UserRegistry.open(dir);
  assert.is(again.add('d', 'author').user.id, 4);
});

file("two registries on one dir: a mutation merges with the other one's changes", () => {
  const dir = tmpDir();
  const one = UserRegistry.open(dir);
  const two = UserRegistry.open(dir);
  one.add('a', 'author');
  two.add('b', 'editor'); // re-reads the file first, so 'a' survives and ids do not clash
  assert.equal(
    UserRegistry.open(dir)
      .list()
      .map((u) => `${u.id} ${u.login}`),
    ['1 a', '2 b'],
  );
});

file('a malformed file is a clear error', () => {
  const dir = tmpDir();
  fs.writeFileSync(path.join(dir, USERS_FILE), '{"users": [{"id": 1}]}');
  assert.throws(() => UserRegistry.open(dir), /user #0 is malformed/);
  fs.writeFileSync(path.join(dir, USERS_FILE), '{oops');
  assert.throws(() => UserRegistry.open(dir), /not valid JSON/);
});

file('a stale lock of a dead process is taken over', () => {
  const dir = tmpDir();
  fs.writeFileSync(path.join(dir, USERS_FILE + '.lock'), '999999999\n');
  const reg = UserRegistry.open(dir);
  reg.add('alice', 'author');
  assert.not.ok(fs.existsSync(path.join(dir, USERS_FILE + '.lock')));
});

file("watch sees another process's change within a second", async () => {
  const dir = tmpDir();
  const server = UserRegistry.open(dir);
  let changes = 0;
  server.watch(() => changes++);
  const cli = UserRegistry.open(dir);
  const { user, password } = cli.add('alice', 'editor');
  const t0 = Date.now();
  while (!server.byLogin('alice') && Date.now() - t0 < 1500) await new Promise((r) => setTimeout(r, 25));
  assert.ok(Date.now() - t0 < 1000, `~> seen after ${Date.now() - t0} ms`);
  assert.equal(server.verifySync('alice', password), user);
  assert.ok(changes >= 1);

  const fresh = cli.reset('alice');
  const t1 = Date.now();
  while (server.verifySync('alice', password) && Date.now() - t1 < 1500) await new Promise((r) => setTimeout(r, 25));
  assert.ok(Date.now() - t1 < 1000, '~> reset seen within a second');
  assert.equal(server.verifySync('alice', fresh), user);

  cli.remove('alice');
  const t2 = Date.now();
  while (server.byLogin('alice') && Date.now() - t2 < 1500) await new Promise((r) => setTimeout(r, 25));
  assert.is(server.byLogin('alice'), undefined);
  server.close();
});

file.run();
