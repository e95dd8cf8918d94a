// The far index: which series have instances past their occurrence rows (the far occurrences of
// far.ts), from where, and the expansion of one series' far instances for a window, each with its
// far id (far-ids.ts). The index holds one small entry per such series; it is rebuilt after a
// series write, and only for a list that reaches past the rows.

import type { Core } from '../api/context.ts';
import { zonedToEpoch } from '../api/wordpress/dates.ts';
import type { EngineApi } from '../engine/engine-api.ts';
import { naiveFromString } from '../engine/naive-time.ts';
import { POST_STATUSES } from '../engine/records.ts';
import { FAR_ORDINALS, farIdOf, slotsPerDay } from './far-ids.ts';
import { type Occurrence, type RecurrenceSet, type SeriesTime, occurrences } from './index.ts';
import { HORIZON_DAYS } from './series.ts';
import { DAY_MS, SLACK_MS } from './set.ts';
import { seriesTimeAt, setAt } from './stored.ts';

const INHERIT = POST_STATUSES.indexOf('inherit');

/** A series with instances past its occurrence rows. */
export interface FarSeries {
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

export interface FarIndex {
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
export function indexFor(core: Core, max: number): FarIndex | undefined {
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
export function withoutExclusions(set: RecurrenceSet): RecurrenceSet {
  let s = unexcluded.get(set);
  if (s === undefined) {
    s = set.exdates.length === 0 && set.exdays.length === 0 ? set : { ...set, exdates: [], exdays: [] };
    unexcluded.set(set, s);
  }
  return s;
}

const exclusions = new WeakMap<RecurrenceSet, { utc: Set<number>; days: Set<number> }>();

/** Whether the set's EXDATEs leave out the occurrence `o` (of the set without them). */
export function excluded(set: RecurrenceSet, st: SeriesTime, o: Occurrence): boolean {
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
export function* farInstances(fs: FarSeries, lo: number, hi: number): Generator<FarItem, void, undefined> {
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
