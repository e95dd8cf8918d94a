// Expansion of one rule in floating wall-clock time ("naive ms": Date.UTC of the local fields,
// as everywhere in the engine), by periods as RFC 5545 §3.3.10 describes it: for each FREQ
// period (a year, month, week, day, hour, minute or second), taken every INTERVAL periods from
// DTSTART's, the BYxxx parts expand or limit a set of candidates; BYSETPOS picks from that set;
// candidates before DTSTART are dropped; COUNT counts what is left. Parts the rule leaves out are
// taken from DTSTART (a monthly rule with no day repeats on DTSTART's day of the month, a weekly
// one on DTSTART's weekday, every rule at DTSTART's time of day).
//
// A period's candidates depend only on the period and the rule, so a rule without COUNT can start
// at the period holding any instant: reaching a window a century out costs one period, not a
// century of them. The candidate set of a day-or-longer period is (days) × (times of day), both
// sorted, so BYSETPOS indexes it without building it.

import {
  DAILY,
  HOURLY,
  MINUTELY,
  MONTHLY,
  RECURRENCE_LIMITS,
  SECONDLY,
  WEEKLY,
  YEARLY,
  dayOf,
  isLeap,
  monthLength,
  weekday,
} from './rule.ts';
import type { Rule, WeekdayNum } from './rule.ts';

const DAY = 86_400_000;
const DRY_MS = RECURRENCE_LIMITS.maxDryYears * 365.2425 * DAY;
/** 9999-12-31T23:59:59 as naive ms: nothing is expanded past it */
const LAST_NAIVE = Date.UTC(9999, 11, 31, 23, 59, 59);

export interface Plan {
  freq: number;
  interval: number;
  count: number | null;
  dtstart: number;
  /** DTSTART's period */
  p0: number;
  wkst: number;
  byMonth: boolean[] | null;
  byMonthDay: number[] | null;
  byYearDay: number[] | null;
  byWeekNo: number[] | null;
  /** plain weekdays (BYDAY=MO), by weekday */
  byWeekday: boolean[] | null;
  /** BYDAY with ordinals (BYDAY=-1FR) */
  byNthWeekday: WeekdayNum[] | null;
  /** ordinals count within the month (MONTHLY, or YEARLY with BYMONTH), else within the year */
  nthInMonth: boolean;
  /** seconds of the day, sorted (DAILY and longer) */
  times: number[];
  /** HOURLY and shorter: which hours / minutes / seconds pass (null: any) */
  hourMask: boolean[] | null;
  minuteMask: boolean[] | null;
  secondMask: boolean[] | null;
  /** HOURLY: minutes × seconds of each hour (as seconds); MINUTELY: seconds of each minute */
  subTimes: number[];
  bySetPos: number[] | null;
}

function mask(values: number[] | null, size: number): boolean[] | null {
  if (!values) return null;
  const m = new Array<boolean>(size).fill(false);
  for (const v of values) m[v] = true;
  return m;
}

const ascending = (a: number, b: number) => a - b;

/** Everything the expansion needs from a rule and its DTSTART (naive ms), computed once. */
export function planRule(rule: Rule, dtstart: number): Plan {
  const d0 = Math.floor(dtstart / DAY);
  const tod = Math.floor((dtstart - d0 * DAY) / 1000);
  const h0 = Math.floor(tod / 3600),
    m0 = Math.floor(tod / 60) % 60,
    s0 = tod % 60;
  civil(d0);
  const { freq } = rule;
  let byMonth = rule.byMonth,
    byMonthDay = rule.byMonthDay,
    byDay = rule.byDay;
  if (!rule.byWeekNo && !rule.byYearDay && !byMonthDay && !byDay) {
    if (freq === YEARLY) {
      byMonth ??= [cm];
      byMonthDay = [cd];
    } else if (freq === MONTHLY) {
      byMonthDay = [cd];
    } else if (freq === WEEKLY) {
      byDay = [{ n: 0, wd: weekday(d0) }];
    }
  }
  const hours = rule.byHour ?? [h0],
    minutes = rule.byMinute ?? [m0],
    seconds = rule.bySecond ?? [s0];
  const times: number[] = [];
  const subTimes: number[] = [];
  if (freq <= DAILY) {
    for (const h of hours) for (const m of minutes) for (const s of seconds) times.push(h * 3600 + m * 60 + s);
    times.sort(ascending);
  } else if (freq === HOURLY) {
    for (const m of minutes) for (const s of seconds) subTimes.push(m * 60 + s);
    subTimes.sort(ascending);
  } else if (freq === MINUTELY) {
    subTimes.push(...seconds);
    subTimes.sort(ascending);
  }
  const plain = byDay?.filter((d) => d.n === 0) ?? [];
  const nth = byDay?.filter((d) => d.n !== 0) ?? [];
  const plan: Plan = {
    freq,
    interval: rule.interval,
    count: rule.count,
    dtstart,
    p0: 0,
    wkst: rule.wkst,
    byMonth: mask(byMonth, 13),
    byMonthDay,
    byYearDay: rule.byYearDay,
    byWeekNo: rule.byWeekNo,
    byWeekday: byDay
      ? mask(
          plain.map((d) => d.wd),
          7,
        )
      : null,
    byNthWeekday: nth.length ? nth : null,
    nthInMonth: freq === MONTHLY || byMonth !== null,
    times,
    hourMask: freq >= HOURLY ? mask(rule.byHour, 24) : null,
    minuteMask: freq >= MINUTELY ? mask(rule.byMinute, 60) : null,
    secondMask: freq === SECONDLY ? mask(rule.bySecond, 60) : null,
    subTimes,
    bySetPos: rule.bySetPos,
  };
  plan.p0 = periodOf(plan, dtstart);
  return plan;
}

// ---------------------------------------------------------------------------------------------
// Calendar arithmetic on day numbers (days since 1970-01-01)

/** civil(day) leaves the date in these (H. Hinnant's civil_from_days) */
let cy = 0,
  cm = 0,
  cd = 0;

function civil(day: number): void {
  const z = day + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  cd = doy - Math.floor((153 * mp + 2) / 5) + 1;
  cm = mp < 10 ? mp + 3 : mp - 9;
  cy = yoe + era * 400 + (cm <= 2 ? 1 : 0);
}

/** First day of week 1 of `year` for weeks starting on `wkst`: the first week with at least 4 days in the year. */
function week1Start(year: number, wkst: number): number {
  const jan1 = dayOf(year, 1, 1);
  const offset = (weekday(jan1) - wkst + 7) % 7;
  return offset <= 3 ? jan1 - offset : jan1 - offset + 7;
}

/** The period (of the plan's FREQ) that holds naive instant `t`. */
export function periodOf(plan: Plan, t: number): number {
  const day = Math.floor(t / DAY);
  switch (plan.freq) {
    case YEARLY:
      civil(day);
      return cy;
    case MONTHLY:
      civil(day);
      return cy * 12 + cm - 1;
    case WEEKLY:
      return Math.floor((day + 3 - plan.wkst) / 7);
    case DAILY:
      return day;
    case HOURLY:
      return Math.floor(t / 3_600_000);
    case MINUTELY:
      return Math.floor(t / 60_000);
    default:
      return Math.floor(t / 1000);
  }
}

/** Naive ms at which period `p` starts. */
function periodStart(plan: Plan, p: number): number {
  switch (plan.freq) {
    case YEARLY:
      return dayOf(p, 1, 1) * DAY;
    case MONTHLY:
      return dayOf(Math.floor(p / 12), (((p % 12) + 12) % 12) + 1, 1) * DAY;
    case WEEKLY:
      return (p * 7 - 3 + plan.wkst) * DAY;
    case DAILY:
      return p * DAY;
    case HOURLY:
      return p * 3_600_000;
    case MINUTELY:
      return p * 60_000;
    default:
      return p * 1000;
  }
}

// ---------------------------------------------------------------------------------------------
// Day filters

/** BYWEEKNO for a day of calendar year `year` (as python-dateutil counts it, which rrule.js and
 *  most implementations follow): weeks of the year's own week-numbering, plus the days of
 *  week 1 of the next year that fall in December (when 1 is asked for), plus the days of the
 *  previous year's last week that fall in January (when that week's number or -1 is asked for). */
function weekNoMatches(plan: Plan, day: number, year: number): boolean {
  const list = plan.byWeekNo!;
  const w1 = week1Start(year, plan.wkst);
  const next = week1Start(year + 1, plan.wkst);
  if (day >= next) return list.includes(1);
  if (day < w1) {
    const prev = week1Start(year - 1, plan.wkst);
    return list.includes(-1) || list.includes((w1 - prev) / 7);
  }
  const weeks = (next - w1) / 7;
  const n = Math.floor((day - w1) / 7) + 1;
  return list.includes(n) || list.includes(n - weeks - 1);
}

/** Whether day `day` (y-m-d, its weekday wd) passes the plan's day parts. */
function dayMatches(plan: Plan, day: number, y: number, m: number, d: number): boolean {
  if (plan.byMonth && !plan.byMonth[m]) return false;
  if (plan.byWeekNo && !weekNoMatches(plan, day, y)) return false;
  if (plan.byYearDay) {
    const doy = day - dayOf(y, 1, 1) + 1;
    const len = isLeap(y) ? 366 : 365;
    if (!plan.byYearDay.includes(doy) && !plan.byYearDay.includes(doy - len - 1)) return false;
  }
  if (plan.byMonthDay) {
    const len = monthLength(y, m);
    if (!plan.byMonthDay.includes(d) && !plan.byMonthDay.includes(d - len - 1)) return false;
  }
  if (plan.byWeekday) {
    const wd = weekday(day);
    if (plan.byWeekday[wd]) return true;
    const nth = plan.byNthWeekday;
    if (!nth) return false;
    let fromStart: number, fromEnd: number;
    if (plan.nthInMonth) {
      fromStart = Math.floor((d - 1) / 7) + 1;
      fromEnd = -(Math.floor((monthLength(y, m) - d) / 7) + 1);
    } else {
      const doy = day - dayOf(y, 1, 1);
      fromStart = Math.floor(doy / 7) + 1;
      fromEnd = -(Math.floor(((isLeap(y) ? 365 : 364) - doy) / 7) + 1);
    }
    for (const o of nth) if (o.wd === wd && (o.n === fromStart || o.n === fromEnd)) return true;
    return false;
  }
  return true;
}

/** The days (day numbers, ascending) of a DAILY-or-longer period that pass the day parts. */
function periodDays(plan: Plan, p: number, out: number[]): void {
  out.length = 0;
  switch (plan.freq) {
    case YEARLY:
      for (let m = 1; m <= 12; m++) {
        if (plan.byMonth && !plan.byMonth[m]) continue;
        const first = dayOf(p, m, 1),
          len = monthLength(p, m);
        for (let d = 1; d <= len; d++) if (dayMatches(plan, first + d - 1, p, m, d)) out.push(first + d - 1);
      }
      return;
    case MONTHLY: {
      const y = Math.floor(p / 12),
        m = (((p % 12) + 12) % 12) + 1;
      if (plan.byMonth && !plan.byMonth[m]) return;
      const first = dayOf(y, m, 1),
        len = monthLength(y, m);
      for (let d = 1; d <= len; d++) if (dayMatches(plan, first + d - 1, y, m, d)) out.push(first + d - 1);
      return;
    }
    case WEEKLY: {
      const first = p * 7 - 3 + plan.wkst;
      for (let day = first; day < first + 7; day++) {
        civil(day);
        if (dayMatches(plan, day, cy, cm, cd)) out.push(day);
      }
      return;
    }
    default:
      civil(p);
      if (dayMatches(plan, p, cy, cm, cd)) out.push(p);
  }
}

// ---------------------------------------------------------------------------------------------
// The expansion

/** Indexes (ascending, distinct) that BYSETPOS picks from a set of `size` candidates. */
function setPositions(bySetPos: number[], size: number): number[] {
  const out: number[] = [];
  for (const pos of bySetPos) {
    const i = pos > 0 ? pos - 1 : size + pos;
    if (i >= 0 && i < size && !out.includes(i)) out.push(i);
  }
  return out.sort(ascending);
}

/**
 * The rule's instances (naive ms, ascending, none before DTSTART), COUNT applied. Without COUNT,
 * expansion starts at the period holding `from` (instances before it may still come first);
 * it stops after the period starting past `stopAfter`, at year 9999, or after maxDryYears
 * without an instance.
 */
export function* expandRule(plan: Plan, from: number, stopAfter: number): Generator<number, void, undefined> {
  const { interval, dtstart, freq } = plan;
  let p = plan.p0;
  if (plan.count === null && from > dtstart) {
    const target = periodOf(plan, from);
    if (target > p) p += Math.floor((target - p) / interval) * interval;
  }
  // BYSETPOS beyond the single-period set of an HOURLY, MINUTELY or SECONDLY rule: nothing ever
  if (
    plan.bySetPos &&
    freq > DAILY &&
    setPositions(plan.bySetPos, freq === SECONDLY ? 1 : plan.subTimes.length).length === 0
  )
    return;
  // no instance for the Gregorian cycle (or two intervals, if longer): the rule has ended
  const dry = Math.max(DRY_MS, 2 * interval * [366, 31, 7, 1, 1 / 24, 1 / 1440, 1 / 86_400][freq] * DAY);
  let emitted = 0;
  let lastHit = Math.max(dtstart, periodStart(plan, p));
  const stop = Math.min(stopAfter, LAST_NAIVE);
  const days: number[] = [];
  const picks: number[] = [];
  for (;;) {
    const start = periodStart(plan, p);
    if (start > stop || start - lastHit > dry) return;
    picks.length = 0;
    if (freq <= DAILY) {
      periodDays(plan, p, days);
      const { times } = plan;
      const nt = times.length;
      if (plan.bySetPos) {
        for (const i of setPositions(plan.bySetPos, days.length * nt))
          picks.push(days[Math.floor(i / nt)] * DAY + times[i % nt] * 1000);
      } else {
        for (const day of days) for (const t of times) picks.push(day * DAY + t * 1000);
      }
      p += interval;
    } else {
      // HOURLY, MINUTELY, SECONDLY: the period's day, hour and minute must pass first
      const day = Math.floor(start / DAY);
      civil(day);
      if (!dayMatches(plan, day, cy, cm, cd)) {
        p = nextAligned(plan, p, periodOf(plan, (day + 1) * DAY));
        continue;
      }
      const sod = Math.floor((start - day * DAY) / 1000);
      const hour = Math.floor(sod / 3600);
      if (plan.hourMask && !plan.hourMask[hour]) {
        p = nextAligned(plan, p, periodOf(plan, day * DAY + (hour + 1) * 3_600_000));
        continue;
      }
      if (freq === HOURLY) {
        const sub = plan.subTimes;
        if (plan.bySetPos) for (const i of setPositions(plan.bySetPos, sub.length)) picks.push(start + sub[i] * 1000);
        else for (const s of sub) picks.push(start + s * 1000);
      } else if (!plan.minuteMask || plan.minuteMask[Math.floor(sod / 60) % 60]) {
        if (freq === MINUTELY) {
          const sub = plan.subTimes;
          if (plan.bySetPos) for (const i of setPositions(plan.bySetPos, sub.length)) picks.push(start + sub[i] * 1000);
          else for (const s of sub) picks.push(start + s * 1000);
        } else if (!plan.secondMask || plan.secondMask[sod % 60]) {
          // SECONDLY: the period is its only candidate (BYSETPOS=1 or -1 keeps it)
          if (!plan.bySetPos || setPositions(plan.bySetPos, 1).length) picks.push(start);
        }
      }
      p += interval;
    }
    for (const t of picks) {
      if (t < dtstart || t > LAST_NAIVE) continue;
      yield t;
      lastHit = t;
      if (plan.count !== null && ++emitted >= plan.count) return;
    }
  }
}

/** The first period p0 + k·interval at or after `target` (p is such a period). */
function nextAligned(plan: Plan, p: number, target: number): number {
  return target <= p ? p + plan.interval : p + Math.ceil((target - p) / plan.interval) * plan.interval;
}
