// A PHP strtotime()/DateTime parser: the date formats, relative words and zone tokens TEC's
// REST writes accept ("tomorrow 9am", "next wednesday 4pm", "+1 day", "2026-03-05 09:00 Europe/Paris").
// scan() turns a string into a parse state (null = PHP would not parse it); resolve() fills the
// state's holes from a wall clock and applies its weekday, relative and first/last-day parts, in
// timelib's order. Zones are the caller's (src/api/wordpress/dates.ts): it passes its zone-id check in and
// converts between zones itself. The words it knows: strtotime-words.ts; the parse state and what
// the rules do to it: strtotime-state.ts; resolve(): strtotime-resolve.ts.

import { ABBR_OFFSETS, MONTHS, RELTEXT, WEEKDAYS } from './strtotime-words.ts';
import {
  type ParseState,
  type Rule,
  fraction,
  haveDate,
  haveTime,
  rule,
  setRelative,
  setTime12,
  setTime24,
  setZoneOffset,
  tzCorrection,
  unhaveTime,
  year,
} from './strtotime-state.ts';

const MONTH_RE =
  'january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec';
const DAY_RE = '(?:[0-2]?[0-9]|3[01])';
const DAYSUF = '(?:st|nd|rd|th)?';
const UNIT_RE =
  'msecs?|milliseconds?|ms|secs?|seconds?|mins?|minutes?|hours?|days?|weeks?|fortnights?|forthnights?|months?|years?|monday|mon|tuesday|tue|wednesday|wed|thursday|thu|friday|fri|saturday|sat|sunday|sun';
const END = '(?![a-z0-9])';
const TIME24 = 't?([01]?[0-9]|2[0-4])[:.]([0-5]?[0-9])(?:[:.]([0-5]?[0-9]|60)(?:[.,]([0-9]+))?)?';
const TIME12 = '(0?[1-9]|1[0-2])(?:[:.]([0-5][0-9])(?:[:.]([0-5][0-9]|60))?)?[ \\t]*([ap])\\.?m\\.?(?![a-z0-9])';

const RULES: Rule[] = [
  rule(`yesterday${END}`, (_m, st) => {
    unhaveTime(st);
    st.rel.d = -1;
    return true;
  }),
  rule(`now${END}`, () => true),
  rule(`noon${END}`, (_m, st) => {
    unhaveTime(st);
    if (!haveTime(st)) return false;
    st.h = 12;
    return true;
  }),
  rule(`(?:midnight|today)${END}`, (_m, st) => {
    unhaveTime(st);
    return true;
  }),
  rule(`tomorrow${END}`, (_m, st) => {
    unhaveTime(st);
    st.rel.d = 1;
    return true;
  }),
  rule('@(-?[0-9]+)(?:\\.([0-9]{1,6}))?', (m, st) => {
    unhaveTime(st);
    st.haveDate = false;
    if (!setZoneOffset(st, 0)) return false;
    st.y = 1970;
    st.m = 1;
    st.d = 1;
    st.rel.s += +m[1];
    if (m[2]) st.rel.ms += (m[1].startsWith('-') ? -1 : 1) * fraction(m[2]);
    return true;
  }),
  rule(`(first|last) day of${END}`, (m, st) => {
    st.firstLast = m[1].toLowerCase() === 'first' ? 1 : 2;
    return true;
  }),
  rule(TIME12, (m, st) => setTime12(m, st, 1)),
  rule(TIME24, (m, st) => setTime24(m, st, 1)),
  // gnunocolon: HHMM is a time, or a year once a time is known
  rule('t?([01][0-9]|2[0-4])([0-5][0-9])(?![0-9])', (m, st) => {
    if (!st.haveTime) {
      st.haveTime = true;
      st.h = +m[1];
      st.i = +m[2];
      st.s = 0;
      st.ms = 0;
      return true;
    }
    st.y = +(m[1] + m[2]);
    return true;
  }),
  // iso8601nocolon: HHMMSS
  rule('t?([01][0-9]|2[0-4])([0-5][0-9])([0-5][0-9]|60)(?![0-9])', (m, st) => {
    if (!haveTime(st)) return false;
    st.h = +m[1];
    st.i = +m[2];
    st.s = +m[3];
    return true;
  }),
  // year4 alone (used when gnunocolon cannot read the digits as a time)
  rule('([0-9]{4})(?![0-9])', (m, st) => {
    st.y = +m[1];
    return true;
  }),
  // american: m/d, m/d/y
  rule(`(0?[0-9]|1[0-2])/(${DAY_RE})${DAYSUF}(?:/([0-9]{1,4}))?`, (m, st) => {
    if (!haveDate(st)) return false;
    st.m = +m[1];
    st.d = +m[2];
    if (m[3] !== undefined) st.y = year(m[3]);
    return true;
  }),
  // iso8601date4 / iso8601dateslash / dateslash
  rule('([+-]?[0-9]{4})-(0[0-9]|1[0-2])-(0[0-9]|[12][0-9]|3[01])', (m, st) => {
    if (!haveDate(st)) return false;
    st.y = +m[1];
    st.m = +m[2];
    st.d = +m[3];
    return true;
  }),
  rule(`([0-9]{4})/(0?[0-9]|1[0-2])/(${DAY_RE})/?`, (m, st) => {
    if (!haveDate(st)) return false;
    st.y = +m[1];
    st.m = +m[2];
    st.d = +m[3];
    return true;
  }),
  // gnudateshort: y-m-d with short year
  rule(`([0-9]{1,4})-(0?[0-9]|1[0-2])-(${DAY_RE})${DAYSUF}`, (m, st) => {
    if (!haveDate(st)) return false;
    st.y = year(m[1]);
    st.m = +m[2];
    st.d = +m[3];
    return true;
  }),
  // gnudateshorter: Y-m
  rule('([0-9]{4})-(0?[0-9]|1[0-2])(?![0-9])', (m, st) => {
    if (!haveDate(st)) return false;
    st.y = +m[1];
    st.m = +m[2];
    st.d = 1;
    return true;
  }),
  // pointeddate4: d.m.Y, d-m-Y
  rule(`(${DAY_RE})[.\\t-](0?[0-9]|1[0-2])[.-]([0-9]{4})`, (m, st) => {
    if (!haveDate(st)) return false;
    st.d = +m[1];
    st.m = +m[2];
    st.y = +m[3];
    return true;
  }),
  // pointeddate2: d.m.y
  rule(`(${DAY_RE})[.\\t](0?[0-9]|1[0-2])\\.([0-9]{2})(?![0-9])`, (m, st) => {
    if (!haveDate(st)) return false;
    st.d = +m[1];
    st.m = +m[2];
    st.y = year(m[3]);
    return true;
  }),
  // datefull: 5 January 2024
  rule(`(${DAY_RE})${DAYSUF}[ \\t.-]*(${MONTH_RE})[ \\t.-]*([0-9]{1,4})`, (m, st) => {
    if (!haveDate(st)) return false;
    st.d = +m[1];
    st.m = MONTHS[m[2].toLowerCase()];
    st.y = year(m[3]);
    return true;
  }),
  // datenoday: January 2024
  rule(`(${MONTH_RE})[ .\\t-]*([0-9]{4})`, (m, st) => {
    if (!haveDate(st)) return false;
    st.m = MONTHS[m[1].toLowerCase()];
    st.y = +m[2];
    st.d = 1;
    return true;
  }),
  // datenodayrev: 2024 January
  rule(`([0-9]{4})[ .\\t-]*(${MONTH_RE})`, (m, st) => {
    if (!haveDate(st)) return false;
    st.y = +m[1];
    st.m = MONTHS[m[2].toLowerCase()];
    st.d = 1;
    return true;
  }),
  // datetextual: January 5 2024, Jan 5th, 2024
  rule(`(${MONTH_RE})[ .\\t-]*(${DAY_RE})${DAYSUF}[,.\\t ]+([0-9]{1,4})(?![0-9:.]|[ \\t]*[ap]\\.?m)`, (m, st) => {
    if (!haveDate(st)) return false;
    st.m = MONTHS[m[1].toLowerCase()];
    st.d = +m[2];
    st.y = year(m[3]);
    return true;
  }),
  // datenoyear: January 5
  rule(`(${MONTH_RE})[ .\\t-]*(${DAY_RE})${DAYSUF}(?![0-9])`, (m, st) => {
    if (!haveDate(st)) return false;
    st.m = MONTHS[m[1].toLowerCase()];
    st.d = +m[2];
    return true;
  }),
  // dateshortwithtime: January 5 10:30, Jan 5 3pm
  rule(`(${MONTH_RE})[ .\\t-]*(${DAY_RE})${DAYSUF}[,.\\t ]*${TIME24}`, (m, st) => {
    if (!haveDate(st)) return false;
    st.m = MONTHS[m[1].toLowerCase()];
    st.d = +m[2];
    return setTime24(m, st, 3);
  }),
  rule(`(${MONTH_RE})[ .\\t-]*(${DAY_RE})${DAYSUF}[,.\\t ]*${TIME12}`, (m, st) => {
    if (!haveDate(st)) return false;
    st.m = MONTHS[m[1].toLowerCase()];
    st.d = +m[2];
    return setTime12(m, st, 3);
  }),
  // datenoyearrev: 5 January
  rule(`(${DAY_RE})${DAYSUF}[ .\\t-]*(${MONTH_RE})${END}`, (m, st) => {
    if (!haveDate(st)) return false;
    st.d = +m[1];
    st.m = MONTHS[m[2].toLowerCase()];
    return true;
  }),
  // month name alone
  rule(`(${MONTH_RE})${END}`, (m, st) => {
    if (!haveDate(st)) return false;
    st.m = MONTHS[m[1].toLowerCase()];
    return true;
  }),
  // relative: '+5 days', '-2 hours', '3 weeks', '+1 monday'
  rule(`([+-]*)[ \\t]*([0-9]+)[ \\t]*(${UNIT_RE})${END}`, (m, st) => {
    const negative = (m[1].split('-').length - 1) % 2 === 1;
    return setRelative(st, negative ? -m[2] : +m[2], m[3], 1);
  }),
  // relativetext: 'next wednesday', 'last friday', 'next month', 'this monday'
  rule(
    `(first|next|second|third|fourth|fifth|sixth|seventh|eighth|eight|ninth|tenth|eleventh|twelfth|last|previous|this)[ \\t]+(${UNIT_RE})${END}`,
    (m, st) => {
      const [amount, behavior] = RELTEXT[m[1].toLowerCase()];
      return setRelative(st, amount, m[2], behavior);
    },
  ),
  // weekday name: today counts
  rule(`(monday|mon|tuesday|tue|wednesday|wed|thursday|thu|friday|fri|saturday|sat|sunday|sun)${END}`, (m, st) => {
    unhaveTime(st);
    st.weekday = WEEKDAYS[m[1].toLowerCase()];
    if (st.weekdayBehavior !== 2) st.weekdayBehavior = 1;
    return true;
  }),
  rule(`ago${END}`, (_m, st) => {
    const r = st.rel;
    r.y = -r.y;
    r.m = -r.m;
    r.d = -r.d;
    r.h = -r.h;
    r.i = -r.i;
    r.s = -r.s;
    r.ms = -r.ms;
    if (st.weekday !== undefined) st.weekday = st.weekday === 0 ? -7 : -st.weekday;
    return true;
  }),
  // tzcorrection: +02:00, -0500, GMT+2
  rule('(?:GMT)?([+-])([0-9]{1,2}(?::?[0-9]{1,2})?)(?![0-9])', (m, st) => setZoneOffset(st, tzCorrection(m[1], m[2]))),
  // zone abbreviations: Z, UTC, EST, (CET)
  rule(`\\(?([a-z]{1,6})\\)?${END}`, (m, st) => {
    const off = ABBR_OFFSETS[m[1].toLowerCase()];
    if (off === undefined) return false; // "The timezone could not be found in the database"
    return setZoneOffset(st, off * 60_000);
  }),
  // zone ids: Europe/Paris
  rule(
    '([A-Z][a-z]+(?:[_/-][A-Za-z]+)+)',
    (m, st) => {
      if (st.haveZone || !st.isZoneId(m[1])) return false;
      st.haveZone = true;
      st.zoneId = m[1];
      return true;
    },
    true,
  ),
];

/** The tokens of `input` as a parse state, or null when PHP would not parse it. */
export function scan(input: string, isZoneId: (name: string) => boolean): ParseState | null {
  const st: ParseState = {
    isZoneId,
    haveTime: false,
    haveDate: false,
    haveZone: false,
    rel: { y: 0, m: 0, d: 0, h: 0, i: 0, s: 0, ms: 0 },
    weekdayBehavior: 0,
    firstLast: 0,
  };
  let pos = 0;
  const n = input.length;
  while (pos < n) {
    const c = input.charCodeAt(pos);
    // [ .,\t] and line breaks are skipped between tokens
    if (c === 32 || c === 46 || c === 44 || c === 9 || c === 10 || c === 13) {
      pos++;
      continue;
    }
    let best: RegExpExecArray | null = null;
    let bestRule: Rule | null = null;
    for (const r of RULES) {
      r.re.lastIndex = pos;
      const m = r.re.exec(input);
      if (m !== null && m[0].length > 0 && (best === null || m[0].length > best[0].length)) {
        best = m;
        bestRule = r;
      }
    }
    if (best === null || bestRule === null) return null; // "Unexpected character"
    if (!bestRule.act(best, st)) return null;
    pos += best[0].length;
  }
  return st;
}
