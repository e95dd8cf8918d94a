// Every JSON answer is ASCII on the wire, and its Content-Length is its byte count, with text
// outside ASCII everywhere in the data (titles, descriptions, costs, venue, organizer and term
// names, query parameters echoed in links). The adapter relies on it: it sends the calendar's
// answers without counting their UTF-8 bytes (src/http/routes.ts, Reply.ascii).
import net from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type TestServer } from '../helpers/server.ts';

type Obj = Record<string, unknown>;
const S = suite<{ t: TestServer; ids: Obj }>('e2e :: ASCII answers', {} as { t: TestServer; ids: Obj });

S.before(async (ctx) => {
  ctx.t = await startTestServer();
  const { t } = ctx;
  const cat = await t.call('/categories', { as: 'editor', json: { name: 'Café ☕ “concerts”' } });
  const tag = await t.call('/tags', { as: 'editor', json: { name: '日本 jazz' } });
  const venue = await t.call('/venues', {
    as: 'editor',
    json: { venue: 'Théâtre “Royal” 🎭', city: 'Zürich', address: 'Bahnhofstraße 1' },
  });
  const org = await t.call('/organizers', {
    as: 'editor',
    json: { organizer: 'Zoë 🎷 Ensemble', email: 'zoe@example.org' },
  });
  const ev = await t.call('/events', {
    as: 'editor',
    json: {
      title: 'Fête — “Nuit” 🎉',
      description: 'L’été\u2028à Zürich: “naïve” café…\nSecond line 😀',
      excerpt: 'Ça commence',
      start_date: '2030-02-01 20:00:00',
      end_date: '2030-02-01 23:00:00',
      cost: '15 €',
      venue: venue.json.id,
      organizer: [org.json.id],
      categories: [cat.json.id],
      tags: [tag.json.id],
    },
  });
  for (const r of [cat, tag, venue, org, ev]) assert.is(r.status, 201, JSON.stringify(r.json));
  ctx.ids = { cat: cat.json, tag: tag.json, venue: venue.json, org: org.json, ev: ev.json };
});
S.after(async ({ t }) => t.close());

S(
  'lists, single records, slugs, errors, _fields, _jsonp and _envelope: ASCII, Content-Length = bytes',
  async ({ t, ids }) => {
    const ev = ids.ev as Obj,
      cat = ids.cat as Obj;
    const paths = [
      '/events?start_date=2030-01-01',
      '/events?start_date=2030-01-01&search=f%C3%AAte',
      `/events?categories=${cat.slug as string}&start_date=2030-01-01`,
      `/events/${ev.id as number}`,
      `/events/by-slug/${encodeURIComponent(ev.slug as string)}`,
      '/venues',
      `/venues/${(ids.venue as Obj).id as number}`,
      '/organizers',
      '/categories',
      '/tags',
      `/categories/${cat.id as number}`,
      '/events?start_date=2030-01-01&_fields=title,description,cost',
      '/events?start_date=2030-01-01&_jsonp=cb',
      '/events?start_date=2030-01-01&_envelope',
      '/events?start_date=n%C3%BC%C3%AFt',
      '/events/999999',
      '/events?search=%E2%98%83&start_date=2030-01-01&page=9',
    ];
    let nonAsciiSeen = 0;
    for (const path of paths) {
      const r = await t.call(path);
      const bytes = Buffer.byteLength(r.text, 'utf8');
      assert.is(Number(r.headers['content-length']), bytes, `${path}: Content-Length`);
      assert.ok(/^[\x00-\x7f]*$/.test(r.text), `${path}: ASCII only`);
      if (/\\u[0-9a-f]{4}/.test(r.text)) nonAsciiSeen++;
    }
    assert.ok(nonAsciiSeen >= 10, `the answers carry escaped text (${nonAsciiSeen})`);
    const list = await t.call('/events?start_date=2030-01-01');
    assert.is((list.json.events as Obj[])[0].title, 'Fête — “Nuit” 🎉');
    assert.match((list.json.events as Obj[])[0].cost as string, /€/);
  },
);

S(
  'a list on the wire is byte for byte what cal.rest() answers (the socket gets the parts, the caller a flat string)',
  async ({ t, ids }) => {
    for (let i = 0; i < 4; i++) {
      const r = await t.call('/events', {
        as: 'editor',
        json: {
          title: `Soirée ${i}`,
          start_date: `2030-02-0${2 + i} 20:00:00`,
          end_date: `2030-02-0${2 + i} 22:00:00`,
          venue: (ids.venue as Obj).id,
        },
      });
      assert.is(r.status, 201);
    }
    const calls: Array<[string, 'events' | 'venues' | 'organizers', Record<string, string>]> = [
      [
        '/events?start_date=2030-01-01&per_page=2&page=2',
        'events',
        { start_date: '2030-01-01', per_page: '2', page: '2' },
      ],
      [
        '/events?start_date=2030-01-01&per_page=3&page=2&search=soir%C3%A9e',
        'events',
        { start_date: '2030-01-01', per_page: '3', page: '2', search: 'soirée' },
      ],
      ['/venues', 'venues', {}],
      ['/organizers?per_page=1', 'organizers', { per_page: '1' }],
    ];
    for (const [path, resource, params] of calls) {
      const wire = await t.call(path);
      assert.is(wire.status, 200, path);
      const direct = await t.cal.rest({ resource, action: 'list', params, actor: null });
      assert.is(wire.text, direct.body, path);
    }
  },
);

/** Sends `paths` pipelined on one connection, reads nothing for `pauseMs`, then reads the
 *  answers (Content-Length framed) in order: their bodies as text. */
async function pipelined(
  url: string,
  paths: string[],
  pauseMs: number,
  meanwhile: () => Promise<void>,
): Promise<string[]> {
  const { port } = new URL(url);
  const sock = net.connect(Number(port), '127.0.0.1');
  await new Promise((r) => sock.once('connect', r));
  sock.pause();
  sock.write(paths.map((p) => `GET /wp-json/tribe/events/v1${p} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`).join(''));
  await Promise.all([meanwhile(), new Promise((r) => setTimeout(r, pauseMs))]);
  const chunks: Buffer[] = [];
  const bodies: string[] = [];
  await new Promise<void>((resolve, reject) => {
    sock.on('error', reject);
    sock.on('data', (c: Buffer) => {
      chunks.push(c);
      let all = Buffer.concat(chunks);
      for (;;) {
        const end = all.indexOf('\r\n\r\n');
        if (end < 0) break;
        const length = Number(/content-length: (\d+)/i.exec(all.subarray(0, end).toString('latin1'))?.[1]);
        if (all.length < end + 4 + length) break;
        bodies.push(all.subarray(end + 4, end + 4 + length).toString('latin1'));
        all = all.subarray(end + 4 + length);
      }
      chunks.splice(0, chunks.length, all);
      if (bodies.length === paths.length) resolve();
    });
    sock.resume();
  });
  sock.destroy();
  return bodies;
}

S(
  'lists written from reused buffers: a slow pipelined reader and busy connections all get their own bytes',
  async ({ t }) => {
    // pages of 20-150 KB (the buffers hold 256 KB), made of escaped text
    for (let i = 0; i < 40; i++) {
      await t.cal.events.create({
        title: `Récital ${i}`,
        description: `Œuvre n° ${i}: ${'«la nuit» '.repeat(250 + i * 7)}`,
        start_date: `2031-03-${String(1 + (i % 28)).padStart(2, '0')} 20:00:00`,
        end_date: `2031-03-${String(1 + (i % 28)).padStart(2, '0')} 22:00:00`,
      });
    }
    const page = (perPage: number, p: number): [string, Record<string, string>] => [
      `/events?start_date=2031-01-01&per_page=${perPage}&page=${p}`,
      { start_date: '2031-01-01', per_page: String(perPage), page: String(p) },
    ];
    const pages = [page(40, 1), page(7, 2), page(13, 3), page(25, 1), page(5, 8), page(10, 4), page(30, 2), page(3, 1)];
    const direct = new Map<string, string>();
    for (const [path, params] of pages)
      direct.set(path, (await t.cal.rest({ resource: 'events', action: 'list', params, actor: null })).body);
    assert.ok(direct.get(pages[0][0])!.length > 100_000, 'a page larger than a socket write takes at once');
    // the slow reader's answers wait in its socket and in node:http's queue while 64 others are
    // answered from buffers: one handed out again too early would show in its bytes or theirs
    const busy = async () => {
      await Promise.all(
        Array.from({ length: 64 }, async (_, i) => {
          const [path] = pages[i % pages.length];
          const r = await t.call(path);
          assert.is(r.text, direct.get(path), `busy ${i}: ${path}`);
        }),
      );
    };
    const slowPaths = [...pages, ...pages].map(([path]) => path);
    const bodies = await pipelined(t.url, slowPaths, 300, busy);
    for (const [i, path] of slowPaths.entries()) assert.is(bodies[i], direct.get(path), `pipelined ${i}: ${path}`);
  },
);

S.run();
