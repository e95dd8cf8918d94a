// npm run bench:media-carry [-- --uploads 20 --cluster-uploads 10]
//
// What carrying the media library costs:
//   1. export and import: --uploads photos (1600×1200 JPEG, their four sizes) exported with
//      cal.exportTo to a JSON Lines file (time, file size against the files' bytes) and that file
//      imported into a calendar on a store directory (time: base64 decoded, checks, files written
//      and fsynced, snapshot), and the peak RSS of the import;
//   2. a cluster (when nats-server is installed: 3 servers on loopback, two calendar nodes in this
//      process): an upload through the writer and through a follower (staged in the object store,
//      forwarded, made on the writer, applied by the follower), median and worst of
//      --cluster-uploads each; a file served by a node cold (fetched from the object store) and warm
//      (from its memory).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { handleOf, openCalendar, type Calendar } from '../src/calendar.ts';
import { startServer } from '../src/http/server.ts';
import { natsServerPath, startNatsCluster } from '../test/helpers/nats-cluster.ts';
import { median, mulberry32 } from './stats.ts';

const { values: opt } = parseArgs({
  options: {
    uploads: { type: 'string', default: '20' },
    'cluster-uploads': { type: 'string', default: '10' },
  },
});
const UPLOADS = Number(opt.uploads);
const CLUSTER_UPLOADS = Number(opt['cluster-uploads']);
const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
const ms = (n: number) => `${n.toFixed(0)} ms`;

/** A photo-like JPEG (gradients with seeded noise), different for each seed. */
async function photo(seed: number): Promise<Buffer> {
  const w = 1600,
    h = 1200;
  const raw = Buffer.alloc(w * h * 3);
  const rnd = mulberry32(seed);
  for (let i = 0; i < raw.length; i += 3) {
    const x = (i / 3) % w,
      y = Math.floor(i / 3 / w);
    const n = (rnd() - 0.5) * 50;
    raw[i] = Math.max(0, Math.min(255, (x / w) * 200 + n));
    raw[i + 1] = Math.max(0, Math.min(255, (y / h) * 180 + n));
    raw[i + 2] = Math.max(0, Math.min(255, 120 + Math.sin(x / 90 + seed) * 60 + n));
  }
  return sharp(raw, { raw: { width: w, height: h, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-media-carry-'));
try {
  console.log(`${os.cpus().length} cores; ${UPLOADS} uploads of a 1600x1200 JPEG`);
  // ---- 1. export and import ----------------------------------------------------------------
  const src = await openCalendar({ dir: path.join(work, 'src'), siteUrl: 'http://127.0.0.1:1' });
  let bytes = 0;
  for (let i = 0; i < UPLOADS; i++) {
    const item = await src.media.create({ data: await photo(i + 1), filename: `photo-${i}.jpg` });
    bytes += (item.media_details as { filesize: number }).filesize;
    const sizes = (item.media_details as { sizes: Record<string, { filesize?: number }> }).sizes;
    for (const [name, s] of Object.entries(sizes)) if (name !== 'full') bytes += s.filesize ?? 0;
  }
  const file = path.join(work, 'export.jsonl');
  let t0 = performance.now();
  const out = fs.createWriteStream(file);
  await src.exportTo(out, 'jsonl');
  await new Promise<void>((resolve) => out.end(() => resolve()));
  const exportMs = performance.now() - t0;
  await src.close();
  const size = fs.statSync(file).size;
  const rss0 = process.memoryUsage().rss;
  let peak = rss0;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const dst = await openCalendar({ dir: path.join(work, 'dst'), siteUrl: 'http://127.0.0.1:1' });
  t0 = performance.now();
  const summary = await dst.importFile(file);
  const importMs = performance.now() - t0;
  clearInterval(sampler);
  await dst.close();
  console.log(
    `export: ${ms(exportMs)} for ${summary.media} uploads, ${mb(size)} MB of JSON Lines for ${mb(bytes)} MB of files (x${(size / bytes).toFixed(2)})`,
  );
  console.log(`import: ${ms(importMs)} (files fsynced, snapshot written); RSS +${mb(peak - rss0)} MB at its peak`);

  // ---- 2. a cluster ------------------------------------------------------------------------
  const bin = natsServerPath();
  if (!bin) {
    console.log('cluster: skipped (nats-server is not installed)');
  } else {
    const nats = await startNatsCluster(3, { bin });
    const nodes: Calendar[] = [];
    try {
      for (const id of ['a', 'b']) {
        nodes.push(
          await openCalendar({
            siteUrl: 'http://calendar.test',
            cluster: { servers: nats.urls, name: 'bench', node: id, leaseMs: 1_000, warn: () => {} },
          }),
        );
      }
      let w: Calendar | undefined;
      while (!(w = nodes.find((n) => handleOf(n).cluster!.isWriter))) await new Promise((r) => setTimeout(r, 20));
      const f = nodes.find((n) => n !== w)!;
      const data = await photo(99);
      const time = async (cal: Calendar): Promise<number[]> => {
        const out: number[] = [];
        for (let i = 0; i < CLUSTER_UPLOADS; i++) {
          const t = performance.now();
          await cal.media.create({ data, filename: 'p.jpg' });
          out.push(performance.now() - t);
        }
        return out;
      };
      const [viaWriter, viaFollower] = [await time(w), await time(f)];
      console.log(
        `cluster upload (${mb(data.length)} MB + sizes): through the writer median ${ms(median(viaWriter))}, worst ${ms(Math.max(...viaWriter))}; through a follower median ${ms(median(viaFollower))}, worst ${ms(Math.max(...viaFollower))}`,
      );
      const srv = await startServer(f, { port: 0, log: () => {} });
      try {
        const item = (await f.media.list({ per_page: 1 })).items[0];
        const url = `${srv.url}${new URL(item.source_url as string).pathname}`;
        const get = async () => {
          const t = performance.now();
          await (await fetch(url)).arrayBuffer();
          return performance.now() - t;
        };
        const cold = await get();
        const warm: number[] = [];
        for (let i = 0; i < 20; i++) warm.push(await get());
        console.log(`cluster serve (${mb(data.length)} MB file): cold ${ms(cold)}, warm median ${ms(median(warm))}`);
      } finally {
        await srv.close();
      }
    } finally {
      for (const n of nodes) await n.close();
      await nats.stop();
    }
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
