// GET /wp-json/tribe/events/v1/changes over HTTP: JSON pages, permissions, 400 and 410, and
// Server-Sent Events resumed with Last-Event-ID.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import zlib from 'node:zlib';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { toJson } from '../../src/api/representation/represent.ts';

const S = suite<{ t: TestServer }>('e2e :: changes', {} as { t: TestServer });
S.before(async (ctx) => {
  ctx.t = await startTestServer({ changesRetainCount: 8, heartbeatMs: 40 });
});
S.after(async ({ t }) => t.close());

const event = (title: string, extra: Record<string, unknown> = {}) => ({
  title,
  start_date: '2030-02-01 10:00:00',
  end_date: '2030-02-01 11:00:00',
  ...extra,
});

S(
  'a JSON page: changes after since, next and head; types and limit; drafts only for those who may read them',
  async ({ t }) => {
    const a = await t.call('/events', { as: 'editor', json: event('Public one') });
    const d = await t.call('/events', { as: 'editor', json: event('Secret draft', { status: 'draft' }) });
    await t.call('/tags', { as: 'editor', json: { name: 'outdoor' } });
    const anon = await t.call('/changes?since=0');
    assert.is(anon.status, 200);
    assert.equal(
      (anon.json.changes as Array<{ id: number; type: string }>).map((c) => c.type),
      ['event', 'tag'],
      'no draft for anonymous',
    );
    assert.equal([anon.json.next, anon.json.head, anon.json.oldest], [3, 3, 0]);
    const ed = await t.call('/changes?since=0', { as: 'editor' });
    assert.ok(
      (ed.json.changes as Array<{ id: number }>).some((c) => c.id === d.json.id),
      'the editor sees the draft',
    );
    const first = (ed.json.changes as Array<Record<string, unknown>>)[0];
    assert.equal(
      [first.seq, first.type, first.action, first.id, first.author],
      [1, 'event', 'created', a.json.id, t.ids.editor],
    );
    assert.is((first.fields as Record<string, unknown>).title, 'Public one');
    const paged = await t.call('/changes?since=0&limit=1', { as: 'editor' });
    assert.equal([(paged.json.changes as unknown[]).length, paged.json.next], [1, 1]);
    const tags = await t.call('/changes?since=0&types=tag');
    assert.equal(
      (tags.json.changes as Array<{ type: string }>).map((c) => c.type),
      ['tag'],
    );
  },
);

S(
  "a JSON page is the changes' records as JSON, ASCII: what the page with its changes as objects gives",
  async ({ t }) => {
    await t.call('/tags', { as: 'editor', json: { name: 'Café "quoted" \u{1F3B7} <b>' } });
    const res = await t.call('/changes?since=0&limit=100', { as: 'editor' });
    assert.is(res.status, 200);
    assert.ok(/^[\x00-\x7f]*$/.test(res.text), 'ASCII');
    const editor = { id: t.ids.editor, login: 'editor', role: 'editor' as const };
    assert.is(res.text, toJson(t.cal.changePage({ since: 0, limit: 100, actor: editor })));
    assert.is(
      (res.json.changes as Array<{ fields?: { name?: string } }>).at(-1)!.fields!.name,
      'Café "quoted" \u{1F3B7} <b>',
    );
  },
);

S('bad parameters are 400; a since past retention is 410 rest_changes_expired', async ({ t }) => {
  for (const q of ['since=-1', 'since=abc', 'types=party', 'limit=0', 'limit=x']) {
    const r = await t.call(`/changes?${q}`);
    assert.equal([r.status, r.json.code, r.json.data.status], [400, 'rest_invalid_param', 400], q);
  }
  for (let i = 0; i < 10; i++) await t.call('/tags', { as: 'editor', json: { name: `t${i}` } });
  const r = await t.call('/changes?since=0');
  assert.equal([r.status, r.json.code], [410, 'rest_changes_expired']);
  assert.ok((r.json.data.oldest as number) > 0);
});

interface SseEvent {
  id?: string;
  event?: string;
  data?: string;
}

/** Calls `onBlock` with each Server-Sent Events block (the text between blank lines) of a response. */
function eachBlock(res: http.IncomingMessage, onBlock: (block: string) => void): void {
  let buf = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    buf += chunk;
    let end;
    while ((end = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, end);
      buf = buf.slice(end + 2);
      onBlock(block);
    }
  });
}

/** Reads Server-Sent Events from the feed until `n` events (comments kept apart) or the end. */
function sse(
  t: TestServer,
  headers: Record<string, string>,
  n: number,
  during?: () => Promise<void>,
): Promise<{ events: SseEvent[]; comments: string[]; status: number }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${t.root}/changes`, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      const events: SseEvent[] = [];
      const comments: string[] = [];
      eachBlock(res, (block) => {
        const ev: SseEvent = {};
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) comments.push(line.slice(1).trim());
          else {
            const i = line.indexOf(': ');
            (ev as Record<string, string>)[line.slice(0, i)] = line.slice(i + 2);
          }
        }
        if (ev.data !== undefined) events.push(ev);
        if (events.length >= n) {
          req.destroy();
          resolve({ events, comments, status: res.statusCode! });
        }
      });
      res.on('end', () => resolve({ events, comments, status: res.statusCode! }));
      if (during) during().catch(reject);
    });
    req.on('error', (e) => (e.message.includes('socket hang up') ? undefined : reject(e)));
  });
}

S('Server-Sent Events: one event per write (id = seq), live; resumed from Last-Event-ID; heartbeats', async ({ t }) => {
  const head = (await t.call('/changes')).json.head as number;
  const live = await sse(t, {}, 2, async () => {
    await new Promise((r) => setTimeout(r, 100)); // a heartbeat or two first
    await t.call('/events', { as: 'editor', json: event('Live one', { venue: { venue: 'New hall' } }) });
    await t.call('/tags', { as: 'editor', json: { name: 'live-tag' } });
  });
  assert.is(live.status, 200);
  assert.equal(
    live.events.map((e) => [e.id, e.event]),
    [
      [String(head + 1), 'changes'],
      [String(head + 2), 'changes'],
    ],
  );
  const firstWrite = JSON.parse(live.events[0].data!) as Array<{ type: string; seq: number }>;
  assert.equal(
    firstWrite.map((c) => c.type),
    ['venue', 'event'],
    'an event and its new venue: one write, one event',
  );
  assert.ok(live.comments.includes('heartbeat'), 'heartbeat comments');
  // a browser's EventSource reconnects with the last id it saw
  const resumed = await sse(t, { 'last-event-id': String(head + 1) }, 1);
  assert.equal(
    resumed.events.map((e) => e.id),
    [String(head + 2)],
  );
  const gone = await sse(t, { 'last-event-id': '0' }, 1);
  assert.is(gone.status, 410, 'past retention: 410 before any event');
});

S(
  'many streams: every write reaches each of 60 followers once and in order (batched sends), drafts only to those who may read them',
  async () => {
    const t = await startTestServer({});
    const head = (await t.call('/changes')).json.head as number;
    const auth = `Basic ${Buffer.from(`editor:${t.passwords.editor}`).toString('base64')}`;
    type Stream = { got: string[]; done: Promise<void>; close(): void; editor: boolean };
    const open = (i: number, lastEventId?: string) =>
      new Promise<Stream>((resolve, reject) => {
        const editor = i % 3 === 0;
        const headers: Record<string, string> = {
          accept: 'text/event-stream',
          ...(editor ? { authorization: auth } : {}),
          ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
        };
        const req = http.get(`${t.root}/changes`, { headers }, (res) => {
          const got: string[] = [];
          let finish!: () => void;
          const done = new Promise<void>((r) => (finish = r));
          eachBlock(res, (block) => {
            const id = /^id: (\d+)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (id === undefined || data === undefined) return;
            got.push(`${id}:${(JSON.parse(data) as Array<{ type: string }>).map((c) => c.type).join('+')}`);
            if (got.length === 21) finish();
          });
          resolve({ got, done, close: () => req.destroy(), editor });
        });
        req.on('error', (e) => (e.message.includes('socket hang up') ? undefined : reject(e)));
      });
    const streams = await Promise.all(Array.from({ length: 60 }, (_, i) => open(i)));
    // 20 public events and a draft with a new (public) venue: anonymous followers see that write's
    // venue only; several writes in flight at once, so some are acknowledged together
    const writes = Array.from({ length: 21 }, (_, i) =>
      i === 10 ? event('Hidden draft', { status: 'draft', venue: { venue: 'Open hall' } }) : event(`Public ${i}`),
    );
    let resumed: Promise<Stream> | undefined;
    for (let i = 0; i < writes.length; i += 7) {
      await Promise.all(writes.slice(i, i + 7).map((w) => t.call('/events', { as: 'editor', json: w })));
      // a follower that resumes from the start while the others' batch is still waiting to go out
      if (i === 0) resumed = open(60, String(head));
    }
    streams.push(await resumed!);
    const all = (await t.call(`/changes?since=${head}&limit=100`, { as: 'editor' })).json.changes as Array<{
      seq: number;
      type: string;
      fields?: { status?: string };
    }>;
    const draftSeq = all.find((c) => c.fields?.status === 'draft')!.seq;
    const expected = (editor: boolean): string[] => {
      const bySeq = new Map<number, string[]>();
      for (const c of all) {
        if (!editor && c.seq === draftSeq && c.type === 'event') continue;
        bySeq.set(c.seq, [...(bySeq.get(c.seq) ?? []), c.type]);
      }
      return [...bySeq].map(([seq, types]) => `${seq}:${types.join('+')}`);
    };
    assert.is(expected(true).length, 21);
    assert.ok(expected(true).includes(`${draftSeq}:venue+event`) && expected(false).includes(`${draftSeq}:venue`));
    const late = new Promise((_, reject) =>
      setTimeout(
        () => reject(new Error(`a stream missed events: ${streams.map((s) => s.got.length).join(',')}`)),
        10_000,
      ).unref(),
    );
    await Promise.race([Promise.all(streams.map((s) => s.done)), late]);
    for (const s of streams) {
      s.close();
      assert.equal(s.got, expected(s.editor), s.editor ? 'editor' : 'anonymous');
    }
    await t.close();
  },
);

S(
  'gzipped streams (Accept-Encoding: gzip): the same events as plain ones, per-reader filtering, exact resume, a whole gzip file when the server ends them',
  async () => {
    const t = await startTestServer({});
    const head = (await t.call('/changes')).json.head as number;
    const auth = `Basic ${Buffer.from(`editor:${t.passwords.editor}`).toString('base64')}`;
    type Stream = { events: string[]; ended: Promise<string>; encoding: string | undefined };
    const open = (opts: { gzip: boolean; editor?: boolean; lastEventId?: string; types?: string }) =>
      new Promise<Stream>((resolve, reject) => {
        const headers: Record<string, string> = {
          accept: 'text/event-stream',
          ...(opts.gzip ? { 'accept-encoding': 'br;q=1, gzip;q=0.8' } : {}),
          ...(opts.editor ? { authorization: auth } : {}),
          ...(opts.lastEventId ? { 'last-event-id': opts.lastEventId } : {}),
        };
        const req = http.get(`${t.root}/changes${opts.types ? `?types=${opts.types}` : ''}`, { headers }, (res) => {
          const events: string[] = [];
          const body = opts.gzip ? res.pipe(zlib.createGunzip()) : res;
          let text = '';
          const ended = new Promise<string>((ok, fail) => {
            body.on('end', () => ok(text));
            body.on('error', fail);
          });
          eachBlock(body as unknown as http.IncomingMessage, (block) => {
            text += block + '\n\n';
            if (/^id: /m.test(block)) events.push(block);
          });
          resolve({ events, ended, encoding: res.headers['content-encoding'] });
        });
        req.on('error', reject);
      });
    const plain = await open({ gzip: false });
    const gz = await Promise.all([
      open({ gzip: true }),
      open({ gzip: true }),
      open({ gzip: true, editor: true }),
      open({ gzip: true, types: 'venue' }),
    ]);
    assert.equal([plain.encoding, ...gz.map((s) => s.encoding)], [undefined, 'gzip', 'gzip', 'gzip', 'gzip']);
    let resumed: Promise<Stream> | undefined;
    const writes = Array.from({ length: 12 }, (_, i) =>
      i === 5 ? event('Hidden draft', { status: 'draft', venue: { venue: 'Gz hall' } }) : event(`Gz ${i}`),
    );
    for (let i = 0; i < writes.length; i += 4) {
      await Promise.all(writes.slice(i, i + 4).map((w) => t.call('/events', { as: 'editor', json: w })));
      if (i === 0) resumed = open({ gzip: true, lastEventId: String(head + 2) }); // while the others' batch waits
    }
    const late = await resumed!;
    const all = (await t.call(`/changes?since=${head}&limit=100`, { as: 'editor' })).json.changes as Array<{
      seq: number;
      type: string;
      fields?: { status?: string };
    }>;
    const draftSeq = all.find((c) => c.fields?.status === 'draft')!.seq;
    await new Promise((r) => setTimeout(r, 300)); // the paced sends
    const ids = (s: Stream) => s.events.map((b) => /^id: (\d+)$/m.exec(b)![1]);
    const seqs = (from: number, skip?: number) =>
      Array.from({ length: 12 }, (_, i) => head + 1 + i)
        .filter((q) => q > from && q !== skip)
        .map(String);
    assert.equal(ids(plain), seqs(head), 'plain: every write (the draft as its venue)');
    assert.equal(gz[0].events, plain.events, 'gzipped: the same events, byte for byte');
    assert.equal(gz[1].events, plain.events);
    assert.equal(ids(gz[2]), seqs(head), 'editor');
    assert.ok(
      gz[2].events.find((b) => b.startsWith(`id: ${draftSeq}\n`))!.includes('Hidden draft'),
      'the editor sees the draft',
    );
    assert.not.ok(
      plain.events.find((b) => b.startsWith(`id: ${draftSeq}\n`))!.includes('Hidden draft'),
      'anonymous does not',
    );
    assert.equal(ids(gz[3]), [String(draftSeq)], 'types=venue: the one write with a new venue');
    assert.equal(late.events, plain.events.slice(2), 'resumed from Last-Event-ID: exactly the later writes');
    // the server ends the streams: each gzipped one is a whole gzip file (final block, CRC-32, length)
    const texts = Promise.all([late, ...gz].map((s) => s.ended));
    await t.close();
    for (const text of await texts) assert.ok(text.startsWith(': calendar-engine change feed\n\n'));
  },
);

S.run();
