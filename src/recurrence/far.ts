// Far occurrences: the instances of a series past its occurrence rows. Rows reach the rolling
// horizon (series.ts); a list whose window goes further expands, for that window only, the series
// that match its filters, and merges those instances with the rows in start order, counted and
// paged exactly. Nothing of it is stored: a GET of a far id (far-ids.ts) expands that one day of
// its series, and a write to a far occurrence makes it a row (an exception or an exclusion) with
// an allocated id, which its far id keeps naming.
//
// What a list holds at once: the far index (one small entry per series that has instances past
// its rows; rebuilt after a series write, and only for a list that reaches past the rows), one
// series' expansion at a time, and the first offset + per_page far occurrences of the window in
// a bounded heap. A list whose window ends before every series' first far instance costs one
// comparison more than before.

import type { Core, Tx } from '../api/context.ts';
import { zonedToEpoch } from '../api/wordpress/dates.ts';
import type { EngineApi } from '../engine/engine-api.ts';
import { details } from '../api/events/head.ts';
import { eventSingleObject, eventUrl, isoWithOffset } from '../api/representation/represent.ts';
import { trashedSlug } from '../engine/apply.ts';
import { type StartRange, endPasses, startRangeOf } from '../engine/matcher.ts';
import { naiveFromString } from '../engine/naive-time.ts';
import { type EventRecord, POST_STATUSES } from '../engine/records.ts';
import type { EventQuery, QueryResult } from '../engine/types.ts';
import { FAR_ORDINALS, decodeFarId, farIdOf, isFarId, slotsPerDay } from './far-ids.ts';
import { type Occurrence, type RecurrenceSet, type SeriesTime, occurrences } from './index.ts';
import { HORIZON_DAYS, childrenOf, occurrenceRecord } from './series.ts';
import { DAY_MS, SLACK_MS } from './set.ts';
import { seriesTimeAt, setAt } from './stored.ts';

export { isFarId } from './far-ids.ts';

const INHERIT = POST_STATUSES.indexOf('inherit');

/** A series with instances past its occurrence rows. */
interface FarSeries {
  row: number;
  id: number;
  set: RecurrenceSet;
  st: SeriesTime;
  /** rows hold every instance up to this original start ('Y-m-d H:i:s') */
  after: string;
  /** original starts of the rows past `after` (exceptions made from far occurrences) */
  rows: Set<string> | undefined;
  /** naive local start of the first instance past `after` */
  next: number;
  /** naive end - naive start of the series */
  duration: number;
}

interface FarIndex {
  /** the table's recurVersion it was built at */
  version: number;
  /** the clock (epoch ms) it was built at */
  builtAt: number;
  series: FarSeries[];
  /** the smallest `next` */
  floor: number;
}

const indexes = new WeakMap<EngineApi, FarIndex>();

/** What follows a set's `after` (cached per set: an unbounded set expands from the window, a
 *  bounded one with COUNT from its start, so its answer is kept). */
const nextCache = new WeakMap<RecurrenceSet, { after: string; next: number }>();

function nextAfter(set: RecurrenceSet, st: SeriesTime, after: string): number {
  const c = nextCache.get(set);
  if (c !== undefined && c.after === after) return c.next;
  let next = Number.POSITIVE_INFINITY;
  const from = zonedToEpoch(naiveFromString(after), st.timezone) - SLACK_MS;
  for (const o of occurrences(set, st, from)) {
    if (o.local > after) {
      next = naiveFromString(o.local);
      break;
    }
  }
  nextCache.set(set, { after, next });
  return next;
}

function buildIndex(core: Core): FarIndex {
  const engine = core.engine,
    t = engine.eventTable,
    siteZone = core.site.config.timezone;
  // one pass over the occurrence rows: each series' last generated original start, and its exceptions
  const last = new Map<number, string>();
  const exceptions: Array<[number, string]> = [];
  for (const [row, info] of t.recur) {
    const rid = info.recurrenceId;
    if (rid === undefined || t.statusCodes[row] === INHERIT) continue;
    const parent = t.parentIds[row];
    if (info.exception) exceptions.push([parent, rid]);
    else if (rid > (last.get(parent) ?? '')) last.set(parent, rid);
  }
  const byId = new Map<number, FarSeries>();
  const series: FarSeries[] = [];
  let floor = Number.POSITIVE_INFINITY;
  for (const [row, info] of t.recur) {
    if (!info.recurrence || t.statusCodes[row] === INHERIT) continue;
    const set = setAt(engine, row, siteZone);
    if (!set) continue;
    const st = seriesTimeAt(engine, row, siteZone);
    const id = t.ids[row];
    const l = last.get(id);
    const after = l !== undefined && l > st.start ? l : st.start;
    const next = nextAfter(set, st, after);
    if (next === Number.POSITIVE_INFINITY) continue;
    const fs: FarSeries = {
      row,
      id,
      set,
      st,
      after,
      rows: undefined,
      next,
      duration: t.ends[row] - t.starts[row],
    };
    series.push(fs);
    byId.set(id, fs);
    if (next < floor) floor = next;
  }
  for (const [parent, rid] of exceptions) {
    const fs = byId.get(parent);
    if (fs !== undefined && rid > fs.after) (fs.rows ??= new Set()).add(rid);
  }
  series.sort((a, b) => a.row - b.row);
  const ix = { version: t.recurVersion, builtAt: core.site.config.now().getTime(), series, floor };
  indexes.set(engine, ix);
  return ix;
}

/**
 * The far index when a window whose starts reach `max` (naive ms) may meet far occurrences, else
 * undefined. After a series write the old index still bounds where far instances begin: a write
 * makes rows to at least its own clock + the horizon, and writes come after the index was built.
 */
function indexFor(core: Core, max: number): FarIndex | undefined {
  const engine = core.engine;
  let ix = indexes.get(engine);
  if (ix !== undefined && ix.version !== engine.eventTable.recurVersion) {
    const since = Math.min(ix.builtAt, core.site.config.now().getTime());
    // the clock is an instant; a naive local time is within a day of it
    if (max < Math.min(ix.floor, since + (HORIZON_DAYS - 1) * DAY_MS)) return undefined;
    ix = undefined;
  }
  ix ??= buildIndex(core);
  return max < ix.floor ? undefined : ix;
}

// ---- days and exclusions ----------------------------------------------------------------

const unexcluded = new WeakMap<RecurrenceSet, RecurrenceSet>();

/** The set without its EXDATEs (far ids count a day's instances before exclusions). */
function withoutExclusions(set: RecurrenceSet): RecurrenceSet {
  let s = unexcluded.get(set);
  if (s === undefined) {
    s = set.exdates.length === 0 && set.exdays.length === 0 ? set : { ...set, exdates: [], exdays: [] };
    unexcluded.set(set, s);
  }
  return s;
}

const exclusions = new WeakMap<RecurrenceSet, { utc: Set<number>; days: Set<number> }>();

/** Whether the set's EXDATEs leave out the occurrence `o` (of the set without them). */
function excluded(set: RecurrenceSet, st: SeriesTime, o: Occurrence): boolean {
  if (set.exdates.length === 0 && set.exdays.length === 0) return false;
  let x = exclusions.get(set);
  if (x === undefined) {
    x = { utc: new Set(), days: new Set(set.exdays) };
    for (const d of set.exdates) {
      if (set.allDay) x.days.add(Math.floor(d / DAY_MS));
      else x.utc.add(zonedToEpoch(d, st.timezone));
    }
    exclusions.set(set, x);
  }
  return x.utc.has(o.utc) || x.days.has(Math.floor(naiveFromString(o.local) / DAY_MS));
}

/** One far instance as a list holds it. */
export interface FarItem {
  /** the series' row */
  row: number;
  /** original start, 'Y-m-d H:i:s' */
  local: string;
  id: number;
  /** its place among its day's instances */
  nth: number;
  /** naive local start */
  start: number;
}

/**
 * Each far instance of `fs` (not a row, not excluded) whose start lies in [lo, hi] (naive ms),
 * in start order with its id; `visit` returns false to stop.
 */
function* farInstances(fs: FarSeries, lo: number, hi: number): Generator<FarItem, void, undefined> {
  const { st, set } = fs;
  const tz = st.timezone;
  const afterNaive = naiveFromString(fs.after);
  const first = Math.max(lo, afterNaive);
  // from the start of the first day: a far id numbers the day's instances from its first
  const from = zonedToEpoch(Math.floor(first / DAY_MS) * DAY_MS, tz) - SLACK_MS;
  const to = Number.isFinite(hi) ? zonedToEpoch(hi, tz) + SLACK_MS : undefined;
  const seriesDay = Math.floor(naiveFromString(st.start) / DAY_MS);
  const perDay = slotsPerDay(set);
  let day = Number.NaN,
    idx = 0;
  for (const o of occurrences(withoutExclusions(set), st, from, to)) {
    const n = naiveFromString(o.local);
    const d = Math.floor(n / DAY_MS);
    if (d === day) idx++;
    else {
      day = d;
      idx = 0;
    }
    if (n > hi + SLACK_MS) return;
    if (o.local <= fs.after || n < lo || n > hi || idx >= perDay) continue;
    const ordinal = (d - seriesDay) * perDay + idx;
    if (ordinal >= FAR_ORDINALS) return;
    if (excluded(set, st, o) || fs.rows?.has(o.local)) continue;
    yield { row: fs.row, local: o.local, id: farIdOf(fs.id, ordinal), nth: idx, start: n };
  }
}

// ---- lists --------------------------------------------------------------------------------

/** A list's page: rows, and far instances as entries -1 - k of `rows` (k indexing `far`). */
export interface ListResult extends QueryResult {
  far?: FarItem[];
}

function startPasses(r: StartRange, v: number): boolean {
  return !(v < r.min || (r.minOpen && v === r.min) || v > r.max || (r.maxOpen && v === r.max));
}

function endRangeOf(q: EventQuery): StartRange {
  const r = startRangeOf(
    { statusMask: 0, offset: 0, limit: 0, startGte: q.endGte, startGt: q.endGt, startLt: q.endLt, startLte: q.endLte },
    false,
  );
  return r;
}

/** Keeps the `k` smallest items by (start, id): a max-heap. */
class SmallestK {
  readonly items: FarItem[] = [];
  constructor(private readonly k: number) {}

  private static less(a: FarItem, b: FarItem): boolean {
    return a.start < b.start || (a.start === b.start && a.id < b.id);
  }

  offer(x: FarItem): void {
    const h = this.items;
    if (this.k <= 0) return;
    if (h.length < this.k) {
      h.push(x);
      for (let i = h.length - 1; i > 0; ) {
        const p = (i - 1) >> 1;
        if (!SmallestK.less(h[p], h[i])) break;
        [h[p], h[i]] = [h[i], h[p]];
        i = p;
      }
      return;
    }
    if (!SmallestK.less(x, h[0])) return;
    h[0] = x;
    for (let i = 0; ; ) {
      const l = 2 * i + 1,
        r = l + 1;
      let m = i;
      if (l < h.length && SmallestK.less(h[m], h[l])) m = l;
      if (r < h.length && SmallestK.less(h[m], h[r])) m = r;
      if (m === i) break;
      [h[m], h[i]] = [h[i], h[m]];
      i = m;
    }
  }

  sorted(): FarItem[] {
    return this.items.slice().sort((a, b) => (SmallestK.less(a, b) ? -1 : SmallestK.less(b, a) ? 1 : 0));
  }
}

/**
 * The engine's answer to `q`, with the far instances of the window merged in (start order,
 * counted in `total`). A list with an include list, or without an upper bound on its starts
 * (only starts_after/ends_after), shows rows alone: an unbounded series has no last instance.
 */
export function listEvents(core: Core, q: EventQuery): ListResult {
  const engine = core.engine;
  const t = engine.eventTable;
  if (q.includeIds !== undefined || t.recur.size === 0) return engine.query(q);
  const window = startRangeOf(q, true);
  if (window.max === Number.POSITIVE_INFINITY) return engine.query(q);
  const ix = indexFor(core, window.max);
  if (ix === undefined) return engine.query(q);

  const starts = startRangeOf(q, false),
    ends = endRangeOf(q);
  const match = engine.rowFilter(q);
  const k = Math.max(0, q.offset) + Math.max(0, q.limit);
  const heap = new SmallestK(k);
  let farTotal = 0;
  for (const fs of ix.series) {
    if (fs.next > window.max) continue;
    if (q.parentId !== undefined && fs.id !== q.parentId) continue;
    if (!match(fs.row)) continue;
    // an end bound bounds the start too: start = end - duration
    const lo = Math.max(window.min, ends.min - fs.duration);
    for (const item of farInstances(fs, lo, window.max)) {
      if (!startPasses(starts, item.start) || !endPasses(ends, item.start + fs.duration)) continue;
      farTotal++;
      heap.offer(item);
    }
  }
  if (farTotal === 0) return engine.query(q);

  const base = engine.query({ ...q, offset: 0, limit: k });
  const far = heap.sorted();
  const rows: number[] = [],
    items: FarItem[] = [];
  const ids = t.ids,
    rowStarts = t.starts;
  let i = 0,
    j = 0;
  for (let pos = 0; pos < k && (i < base.rows.length || j < far.length); pos++) {
    let takeFar = j < far.length;
    if (takeFar && i < base.rows.length) {
      const row = base.rows[i],
        f = far[j];
      takeFar = f.start < rowStarts[row] || (f.start === rowStarts[row] && f.id < ids[row]);
    }
    if (pos >= q.offset) {
      if (takeFar) {
        items.push(far[j]);
        rows.push(-items.length);
      } else rows.push(base.rows[i]);
    }
    if (takeFar) j++;
    else i++;
  }
  return { rows, total: base.total + farTotal, far: items };
}

// ---- single far occurrences ---------------------------------------------------------------

/** The occurrence's slug: the series' slug and its day, `-2`… for a day's later instances. */
function farSlug(series: EventRecord, local: string, nth: number): string {
  const base = series.slug.endsWith('__trashed') ? series.slug.slice(0, -'__trashed'.length) : series.slug;
  if (base === '') return '';
  const slug = `${base}-${local.slice(0, 10)}${nth > 0 ? `-${nth + 1}` : ''}`;
  return series.status === 'trash' ? trashedSlug(slug) : slug;
}

/** The record of the far instance `local` of series row `row`, with id `id`. */
function farRecord(core: Core, row: number, local: string, id: number, nth: number): EventRecord {
  const series = core.engine.eventRecord(row);
  return occurrenceRecord(series, local, id, farSlug(series, local, nth), core.site.config.timezone);
}

/** The record a list's far item stands for. */
export function farItemRecord(core: Core, item: FarItem): EventRecord {
  return farRecord(core, item.row, item.local, item.id, item.nth);
}

/** A far occurrence's list representation as a fresh object: its series' with the fields an
 *  occurrence has of its own (id, urls, slug, dates, zone abbreviation, recurrence fields). */
export function farObject(core: Core, rec: EventRecord): Record<string, unknown> {
  const { engine, site } = core;
  const obj = core.render.eventObject(engine.eventRow(rec.parentId));
  const url = eventUrl(site, rec);
  const globalId = site.origin + '?id=' + rec.id;
  obj.id = rec.id;
  obj.global_id = globalId;
  obj.global_id_lineage = [globalId];
  obj.url = url;
  obj.rest_url = site.root + 'events/' + rec.id;
  obj.slug = rec.slug;
  obj.start_date = rec.startLocal;
  obj.start_date_details = details(rec.startLocal);
  obj.end_date = rec.endLocal;
  obj.end_date_details = details(rec.endLocal);
  obj.utc_start_date = rec.startUtc;
  obj.utc_start_date_details = details(rec.startUtc);
  obj.utc_end_date = rec.endUtc;
  obj.utc_end_date_details = details(rec.endUtc);
  obj.timezone_abbr = rec.timezoneAbbr;
  if (rec.website === null) obj.website = url;
  delete obj.recurrence;
  obj.post_parent = rec.parentId;
  obj.recurrence_id = rec.recurrenceId;
  obj.is_exception = false;
  return obj;
}

/** A far occurrence's single-GET representation (with json_ld). */
export function farSingleObject(core: Core, rec: EventRecord): Record<string, unknown> {
  const { engine, site } = core;
  const obj = eventSingleObject(site, engine, engine.eventRow(rec.parentId), farObject(core, rec));
  const ld = obj.json_ld as Record<string, unknown>;
  ld.startDate = isoWithOffset(rec.startLocal, rec.startUtc);
  ld.endDate = isoWithOffset(rec.endLocal, rec.endUtc);
  return obj;
}

/**
 * What a far id names: the row of that occurrence when it has one (an exception or exclusion made
 * from it, or the horizon's row once the horizon reached it), else its record as a far instance;
 * undefined when the series has no such instance (or no longer has it).
 */
export function resolveFarId(core: Core, id: number): EventRecord | undefined {
  if (!isFarId(id)) return undefined;
  const engine = core.engine,
    siteZone = core.site.config.timezone;
  const { seriesId, ordinal } = decodeFarId(id);
  const row = engine.eventRow(seriesId);
  if (row < 0 || engine.eventStatus(row) === 'inherit') return undefined;
  const set = setAt(engine, row, siteZone);
  if (!set) return undefined;
  const st = seriesTimeAt(engine, row, siteZone);
  const perDay = slotsPerDay(set);
  const idx = ordinal % perDay;
  const day = Math.floor(naiveFromString(st.start) / DAY_MS) + (ordinal - idx) / perDay;
  const dayStart = day * DAY_MS;
  let found: Occurrence | undefined;
  let n = 0;
  const from = zonedToEpoch(dayStart, st.timezone) - SLACK_MS;
  for (const o of occurrences(withoutExclusions(set), st, from, from + 2 * SLACK_MS + 2 * DAY_MS)) {
    const d = Math.floor(naiveFromString(o.local) / DAY_MS);
    if (d < day) continue;
    if (d > day) break;
    if (n++ === idx) {
      found = o;
      break;
    }
  }
  if (found === undefined) return undefined;
  const local = found.local;
  if (local === st.start) return engine.eventRecord(row);
  const children = childrenOf(engine, seriesId);
  const own = children.get(local);
  if (own !== undefined && own.status !== 'inherit') return own;
  if (excluded(set, st, found)) return undefined;
  // an instance the rows should hold (up to the last generated row) and do not: not generated
  let after = st.start;
  for (const [rid, rec] of children) if (!rec.exception && rec.status !== 'inherit' && rid > after) after = rid;
  if (local <= after) return undefined;
  return farRecord(core, row, local, id, idx);
}

// ---- writes to far occurrences ------------------------------------------------------------

function scopeParam(params: Record<string, unknown>): string {
  const s = params.recurrence_scope;
  return typeof s === 'string' ? s.trim() : '';
}

/** A far occurrence made a row of its own for a write (an allocated id, its own slug). */
function materialise(tx: Tx, rec: EventRecord, exception: boolean): EventRecord {
  const id = tx.engine.allocPostId();
  const base = rec.slug.replace(/__trashed$/, '');
  const slug = base === '' ? '' : tx.uniqueSlug('event', base, id);
  const row: EventRecord = { ...rec, id, slug: rec.status === 'trash' && slug !== '' ? trashedSlug(slug) : slug };
  if (exception) row.exception = true;
  tx.ops.push({ t: 'event', a: 'put', rec: row });
  return row;
}

/**
 * The record an update of `existing` works on: itself, or for a far occurrence edited on its own
 * (recurrence_scope=this) a new row that the edit makes an exception; for `following` a record
 * with an allocated id (it becomes the new series of the split); for `all` the far record (the
 * edit goes to the series).
 */
export function farUpdateTarget(tx: Tx, existing: EventRecord, params: Record<string, unknown>): EventRecord {
  if (!isFarId(existing.id)) return existing;
  const scope = scopeParam(params);
  if (scope === 'all') return existing;
  if (scope === 'following') return { ...existing, id: tx.engine.allocPostId() };
  return materialise(tx, existing, false);
}

/**
 * A delete of a far occurrence: `this` and `following` make it a row in the trash (an exception
 * of its series, so the restore of a deleted occurrence applies to it), `all` deletes the series.
 * `stageDelete` is the ordinary delete; returns the id the answer shows.
 */
export function stageFarDelete(
  tx: Tx,
  existing: EventRecord,
  params: Record<string, unknown>,
  stageDelete: (tx: Tx, rec: EventRecord, params: Record<string, unknown>) => void,
): number {
  if (scopeParam(params) === 'all') {
    stageDelete(tx, existing, params);
    return existing.parentId;
  }
  const row = materialise(tx, existing, true);
  stageDelete(tx, row, params);
  // `following` trashes the series' later rows; this one is not in the engine yet
  if (scopeParam(params) === 'following')
    tx.ops.push({ t: 'event', a: 'delete', id: row.id, modified: tx.stamps.local, modifiedUtc: tx.stamps.utc });
  return row.id;
}
