// A RecurrenceSet written back (the `recurrence` field of a representation, and the lines the
// iCalendar export writes), and the two edits a series' owner makes through its occurrences:
// leaving one out (an EXDATE) and ending the series before one ("this and following").

import { invalidParams } from '../api/wordpress/errors.ts';
import { epochToZoned, zonedToEpoch } from '../api/wordpress/dates.ts';
import { naiveToString } from '../engine/naive-time.ts';
import { expandRule } from './expand.ts';
import { formatRule } from './rule.ts';
import type { Rule } from './rule.ts';
import { parseDateValue } from './parse.ts';
import { DAY_MS, lowerBound, planFor, seriesStart } from './set.ts';
import type { RecurrenceSet, SeriesTime, SetRule } from './set.ts';

export interface RecurrenceRepresentation {
  /** RRULE values, normalised (UNTIL in UTC for timed series, a DATE for all-day ones) */
  rules: string[];
  /** 'YYYY-MM-DD HH:MM:SS' local in the event's zone ('YYYY-MM-DD' for all-day series) */
  rdates: string[];
  /** as rdates; a timed series may also exclude whole days ('YYYY-MM-DD') */
  exdates: string[];
  /** RFC 5545 content lines (RRULE, RDATE, EXDATE), one a line, as the iCalendar export writes them */
  text: string;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** naive ms → 'YYYYMMDD' or 'YYYYMMDDTHHMMSS' (+ 'Z' when it is an instant in UTC). */
function icalOf(t: number, dateOnly: boolean, z = false): string {
  const d = new Date(t);
  const day = `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`;
  return dateOnly
    ? day
    : `${day}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}${z ? 'Z' : ''}`;
}

function untilText(r: SetRule, allDay: boolean): string | null {
  if (r.until === null) return null;
  return allDay ? icalOf(r.until * DAY_MS, true) : icalOf(r.until, false, true);
}

/** Whether the zone can be named in a TZID (an IANA id; 'UTC' and 'UTC±h' are written as UTC instants). */
function namedZone(tz: string): boolean {
  return !/^UTC([+-]|$)/.test(tz);
}

/** DATE-TIME values of one RDATE/EXDATE line for `naive` wall-clock times of the series' zone. */
function dateTimeLine(name: string, values: readonly number[], tz: string): string {
  if (namedZone(tz)) return `${name};TZID=${tz}:${values.map((t) => icalOf(t, false)).join(',')}`;
  return `${name}:${values.map((t) => icalOf(zonedToEpoch(t, tz), false, true)).join(',')}`;
}

export function representRecurrence(set: RecurrenceSet, series: SeriesTime): RecurrenceRepresentation {
  const allDay = set.allDay;
  const tz = series.timezone;
  const rules = set.rules.map((r) => formatRule(r.rule, untilText(r, allDay)));
  const local = (t: number) => (allDay ? naiveToString(t).slice(0, 10) : naiveToString(t));
  const rdates = set.rdates.map(local);
  const exdates = [...set.exdates.map(local), ...set.exdays.map((d) => naiveToString(d * DAY_MS).slice(0, 10))].sort();
  const lines = rules.map((r) => `RRULE:${r}`);
  if (set.rdates.length) {
    lines.push(
      allDay
        ? `RDATE;VALUE=DATE:${set.rdates.map((t) => icalOf(t, true)).join(',')}`
        : dateTimeLine('RDATE', set.rdates, tz),
    );
  }
  if (set.exdates.length) {
    lines.push(
      allDay
        ? `EXDATE;VALUE=DATE:${set.exdates.map((t) => icalOf(t, true)).join(',')}`
        : dateTimeLine('EXDATE', set.exdates, tz),
    );
  }
  if (set.exdays.length) lines.push(`EXDATE;VALUE=DATE:${set.exdays.map((d) => icalOf(d * DAY_MS, true)).join(',')}`);
  return { rules, rdates, exdates, text: lines.join('\n') };
}

function localOf(set: RecurrenceSet, local: string, tz: string, field: string): number {
  try {
    const v = parseDateValue(local, tz);
    if ('day' in v) return v.day * DAY_MS;
    return set.allDay ? Math.floor(v.naive / DAY_MS) * DAY_MS : v.naive;
  } catch (e) {
    throw invalidParams({ [field]: `${field}: ${(e as Error).message}` });
  }
}

/**
 * The set with the occurrence starting at `local` ('YYYY-MM-DD HH:MM:SS' wall clock in the
 * series' zone; all-day: 'YYYY-MM-DD' or that day at any time) left out (an EXDATE). Leaving
 * out a date that is not an occurrence changes what is written but no occurrence.
 */
export function addExclusion(set: RecurrenceSet, local: string, field = 'recurrence'): RecurrenceSet {
  // the zone does not matter here: `local` is a wall-clock time and has no 'Z' form to convert
  const t = localOf(set, local, 'UTC', field);
  const at = lowerBound(set.exdates, t);
  if (set.exdates[at] === t) return set;
  const exdates = set.exdates.slice();
  exdates.splice(at, 0, t);
  return { ...set, exdates };
}

/**
 * The set ended just before the occurrence starting at `local` ("this and following" moves
 * that occurrence and the ones after it to a new series): each rule ends before it (UNTIL one
 * second earlier, or a smaller COUNT), and RDATEs and EXDATEs from it on are dropped. `local`
 * must be after the series' start.
 */
export function untilBefore(
  set: RecurrenceSet,
  local: string,
  series: SeriesTime,
  field = 'recurrence',
): RecurrenceSet {
  const tz = series.timezone;
  const dtstart = seriesStart(series);
  const cut = localOf(set, local, tz, field);
  if (cut <= dtstart) {
    throw invalidParams({
      [field]: `${field}: ${local} is not after the series' start ${series.start} (edit the whole series instead)`,
    });
  }
  const allDay = set.allDay;
  const cutInstant = allDay ? Math.floor(cut / DAY_MS) : zonedToEpoch(cut, tz);
  const lastAllowed = allDay ? cutInstant - 1 : cutInstant - 1000;
  const rules: SetRule[] = [];
  for (const r of set.rules) {
    if (r.rule.count !== null) {
      // COUNT: the number of this rule's instances before the cut
      const n = instancesBefore(r, dtstart, cut, allDay, tz);
      if (n > 0) rules.push({ rule: { ...r.rule, count: n }, until: null, empty: r.empty });
    } else {
      const until = r.until === null ? lastAllowed : Math.min(r.until, lastAllowed);
      rules.push({ rule: withUntil(r.rule, until, allDay), until, empty: r.empty });
    }
  }
  const keep = (values: readonly number[]) => values.slice(0, lowerBound(values, cut));
  const exdays = set.exdays.slice(0, lowerBound(set.exdays, Math.floor(cut / DAY_MS) + (allDay ? 0 : 1)));
  return { allDay, rules, rdates: keep(set.rdates), exdates: keep(set.exdates), exdays };
}

/** The number of instances rule `r` makes before the wall-clock time `cut` (naive ms): what its
 *  COUNT counts (a start the rule does not make is not one of them). */
function instancesBefore(r: SetRule, dtstart: number, cut: number, allDay: boolean, tz: string): number {
  const lastAllowed = allDay ? Math.floor(cut / DAY_MS) - 1 : zonedToEpoch(cut, tz) - 1000;
  let n = 0;
  for (const t of expandRule(planFor(r.rule, dtstart), dtstart, cut)) {
    if (t >= cut || (!allDay && zonedToEpoch(t, tz) > lastAllowed)) break;
    n++;
  }
  return n;
}

/**
 * What each rule's COUNT becomes in the series that starts at the occurrence `local` when a series
 * is split there ("this and following"): the instances the rule has from it on (null for a rule
 * without COUNT), in the order of the set's rules.
 */
export function countsFrom(
  set: RecurrenceSet,
  local: string,
  series: SeriesTime,
  field = 'recurrence',
): (number | null)[] {
  const dtstart = seriesStart(series);
  const cut = localOf(set, local, series.timezone, field);
  return set.rules.map((r) =>
    r.rule.count === null
      ? null
      : Math.max(1, r.rule.count - instancesBefore(r, dtstart, cut, set.allDay, series.timezone)),
  );
}

/** A copy of `rule` whose written UNTIL says `until` (epoch ms, or a day number all-day). */
function withUntil(rule: Rule, until: number, allDay: boolean): Rule {
  return { ...rule, until: allDay ? icalOf(until * DAY_MS, true) : icalOf(until, false, true) };
}

/** An occurrence instant → its wall clock (for callers that hold instants). */
export function localAt(utc: number, series: SeriesTime): string {
  return naiveToString(epochToZoned(utc, series.timezone));
}
