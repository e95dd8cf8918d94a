// The `recurrence` field as callers write it, into a RecurrenceSet: RFC 5545 content lines as in
// .ics files (RRULE, RDATE, EXDATE, a DTSTART equal to the event's start, or a bare FREQ=...
// rule), or an object {rules, rdates?, exdates?}. Every refusal is a 400 rest_invalid_param
// naming the field, the part and the limit.

import { invalidParams } from '../api/wordpress/errors.ts';
import type { CalendarError } from '../api/wordpress/errors.ts';
import { epochToZoned, isValidTimezone, zonedToEpoch } from '../api/wordpress/dates.ts';
import { naiveToString } from '../engine/naive-time.ts';
import { expandRule } from './expand.ts';
import { MINUTELY, RECURRENCE_LIMITS, RuleError, parseRule } from './rule.ts';
import type { Rule } from './rule.ts';
import { DAY_MS, SLACK_MS, freqUnitMs, isBounded, occurrences, planFor, seriesStart } from './set.ts';
import type { RecurrenceSet, SeriesTime, SetRule } from './set.ts';

/** A date as written: a whole day, or a wall-clock time in the event's zone (naive ms). */
export type DateValue = { day: number } | { naive: number };

/** Thrown inside this file; parseRecurrence names the field. */
class InputError extends Error {}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;
const ICAL_DATE = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/;

function civilOk(y: number, mo: number, d: number, h: number, mi: number, s: number): boolean {
  if (y < 1000 || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return false;
  return d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
}

/**
 * One date in any accepted form: 'YYYY-MM-DD HH:MM:SS', 'YYYY-MM-DD HH:MM', 'YYYY-MM-DD' (local
 * in `tz`, or in `tzid` when a TZID parameter named another zone), '20300105T090000',
 * '20300105T080000Z' (UTC, converted to `tz`), '20300105'.
 */
export function parseDateValue(text: string, tz: string, tzid: string | null = null): DateValue {
  const s = text.trim();
  let m = ISO_DATE.exec(s);
  let utc = false;
  if (!m) {
    m = ICAL_DATE.exec(s);
    utc = m?.[7] === 'Z';
  }
  if (!m) throw new InputError(`"${text}" is not a date (YYYY-MM-DD[ HH:MM[:SS]], or YYYYMMDD[THHMMSS[Z]])`);
  const y = +m[1],
    mo = +m[2],
    d = +m[3];
  const timed = m[4] !== undefined;
  const h = timed ? +m[4] : 0,
    mi = timed ? +m[5] : 0,
    sec = timed && m[6] !== undefined ? +m[6] : 0;
  if (!civilOk(y, mo, d, h, mi, sec)) throw new InputError(`"${text}" is not a real date (years 1000-9999)`);
  const naive = Date.UTC(y, mo - 1, d, h, mi, sec);
  if (!timed) return { day: Math.floor(naive / DAY_MS) };
  if (utc) return { naive: epochToZoned(naive, tz) };
  if (tzid !== null && tzid !== tz) return { naive: epochToZoned(zonedToEpoch(naive, tzid), tz) };
  return { naive };
}

interface Collected {
  rules: Array<{ text: string; rule: Rule }>;
  rdates: DateValue[];
  exdates: DateValue[];
  dtstart: DateValue[];
}

function ruleOf(text: string, allDay: boolean, index: number, total: number): Rule {
  try {
    return parseRule(text, allDay);
  } catch (e) {
    if (e instanceof RuleError) throw new InputError(`${total > 1 ? `rule ${index + 1}: ` : ''}${e.message}`);
    throw e;
  }
}

/** Content lines, unfolded (a line starting with a space or tab continues the previous one). */
function collectText(text: string, allDay: boolean, tz: string, out: Collected): void {
  const lines: string[] = [];
  for (const raw of text.split(/\r\n|\n|\r/)) {
    if ((raw.startsWith(' ') || raw.startsWith('\t')) && lines.length) lines[lines.length - 1] += raw.slice(1);
    else if (raw.trim() !== '') lines.push(raw.trim());
  }
  const ruleTexts: string[] = [];
  for (const line of lines) {
    // a bare rule: NAME=VALUE parts and no content-line name before a ':'
    if (/^[A-Za-z]+=/.test(line) && !/^[A-Za-z-]+[;:]/.test(line)) {
      ruleTexts.push(line);
      continue;
    }
    const colon = line.indexOf(':');
    if (colon < 0) {
      throw new InputError(`"${line}" is not an RFC 5545 content line (NAME[;PARAM=VALUE]:VALUE) or a FREQ=... rule`);
    }
    const head = line.slice(0, colon).split(';');
    const name = head[0].trim().toUpperCase();
    const value = line.slice(colon + 1).trim();
    const params = new Map<string, string>();
    for (const p of head.slice(1)) {
      const eq = p.indexOf('=');
      if (eq <= 0) throw new InputError(`${name}: parameter "${p}" is not NAME=VALUE`);
      params.set(
        p.slice(0, eq).trim().toUpperCase(),
        p
          .slice(eq + 1)
          .trim()
          .replace(/^"(.*)"$/, '$1'),
      );
    }
    if (name === 'RRULE') {
      if (params.size) throw new InputError(`RRULE: takes no parameters (got ${[...params.keys()].join(', ')})`);
      ruleTexts.push(value);
    } else if (name === 'RDATE' || name === 'EXDATE' || name === 'DTSTART') {
      const list = name === 'RDATE' ? out.rdates : name === 'EXDATE' ? out.exdates : out.dtstart;
      for (const v of datesOfLine(name, params, value, tz)) list.push(v);
    } else if (name === 'EXRULE') {
      throw new InputError('EXRULE is not supported (RFC 5545 removed it; list the dates to leave out as EXDATE)');
    } else {
      throw new InputError(`"${name}" lines are not part of a recurrence (RRULE, RDATE, EXDATE, DTSTART)`);
    }
  }
  ruleTexts.forEach((t, i) => {
    out.rules.push({ text: t, rule: ruleOf(t, allDay, i, ruleTexts.length) });
  });
}

function datesOfLine(name: string, params: Map<string, string>, value: string, tz: string): DateValue[] {
  let tzid: string | null = null;
  for (const [k, v] of params) {
    if (k === 'VALUE') {
      if (v.toUpperCase() === 'PERIOD') {
        throw new InputError(`${name};VALUE=PERIOD: periods are not supported (give start dates)`);
      }
      if (v.toUpperCase() !== 'DATE' && v.toUpperCase() !== 'DATE-TIME') {
        throw new InputError(`${name}: VALUE=${v} (allowed: DATE, DATE-TIME)`);
      }
    } else if (k === 'TZID') {
      if (!isValidTimezone(v)) throw new InputError(`${name}: TZID=${v} is not a known time zone (an IANA zone id)`);
      tzid = v;
    } else {
      throw new InputError(`${name}: unknown parameter ${k} (allowed: VALUE, TZID)`);
    }
  }
  if (value === '') throw new InputError(`${name}: has no value`);
  return value.split(',').map((v) => {
    if (!/^\d{8}(T\d{6}Z?)?$/.test(v.trim())) {
      throw new InputError(`${name}: "${v}" is not a date (YYYYMMDD) or date-time (YYYYMMDDTHHMMSS[Z])`);
    }
    return parseDateValue(v, tz, tzid);
  });
}

function collectObject(obj: Record<string, unknown>, allDay: boolean, tz: string, out: Collected): void {
  for (const key of Object.keys(obj)) {
    if (key !== 'rules' && key !== 'rdates' && key !== 'exdates') {
      throw new InputError(`unknown key "${key}" (allowed: rules, rdates, exdates)`);
    }
  }
  const rules = obj.rules ?? [];
  const ruleList = typeof rules === 'string' ? (rules.trim() === '' ? [] : [rules]) : rules;
  if (!Array.isArray(ruleList) || ruleList.some((r) => typeof r !== 'string')) {
    throw new InputError('rules must be a string or an array of strings');
  }
  (ruleList as string[]).forEach((t, i) => {
    out.rules.push({ text: t, rule: ruleOf(t, allDay, i, ruleList.length) });
  });
  for (const key of ['rdates', 'exdates'] as const) {
    const v = obj[key] ?? [];
    if (!Array.isArray(v) || v.some((d) => typeof d !== 'string')) {
      throw new InputError(`${key} must be an array of date strings`);
    }
    for (const d of v as string[]) {
      try {
        out[key].push(parseDateValue(d, tz));
      } catch (e) {
        throw e instanceof InputError ? new InputError(`${key}: ${e.message}`) : e;
      }
    }
  }
}

/** Resolve UNTIL in the series' zone: timed, the last instant (epoch ms); all-day, the last day. */
function untilOf(rule: Rule, series: SeriesTime): number | null {
  if (rule.until === null) return null;
  const v = parseDateValue(rule.until, series.timezone);
  if (series.allDay) return 'day' in v ? v.day : Math.floor(v.naive / DAY_MS);
  // a DATE UNTIL on a timed series (not RFC 5545, but written by some clients): through the end of that day
  if ('day' in v) return zonedToEpoch(v.day * DAY_MS + DAY_MS - 1000, series.timezone);
  return /Z$/.test(rule.until)
    ? Date.parse(rule.until.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'))
    : zonedToEpoch(v.naive, series.timezone);
}

function sortedDistinct(values: number[]): number[] {
  values.sort((a, b) => a - b);
  return values.filter((v, i) => i === 0 || v !== values[i - 1]);
}

/** The set from collected parts; checks the limits that need the series (sub-hourly bounds, occurrence totals). */
function build(c: Collected, series: SeriesTime): RecurrenceSet {
  const L = RECURRENCE_LIMITS;
  if (c.rules.length > L.maxRules) throw new InputError(`${c.rules.length} rules (limit ${L.maxRules})`);
  if (c.rdates.length > L.maxDates) throw new InputError(`${c.rdates.length} RDATEs (limit ${L.maxDates})`);
  if (c.exdates.length > L.maxDates) throw new InputError(`${c.exdates.length} EXDATEs (limit ${L.maxDates})`);
  const dtstart = seriesStart(series);
  const allDay = series.allDay;
  const timeOfDay = dtstart - Math.floor(dtstart / DAY_MS) * DAY_MS;
  /** an added date: a day at the series' time of day (all-day: midnight), a date-time as it is (all-day: its day) */
  const added = (d: DateValue) =>
    'day' in d ? d.day * DAY_MS + (allDay ? 0 : timeOfDay) : allDay ? Math.floor(d.naive / DAY_MS) * DAY_MS : d.naive;
  for (const d of c.dtstart) {
    const t = added(d);
    if (t !== dtstart) {
      throw new InputError(
        `DTSTART ${naiveToString(t)} differs from the event's start ${naiveToString(dtstart)} ` +
          "(a series starts at its event's start; leave DTSTART out)",
      );
    }
  }
  const rdates = c.rdates.map(added);
  const exdates: number[] = [];
  const exdays: number[] = [];
  for (const d of c.exdates) {
    if ('day' in d) {
      if (allDay) exdates.push(d.day * DAY_MS);
      else exdays.push(d.day);
    } else {
      exdates.push(allDay ? Math.floor(d.naive / DAY_MS) * DAY_MS : d.naive);
    }
  }
  const rules: SetRule[] = c.rules.map(({ rule }, i) => {
    const until = untilOf(rule, series);
    const label = c.rules.length > 1 ? `rule ${i + 1}: ` : '';
    if (rule.freq >= MINUTELY) checkSubHourly(rule, until, dtstart, series, label);
    // a rule with no instance from DTSTART on (e.g. BYMONTH=2;BYMONTHDAY=30) is marked so once, not searched at every expansion
    const empty = expandRule(planFor(rule, dtstart), dtstart, Infinity).next().done === true;
    return { rule, until, empty };
  });
  const set: RecurrenceSet = {
    allDay,
    rules,
    rdates: sortedDistinct(rdates),
    exdates: sortedDistinct(exdates),
    exdays: sortedDistinct(exdays),
  };
  if (isBounded(set)) checkTotal(set, series);
  return set;
}

function checkSubHourly(rule: Rule, until: number | null, dtstart: number, series: SeriesTime, label: string): void {
  const max = RECURRENCE_LIMITS.maxSubHourlyOccurrences;
  const freq = rule.freq === MINUTELY ? 'MINUTELY' : 'SECONDLY';
  if (rule.count !== null) {
    if (rule.count > max) {
      throw new InputError(`${label}COUNT=${rule.count}: FREQ=${freq} is limited to ${max} occurrences`);
    }
    return;
  }
  if (until === null) throw new InputError(`${label}FREQ=${freq}: must be bounded by COUNT (at most ${max}) or UNTIL`);
  let n = 0;
  for (const t of expandRule(planFor(rule, dtstart), dtstart, until + SLACK_MS)) {
    if (zonedToEpoch(t, series.timezone) > until) break;
    if (++n > max) throw new InputError(`${label}UNTIL=${rule.until}: FREQ=${freq} is limited to ${max} occurrences`);
  }
}

/** A bounded set may have at most maxOccurrencesPerSeries occurrences (counted only when an estimate exceeds it). */
function checkTotal(set: RecurrenceSet, series: SeriesTime): void {
  const max = RECURRENCE_LIMITS.maxOccurrencesPerSeries;
  const dtstart = seriesStart(series);
  let estimate = set.rdates.length + 1;
  for (const r of set.rules) {
    if (r.empty) continue;
    if (r.rule.count !== null) estimate += r.rule.count;
    else {
      const span = (set.allDay ? r.until! * DAY_MS : epochToZoned(r.until!, series.timezone)) - dtstart;
      const periods = Math.max(0, span) / freqUnitMs(r.rule.freq) / r.rule.interval + 2;
      estimate += periods * perPeriodBound(r.rule);
    }
  }
  if (estimate <= max) return;
  let n = 0;
  for (const _ of occurrences(set, series)) {
    if (++n > max) {
      throw new InputError(
        `the series would have more than ${max} occurrences (limit ${max}; ` +
          'leave out COUNT and UNTIL for an open-ended series)',
      );
    }
  }
}

/** At most how many instances one period of the rule has. */
function perPeriodBound(rule: Rule): number {
  const times = (rule.byHour?.length ?? 1) * (rule.byMinute?.length ?? 1) * (rule.bySecond?.length ?? 1);
  // without day parts, a rule takes DTSTART's day (in each BYMONTH month of a yearly rule)
  const dayParts = rule.byWeekNo || rule.byYearDay || rule.byMonthDay || rule.byDay;
  const days = dayParts ? [366, 31, 7, 1, 1, 1, 1][rule.freq] : rule.freq === 0 ? (rule.byMonth?.length ?? 1) : 1;
  const all = rule.freq <= 3 ? days * times : (rule.byMinute?.length ?? 1) * (rule.bySecond?.length ?? 1);
  return rule.bySetPos ? Math.min(all, rule.bySetPos.length) : all;
}

/**
 * The `recurrence` field → a RecurrenceSet, or null for no recurrence (null, false, '', an
 * object with no rules and no dates). Throws 400 rest_invalid_param naming `field`.
 */
export function parseRecurrence(input: unknown, series: SeriesTime, field = 'recurrence'): RecurrenceSet | null {
  if (input === null || input === undefined || input === false || input === '') return null;
  const fail = (reason: string): CalendarError => invalidParams({ [field]: `${field}: ${reason}` });
  if (!isValidTimezone(series.timezone)) {
    throw fail(`the event's time zone ${JSON.stringify(series.timezone)} is not valid`);
  }
  if (!/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(series.start)) {
    throw fail(`the event's start ${JSON.stringify(series.start)} is not a date`);
  }
  const c: Collected = { rules: [], rdates: [], exdates: [], dtstart: [] };
  try {
    if (typeof input === 'string') collectText(input, series.allDay, series.timezone, c);
    else if (typeof input === 'object' && !Array.isArray(input)) {
      collectObject(input as Record<string, unknown>, series.allDay, series.timezone, c);
    } else throw new InputError('must be RFC 5545 text (RRULE:FREQ=...), an object {rules, rdates, exdates}, or null');
    if (c.rules.length === 0 && c.rdates.length === 0) {
      if (c.exdates.length || c.dtstart.length) {
        throw new InputError('has no RRULE and no RDATE (EXDATE and DTSTART alone repeat nothing)');
      }
      return null;
    }
    return build(c, series);
  } catch (e) {
    if (e instanceof InputError) throw fail(e.message);
    throw e;
  }
}
