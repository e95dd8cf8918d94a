// A PHP strtotime()/DateTime parser: the date formats, relative words and zone tokens TEC's
// REST writes accept ("tomorrow 9am", "next wednesday 4pm", "+1 day", "2026-03-05 09:00 Europe/Paris").
// scan() turns a string into a parse state (null = PHP would not parse it); resolve() fills the
// state's holes from a wall clock and applies its weekday, relative and first/last-day parts, in
// timelib's order. Zones are the caller's (src/api/wordpress/dates.ts): it passes its zone-id check in and
// converts between zones itself.

const DAY_MS = 86_400_000;

/** Fixed-offset abbreviations PHP understands inside date strings (a small subset of timelib's table). */
const ABBR_OFFSETS: Record<string, number> = {
  utc: 0,
  gmt: 0,
  z: 0,
  ut: 0,
  wet: 0,
  west: 60,
  bst: 60,
  cet: 60,
  cest: 120,
  met: 60,
  mest: 120,
  eet: 120,
  eest: 180,
  msk: 180,
  est: -300,
  edt: -240,
  cst: -360,
  cdt: -300,
  mst: -420,
  mdt: -360,
  pst: -480,
  pdt: -420,
  akst: -540,
  akdt: -480,
  hst: -600,
  ast: -240,
  adt: -180,
  nst: -210,
  ndt: -150,
  aest: 600,
  aedt: 660,
  acst: 570,
  acdt: 630,
  awst: 480,
  nzst: 720,
  nzdt: 780,
  jst: 540,
  kst: 540,
  hkt: 480,
  sast: 120,
};

const MONTHS: Record<string, number> = {
  jan: 1,
  january: 1,
  feb: 2,
  february: 2,
  mar: 3,
  march: 3,
  apr: 4,
  april: 4,
  may: 5,
  jun: 6,
  june: 6,
  jul: 7,
  july: 7,
  aug: 8,
  august: 8,
  sep: 9,
  sept: 9,
  september: 9,
  oct: 10,
  october: 10,
  nov: 11,
  november: 11,
  dec: 12,
  december: 12,
};
const WEEKDAYS: Record<string, number> = {
  sunday: 0,
  sun: 0,
  monday: 1,
  mon: 1,
  tuesday: 2,
  tue: 2,
  wednesday: 3,
  wed: 3,
  thursday: 4,
  thu: 4,
  friday: 5,
  fri: 5,
  saturday: 6,
  sat: 6,
};
const RELTEXT: Record<string, [amount: number, behavior: number]> = {
  first: [1, 0],
  next: [1, 0],
  second: [2, 0],
  third: [3, 0],
  fourth: [4, 0],
  fifth: [5, 0],
  sixth: [6, 0],
  seventh: [7, 0],
  eight: [8, 0],
  eighth: [8, 0],
  ninth: [9, 0],
  tenth: [10, 0],
  eleventh: [11, 0],
  twelfth: [12, 0],
  last: [-1, 0],
  previous: [-1, 0],
  this: [0, 1],
};

type Unit = 's' | 'i' | 'h' | 'd' | 'm' | 'y' | 'ms';
function unitOf(word: string): [Unit, number] | [number] | null {
  const w = word.toLowerCase();
  if (w in WEEKDAYS) return [WEEKDAYS[w]];
  switch (w) {
    case 'ms':
    case 'msec':
    case 'msecs':
    case 'millisecond':
    case 'milliseconds':
      return ['ms', 1];
    case 'sec':
    case 'secs':
    case 'second':
    case 'seconds':
      return ['s', 1];
    case 'min':
    case 'mins':
    case 'minute':
    case 'minutes':
      return ['i', 1];
    case 'hour':
    case 'hours':
      return ['h', 1];
    case 'day':
    case 'days':
      return ['d', 1];
    case 'week':
    case 'weeks':
      return ['d', 7];
    case 'fortnight':
    case 'fortnights':
    case 'forthnight':
    case 'forthnights':
      return ['d', 14];
    case 'month':
    case 'months':
      return ['m', 1];
    case 'year':
    case 'years':
      return ['y', 1];
  }
  return null;
}

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

function utcFields(y: number, mo: number, d: number, h: number, i: number, s: number, ms: number): number {
  if (y >= 100 || y < 0) return Date.UTC(y, mo - 1, d, h, i, s, ms);
  const t = new Date(Date.UTC(2000, mo - 1, d, h, i, s, ms));
  t.setUTCFullYear(t.getUTCFullYear() - 2000 + y);
  return t.getTime();
}

function dayOfWeek(naive: number): number {
  const dow = (Math.floor(naive / DAY_MS) + 4) % 7; // 1970-01-01 was a Thursday
  return dow < 0 ? dow + 7 : dow;
}

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
export function resolve(st: ParseState, nowNaive: number): number {
  const now = new Date(nowNaive);
  if (st.haveDate && !st.haveTime) {
    st.h = 0;
    st.i = 0;
    st.s = 0;
    st.ms = 0;
  }
  const anySet =
    st.y !== undefined ||
    st.m !== undefined ||
    st.d !== undefined ||
    st.h !== undefined ||
    st.i !== undefined ||
    st.s !== undefined;
  let y = st.y ?? now.getUTCFullYear();
  let mo = st.m ?? now.getUTCMonth() + 1;
  let d = st.d ?? now.getUTCDate();
  const h = st.h ?? now.getUTCHours();
  const i = st.i ?? now.getUTCMinutes();
  const s = st.s ?? now.getUTCSeconds();
  const ms = st.ms ?? (anySet ? 0 : now.getUTCMilliseconds());
  const r = st.rel;
  if (st.weekday !== undefined) {
    // do_adjust_for_weekday
    const base = utcFields(y, mo, d, 0, 0, 0, 0);
    const current = dayOfWeek(base);
    let diff: number;
    if (st.weekday >= 0) {
      diff = st.weekday - current;
      if ((r.d < 0 && diff < 0) || (r.d >= 0 && diff <= -st.weekdayBehavior)) diff += 7;
    } else {
      diff = -(7 - (-st.weekday - current)); // '... ago' turned the weekday negative
    }
    const adjusted = new Date(base + diff * DAY_MS);
    y = adjusted.getUTCFullYear();
    mo = adjusted.getUTCMonth() + 1;
    d = adjusted.getUTCDate();
  }
  y += r.y;
  mo += r.m;
  d += r.d;
  if (st.firstLast === 1) d = 1;
  else if (st.firstLast === 2) {
    d = 0;
    mo += 1;
  }
  return utcFields(y, mo, d, h + r.h, i + r.i, s + r.s, ms + r.ms);
}
