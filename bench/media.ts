// npm run bench:media [-- --photo-mb 5 --uploads 5 --events 1000 --seconds 8 --writers 2]
//
// The media library's costs, in one process with a store directory (durable writes included):
//   1. an upload of a photo of about --photo-mb MB (4000×3000 JPEG) and its four sizes: time per
//      upload (cal.media.create: checks, sharp, files written and fsynced, record journaled) and
//      the process's memory around it (RSS, and the external memory that holds image buffers);
//   2. a page of 50 events with images (GET /events?per_page=50 through cal.rest, the whole
//      answer as JSON text) against a page of 50 without, warm (rendered pieces cached) and cold
//      (the cache cleared before every answer);
//   3. list latency over HTTP (GET /events?per_page=50, one request after another) alone, and
//      while --writers clients upload the photo back to back: p50 and p99. sharp runs on libuv's
//      thread pool, so the event loop keeps answering while images are resized.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import sharp from 'sharp';
import { openCalendar } from '../src/calendar.ts';
import { startServer } from '../src/http/server.ts';
import { mulberry32, quantileOf, median } from './stats.ts';

const { values: opt } = parseArgs({
  options: {
    'photo-mb': { type: 'string', default: '5' },
    uploads: { type: 'string', default: '5' },
    events: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '8' },
    writers: { type: 'string', default: '2' },
  },
});
const UPLOADS = Number(opt.uploads),
  EVENTS = Number(opt.events),
  SECONDS = Number(opt.seconds),
  WRITERS = Number(opt.writers);
const mb = (n: number) => (n / 1024 / 1024).toFixed(1);

/** A photo-like JPEG of about `target` bytes: smooth gradients with seeded noise, at 4000×3000. */
async function photo(target: number): Promise<Buffer> {
  const w = 4000,
    h = 3000;
  const raw = Buffer.alloc(w * h * 3);
  const rnd = mulberry32(7);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 3;
      const n = (rnd() - 0.5) * 60;
      raw[i] = Math.max(0, Math.min(255, (x / w) * 200 + n));
      raw[i + 1] = Math.max(0, Math.min(255, (y / h) * 180 + n));
      raw[i + 2] = Math.max(0, Math.min(255, 120 + Math.sin(x / 90) * 60 + n));
    }
  }
  // the quality whose file is nearest the target size
  let best = Buffer.alloc(0);
  for (const quality of [60, 70, 75, 80, 85, 90, 95]) {
    const jpeg = await sharp(raw, { raw: { width: w, height: h, channels: 3 } })
      .jpeg({ quality })
      .toBuffer();
    if (Math.abs(jpeg.length - target) < Math.abs(best.length - target)) best = jpeg;
  }
  return best;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-media-'));
try {
  const data = await photo(Number(opt['photo-mb']) * 1024 * 1024);
  const cal = await openCalendar({ dir, siteUrl: 'http://127.0.0.1:1', now: () => new Date('2030-01-15T12:00:00Z') });
  console.log(
    `photo: 4000x3000 JPEG, ${mb(data.length)} MB; store ${dir}; ${os.cpus().length} cores, UV_THREADPOOL_SIZE ${process.env.UV_THREADPOOL_SIZE ?? '4 (default)'}`,
  );

  // 1. uploads
  const times: number[] = [];
  const mem0 = process.memoryUsage();
  let peakRss = mem0.rss,
    peakExternal = mem0.external;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakExternal = Math.max(peakExternal, m.external);
  }, 5);
  const ids: number[] = [];
  for (let i = 0; i < UPLOADS; i++) {
    const t = performance.now();
    const m = await cal.media.create({ data, filename: `photo-${i}.jpg` });
    times.push(performance.now() - t);
    ids.push(m.id as number);
  }
  clearInterval(sampler);
  const sizes = (await cal.media.get(ids[0])).media_details as {
    sizes: Record<string, { width: number; height: number; filesize: number }>;
  };
  console.log('\n1. upload of the photo and its sizes (cal.media.create, files fsynced, record journaled)');
  console.log(
    `   ${UPLOADS} uploads: median ${median(times).toFixed(0)} ms, min ${Math.min(...times).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms`,
  );
  console.log(
    `   sizes: ${Object.entries(sizes.sizes)
      .filter(([k]) => k !== 'full')
      .map(([k, s]) => `${k} ${s.width}x${s.height} ${(s.filesize / 1024).toFixed(0)} KB`)
      .join(', ')}`,
  );
  console.log(
    `   memory: RSS ${mb(mem0.rss)} -> peak ${mb(peakRss)} MB (+${mb(peakRss - mem0.rss)}); external ${mb(mem0.external)} -> peak ${mb(peakExternal)} MB`,
  );

  // 2. a page of 50 events with images against one without: warm in the store's calendar, cold
  // in a memory-only one without a representation cache (every answer rendered from the columns)
  const cold = await openCalendar({
    cacheBytes: 0,
    siteUrl: 'http://127.0.0.1:1',
    now: () => new Date('2030-01-15T12:00:00Z'),
  });
  const coldIds = [(await cold.media.create({ data, filename: 'cold.jpg' })).id as number];
  const make = async (c: typeof cal, imageIds: number[], n: number, image: boolean, day: string) => {
    for (let i = 0; i < n; i += 100) {
      await Promise.all(
        Array.from({ length: Math.min(100, n - i) }, (_, k) =>
          c.events.create({
            title: `Event ${i + k}`,
            start_date: `${day} 10:00:00`,
            end_date: `${day} 12:00:00`,
            status: 'publish',
            ...(image ? { image: String(imageIds[(i + k) % imageIds.length]) } : {}),
          }),
        ),
      );
    }
  };
  for (const [c, imageIds] of [
    [cal, ids],
    [cold, coldIds],
  ] as const) {
    await make(c, imageIds, EVENTS, true, '2030-02-01');
    await make(c, imageIds, EVENTS, false, '2030-03-01');
  }
  const timePage = async (c: typeof cal, day: string) => {
    const xs: number[] = [];
    let bytes = 0;
    for (let i = 0; i < 300; i++) {
      const t = performance.now();
      const r = await c.rest({
        resource: 'events',
        action: 'list',
        params: { per_page: 50, start_date: day, end_date: day },
        actor: null,
      });
      xs.push((performance.now() - t) * 1000);
      bytes = r.body.length;
    }
    return { p50: quantileOf(xs.slice(50), 0.5), p99: quantileOf(xs.slice(50), 0.99), bytes };
  };
  console.log('\n2. a page of 50 events (cal.rest list, JSON text), µs');
  for (const [name, c] of [
    ['warm', cal],
    ['cold', cold],
  ] as const) {
    const withImg = await timePage(c, '2030-02-01');
    const without = await timePage(c, '2030-03-01');
    console.log(
      `   ${name}: with images p50 ${withImg.p50.toFixed(0)} p99 ${withImg.p99.toFixed(0)} (${(withImg.bytes / 1024).toFixed(0)} KB); ` +
        `without p50 ${without.p50.toFixed(0)} p99 ${without.p99.toFixed(0)} (${(without.bytes / 1024).toFixed(0)} KB)`,
    );
  }
  await cold.close();

  // 3. list latency over HTTP, alone and while uploads run
  const { password } = cal.users.add('bench-author', 'author');
  const srv = await startServer(cal, { port: 0, log: () => {} });
  const auth = 'Basic ' + Buffer.from(`bench-author:${password}`).toString('base64');
  const listUrl = `${srv.url}/wp-json/tribe/events/v1/events?per_page=50&start_date=2030-02-01&end_date=2030-02-01`;
  /** the list latencies of `ms`, and how late the event loop ran a timer meanwhile (p99, max, ms) */
  const listFor = async (ms: number) => {
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    const xs: number[] = [];
    const end = performance.now() + ms;
    while (performance.now() < end) {
      const t = performance.now();
      const r = await fetch(listUrl);
      await r.arrayBuffer();
      xs.push(performance.now() - t);
    }
    loop.disable();
    lastLoop = `event loop delay p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms, max ${(loop.max / 1e6).toFixed(1)} ms`;
    return xs;
  };
  let lastLoop = '';
  await listFor(1000); // warm-up
  const alone = await listFor(SECONDS * 1000);
  const aloneLoop = lastLoop;
  // the uploading clients run in a process of their own: what is measured is the server's answer
  const photoFile = path.join(dir, 'photo.jpg');
  fs.writeFileSync(photoFile, data);
  const script = `
    const [url, auth, file, ms, n] = process.argv.slice(1);
    const data = require('node:fs').readFileSync(file);
    const end = Date.now() + Number(ms);
    let done = 0;
    await Promise.all(Array.from({ length: Number(n) }, async (_, w) => {
      for (let i = 0; Date.now() < end; i++) {
        const r = await fetch(url, { method: 'POST', body: data, headers: { authorization: auth, 'content-type': 'image/jpeg', 'content-disposition': 'attachment; filename="load-' + w + '-' + i + '.jpg"' } });
        if (r.status !== 201) throw new Error('upload answered ' + r.status + ': ' + await r.text());
        await r.arrayBuffer();
        done++;
      }
    }));
    console.log(done);`;
  const child = spawn(
    process.execPath,
    [
      '--input-type=commonjs',
      '-e',
      `(async () => {${script}})().catch((e) => { console.error(e); process.exit(1); })`,
      `${srv.url}/wp-json/wp/v2/media`,
      auth,
      photoFile,
      String(SECONDS * 1000 + 500),
      String(WRITERS),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let childOut = '';
  child.stdout.on('data', (c: Buffer) => (childOut += c.toString()));
  const childDone = new Promise<void>((resolve, reject) =>
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`uploaders exited ${code}`)))),
  );
  await new Promise((r) => setTimeout(r, 300)); // the first uploads are under way
  const during = await listFor(SECONDS * 1000);
  await childDone;
  const uploaded = Number(childOut.trim());
  const fmt = (xs: number[]) =>
    `p50 ${quantileOf(xs, 0.5).toFixed(2)} ms, p99 ${quantileOf(xs, 0.99).toFixed(2)} ms, max ${Math.max(...xs).toFixed(1)} ms (${xs.length} requests)`;
  console.log(`\n3. GET /events?per_page=50 (events with images) over HTTP, one after another, ${SECONDS} s each`);
  console.log(`   alone:                          ${fmt(alone)}; ${aloneLoop}`);
  console.log(`   while ${WRITERS} clients upload the photo: ${fmt(during)}; ${lastLoop}; ${uploaded} uploads done`);
  await srv.close();
  await cal.close();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
