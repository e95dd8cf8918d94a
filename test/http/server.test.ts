import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import net from 'node:net';
import http from 'node:http';
import { startServer, createRequestListener, type RunningServer } from '../../src/http/server.ts';
import { fakeCalendar, type FakeCalendar } from './fake-calendar.ts';
import { request, JSON_HEADERS, FORM_HEADERS } from './request.ts';

const NS = '/wp-json/tribe/events/v1';

interface Ctx {
  cal: FakeCalendar;
  srv: RunningServer;
  lines: string[];
  password: string;
}

const S = suite<Ctx>('server :: over a socket (fake calendar)', {} as Ctx);

S.before(async (ctx) => {
  ctx.cal = fakeCalendar();
  ctx.password = ctx.cal.users.add('ed', 'editor').password;
  ctx.lines = [];
  ctx.srv = await startServer(ctx.cal, { port: 0, bodyLimit: 1024, log: (l) => ctx.lines.push(l) });
});
S.after(async (ctx) => {
  await ctx.srv.close();
});

S('url names the loopback address and port', ({ srv }) => {
  assert.match(srv.url, /^http:\/\/127\.0\.0\.1:\d+$/);
});

S('a body with non-ASCII characters goes out as UTF-8 with its byte length', async ({ srv }) => {
  const r = await request(srv.url, `${NS}/events/by-slug/caf%C3%A9-%E2%98%95`);
  assert.is(r.status, 200);
  assert.is(r.json.target.slug, 'café-☕');
  assert.is(r.headers['content-length'], String(Buffer.byteLength(r.text)));
  assert.ok(Buffer.byteLength(r.text) > r.text.length);
});

S('common headers: JSON type, length, api.w.org Link, nosniff', async ({ srv }) => {
  const r = await request(srv.url, `${NS}/events`);
  assert.is(r.status, 200);
  assert.is(r.headers['content-type'], 'application/json; charset=UTF-8');
  assert.is(r.headers['content-length'], String(Buffer.byteLength(r.text)));
  assert.is(r.headers.link, '<http://example.test/wp-json/>; rel="https://api.w.org/"');
  assert.is(r.headers['x-content-type-options'], 'nosniff');
  assert.is(r.headers['x-tec-total'], '2');
  assert.is(r.headers['access-control-allow-origin'], undefined);
});

S('errors carry the Link header too, and status = data.status', async ({ srv }) => {
  const r = await request(srv.url, `${NS}/nope`);
  assert.is(r.status, 404);
  assert.is(r.json.code, 'rest_no_route');
  assert.is(r.json.data.status, 404);
  assert.ok(r.headers.link);
});

S('HEAD: the GET headers, no body', async ({ srv }) => {
  const g = await request(srv.url, `${NS}/events`);
  const h = await request(srv.url, `${NS}/events`, { method: 'HEAD' });
  assert.is(h.status, 200);
  assert.is(h.text, '');
  assert.is(h.headers['content-length'], g.headers['content-length']);
  assert.is(h.headers['x-tec-totalpages'], '1');
  assert.is((await request(srv.url, `${NS}/events`, { method: 'HEAD', headers: {} })).status, 200);
  assert.is((await request(srv.url, `${NS}/nope`, { method: 'HEAD' })).status, 404);
});

S('CORS headers only when an Origin is sent', async ({ srv }) => {
  const r = await request(srv.url, `${NS}/events`, { headers: { origin: 'http://app.test' } });
  assert.is(r.headers['access-control-allow-origin'], 'http://app.test');
  assert.match(String(r.headers['access-control-expose-headers']), 'X-TEC-Total');
});

S('Basic auth: the actor reaches the calendar; bad credentials → 401 on any route', async ({ srv, cal, password }) => {
  const ok = await request(srv.url, `${NS}/events/4`, { auth: ['ed', password] });
  assert.equal(ok.json.actor, { id: 1, login: 'ed', role: 'editor' });
  const spaced = await request(srv.url, `${NS}/events/4`, { auth: ['ed', password.replace(/(.{4})/g, '$1 ')] });
  assert.is(spaced.json.actor.login, 'ed');
  const bad = await request(srv.url, `${NS}/events/4`, { auth: ['ed', 'wrong'] });
  assert.is(bad.status, 401);
  assert.is(bad.json.code, 'incorrect_password');
  const unknown = await request(srv.url, `${NS}/nope`, { auth: ['who', 'x'] });
  assert.is(unknown.status, 401);
  assert.is(unknown.json.code, 'invalid_username');
  const anon = await request(srv.url, `${NS}/events/4`);
  assert.is(anon.json.actor, null);
  assert.ok(cal.calls.length > 0);
});

S('bodies: JSON, PHP-bracket form, query merged with body winning', async ({ srv }) => {
  const j = await request(srv.url, `${NS}/events?title=q&page=1`, {
    method: 'POST',
    headers: JSON_HEADERS,
    body: '{"title":"J","venue":{"venue":"V"}}',
  });
  assert.is(j.status, 201);
  assert.equal(j.json.params, { title: 'J', page: '1', venue: { venue: 'V' } });
  const f = await request(srv.url, `${NS}/events/3`, {
    method: 'PATCH',
    headers: FORM_HEADERS,
    body: 'organizer[0][organizer]=A&organizer[1][id]=3&categories[]=3&venue[venue]=X',
  });
  assert.equal(f.json.params, {
    organizer: [{ organizer: 'A' }, { id: '3' }],
    categories: ['3'],
    venue: { venue: 'X' },
  });
  assert.is(f.json.action, 'update');
});

S('POST, PUT and PATCH all update', async ({ srv }) => {
  for (const method of ['POST', 'PUT', 'PATCH']) {
    const r = await request(srv.url, `${NS}/venues/by-slug/v`, {
      method,
      headers: JSON_HEADERS,
      body: '{"venue":"X"}',
    });
    assert.equal([r.status, r.json.action, r.json.target], [200, 'update', { slug: 'v' }]);
  }
});

S('_method and X-HTTP-Method-Override', async ({ srv }) => {
  const a = await request(srv.url, `${NS}/events/3?_method=DELETE`, { method: 'POST' });
  assert.is(a.json.action, 'delete');
  const b = await request(srv.url, `${NS}/events/3`, {
    method: 'POST',
    headers: { 'x-http-method-override': 'PUT', ...JSON_HEADERS },
    body: '{}',
  });
  assert.is(b.json.action, 'update');
});

S('bad bodies: 400 rest_invalid_json, 415, 413 — never a 500', async ({ srv }) => {
  const j = await request(srv.url, `${NS}/events`, { method: 'POST', headers: JSON_HEADERS, body: '{"title":' });
  assert.equal([j.status, j.json.code, j.json.data.status], [400, 'rest_invalid_json', 400]);
  const t = await request(srv.url, `${NS}/events`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: 'hello',
  });
  assert.equal([t.status, t.json.code], [415, 'rest_unsupported_media_type']);
  const big = await request(srv.url, `${NS}/events`, {
    method: 'POST',
    headers: JSON_HEADERS,
    body: JSON.stringify({ title: 'x'.repeat(2000) }),
  });
  assert.equal([big.status, big.json.code, big.json.data.status], [413, 'rest_payload_too_large', 413]);
  assert.is(big.headers.connection, 'close');
});

S('413 for a chunked body over the limit', async ({ srv }) => {
  const r = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(
      `${srv.url}${NS}/events`,
      { method: 'POST', headers: JSON_HEADERS, agent: false },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      },
    );
    req.on('error', reject);
    req.write('{"title":"' + 'x'.repeat(800));
    req.write('y'.repeat(800) + '"}');
    req.end();
  });
  assert.is(r.status, 413);
  assert.is(JSON.parse(r.body).code, 'rest_payload_too_large');
});

S('a client still sending an oversized body reads its 413 (lingering close), declared or chunked', async ({ srv }) => {
  const port = Number(new URL(srv.url).port);
  for (const chunked of [false, true]) {
    const total = 4 * 1024 * 1024;
    const result = await new Promise<{ response: string; error?: string }>((resolve) => {
      const sock = net.connect(port, '127.0.0.1');
      let response = '';
      let error: string | undefined;
      sock.on('data', (c) => (response += c.toString('latin1')));
      sock.on('error', (e) => (error = (e as NodeJS.ErrnoException).code ?? e.message));
      sock.on('close', () => resolve({ response, error }));
      const head = chunked
        ? `POST ${NS}/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`
        : `POST ${NS}/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${total}\r\n\r\n`;
      sock.write(head);
      const piece = Buffer.alloc(64 * 1024, 0x61);
      let sent = 0;
      const pump = () => {
        while (sent < total) {
          sent += piece.length;
          const data = chunked
            ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')])
            : piece;
          if (!sock.write(data)) return void sock.once('drain', pump);
        }
        if (chunked) sock.end('0\r\n\r\n');
        else sock.end();
      };
      pump();
    });
    assert.match(
      result.response,
      /^HTTP\/1\.1 413 /,
      `chunked ${chunked}: ${result.error ?? ''} ${result.response.slice(0, 80)}`,
    );
    const body = result.response.slice(result.response.indexOf('\r\n\r\n') + 4);
    assert.is(JSON.parse(body).code, 'rest_payload_too_large');
    assert.is(result.error, undefined, `chunked ${chunked}: the client saw no reset while sending`);
  }
});

S('a declared 100 MB body is refused before it is read; a chunked one is cut off at the limit', async ({ srv }) => {
  const port = Number(new URL(srv.url).port);
  let serverRead = 0;
  const onConnection = (s: net.Socket) => s.on('close', () => (serverRead = s.bytesRead));
  srv.server.on('connection', onConnection);
  try {
    for (const chunked of [false, true]) {
      const total = 100 * 1024 * 1024;
      const result = await new Promise<{ response: string; sentAtAnswer: number }>((resolve) => {
        const sock = net.connect(port, '127.0.0.1');
        let response = '';
        let sent = 0;
        let sentAtAnswer = -1;
        sock.on('data', (c) => {
          if (sentAtAnswer < 0) sentAtAnswer = sent;
          response += c.toString('latin1');
        });
        sock.on('error', () => {});
        sock.on('close', () => resolve({ response, sentAtAnswer }));
        sock.write(
          chunked
            ? `POST ${NS}/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`
            : `POST ${NS}/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${total}\r\n\r\n`,
        );
        const piece = Buffer.alloc(64 * 1024, 0x61);
        const pump = () => {
          // a client that keeps sending until it has its answer
          while (sent < total && sentAtAnswer < 0 && !sock.destroyed) {
            sent += piece.length;
            const data = chunked
              ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')])
              : piece;
            if (!sock.write(data)) return void sock.once('drain', pump);
          }
          if (sentAtAnswer >= 0) sock.end();
        };
        pump();
      });
      assert.match(result.response, /^HTTP\/1\.1 413 /, `chunked ${chunked}`);
      assert.match(result.response, /\r\nConnection: close\r\n/i);
      assert.ok(
        result.sentAtAnswer < 16 * 1024 * 1024,
        `~> chunked ${chunked}: answered after ${result.sentAtAnswer} bytes sent`,
      );
      await new Promise((r) => setTimeout(r, 50));
      assert.ok(
        serverRead < 16 * 1024 * 1024,
        `~> chunked ${chunked}: the server read ${serverRead} bytes of ${total}`,
      );
    }
  } finally {
    srv.server.off('connection', onConnection);
  }
});

S('route match comes before body errors (404 for a wrong route with bad JSON)', async ({ srv }) => {
  const r = await request(srv.url, `${NS}/nope`, { method: 'POST', headers: JSON_HEADERS, body: '{' });
  assert.is(r.status, 404);
});

S('calendar errors pass through with their status and data', async ({ srv }) => {
  const r = await request(srv.url, `${NS}/events?throw=rest_forbidden&status=403`);
  assert.equal(r.json, { code: 'rest_forbidden', message: 'thrown on request', data: { status: 403, params: ['x'] } });
  assert.is(r.status, 403);
});

S('an internal error: 500, generic body, one log line without credentials', async ({ srv, lines, password }) => {
  lines.length = 0;
  const r = await request(srv.url, `${NS}/events/1?crash=1`, { auth: ['ed', password] });
  assert.is(r.status, 500);
  assert.equal(r.json, {
    code: 'internal_error',
    message: 'The server encountered an internal error.',
    data: { status: 500 },
  });
  assert.is(lines.length, 1);
  assert.match(lines[0], 'GET /wp-json/tribe/events/v1/events/1');
  assert.not.match(lines[0], password);
  assert.not.match(lines[0], 'crash=1');
});

S('_envelope wraps body, status and headers with a 200', async ({ srv }) => {
  const r = await request(srv.url, `${NS}/events?_envelope`);
  assert.is(r.status, 200);
  assert.equal(Object.keys(r.json), ['body', 'status', 'headers']);
  assert.is(r.json.status, 200);
  assert.is(r.json.headers['X-TEC-Total'], '2');
  assert.is(r.json.body.total, 2);
  const e = await request(srv.url, `${NS}/nope?_envelope=1`);
  assert.equal([e.status, e.json.status, e.json.body.code], [200, 404, 'rest_no_route']);
});

S('_fields trims keys; _jsonp wraps; a bad callback is a 400', async ({ srv }) => {
  const f = await request(srv.url, `${NS}/events?_fields=id,total`);
  assert.equal(f.json, { events: [{ id: 1 }, { id: 2 }], total: 2 });
  const one = await request(srv.url, `${NS}/events/7?_fields=action,target`);
  assert.equal(one.json, { action: 'get', target: { id: 7 } });
  const p = await request(srv.url, `${NS}/events/7?_jsonp=cb.fn`);
  assert.match(p.text, /^\/\*\*\/cb\.fn\(\{.*\}\)$/);
  assert.match(String(p.headers['content-type']), 'application/javascript');
  const bad = await request(srv.url, `${NS}/events/7?_jsonp=alert(1)`);
  assert.equal([bad.status, bad.json.code], [400, 'rest_callback_invalid']);
});

S('rest_route form is equivalent to the pretty path', async ({ srv }) => {
  const a = await request(srv.url, `/?rest_route=/tribe/events/v1/organizers/5&x=1`);
  const b = await request(srv.url, `${NS}/organizers/5?x=1`);
  assert.is(a.status, 200);
  assert.equal(a.json, b.json);
  const i = await request(srv.url, `/index.php?rest_route=/tribe/events/v1/doc`);
  assert.is(i.json.openapi, '3.0.0');
});

S('a malformed request line gets a JSON 400, the server lives on', async ({ srv }) => {
  const port = Number(new URL(srv.url).port);
  const raw = await new Promise<string>((resolve) => {
    const s = net.connect(port, '127.0.0.1', () => s.write('GARBAGE\r\n\r\n'));
    let out = '';
    s.on('data', (d) => (out += d));
    s.on('close', () => resolve(out));
  });
  assert.match(raw, /^HTTP\/1\.1 400/);
  assert.match(raw, '"rest_bad_request"');
  assert.is((await request(srv.url, `${NS}/events`)).status, 200);
});

S.run();

// ---

// ---

const N = suite<Ctx>('server :: nesting bounds (default body limit)', {} as Ctx);

N.before(async (ctx) => {
  ctx.cal = fakeCalendar();
  ctx.password = ctx.cal.users.add('ed', 'editor').password;
  ctx.srv = await startServer(ctx.cal, { port: 0, log: () => {} });
});
N.after(async (ctx) => {
  await ctx.srv.close();
});

N(
  'keys nested past 64 brackets: 400 rest_input_too_deep (form body and query), JSON past 512 levels: 400',
  async ({ srv, password }) => {
    const deep = 'title' + '[x]'.repeat(10_000);
    const form = await request(srv.url, `${NS}/events`, { method: 'POST', headers: FORM_HEADERS, body: `${deep}=1` });
    assert.is(form.status, 400);
    assert.equal(form.json, {
      code: 'rest_input_too_deep',
      message: 'Parameter title nests more than 64 levels of brackets.',
      data: { status: 400, max_depth: 64 },
    });
    const query = await request(srv.url, `${NS}/events?categories${'[]'.repeat(65)}=1`);
    assert.equal([query.status, query.json.code], [400, 'rest_input_too_deep']);
    const ok = await request(srv.url, `${NS}/events?categories${'[]'.repeat(64)}=1`);
    assert.is(ok.status, 200, '~> 64 levels are fine');
    const auth = { authorization: 'Basic ' + Buffer.from(`ed:${password}`).toString('base64') };
    const json = await request(srv.url, `${NS}/events`, {
      method: 'POST',
      headers: { ...JSON_HEADERS, ...auth },
      body: `{"a":${'['.repeat(512)}${']'.repeat(512)}}`,
    });
    assert.equal(
      [json.status, json.json.code, json.json.data.json_error_message],
      [400, 'rest_invalid_json', 'Maximum stack depth exceeded'],
    );
    const fine = await request(srv.url, `${NS}/events`, {
      method: 'POST',
      headers: { ...JSON_HEADERS, ...auth },
      body: `{"a":${'['.repeat(400)}"]]]["${']'.repeat(400)}}`,
    });
    assert.is.not(fine.json.code, 'rest_invalid_json', '~> brackets in strings do not count');
  },
);

N.run();

const C = suite('server :: close');

C('close() finishes in-flight requests, then stops accepting', async () => {
  const cal = fakeCalendar();
  cal.delayMs = 150;
  const srv = await startServer(cal, { port: 0 });
  const inflight = request(srv.url, `${NS}/events/1`);
  await new Promise((r) => setTimeout(r, 30));
  const closed = srv.close();
  const r = await inflight;
  assert.is(r.status, 200);
  assert.is(r.headers.connection, 'close');
  await closed;
  try {
    await request(srv.url, `${NS}/events/1`);
    assert.unreachable('~> should refuse after close');
  } catch (e) {
    assert.is((e as NodeJS.ErrnoException).code, 'ECONNREFUSED');
  }
});

C('createRequestListener embeds in a plain node:http server', async () => {
  const cal = fakeCalendar({ restPrefix: '/api' });
  const server = http.createServer(createRequestListener(cal));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const port = (server.address() as net.AddressInfo).port;
    const r = await request(`http://127.0.0.1:${port}`, '/api/tribe/events/v1/tags/3');
    assert.equal([r.status, r.json.resource, r.json.target], [200, 'tags', { id: 3 }]);
  } finally {
    await new Promise((r) => server.close(r));
  }
});

C.run();
