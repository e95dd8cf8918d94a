import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseBasic, Authenticator, AUTH_CACHE_MS, type UserVerifier } from '../../src/http/auth.ts';
import { CalendarError } from '../../src/api/wordpress/errors.ts';
import { UserRegistry } from '../../src/users/registry.ts';
import type { User } from '../../src/api/wordpress/types.ts';

const basic = (login: string, pw: string) => 'Basic ' + Buffer.from(`${login}:${pw}`).toString('base64');

const parse = suite('auth :: parseBasic');

parse('absent header or other scheme → anonymous (null)', () => {
  assert.is(parseBasic(undefined), null);
  assert.is(parseBasic('Bearer abc'), null);
  assert.is(parseBasic(''), null);
});

parse('decodes login:password; scheme is case-insensitive', () => {
  assert.equal(parseBasic(basic('ed', 'secret')), { login: 'ed', password: 'secret' });
  assert.equal(parseBasic('basic ' + Buffer.from('ed:a:b').toString('base64')), { login: 'ed', password: 'a:b' });
});

parse('spaces in application passwords are stripped', () => {
  assert.equal(parseBasic(basic('ed', 'abcd efgh ijkl')), { login: 'ed', password: 'abcdefghijkl' });
});

parse('malformed Basic headers', () => {
  assert.is(parseBasic('Basic !!!'), 'malformed');
  assert.is(parseBasic('Basic ' + Buffer.from('nocolon').toString('base64')), 'malformed');
  assert.is(parseBasic('Basic ' + Buffer.from(':pw').toString('base64')), 'malformed');
});

parse.run();

// ---

const cache = suite('auth :: Authenticator');

function counting(users: UserVerifier) {
  let calls = 0;
  const v: UserVerifier = {
    byLogin: (l) => users.byLogin(l),
    verify: (l, p) => {
      calls++;
      return users.verify(l, p);
    },
  };
  return { v, calls: () => calls };
}

async function codeOf(p: Promise<unknown>): Promise<[string, number]> {
  try {
    await p;
  } catch (e) {
    assert.instance(e, CalendarError);
    return [(e as CalendarError).code, (e as CalendarError).status];
  }
  throw new Error('~> expected a rejection');
}

cache('anonymous, good and bad credentials', async () => {
  const reg = UserRegistry.open();
  const { user, password } = reg.add('ed', 'editor');
  const auth = new Authenticator(reg);
  assert.is(await auth.authenticate(undefined), null);
  assert.equal(await auth.authenticate(basic('ed', password)), user);
  assert.equal(await codeOf(auth.authenticate(basic('ed', 'wrong'))), ['incorrect_password', 401]);
  assert.equal(await codeOf(auth.authenticate(basic('nobody', 'x'))), ['invalid_username', 401]);
  assert.equal(await codeOf(auth.authenticate('Basic %%%')), ['invalid_username', 401]);
});

cache('answers are reused within the TTL, good and bad alike', async () => {
  const reg = UserRegistry.open();
  const { password } = reg.add('ed', 'editor');
  let t = 1000;
  const { v, calls } = counting(reg);
  const auth = new Authenticator(v, () => t);
  await auth.authenticate(basic('ed', password));
  await auth.authenticate(basic('ed', password));
  await codeOf(auth.authenticate(basic('ed', 'bad')));
  await codeOf(auth.authenticate(basic('ed', 'bad')));
  assert.is(calls(), 2);
  t += AUTH_CACHE_MS + 1;
  await auth.authenticate(basic('ed', password));
  assert.is(calls(), 3);
});

cache('a removed user stops working at once, even inside the TTL', async () => {
  const reg = UserRegistry.open();
  const { password } = reg.add('ed', 'editor');
  const auth = new Authenticator(reg, () => 0);
  await auth.authenticate(basic('ed', password));
  reg.remove('ed');
  assert.equal(await codeOf(auth.authenticate(basic('ed', password))), ['invalid_username', 401]);
});

cache('a reset password stops working once the TTL is over', async () => {
  const reg = UserRegistry.open();
  const { password } = reg.add('ed', 'editor');
  let t = 0;
  const auth = new Authenticator(reg, () => t);
  await auth.authenticate(basic('ed', password));
  const fresh = reg.reset('ed');
  t += AUTH_CACHE_MS + 1;
  assert.equal(await codeOf(auth.authenticate(basic('ed', password))), ['incorrect_password', 401]);
  assert.is((await auth.authenticate(basic('ed', fresh)))?.login, 'ed');
});

cache('a changed role is not served from the cache', async () => {
  const u: User = { id: 1, login: 'ed', role: 'editor' };
  let current: User = u;
  const v: UserVerifier = { byLogin: () => current, verify: () => current };
  const auth = new Authenticator(v, () => 0);
  assert.is((await auth.authenticate(basic('ed', 'x')))?.role, 'editor');
  current = { ...u, role: 'subscriber' };
  assert.is((await auth.authenticate(basic('ed', 'x')))?.role, 'subscriber');
});

cache.run();
