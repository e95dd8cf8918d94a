// Series and their occurrences as rows of the event table. A series is an event with a
// recurrence; its row is its first instance (DTSTART). Every later instance up to the horizon is
// a row of its own (an occurrence): the series' fields, its own start and end, parentId = the
// series, recurrenceId = its original local start. Occurrence rows are written by ops like any
// event, with ids allocated by the write that makes them, so the journal, snapshots, exports and
// cluster replication carry them and their ids as they are.

import type { EngineApi } from '../engine/engine-api.ts';
import { naiveFromString, naiveToString } from '../engine/naive-time.ts';
import type { EventRecord, Op } from '../engine/records.ts';
import { Tx, type Core } from '../api/context.ts';
import { computeDates } from '../api/events/write.ts';
import { invalidParams } from '../api/wordpress/errors.ts';
import { trashedSlug } from '../engine/apply.ts';
import { zonedToEpoch } from '../api/wordpress/dates.ts';
import { occurrenceAt, occurrences } from './index.ts';
import { seriesTimeAt, seriesTimeOf, setAt, setOf } from './stored.ts';

export { seriesTimeOf, setOf, storedOf } from './stored.ts';

const DAY = 86_400_000;
/** a series' occurrences are rows up to this long after now or after its start, whichever is
 *  later (the rolling horizon: it covers the default list window of 24 months with days to
 *  spare); instances past it are far occurrences (far.ts) */
export const HORIZON_DAYS = 735;
/** a series has fewer occurrence rows than this (its own row is the first instance) */
export const MAX_MATERIALISED = 10_000;

/** Where a series' occurrence rows end: HORIZON_DAYS after now, or after its start when that is later. */
export function horizonOf(now: number, series?: EventRecord): number {
  const start = series ? Date.parse(series.startUtc.replace(' ', 'T') + 'Z') : NaN;
  return Math.max(start, now) + HORIZON_DAYS * DAY;
}

/** An occurrence's slug: the series' slug and the occurrence's day ('' when the series has none). */
function slugBase(series: EventRecord, local: string): string {
  const base = series.slug.endsWith('__trashed') ? series.slug.slice(0, -'__trashed'.length) : series.slug;
  return base === '' ? '' : `${base}-${local.slice(0, 10)}`;
}

/** The row of one generated occurrence: the series' fields at `local` (its original start). */
export function occurrenceRecord(
  series: EventRecord,
  local: string,
  id: number,
  slug: string,
  siteZone: string,
): EventRecord {
  const tz = series.timezone || siteZone;
  const start = naiveFromString(local);
  const duration = naiveFromString(series.endLocal) - naiveFromString(series.startLocal);
  const rec: EventRecord = {
    ...series,
    id,
    slug,
    parentId: series.id,
    recurrenceId: local,
    ...computeDates(tz, start, start + duration, series.allDay),
  };
  delete rec.recurrence;
  delete rec.exception;
  delete rec.lineage;
  if (!series.timezone) rec.timezone = '';
  return rec;
}

/** An exception taking the series' status (its own fields stay). */
function exceptionWithStatus(e: EventRecord, series: EventRecord): EventRecord {
  if (e.status === series.status) return e;
  const rec = { ...e, status: series.status, modified: series.modified, modifiedUtc: series.modifiedUtc };
  if (series.status === 'trash') rec.slug = trashedSlug(e.slug);
  else if (e.slug.endsWith('__trashed')) rec.slug = e.slug.slice(0, -'__trashed'.length);
  return rec;
}

/** The same fields with the same values (arrays by their items, a recurrence by its lists). */
function sameRecord(a: EventRecord, b: EventRecord): boolean {
  const x = a as unknown as Record<string, unknown>,
    y = b as unknown as Record<string, unknown>;
  let n = 0;
  for (const k in x) {
    n++;
    const u = x[k],
      v = y[k];
    if (u === v) continue;
    if (
      u === undefined ||
      v === undefined ||
      typeof u !== 'object' ||
      typeof v !== 'object' ||
      u === null ||
      v === null
    )
      return false;
    if (JSON.stringify(u) !== JSON.stringify(v)) return false;
  }
  for (const _ in y) n--;
  return n === 0;
}

/** The occurrence rows (records) of a series, every status, by recurrence id. */
export function childrenOf(engine: EngineApi, seriesId: number): Map<string, EventRecord> {
  const out = new Map<string, EventRecord>();
  for (const row of engine.childRows(seriesId)) {
    const rec = engine.eventRecord(row);
    if (rec.recurrenceId !== undefined) out.set(rec.recurrenceId, rec);
  }
  return out;
}

export interface StageOptions {
  /** occurrence rows of another series this one takes over, by their recurrence id in this one */
  adopt?: Map<string, EventRecord>;
  /** ids another part of the same write takes care of */
  skip?: ReadonlySet<number>;
  /** ids adopted here are added to it */
  adopted?: Set<number>;
}

/**
 * Stage the ops that make the occurrence rows of `series` (as it will be after this write) what
 * its recurrence generates up to the horizon: generated rows get the series' fields (ids kept by
 * recurrence id), exceptions keep theirs but take the series' status, rows no longer generated
 * are dropped (status 'inherit': kept for their id, never listed or answered), trashed ones
 * (deleted occurrences) are left as they are. Throws 400 past MAX_MATERIALISED.
 */
export function stageOccurrences(tx: Tx, series: EventRecord, opts: StageOptions = {}): void {
  const site = tx.core.site.config;
  const engine = tx.engine;
  const existing = childrenOf(engine, series.id);
  const set = series.recurrence ? setOf(series, site.timezone) : null;
  const wanted: string[] = [];
  if (set) {
    // rows up to the horizon; instances past it are far occurrences (far.ts)
    const horizon = horizonOf(site.now().getTime(), series);
    for (const occ of occurrences(set, seriesTimeOf(series, site.timezone), undefined, horizon)) {
      if (occ.local === series.startLocal) continue;
      wanted.push(occ.local);
      if (wanted.length >= MAX_MATERIALISED) {
        throw invalidParams({
          recurrence: `recurrence: a series may have at most ${MAX_MATERIALISED} occurrences in ${HORIZON_DAYS} days`,
        });
      }
    }
  }
  const seen = new Set<string>();
  for (const local of wanted) {
    if (seen.has(local)) continue;
    seen.add(local);
    let old = existing.get(local);
    if (old === undefined && opts.adopt?.has(local)) {
      old = opts.adopt.get(local)!;
      opts.adopted?.add(old.id);
    }
    if (old !== undefined && opts.skip?.has(old.id)) continue;
    if (old !== undefined && old.exception && old.status !== 'inherit') {
      const rec = exceptionWithStatus({ ...old, parentId: series.id, recurrenceId: local }, series);
      if (!sameRecord(rec, old)) tx.ops.push({ t: 'event', a: 'put', rec });
      continue;
    }
    const id = old?.id ?? engine.allocPostId();
    const base = slugBase(series, local);
    let slug = base;
    const oldSlug = old?.slug.replace(/__trashed$/, '');
    if (base !== '')
      slug = oldSlug !== undefined && oldSlug.startsWith(base) ? oldSlug : tx.uniqueSlug('event', base, id);
    if (series.status === 'trash' && slug !== '') slug = trashedSlug(slug);
    const rec = occurrenceRecord(series, local, id, slug, site.timezone);
    if (old === undefined || !sameRecord(rec, old)) tx.ops.push({ t: 'event', a: 'put', rec });
  }
  for (const [local, old] of existing) {
    if (seen.has(local) || opts.skip?.has(old.id) || old.status === 'inherit' || old.status === 'trash') continue;
    // an exception made from a far occurrence (past the horizon) stays while the series has its instance
    if (old.exception && set && occurrenceAt(set, seriesTimeOf(series, site.timezone), local) !== null) {
      const rec = exceptionWithStatus({ ...old, parentId: series.id }, series);
      if (!sameRecord(rec, old)) tx.ops.push({ t: 'event', a: 'put', rec });
      continue;
    }
    tx.ops.push({
      t: 'event',
      a: 'put',
      rec: { ...old, status: 'inherit', modified: series.modified, modifiedUtc: series.modifiedUtc },
    });
  }
}

/**
 * The occurrences a series (row `row`) gains as the horizon moves on: records for the instances
 * after its last generated occurrence row (`kids`: its rows' original starts), up to the horizon
 * (ids allocated here), bounded or not (a bounded series' rows end at its last instance).
 */
function stageHorizon(tx: Tx, row: number, kids: Kids | undefined, now: number): void {
  const engine = tx.engine,
    siteZone = tx.core.site.config.timezone;
  const status = engine.eventStatus(row);
  if (status === 'trash' || status === 'inherit') return;
  const set = setAt(engine, row, siteZone);
  if (!set) return;
  const st = seriesTimeAt(engine, row, siteZone);
  const last = kids && kids.last > st.start ? kids.last : st.start;
  // the instances after the last row (none for a bounded series whose rows reach its last one):
  // a rule without COUNT is expanded from there on, not from its start
  const startUtc = engine.eventTable.startUtc.get(row);
  const horizon = horizonOf(now, { startUtc } as EventRecord);
  let series: EventRecord | undefined;
  let n = kids?.count ?? 0;
  for (const occ of occurrences(set, st, zonedToEpoch(naiveFromString(last), st.timezone) + 1000, horizon)) {
    // a row after `last` is an exception: `last` is the latest of the others
    if (occ.local <= last || kids?.exceptions?.has(occ.local) || occ.local === st.start) continue;
    if (++n > MAX_MATERIALISED) break;
    series ??= engine.eventRecord(row);
    const id = engine.allocPostId();
    const base = slugBase(series, occ.local);
    const slug = base === '' ? '' : tx.uniqueSlug('event', base, id);
    tx.ops.push({ t: 'event', a: 'put', rec: occurrenceRecord(series, occ.local, id, slug, siteZone) });
  }
}

/** A series' occurrence rows: how many original starts they have, the last of those not an
 *  exception, and the exceptions' (the only ones that may come after it). */
interface Kids {
  count: number;
  last: string;
  exceptions: Set<string> | undefined;
}

/** a series with at least this many rows has its distinct original starts counted (else rows) */
const COUNT_DISTINCT = MAX_MATERIALISED / 2;

/** 'Y-m-d H:i:s' shifted by ms. */
export function shiftLocal(local: string, ms: number): string {
  return ms === 0 ? local : naiveToString(naiveFromString(local) + ms);
}

/** The ops of the occurrences every series gains as the horizon moves on (a write by the site). */
export function horizonOps(core: Core): Op[] {
  const tx = new Tx(core, null);
  const engine = core.engine,
    t = engine.eventTable;
  if (t.recur.size === 0) return tx.ops;
  // one pass over the occurrence rows: per series, its rows, its last original start and its
  // exceptions' (no set of every original start: a million strings at the full size)
  const kids = new Map<number, Kids>();
  for (const [row, info] of t.recur) {
    const rid = info.recurrenceId;
    if (rid === undefined) continue;
    const parent = t.parentIds[row];
    let k = kids.get(parent);
    if (!k) kids.set(parent, (k = { count: 0, last: '', exceptions: undefined }));
    k.count++;
    if (info.exception) (k.exceptions ??= new Set()).add(rid);
    else if (rid > k.last) k.last = rid;
  }
  // near the cap on rows, what counts is distinct original starts (as a row kept per start)
  const many = new Map<number, Set<string>>();
  for (const [parent, k] of kids) if (k.count >= COUNT_DISTINCT) many.set(parent, new Set());
  if (many.size > 0) {
    for (const [row, info] of t.recur) {
      if (info.recurrenceId !== undefined) many.get(t.parentIds[row])?.add(info.recurrenceId);
    }
    for (const [parent, starts] of many) kids.get(parent)!.count = starts.size;
  }
  const now = core.site.config.now().getTime();
  for (const row of engine.seriesRows()) stageHorizon(tx, row, kids.get(t.ids[row]), now);
  return tx.ops;
}
