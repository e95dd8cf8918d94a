// The replicated calendar on NATS JetStream (docs/cluster.md), measured on this machine with a
// 3-server NATS cluster on loopback (streams R3):
//
//   writes   acknowledged writes/s with W concurrent writers (embedding API, events.create):
//            the single-process store (journal + fdatasync) versus the cluster's writer, and
//            through a follower (forwarded over NATS); follower lag p50/p99 (write acknowledged
//            on the writer → applied on a follower in the same process, same clock)
//   reads    list requests/s over HTTP with 1, 2 and 3 `serve --cluster` nodes (the load from a
//            child process, round-robin over the nodes) and each node's CPU per request
//   catchup  a node started late: the newest object-store snapshot of E events plus a tail of
//            writes, from process start to serving the last write (for each --events size)
//
//   npm run bench:cluster -- [--only writes|reads|catchup] [--seconds S] [--writers W]
//                            [--read-events N] [--conns C] [--catchup 100000,1000000]

import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { handleOf, openCalendar, type Calendar } from '../src/calendar.ts';
import { UserRegistry } from '../src/users/registry.ts';
import { generateCalendar } from './generate.ts';
import { quantileOf } from './stats.ts';
import { natsServerPath, startNatsCluster, type NatsCluster } from '../test/helpers/nats-cluster.ts';
import { nodeSet } from '../test/helpers/cluster-nodes.ts';

const SELF = fileURLToPath(import.meta.url);

function arg(name: string, dflt: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
}

const quiet = () => {};
const ev = (i: number) => {
  const day = `2027-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`;
  return { title: `Bench ${i}`, start_date: `${day} 10:00:00`, end_date: `${day} 11:00:00`, status: 'publish' };
};

/** W loops creating events through `cal` for `seconds`; acknowledged writes/s and latencies. */
async function writeLoad(
  cal: Calendar,
  writers: number,
  seconds: number,
): Promise<{ wps: number; p50: number; p99: number; failed: number }> {
  let n = 0;
  let failed = 0;
  const lat: number[] = [];
  const until = performance.now() + seconds * 1000;
  const loop = async () => {
    while (performance.now() < until) {
      const t0 = performance.now();
      try {
        await cal.events.create(ev(n++));
        lat.push(performance.now() - t0);
      } catch {
        failed++;
      }
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: writers }, loop));
  const elapsed = (performance.now() - t0) / 1000;
  return { wps: lat.length / elapsed, p50: quantileOf(lat, 0.5), p99: quantileOf(lat, 0.99), failed };
}

async function benchWrites(nats: NatsCluster, writers: number, seconds: number): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-cluster-store-'));
  const single = await openCalendar({ dir, users: UserRegistry.open(), webhooks: false });
  await writeLoad(single, writers, 1); // warm-up
  const s = await writeLoad(single, writers, seconds);
  await single.close();
  fs.rmSync(dir, { recursive: true, force: true });

  const cluster = { servers: nats.urls, name: 'benchw', leaseMs: 3_000, warn: quiet, snapshotEvery: 0 };
  const w = await openCalendar({ users: UserRegistry.open(), cluster: { ...cluster, node: 'w' } });
  while (!handleOf(w).cluster!.isWriter) await new Promise((r) => setTimeout(r, 20));
  const f = await openCalendar({ users: UserRegistry.open(), cluster: { ...cluster, node: 'f', writer: false } });
  const appliedAt = new Map<number, number>();
  f.on('change', (c) => appliedAt.set(c.seq, performance.now()));
  const ackedAt = new Map<number, number>();
  await writeLoad(w, writers, 1);
  // a write joins the writer's change feed the moment JetStream acknowledges it
  const off = w.on('change', (ch) => ackedAt.set(ch.seq, performance.now()));
  const c = await writeLoad(w, writers, seconds);
  off();
  await f.waitForSeq(w.seq, 30_000);
  const lag: number[] = [];
  for (const [seq, at] of ackedAt) if (appliedAt.has(seq)) lag.push(appliedAt.get(seq)! - at);
  const fw = await writeLoad(f, writers, seconds);
  await f.close();
  await w.close();
  const fmt = (r: { wps: number; p50: number; p99: number; failed: number }) =>
    `${r.wps.toFixed(0)} writes/s (latency p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms${r.failed ? `, ${r.failed} failed` : ''})`;
  console.log(`writes, ${writers} concurrent writers, ${seconds} s each (embedding API, events.create):`);
  console.log(`  single process (journal + fdatasync): ${fmt(s)}`);
  console.log(`  cluster writer (JetStream R3 ack):    ${fmt(c)}  = ${(c.wps / s.wps).toFixed(2)}x the single process`);
  console.log(`  cluster, through a follower:          ${fmt(fw)}  = ${(fw.wps / s.wps).toFixed(2)}x`);
  console.log(
    `  follower lag (acknowledged on the writer -> applied on a follower), ${lag.length} writes: p50 ${quantileOf(lag, 0.5).toFixed(2)} ms, p99 ${quantileOf(lag, 0.99).toFixed(2)} ms (negative: applied before the writer saw its ack)`,
  );
}

// ---------------------------------------------------------------- reads

async function runClient(): Promise<void> {
  const [urlsText, secondsText, connsText] = process.argv.slice(3);
  const urls = urlsText.split(',');
  const conns = Number(connsText);
  const agent = new http.Agent({ keepAlive: true, maxSockets: conns });
  let done = 0;
  let failed = 0;
  let measuring = false;
  let stop = false;
  let next = 0;
  const one = (): Promise<void> =>
    new Promise((resolve) => {
      const req = http.get(urls[next++ % urls.length], { agent }, (res) => {
        res.resume();
        res.on('end', () => {
          if (measuring) res.statusCode === 200 ? done++ : failed++;
          resolve();
        });
      });
      req.on('error', () => {
        failed++;
        resolve();
      });
    });
  const loops = Array.from({ length: conns }, async () => {
    while (!stop) await one();
  });
  await new Promise((r) => setTimeout(r, 500));
  measuring = true;
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, Number(secondsText) * 1000));
  measuring = false;
  const elapsed = (performance.now() - t0) / 1000;
  stop = true;
  await Promise.all(loops);
  process.send!({ rps: done / elapsed, done, failed });
}

function load(urls: string[], seconds: number, conns: number): Promise<{ rps: number; done: number; failed: number }> {
  return new Promise((resolve, reject) => {
    const child = fork(SELF, ['--client', urls.join(','), String(seconds), String(conns)], {
      execArgv: ['--import', 'tsx'],
    });
    child.once('message', (m) => resolve(m as { rps: number; done: number; failed: number }));
    child.once('exit', (code) => code !== 0 && reject(new Error(`load generator exited with ${code}`)));
  });
}

/** user + system CPU seconds of a process so far (/proc/PID/stat) */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function benchReads(nats: NatsCluster, events: number, seconds: number, conns: number): Promise<void> {
  // the data: imported by an in-process writer (snapshot + marker), then served by 3 processes
  const seeder = await openCalendar({
    users: UserRegistry.open(),
    cluster: { servers: nats.urls, name: 'benchr', node: 'seeder', warn: quiet, snapshotEvery: 0 },
  });
  while (!handleOf(seeder).cluster!.isWriter) await new Promise((r) => setTimeout(r, 20));
  await seeder.import(generateCalendar({ events, seed: 7, now: new Date() }));
  const set = nodeSet(nats.urls, 'benchr');
  try {
    const nodes = await Promise.all(['r1', 'r2', 'r3'].map((id) => set.start(id)));
    const q = '/wp-json/tribe/events/v1/events?per_page=12&start_date=2000-01-01';
    for (const node of nodes)
      await fetch(`${node.url}${q}`, { headers: { 'X-Calendar-Min-Seq': String(seeder.seq) } }).then((r) => r.text());
    console.log(
      `reads, ${events} events, GET events?per_page=12 (first page), ${conns} connections, ${seconds} s, load from one child process:`,
    );
    let base = 0;
    for (const k of [1, 2, 3]) {
      const use = nodes.slice(0, k);
      const before = use.map((n) => cpuSeconds(n.proc.pid!));
      const r = await load(
        use.map((n) => n.url + q),
        seconds,
        conns,
      );
      const cpu = use.map((n, i) => cpuSeconds(n.proc.pid!) - before[i]);
      const perReq = cpu.map((c) => (c / (r.done / k)) * 1e6);
      if (k === 1) base = r.rps;
      console.log(
        `  ${k} node${k > 1 ? 's' : ' '}: ${r.rps.toFixed(0)} requests/s (${(r.rps / base).toFixed(2)}x one node${r.failed ? `, ${r.failed} failed` : ''}); CPU per request on each node: ${perReq.map((u) => `${u.toFixed(0)} us`).join(', ')}`,
      );
    }
  } finally {
    await set.stopAll();
    await seeder.close();
  }
}

// ---------------------------------------------------------------- catch-up

async function runLateNode(): Promise<void> {
  const [urls, name, lastText] = process.argv.slice(3);
  const t0 = performance.now();
  const cal = await openCalendar({
    users: UserRegistry.open(),
    cluster: { servers: urls, name, node: 'late', writer: false, warn: quiet },
  });
  const loaded = performance.now() - t0;
  const snapshotSeq = handleOf(cal).cluster!.snapshotSeq;
  const ok = await cal.waitForSeq(Number(lastText), 600_000);
  const total = performance.now() - t0;
  const rss = process.memoryUsage().rss;
  await cal.close();
  process.send!({ loaded, total, ok, snapshotSeq, rss });
}

async function benchCatchup(nats: NatsCluster, sizes: number[], tail: number): Promise<void> {
  console.log(
    `catch-up of a node started late (newest object-store snapshot + a tail of ${tail} writes in the stream):`,
  );
  for (const events of sizes) {
    const name = `benchc${events}`;
    const writer = await openCalendar({
      users: UserRegistry.open(),
      cluster: { servers: nats.urls, name, node: 'w', warn: quiet, snapshotEvery: 0, leaseMs: 120_000 },
    });
    // (a long lease: the import's synchronous steps hold the event loop for seconds, docs/cluster.md)
    while (!handleOf(writer).cluster!.isWriter) await new Promise((r) => setTimeout(r, 20));
    const t0 = performance.now();
    await writer.import(generateCalendar({ events, seed: 11, now: new Date() }));
    const importMs = performance.now() - t0;
    for (let i = 0; i < tail; i += 50)
      await Promise.all(Array.from({ length: 50 }, (_, k) => writer.events.create(ev(i + k))));
    const state = await handleOf(writer).cluster!.streamState();
    const snapBytes = state.snapshotBytes;
    const r = await new Promise<{ loaded: number; total: number; ok: boolean; snapshotSeq: number; rss: number }>(
      (resolve, reject) => {
        const child = fork(SELF, ['--late', nats.urls, name, String(writer.seq)], {
          execArgv: ['--import', 'tsx', '--max-old-space-size=12000'],
        });
        child.once('message', (m) => resolve(m as never));
        child.once('exit', (code) => code !== 0 && reject(new Error(`late node exited with ${code}`)));
      },
    );
    await writer.close();
    console.log(
      `  ${events} events (snapshot ${(snapBytes / 1e6).toFixed(0)} MB at seq ${r.snapshotSeq}, stream ${state.messages} messages): ` +
        `snapshot loaded ${(r.loaded / 1000).toFixed(1)} s after start, serving seq ${writer.seq} after ${(r.total / 1000).toFixed(1)} s${r.ok ? '' : ' (NOT reached)'}; ` +
        `late node RSS ${(r.rss / 1e9).toFixed(2)} GB; (the import on the writer, snapshot upload included: ${(importMs / 1000).toFixed(1)} s)`,
    );
  }
}

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  if (process.argv[2] === '--client') return runClient();
  if (process.argv[2] === '--late') return runLateNode();
  const bin = natsServerPath();
  if (!bin) {
    console.log('nats-server is not installed (apt-get install nats-server): nothing to measure');
    return;
  }
  const only = arg('only', '');
  const seconds = Number(arg('seconds', '5'));
  const nats = await startNatsCluster(3, { bin });
  console.log(
    `${os.cpus().length} cores, node ${process.version}, nats-server ${bin}; 3 NATS servers on loopback, streams R3`,
  );
  try {
    if (!only || only === 'writes') await benchWrites(nats, Number(arg('writers', '32')), seconds);
    if (!only || only === 'reads')
      await benchReads(nats, Number(arg('read-events', '10000')), seconds, Number(arg('conns', '32')));
    if (!only || only === 'catchup')
      await benchCatchup(nats, arg('catchup', '100000,1000000').split(',').map(Number), Number(arg('tail', '1000')));
  } finally {
    await nats.stop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
