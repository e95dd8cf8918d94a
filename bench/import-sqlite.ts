// The SQLite side of `npm run bench -- --import`: reads an import file with the same streaming
// reader as `calendar-engine import` (src/import/read-records.ts, a read's records at a time: one
// JSON.parse per record) and bulk-inserts it into an on-disk better-sqlite3 database laid out as
// the query benchmark's SQLite baseline (bench/baselines/sqlite.ts: events with their search text
// and JSON, term and organizer join tables, venues and their R*Tree), in one transaction, then
// creates the indexes. The database file is durable when this ends (SQLite's default rollback
// journal, synchronous=FULL). It validates nothing: the engine's import checks every record first.
//
//   node --import tsx bench/import-sqlite.ts FILE DB   (prints {"events": N, "ms": T} on stdout)

import { readImportBatches } from '../src/import/read-records.ts';
import type { FileRecord } from '../src/import/scanners.ts';
import { INDEXES, SCHEMA, loadSqlite } from './baselines/sqlite.ts';

const [file, dbFile] = process.argv.slice(2);
if (!file || !dbFile) {
  console.error('usage: node --import tsx bench/import-sqlite.ts FILE DB');
  process.exit(2);
}
const t0 = performance.now();
const Ctor = await loadSqlite();
if (typeof Ctor === 'string') {
  console.error(`better-sqlite3 could not load: ${Ctor}`);
  process.exit(1);
}
const db = new Ctor(dbFile);
db.exec(SCHEMA);
const insEvent = db.prepare('INSERT INTO events VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)');
const insTerm = db.prepare('INSERT OR IGNORE INTO event_terms VALUES (?,?)');
const insOrg = db.prepare('INSERT OR IGNORE INTO event_organizers VALUES (?,?)');
const insVenue = db.prepare('INSERT INTO venues VALUES (?,?,?)');
const insPoint = db.prepare('INSERT INTO venue_points VALUES (?,?,?,?,?)');

/** the baseline's fold (NFD, marks stripped, lower case), with a fast path for ASCII text (same result) */
// eslint-disable-next-line no-control-regex
const fold = (s: string): string =>
  /^[\x00-\x7f]*$/.test(s) ? s.toLowerCase() : s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
const ids = (v: unknown): number[] => (Array.isArray(v) ? (v as number[]) : []);
type Rec = Record<string, unknown>;

let events = 0;
db.exec('BEGIN');
for await (const batch of readImportBatches(file))
  for (const { kind, rec } of batch as FileRecord[]) {
    const r = rec as Rec;
    if (kind === 'venues') {
      const lat = typeof r.geo_lat === 'number' ? r.geo_lat : null,
        lng = typeof r.geo_lng === 'number' ? r.geo_lng : null;
      insVenue.run(r.id, lat, lng);
      if (lat !== null && lng !== null) insPoint.run(r.id, lat, lat, lng, lng);
    } else if (kind === 'events') {
      const cats = ids(r.categories),
        tags = ids(r.tags),
        orgs = ids(r.organizer);
      insEvent.run(
        r.id,
        r.status ?? 'publish',
        r.date ?? '',
        r.start_date,
        r.end_date,
        r.hide_from_listings ? 1 : 0,
        r.featured ? 1 : 0,
        r.ticketed ? 1 : 0,
        typeof r.venue === 'number' ? r.venue : 0,
        r.post_parent ?? 0,
        fold(`${r.title ?? ''}\u0001${r.excerpt ?? ''}\u0001${r.description ?? ''}`),
        cats.join(','),
        tags.join(','),
        orgs.join(','),
        JSON.stringify(r),
      );
      for (const t of cats) insTerm.run(t, r.id);
      for (const t of tags) insTerm.run(t, r.id);
      for (const o of orgs) insOrg.run(o, r.id);
      events++;
    }
  }
db.exec(INDEXES);
db.exec('COMMIT');
db.close();
process.stdout.write(JSON.stringify({ events, ms: Math.round(performance.now() - t0) }) + '\n');
