// The change feed under load: acknowledged writes/s through HTTP with 0, 1 and 100 live
// Server-Sent Events followers, and the followers' lag (from a write's acknowledgement to its
// event reaching a follower) at a fixed rate of writes.
//
// The server runs in a process of its own on a store in a temporary folder (writes are fsynced);
// writers (keep-alive connections creating tags) run in this process; followers run in a third
// process, so their parsing does not share the writers' event loop. Lag is measured on the wall
// clock both processes share.
//
// Then the same write load with 10 webhooks (to a receiver in its own process).
//
//   npm run bench:changes -- [--seconds S] [--writers W] [--followers 0,1,100] [--hooks 10] [--rate R] [--repeat N] [--cpu-prof DIR]
// (--hooks 0: no webhook configuration; --rate 0: no paced round; --cpu-prof: the server's CPU
// profiles, one per round, into DIR)

import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { summarize } from './stats.ts';

const SELF = fileURLToPath(import.meta.url);
const NS = '/wp-json/tribe/events/v1';
const PASSWORD = 'bench bench bench bench';

function arg(name: string, dflt: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
}

// ---------------------------------------------------------------- the server (child)

async function runServer(dir: string, hookUrl: string | undefined, hooks: number): Promise<void> {
  const { openCalendar } = await import('../src/calendar.ts');
  if (hookUrl) {
    const { addWebhook } = await import('../src/changes/webhook-registry.ts');
    for (let i = 0; i < hooks; i++) addWebhook(dir, `${hookUrl}/${i}`);
  }
  const { startServer } = await import('../src/http/server.ts');
  const cal = await openCalendar({ dir });
  cal.users.ensure('admin', 'administrator', PASSWORD);
  const srv = await startServer(cal, { port: 0, log: () => {} });
  process.send!({ url: srv.url });
  const cpu0 = process.cpuUsage();
  process.on('message', async () => {
    const c = process.cpuUsage(cpu0);
    process.send!({ cpuMs: (c.user + c.system) / 1000 });
    let step = 'the HTTP server';
    setTimeout(() => console.error(`bench:changes: the server's close is stuck in ${step}`), 10_000).unref();
    await srv.close();
    step = 'the calendar';
    await cal.close();
    process.exit(0);
  });
}

// ---------------------------------------------------------------- followers (child)

async function runFollowers(url: string, n: number): Promise<void> {
  /** tag id → first arrival (ms, wall clock) */
  const arrivals = new Map<number, number>();
  let events = 0;
  const reqs: http.ClientRequest[] = [];
  let open = 0;
  for (let i = 0; i < n; i++) {
    const req = http.get(`${url}${NS}/changes`, { headers: { accept: 'text/event-stream' }, agent: false }, (res) => {
      res.setEncoding('utf8');
      let buf = '';
      if (++open === n) process.send!({ ready: true });
      // one follower reads the events (for the lag); the others only take the bytes, so that the
      // load generator's parsing does not eat the cores the server needs (2 on the bench machine)
      if (i > 0) return void res.on('data', () => {});
      res.on('data', (chunk: string) => {
        buf += chunk;
        let end;
        while ((end = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, end);
          buf = buf.slice(end + 2);
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (!data) continue;
          events++;
          const now = performance.timeOrigin + performance.now();
          for (const c of JSON.parse(data) as Array<{ id: number }>) if (!arrivals.has(c.id)) arrivals.set(c.id, now);
        }
      });
    });
    req.on('error', () => {});
    reqs.push(req);
  }
  if (n === 0) process.send!({ ready: true });
  const cpu0 = process.cpuUsage();
  process.on('message', () => {
    for (const r of reqs) r.destroy();
    const c = process.cpuUsage(cpu0);
    process.send!({ arrivals: [...arrivals], events, cpuMs: (c.user + c.system) / 1000 });
    setTimeout(() => process.exit(0), 50);
  });
}

// ---------------------------------------------------------------- webhook receiver (child)

// It counts the changes it receives without parsing the bodies (each change starts `{"seq":`), as
// the followers but one only take the bytes: on the 2 cores it shares with the server, parsing
// 10 copies of every change would take CPU a receiver on its own machine would not.
async function runReceiver(): Promise<void> {
  let changes = 0;
  const mark = Buffer.from('{"seq":');
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const body = Buffer.concat(parts);
      for (let i = body.indexOf(mark); i >= 0; i = body.indexOf(mark, i + mark.length)) changes++;
      res.writeHead(204).end();
    });
  });
  server.listen(0, '127.0.0.1', () => process.send!({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}` }));
  const cpu0 = process.cpuUsage();
  process.on('message', () => {
    const c = process.cpuUsage(cpu0);
    process.send!({ changes, cpuMs: (c.user + c.system) / 1000 });
    setTimeout(() => process.exit(0), 50);
  });
}

// ---------------------------------------------------------------- writers (this process)

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const auth = `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}`;
let tagNo = 0;

function createTag(url: string): Promise<{ id: number; at: number }> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ name: `bench tag ${process.pid}-${tagNo++}` });
    const req = http.request(`${url}${NS}/tags`, { method: 'POST', agent, headers: { authorization: auth, 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => {
        const at = performance.timeOrigin + performance.now();
        if (res.statusCode !== 201) return reject(new Error(`create: ${res.statusCode} ${text.slice(0, 200)}`));
        resolve({ id: (JSON.parse(text) as { id: number }).id, at });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

function child(args: string[], profile?: string): ChildProcess {
  return fork(SELF, args, { execArgv: ['--import', 'tsx', ...(profile ? ['--cpu-prof', '--cpu-prof-dir', profile] : [])] });
}

function message<T>(c: ChildProcess, pick: (m: Record<string, unknown>) => boolean): Promise<T> {
  return new Promise((resolve) => {
    const on = (m: unknown) => {
      if (pick(m as Record<string, unknown>)) {
        c.off('message', on);
        resolve(m as T);
      }
    };
    c.on('message', on);
  });
}

async function round(followers: number, seconds: number, writers: number, rate: number | undefined, hooks = 0) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-bench-changes-'));
  const receiver = hooks > 0 ? child(['--receiver']) : undefined;
  const hookUrl = receiver ? (await message<{ url: string }>(receiver, (m) => typeof m.url === 'string')).url : '';
  const server = child(['--server', dir, hookUrl, String(hooks)], arg('cpu-prof', '') || undefined);
  const { url } = await message<{ url: string }>(server, (m) => typeof m.url === 'string');
  const fl = child(['--followers', url, String(followers)]);
  await message(fl, (m) => m.ready === true);
  const acks: Array<{ id: number; at: number }> = [];
  const cpu0 = process.cpuUsage();
  const end = Date.now() + seconds * 1000;
  const start = Date.now();
  const interval = rate ? (1000 * writers) / rate : 0;
  await Promise.all(Array.from({ length: writers }, async (_, w) => {
    let next = start + (interval * w) / writers;
    while (Date.now() < end) {
      if (interval > 0) {
        const wait = next - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        next += interval;
      }
      acks.push(await createTag(url));
    }
  }));
  const elapsed = (Date.now() - start) / 1000;
  const writersCpu = process.cpuUsage(cpu0);
  await new Promise((r) => setTimeout(r, hooks > 0 ? 600 : 300)); // the last events reach the followers (webhooks linger 200 ms)
  fl.send('stop');
  const { arrivals, events, cpuMs: followersCpuMs } = await message<{ arrivals: Array<[number, number]>; events: number; cpuMs: number }>(fl, (m) => Array.isArray(m.arrivals));
  let delivered = 0, receiverCpuMs = 0;
  if (receiver) {
    receiver.send('stop');
    ({ changes: delivered, cpuMs: receiverCpuMs } = await message<{ changes: number; cpuMs: number }>(receiver, (m) => typeof m.changes === 'number'));
  }
  const serverCpu = message<{ cpuMs: number }>(server, (m) => typeof m.cpuMs === 'number');
  server.send('stop');
  const { cpuMs: serverCpuMs } = await serverCpu;
  await new Promise((r) => server.once('exit', r));
  fs.rmSync(dir, { recursive: true, force: true });
  const arrived = new Map(arrivals);
  const lags: number[] = [];
  for (const a of acks) {
    const t = arrived.get(a.id);
    if (t !== undefined) lags.push(Math.max(0, t - a.at));
  }
  const cpu = { server: serverCpuMs, followers: followersCpuMs + receiverCpuMs, writers: (writersCpu.user + writersCpu.system) / 1000 };
  return { cpu, elapsed, writesPerSecond: acks.length / elapsed, lag: followers > 0 ? summarize(lags) : undefined, missed: followers > 0 ? acks.length - lags.length : 0, events, writes: acks.length, delivered };
}

async function main(): Promise<void> {
  const seconds = Number(arg('seconds', '5'));
  const writers = Number(arg('writers', '32'));
  const counts = arg('followers', '0,1,100').split(',').map(Number);
  const rate = Number(arg('rate', '1000'));
  const repeat = Number(arg('repeat', '3'));
  // the configurations run in turn, `repeat` times over (so that a slow spell of the shared
  // machine falls on all of them), and each is reported by its median round
  const hooks = Number(arg('hooks', '10'));
  const configs = [...counts.map((n) => ({ name: String(n), followers: n, hooks: 0 })), ...(hooks > 0 ? [{ name: `0 + ${hooks} webhooks`, followers: 0, hooks }] : [])];
  const results = new Map<string, Array<Awaited<ReturnType<typeof round>>>>();
  for (let r = 0; r < repeat; r++) {
    for (const c of configs) {
      const res = await round(c.followers, seconds, writers, undefined, c.hooks);
      results.set(c.name, [...(results.get(c.name) ?? []), res]);
    }
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor((xs.length - 1) / 2)];
  // the server's own CPU per acknowledged write (what more cores or other machines for the
  // clients would not change), and the cores each side used: on 2 shared cores the followers'
  // and writers' processes take CPU the server would otherwise have
  const perWrite = (r: Awaited<ReturnType<typeof round>>) => (r.cpu.server * 1000) / r.writes;
  const first = results.get(configs[0].name)!;
  const baseRate = median(first.map((r) => r.writesPerSecond)), baseCpu = median(first.map(perWrite));
  const rows: Array<Record<string, string | number>> = [];
  for (const c of configs) {
    const rs = results.get(c.name)!;
    const rate = median(rs.map((r) => r.writesPerSecond)), cpu = median(rs.map(perWrite));
    const lagged = rs.filter((r) => r.lag !== undefined);
    rows.push({
      followers: c.name, 'writes/s': Math.round(rate), 'vs first': `${((rate / baseRate) * 100).toFixed(0)}%`,
      'each round': rs.map((r) => Math.round(r.writesPerSecond)).join(' '),
      'server µs/write': cpu.toFixed(0), 'vs first ': `${((cpu / baseCpu) * 100).toFixed(0)}%`,
      'cores: server': median(rs.map((r) => r.cpu.server / 1000 / r.elapsed)).toFixed(2),
      clients: median(rs.map((r) => (r.cpu.followers + r.cpu.writers) / 1000 / r.elapsed)).toFixed(2),
      'lag p50 ms': lagged.length ? median(lagged.map((r) => r.lag!.median)).toFixed(1) : '-',
      'lag p99 ms': lagged.length ? median(lagged.map((r) => r.lag!.p99)).toFixed(1) : '-',
      missed: c.hooks > 0 ? `${rs.reduce((n, r) => n + r.writes * c.hooks - r.delivered, 0)} not yet delivered at the end` : rs.reduce((n, r) => n + r.missed, 0),
    });
  }
  console.log(`calendar-engine change feed: ${writers} writers (creating tags, fsynced store), ${seconds} s a round, ${repeat} rounds each (medians), node ${process.version}`);
  console.table(rows);
  if (rate > 0) {
    const paced = await round(1, seconds, writers, rate);
    console.log(`at ${rate} writes/s asked (${Math.round(paced.writesPerSecond)} made), 1 follower: lag p50 ${paced.lag!.median.toFixed(1)} ms, p99 ${paced.lag!.p99.toFixed(1)} ms, ${paced.missed} missed`);
  }
  agent.destroy();
}

if (process.argv[2] === '--server') void runServer(process.argv[3], process.argv[4] || undefined, Number(process.argv[5] ?? 0));
else if (process.argv[2] === '--receiver') void runReceiver();
else if (process.argv[2] === '--followers') void runFollowers(process.argv[3], Number(process.argv[4]));
else main().catch((err) => {
  console.error(err);
  process.exit(1);
});
