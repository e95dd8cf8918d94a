// bench:changes --paired: how much slower writes are with followers or webhooks than without,
// asked of one server in alternating windows instead of fresh servers in turn.
//
// On the bench machine (2 shared cores of a virtual machine) the rate of one configuration
// drifts by ±20 % from second to second and from server to server, within a single process as
// much as between processes. The drift is slow: windows a few seconds apart see nearly the same
// machine. So each configuration gets one server and a steady write load, and the followers (or
// webhooks) come and go: off, on, off, on, …, off. Each "on" window is compared with the mean of
// the two "off" windows beside it, which cancels a drift that is linear over the three; the
// configuration is reported by the median of those ratios (and their quartiles).
//
// Followers: one process, started with the server, opens its streams (from the current head)
// before an "on" window and closes them after it; they only count the bytes they receive.
// Webhooks: the server registers them (or removes them) in its store's registry, which its
// dispatcher reads again every second; new webhooks start with the next write. After each switch the bench waits (`--settle` seconds; for webhooks at least 1.5 s,
// past the dispatcher's reload) before the window is counted. Every window counts the writes
// acknowledged in it and the server's CPU time.
//
//   npm run bench:changes -- --paired [--pairs P] [--window S] [--settle S] [--writers W]
//                            [--followers 1,100] [--hooks 10] [--pin]

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { quantileOf } from './stats.ts';
import { CLIENT_CPUS, PIN, SERVER_CPU, agent, arg, child, createTag, message } from './changes-roles.ts';

interface Window {
  on: boolean;
  writesPerSecond: number;
  cpuPerWrite: number;
  systemPerWrite: number;
}

interface Config {
  name: string;
  followers: number;
  hooks: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One configuration: its server, the write load, and 2 × pairs + 1 windows. */
async function configuration(
  c: Config,
  pairs: number,
  windowMs: number,
  settleMs: number,
  writers: number,
): Promise<Window[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-bench-paired-'));
  const clientCpus = PIN ? CLIENT_CPUS : undefined;
  const receiver = c.hooks > 0 ? child(['--as-receiver'], undefined, clientCpus) : undefined;
  const hookUrl = receiver ? (await message<{ url: string }>(receiver, (m) => typeof m.url === 'string')).url : '';
  const server = child(['--as-server', dir, hookUrl, String(c.hooks), 'off'], undefined, PIN ? SERVER_CPU : undefined);
  const { url } = await message<{ url: string }>(server, (m) => typeof m.url === 'string');
  const serverCpu = async (): Promise<{ cpuTotalMs: number; cpuSystemMs: number }> => {
    const reply = message<{ cpuTotalMs: number; cpuSystemMs: number }>(server, (m) => typeof m.cpuTotalMs === 'number');
    server.send({ cmd: 'cpu' });
    return reply;
  };
  let acked = 0,
    stop = false;
  const load = Promise.all(
    Array.from({ length: writers }, async () => {
      while (!stop) {
        await createTag(url);
        acked++;
      }
    }),
  );
  const followers =
    c.followers > 0
      ? child(['--as-toggled-followers', url, arg('sse-encoding', 'gzip')], undefined, clientCpus)
      : undefined;
  if (followers) await message(followers, (m) => m.ready === true);
  let streamed = 0;
  const switchTo = async (on: boolean): Promise<void> => {
    if (followers) {
      const done = message<{ bytes?: number }>(followers, (m) => (on ? m.opened === c.followers : m.closed === true));
      followers.send(on ? { cmd: 'open', n: c.followers } : { cmd: 'close' });
      streamed = (await done).bytes ?? streamed;
    }
    if (c.hooks > 0) {
      const done = message(server, (m) => m.hooks === on);
      server.send({ cmd: 'hooks', on });
      await done;
    }
  };
  await sleep(2000); // warm-up: the server's code compiled, its heap grown
  const windows: Window[] = [];
  for (let i = 0; i <= 2 * pairs; i++) {
    const on = i % 2 === 1;
    await switchTo(on);
    await sleep(c.hooks > 0 ? Math.max(settleMs, 1500) : settleMs);
    const a0 = acked,
      cpu0 = await serverCpu(),
      t0 = performance.now();
    await sleep(windowMs);
    const a1 = acked,
      cpu1 = await serverCpu(),
      t1 = performance.now();
    const writes = Math.max(1, a1 - a0);
    windows.push({
      on,
      writesPerSecond: ((a1 - a0) * 1000) / (t1 - t0),
      cpuPerWrite: ((cpu1.cpuTotalMs - cpu0.cpuTotalMs) * 1000) / writes,
      systemPerWrite: ((cpu1.cpuSystemMs - cpu0.cpuSystemMs) * 1000) / writes,
    });
    console.error(
      `  ${c.name}, window ${i + 1} (${on ? 'on' : 'off'}): ${Math.round(windows[i].writesPerSecond)} writes/s, ${windows[i].cpuPerWrite.toFixed(0)} µs server CPU a write (${windows[i].systemPerWrite.toFixed(0)} of it in the kernel)`,
    );
  }
  stop = true;
  await load;
  await switchTo(false);
  const closed = new Promise((r) => server.once('exit', r));
  server.send('end');
  server.send('stop');
  await closed;
  followers?.kill('SIGKILL');
  if (followers && streamed === 0) throw new Error(`${c.name}: the followers received nothing`);
  if (receiver) {
    const got = message<{ changes: number }>(receiver, (m) => typeof m.changes === 'number');
    receiver.send({ cmd: 'stop', expect: 1 });
    if ((await got).changes === 0) throw new Error(`${c.name}: the receiver got no deliveries`);
  }
  fs.rmSync(dir, { recursive: true, force: true });
  return windows;
}

/** each "on" window against the mean of the "off" windows beside it */
function ratios(ws: Window[], of: (w: Window) => number): number[] {
  const out: number[] = [];
  for (let i = 1; i < ws.length - 1; i += 2) out.push(of(ws[i]) / ((of(ws[i - 1]) + of(ws[i + 1])) / 2));
  return out;
}

export async function paired(): Promise<void> {
  const pairs = Number(arg('pairs', '8'));
  const windowMs = Number(arg('window', '2')) * 1000;
  const settleMs = Number(arg('settle', '0.5')) * 1000;
  const writers = Number(arg('writers', '32'));
  const hooks = Number(arg('hooks', '10'));
  const configs: Config[] = [
    ...arg('followers', '1,100')
      .split(',')
      .map(Number)
      .filter((n) => n > 0)
      .map((n) => ({ name: `${n} follower${n === 1 ? '' : 's'}`, followers: n, hooks: 0 })),
    ...(hooks > 0 ? [{ name: `${hooks} webhooks`, followers: 0, hooks }] : []),
  ];
  const rows: Array<Record<string, string>> = [];
  const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
  for (const c of configs) {
    const ws = await configuration(c, pairs, windowMs, settleMs, writers);
    const rate = ratios(ws, (w) => w.writesPerSecond),
      cpu = ratios(ws, (w) => w.cpuPerWrite);
    const offRates = ws.filter((w) => !w.on).map((w) => w.writesPerSecond);
    rows.push({
      configuration: c.name,
      'writes/s off (median)': Math.round(quantileOf(offRates, 0.5)).toString(),
      'on vs off: writes/s (median)': pct(quantileOf(rate, 0.5)),
      quartiles: `${pct(quantileOf(rate, 0.25))}-${pct(quantileOf(rate, 0.75))}`,
      'each pair': rate.map((x) => (x * 100).toFixed(0)).join(' '),
      'server CPU a write, on vs off': pct(quantileOf(cpu, 0.5)),
    });
  }
  console.log(
    `calendar-engine change feed, paired windows: ${writers} writers (creating tags, fsynced store), ${pairs} pairs of ${windowMs / 1000} s windows after ${settleMs / 1000} s to settle${PIN ? ', server pinned to CPU 0' : ''}, followers' streams ${arg('sse-encoding', 'gzip')}, node ${process.version}`,
  );
  console.table(rows);
  agent.destroy();
}
