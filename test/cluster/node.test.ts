// Cluster nodes in this process (openCalendar({ cluster })) on a 3-server NATS cluster: writes
// forwarded from a follower, read-your-writes on another node over HTTP (X-Calendar-Min-Seq), a
// stale append rejected by the server, a writer whose append is rejected rebuilding from the log,
// imports, snapshots in the object store and the stream purged below them.
// Skipped, with a printed reason, when nats-server is not installed.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { connect } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { handleOf, openCalendar, type Calendar } from '../../src/calendar.ts';
import { startServer } from '../../src/http/server.ts';
import { CalendarError } from '../../src/api/wordpress/errors.ts';
import { Objm } from '@nats-io/obj';
import { encodeDetachedChunks } from '../../src/store/snapshot.ts';
import { listSnapshots, readSnapshot, snapshotName } from '../../src/cluster/snapshots.ts';
import { NATS_MISSING, natsServerPath, startNatsCluster, type NatsCluster } from '../helpers/nats-cluster.ts';

const test = suite('cluster nodes');
const bin = natsServerPath();
let nats: NatsCluster | undefined;
const open: Calendar[] = [];
const quiet = () => {};

test.before(async () => {
  if (!bin) console.log(NATS_MISSING);
  else nats = await startNatsCluster(3, { bin });
});

test.after(async () => {
  for (const cal of open) await cal.close().catch(() => {});
  await nats?.stop();
});

async function node(name: string, id: string, extra: Record<string, unknown> = {}): Promise<Calendar> {
  const cal = await openCalendar({
    siteUrl: 'http://calendar.test',
    cluster: { servers: nats!.urls, name, node: id, leaseMs: 1_000, warn: quiet, ...extra },
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

/** two nodes of calendar `name`, once one of them is the writer */
async function pair(name: string): Promise<{ a: Calendar; b: Calendar; w: Calendar; f: Calendar }> {
  const a = await node(name, 'a');
  const b = await node(name, 'b');
  const w = await writerOf([a, b]);
  return { a, b, w, f: w === a ? b : a };
}

const ev = (title: string, day = 1) => ({
  title,
  start_date: `2027-02-${String(day).padStart(2, '0')} 10:00:00`,
  end_date: `2027-02-${String(day).padStart(2, '0')} 11:00:00`,
});

const titles = async (cal: Calendar) =>
  (await cal.events.list({ start_date: '2000-01-01', per_page: 50 })).items.map((e) => e.title as string).sort();

test('a write through a follower runs on the writer; every node applies it', async () => {
  if (!nats) return;
  const { w, f } = await pair('basic');
  const one = await w.events.create(ev('One'));
  const two = await f.events.create(ev('Two', 2)); // forwarded; resolves once f applied it
  assert.is(two.id, (one.id as number) + 1);
  assert.equal(await titles(f), ['One', 'Two']);
  await w.waitForSeq(f.seq);
  assert.equal(await titles(w), ['One', 'Two']);
  assert.is(w.seq, f.seq);
  // an error on the writer comes back as the same CalendarError
  try {
    await f.events.update(9_999, { title: 'x' });
    assert.unreachable('no such event');
  } catch (err) {
    assert.instance(err, CalendarError);
    assert.is((err as CalendarError).status, 404);
  }
});

test('read-your-writes on another node over HTTP: X-Calendar-Seq, X-Calendar-Min-Seq', async () => {
  if (!nats) return;
  const { w, f } = await pair('ryw');
  const servers = await Promise.all([w, f].map((cal) => startServer(cal, { port: 0, log: quiet, minSeqWaitMs: 300 })));
  try {
    const [ws, fs] = servers;
    for (let i = 0; i < 20; i++) {
      // written on the writer (via the embedding API: the HTTP shell needs a user), read on the follower
      await w.events.create(ev(`E${i}`, 1 + (i % 28)));
      const seq = w.seq;
      const res = await fetch(`${fs.url}/wp-json/tribe/events/v1/events?per_page=50&start_date=2000-01-01`, {
        headers: { 'X-Calendar-Min-Seq': String(seq) },
      });
      assert.is(res.status, 200);
      assert.ok(Number(res.headers.get('x-calendar-seq')) >= seq);
      const body = (await res.json()) as { events: Array<{ title: string }> };
      assert.ok(
        body.events.some((e) => e.title === `E${i}`),
        `E${i} read on the other node`,
      );
    }
    const head = await fetch(`${ws.url}/wp-json/tribe/events/v1/events`);
    assert.is(Number(head.headers.get('x-calendar-seq')), w.seq);
    assert.match(head.headers.get('x-calendar-node') ?? '', /; role=writer$/);
    // a seq no node has reached: 503 after the bounded wait; a malformed one: 400
    const ahead = await fetch(`${fs.url}/wp-json/tribe/events/v1/events`, {
      headers: { 'X-Calendar-Min-Seq': String(w.seq + 1000) },
    });
    assert.is(ahead.status, 503);
    assert.is(((await ahead.json()) as { code: string }).code, 'rest_cluster_behind');
    const bad = await fetch(`${fs.url}/wp-json/tribe/events/v1/events`, { headers: { 'X-Calendar-Min-Seq': 'soon' } });
    assert.is(bad.status, 400);
  } finally {
    await Promise.all(servers.map((s) => s.close()));
  }
});

test('a stale append is rejected by JetStream; a writer whose append is rejected rebuilds from the log', async () => {
  if (!nats) return;
  const { a, b, w } = await pair('fence');
  await w.events.create(ev('Before'));
  const last = handleOf(w).cluster!.applied;
  const nc = await connect({ servers: nats.urls.split(',') });
  try {
    const js = jetstream(nc);
    // a deposed writer's late append (expecting an older last seq) never forks the log
    await js.publish('calendar.fence.log', JSON.stringify({ ops: [] }), { expect: { lastSequence: last - 1 } }).then(
      () => assert.unreachable('accepted'),
      (err: Error) => assert.match(err.message, /wrong last sequence/),
    );
    // an intruder appends right after the writer's last write; the writer then writes
    await js.publish('calendar.fence.log', JSON.stringify({ ops: [] }), { expect: { lastSequence: last } });
    let acked = false;
    try {
      await w.events.create(ev('Mine', 3));
      acked = true;
    } catch (err) {
      assert.instance(err, CalendarError);
      assert.is((err as CalendarError).status, 503);
    }
    // whatever the race gave, every node ends with exactly the log: Mine only if acknowledged
    const writer = await writerOf([a, b]);
    await writer.events.create(ev('After', 4));
    for (const cal of [a, b]) {
      assert.ok(await cal.waitForSeq(writer.seq));
      assert.equal(
        await titles(cal),
        acked ? ['After', 'Before', 'Mine'] : ['After', 'Before'],
        `node ${handleOf(cal).cluster!.node}: ${JSON.stringify(await titles(cal))} seq ${cal.seq} applied ${handleOf(cal).cluster!.applied} writer ${handleOf(writer).cluster!.node} at ${writer.seq}`,
      );
    }
  } finally {
    await nc.close();
  }
});

test('a snapshot the writer captures while one of its appends is rejected is not written (it would hold a write the log lacks)', async () => {
  if (!nats) return;
  const a = await node('snapfence', 'a', { snapshotEvery: 0 });
  await writerOf([a]);
  await a.events.create(ev('Before'));
  const last = handleOf(a).cluster!.applied;
  const nc = await connect({ servers: nats.urls.split(',') });
  try {
    // the writer's next write: an intruder takes its seq first, so that its append is rejected;
    // a snapshot asked for while that append is in flight waits for it, then captures
    const cluster = handleOf(a).cluster!;
    const append = cluster.append.bind(cluster);
    let snapshot: Promise<void> | undefined;
    cluster.append = async (seq, ops, meta) => {
      await jetstream(nc).publish('calendar.snapfence.log', JSON.stringify({ ops: [] }), {
        expect: { lastSequence: seq - 1 },
      });
      const stored = append(seq, ops, meta);
      snapshot ??= cluster.snapshot();
      return stored;
    };
    const mine = await a.events.create(ev('Mine', 2)).then(
      () => 'acknowledged',
      (err: CalendarError) => err.code,
    );
    cluster.append = append;
    await snapshot;
    assert.is(mine, 'rest_cluster_write_failed', 'the append after the intruder is rejected');
    // no snapshot holds the rejected write (a node starting or rebuilding would load it)
    const os = await new Objm(nc).open('CAL_snapfence_snap');
    for (const seq of await listSnapshots(os)) {
      assert.not.ok(
        JSON.stringify(await readSnapshot(os, seq)).includes('Mine'),
        `snapshot ${seq} holds the rejected write (the log: ${last + 1} is the intruder's)`,
      );
    }
    // a node started now agrees with the writer, once it has rebuilt and written again
    const late = await node('snapfence', 'late', { writer: false });
    const w = await writerOf([a]);
    await w.events.create(ev('After', 3));
    assert.ok(await late.waitForSeq(w.seq));
    assert.equal(await titles(a), ['After', 'Before']);
    assert.equal(await titles(late), ['After', 'Before']);
  } finally {
    await nc.close();
  }
});

test("a message already in the stream with the id a writer's append would carry never makes that append look stored", async () => {
  if (!nats) return;
  // Before 2026-11-26 a writer's message ids were node.seq: a node that once tried seq S (an
  // append that timed out, not stored), stepped down and became the writer again at S sent its new
  // write under the same id; had the first attempt been stored late after all, JetStream dropped
  // the new write as a duplicate and answered with S: acknowledged, but the log held the old one.
  // Here the stream takes a message under that id just before the writer's append of S.
  const a = await node('msgid', 'a', { snapshotEvery: 0 });
  await writerOf([a]);
  await a.events.create(ev('Before'));
  const nc = await connect({ servers: nats.urls.split(',') });
  try {
    const cluster = handleOf(a).cluster!;
    const append = cluster.append.bind(cluster);
    cluster.append = async (seq, ops, meta) => {
      await jetstream(nc).publish('calendar.msgid.log', JSON.stringify({ ops: [] }), {
        expect: { lastSequence: seq - 1 },
        msgID: `a.${seq}`,
      });
      return append(seq, ops, meta);
    };
    const mine = await a.events.create(ev('Mine', 2)).then(
      () => 'acknowledged',
      (err: CalendarError) => err.code,
    );
    cluster.append = append;
    assert.is(
      mine,
      'rest_cluster_write_failed',
      'the seq is taken: the append is rejected, not acknowledged as a duplicate',
    );
    // the node rebuilds from the log, then takes the lease again: 0.1-1 s alone, but once over
    // 10 s in a full CI run (2026-11-26, not explained yet: docs/cluster.md)
    const w = await writerOf([a], 30_000);
    await w.events.create(ev('After', 3));
    const late = await node('msgid', 'late', { writer: false });
    assert.ok(await late.waitForSeq(w.seq));
    assert.equal(await titles(a), ['After', 'Before']);
    assert.equal(await titles(late), ['After', 'Before']);
  } finally {
    await nc.close();
  }
});

test('a forwarded write is run once when a node that lost the lease still answers "not the writer"', async () => {
  if (!nats) return;
  const { w, f } = await pair('stale');
  await w.events.create(ev('Before'));
  // a writer that just lost its lease is subscribed until it steps down, and answers at once that
  // it is not the writer (as node.ts does): here the test's own subscriber, in the writer's queue group
  const nc = await connect({ servers: nats.urls.split(',') });
  let stale = 0;
  const sub = nc.subscribe('calendar.stale.write', {
    queue: 'writer',
    callback: (_err, msg) => {
      stale++;
      msg.respond(
        JSON.stringify({
          error: {
            code: 'rest_cluster_not_writer',
            status: 503,
            message: 'This node is not the writer of the cluster. Retry.',
          },
          seq: 0,
        }),
      );
    },
  });
  try {
    await nc.flush();
    for (let i = 0; i < 12; i++) await f.events.create(ev(`Forwarded ${i}`, 1 + i));
    assert.ok(stale > 0, 'some writes reached the stale subscriber first');
    const all = await titles(f);
    for (let i = 0; i < 12; i++)
      assert.is(
        all.filter((t) => t === `Forwarded ${i}`).length,
        1,
        `Forwarded ${i} made once: ${JSON.stringify(all)}`,
      );
  } finally {
    sub.unsubscribe();
    await nc.close();
  }
});

test('close() waits for a snapshot or a rebuild in flight before the connection drains (no timer left running)', async () => {
  if (!nats) return;
  // ref'd timers of this process: a consumer that nats.js starts on a draining connection leaves
  // its idle-heartbeat interval running for ever (the process then never exits)
  const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
  const before = timers();
  for (const work of ['snapshot', 'resync'] as const) {
    const a = await node(`closing-${work}`, 'a', { snapshotEvery: 0 });
    await writerOf([a]);
    for (let i = 0; i < 20; i++) await a.events.create(ev(`C${i}`, 1 + i));
    let settled = false;
    const running = (
      work === 'snapshot' ? handleOf(a).cluster!.snapshot() : handleOf(a).cluster!.resync('the test asks')
    ).finally(() => (settled = true));
    running.catch(() => {}); // (before the fix, the snapshot failed on the draining connection)
    await a.close();
    assert.ok(settled, `the ${work} ended before close() resolved`);
    await running.catch(() => {});
  }
  for (const until = Date.now() + 3_000; timers() > before && Date.now() < until; )
    await new Promise((r) => setTimeout(r, 50));
  assert.ok(timers() <= before, `ref'd timers: ${before} before, ${timers()} after`);
});

test('an import on the writer reaches every node; a follower refuses one', async () => {
  if (!nats) return;
  const { w, f } = await pair('imp');
  await w.events.create(ev('Live'));
  const summary = await w.import({ events: [{ ...ev('Imported', 5), id: 500 }] } as never);
  assert.is(summary.events, 1);
  assert.ok(await f.waitForSeq(w.seq));
  assert.equal(await titles(f), ['Imported', 'Live']);
  const next = await f.events.create(ev('Later', 6));
  assert.is(next.id, 501);
  try {
    await f.import({ events: [{ ...ev('No', 7), id: 600 }] } as never);
    assert.unreachable('follower import');
  } catch (err) {
    assert.is((err as CalendarError).code, 'rest_cluster_not_writer');
  }
});

test('snapshots go to the object store, the stream is purged below the oldest kept, a late node starts from it', async () => {
  if (!nats) return;
  const a = await node('snap', 'a', { keepSnapshots: 1, snapshotEvery: 0 });
  for (let i = 0; i < 10; i++) await a.events.create(ev(`S${i}`, 1 + i));
  await a.snapshot();
  const first = await handleOf(a).cluster!.streamState();
  assert.equal(first.snapshots, [10]);
  assert.is(first.first, 11);
  for (let i = 10; i < 15; i++) await a.events.create(ev(`S${i}`, 1 + i));
  await a.snapshot();
  const second = await handleOf(a).cluster!.streamState();
  assert.equal(second.snapshots, [15]);
  assert.is(second.messages, 0);
  await a.events.create(ev('Tail', 20));
  const late = await node('snap', 'late', { writer: false });
  assert.is(handleOf(late).cluster!.snapshotSeq, 15);
  assert.ok(await late.waitForSeq(a.seq));
  assert.equal(await titles(late), await titles(a));
  assert.is((await titles(late)).length, 16);
});

test('snapshots are stored compressed (brotli); one written uncompressed, as before, still loads', async () => {
  if (!nats) return;
  const a = await node('zip', 'a', { snapshotEvery: 0 });
  for (let i = 0; i < 30; i++)
    await a.events.create(ev(`Z${i} ${'words repeat in every title '.repeat(4)}`, 1 + (i % 28)));
  await a.snapshot();
  const nc = await connect({ servers: nats.urls.split(',') });
  try {
    const os = await new Objm(nc).open('CAL_zip_snap');
    const info = await os.info(snapshotName(a.seq));
    assert.is(info?.metadata?.encoding, 'br');
    let raw = 0;
    for await (const line of encodeDetachedChunks(a.engine.snapshotChunks())) raw += line.length;
    assert.ok(info!.size < raw / 2, `stored ${info!.size} bytes of ${raw}`);
    // an object as written before compression: the JSON lines themselves, no encoding
    await a.events.create(ev('Old format', 9));
    let text = '';
    for await (const line of encodeDetachedChunks(a.engine.snapshotChunks())) text += line;
    await os.put({ name: snapshotName(a.seq), description: 'uncompressed' }, new Blob([text]).stream());
    const late = await node('zip', 'late', { writer: false });
    assert.is(handleOf(late).cluster!.snapshotSeq, a.seq);
    assert.equal(await titles(late), await titles(a));
  } finally {
    await nc.close();
  }
});

test('the writer cut off from NATS: another node takes over, the old writer rejoins with the log', async () => {
  if (!nats) return;
  // a reaches NATS through n1 only, b through n2 and n3: killing n1 partitions a (the quorum stays)
  const a = await node('part', 'a', { servers: nats.servers[0].url, nats: { ignoreClusterUpdates: true } });
  await writerOf([a]);
  const b = await node('part', 'b', { servers: [nats.servers[1].url, nats.servers[2].url] });
  await a.events.create(ev('Before'));
  await b.waitForSeq(a.seq);
  const t0 = Date.now();
  nats.kill(0);
  const cut = a.events.create(ev('Cut off', 2)).then(
    () => true,
    (err: CalendarError) => {
      assert.is(err.status, 503);
      return false;
    },
  );
  await writerOf([b], 20_000);
  const takeover = Date.now() - t0;
  await b.events.create(ev('On b', 3));
  assert.not.ok(handleOf(a).cluster!.isWriter, 'the cut-off node no longer takes writes');
  const acked = await cut;
  await nats.start(0);
  assert.ok(await a.waitForSeq(b.seq, 15_000), 'the old writer catches up once it reaches NATS again');
  assert.equal(await titles(a), await titles(b));
  // acknowledged means in the log; a 503 (write unknown) leaves it either way
  if (acked) assert.ok((await titles(b)).includes('Cut off'));
  // a lease (1 s) and a half, plus JetStream's own election of a new leader for the lease bucket
  // (n1 led it: 4.3-6.5 s measured on nats-server 2.9.10)
  console.log(`  cluster partition: node b writer ${takeover} ms after the writer's only NATS server died`);
  assert.ok(takeover < 15_000, `takeover ${takeover} ms`);
});

test('NATS loses its quorum: reads go on, writes fail with 503 (not acknowledged), every node converges once it is back', async () => {
  if (!nats) return;
  const { a, b, w, f } = await pair('quorum');
  await w.events.create(ev('Before'));
  await f.waitForSeq(w.seq);
  nats.kill(1);
  nats.kill(2);
  let during = false;
  try {
    await w.events.create(ev('During', 2));
    during = true;
  } catch (err) {
    assert.is((err as CalendarError).status, 503);
    assert.match((err as CalendarError).code, /^rest_cluster_write_(unknown|failed)$/);
  }
  assert.not.ok(during, 'no write is acknowledged without a quorum');
  assert.equal(await titles(f), ['Before']); // reads go on from memory
  await nats.start(1);
  await nats.start(2);
  let after: Record<string, unknown> | undefined;
  for (const until = Date.now() + 30_000; !after && Date.now() < until; ) {
    after = await f.events.create(ev('After', 3)).catch(() => undefined);
  }
  assert.ok(after, 'writes resume once the quorum is back');
  const writer = await writerOf([a, b]);
  for (const cal of [a, b])
    assert.ok(await cal.waitForSeq(writer.seq, 10_000), `node ${handleOf(cal).cluster!.node} catches up`);
  // 'During' was not acknowledged: it may or may not have been committed once the quorum came back
  assert.equal(await titles(a), await titles(b));
  assert.ok((await titles(a)).includes('After') && (await titles(a)).includes('Before'));
});

test.run();
