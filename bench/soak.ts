// Memory under real traffic: a store of N events served by `calendar-engine serve` (its own
// process, as an operator runs it), warmed up by paging once through every published event and
// then --warmup seconds of the same traffic as the measured run; then the measured run, a mixed
// load for S seconds: C keep-alive connections reading nine kinds of filtered event lists over
// the whole date range at random pages, while --writers more connections (4) create W events
// spread over the run. The server's RSS (from /proc) is sampled every second.
//
// Target: the RSS at the end is at most 1.5x the RSS after start-up and warm-up.
//
//   npm run bench:soak -- [--events N] [--seconds S] [--warmup S] [--conns C] [--creates W] [--writers K] [--cache-mb M]
//                         [--node-flags "--max-semi-space-size=8 ..."]   (flags for the server's node; its output is shown)

import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { summarize } from './stats.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PASSWORD = 'soak soak soak soak';

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i > 0 ? Number(process.argv[i + 1]) : dflt;
  if (!Number.isFinite(v) || v < 0) throw new Error(`--${name} expects a number >= 0, got ${process.argv[i + 1]}`);
  return v;
}

/** Resident set size of a process, from /proc (bytes). */
function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : Number.NaN;
}

const mb = (b: number) => `${(b / 1048576).toFixed(0)} MB`;

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function request(url: string, method = 'GET', body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers.authorization = `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}`;
    }
    const req = http.request(url, { method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function startServe(
  dir: string,
  cacheMb: number,
  nodeFlags: string[],
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [
      ...nodeFlags,
      '--import',
      'tsx',
      path.join(ROOT, 'src/cli/main.ts'),
      'serve',
      '--port',
      '0',
      '--data',
      dir,
      '--no-seed',
      '--cache-mb',
      String(cacheMb),
    ],
    {
      env: { ...process.env, CALENDAR_ADMIN_PASSWORD: PASSWORD },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/\S+?)\/wp-json/.exec(out);
      if (m) resolve(m[1]);
      if (out.length > 65536) out = out.slice(-1024);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
  return { child, url };
}

async function main(): Promise<void> {
  const events = arg('events', 100_000);
  const seconds = arg('seconds', 60);
  const conns = arg('conns', 10);
  const creates = arg('creates', 5_000);
  const cacheMb = arg('cache-mb', 64);
  const warmup = arg('warmup', 30);
  const writers = Math.max(1, arg('writers', 4));

  const { openCalendar } = await import('../src/calendar.ts');
  const { generateCalendar } = await import('./generate.ts');
  const { NOW } = await import('./queries.ts');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-soak-'));
  const data = generateCalendar({ events, seed: 7, now: NOW });
  {
    const cal = await openCalendar({ dir, timezone: 'UTC', now: () => NOW });
    await cal.import(data as never);
    await cal.close();
  }
  const catIds = data.categories.map((c) => c.id),
    tagIds = data.tags.map((t) => t.id);
  const venueIds = data.venues.map((v) => v.id),
    orgIds = data.organizers.map((o) => o.id);
  const words = ['jazz', 'market', 'festival', 'yoga', 'concert', 'art', 'talk'];

  const i = process.argv.indexOf('--node-flags');
  const nodeFlags = i > 0 ? process.argv[i + 1].split(/\s+/).filter(Boolean) : [];
  const { child, url } = await startServe(dir, cacheMb, nodeFlags);
  child.stdout!.on('data', (c: Buffer) => nodeFlags.length > 0 && process.stderr.write(c));
  const pid = child.pid!;
  const base = `${url}/wp-json/tribe/events/v1/events`;
  const whole = 'start_date=2000-01-01&end_date=2100-01-01';
  const rssStart = rssOf(pid);

  // warm-up, 1: every published event read once (a crawl)
  const t0 = Date.now();
  let page = 1,
    pages = 1;
  while (page <= pages) {
    const r = await request(`${base}?${whole}&per_page=50&page=${page}`);
    if (r.status !== 200) throw new Error(`warm-up page ${page}: ${r.status} ${r.body.slice(0, 200)}`);
    pages = (JSON.parse(r.body) as { total_pages: number }).total_pages;
    page++;
  }
  const rssCrawled = rssOf(pid);

  const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)];
  const kinds: Array<() => string> = [
    () => `${whole}`,
    () => `${whole}&categories=${pick(catIds)}`,
    () => `${whole}&tags=${pick(tagIds)}`,
    () => `${whole}&venue=${pick(venueIds)}`,
    () => `${whole}&organizer=${pick(orgIds)}`,
    () => `${whole}&featured=true`,
    () => `${whole}&search=${pick(words)}`,
    () => `${whole}&geoloc_lat=40.7&geoloc_lng=-74&geoloc_radius=50&geoloc_unit=km`,
    () => `starts_after=2024-${String(1 + Math.floor(Math.random() * 12)).padStart(2, '0')}-01&ends_before=2026-12-31`,
  ];
  /** a query's page count, learnt from its answers, so random pages stay mostly in range */
  const pagesOf = new Map<string, number>();
  let created = 0;
  /** The mixed load for `secs` seconds: `conns` readers and one writer spreading `creates` creates. */
  async function phase(secs: number, creates: number) {
    let reads = 0,
      pastEnd = 0,
      writes = 0,
      failures = 0;
    const latencies: number[] = [];
    const samples: number[] = [];
    const start = Date.now(),
      end = start + secs * 1000;
    const reader = async () => {
      while (Date.now() < end) {
        const q = pick(kinds)();
        const p = 1 + Math.floor(Math.random() * (pagesOf.get(q) ?? 1));
        const s = performance.now();
        const r = await request(`${base}?${q}&per_page=12&page=${p}`);
        latencies.push(performance.now() - s);
        if (r.status === 200) {
          reads++;
          pagesOf.set(q, Number(/"total_pages":(\d+)/.exec(r.body)?.[1] ?? 1));
        } else if (r.status === 404 && r.body.includes('event-archive-page-not-found')) {
          pastEnd++;
        } else if (failures++ === 0) {
          console.error(`first failed read: ${r.status} ${r.body.slice(0, 300)}`);
        }
      }
    };
    const writer = async (k: number) => {
      const interval = (secs * 1000) / Math.max(1, creates);
      for (let i = k; i < creates && Date.now() < end; i += writers) {
        const due = start + i * interval;
        if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
        const n = created++,
          day = 1 + (n % 28);
        const r = await request(
          base,
          'POST',
          JSON.stringify({
            title: `Soak ${n} ${pick(words)}`,
            description: `<p>created under load, ${n}</p>`,
            start_date: `2025-07-${String(day).padStart(2, '0')} 18:00:00`,
            end_date: `2025-07-${String(day).padStart(2, '0')} 20:00:00`,
            categories: [pick(catIds)],
            tags: [pick(tagIds)],
            venue: pick(venueIds),
            organizer: [pick(orgIds)],
          }),
        );
        if (r.status === 201) writes++;
        else failures++;
      }
    };
    const sampler = setInterval(() => samples.push(rssOf(pid)), 1000);
    await Promise.all([
      ...Array.from({ length: writers }, (_, k) => writer(k)),
      ...Array.from({ length: conns }, reader),
    ]);
    clearInterval(sampler);
    return { reads, pastEnd, writes, failures, latencies, samples };
  }

  // warm-up, 2: the same traffic as the measured run, for --warmup seconds (the cache keeps an
  // event from its second read on: a crawl alone leaves it nearly empty)
  await phase(warmup, Math.round((creates * warmup) / Math.max(1, seconds)));
  const warmSeconds = (Date.now() - t0) / 1000;
  const rssWarm = rssOf(pid);
  const { reads, pastEnd, writes, failures, latencies, samples } = await phase(seconds, creates);
  const rssEnd = rssOf(pid);

  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  agent.destroy();
  fs.rmSync(dir, { recursive: true, force: true });

  const ratio = rssEnd / rssWarm;
  const lat = summarize(latencies);
  console.log(
    `calendar-engine soak: ${events} events, serve --cache-mb ${cacheMb}, ${conns} readers + ${writers} writers for ${seconds} s ` +
      `after a crawl and ${warmup} s of warm-up, node ${process.version}`,
  );
  console.table([
    {
      'rss start': mb(rssStart),
      'rss crawled': mb(rssCrawled),
      'rss warm': mb(rssWarm),
      'rss max': mb(Math.max(...samples, rssEnd)),
      'rss end': mb(rssEnd),
      'end/warm': ratio.toFixed(2),
      'warm-up s': warmSeconds.toFixed(1),
      'reads/s': Math.round(reads / seconds),
      'read p50 ms': lat.median.toFixed(1),
      'read p99 ms': lat.p99.toFixed(1),
      creates: writes,
      'past end': pastEnd,
      failures,
    },
  ]);
  console.log(
    `rss every 5 s (MB): ${samples
      .filter((_, i) => i % 5 === 4)
      .map((b) => Math.round(b / 1048576))
      .join(' ')}`,
  );
  console.log(
    `target: rss end <= 1.5x rss after start-up and warm-up: ${ratio <= 1.5 ? 'met' : 'NOT met'} (${ratio.toFixed(2)}x)`,
  );
  if (failures > 0) console.log(`${failures} requests failed`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
