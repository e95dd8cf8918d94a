// HTTP throughput: requests per second of the whole list query mix (bench/queries.ts: date
// windows, categories, tags, venue, organizer, geo, search, featured, deep page…, plus a category
// page 2 and a venue list) through the whole shell (node:http → router → calendar → writeHead +
// end) against a bare node:http server that answers the very same bytes and headers (the floor,
// polka's bench/native.js), measured in the same run. The load comes from a child process
// (keep-alive, CONNS concurrent connections) so the load generator does not share the server's
// event loop; it times every request, for the p50/p99 latencies. Each connection is a
// TimingClient (bench/http-client.ts), which reads every answer into one reused buffer:
// `--node-client` uses node:http's client instead, which caps both servers at the client's own
// speed here (15-18 thousand answers of 40 KB a second on this 2-core machine, its collections for
// the buffers of each read included), so that the engine looked as fast as the floor.
//
// Floor and engine runs alternate --rounds times per query (floor first in odd rounds, engine
// first in even ones). Each round's engine rate is divided by its floor's, measured right next to
// it, and the median of those ratios is reported: a burst of other work on the machine then
// skews one round's pair, not the comparison of two medians taken in different minutes. The load
// average is printed with the table.
//
//   npm run bench:http -- [--events N] [--seconds S] [--conns C] [--rounds R] [--only a,b]
//                         [--engine-only] [--before DIR] [--node-client]
// --only: the queries whose names are given (the mix's names, `category-p2`, `venues`);
// --engine-only: no floor runs (for a CPU profile of the server alone: node --cpu-prof);
// --before DIR: a second engine served from DIR/src (another checkout's sources, e.g. from
// `git archive`, with a node_modules reachable from it), measured in the same rounds as a third
// server, so a change's before and after come from one run.

import http from 'node:http';
import os from 'node:os';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median, quantileOf } from './stats.ts';
import { capture, startFloor, type Captured } from './floor-server.ts';
import { TimingClient } from './http-client.ts';

const SELF = fileURLToPath(import.meta.url);

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
}

function textArg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

interface RunResult {
  rps: number;
  failed: number;
  /** latency quantiles of the measured requests, ms */
  p50: number;
  p99: number;
}

// ---------------------------------------------------------------- load generator (child)

async function runClient(): Promise<void> {
  const [url, secondsText, connsText, kind] = process.argv.slice(3);
  const seconds = Number(secondsText);
  const conns = Number(connsText);
  const agent = new http.Agent({ keepAlive: true, maxSockets: conns });
  let done = 0;
  let failed = 0;
  let measuring = false;
  let stop = false;
  const latencies: number[] = [];
  /** an answer that came while measuring: a 200 timed, anything else a failure */
  const count = (status: number | undefined, ms: number) => {
    if (!measuring) return;
    if (status === 200) {
      done++;
      latencies.push(ms);
    } else failed++;
  };
  const one = (): Promise<void> =>
    new Promise((resolve) => {
      const t0 = performance.now();
      const req = http.get(url, { agent }, (res) => {
        res.on('data', () => {});
        res.on('end', () => {
          count(res.statusCode, performance.now() - t0);
          resolve();
        });
      });
      req.on('error', () => {
        failed++;
        resolve();
      });
    });
  const loop = async () => {
    while (!stop) await one();
  };
  const lean = async () => {
    const u = new URL(url);
    const client = TimingClient.of(u.origin);
    while (!stop) {
      try {
        const r = await client.get(u.pathname + u.search);
        count(r.status, r.ms);
      } catch {
        // a dropped connection counts as a failure; the next get connects again
        if (measuring) failed++;
      }
    }
    client.close();
  };
  const loops = Array.from({ length: conns }, kind === 'node' ? loop : lean);
  await new Promise((r) => setTimeout(r, 500)); // warm-up
  measuring = true;
  const t0 = process.hrtime.bigint();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  measuring = false;
  const elapsed = Number(process.hrtime.bigint() - t0) / 1e9;
  stop = true;
  await Promise.all(loops);
  agent.destroy();
  const result: RunResult = {
    rps: done / elapsed,
    failed,
    p50: quantileOf(latencies, 0.5),
    p99: quantileOf(latencies, 0.99),
  };
  process.send!(result);
}

function load(url: string, seconds: number, conns: number): Promise<RunResult> {
  const kind = process.argv.includes('--node-client') ? 'node' : 'lean';
  return new Promise((resolve, reject) => {
    const child = fork(SELF, ['--client', url, String(seconds), String(conns), kind], {
      execArgv: ['--import', 'tsx'],
    });
    child.once('message', (m) => resolve(m as RunResult));
    child.once('error', reject);
    child.once('exit', (code) => code !== 0 && reject(new Error(`load generator exited with ${code}`)));
  });
}

const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '-');

async function main(): Promise<void> {
  const events = arg('events', 20_000);
  const seconds = arg('seconds', 2);
  const conns = arg('conns', 10);
  const rounds = arg('rounds', 3);
  const only = textArg('only')?.split(',');
  const engineOnly = process.argv.includes('--engine-only');
  for (const [k, v] of Object.entries({ events, seconds, conns, rounds })) {
    if (!Number.isInteger(v) || v < 1) throw new Error(`--${k} expects a positive integer, got ${v}`);
  }

  const { openCalendar } = await import('../src/calendar.ts');
  const { startServer } = await import('../src/http/server.ts');
  const { generateCalendar } = await import('./generate.ts');
  const { NOW, buildQueries } = await import('./queries.ts');

  const data = generateCalendar({ events, seed: 42, now: NOW });
  const cal = await openCalendar({ now: () => NOW, timezone: 'UTC' });
  await cal.import(data as never);
  const srv = await startServer(cal, { port: 0, log: (l) => console.error(l) });
  const beforeDir = textArg('before');
  let before: { url: string; close(): Promise<void>; cal: { close(): Promise<void> } } | undefined;
  if (beforeDir !== undefined) {
    const root = new URL(`file://${beforeDir.replace(/\/*$/, '/')}`);
    const open = (await import(new URL('src/calendar.ts', root).href)) as typeof import('../src/calendar.ts');
    const serve = (await import(new URL('src/http/server.ts', root).href)) as typeof import('../src/http/server.ts');
    const bcal = await open.openCalendar({ now: () => NOW, timezone: 'UTC' });
    await bcal.import(data as never);
    const bsrv = await serve.startServer(bcal, { port: 0, log: (l) => console.error(l) });
    before = { url: bsrv.url, close: bsrv.close, cal: bcal };
  }

  // the mix's anonymous queries (an editor's needs a login: its path is the same shell's)
  const EVENTS = '/wp-json/tribe/events/v1/events';
  const cat = data.categories[0];
  const queries: Array<[string, string]> = buildQueries(data, 42)
    .filter((q) => q.actor === null)
    .map((q) => {
      const query = new URLSearchParams(q.params).toString();
      return [q.name, query === '' ? EVENTS : `${EVENTS}?${query}`] as [string, string];
    });
  queries.push(
    ['category-p2', `${EVENTS}?categories=${cat.id}&per_page=20&page=2&start_date=2024-01-01`],
    ['venues', '/wp-json/tribe/events/v1/venues?per_page=50'],
  );
  const chosen = only === undefined ? queries : queries.filter(([name]) => only.includes(name));
  if (chosen.length === 0) throw new Error(`--only: no query named ${only?.join(', ')}`);

  const answers = new Map<string, Captured>();
  for (const [, path] of chosen) {
    const a = await capture(srv.url + path);
    if (a.status !== 200) throw new Error(`${path} answered ${a.status}: ${a.body.toString().slice(0, 200)}`);
    answers.set(path, a);
    if (before !== undefined) {
      const b = await capture(before.url + path);
      if (!b.body.equals(a.body)) throw new Error(`${path}: the --before server answers other bytes`);
    }
  }
  const floor = await startFloor(answers);
  // The calendar alone (no HTTP): µs of cal.rest() for the same query (the median of batches of
  // 50 calls over at least half a second), so the table shows how much of the gap to the floor is the
  // list itself and how much the shell. Batches, not one mean: the first calls right after the
  // import are several times slower (the mean of the first 600 gave 144 µs for the category page,
  // settled batches 40 µs), and a single mean counted that start.
  const { parseUrlEncoded, finishParams } = await import('../src/http/body.ts');
  const calendarUs = async (path: string): Promise<number> => {
    const [p, q = ''] = path.split('?');
    const resource = p.split('/').pop() as 'events' | 'venues';
    const run = () =>
      cal.rest({
        resource,
        action: 'list',
        params: finishParams(parseUrlEncoded(q)) as Record<string, unknown>,
        actor: null,
      });
    for (let i = 0; i < 100; i++) await run();
    const batches: number[] = [];
    const until = performance.now() + 500;
    while (performance.now() < until || batches.length < 5) {
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < 50; i++) await run();
      batches.push(Number(process.hrtime.bigint() - t0) / 1e3 / 50);
    }
    return median(batches);
  };

  const rows: Array<Record<string, string | number>> = [];
  const loads: number[] = [];
  for (const [name, path] of chosen) {
    const us = await calendarUs(path);
    const f: RunResult[] = [],
      e: RunResult[] = [],
      b: RunResult[] = [];
    let errors = 0;
    for (let i = 0; i < rounds; i++) {
      loads.push(os.loadavg()[0]);
      // floor, engine[, before] in odd rounds; the reverse in even ones
      const order: Array<[string, RunResult[]]> = [];
      if (!engineOnly) order.push([floor.url, f]);
      order.push([srv.url, e]);
      if (before !== undefined) order.push([before.url, b]);
      if (i % 2 === 1) order.reverse();
      for (const [url, into] of order) {
        const r = await load(url + path, seconds, conns);
        into.push(r);
        errors += r.failed;
      }
    }
    const ratios = e.map((x, i) => (f[i] ? x.rps / f[i].rps : Number.NaN));
    const med = (rs: RunResult[], k: keyof RunResult) => (rs.length ? median(rs.map((r) => r[k])) : Number.NaN);
    rows.push({
      query: name,
      'body bytes': answers.get(path)!.body.length,
      'floor req/s': Math.round(med(f, 'rps')) || '-',
      'engine req/s': Math.round(med(e, 'rps')),
      'engine/floor': engineOnly ? '-' : `${(median(ratios) * 100).toFixed(0)}%`,
      'per round': engineOnly ? '-' : ratios.map((r) => `${(r * 100).toFixed(0)}`).join(' '),
      'floor p50/p99 ms': `${ms(med(f, 'p50'))}/${ms(med(f, 'p99'))}`,
      'engine p50/p99 ms': `${ms(med(e, 'p50'))}/${ms(med(e, 'p99'))}`,
      ...(before === undefined
        ? {}
        : {
            'before/floor': engineOnly ? '-' : `${(median(b.map((x, i) => x.rps / f[i].rps)) * 100).toFixed(0)}%`,
            'before p50/p99 ms': `${ms(med(b, 'p50'))}/${ms(med(b, 'p99'))}`,
          }),
      'cal.rest() µs': Math.round(us),
      errors,
    });
  }
  console.log(
    `calendar-engine HTTP bench: ${events} events, ${conns} keep-alive connections ` +
      `(${process.argv.includes('--node-client') ? "node:http's client" : 'bench/http-client.ts'}), ${seconds} s per run, ` +
      `${rounds} rounds (floor and engine next to each other, in alternating order); engine/floor is the ` +
      `median of the rounds' ratios, p50/p99 the medians of the rounds' request latencies; node ${process.version}; ` +
      `load average (1 min) during the runs: median ${median(loads).toFixed(2)}, ` +
      `${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)} on ${os.cpus().length} cores`,
  );
  console.table(rows);
  if (!engineOnly) {
    const all = rows.map((r) => Number.parseFloat(String(r['engine/floor'])));
    console.log(`lowest engine/floor: ${Math.min(...all)}% (${rows[all.indexOf(Math.min(...all))].query})`);
  }

  await floor.close();
  await srv.close();
  if (before !== undefined) {
    await before.close();
    await before.cal.close();
  }
  await cal.close();
}

if (process.argv[2] === '--client') {
  runClient().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
} else {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
