// Durable write throughput: acknowledged writes per second of the store's journal (group commit:
// one write + fdatasync per batch) at 1, 4 and 32 concurrent writers, next to SQLite
// (better-sqlite3, journal_mode=WAL, synchronous=FULL) doing the same ~1 KB event puts, each
// insert its own transaction. better-sqlite3 is synchronous, so its writers cannot overlap:
// concurrency does not help it, and it is measured once.
// Then, if the engine exists: snapshot write time and start-up time for N events.
//
//   npm run bench:writes -- [--seconds 2] [--events 100000] [--dir /path/on/the/disk/to/test]
//                           [--calendar writes|bench] [--startup-only]
// --calendar bench: the start-up part uses the bench calendar (bench/generate.ts, imported through
// cal.import) instead of the ~1.35 KB records below; --startup-only skips the throughput part.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { EventRecord, Op } from '../src/engine/records.ts';
import type { EngineApi } from '../src/engine/engine-api.ts';
import { openStore, type Store } from '../src/store/store.ts';
import { mulberry32 } from './stats.ts';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '2' },
    events: { type: 'string', default: '100000' },
    dir: { type: 'string', default: os.tmpdir() },
    calendar: { type: 'string', default: 'writes' },
    'startup-only': { type: 'boolean', default: false },
  },
});
const SECONDS = Number(args.seconds);
const EVENTS = Number(args.events);
fs.mkdirSync(args.dir!, { recursive: true }); // --dir may name a folder that does not exist yet
const BASE = fs.mkdtempSync(path.join(args.dir!, 'bench-writes-'));
const CONCURRENCY = [1, 4, 32];

const rnd = mulberry32(42);
const WORDS =
  'concert jazz market workshop meetup festival talk yoga run brunch gallery tour night open session community river park'.split(
    ' ',
  );
const pad = (n: number) => String(n).padStart(2, '0');
const words = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(rnd() * WORDS.length)]).join(' ');

/** A realistic event record (~1 KB as JSON). */
function makeEvent(id: number): EventRecord {
  const day = 1 + Math.floor(rnd() * 28);
  const hour = 8 + Math.floor(rnd() * 12);
  const start = `2030-${pad(1 + Math.floor(rnd() * 12))}-${pad(day)} ${pad(hour)}:00:00`;
  const end = `${start.slice(0, 11)}${pad(hour + 2)}:00:00`;
  const title = words(4);
  return {
    id,
    authorId: 1,
    status: 'publish',
    date: '2029-12-01 10:00:00',
    dateUtc: '2029-12-01 10:00:00',
    modified: '2029-12-01 10:00:00',
    modifiedUtc: '2029-12-01 10:00:00',
    title,
    description: `<p>${words(70)}</p>`,
    excerpt: words(12),
    slug: `${title.replaceAll(' ', '-')}-${id}`,
    imageId: 0,
    timezone: 'America/New_York',
    timezoneAbbr: 'EST',
    allDay: false,
    startLocal: start,
    endLocal: end,
    startUtc: start,
    endUtc: end,
    costs: ['20'],
    currencySymbol: '$',
    currencyPosition: 'prefix',
    currencyCode: 'USD',
    website: null,
    showMap: true,
    showMapLink: true,
    hideFromListings: false,
    sticky: false,
    featured: rnd() < 0.1,
    ticketed: false,
    venueIds: [],
    organizerIds: [],
    categoryIds: [],
    tagIds: [],
    parentId: 0,
  };
}

const OPS: Op[][] = Array.from({ length: 5000 }, (_, i) => [{ t: 'event', a: 'put', rec: makeEvent(i + 1) }]);
const OP_BYTES = Math.round(OPS.reduce((n, ops) => n + JSON.stringify(ops).length, 0) / OPS.length);

// ---

interface Row {
  name: string;
  writers: number | string;
  perSec: number;
  perFlush: string;
  note: string;
}
const rows: Row[] = [];

async function benchStore(writers: number): Promise<void> {
  const dir = path.join(BASE, `store-${writers}`);
  const store: Store = await openStore(
    dir,
    { loadSnapshot() {}, replay() {}, snapshotChunks: () => [] },
    { compactBytes: 0 },
  );
  const run = async (ms: number) => {
    const until = performance.now() + ms;
    let done = 0;
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        for (let i = w; performance.now() < until; i += writers) {
          await store.commit(OPS[i % OPS.length]!);
          done++;
        }
      }),
    );
    return done;
  };
  await run(200); // warm-up
  const flushes0 = store.stats.flushes;
  const t0 = performance.now();
  const done = await run(SECONDS * 1000);
  const secs = (performance.now() - t0) / 1000;
  const flushes = store.stats.flushes - flushes0;
  await store.close();
  rows.push({
    name: 'store journal',
    writers,
    perSec: done / secs,
    perFlush: (done / flushes).toFixed(1),
    note: `${flushes} datasyncs`,
  });
}

/** the slice of better-sqlite3 used here (it ships no types) */
type SqliteCtor = new (
  file: string,
) => {
  pragma(sql: string): unknown;
  exec(sql: string): void;
  prepare(sql: string): { run(...params: unknown[]): unknown };
  close(): void;
};

async function benchSqlite(): Promise<void> {
  let Database: SqliteCtor;
  try {
    Database = createRequire(import.meta.url)('better-sqlite3') as SqliteCtor;
  } catch (err) {
    console.log(`(better-sqlite3 not available: ${(err as Error).message.split('\n')[0]}; SQLite row skipped)`);
    return;
  }
  const db = new Database(path.join(BASE, 'sqlite.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE events (id INTEGER PRIMARY KEY, seq INTEGER NOT NULL, body TEXT NOT NULL)');
  const insert = db.prepare('INSERT OR REPLACE INTO events (id, seq, body) VALUES (?, ?, ?)');
  let seq = 0;
  const run = (ms: number) => {
    const until = performance.now() + ms;
    let done = 0;
    while (performance.now() < until) {
      const op = OPS[seq % OPS.length]![0] as { rec: EventRecord };
      insert.run(op.rec.id, ++seq, JSON.stringify(op.rec)); // autocommit: one transaction, one WAL fsync
      done++;
    }
    return done;
  };
  run(200);
  const t0 = performance.now();
  const done = run(SECONDS * 1000);
  const secs = (performance.now() - t0) / 1000;
  db.close();
  rows.push({
    name: 'SQLite WAL, synchronous=FULL',
    writers: '1..32',
    perSec: done / secs,
    perFlush: '1.0',
    note: 'synchronous driver: concurrency cannot help',
  });
}

// ---

interface EngineInternals extends EngineApi {
  state: { rebuildIndexes(): void };
}

/** The engine to snapshot: N of the records above, or the bench calendar imported through cal.import. */
async function sourceEngine(Engine: new () => EngineApi): Promise<{ engine: EngineApi; nextId: number; what: string }> {
  if (args.calendar === 'bench') {
    const { generateCalendar } = await import('./generate.ts');
    const { NOW } = await import('./queries.ts');
    const { openCalendar } = await import('../src/index.ts');
    const data = generateCalendar({ events: EVENTS, seed: 1, now: NOW });
    const cal = await openCalendar({ timezone: 'UTC', now: () => NOW });
    const t = performance.now();
    await cal.import(data as unknown as Parameters<typeof cal.import>[0]);
    const ms = performance.now() - t;
    const engine = cal.engine as unknown as EngineApi;
    return {
      engine,
      nextId: engine.allocPostId() + 1000,
      what: `bench calendar (bench/generate.ts; cal.import ${Math.round(ms)} ms = ${((ms * 1000) / EVENTS).toFixed(1)} us/event)`,
    };
  }
  const engine = new Engine();
  const events: EventRecord[] = [];
  for (let i = 0; i < EVENTS; i++) events.push(makeEvent(i + 1));
  engine.bulkLoad({ events, venues: [], organizers: [], terms: [], attachments: [] });
  return { engine, nextId: EVENTS + 1, what: `~${OP_BYTES} B event records` };
}

async function benchStartup(): Promise<void> {
  const enginePath = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../src/engine/engine.ts');
  if (!fs.existsSync(enginePath)) {
    console.log('\n(src/engine/engine.ts does not exist yet: start-up benchmark skipped)');
    return;
  }
  const { Engine } = (await import(pathToFileURL(enginePath).href)) as { Engine: new () => EngineApi };
  const { rebuildSearchIndex } = await import('../src/engine/search-index.ts');
  const built = await sourceEngine(Engine);
  const source = built.engine;
  let nextId = built.nextId;
  const hooksFor = (engine: EngineApi) => ({
    loadSnapshot: (chunks: Iterable<unknown>) => engine.loadSnapshotChunks(chunks),
    replay: (w: { ops: Op[] }) => engine.apply(w.ops),
    snapshotChunks: () => engine.snapshotChunks(),
  });
  const table: { step: string; ms: number }[] = [];
  let dir = '';
  const modes = [
    { name: 'default: build + stringify at the point', options: {} },
    { name: 'stableChunks: build at the point', options: { stableChunks: true } },
    { name: "detachedChunks (the calendar's): copy at the point", options: { detachedChunks: true } },
  ];
  for (const [i, mode] of modes.entries()) {
    dir = path.join(BASE, `startup-${i}`); // a fresh store over the already filled engine
    const store = await openStore(dir, hooksFor(source), { compactBytes: 0, ...mode.options });
    // 4 writers keep committing during the compaction: the longest commit is the writers' pause
    let stop = false;
    let maxCommitMs = 0;
    let during = 0;
    const writers = Array.from({ length: 4 }, async () => {
      while (!stop) {
        const ops: Op[] = [{ t: 'event', a: 'put', rec: makeEvent(nextId++) }];
        const t = performance.now();
        source.apply(ops); // memory first, commit in the same tick
        await store.commit(ops);
        maxCommitMs = Math.max(maxCommitMs, performance.now() - t);
        during++;
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    maxCommitMs = 0;
    during = 0;
    const t0 = performance.now();
    await store.compact();
    const compactMs = performance.now() - t0;
    stop = true;
    await Promise.all(writers);
    await store.close();
    table.push({ step: `compact() total, ${mode.name}`, ms: Math.round(compactMs) });
    table.push({
      step: `  longest commit during it (writers' pause); ${during} commits acked meanwhile`,
      ms: Math.round(maxCommitMs),
    });
  }
  const bytes = fs
    .readdirSync(dir)
    .filter((f) => f.startsWith('snapshot.'))
    .reduce((n, f) => n + fs.statSync(path.join(dir, f)).size, 0);

  globalThis.gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  const target = new Engine() as EngineInternals;
  // phases: time spent inside the chunk iterator (read, parse, waiting for the hash worker) and in rebuildIndexes
  let iterMs = 0,
    loadMs = 0,
    indexMs = 0;
  const rebuild = target.state.rebuildIndexes.bind(target.state);
  target.state.rebuildIndexes = () => {
    const t = performance.now();
    rebuild();
    indexMs += performance.now() - t;
  };
  function* timed(chunks: Iterable<unknown>): Generator<unknown> {
    const it = chunks[Symbol.iterator]();
    for (;;) {
      const t = performance.now();
      const r = it.next();
      iterMs += performance.now() - t;
      if (r.done) return;
      yield r.value;
    }
  }
  const t1 = performance.now();
  const reopened = await openStore(
    dir,
    {
      ...hooksFor(target),
      loadSnapshot: (chunks: Iterable<unknown>) => {
        const t = performance.now();
        target.loadSnapshotChunks(timed(chunks));
        loadMs = performance.now() - t;
      },
    },
    { compactBytes: 0 },
  );
  const openMs = performance.now() - t1;
  await reopened.close();
  globalThis.gc?.();
  const heapMb = (process.memoryUsage().heapUsed - heap0) / 2 ** 20;
  const t2 = performance.now();
  rebuildSearchIndex(target.state as unknown as Parameters<typeof rebuildSearchIndex>[0]);
  const searchMs = performance.now() - t2;
  table.push({ step: 'open: read + sha256 + parse + loadSnapshotChunks + replay', ms: Math.round(openMs) });
  table.push({ step: '  in the chunk iterator: read, JSON.parse, wait for the sha256 worker', ms: Math.round(iterMs) });
  table.push({ step: '  rebuildIndexes (main index, posting lists, counts)', ms: Math.round(indexMs) });
  table.push({
    step: '  rest of loadSnapshotChunks (columns, ids; the search index is built afterwards, in the background)',
    ms: Math.round(loadMs - iterMs - indexMs),
  });
  table.push({ step: '  search index build alone (run again after open)', ms: Math.round(searchMs) });
  console.log(
    `\nsnapshot of ${target.eventRowCount} events, ${built.what}: ${(bytes / 2 ** 20).toFixed(1)} MiB on disk; engine heap after open ~${Math.round(heapMb)} MiB`,
  );
  console.table(table);
}

// ---

console.log(`durable writes: ~${OP_BYTES} bytes of JSON per write (one event put), ${SECONDS} s per case, dir ${BASE}`);
try {
  if (!args['startup-only']) {
    for (const w of CONCURRENCY) await benchStore(w);
    await benchSqlite();
    console.table(
      rows.map((r) => ({
        target: r.name,
        writers: r.writers,
        'acked writes/s': Math.round(r.perSec),
        'writes/datasync': r.perFlush,
        note: r.note,
      })),
    );
    const sqlite = rows.find((r) => r.name.startsWith('SQLite'));
    if (sqlite) {
      for (const r of rows.filter((x) => x !== sqlite))
        console.log(`store at ${r.writers} writers: ${(r.perSec / sqlite.perSec).toFixed(2)}x SQLite`);
    }
  }
  await benchStartup();
} finally {
  fs.rmSync(BASE, { recursive: true, force: true });
}
