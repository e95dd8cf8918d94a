// Site/event time zone handling for the REST layer: zone validation, wall clock <-> epoch conversion
// with PHP's DST rules, PHP-style abbreviations, and parseDateInput (the PHP strtotime()/DateTime
// parser itself is src/api/wordpress/strtotime.ts).
//
// Offsets are read from Intl as date-fns-tz's formatInTimeZone 'xxx' reads them (rawOffset), cached
// per zone and UTC week: a week
// whose offset is the same at both ends is stored as one number, a week holding a transition stores
// the exact transition instants (found by bisection to the second). A warm conversion is two
// Map lookups, so bulk imports never call Intl per row. A week is safe: no zone of the tz database
// changes its offset twice within seven days (the shortest gap, Morocco's Ramadan suspension of
// DST, is about a month), so equal offsets at both ends of a week mean no transition inside it.

import { getTimezoneOffset } from 'date-fns-tz';
import { naiveFromDay, naiveFromString } from '../../engine/naive-time.ts';
import type { NaiveMs } from '../../engine/types.ts';
import { scan } from './strtotime.ts';
import { resolve } from './strtotime-resolve.ts';

const DAY_MS = 86_400_000;
/** granularity of the offset cache */
const SPAN_MS = 7 * DAY_MS;

// ---------------------------------------------------------------------------------------------
// Zones

/** A day with transitions: offset before the first cut, then offsets[i] from cuts[i] on. */
interface MixedDay {
  first: number;
  cuts: number[];
  offsets: number[];
}

interface Zone {
  /** fixed offset in ms for 'UTC' / 'UTC±n'; null for IANA zones */
  fixed: number | null;
  id: string;
  days: Map<number, number | MixedDay>;
  /** abbreviation by offset (ms), as timezoneAbbr found it */
  abbrs?: Map<number, string>;
  /** what rawOffset reads the wall clock with */
  offsetFormat?: Intl.DateTimeFormat;
}

const FIXED_OFFSET = /^UTC([+-])(\d{1,2})(?:(?::(\d{2}))|(?:\.(\d+)))?$/;
const IANA_SHAPE = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;

const zoneCache = new Map<string, Zone | null>();

function fixedOffsetOf(tz: string): number | null {
  if (tz === 'UTC') return 0;
  const m = FIXED_OFFSET.exec(tz);
  if (!m) return null;
  const hours = +m[2];
  let minutes = 0;
  if (m[3] !== undefined) minutes = +m[3];
  else if (m[4] !== undefined) minutes = Math.round(Number('0.' + m[4]) * 60);
  if (hours > 14 || minutes >= 60) return null;
  const ms = (hours * 60 + minutes) * 60_000;
  return m[1] === '-' ? -ms : ms;
}

function getZone(tz: string): Zone | null {
  let zone = zoneCache.get(tz);
  if (zone !== undefined) return zone;
  zone = null;
  const fixed = fixedOffsetOf(tz);
  if (fixed !== null) {
    zone = { fixed, id: tz, days: new Map() };
  } else if (typeof tz === 'string' && IANA_SHAPE.test(tz)) {
    try {
      const resolved = new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
      // PHP compares zone ids case-sensitively: 'america/new_york' is not a zone there
      const wrongCase = resolved !== tz && resolved.toLowerCase() === tz.toLowerCase();
      if (!wrongCase && !Number.isNaN(getTimezoneOffset(tz, new Date(0)))) {
        zone = { fixed: null, id: tz, days: new Map() };
      }
    } catch {
      zone = null;
    }
  }
  zoneCache.set(tz, zone);
  return zone;
}

/** IANA zone id (validated with Intl / date-fns-tz), 'UTC', or WordPress offsets 'UTC+2', 'UTC-5', 'UTC+5:30', 'UTC+5.5', 'UTC+0'. */
export function isValidTimezone(tz: string): boolean {
  return typeof tz === 'string' && tz !== '' && getZone(tz) !== null;
}

/**
 * Offset at an instant, as date-fns-tz's formatInTimeZone(date, zone, 'xxx') gives it (which is
 * what this used, and still answers for every IANA zone and instant: a test compares them): the
 * wall clock Intl shows for the instant (en-US, 23-hour clock, read as date-fns-tz reads it)
 * minus the instant in whole seconds, truncated to whole minutes. Its own formatter per zone and
 * one formatToParts make it ~3.5x faster, which weighs in a large import (two calls per zone and
 * day). (date-fns-tz's getTimezoneOffset reads the Date's process-local fields as the wall
 * clock, so it depends on TZ.)
 */
function rawOffset(zone: Zone, epochMs: number): number {
  const dtf = (zone.offsetFormat ??= new Intl.DateTimeFormat('en-US', {
    hourCycle: 'h23',
    timeZone: zone.id,
    year: 'numeric',
    month: 'numeric',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }));
  let y = 0,
    mo = 0,
    d = 0,
    h = 0,
    mi = 0,
    s = 0;
  for (const p of dtf.formatToParts(epochMs)) {
    switch (p.type) {
      case 'year':
        y = parseInt(p.value, 10);
        break;
      case 'month':
        mo = parseInt(p.value, 10);
        break;
      case 'day':
        d = parseInt(p.value, 10);
        break;
      case 'hour':
        h = parseInt(p.value, 10);
        break;
      case 'minute':
        mi = parseInt(p.value, 10);
        break;
      case 'second':
        s = parseInt(p.value, 10);
        break;
    }
  }
  const wall = new Date(0); // setUTCFullYear: years below 100 as they are
  wall.setUTCFullYear(y, mo - 1, d);
  wall.setUTCHours(h % 24, mi, s, 0);
  const over = epochMs % 1000;
  return Math.trunc((wall.getTime() - (epochMs - (over >= 0 ? over : 1000 + over))) / 60_000) * 60_000;
}

function computeDay(zone: Zone, day: number): number | MixedDay {
  const start = day * SPAN_MS;
  const end = start + SPAN_MS - 1000;
  const a = rawOffset(zone, start);
  const b = rawOffset(zone, end);
  if (a === b) return a;
  const cuts: number[] = [];
  const offsets: number[] = [];
  findCuts(zone, start, a, end, b, cuts, offsets);
  return { first: a, cuts, offsets };
}

/** Appends every instant in (lo, hi] where the offset changes; offLo = offset(lo) != offHi = offset(hi). */
function findCuts(
  zone: Zone,
  lo: number,
  offLo: number,
  hi: number,
  offHi: number,
  cuts: number[],
  offsets: number[],
): void {
  // bisect in whole seconds: offset(lo) = offLo, offset(hi) != offLo
  let l = lo / 1000,
    h = hi / 1000;
  while (h - l > 1) {
    const mid = Math.floor((l + h) / 2);
    if (rawOffset(zone, mid * 1000) === offLo) l = mid;
    else h = mid;
  }
  const cut = h * 1000;
  const after = rawOffset(zone, cut);
  cuts.push(cut);
  offsets.push(after);
  if (after !== offHi && cut < hi) findCuts(zone, cut, after, hi, offHi, cuts, offsets);
}

function offsetAt(zone: Zone, epochMs: number): number {
  if (zone.fixed !== null) return zone.fixed;
  const day = Math.floor(epochMs / SPAN_MS);
  let entry = zone.days.get(day);
  if (entry === undefined) {
    entry = computeDay(zone, day);
    zone.days.set(day, entry);
  }
  if (typeof entry === 'number') return entry;
  let off = entry.first;
  for (let i = 0; i < entry.cuts.length; i++) {
    if (epochMs < entry.cuts[i]) break;
    off = entry.offsets[i];
  }
  return off;
}

function zoneOrThrow(tz: string): Zone {
  const zone = getZone(tz);
  if (zone === null) throw new Error(`Expected a valid time zone, got ${JSON.stringify(tz)}.`);
  return zone;
}

/** Offset (ms, local - UTC) of `tz` at the instant `epochMs`. */
export function offsetOf(tz: string, epochMs: number): number {
  return offsetAt(zoneOrThrow(tz), epochMs);
}

function zonedToEpochIn(zone: Zone, naive: NaiveMs): number {
  if (zone.fixed !== null) return naive - zone.fixed;
  const before = offsetAt(zone, naive - DAY_MS);
  const after = offsetAt(zone, naive + DAY_MS);
  if (before === after) return naive - before;
  const e1 = naive - before;
  const e2 = naive - after;
  const ok1 = offsetAt(zone, e1) === before;
  const ok2 = offsetAt(zone, e2) === after;
  if (ok1 && ok2) return Math.min(e1, e2); // overlap: the first occurrence (PHP)
  if (ok1) return e1;
  if (ok2) return e2;
  return e1; // gap: read with the pre-transition offset, i.e. moved forward by the gap (PHP)
}

/** wall clock (naive ms) in tz → real epoch ms. DST gap: moved forward by the gap (PHP); overlap: the first (DST) occurrence. */
export function zonedToEpoch(naive: NaiveMs, tz: string): number {
  return zonedToEpochIn(zoneOrThrow(tz), naive);
}

/** real epoch ms → wall clock (naive ms) in tz. */
export function epochToZoned(epochMs: number, tz: string): NaiveMs {
  return epochMs + offsetAt(zoneOrThrow(tz), epochMs);
}

/** Current wall clock in tz as naive ms. */
export function nowIn(tz: string, now: Date): NaiveMs {
  return epochToZoned(now.getTime(), tz);
}

// ---------------------------------------------------------------------------------------------
// Abbreviations

/** tzdata abbreviations Intl's English locales do not print (zone → offset minutes → abbr). */
const ABBR_TABLE: Record<string, Record<number, string>> = {
  'Asia/Tokyo': { 540: 'JST' },
  'Asia/Seoul': { 540: 'KST' },
  'Asia/Pyongyang': { 540: 'KST' },
  'Asia/Shanghai': { 480: 'CST' },
  'Asia/Chongqing': { 480: 'CST' },
  'Asia/Harbin': { 480: 'CST' },
  'Asia/Taipei': { 480: 'CST' },
  'Asia/Macau': { 480: 'CST' },
  'Asia/Hong_Kong': { 480: 'HKT' },
  'Asia/Manila': { 480: 'PST' },
  'Asia/Jakarta': { 420: 'WIB' },
  'Asia/Pontianak': { 420: 'WIB' },
  'Asia/Makassar': { 480: 'WITA' },
  'Asia/Jayapura': { 540: 'WIT' },
  'Asia/Karachi': { 300: 'PKT' },
  'Asia/Kolkata': { 330: 'IST' },
  'Asia/Calcutta': { 330: 'IST' },
  'Asia/Jerusalem': { 120: 'IST', 180: 'IDT' },
  'Asia/Tel_Aviv': { 120: 'IST', 180: 'IDT' },
  'Europe/Moscow': { 180: 'MSK' },
  'Europe/Simferopol': { 180: 'MSK' },
  'Pacific/Guam': { 600: 'ChST' },
  'Pacific/Saipan': { 600: 'ChST' },
  'Pacific/Auckland': { 720: 'NZST', 780: 'NZDT' },
};

/** Which English locales name which regions the way tzdata does. */
function localesFor(tz: string): string[] {
  if (tz.startsWith('America/') || tz.startsWith('US/') || tz.startsWith('Canada/') || tz === 'Pacific/Honolulu')
    return ['en-US', 'en-CA'];
  if (tz.startsWith('Europe/') || tz.startsWith('Atlantic/')) return ['en-GB', 'en-IE'];
  if (tz.startsWith('Africa/')) return ['en-ZA', 'en-GB'];
  if (tz.startsWith('Australia/')) return ['en-AU'];
  if (tz.startsWith('Etc/') || tz === 'GMT' || tz === 'Etc/UTC') return ['en-US'];
  return [];
}

const abbrCache = new Map<string, string>();
const fmtCache = new Map<string, Intl.DateTimeFormat>();

function numericAbbr(offsetMs: number): string {
  const total = Math.round(Math.abs(offsetMs) / 60_000);
  const h = Math.floor(total / 60),
    m = total % 60;
  return (offsetMs < 0 ? '-' : '+') + String(h).padStart(2, '0') + (m ? String(m).padStart(2, '0') : '');
}

function intlAbbr(tz: string, locale: string, epochMs: number): string {
  const key = locale + '|' + tz;
  let fmt = fmtCache.get(key);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat(locale, { timeZone: tz, timeZoneName: 'short' });
    fmtCache.set(key, fmt);
  }
  for (const part of fmt.formatToParts(epochMs)) if (part.type === 'timeZoneName') return part.value;
  return '';
}

/**
 * PHP-style abbreviation at that instant ('EST'/'EDT', 'CET'/'CEST', 'AEDT', 'ACST', 'HKT', 'GMT', 'UTC', 'AKST');
 * zones with no letters abbreviation in tzdata print the offset ('+08', '+0530'); 'UTC±n' zones print themselves.
 */
export function timezoneAbbr(tz: string, epochMs: number): string {
  const zone = zoneOrThrow(tz);
  if (zone.fixed !== null) return tz;
  const offset = offsetAt(zone, epochMs);
  const known = zone.abbrs?.get(offset);
  if (known !== undefined) return known;
  const key = tz + '|' + offset;
  const hit = abbrCache.get(key);
  if (hit !== undefined) return hit;
  let abbr = ABBR_TABLE[tz]?.[offset / 60_000];
  if (abbr === undefined) {
    for (const locale of localesFor(tz)) {
      const name = intlAbbr(tz, locale, epochMs);
      if (/^[A-Z]{2,5}$/.test(name) && (name !== 'GMT' || offset === 0)) {
        abbr = name;
        break;
      }
    }
  }
  if (
    abbr === undefined &&
    (tz === 'UTC' || tz === 'Etc/UTC' || tz === 'Etc/UCT' || tz === 'UCT' || tz === 'Etc/Universal')
  )
    abbr = 'UTC';
  if (abbr === undefined) abbr = numericAbbr(offset);
  abbrCache.set(key, abbr);
  (zone.abbrs ??= new Map()).set(offset, abbr);
  return abbr;
}

const NUMERIC = /^\s*[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\s*$/;

/** An IANA zone id written in a date string (a fixed offset like 'UTC+2' is not one). */
const isZoneId = (name: string): boolean => getZone(name) !== null && fixedOffsetOf(name) === null;

/**
 * PHP strtotime/DateTime-style parse of user input, evaluated in zone `tz` against the instant `now`.
 * Returns the wall-clock time in `tz` as naive ms (whole seconds), or null when unparseable/empty.
 * Numbers and numeric strings are Unix timestamps (TEC's is_numeric rule), '@1700000000' too.
 */
export function parseDateInput(input: unknown, tz: string, now: Date): NaiveMs | null {
  const naive = parseUnchecked(input, tz, now);
  // 'Y-m-d H:i:s' has four-digit years: anything outside 0001..9999 (e.g. a timestamp of 1e308) is unparseable
  return naive !== null && naive >= MIN_NAIVE && naive <= MAX_NAIVE ? naive : null;
}

/** 0001-01-01 00:00:00 (Date.UTC maps years 0-99 to 19xx, hence setUTCFullYear) */
const MIN_NAIVE = new Date(Date.UTC(2000, 0, 1)).setUTCFullYear(1);
const MAX_NAIVE = Date.UTC(9999, 11, 31, 23, 59, 59);

function parseUnchecked(input: unknown, tz: string, now: Date): NaiveMs | null {
  const zone = getZone(tz);
  if (zone === null) return null;
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return null;
    return floorSecond(epochToZonedIn(zone, Math.floor(input) * 1000));
  }
  if (typeof input !== 'string') return null;
  const text = input.trim();
  if (text === '') return null;
  if (NUMERIC.test(text)) return floorSecond(epochToZonedIn(zone, Math.floor(Number(text)) * 1000));
  const fast = naiveFromString(text);
  if (!Number.isNaN(fast)) return fast;
  const day = naiveFromDay(text);
  if (!Number.isNaN(day)) return day;
  const st = scan(text, isZoneId);
  if (st === null) return null;
  let naive: number;
  if (st.haveZone) {
    // relative words are evaluated against now in the zone written in the string, then converted
    const own = st.zoneId !== undefined ? getZone(st.zoneId)! : null;
    const nowEpoch = now.getTime();
    const nowThere = own ? epochToZonedIn(own, nowEpoch) : nowEpoch + st.zoneOffset!;
    const local = resolve(st, nowThere);
    const epoch = own ? zonedToEpochIn(own, local) : local - st.zoneOffset!;
    naive = epochToZonedIn(zone, epoch);
  } else {
    naive = resolve(st, epochToZonedIn(zone, now.getTime()));
  }
  return Number.isFinite(naive) ? floorSecond(naive) : null;
}

function epochToZonedIn(zone: Zone, epochMs: number): number {
  return epochMs + offsetAt(zone, epochMs);
}

function floorSecond(ms: number): number {
  return Math.floor(ms / 1000) * 1000;
}
