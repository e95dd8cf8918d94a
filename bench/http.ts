// HTTP throughput: requests per second of three list queries through the whole shell
// (node:http → itty → calendar → writeHead + end) against a bare node:http server that answers
// the very same bytes and headers (the floor, polka's bench/native.js), measured in the same run.
// The load comes from a child process (keep-alive, CONNS concurrent connections) so the load
// generator does not share the server's event loop.
//
// Floor and engine runs alternate --rounds times per query (floor first in odd rounds, engine
// first in even ones). Each round's engine rate is divided by its floor's, measured right next to
// it, and the median of those ratios is reported: a burst of other work on the machine then
// skews one round's pair, not the comparison of two medians taken in different minutes.
//
//   npm run bench:http -- [--events N] [--seconds S] [--conns C] [--rounds R]

import http from 'node:http';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median } from './stats.ts';
import { capture, startFloor, type Captured } from './floor-server.ts';

const SELF = fileURLToPath(import.meta.url);

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
}

// ---------------------------------------------------------------- load generator (child)

async function runClient(): Promise<void> {
  const [url, secondsText, connsText] = process.argv.slice(3);
  const seconds = Number(secondsText);
  const conns = Number(connsText);
  const agent = new http.Agent({ keepAlive: true, maxSockets: conns });
  let done = 0;
  let failed = 0;
  let bytes = 0;
  let measuring = false;
  let stop = false;
  const one = (): Promise<void> =>
    new Promise((resolve) => {
      const req = http.get(url, { agent }, (res) => {
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () => {
          if (measuring) {
            if (res.statusCode === 200) done++;
            else failed++;
          }
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
  const loops = Array.from({ length: conns }, loop);
  await new Promise((r) => setTimeout(r, 500)); // warm-up
  measuring = true;
  const t0 = process.hrtime.bigint();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  measuring = false;
  const elapsed = Number(process.hrtime.bigint() - t0) / 1e9;
  stop = true;
  await Promise.all(loops);
  agent.destroy();
  process.send!({ rps: done / elapsed, failed, bytes });
}

function load(url: string, seconds: number, conns: number): Promise<{ rps: number; failed: number }> {
  return new Promise((resolve, reject) => {
    const child = fork(SELF, ['--client', url, String(seconds), String(conns)], { execArgv: ['--import', 'tsx'] });
    child.once('message', (m) => resolve(m as { rps: number; failed: number }));
    child.once('error', reject);
    child.once('exit', (code) => code !== 0 && reject(new Error(`load generator exited with ${code}`)));
  });
}

async function main(): Promise<void> {
  const events = arg('events', 20_000);
  const seconds = arg('seconds', 3);
  const conns = arg('conns', 32);
  const rounds = arg('rounds', 5);
  for (const [k, v] of Object.entries({ events, seconds, conns, rounds })) {
    if (!Number.isInteger(v) || v < 1) throw new Error(`--${k} expects a positive integer, got ${v}`);
  }

  const { openCalendar } = await import('../src/calendar.ts');
  const { startServer } = await import('../src/http/server.ts');
  const { generateCalendar } = await import('./generate.ts');
  const { NOW } = await import('./queries.ts');

  const data = generateCalendar({ events, seed: 42, now: NOW });
  const cal = await openCalendar({ now: () => NOW, timezone: 'UTC' });
  await cal.import(data as never);
  const srv = await startServer(cal, { port: 0, log: (l) => console.error(l) });

  const cat = data.categories[0];
  const queries: Array<[string, string]> = [
    ['events, default window (page 1)', '/wp-json/tribe/events/v1/events'],
    [
      `events, category + per_page=20 (page 2)`,
      `/wp-json/tribe/events/v1/events?categories=${cat.id}&per_page=20&page=2&start_date=2024-01-01`,
    ],
    ['venues, per_page=50', '/wp-json/tribe/events/v1/venues?per_page=50'],
  ];

  const answers = new Map<string, Captured>();
  for (const [, path] of queries) {
    const a = await capture(srv.url + path);
    if (a.status !== 200) throw new Error(`${path} answered ${a.status}: ${a.body.toString().slice(0, 200)}`);
    answers.set(path, a);
  }
  const floor = await startFloor(answers);

  // The calendar alone (no HTTP): µs of cal.rest() for the same query (the median of batches of
  // 50 calls over at least a second), so the table shows how much of the gap to the floor is the
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
    const until = performance.now() + 1000;
    while (performance.now() < until || batches.length < 5) {
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < 50; i++) await run();
      batches.push(Number(process.hrtime.bigint() - t0) / 1e3 / 50);
    }
    return median(batches);
  };

  const rows: Array<Record<string, string | number>> = [];
  for (const [name, path] of queries) {
    const us = await calendarUs(path);
    const f: number[] = [],
      e: number[] = [];
    let errors = 0;
    for (let i = 0; i < rounds; i++) {
      const floorFirst = i % 2 === 0;
      const a = floorFirst ? await load(floor.url + path, seconds, conns) : undefined;
      const b = await load(srv.url + path, seconds, conns);
      const fa = a ?? (await load(floor.url + path, seconds, conns));
      f.push(fa.rps);
      e.push(b.rps);
      errors += fa.failed + b.failed;
    }
    const fm = median(f),
      em = median(e);
    const ratios = e.map((x, i) => x / f[i]);
    rows.push({
      query: name,
      'body bytes': answers.get(path)!.body.length,
      'floor req/s': Math.round(fm),
      'engine req/s': Math.round(em),
      'engine/floor': `${(median(ratios) * 100).toFixed(0)}%`,
      'per round': ratios.map((r) => `${(r * 100).toFixed(0)}`).join(' '),
      'cal.rest() µs': Math.round(us),
      errors,
    });
  }
  console.log(
    `calendar-engine HTTP bench: ${events} events, ${conns} keep-alive connections, ${seconds} s per run, ` +
      `${rounds} rounds (floor and engine next to each other, in alternating order); engine/floor is the median of the rounds' ratios; node ${process.version}`,
  );
  console.table(rows);

  await floor.close();
  await srv.close();
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
