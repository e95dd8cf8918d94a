import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { LoginLimiter, clientKey } from '../../src/security/login-limits.ts';
import { openCalendar } from '../../src/calendar.ts';
import { startServer } from '../../src/http/server.ts';
import { request } from '../http/request.ts';

const limiter = suite('security :: login limits');

limiter('clientKey: IPv4 as is (also IPv4-mapped), IPv6 by its /64', () => {
  assert.is(clientKey('192.0.2.7'), '192.0.2.7');
  assert.is(clientKey('::ffff:192.0.2.7'), '192.0.2.7');
  assert.is(clientKey('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
  assert.is(clientKey('2001:db8:1:2:bbbb:cccc:dddd:eeee'), '2001:db8:1:2::/64', '~> one /64, one client');
  assert.is(clientKey('::1'), '0:0:0:0::/64');
  assert.is(clientKey(undefined), '?');
});

limiter('per client: refused after the limit, drains at limit per window', () => {
  let t = 0;
  const l = new LoginLimiter({ perClient: 3, perLogin: 0, windowMs: 60_000 }, () => t);
  for (let i = 0; i < 3; i++) {
    assert.is(l.wait('a', `u${i}`), 0);
    l.fail('a', `u${i}`);
  }
  assert.is(l.wait('a', 'other'), 20_000, '~> one failure drains every 20 s');
  assert.is(l.wait('b', 'u0'), 0, '~> another address is not limited (per-login limit off)');
  t += 19_999;
  assert.ok(l.wait('a', 'x') > 0);
  t += 1;
  assert.is(l.wait('a', 'x'), 0);
  l.fail('a', 'x');
  assert.is(l.wait('a', 'x'), 20_000, '~> full again after one more failure');
});

limiter('per login: every address together', () => {
  const t = 0;
  const l = new LoginLimiter({ perClient: 0, perLogin: 2, windowMs: 1_000 }, () => t);
  l.fail('a', 'Ed');
  l.fail('b', 'ed');
  assert.is(l.wait('c', 'ED'), 500, '~> login names are case-insensitive');
  assert.is(l.wait('c', 'other'), 0);
});

limiter('bounded: past maxKeys the drained and the oldest keys go', () => {
  let t = 0;
  const l = new LoginLimiter({ perClient: 5, perLogin: 5, windowMs: 1_000, maxKeys: 100 }, () => t);
  for (let i = 0; i < 1_000; i++) {
    l.fail(`10.0.${i >> 8}.${i & 255}`, `user${i}`);
    t += 1;
  }
  assert.ok(l.size.clients <= 100 && l.size.logins <= 100, `~> ${JSON.stringify(l.size)}`);
});

limiter.run();

// ---

const http = suite('security :: login limits over HTTP');

const basic = (login: string, pw: string): Record<string, string> => ({
  authorization: 'Basic ' + Buffer.from(`${login}:${pw}`).toString('base64'),
});

async function serve(opts: Parameters<typeof startServer>[1] = {}) {
  const cal = await openCalendar({});
  const { password } = cal.users.add('ed', 'editor');
  const srv = await startServer(cal, { port: 0, log: () => {}, ...opts });
  const root = `${srv.url}/wp-json/tribe/events/v1`;
  return {
    cal,
    srv,
    root,
    password,
    close: async () => {
      await srv.close();
      await cal.close();
    },
  };
}

http(
  'wrong passwords from one address: 401 up to the limit, then 429 with Retry-After, loopback included',
  async () => {
    const s = await serve({ loginLimits: { perClient: 3, perLogin: 100 } });
    try {
      // a password that verified before keeps working throughout (no hash, never limited)
      assert.is((await request(s.root, '/events', { headers: basic('ed', s.password) })).status, 200);
      for (let i = 0; i < 3; i++) {
        const r = await request(s.root, '/events', { headers: basic('ed', `wrong${i}`) });
        assert.is(r.status, 401);
        assert.is(r.json.code, 'incorrect_password');
      }
      const r = await request(s.root, '/events', { headers: basic('ed', 'wrong9') });
      assert.is(r.status, 429);
      assert.is(r.json.code, 'too_many_login_attempts');
      assert.is(r.json.data.status, 429);
      assert.ok(
        Number(r.headers['retry-after']) >= 1 && Number(r.headers['retry-after']) <= 20,
        `~> Retry-After ${r.headers['retry-after']}`,
      );
      assert.is(r.json.data.retry_after, Number(r.headers['retry-after']));
      assert.match(r.json.message, /Try again in \d+ seconds/);
      const unknown = await request(s.root, '/events', { headers: basic('nobody', 'x') });
      assert.is(unknown.status, 429, '~> the address is limited, whatever the login');
      assert.is(
        (await request(s.root, '/events', { headers: basic('ed', s.password) })).status,
        200,
        '~> the owner still gets in',
      );
      assert.is((await request(s.root, '/events')).status, 200, '~> anonymous reads are not limited');
    } finally {
      await s.close();
    }
  },
);

http('per login: a flood against one login is limited, other logins are not', async () => {
  const s = await serve({ loginLimits: { perClient: 0, perLogin: 2 } });
  try {
    const { password: other } = s.cal.users.add('ann', 'author');
    for (let i = 0; i < 2; i++)
      assert.is((await request(s.root, '/events', { headers: basic('ed', `w${i}`) })).status, 401);
    assert.is((await request(s.root, '/events', { headers: basic('ED', 'w9') })).status, 429);
    assert.is((await request(s.root, '/events', { headers: basic('ann', other) })).status, 200);
  } finally {
    await s.close();
  }
});

http('attempts made at once count together: exactly the limit is checked, the rest wait and get 429', async () => {
  const s = await serve({ loginLimits: { perClient: 3, perLogin: 0 } });
  try {
    const t0 = Date.now();
    const all = await Promise.all(
      Array.from({ length: 8 }, (_, i) => request(s.root, '/events', { headers: basic('ed', `x${i}`) })),
    );
    const statuses = all.map((r) => r.status).sort();
    assert.equal(statuses, [401, 401, 401, 429, 429, 429, 429, 429]);
    assert.ok(Date.now() - t0 >= 900, '~> a 429 is held for up to a second before it goes out');
  } finally {
    await s.close();
  }
});

http('many requests at once with one valid password share one check and are not limited', async () => {
  const s = await serve({ loginLimits: { perClient: 3, perLogin: 3 } });
  try {
    const all = await Promise.all(
      Array.from({ length: 30 }, () => request(s.root, '/events', { headers: basic('ed', s.password) })),
    );
    assert.equal([...new Set(all.map((r) => r.status))], [200]);
    const again = await Promise.all(
      Array.from({ length: 10 }, () => request(s.root, '/events', { headers: basic('ed', 'same-wrong') })),
    );
    assert.equal(
      [...new Set(again.map((r) => r.status))],
      [401],
      '~> one wrong guess sent ten times at once is one attempt',
    );
  } finally {
    await s.close();
  }
});

http("loginErrors 'uniform': an unknown login and a wrong password answer alike", async () => {
  const wp = await serve();
  const uni = await serve({ loginErrors: 'uniform' });
  try {
    assert.is((await request(wp.root, '/events', { headers: basic('nobody', 'x') })).json.code, 'invalid_username');
    assert.is((await request(wp.root, '/events', { headers: basic('ed', 'x') })).json.code, 'incorrect_password');
    const a = await request(uni.root, '/events', { headers: basic('nobody', 'x') });
    const b = await request(uni.root, '/events', { headers: basic('ed', 'x') });
    const c = await request(uni.root, '/events', { headers: { authorization: 'Basic %%%' } });
    for (const r of [a, b, c]) {
      assert.is(r.status, 401);
      assert.equal(r.json, {
        code: 'invalid_credentials',
        message: 'Unknown username or incorrect application password.',
        data: { status: 401 },
      });
    }
  } finally {
    await wp.close();
    await uni.close();
  }
});

http('loginLimits false: no limit', async () => {
  const s = await serve({ loginLimits: false });
  try {
    for (let i = 0; i < 15; i++)
      assert.is((await request(s.root, '/events', { headers: basic('ed', 'w') })).status, 401);
  } finally {
    await s.close();
  }
});

http.run();
