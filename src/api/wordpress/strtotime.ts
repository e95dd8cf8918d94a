// A PHP strtotime()/DateTime parser: the date formats, relative words and zone tokens TEC's
// REST writes accept ("tomorrow 9am", "next wednesday 4pm", "+1 day", "2026-03-05 09:00 Europe/Paris").
// scan() turns a string into a parse state (null = PHP would not parse it); resolve() fills the
// state's holes from a wall clock and applies its weekday, relative and first/last-day parts, in
// timelib's order. Zones are the caller's (src/api/wordpress/dates.ts): it passes its zone-id check in and
// converts between zones itself. The words it knows: strtotime-words.ts; resolve():
// strtotime-resolve.ts.

import { ABBR_OFFSETS, MONTHS, RELTEXT, WEEKDAYS, unitOf } from './strtotime-words.ts';

export interface ParseState {
  y?: number;
  m?: number;
  d?: number;
  h?: number;
  i?: number;
  s?: number;
  ms?: number;
  haveTime: boolean;
  haveDate: boolean;
  /** explicit zone in the string: fixed offset ms or an IANA id */
  zoneOffset?: number;
  zoneId?: string;
  haveZone: boolean;
  rel: { y: number; m: number; d: number; h: number; i: number; s: number; ms: number };
  weekday?: number;
  weekdayBehavior: number;
  firstLast: 0 | 1 | 2;
  /** whether a name is an IANA zone id (the caller's zone registry) */
  isZoneId: (name: string) => boolean;
}

const MONTH_RE =
  'january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec';
const DAY_RE = '(?:[0-2]?[0-9]|3[01])';
const DAYSUF = '(?:st|nd|rd|th)?';
const UNIT_RE =
  'msecs?|milliseconds?|ms|secs?|seconds?|mins?|minutes?|hours?|days?|weeks?|fortnights?|forthnights?|months?|years?|monday|mon|tuesday|tue|wednesday|wed|thursday|thu|friday|fri|saturday|sat|sunday|sun';
const END = '(?![a-z0-9])';
const TIME24 = 't?([01]?[0-9]|2[0-4])[:.]([0-5]?[0-9])(?:[:.]([0-5]?[0-9]|60)(?:[.,]([0-9]+))?)?';
const TIME12 = '(0?[1-9]|1[0-2])(?:[:.]([0-5][0-9])(?:[:.]([0-5][0-9]|60))?)?[ \\t]*([ap])\\.?m\\.?(?![a-z0-9])';

type Action = (m: RegExpExecArray, st: ParseState) => boolean;
interface Rule {
  re: RegExp;
  act: Action;
}

function rule(src: string, act: Action, caseSensitive = false): Rule {
  return { re: new RegExp(src, caseSensitive ? 'y' : 'iy'), act };
}

function unhaveTime(st: ParseState): void {
  st.haveTime = false;
  st.h = 0;
  st.i = 0;
  st.s = 0;
  st.ms = 0;
}
function haveTime(st: ParseState): boolean {
  if (st.haveTime) return false; // "Double time specification"
  st.haveTime = true;
  st.h = 0;
  st.i = 0;
  st.s = 0;
  st.ms = 0;
  return true;
}
function haveDate(st: ParseState): boolean {
  if (st.haveDate) return false; // "Double date specification"
  st.haveDate = true;
  return true;
}
function year(s: string): number {
  const y = +s;
  if (s.length >= 4) return y;
  return y < 70 ? y + 2000 : y < 100 ? y + 1900 : y;
}
function fraction(s: string | undefined): number {
  return s ? Math.floor(Number('0.' + s) * 1000) : 0;
}
function setTime12(m: RegExpExecArray, st: ParseState, at: number): boolean {
  if (!haveTime(st)) return false;
  let h = +m[at];
  const pm = m[at + 3].toLowerCase() === 'p';
  if (pm && h !== 12) h += 12;
  if (!pm && h === 12) h = 0;
  st.h = h;
  st.i = m[at + 1] ? +m[at + 1] : 0;
  st.s = m[at + 2] ? +m[at + 2] : 0;
  return true;
}
function setTime24(m: RegExpExecArray, st: ParseState, at: number): boolean {
  if (!haveTime(st)) return false;
  st.h = +m[at];
  st.i = +m[at + 1];
  st.s = m[at + 2] ? +m[at + 2] : 0;
  st.ms = fraction(m[at + 3]);
  return true;
}
function setZoneOffset(st: ParseState, ms: number): boolean {
  if (st.haveZone) return false;
  st.haveZone = true;
  st.zoneOffset = ms;
  return true;
}
function tzCorrection(sign: string, digits: string): number {
  // timelib_parse_tz_cor: H, HH, H:M, H:MM, HH:M, HHMM, HH:MM
  let minutes: number;
  const colon = digits.indexOf(':');
  if (colon >= 0) minutes = +digits.slice(0, colon) * 60 + +(digits.slice(colon + 1) || 0);
  else if (digits.length <= 2) minutes = +digits * 60;
  else minutes = Math.floor(+digits / 100) * 60 + (+digits % 100);
  return (sign === '-' ? -minutes : minutes) * 60_000;
}
function setRelative(st: ParseState, amount: number, unitWord: string, behavior: number): boolean {
  const u = unitOf(unitWord);
  if (u === null) return false;
  if (u.length === 1) {
    // weekday unit: '+1 monday', 'next monday', 'last friday'
    unhaveTime(st);
    st.rel.d += (amount > 0 ? amount - 1 : amount) * 7;
    st.weekday = u[0];
    st.weekdayBehavior = behavior;
    return true;
  }
  const [unit, mult] = u;
  st.rel[unit] += amount * mult;
  return true;
}

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

/** Fill the holes from `nowNaive`, then apply weekday, relative and first/last-day-of parts (timelib order). */
