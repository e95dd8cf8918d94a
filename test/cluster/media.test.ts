// The media library of a cluster (src/cluster/media.ts): uploads through any node, over HTTP and
// the embedding API, are made on the writer, their files in the object store; every node serves
// the file and its sizes (the same bytes and ETag), changes and deletes reach every node, names
// stay unique across nodes, a node started later serves what was uploaded before it, imports and
// exports carry the files. Cluster nodes in this process on a 3-server NATS cluster.
// Skipped, with a printed reason, when nats-server is not installed.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { handleOf, openCalendar, type Calendar } from '../../src/calendar.ts';
import { CalendarError } from '../../src/api/wordpress/errors.ts';
import { startServer, type RunningServer } from '../../src/http/server.ts';
import type { Change } from '../../src/changes/feed.ts';
import { makeImage } from '../media/helper.ts';
import { NATS_MISSING, natsServerPath, startNatsCluster, type NatsCluster } from '../helpers/nats-cluster.ts';

const test = suite('cluster media');
const bin = natsServerPath();
const SITE = 'http://calendar.test';
let nats: NatsCluster | undefined;
const open: Calendar[] = [];
const servers: RunningServer[] = [];
const quiet = () => {};

test.before(async () => {
  if (!bin) console.log(NATS_MISSING);
  else nats = await startNatsCluster(3, { bin });
});

test.after(async () => {
  for (const s of servers) await s.close().catch(() => {});
  for (const cal of open) await cal.close().catch(() => {});
  await nats?.stop();
});

async function node(name: string, id: string): Promise<Calendar> {
  const cal = await openCalendar({
    siteUrl: SITE,
    cluster: { servers: nats!.urls, name, node: id, leaseMs: 1_000, warn: quiet },
  });
  open.push(cal);
  return cal;
}

async function writerOf(cals: Calendar[], ms = 10_000): Promise<Calendar> {
  for (const until = Date.now() + ms; Date.now() < until; await new Promise((r) => setTimeout(r, 20))) {
    const w = cals.find((c) => handleOf(c).cluster!.isWriter);
    if (w) return w;
  }
  throw new Error('no writer');
}

async function serve(cal: Calendar): Promise<string> {
  const s = await startServer(cal, { port: 0, log: quiet });
  servers.push(s);
  return s.url;
}

/** GET a file: status, bytes, ETag */
async function file(base: string, url: string): Promise<{ status: number; body: Buffer; etag: string | null }> {
  const res = await fetch(base + url.slice(SITE.length));
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()), etag: res.headers.get('etag') };
}

/** every file of an item: the original and its sizes (their URLs) */
const urlsOf = (item: Record<string, unknown>): string[] =>
  Object.values((item.media_details as { sizes: Record<string, { source_url: string }> }).sizes).map(
    (s) => s.source_url,
  );

/** Polls `check` until it holds, for at most `ms`: a node learns of files put and deleted by the
 *  bucket's watch, which took over 5 s once in CI with every test file running on two cores. */
async function eventually(check: () => boolean | Promise<boolean>, what: string, ms = 15_000): Promise<void> {
  for (const until = Date.now() + ms; Date.now() < until; await new Promise((r) => setTimeout(r, 25)))
    if (await check()) return;
  assert.unreachable(what);
}

test('an upload through a follower over HTTP: made on the writer, served by every node', async () => {
  if (!nats) return;
  const a = await node('media', 'a');
  const b = await node('media', 'b');
  const w = await writerOf([a, b]);
  const f = w === a ? b : a;
  const { password } = await w.users.apply({ action: 'add', login: 'ann', role: 'author' });
  await eventually(() => f.users.byLogin('ann') !== undefined, 'the user on the follower');
  const [wUrl, fUrl] = [await serve(w), await serve(f)];
  const auth = `Basic ${Buffer.from(`ann:${password}`).toString('base64')}`;
  const poster = await makeImage(1200, 800);
  const res = await fetch(`${fUrl}/wp-json/wp/v2/media`, {
    method: 'POST',
    headers: {
      Authorization: auth,
      'Content-Type': 'image/jpeg',
      'Content-Disposition': 'attachment; filename="poster.jpg"',
    },
    body: new Uint8Array(poster),
  });
  const item = (await res.json()) as Record<string, unknown>;
  assert.is(res.status, 201, JSON.stringify(item));
  assert.is(res.headers.get('location'), `${SITE}/wp-json/wp/v2/media/${item.id}`);
  // readable at once on the follower that answered, and on the writer
  assert.equal(await f.media.get(item.id as number), item);
  assert.equal(await w.media.get(item.id as number), item);
  const urls = urlsOf(item);
  assert.is(urls.length, 5, 'the full image and four sizes');
  for (const url of urls) {
    const [x, y] = [await file(wUrl, url), await file(fUrl, url)];
    assert.is(x.status, 200, url);
    assert.is(y.status, 200, url);
    assert.ok(x.body.equals(y.body), `${url}: the same bytes on both nodes`);
    assert.is(x.etag, y.etag, `${url}: the same ETag`);
  }
  assert.ok((await file(fUrl, item.source_url as string)).body.equals(poster), 'the original as uploaded');
  // a range from the follower
  const range = await fetch(fUrl + (item.source_url as string).slice(SITE.length), { headers: { Range: 'bytes=0-9' } });
  assert.is(range.status, 206);
  assert.ok(Buffer.from(await range.arrayBuffer()).equals(poster.subarray(0, 10)));

  // the same name through both nodes at once: one node picks names, so they differ
  const [one, two] = await Promise.all([
    w.media.create({ data: await makeImage(300, 200), filename: 'same.jpg' }, 'ann'),
    f.media.create({ data: await makeImage(300, 200), filename: 'same.jpg' }, 'ann'),
  ]);
  const names = [one, two].map((i) => (i.media_details as { file: string }).file).sort();
  const folder = names[0].slice(0, 8);
  assert.equal(names, [`${folder}same-1.jpg`, `${folder}same.jpg`]);

  // an edit and a delete through the follower reach every node; the files go everywhere
  const seen: Change[] = [];
  w.on('change', (c) => seen.push(c));
  await f.media.update(item.id as number, { caption: 'Opening night' }, 'ann');
  await w.waitForSeq(f.seq);
  assert.is(
    ((await w.media.get(item.id as number)).caption as { rendered: string }).rendered,
    '<p>Opening night</p>\n',
  );
  const gone = await fetch(`${fUrl}/wp-json/wp/v2/media/${item.id}?force=true`, {
    method: 'DELETE',
    headers: { Authorization: auth },
  });
  assert.is(gone.status, 200, await gone.text());
  await w.waitForSeq(f.seq);
  for (const url of urls) {
    await eventually(async () => (await file(wUrl, url)).status === 404, `${url} gone from the writer`);
    await eventually(async () => (await file(fUrl, url)).status === 404, `${url} gone from the follower`);
  }
  assert.is((await fetch(`${wUrl}/wp-json/wp/v2/media/${item.id}`)).status, 404);
  assert.equal(
    seen.filter((c) => c.type === 'media' && c.id === item.id).map((c) => c.action),
    ['updated', 'deleted'],
    'the writer heard the follower’s media writes',
  );

  // a node started later serves what was uploaded before it
  const c = await node('media', 'c');
  const cUrl = await serve(c);
  await eventually(() => c.seq >= w.seq, 'c caught up');
  for (const url of urlsOf(one)) {
    const got = await file(cUrl, url);
    assert.is(got.status, 200, url);
    assert.ok(got.body.equals((await file(wUrl, url)).body), url);
  }
});

test('export from a follower carries the files; import on the writer serves them everywhere', async () => {
  if (!nats) return;
  const a = await node('carry', 'a');
  const b = await node('carry', 'b');
  const w = await writerOf([a, b]);
  const f = w === a ? b : a;
  const item = await f.media.create({ data: await makeImage(500, 400, 'png'), filename: 'logo.png' });
  await w.waitForSeq(f.seq);
  // the synchronous export cannot read the object store
  try {
    [...f.export()];
    assert.unreachable('exported');
  } catch (err) {
    assert.instance(err, CalendarError);
    assert.is((err as CalendarError).code, 'media_export_async');
  }
  let text = '';
  const counts = await f.exportTo({ write: (t: string) => ((text += t), true) }, 'jsonl');
  assert.is(counts.media, 1);
  const record = JSON.parse(text.split('\n').find((l) => l.startsWith('{"type":"media"'))!) as Record<string, unknown>;
  assert.is(record.id, item.id);
  // into another cluster's writer, from the export
  const x = await node('carry2', 'x');
  const y = await node('carry2', 'y');
  const wx = await writerOf([x, y]);
  const fy = wx === x ? y : x;
  const { type: _t, ...fields } = record;
  assert.is((await wx.import({ media: [fields], venues: [{ id: 900, venue: 'V', image: String(item.id) }] })).media, 1);
  await eventually(() => fy.seq >= wx.seq, 'the follower loaded the import');
  const fyUrl = await serve(fy);
  for (const url of urlsOf(item)) {
    const got = await file(fyUrl, url);
    assert.is(got.status, 200, url);
  }
  assert.is(((await fy.venues.get(900)).image as { id: number }).id, item.id);
  // an import on a follower is refused, and leaves no file in the bucket
  try {
    await fy.import({ media: [{ ...fields, id: 5000, file: '2030/01/other.png', sizes: {} }] });
    assert.unreachable('imported');
  } catch (err) {
    assert.is((err as CalendarError).code, 'rest_cluster_not_writer');
  }
  assert.is(fy.media.files.exists('2030/01/other.png'), false);
});

test('a new writer picks names against every file in the bucket; the old files stay served', async () => {
  if (!nats) return;
  const a = await node('names', 'a');
  const b = await node('names', 'b');
  const w = await writerOf([a, b]);
  const next = w === a ? b : a;
  const first = await w.media.create({ data: await makeImage(300, 200), filename: 'n.jpg' });
  await w.close(); // the lease is given up: the other node takes over
  await writerOf([next]);
  const second = await next.media.create({ data: await makeImage(400, 300), filename: 'n.jpg' });
  const [f1, f2] = [first, second].map((i) => (i.media_details as { file: string }).file);
  assert.is(f2, f1.replace('n.jpg', 'n-1.jpg'));
  const url = await serve(next);
  for (const u of [...urlsOf(first), ...urlsOf(second)]) assert.is((await file(url, u)).status, 200, u);
});

test.run();
