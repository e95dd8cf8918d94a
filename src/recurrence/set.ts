// A recurrence set (RFC 5545 §3.8.5): DTSTART, the instances of each RRULE, and the RDATEs,
// less the EXDATEs, without duplicates, in start order. Rules expand in floating wall-clock time
// (expand.ts); each instance is then placed in the event's zone: a wall-clock time that does not
// exist (a spring-forward gap) moves forward by the gap's length, one that happens twice takes
// its first (earlier) instant, as RFC 5545 §3.3.5 says. A gap can put a moved instance after the
// next one (02:30 → 03:30 after 03:15), so instances wait in a small buffer, sorted by instant,
// until no later wall-clock time can land before them.

import { zonedToEpoch, epochToZoned } from '../api/wordpress/dates.ts';
import { naiveToString } from '../engine/naive-time.ts';
import { expandRule, planRule } from './expand.ts';
import type { Plan } from './expand.ts';
import type { Rule } from './rule.ts';

export const DAY_MS = 86_400_000;
/** more than any zone's offset from UTC, gaps included: a wall-clock time t is at an instant within t ± SLACK */
export const SLACK_MS = 2 * DAY_MS;

/** The series an expansion is for: the event's start (DTSTART) as local wall clock, its zone, all-day or not. */
export interface SeriesTime {
  /** 'YYYY-MM-DD HH:MM:SS', local wall clock of the event's start in `timezone` */
  start: string;
  /** IANA zone id, 'UTC' or a fixed 'UTC±h' offset */
  timezone: string;
  allDay: boolean;
}

/** One occurrence: its start as local wall clock in the series' zone, and as an instant. */
export interface Occurrence {
  /** 'YYYY-MM-DD HH:MM:SS' in the series' zone (all-day: the day at the series' start time) */
  local: string;
  /** ms since the epoch */
  utc: number;
}

export interface SetRule {
  readonly rule: Rule;
  /** UNTIL resolved: timed series, the last instant allowed (epoch ms); all-day, the last day (day number) */
  readonly until: number | null;
  /** the rule can have no instance after DTSTART (found when the set was parsed) */
  readonly empty: boolean;
}

/** A parsed, validated recurrence. Opaque to callers except through this folder's functions. */
export interface RecurrenceSet {
  readonly allDay: boolean;
  readonly rules: readonly SetRule[];
  /** added dates (naive ms, ascending, distinct; all-day: midnights) */
  readonly rdates: readonly number[];
  /** excluded dates (naive ms, ascending, distinct; all-day: midnights) */
  readonly exdates: readonly number[];
  /** timed series only: whole days excluded (EXDATE;VALUE=DATE), as day numbers, ascending */
  readonly exdays: readonly number[];
}

/** Every rule has COUNT or UNTIL (a set without rules, RDATEs only, is bounded too). */
export function isBounded(set: RecurrenceSet): boolean {
  return set.rules.every((r) => r.rule.count !== null || r.until !== null || r.empty);
}

const plans = new WeakMap<Rule, Map<number, Plan>>();

/** The rule's expansion plan for this DTSTART (kept per rule: a set is expanded many times). */
export function planFor(rule: Rule, dtstart: number): Plan {
  let byStart = plans.get(rule);
  if (!byStart) plans.set(rule, (byStart = new Map()));
  let plan = byStart.get(dtstart);
  if (!plan) {
    if (byStart.size > 8) byStart.clear();
    byStart.set(dtstart, (plan = planRule(rule, dtstart)));
  }
  return plan;
}

/** DTSTART of a series as naive ms (its start; all-day: midnight of its day). */
export function seriesStart(series: SeriesTime): number {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(series.start);
  if (!m) throw new Error(`Expected a series start 'YYYY-MM-DD HH:MM:SS', got ${JSON.stringify(series.start)}.`);
  const t = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
  return series.allDay ? Math.floor(t / DAY_MS) * DAY_MS : t;
}

/** An instance's instant: all-day instances are the zone's start of the day (at the series' time of day). */
function instant(naive: number, tz: string): number {
  return zonedToEpoch(naive, tz);
}

/** Instances of one rule at or after naive `from` (some before it may come first), up to about `to`. */
function* ruleInstances(
  r: SetRule,
  dtstart: number,
  tz: string,
  allDay: boolean,
  from: number,
  to: number,
): Generator<number, void, undefined> {
  if (r.empty) return;
  const plan = planFor(r.rule, dtstart);
  let stop = to;
  if (r.until !== null) stop = Math.min(stop, allDay ? r.until * DAY_MS + DAY_MS - 1 : r.until + SLACK_MS);
  for (const t of expandRule(plan, from, stop)) {
    if (r.until !== null && (allDay ? t >= (r.until + 1) * DAY_MS : instant(t, tz) > r.until)) continue;
    yield t;
  }
}

/** Index of the first element of ascending `a` that is >= v. */
export function lowerBound(a: readonly number[], v: number): number {
  let lo = 0,
    hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function* fromArray(a: readonly number[], from: number): Generator<number, void, undefined> {
  for (let i = lowerBound(a, from); i < a.length; i++) yield a[i];
}

/**
 * The set's occurrences whose start (as an instant) is in [from, to), lazily, in start order:
 * DTSTART (always the first), each rule's instances, the RDATEs, less the EXDATEs, each instant
 * once. Without `to` an unbounded set is an endless iterable. A rule without COUNT starts at the
 * window (expand.ts), so a window a century out costs what a window next week costs.
 */
export function* occurrences(
  set: RecurrenceSet,
  series: SeriesTime,
  from = -Infinity,
  to = Infinity,
): Generator<Occurrence, void, undefined> {
  const tz = series.timezone;
  const dtstart = seriesStart(series);
  const allDay = set.allDay;
  const timeOfDay = allDay ? timeOfDayOf(series.start) : 0;
  const fromNaive = Number.isFinite(from) ? epochToZoned(from, tz) - SLACK_MS : -Infinity;
  const toNaive = Number.isFinite(to) ? epochToZoned(to, tz) + SLACK_MS : Infinity;
  const streams: Array<Iterator<number, void, undefined>> = [
    fromArray([dtstart], fromNaive),
    fromArray(set.rdates, fromNaive),
  ];
  for (const r of set.rules) streams.push(ruleInstances(r, dtstart, tz, allDay, fromNaive, toNaive));
  const heads: number[] = [];
  for (let i = 0; i < streams.length; i++) heads.push(nextOf(streams[i]));
  const exUtc = new Set<number>();
  const exDay = new Set<number>(set.exdays);
  for (const x of set.exdates) {
    if (allDay) exDay.add(Math.floor(x / DAY_MS));
    else exUtc.add(instant(x, tz));
  }
  // waiting instances, sorted by instant: [naive, utc] pairs
  const buffer: number[][] = [];
  let lastNaive = NaN,
    lastUtc = NaN;
  for (;;) {
    // the smallest head (streams are few: DTSTART, RDATEs, at most maxRules rules)
    let k = -1;
    for (let i = 0; i < heads.length; i++) if (heads[i] === heads[i] && (k < 0 || heads[i] < heads[k])) k = i;
    // past the window's end (every later wall-clock time is at an instant after `to`): the end
    const n = k < 0 || heads[k] > toNaive ? Infinity : heads[k];
    if (n !== Infinity) heads[k] = nextOf(streams[k]);
    // release what no later wall-clock time can precede
    while (buffer.length && (n === Infinity || buffer[0][1] < n - SLACK_MS)) {
      const [bn, bu] = buffer.shift()!;
      if (bu === lastUtc) continue;
      lastUtc = bu;
      if (bu < from) continue;
      if (bu >= to) return;
      // a time in a spring-forward gap is shown at the wall-clock time it moved to (all-day: the day as it is)
      yield { local: naiveToString(allDay ? bn + timeOfDay : epochToZoned(bu, tz)), utc: bu };
    }
    if (n === Infinity) return;
    if (n === lastNaive) continue;
    lastNaive = n;
    const day = Math.floor(n / DAY_MS);
    if (exDay.has(day)) continue;
    const u = instant(allDay ? n + timeOfDay : n, tz);
    if (exUtc.has(u)) continue;
    let i = buffer.length;
    while (i > 0 && buffer[i - 1][1] > u) i--;
    buffer.splice(i, 0, [n, u]);
  }
}

function nextOf(it: Iterator<number, void, undefined>): number {
  const r = it.next();
  return r.done ? NaN : r.value;
}

function timeOfDayOf(start: string): number {
  const m = /(\d{2}):(\d{2}):(\d{2})$/.exec(start);
  return m ? (+m[1] * 3600 + +m[2] * 60 + +m[3]) * 1000 : 0;
}

/** The period of a FREQ in ms (a month and a year at their shortest), for upper bounds. */
export function freqUnitMs(freq: number): number {
  return [365 * DAY_MS, 28 * DAY_MS, 7 * DAY_MS, DAY_MS, 3_600_000, 60_000, 1000][freq];
}

/**
 * The occurrence starting at wall-clock time `local` ('YYYY-MM-DD HH:MM:SS' in the series' zone,
 * as `occurrences` shows it; all-day: that day at the series' start time), or null when the set
 * has none there.
 */
export function occurrenceAt(set: RecurrenceSet, series: SeriesTime, local: string): Occurrence | null {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(local);
  if (!m) return null;
  const utc = zonedToEpoch(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]), series.timezone);
  for (const o of occurrences(set, series, utc, utc + 1)) return o.local === local || set.allDay ? o : null;
  return null;
}

/** The last occurrence of a bounded set (null for an open-ended one): what its series ends with. */
export function lastOccurrence(set: RecurrenceSet, series: SeriesTime): Occurrence | null {
  if (!isBounded(set)) return null;
  let last: Occurrence | null = null;
  for (const o of occurrences(set, series)) last = o;
  return last;
}
