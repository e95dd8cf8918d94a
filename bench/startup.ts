// Start-up of a served store, as an operator sees it: a fresh `calendar-engine serve` process on
// a store holding a generated calendar, timed from spawn to its listening line, then the first
// search over HTTP (it finishes the search index that builds in the background after a load),
// then SIGTERM (which writes a snapshot; not timed). Rounds alternate; medians are printed.
//
//   npm run bench:startup -- [--events N] [--rounds R] [--dir DIR] [--changes C] [--bin FILE]
//
// The program is the package's `bin`, dist/cli/main.js under plain node (built first when older
// than a source); --bin FILE runs another script of the command line instead (e.g. another
// checkout's, to compare).
// --events 0: an empty store (the snapshot of an empty calendar).
// The store is made once per (events, seed) under DIR (default: a temporary folder, removed at
// the end) with cal.import, which ends with a snapshot: start-up = read + sha256 + parse + load.
// --changes C: then C updates of event titles (32 at a time), so that the change log
// (changes.jsonl) holds C changes to read back at start-up as well.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { generateCalendar } from './generate.ts';
import { NOW } from './queries.ts';
import { median } from './stats.ts';
import { openCalendar } from '../src/index.ts';
import type { ImportData } from '../src/import/index.ts';
import { DIST_MAIN, ensureDist } from '../test/helpers/dist.ts';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '3' },
    dir: { type: 'string' },
    changes: { type: 'string', default: '0' },
    bin: { type: 'string' },
  },
});
const EVENTS = Number(args.events);
const ROUNDS = Number(args.rounds);
const CHANGES = Number(args.changes);
if (
  !(
    Number.isInteger(EVENTS) &&
    EVENTS >= 0 &&
    Number.isInteger(ROUNDS) &&
    ROUNDS > 0 &&
    Number.isInteger(CHANGES) &&
    CHANGES >= 0
  )
) {
  console.error('usage: npm run bench:startup -- [--events N] [--rounds R] [--dir DIR] [--changes C] [--bin FILE]');
  process.exit(2);
}
const BIN = args.bin ? path.resolve(args.bin) : DIST_MAIN;
if (!args.bin) ensureDist();
const base = args.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'bench-startup-'));
const store = path.join(base, CHANGES > 0 ? `store-${EVENTS}-changes-${CHANGES}` : `store-${EVENTS}`);

async function makeStore(): Promise<string> {
  if (fs.existsSync(path.join(store, 'snapshot.json'))) return 'reused';
  fs.rmSync(store, { recursive: true, force: true });
  const t = performance.now();
  const data = generateCalendar({ events: EVENTS, seed: 1, now: NOW });
  const cal = await openCalendar({ dir: store, timezone: 'UTC', now: () => NOW });
  await cal.import(data as unknown as ImportData);
  await cal.close();
  if (CHANGES > 0) {
    // on the real clock: the log's window keeps changes 7 days
    const w = await openCalendar({ dir: store, timezone: 'UTC' });
    let next = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        for (let i = next++; i < CHANGES; i = next++)
          await w.events.update(w.engine.eventId(i % w.engine.eventRowCount), { title: `Updated title ${i}` });
      }),
    );
    await w.close();
  }
  return `made in ${Math.round(performance.now() - t)} ms (generate + import + snapshot${CHANGES > 0 ? ` + ${CHANGES} updates` : ''})`;
}

interface Round {
  listenMs: number;
  searchMs: number;
  listMs: number;
  rssMb: number;
}

function serveOnce(): Promise<Round> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data', store, '--no-seed'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'CALENDAR_ADMIN_PASSWORD')),
    });
    let out = '',
      err = '',
      listening = false;
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (!listening) reject(new Error(`serve exited with ${code} before listening: ${err.trim()}`));
    });
    child.stdout.on('data', async (c: Buffer) => {
      out += c.toString();
      const m = /listening on (\S+)/.exec(out);
      if (!m || listening) return;
      listening = true;
      const listenMs = performance.now() - t0;
      try {
        let t = performance.now();
        const list = await fetch(`${m[1]}/events?start_date=2000-01-01&per_page=12`);
        await list.arrayBuffer();
        const listMs = performance.now() - t;
        t = performance.now();
        const search = await fetch(`${m[1]}/events?search=pottery&start_date=2000-01-01`);
        await search.arrayBuffer();
        const searchMs = performance.now() - t;
        const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
        const rssMb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
        child.once('exit', () => resolve({ listenMs, searchMs, listMs, rssMb }));
        child.kill('SIGTERM');
      } catch (e) {
        child.kill('SIGKILL');
        reject(e);
      }
    });
  });
}

try {
  console.log(
    `calendar-engine start-up: ${EVENTS.toLocaleString('en-US')} events, node ${process.version}, ${os.cpus().length} cpus; ${BIN}`,
  );
  console.log(`store ${store}: ${await makeStore()}`);
  const bytes = fs
    .readdirSync(store)
    .filter((f) => f.startsWith('snapshot'))
    .reduce((n, f) => n + fs.statSync(path.join(store, f)).size, 0);
  const log = path.join(store, 'changes.jsonl');
  const logBytes = fs.existsSync(log) ? fs.statSync(log).size : 0;
  console.log(
    `snapshot: ${(bytes / 2 ** 20).toFixed(1)} MiB on disk; change log ${(logBytes / 2 ** 20).toFixed(1)} MiB`,
  );
  const rounds: Round[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const r = await serveOnce();
    rounds.push(r);
    console.log(
      `round ${i + 1}: listening after ${Math.round(r.listenMs)} ms; first list ${r.listMs.toFixed(1)} ms; first search ${Math.round(r.searchMs)} ms; RSS ${Math.round(r.rssMb)} MiB`,
    );
  }
  console.log(
    `median: spawn → listening line ${Math.round(median(rounds.map((r) => r.listenMs)))} ms (process start, module loading, snapshot read + sha256 + parse + load, journal replay); ` +
      `first search ${Math.round(median(rounds.map((r) => r.searchMs)))} ms; RSS ${Math.round(median(rounds.map((r) => r.rssMb)))} MiB`,
  );
} finally {
  if (!args.dir) fs.rmSync(base, { recursive: true, force: true });
}
