// One RRULE value (RFC 5545 §3.3.10): parsed into a Rule, checked against the RFC's table of
// which parts go with which FREQ and against RECURRENCE_LIMITS, and written back in one
// normalised form. A bad part throws RuleError naming the part and the limit; parse.ts turns it
// into the REST error naming the field.

import { daysFromCivil } from '../engine/naive-time.ts';

/** FREQ values, in the RFC's order from the longest period to the shortest. */
export const FREQS = ['YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY', 'HOURLY', 'MINUTELY', 'SECONDLY'] as const;
export const YEARLY = 0,
  MONTHLY = 1,
  WEEKLY = 2,
  DAILY = 3,
  HOURLY = 4,
  MINUTELY = 5,
  SECONDLY = 6;
/** Weekday codes; index 0 = Monday (as `weekday()` below numbers days). */
export const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;

export const RECURRENCE_LIMITS = {
  /** A series whose every rule is bounded (COUNT or UNTIL) may have at most this many occurrences. */
  maxOccurrencesPerSeries: 100_000,
  /** COUNT above this is refused. */
  maxCount: 100_000,
  /** INTERVAL above this is refused. */
  maxInterval: 1_000,
  /** RRULEs in one series. */
  maxRules: 10,
  /** RDATEs, and separately EXDATEs, in one series. */
  maxDates: 1_000,
  /** FREQ=MINUTELY and FREQ=SECONDLY must be bounded to at most this many occurrences (COUNT, or UNTIL). */
  maxSubHourlyOccurrences: 1_000,
  /** Times of day one rule may produce (BYHOUR × BYMINUTE × BYSECOND): 1440 is every minute. */
  maxTimesPerDay: 1_440,
  /** Years a rule may go without an occurrence before it is taken to have no more (the Gregorian cycle). */
  maxDryYears: 400,
} as const;

export interface WeekdayNum {
  /** 0 = every such weekday in the period; ±n = the nth (from the end when negative) */
  n: number;
  /** 0 = Monday … 6 = Sunday */
  wd: number;
}

export interface Rule {
  freq: number;
  interval: number;
  count: number | null;
  /** UNTIL as written (YYYYMMDD, YYYYMMDDTHHMMSS or ...Z); parse.ts resolves it in the series' zone */
  until: string | null;
  bySecond: number[] | null;
  byMinute: number[] | null;
  byHour: number[] | null;
  byDay: WeekdayNum[] | null;
  byMonthDay: number[] | null;
  byYearDay: number[] | null;
  byWeekNo: number[] | null;
  byMonth: number[] | null;
  bySetPos: number[] | null;
  /** week start, 0 = Monday (the default) … 6 = Sunday */
  wkst: number;
  /** WKST was written (it is written back only then) */
  wkstGiven: boolean;
}

/** A rule part that is not valid: `part` as written (e.g. 'BYMONTHDAY=32'), `reason` saying why and the limit. */
export class RuleError extends Error {
  constructor(
    readonly part: string,
    readonly reason: string,
  ) {
    super(`${part}: ${reason}`);
    this.name = 'RuleError';
  }
}

const UNTIL_SHAPE = /^(\d{8})(T\d{6}Z?)?$/;
const INT = /^[+-]?\d{1,6}$/;
const BYDAY_ITEM = /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/;

function intList(part: string, value: string, lo: number, hi: number, allowNegative: boolean): number[] {
  const out: number[] = [];
  for (const item of value.split(',')) {
    const range = allowNegative ? `${lo}..${hi} or -${hi}..-${lo}` : `${lo}..${hi}`;
    if (!INT.test(item)) throw new RuleError(part, `"${item}" is not an integer (allowed: ${range})`);
    const n = Number(item);
    const abs = Math.abs(n);
    if ((n < 0 && !allowNegative) || abs < lo || abs > hi || (n === 0 && lo > 0)) {
      throw new RuleError(part, `${item} is out of range (allowed: ${range})`);
    }
    if (!out.includes(n)) out.push(n);
  }
  return out;
}

function positive(part: string, value: string, max: number, what: string): number {
  if (!/^\d{1,12}$/.test(value) || Number(value) < 1) {
    throw new RuleError(part, `must be a positive integer (at most ${max})`);
  }
  const n = Number(value);
  if (n > max) throw new RuleError(part, `${what} is limited to ${max}`);
  return n;
}

/**
 * Parse one RRULE value (`FREQ=WEEKLY;BYDAY=MO`, with or without a leading `RRULE:`; part names
 * and values case-insensitive). Checks each part's syntax and range, and the RFC's rules on which
 * parts go together; `allDay` refuses the parts a DATE-valued series cannot have.
 */
export function parseRule(text: string, allDay: boolean): Rule {
  let body = text.trim();
  if (/^RRULE:/i.test(body)) body = body.slice(6);
  if (body === '') throw new RuleError('RRULE', 'is empty (expected FREQ=... and other parts separated by ";")');
  const rule: Rule = {
    freq: -1,
    interval: 1,
    count: null,
    until: null,
    bySecond: null,
    byMinute: null,
    byHour: null,
    byDay: null,
    byMonthDay: null,
    byYearDay: null,
    byWeekNo: null,
    byMonth: null,
    bySetPos: null,
    wkst: 0,
    wkstGiven: false,
  };
  const seen = new Set<string>();
  for (const raw of body.split(';')) {
    if (raw === '') continue;
    const eq = raw.indexOf('=');
    if (eq <= 0) throw new RuleError(raw, 'is not a NAME=VALUE part');
    const name = raw.slice(0, eq).trim().toUpperCase();
    const value = raw
      .slice(eq + 1)
      .trim()
      .toUpperCase();
    const part = `${name}=${value}`;
    if (seen.has(name)) throw new RuleError(part, `${name} appears twice`);
    seen.add(name);
    if (value === '') throw new RuleError(part, 'has no value');
    switch (name) {
      case 'FREQ': {
        const f = (FREQS as readonly string[]).indexOf(value);
        if (f < 0) throw new RuleError(part, `unknown frequency (allowed: ${FREQS.join(', ')})`);
        rule.freq = f;
        break;
      }
      case 'INTERVAL':
        rule.interval = positive(part, value, RECURRENCE_LIMITS.maxInterval, 'INTERVAL');
        break;
      case 'COUNT':
        rule.count = positive(part, value, RECURRENCE_LIMITS.maxCount, 'COUNT');
        break;
      case 'UNTIL': {
        const m = UNTIL_SHAPE.exec(value);
        if (!m || !validDate(m[1]) || (m[2] && !validTime(m[2].slice(1, 7)))) {
          throw new RuleError(part, 'is not a date (YYYYMMDD) or date-time (YYYYMMDDTHHMMSS, UTC with a final Z)');
        }
        rule.until = value;
        break;
      }
      case 'BYSECOND':
        rule.bySecond = intList(part, value, 0, 59, false);
        break;
      case 'BYMINUTE':
        rule.byMinute = intList(part, value, 0, 59, false);
        break;
      case 'BYHOUR':
        rule.byHour = intList(part, value, 0, 23, false);
        break;
      case 'BYMONTHDAY':
        rule.byMonthDay = intList(part, value, 1, 31, true);
        break;
      case 'BYYEARDAY':
        rule.byYearDay = intList(part, value, 1, 366, true);
        break;
      case 'BYWEEKNO':
        rule.byWeekNo = intList(part, value, 1, 53, true);
        break;
      case 'BYMONTH':
        rule.byMonth = intList(part, value, 1, 12, false);
        break;
      case 'BYSETPOS':
        rule.bySetPos = intList(part, value, 1, 366, true);
        break;
      case 'BYDAY': {
        const days: WeekdayNum[] = [];
        for (const item of value.split(',')) {
          const m = BYDAY_ITEM.exec(item);
          if (!m) {
            throw new RuleError(
              part,
              `"${item}" is not a weekday (MO, TU, WE, TH, FR, SA, SU, optionally preceded by ±1..53)`,
            );
          }
          const n = m[1] === undefined ? 0 : Number(m[1]);
          if (m[1] !== undefined && (n === 0 || Math.abs(n) > 53)) {
            throw new RuleError(part, `"${item}": the ordinal must be ±1..53`);
          }
          const wd = (WEEKDAYS as readonly string[]).indexOf(m[2]);
          if (!days.some((d) => d.n === n && d.wd === wd)) days.push({ n, wd });
        }
        rule.byDay = days;
        break;
      }
      case 'WKST': {
        const wd = (WEEKDAYS as readonly string[]).indexOf(value);
        if (wd < 0) throw new RuleError(part, 'must be a weekday (MO, TU, WE, TH, FR, SA, SU)');
        rule.wkst = wd;
        rule.wkstGiven = true;
        break;
      }
      default:
        throw new RuleError(
          part,
          `unknown rule part ${name} (RFC 5545 §3.3.10 allows FREQ, UNTIL, COUNT, INTERVAL, BYSECOND, BYMINUTE, ` +
            'BYHOUR, BYDAY, BYMONTHDAY, BYYEARDAY, BYWEEKNO, BYMONTH, BYSETPOS, WKST)',
        );
    }
  }
  if (rule.freq < 0) throw new RuleError('FREQ', 'is required');
  checkCombination(rule, allDay);
  return rule;
}

/** The RFC's table of parts per FREQ, and what a DATE-valued (all-day) series allows. */
function checkCombination(rule: Rule, allDay: boolean): void {
  const freq = FREQS[rule.freq];
  if (rule.count !== null && rule.until !== null) throw new RuleError('COUNT', 'COUNT and UNTIL must not both appear');
  if (rule.byWeekNo && rule.freq !== YEARLY) {
    throw new RuleError(`BYWEEKNO`, `is only valid with FREQ=YEARLY (not ${freq})`);
  }
  if (rule.byYearDay && (rule.freq === MONTHLY || rule.freq === WEEKLY || rule.freq === DAILY)) {
    throw new RuleError('BYYEARDAY', `is not valid with FREQ=${freq}`);
  }
  if (rule.byMonthDay && rule.freq === WEEKLY) throw new RuleError('BYMONTHDAY', 'is not valid with FREQ=WEEKLY');
  if (rule.byDay?.some((d) => d.n !== 0)) {
    const bad = rule.byDay.find((d) => d.n !== 0)!;
    const item = `${bad.n}${WEEKDAYS[bad.wd]}`;
    if (rule.freq !== MONTHLY && rule.freq !== YEARLY) {
      throw new RuleError('BYDAY', `"${item}": an ordinal is only valid with FREQ=MONTHLY or FREQ=YEARLY`);
    }
    if (rule.freq === YEARLY && rule.byWeekNo) {
      throw new RuleError('BYDAY', `"${item}": an ordinal is not valid with BYWEEKNO`);
    }
    const over = rule.byDay.find((d) => Math.abs(d.n) > 5);
    if (over && (rule.freq === MONTHLY || rule.byMonth)) {
      throw new RuleError('BYDAY', `"${over.n}${WEEKDAYS[over.wd]}": an ordinal within a month is limited to ±5`);
    }
  }
  if (
    rule.bySetPos &&
    !(
      rule.bySecond ||
      rule.byMinute ||
      rule.byHour ||
      rule.byDay ||
      rule.byMonthDay ||
      rule.byYearDay ||
      rule.byWeekNo ||
      rule.byMonth
    )
  ) {
    throw new RuleError('BYSETPOS', 'needs another BYxxx part to select from');
  }
  if (allDay) {
    if (rule.freq > DAILY) {
      throw new RuleError(
        `FREQ=${freq}`,
        'an all-day series repeats by days at the most (DAILY, WEEKLY, MONTHLY, YEARLY)',
      );
    }
    for (const [name, v] of [
      ['BYHOUR', rule.byHour],
      ['BYMINUTE', rule.byMinute],
      ['BYSECOND', rule.bySecond],
    ] as const) {
      if (v) throw new RuleError(name, 'an all-day series has no time of day');
    }
  }
  const times = (rule.byHour?.length ?? 1) * (rule.byMinute?.length ?? 1) * (rule.bySecond?.length ?? 1);
  if (times > RECURRENCE_LIMITS.maxTimesPerDay) {
    throw new RuleError(
      'BYHOUR',
      `BYHOUR × BYMINUTE × BYSECOND give ${times} times of day (limit ${RECURRENCE_LIMITS.maxTimesPerDay})`,
    );
  }
}

function validDate(ymd: string): boolean {
  const y = +ymd.slice(0, 4),
    m = +ymd.slice(4, 6),
    d = +ymd.slice(6, 8);
  return y >= 1000 && m >= 1 && m <= 12 && d >= 1 && d <= monthLength(y, m);
}

function validTime(hms: string): boolean {
  return +hms.slice(0, 2) <= 23 && +hms.slice(2, 4) <= 59 && +hms.slice(4, 6) <= 59;
}

export function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

export function monthLength(y: number, m: number): number {
  return m === 2 ? (isLeap(y) ? 29 : 28) : m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

/** 0 = Monday … 6 = Sunday, of a day number (days since 1970-01-01, a Thursday). */
export function weekday(day: number): number {
  return (((day + 3) % 7) + 7) % 7;
}

/** Day number of y-m-d (m 1-12). */
export function dayOf(y: number, m: number, d: number): number {
  return daysFromCivil(y, m, d);
}

/** The rule written back: FREQ, UNTIL (as `until` gives it, already normalised) or COUNT, INTERVAL, the BY parts, WKST. */
export function formatRule(rule: Rule, until: string | null): string {
  const parts = [`FREQ=${FREQS[rule.freq]}`];
  if (until !== null) parts.push(`UNTIL=${until}`);
  if (rule.count !== null) parts.push(`COUNT=${rule.count}`);
  if (rule.interval !== 1) parts.push(`INTERVAL=${rule.interval}`);
  const list = (name: string, v: number[] | null) => {
    if (v) parts.push(`${name}=${v.join(',')}`);
  };
  list('BYSECOND', rule.bySecond);
  list('BYMINUTE', rule.byMinute);
  list('BYHOUR', rule.byHour);
  if (rule.byDay) parts.push(`BYDAY=${rule.byDay.map((d) => (d.n === 0 ? '' : d.n) + WEEKDAYS[d.wd]).join(',')}`);
  list('BYMONTHDAY', rule.byMonthDay);
  list('BYYEARDAY', rule.byYearDay);
  list('BYWEEKNO', rule.byWeekNo);
  list('BYMONTH', rule.byMonth);
  list('BYSETPOS', rule.bySetPos);
  if (rule.wkstGiven) parts.push(`WKST=${WEEKDAYS[rule.wkst]}`);
  return parts.join(';');
}
