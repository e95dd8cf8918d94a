// "Naive ms": Date.UTC() of wall-clock fields, used for every local date inside the engine.
// These helpers never consult the process time zone, so TZ cannot leak in.

import type { NaiveMs } from './types.ts';

const YMD_HIS = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/;

/**
 * v % 1000 === 0 (a whole number of seconds), without the remainder: V8 computes a double's `%`
 * by a call to fmod (~20 ns), a million-event import asks this ~25 million times (staging each
 * event's eight dates, then encoding them for the snapshot), and floor, a division and a product
 * take ~3 ns. Exact for |v| <= 2^52: v / 1000 is then exact when v is a multiple of 1000, and
 * otherwise floor(v / 1000) * 1000 is a multiple of 1000 (exactly representable) that is not v.
 * Larger values, infinities and NaN go through `%` as before.
 */
export function wholeSecondMs(v: number): boolean {
  return v <= 4_503_599_627_370_496 && v >= -4_503_599_627_370_496 ? Math.floor(v / 1000) * 1000 === v : v % 1000 === 0;
}

/** 'Y-m-d H:i:s' → naive ms; NaN when the string is not exactly in that form. Fast path for stored dates. */
export function naiveFromString(s: string): NaiveMs {
  if (
    s.length === 19 &&
    s.charCodeAt(4) === 45 &&
    s.charCodeAt(7) === 45 &&
    s.charCodeAt(13) === 58 &&
    s.charCodeAt(16) === 58
  ) {
    const y = num4(s, 0),
      mo = num2(s, 5),
      d = num2(s, 8),
      h = num2(s, 11),
      mi = num2(s, 14),
      se = num2(s, 17);
    if (
      y >= 0 &&
      mo >= 1 &&
      mo <= 12 &&
      d >= 1 &&
      d <= 31 &&
      h >= 0 &&
      h <= 23 &&
      mi >= 0 &&
      mi <= 59 &&
      se >= 0 &&
      se <= 59
    ) {
      return utc(y, mo - 1, d, h, mi, se);
    }
    return NaN;
  }
  const m = YMD_HIS.exec(s);
  if (!m) return NaN;
  return utc(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * 'Y-m-d H:i:s' → naive ms when the string is exactly that form with a real calendar date
 * (year >= 1000), so that naiveToString gives the same string back; otherwise NaN. (What the event
 * table's date columns keep as ms: naiveFromString above also takes 'T', a day past the month's
 * end and years below 1000.)
 */
export function exactNaive(s: string): number {
  if (s.length !== 19) return NaN;
  if (
    s.charCodeAt(4) !== 45 ||
    s.charCodeAt(7) !== 45 ||
    s.charCodeAt(10) !== 32 ||
    s.charCodeAt(13) !== 58 ||
    s.charCodeAt(16) !== 58
  )
    return NaN;
  const y = num4(s, 0),
    mo = num2(s, 5),
    d = num2(s, 8),
    h = num2(s, 11),
    mi = num2(s, 14),
    se = num2(s, 17);
  if (y < 1000 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 || mi < 0 || mi > 59 || se < 0 || se > 59) return NaN;
  const leap = mo === 2 && ((y % 4 === 0 && y % 100 !== 0) || y % 400 === 0);
  if (d > DAYS_IN_MONTH[mo - 1] + (leap ? 1 : 0)) return NaN;
  return daysFromCivil(y, mo, d) * 86_400_000 + h * 3_600_000 + mi * 60_000 + se * 1000;
}

/** 'Y-m-d' → naive ms of its midnight (as PHP's strtotime reads a date alone; a day past the
 *  month's end runs into the next month, as there); NaN when the string is not exactly in that
 *  form. Fast path for the dates of list filters (`start_date=2024-01-01`). */
export function naiveFromDay(s: string): NaiveMs {
  if (s.length !== 10 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return NaN;
  const y = num4(s, 0),
    mo = num2(s, 5),
    d = num2(s, 8);
  return y >= 0 && mo >= 1 && mo <= 12 && d >= 1 && d <= 31 ? utc(y, mo - 1, d, 0, 0, 0) : NaN;
}

/**
 * Date.UTC, except that years 0-99 stay years 0-99 (Date.UTC maps them to 1900-1999), for the
 * fields the parsers above give (year 0-9999, month 0-11, day 1-31, running into the next month
 * as Date.UTC's does, hour, minute and second in range). Years 100 on are counted
 * (daysFromCivil, which is linear in the day as Date.UTC is): ~10 ns rather than Date.UTC's ~100,
 * for the four dates of each record of a large import.
 */
export function utc(y: number, mo: number, d: number, h: number, mi: number, se: number): number {
  if (y < 100) return new Date(Date.UTC(y, mo, d, h, mi, se)).setUTCFullYear(y);
  return daysFromCivil(y, mo + 1, d) * 86_400_000 + h * 3_600_000 + mi * 60_000 + se * 1000;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil); = Date.UTC / 864e5. */
export function daysFromCivil(y: number, m: number, d: number): number {
  if (m <= 2) y -= 1;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/**
 * naive ms → 'Y-m-d H:i:s'. Years 0-9999 are computed arithmetically (H. Hinnant's
 * civil_from_days) into one flat string (String.fromCharCode, no rope of template parts);
 * anything else goes through Date.
 */
export function naiveToString(ms: NaiveMs): string {
  const days = Math.floor(ms / 86_400_000);
  if (days >= -719_528 && days <= 2_932_896) {
    // 0000-01-01 .. 9999-12-31
    const rem = ms - days * 86_400_000;
    const z = days + 719_468;
    const era = Math.floor(z / 146_097);
    const doe = z - era * 146_097;
    const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
    const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
    const mp = Math.floor((5 * doy + 2) / 153);
    const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
    const m = mp < 10 ? mp + 3 : mp - 9;
    const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
    const secs = Math.floor(rem / 1000);
    const h = Math.floor(secs / 3600),
      mi = Math.floor(secs / 60) % 60,
      se = secs % 60;
    return String.fromCharCode(
      48 + Math.floor(y / 1000),
      48 + (Math.floor(y / 100) % 10),
      48 + (Math.floor(y / 10) % 10),
      48 + (y % 10),
      45,
      48 + Math.floor(m / 10),
      48 + (m % 10),
      45,
      48 + Math.floor(d / 10),
      48 + (d % 10),
      32,
      48 + Math.floor(h / 10),
      48 + (h % 10),
      58,
      48 + Math.floor(mi / 10),
      48 + (mi % 10),
      58,
      48 + Math.floor(se / 10),
      48 + (se % 10),
    );
  }
  return naiveToStringByDate(ms);
}

/** naiveToString through Date (any range; also the reference the fast path is tested against). */
export function naiveToStringByDate(ms: NaiveMs): string {
  const d = new Date(ms);
  return `${pad4(d.getUTCFullYear())}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`;
}

/** 00:00:00 of the naive day containing `ms`. */
export function startOfNaiveDay(ms: NaiveMs): NaiveMs {
  return Math.floor(ms / 86_400_000) * 86_400_000;
}

/** 23:59:59 of the naive day containing `ms`. */
export function endOfNaiveDay(ms: NaiveMs): NaiveMs {
  return startOfNaiveDay(ms) + 86_399_000;
}

function num2(s: string, i: number): number {
  const a = s.charCodeAt(i) - 48,
    b = s.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

function num4(s: string, i: number): number {
  const a = num2(s, i),
    b = num2(s, i + 2);
  return a < 0 || b < 0 ? -1 : a * 100 + b;
}

function pad2(n: number): string {
  return n < 10 ? '0' + n : String(n);
}

function pad4(n: number): string {
  return String(n).padStart(4, '0');
}
