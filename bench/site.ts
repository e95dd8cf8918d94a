// The public pages (src/site/): month, list, day and single event pages on a generated calendar.
// For each page: the server time of one render in process (SitePages.answer, the work a request
// does between routing and writing; p50 and p99 over --samples renders after a warm-up), and
// requests per second through the whole HTTP shell against a bare node:http server sending the
// same bytes and headers (bench/http.ts's floor and load generator: a child process, keep-alive).
//
//   npm run bench:site -- [--events N] [--seconds S] [--conns C] [--rounds R] [--samples K]
//
// Defaults: 100,000 events, 2 s per run, 16 connections, 1 round, 200 samples.

import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median, quantileOf } from './stats.ts';
import { capture, startFloor, type Captured } from './floor-server.ts';

const HTTP_BENCH = fileURLToPath(new URL('./http.ts', import.meta.url));

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
}

/** bench/http.ts's load generator: requests/s of one URL over `conns` keep-alive connections */
function load(url: string, seconds: number, conns: number): Promise<{ rps: number; failed: number }> {
  return new Promise((resolve, reject) => {
    const child = fork(HTTP_BENCH, ['--client', url, String(seconds), String(conns)], {
      execArgv: ['--import', 'tsx'],
    });
    child.once('message', (m) => resolve(m as { rps: number; failed: number }));
    child.once('error', reject);
    child.once('exit', (code) => code !== 0 && reject(new Error(`load generator exited with ${code}`)));
  });
}

async function main(): Promise<void> {
  const events = arg('events', 100_000);
  const seconds = arg('seconds', 2);
  const conns = arg('conns', 16);
  const rounds = arg('rounds', 1);
  const samples = arg('samples', 200);
  for (const [k, v] of Object.entries({ events, seconds, conns, rounds, samples })) {
    if (!Number.isInteger(v) || v < 1) throw new Error(`--${k} expects a positive integer, got ${v}`);
  }
  const { openCalendar } = await import('../src/calendar.ts');
  const { startServer } = await import('../src/http/server.ts');
  const { SitePages } = await import('../src/site/pages.ts');
  const { generateCalendar } = await import('./generate.ts');
  const { NOW } = await import('./queries.ts');

  const t0 = performance.now();
  const data = generateCalendar({ events, seed: 42, now: NOW });
  const cal = await openCalendar({ now: () => NOW, timezone: 'UTC' });
  await cal.import(data as never);
  const srv = await startServer(cal, { port: 0, log: (l) => console.error(l) });
  const loaded = performance.now() - t0;

  // a day of the current month with events, and an upcoming event
  const pages = new SitePages(cal, {});
  const upcoming = await cal.events.list({ per_page: 1 });
  const first = upcoming.items[0] as { slug: string; start_date: string };
  const month = NOW.toISOString().slice(0, 7);
  const day = first.start_date.slice(0, 10);
  const paths: Array<[string, string]> = [
    ['month', `/events/month/${month}/`],
    ['list', '/events/list/'],
    ['day', `/events/${day}/`],
    ['single event', `/event/${first.slug}/`],
  ];

  const answers = new Map<string, Captured>();
  for (const [, path] of paths) {
    const a = await capture(srv.url + path);
    if (a.status !== 200) throw new Error(`${path} answered ${a.status}: ${a.body.toString().slice(0, 200)}`);
    answers.set(path, a);
  }
  const floor = await startFloor(answers);

  const rows: Array<Record<string, string | number>> = [];
  for (const [name, path] of paths) {
    for (let i = 0; i < 20; i++) pages.answer(path, '', null, 'text/html');
    const ms: number[] = [];
    for (let i = 0; i < samples; i++) {
      const s = performance.now();
      pages.answer(path, '', null, 'text/html');
      ms.push(performance.now() - s);
    }
    const f: number[] = [],
      e: number[] = [];
    let errors = 0;
    for (let i = 0; i < rounds; i++) {
      const a = await load(floor.url + path, seconds, conns);
      const b = await load(srv.url + path, seconds, conns);
      f.push(a.rps);
      e.push(b.rps);
      errors += a.failed + b.failed;
    }
    rows.push({
      page: name,
      'body bytes': answers.get(path)!.body.length,
      'render p50 ms': Number(median(ms).toFixed(2)),
      'render p99 ms': Number(quantileOf(ms, 0.99).toFixed(2)),
      'floor req/s': Math.round(median(f)),
      'pages req/s': Math.round(median(e)),
      'pages/floor': `${((median(e) / median(f)) * 100).toFixed(1)}%`,
      errors,
    });
  }
  console.log(
    `calendar-engine site bench: ${events} events (generated and imported in ${(loaded / 1000).toFixed(1)} s), ${conns} keep-alive connections, ` +
      `${seconds} s per run, ${rounds} round(s), ${samples} timed renders per page; node ${process.version}`,
  );
  console.table(rows);
  await floor.close();
  await srv.close();
  await cal.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
