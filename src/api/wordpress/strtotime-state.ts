// The parse state of strtotime() (strtotime.ts scans into it, strtotime-resolve.ts resolves it) and
// what the grammar's rules do to it: set a time of day (12- or 24-hour), a zone offset, a relative
// amount of a unit or weekday, and say whether a time or date was already given.

import { unitOf } from './strtotime-words.ts';

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

export type Action = (m: RegExpExecArray, st: ParseState) => boolean;
export interface Rule {
  re: RegExp;
  act: Action;
}

export function rule(src: string, act: Action, caseSensitive = false): Rule {
  return { re: new RegExp(src, caseSensitive ? 'y' : 'iy'), act };
}

export function unhaveTime(st: ParseState): void {
  st.haveTime = false;
  st.h = 0;
  st.i = 0;
  st.s = 0;
  st.ms = 0;
}
export function haveTime(st: ParseState): boolean {
  if (st.haveTime) return false; // "Double time specification"
  st.haveTime = true;
  st.h = 0;
  st.i = 0;
  st.s = 0;
  st.ms = 0;
  return true;
}
export function haveDate(st: ParseState): boolean {
  if (st.haveDate) return false; // "Double date specification"
  st.haveDate = true;
  return true;
}
export function year(s: string): number {
  const y = +s;
  if (s.length >= 4) return y;
  return y < 70 ? y + 2000 : y < 100 ? y + 1900 : y;
}
export function fraction(s: string | undefined): number {
  return s ? Math.floor(Number('0.' + s) * 1000) : 0;
}
export function setTime12(m: RegExpExecArray, st: ParseState, at: number): boolean {
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
export function setTime24(m: RegExpExecArray, st: ParseState, at: number): boolean {
  if (!haveTime(st)) return false;
  st.h = +m[at];
  st.i = +m[at + 1];
  st.s = m[at + 2] ? +m[at + 2] : 0;
  st.ms = fraction(m[at + 3]);
  return true;
}
export function setZoneOffset(st: ParseState, ms: number): boolean {
  if (st.haveZone) return false;
  st.haveZone = true;
  st.zoneOffset = ms;
  return true;
}
export function tzCorrection(sign: string, digits: string): number {
  // timelib_parse_tz_cor: H, HH, H:M, H:MM, HH:M, HHMM, HH:MM
  let minutes: number;
  const colon = digits.indexOf(':');
  if (colon >= 0) minutes = +digits.slice(0, colon) * 60 + +(digits.slice(colon + 1) || 0);
  else if (digits.length <= 2) minutes = +digits * 60;
  else minutes = Math.floor(+digits / 100) * 60 + (+digits % 100);
  return (sign === '-' ? -minutes : minutes) * 60_000;
}
export function setRelative(st: ParseState, amount: number, unitWord: string, behavior: number): boolean {
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
