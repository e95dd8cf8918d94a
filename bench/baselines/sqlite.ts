// Baseline 2: better-sqlite3 in memory, laid out as a careful WordPress-like schema: one row per
// event with indexed local start/end, status, venue and publication date; join tables for terms
// and organizers (indexed both ways); an R*Tree over venue points with an exact haversine check;
// LIKE over a folded text column for search (what WordPress does, no FTS). Each list call runs one
// COUNT(*) and one page query (ORDER BY … LIMIT/OFFSET) through cached prepared statements, then
// splices the page JSON from a stored JSON column of the event's own fields plus the JSON of its
// terms, venue and organizers (kept as ready text, like WordPress's object cache would).
// listObjects() is the object mode an embedding program uses: the same two queries, then each
// page hydrated into fresh objects: the event's own fields parsed from its row, and one query per
// join table (terms, organizers) for the page's ids, whose linked objects are copied from the
// ones kept in memory (again, as an object cache would hold them).

import fs from 'node:fs';
import { readImportBatches } from '../../src/import/read-records.ts';
import type { ImportData, ImportEvent } from '../generate.ts';
import { buildLinkedObjects, countTerms, eventOwnFields } from './represent.ts';
import {
  BadRequest,
  badRequestResult,
  createVocabulary,
  envelopeJson,
  fold,
  haversineKm,
  PAGE_NOT_FOUND_BODY,
  resolveQuery,
  type BenchActor,
  type EventFilter,
  type ListResult,
  type QueryParams,
  type SiteContext,
  type Vocabulary,
} from './semantics.ts';

// The few better-sqlite3 shapes used here (the package ships no types in this project).
interface Statement {
  run(...args: unknown[]): unknown;
  get(...args: unknown[]): unknown;
  all(...args: unknown[]): unknown[];
}
interface Database {
  exec(sql: string): void;
  prepare(sql: string): Statement;
  transaction<A extends unknown[]>(fn: (...args: A) => void): (...args: A) => void;
  function(name: string, opts: { deterministic: boolean }, fn: (...args: number[]) => number): void;
  close(): void;
}
type DatabaseCtor = new (file: string) => Database;

/** Load better-sqlite3, or return the reason it cannot be used. */
export async function loadSqlite(): Promise<DatabaseCtor | string> {
  try {
    const name = 'better-sqlite3';
    const mod = await import(name);
    const ctor = (mod.default ?? mod) as DatabaseCtor;
    new ctor(':memory:').close();
    return ctor;
  } catch (e) {
    return (e as Error).message.split('\n')[0];
  }
}

export const SCHEMA = `
CREATE TABLE events (
  id INTEGER PRIMARY KEY, status TEXT NOT NULL, date TEXT NOT NULL,
  start_local TEXT NOT NULL, end_local TEXT NOT NULL,
  hidden INTEGER NOT NULL, featured INTEGER NOT NULL, ticketed INTEGER NOT NULL,
  venue_id INTEGER NOT NULL, parent_id INTEGER NOT NULL,
  search_text TEXT NOT NULL, cat_ids TEXT NOT NULL, tag_ids TEXT NOT NULL, organizer_ids TEXT NOT NULL,
  json TEXT NOT NULL
);
CREATE TABLE event_terms (term_id INTEGER NOT NULL, event_id INTEGER NOT NULL, PRIMARY KEY (term_id, event_id)) WITHOUT ROWID;
CREATE TABLE event_organizers (organizer_id INTEGER NOT NULL, event_id INTEGER NOT NULL, PRIMARY KEY (organizer_id, event_id)) WITHOUT ROWID;
CREATE TABLE venues (id INTEGER PRIMARY KEY, lat REAL, lng REAL);
CREATE VIRTUAL TABLE venue_points USING rtree(id, min_lat, max_lat, min_lng, max_lng);
`;
// created after the bulk insert (faster than maintaining them row by row)
export const INDEXES = `
CREATE INDEX events_start ON events (start_local, id);
CREATE INDEX events_end ON events (end_local);
CREATE INDEX events_status ON events (status);
CREATE INDEX events_venue ON events (venue_id);
CREATE INDEX events_date ON events (date, id);
CREATE INDEX events_parent ON events (parent_id);
CREATE INDEX event_terms_event ON event_terms (event_id);
CREATE INDEX event_organizers_event ON event_organizers (event_id);
ANALYZE;
`;

/** Prepared inserts of the baseline's rows: a venue (and its point), an event (and its links). */
function inserter(
  db: Database,
  site: SiteContext,
): { venue: (v: ImportData['venues'][number]) => void; event: (e: ImportEvent) => void } {
  const insEvent = db.prepare('INSERT INTO events VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)');
  const insTerm = db.prepare('INSERT OR IGNORE INTO event_terms VALUES (?,?)');
  const insOrg = db.prepare('INSERT OR IGNORE INTO event_organizers VALUES (?,?)');
  const insVenue = db.prepare('INSERT INTO venues VALUES (?,?,?)');
  const insPoint = db.prepare('INSERT INTO venue_points VALUES (?,?,?,?,?)');
  return {
    venue(v) {
      insVenue.run(v.id, v.geo_lat ?? null, v.geo_lng ?? null);
      if (v.geo_lat != null && v.geo_lng != null) insPoint.run(v.id, v.geo_lat, v.geo_lat, v.geo_lng, v.geo_lng);
    },
    event(e) {
      insEvent.run(
        e.id,
        e.status,
        e.date,
        e.start_date,
        e.end_date,
        e.hide_from_listings ? 1 : 0,
        e.featured ? 1 : 0,
        e.ticketed ? 1 : 0,
        e.venue,
        e.post_parent ?? 0,
        fold(e.title + '\u0001' + e.excerpt + '\u0001' + e.description),
        e.categories.join(','),
        e.tags.join(','),
        e.organizer.join(','),
        JSON.stringify(eventOwnFields(e, site)),
      );
      for (const t of e.categories) insTerm.run(t, e.id);
      for (const t of e.tags) insTerm.run(t, e.id);
      for (const o of e.organizer) insOrg.run(o, e.id);
    },
  };
}

/** What a database file holds besides the rows: the small lists and the terms' counts (bench_meta). */
interface FileMeta {
  lists: Omit<ImportData, 'events'>;
  termCounts: [number, number][];
  events: number;
}

function readMeta(db: Database): FileMeta {
  const row = db.prepare("SELECT value FROM bench_meta WHERE key = 'meta'").get() as { value: string } | undefined;
  if (!row) throw new Error('not a database of buildSqliteFile (no bench_meta)');
  return JSON.parse(row.value) as FileMeta;
}

/**
 * The baseline's database on disk, made from an import file read as `calendar-engine import`
 * reads it (src/import/read-records.ts: a read's records at a time, never all held), as a
 * WordPress host keeps its database: in a file, in WAL mode with synchronous=NORMAL, SQLite's
 * default page cache (the build uses 256 MiB of it). The rows go in one transaction (rollback journal: new pages are not
 * journalled, and a WAL would grow to the size of the database), then the indexes, then the file
 * is switched to WAL. Written to DB.tmp and renamed when complete.
 */
export async function buildSqliteFile(
  Ctor: DatabaseCtor,
  importFile: string,
  dbFile: string,
  site: SiteContext,
): Promise<{ events: number }> {
  const tmp = `${dbFile}.tmp`;
  for (const f of [tmp, `${tmp}-journal`, `${tmp}-wal`, `${tmp}-shm`]) fs.rmSync(f, { force: true });
  const db = new Ctor(tmp);
  // a larger page cache for the build alone (the index sorts); a connection's setting, not the file's
  db.exec('PRAGMA cache_size = -262144');
  db.exec(SCHEMA);
  db.exec('CREATE TABLE bench_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
  const ins = inserter(db, site);
  const lists: Omit<ImportData, 'events'> = { categories: [], tags: [], venues: [], organizers: [] };
  const counts = new Map<number, number>();
  let events = 0;
  db.exec('BEGIN');
  for await (const batch of readImportBatches(importFile))
    for (const { kind, rec } of batch as { kind: string; rec: unknown }[]) {
      if (kind === 'events') {
        const e = rec as ImportEvent;
        ins.event(e);
        countTerms(counts, e);
        events++;
      } else if (kind === 'venues') {
        const v = rec as ImportData['venues'][number];
        lists.venues.push(v);
        ins.venue(v);
      } else if (kind === 'categories' || kind === 'tags' || kind === 'organizers')
        (lists[kind] as unknown[]).push(rec);
    }
  const meta: FileMeta = { lists, termCounts: [...counts], events };
  db.prepare('INSERT INTO bench_meta VALUES (?, ?)').run('meta', JSON.stringify(meta));
  db.exec(INDEXES);
  db.exec('COMMIT');
  db.exec('PRAGMA journal_mode = WAL');
  db.close();
  fs.renameSync(tmp, dbFile);
  return { events };
}

interface PageRow {
  id: number;
  json: string;
  venue_id: number;
  cat_ids: string;
  tag_ids: string;
  organizer_ids: string;
}

export class SqliteBaseline {
  private readonly db: Database;
  private readonly statements = new Map<string, Statement>();
  private readonly vocab: Vocabulary;
  private readonly termJson = new Map<number, string>();
  private readonly venueJson = new Map<number, string>();
  private readonly organizerJson = new Map<number, string>();
  private readonly linkedObjects: ReturnType<typeof buildLinkedObjects>;

  /**
   * The baseline over `source`: a calendar held in memory, loaded into a database in memory (as
   * `npm run bench` does up to the sizes that fit), or a database file made by buildSqliteFile
   * from the streamed import file (the large path: bench/run-large.ts), opened as it is.
   */
  constructor(
    Ctor: DatabaseCtor,
    source: ImportData | { file: string },
    private readonly site: SiteContext,
  ) {
    let lists: Omit<ImportData, 'events'>;
    let counts: Map<number, number> | undefined;
    let db: Database;
    if ('file' in source) {
      db = new Ctor(source.file);
      const meta = readMeta(db);
      lists = meta.lists;
      counts = new Map(meta.termCounts);
    } else {
      db = new Ctor(':memory:');
      lists = source;
      db.exec(SCHEMA);
    }
    this.db = db;
    db.function('haversine', { deterministic: true }, (lat1, lng1, lat2, lng2) => haversineKm(lat1, lng1, lat2, lng2));
    this.vocab = createVocabulary(lists);
    const linked = (this.linkedObjects = buildLinkedObjects(
      'file' in source ? lists : (source as ImportData),
      site,
      counts,
    ));
    for (const [id, o] of linked.terms) this.termJson.set(id, JSON.stringify(o));
    for (const [id, o] of linked.venues) this.venueJson.set(id, JSON.stringify(o));
    for (const [id, o] of linked.organizers) this.organizerJson.set(id, JSON.stringify(o));
    if ('file' in source) return;
    const data = source as ImportData;
    const ins = inserter(db, site);
    db.transaction(() => {
      for (const v of data.venues) ins.venue(v);
      for (const e of data.events) ins.event(e);
    })();
    db.exec(INDEXES);
  }

  close(): void {
    this.db.close();
  }

  /** SQLite's page cache for this connection, MiB (its default is 2 MiB) */
  setCacheMb(mb: number): void {
    this.db.exec(`PRAGMA cache_size = ${-Math.round(mb * 1024)}`);
  }

  private statement(sql: string): Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  /** WHERE clause + its arguments for a filter. */
  private where(f: EventFilter): { sql: string; args: unknown[] } {
    const conds = ['e.hidden = 0'];
    const args: unknown[] = [];
    const inList = (col: string, xs: readonly unknown[]) => {
      conds.push(`${col} IN (${xs.map(() => '?').join(',')})`);
      args.push(...xs);
    };
    inList('e.status', f.statuses);
    const cmp = (col: string, op: string, v: string | undefined) => {
      if (v !== undefined) {
        conds.push(`${col} ${op} ?`);
        args.push(v);
      }
    };
    cmp('e.start_local', '>=', f.startGte);
    cmp('e.start_local', '>', f.startGt);
    cmp('e.start_local', '<', f.startLt);
    cmp('e.end_local', '<=', f.endLte);
    cmp('e.end_local', '>', f.endGt);
    cmp('e.end_local', '<', f.endLt);
    if (f.includeIds) inList('e.id', f.includeIds);
    for (const ids of [f.categoryIds, f.tagIds]) {
      if (!ids) continue;
      conds.push(`e.id IN (SELECT event_id FROM event_terms WHERE term_id IN (${ids.map(() => '?').join(',')}))`);
      args.push(...ids);
    }
    if (f.venueIds) inList('e.venue_id', f.venueIds);
    if (f.organizerIds) {
      conds.push(
        `e.id IN (SELECT event_id FROM event_organizers WHERE organizer_id IN (${f.organizerIds.map(() => '?').join(',')}))`,
      );
      args.push(...f.organizerIds);
    }
    if (f.featured !== undefined) {
      conds.push('e.featured = ?');
      args.push(f.featured ? 1 : 0);
    }
    if (f.ticketed !== undefined) {
      conds.push('e.ticketed = ?');
      args.push(f.ticketed ? 1 : 0);
    }
    if (f.parentId !== undefined) {
      conds.push('e.parent_id = ?');
      args.push(f.parentId);
    }
    if (f.geo?.kind === 'has-coords') {
      conds.push(`e.venue_id ${f.geo.value ? '' : 'NOT '}IN (SELECT id FROM venues WHERE lat IS NOT NULL)`);
    } else if (f.geo?.kind === 'radius') {
      const { lat, lng, radiusKm } = f.geo;
      // bounding box a little wider than the circle; the exact test is the haversine
      const dLat = (radiusKm / 6371.0088) * (180 / Math.PI) * 1.01;
      const cosLat = Math.cos((Math.min(89.9, Math.abs(lat) + dLat) * Math.PI) / 180);
      const dLng = Math.abs(lat) + dLat >= 89.9 ? 360 : Math.min(360, dLat / cosLat);
      conds.push(
        'e.venue_id IN (SELECT p.id FROM venue_points p JOIN venues v ON v.id = p.id ' +
          'WHERE p.max_lat >= ? AND p.min_lat <= ? AND p.max_lng >= ? AND p.min_lng <= ? AND haversine(?, ?, v.lat, v.lng) <= ?)',
      );
      args.push(lat - dLat, lat + dLat, lng - dLng, lng + dLng, lat, lng, radiusKm);
    }
    if (f.search) {
      const like = (t: string) => '%' + t.replace(/[\\%_]/g, (c) => '\\' + c) + '%';
      for (const t of f.search.include) {
        conds.push("e.search_text LIKE ? ESCAPE '\\'");
        args.push(like(t));
      }
      for (const t of f.search.exclude) {
        conds.push("e.search_text NOT LIKE ? ESCAPE '\\'");
        args.push(like(t));
      }
    }
    return { sql: conds.join(' AND '), args };
  }

  list(params: QueryParams, actor: BenchActor): ListResult {
    let f: EventFilter;
    try {
      f = resolveQuery(params, actor, this.vocab, this.site);
    } catch (e) {
      if (e instanceof BadRequest) return badRequestResult(e);
      throw e;
    }
    const { sql, args } = this.where(f);
    const total = (this.statement(`SELECT COUNT(*) AS n FROM events e WHERE ${sql}`).get(...args) as { n: number }).n;
    const order = f.includeIds ? 'e.date, e.id' : 'e.start_local, e.id';
    const rows = this.statement(
      `SELECT e.id, e.json, e.venue_id, e.cat_ids, e.tag_ids, e.organizer_ids FROM events e WHERE ${sql} ORDER BY ${order} LIMIT ? OFFSET ?`,
    ).all(...args, f.perPage, f.offset) as PageRow[];
    const ids = rows.map((r) => r.id);
    if (f.page > 1 && rows.length === 0) return { status: 404, total, ids, body: PAGE_NOT_FOUND_BODY };
    const items = rows.map((r) => this.eventJson(r));
    return { status: 200, total, ids, body: envelopeJson(f, items, total) };
  }

  /** The object mode: the same page as list(), as fresh objects hydrated from the rows. */
  listObjects(
    params: QueryParams,
    actor: BenchActor,
  ): { status: number; total: number; ids: number[]; items: Record<string, unknown>[] } {
    let f: EventFilter;
    try {
      f = resolveQuery(params, actor, this.vocab, this.site);
    } catch (e) {
      if (e instanceof BadRequest) return { status: 400, total: 0, ids: [], items: [] };
      throw e;
    }
    const { sql, args } = this.where(f);
    const total = (this.statement(`SELECT COUNT(*) AS n FROM events e WHERE ${sql}`).get(...args) as { n: number }).n;
    const order = f.includeIds ? 'e.date, e.id' : 'e.start_local, e.id';
    const rows = this.statement(
      `SELECT e.id, e.json, e.venue_id FROM events e WHERE ${sql} ORDER BY ${order} LIMIT ? OFFSET ?`,
    ).all(...args, f.perPage, f.offset) as { id: number; json: string; venue_id: number }[];
    const ids = rows.map((r) => r.id);
    if (f.page > 1 && rows.length === 0) return { status: 404, total, ids, items: [] };
    const items = rows.map((r) => JSON.parse(r.json) as Record<string, unknown>);
    const at = new Map<number, Record<string, unknown>>();
    items.forEach((o, i) => {
      at.set(ids[i], o);
      o.categories = [];
      o.tags = [];
      const v = rows[i].venue_id ? this.linkedObjects.venues.get(rows[i].venue_id) : undefined;
      o.venue = v ? { ...v, global_id_lineage: (v.global_id_lineage as string[]).slice() } : [];
      o.organizer = [];
      o.custom_fields = [];
    });
    if (ids.length > 0) {
      const marks = ids.map(() => '?').join(',');
      for (const link of this.statement(`SELECT event_id, term_id FROM event_terms WHERE event_id IN (${marks})`).all(
        ...ids,
      ) as { event_id: number; term_id: number }[]) {
        const t = this.linkedObjects.terms.get(link.term_id);
        if (!t) continue;
        const o = at.get(link.event_id)!;
        (o[t.taxonomy === 'post_tag' ? 'tags' : 'categories'] as unknown[]).push({
          ...t,
          urls: { ...(t.urls as object) },
        });
      }
      for (const link of this.statement(
        `SELECT event_id, organizer_id FROM event_organizers WHERE event_id IN (${marks})`,
      ).all(...ids) as { event_id: number; organizer_id: number }[]) {
        const g = this.linkedObjects.organizers.get(link.organizer_id);
        if (g)
          (at.get(link.event_id)!.organizer as unknown[]).push({
            ...g,
            global_id_lineage: (g.global_id_lineage as string[]).slice(),
          });
      }
    }
    return { status: 200, total, ids, items };
  }

  private eventJson(r: PageRow): string {
    const list = (csv: string, m: Map<number, string>) =>
      csv === ''
        ? ''
        : csv
            .split(',')
            .map((id) => m.get(Number(id)))
            .filter((x) => x !== undefined)
            .join(',');
    return (
      r.json.slice(0, -1) +
      ',"categories":[' +
      list(r.cat_ids, this.termJson) +
      '],"tags":[' +
      list(r.tag_ids, this.termJson) +
      '],"venue":' +
      (r.venue_id ? (this.venueJson.get(r.venue_id) ?? '[]') : '[]') +
      ',"organizer":[' +
      list(r.organizer_ids, this.organizerJson) +
      '],"custom_fields":[]}'
    );
  }

  /** Query plan of a list call (for docs / debugging). */
  explain(params: QueryParams, actor: BenchActor): string {
    const f = resolveQuery(params, actor, this.vocab, this.site);
    const { sql, args } = this.where(f);
    const order = f.includeIds ? 'e.date, e.id' : 'e.start_local, e.id';
    const rows = this.db
      .prepare(`EXPLAIN QUERY PLAN SELECT e.id FROM events e WHERE ${sql} ORDER BY ${order} LIMIT 12`)
      .all(...args) as { detail: string }[];
    return rows.map((r) => r.detail).join('; ');
  }
}
