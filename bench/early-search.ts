// A search sent as soon as `calendar-engine serve` listens on a store whose snapshot has no word
// index (one just imported: `bench/scale.ts --keep` leaves one under its --dir), while lists go on
// on a second connection: how long the search takes, how long after spawn it is answered, and the
// lists answered meanwhile (the word index is built after the load; a search that comes first
// waits for that build, or makes it); then, once the server is idle, the CPU seconds of its main
// thread and of the whole process (worker threads included) since spawn, from /proc.
//
//   node --import tsx bench/early-search.ts --store DIR --events N [--bin FILE] [--delay S]
//
// --events N: the size the store was imported at (the bench's queries depend on it); --bin: another
// checkout's dist/cli/main.js, to compare; --delay: seconds after the first list before the search.
// Prints one JSON line. The store is served as it is and left unchanged (the server is killed,
// not stopped: no shutdown snapshot).

import { spawn } from 'node:child_process';
import http from 'node:http';
import { parseArgs } from 'node:util';
import { DIST_MAIN, ensureDist } from '../test/helpers/dist.ts';
import { descendants, timedGet, treeRss, whenIdle } from './proc.ts';
import fs from 'node:fs';
import { buildQueriesStreamed } from './queries.ts';
import { quantileOf } from './stats.ts';

const { values: args } = parseArgs({
  options: {
    store: { type: 'string' },
    events: { type: 'string', default: '1000000' },
    bin: { type: 'string' },
    delay: { type: 'string', default: '0' },
  },
});
if (!args.store) throw new Error('--store DIR: a store to serve (one bench/scale.ts --keep left)');
if (!args.bin) ensureDist();
const MAIN = args.bin ?? DIST_MAIN;
const EVENTS = Number(args.events);
const mix = buildQueriesStreamed(EVENTS, 1)
  .filter((q) => q.actor === null)
  .map((q) => ({ name: q.name, path: `/wp-json/tribe/events/v1/events?${new URLSearchParams(q.params)}` }));
const searchPath = mix.find((q) => q.name === 'search')!.path;
const lists = mix.filter((q) => !q.name.startsWith('search'));

const env = { ...process.env };
delete env.NODE_OPTIONS;
const t0 = performance.now();
const server = spawn(process.execPath, [MAIN, 'serve', '--data', args.store, '--port', '0', '--no-seed'], {
  env,
  stdio: ['ignore', 'pipe', 'inherit'],
});
process.on('exit', () => {
  for (const pid of [...descendants(server.pid!), server.pid!]) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  }
});
const base = await new Promise<string>((resolve) => {
  let buf = '';
  server.stdout!.on('data', (d: Buffer) => {
    buf += d.toString();
    const m = /calendar-engine listening on (http:\/\/[^/\s]+)/.exec(buf);
    if (m) resolve(m[1]);
  });
});
const listeningS = (performance.now() - t0) / 1000;

const get = (agent: http.Agent, p: string) => timedGet(base, agent, p);
const listAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const searchAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
await get(listAgent, lists[0].path);
const firstListS = (performance.now() - t0) / 1000;
await new Promise((r) => setTimeout(r, Number(args.delay) * 1000));

let searching = true;
const during: number[] = [];
/** lists whose connection the server closed (a keep-alive socket idle past its timeout while the
 *  server's loop was blocked, closed as the next request went out): sent again on a new one */
let resets = 0;
const listing = (async () => {
  for (let i = 0; searching; i++) {
    try {
      during.push((await get(listAgent, lists[i % lists.length].path)).ms);
    } catch {
      resets++;
    }
  }
})();
const sentS = (performance.now() - t0) / 1000;
const search = await get(searchAgent, searchPath);
searching = false;
await listing;
const answeredS = (performance.now() - t0) / 1000;
const rss = treeRss(server.pid!);
const again = await get(searchAgent, searchPath);
listAgent.destroy();
searchAgent.destroy();
const idle = await whenIdle(server.pid!, 600);
const idleS = (performance.now() - t0) / 1000;

/** CPU seconds (user + system) of a /proc stat line. */
function cpuOf(file: string): number {
  try {
    const text = fs.readFileSync(file, 'utf8');
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
}
// the serving process: the server, or its sized child (the tree's process that used the most CPU)
let mainCpuS = 0,
  processCpuS = 0;
for (const pid of [server.pid!, ...descendants(server.pid!)]) {
  const all = cpuOf(`/proc/${pid}/stat`);
  if (all > processCpuS) {
    processCpuS = all;
    mainCpuS = cpuOf(`/proc/${pid}/task/${pid}/stat`);
  }
}

const r2 = (n: number) => Math.round(n * 100) / 100;
process.stdout.write(
  `${JSON.stringify({
    events: EVENTS,
    listeningS: r2(listeningS),
    firstListS: r2(firstListS),
    searchSentS: r2(sentS),
    searchMs: Math.round(search.ms),
    searchStatus: search.status,
    searchAnsweredS: r2(answeredS),
    nextSearchMs: r2(again.ms),
    rssAfterSearchMiB: Math.round(rss / 2 ** 20),
    idleS: r2(idleS),
    idle,
    mainThreadCpuS: r2(mainCpuS),
    processCpuS: r2(processCpuS),
    listsMeanwhile: {
      n: during.length,
      p50: r2(quantileOf(during, 0.5)),
      p99: r2(quantileOf(during, 0.99)),
      max: r2(during.length > 0 ? Math.max(...during) : 0),
      resets,
    },
  })}\n`,
);
process.exit(0);
