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
//   npm run bench:changes -- [--seconds S] [--warmup S] [--writers W] [--followers 0,1,100] [--hooks 10]
//                            [--rate R] [--lag-followers 1,100] [--repeat N] [--quiet C] [--sse-encoding gzip|identity]
//                            [--cpu-prof DIR]
//                            [--pin]
// (--hooks 0: no webhook configuration; --rate 0: no paced rounds; --cpu-prof: the server's CPU
// profiles, one per round, into DIR; --pin: the server on CPU 0, every other process on the others)
//   npm run bench:changes -- --paired ...   one server per configuration, followers or webhooks
//                                           switched on and off in alternating windows (bench/changes-paired.ts)
//
// Every round starts a fresh server and runs the same writes: `--warmup` seconds (default 1) that
// are not counted, then `--seconds` that are. The configurations run in turn, `--repeat` times,
// in alternating order (forward, then backward), so that neither a slow spell of the shared
// machine nor a configuration's place in the sequence favours one of them; each configuration is
// reported by the median of its rounds, and "vs first" is the median over repeats of its rate
// divided by the first configuration's rate in the same repeat. Other processes' CPU is measured
// during each round (/proc/stat); with --quiet C, a round during which they used more than C
// cores is run again (up to 3 tries), and one still not quiet is shown (marked *) but left out of
// the medians and ratios.
//
// Every follower must receive every event: the one that parses its stream counts the
// acknowledged writes whose event it never saw ("missed"), and each of the others, which only
// count the bytes they receive, must have received exactly as many bytes as it (the streams are
// byte for byte the same); the round waits for the last events before it ends.
//
// The followers ask for gzip, as browsers' EventSource does (--sse-encoding identity: they do not);
// the one that parses the stream decompresses it.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median, summarize } from './stats.ts';
import {
  CLIENT_CPUS,
  PIN,
  SERVER_CPU,
  agent,
  arg,
  child,
  createTag,
  machineBusy,
  message,
  pin,
} from './changes-roles.ts';

interface Round {
  cpu: { server: number; followers: number; writers: number };
  elapsed: number;
  writesPerSecond: number;
  lag: ReturnType<typeof summarize> | undefined;
  lagMax: number;
  /** cores used by other processes during the measured part (the machine's busy time less this
   *  round's processes'); NaN where unknown */
  others: number;
  missed: number;
  short: number;
  events: number;
  writes: number;
  delivered: number;
}

async function round(
  followers: number,
  seconds: number,
  warmup: number,
  writers: number,
  rate: number | undefined,
  hooks = 0,
): Promise<Round> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-bench-changes-'));
  const receiver = hooks > 0 ? child(['--as-receiver'], undefined, PIN ? CLIENT_CPUS : undefined) : undefined;
  const hookUrl = receiver ? (await message<{ url: string }>(receiver, (m) => typeof m.url === 'string')).url : '';
  const server = child(
    ['--as-server', dir, hookUrl, String(hooks)],
    arg('cpu-prof', '') || undefined,
    PIN ? SERVER_CPU : undefined,
  );
  const { url } = await message<{ url: string }>(server, (m) => typeof m.url === 'string');
  const fl = child(
    ['--as-followers', url, String(followers), arg('sse-encoding', 'gzip')],
    undefined,
    PIN ? CLIENT_CPUS : undefined,
  );
  await message(fl, (m) => m.ready === true);
  /** the writes acknowledged in the measured part */
  const acks: Array<{ id: number; at: number }> = [];
  let made = 0; // warm-up included
  const t0 = Date.now();
  const from = t0 + warmup * 1000,
    end = from + seconds * 1000;
  let cpu0 = process.cpuUsage();
  let busy0: number | undefined;
  const marked = new Promise<void>((resolve) =>
    setTimeout(() => {
      for (const c of [server, fl, receiver]) c?.send(c === server ? 'mark' : { cmd: 'mark' });
      cpu0 = process.cpuUsage();
      busy0 = machineBusy();
      resolve();
    }, from - t0),
  );
  const interval = rate ? (1000 * writers) / rate : 0;
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      let next = t0 + (interval * w) / writers;
      while (Date.now() < end) {
        if (interval > 0) {
          const wait = next - Date.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
          next += interval;
        }
        const sent = Date.now();
        const ack = await createTag(url);
        made++;
        if (sent >= from && sent < end) acks.push(ack);
      }
    }),
  );
  await marked;
  const elapsed = seconds;
  const writersCpu = process.cpuUsage(cpu0);
  const busy1 = machineBusy();
  server.send('end');
  fl.send({ cmd: 'stop', ids: acks.map((a) => a.id) });
  const {
    arrivals,
    events,
    short,
    cpuMs: followersCpuMs,
  } = await message<{ arrivals: Array<[number, number]>; events: number; short: number; cpuMs: number }>(fl, (m) =>
    Array.isArray(m.arrivals),
  );
  let delivered = 0,
    receiverCpuMs = 0;
  if (receiver) {
    // every write of the round, warm-up included, goes to every webhook
    receiver.send({ cmd: 'stop', expect: made * hooks });
    ({ changes: delivered, cpuMs: receiverCpuMs } = await message<{ changes: number; cpuMs: number }>(
      receiver,
      (m) => typeof m.changes === 'number',
    ));
    delivered -= (made - acks.length) * hooks;
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
  const cpu = {
    server: serverCpuMs,
    followers: followersCpuMs + receiverCpuMs,
    writers: (writersCpu.user + writersCpu.system) / 1000,
  };
  // (the children's times are taken a little after the end, in the order of the stop messages:
  // close enough for telling a quiet machine from a busy one)
  const others =
    busy0 === undefined || busy1 === undefined
      ? NaN
      : (busy1 - busy0 - (cpu.server + cpu.followers + cpu.writers) / 1000) / elapsed;
  return {
    cpu,
    elapsed,
    writesPerSecond: acks.length / elapsed,
    lag: followers > 0 ? summarize(lags) : undefined,
    lagMax: lags.reduce((m, x) => Math.max(m, x), 0),
    others,
    missed: followers > 0 ? acks.length - lags.length : 0,
    short,
    events,
    writes: acks.length,
    delivered,
  };
}

/** --quiet C (default 0.25): a round during which other processes used more than C cores on
 *  average is run again, up to 3 times in all (the last try is kept whatever it measured), and
 *  each try first waits (up to 20 s) for a second in which they use less than that; 0: no checks.
 *  The rule is the same for every configuration. */
const quiet = Number(arg('quiet', '0.25'));

async function othersNow(ms: number): Promise<number> {
  const b0 = machineBusy(),
    c0 = process.cpuUsage();
  await new Promise((r) => setTimeout(r, ms));
  const b1 = machineBusy(),
    c = process.cpuUsage(c0);
  return b0 === undefined || b1 === undefined ? 0 : (b1 - b0 - (c.user + c.system) / 1e6) / (ms / 1000);
}

async function quietRound(run: () => Promise<Round>, name: string): Promise<Round & { tries: number }> {
  for (let tries = 1; ; tries++) {
    if (quiet > 0) for (const until = Date.now() + 20_000; Date.now() < until && (await othersNow(1000)) > quiet; );
    const res = await run();
    const again = quiet > 0 && res.others > quiet && tries < 3;
    console.error(
      `  ${name}: ${Math.round(res.writesPerSecond)} writes/s, server ${(res.cpu.server / 1000 / res.elapsed).toFixed(2)} cores, other processes ${res.others.toFixed(2)} cores${again ? ': again' : ''}`,
    );
    if (!again) return { ...res, tries };
  }
}

async function main(): Promise<void> {
  if (PIN) pin(process.pid, CLIENT_CPUS);
  if (process.argv.includes('--paired')) return (await import('./changes-paired.ts')).paired();
  const seconds = Number(arg('seconds', '5'));
  const warmup = Number(arg('warmup', '1'));
  const writers = Number(arg('writers', '32'));
  const counts = arg('followers', '0,1,100').split(',').map(Number);
  const rate = Number(arg('rate', '1000'));
  const lagCounts = arg('lag-followers', '1,100')
    .split(',')
    .map(Number)
    .filter((n) => n > 0); // lag needs followers
  const repeat = Number(arg('repeat', '3'));
  const hooks = Number(arg('hooks', '10'));
  const configs = [
    ...counts.map((n) => ({ name: String(n), followers: n, hooks: 0 })),
    ...(hooks > 0 ? [{ name: `0 + ${hooks} webhooks`, followers: 0, hooks }] : []),
  ];
  const results = new Map<string, Round[]>(configs.map((c) => [c.name, []]));
  let redone = 0,
    unquiet = 0;
  for (let r = 0; r < repeat; r++) {
    // forward, then backward: each configuration's place in the sequence changes from repeat to repeat
    for (const c of r % 2 === 0 ? configs : [...configs].reverse()) {
      const res = await quietRound(
        () => round(c.followers, seconds, warmup, writers, undefined, c.hooks),
        `round ${r + 1}, ${c.name}`,
      );
      results.get(c.name)!.push(res);
      if (res.tries > 1) redone += res.tries - 1;
      if (res.others > quiet) unquiet++;
    }
  }
  // the server's own CPU per acknowledged write (what more cores or other machines for the
  // clients would not change), and the cores each side used: on 2 shared cores the followers'
  // and writers' processes take CPU the server would otherwise have
  const perWrite = (r: Round) => (r.cpu.server * 1000) / r.writes;
  // the statistics are of the quiet rounds (all of them with --quiet 0); a repeat's ratio needs
  // both of its rounds quiet
  const isQuiet = (r: Round) => !(quiet > 0 && r.others > quiet);
  const kept = (rs: Round[]) => (rs.some(isQuiet) ? rs.filter(isQuiet) : rs);
  const first = results.get(configs[0].name)!;
  const baseCpu = median(kept(first).map(perWrite));
  const rows: Array<Record<string, string | number>> = [];
  for (const c of configs) {
    const all = results.get(c.name)!,
      rs = kept(all);
    const ratios = all.map((r, i) =>
      isQuiet(r) && isQuiet(first[i]) ? r.writesPerSecond / first[i].writesPerSecond : NaN,
    );
    const lagged = rs.filter((r) => r.lag !== undefined);
    rows.push({
      followers: c.name,
      'writes/s': Math.round(median(rs.map((r) => r.writesPerSecond))),
      'vs first': `${(median(ratios.filter((x) => !Number.isNaN(x))) * 100).toFixed(0)}%`,
      'each repeat': ratios.map((x) => (Number.isNaN(x) ? '-' : `${(x * 100).toFixed(0)}`)).join(' '),
      'each round': all.map((r) => `${Math.round(r.writesPerSecond)}${isQuiet(r) ? '' : '*'}`).join(' '),
      'server µs/write': median(rs.map(perWrite)).toFixed(0),
      'vs first ': `${((median(rs.map(perWrite)) / baseCpu) * 100).toFixed(0)}%`,
      'cores: server': median(rs.map((r) => r.cpu.server / 1000 / r.elapsed)).toFixed(2),
      writers: median(rs.map((r) => r.cpu.writers / 1000 / r.elapsed)).toFixed(2),
      'followers/receiver': median(rs.map((r) => r.cpu.followers / 1000 / r.elapsed)).toFixed(2),
      'other processes': median(rs.map((r) => r.others)).toFixed(2),
      'lag p50 ms': lagged.length ? median(lagged.map((r) => r.lag!.median)).toFixed(1) : '-',
      'lag p99 ms': lagged.length ? median(lagged.map((r) => r.lag!.p99)).toFixed(1) : '-',
      missed:
        c.hooks > 0
          ? `${rs.reduce((n, r) => n + r.writes * c.hooks - r.delivered, 0)} undelivered`
          : `${rs.reduce((n, r) => n + r.missed, 0)} events, ${rs.reduce((n, r) => n + r.short, 0)} short streams`,
    });
  }
  console.log(
    `calendar-engine change feed: ${writers} writers (creating tags, fsynced store), ${warmup} s warm-up + ${seconds} s a round, ${repeat} repeats in alternating order (medians), followers' streams ${arg('sse-encoding', 'gzip')}, node ${process.version}`,
  );
  if (quiet > 0)
    console.log(
      `rounds run again because other processes used more than ${quiet} cores: ${redone}; rounds that were not quiet by the third try (marked *, left out of the medians and ratios): ${unquiet}`,
    );
  console.table(rows);
  if (rate > 0) {
    for (const n of lagCounts) {
      const paced = await quietRound(() => round(n, seconds, warmup, writers, rate), `paced, ${n} followers`);
      console.log(
        `at ${rate} writes/s asked (${Math.round(paced.writesPerSecond)} made), ${n} follower${n === 1 ? '' : 's'}: lag p50 ${paced.lag!.median.toFixed(1)} ms, p99 ${paced.lag!.p99.toFixed(1)} ms, max ${paced.lagMax.toFixed(1)} ms; ${paced.missed} missed events, ${paced.short} short streams`,
      );
    }
  }
  agent.destroy();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
