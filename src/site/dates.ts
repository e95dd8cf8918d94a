// Dates as the pages show them, through Intl in the site's locale. An event's times are shown in
// its own zone: the REST representation gives its wall-clock times (`start_date`), which are
// formatted as they are (a wall clock read as UTC), followed by the zone's abbreviation.

import { naiveFromString, naiveToString } from '../engine/naive-time.ts';

/** A wall-clock time as ms, read as if it were UTC (engine/naive-time.ts). */
export type Naive = number;

export const DAY_MS = 86_400_000;

/** 'YYYY-MM-DD' of a wall-clock time. */
export function dayKey(ms: Naive): string {
  return naiveToString(ms).slice(0, 10);
}

/** 'YYYY-MM-DD HH:MM:SS' (a REST date) → wall-clock ms; NaN when it is not one. */
export function naiveOf(s: unknown): Naive {
  if (typeof s !== 'string' || !/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/.test(s)) return NaN;
  return naiveFromString(s.length === 10 ? `${s} 00:00:00` : s.length === 16 ? `${s}:00` : s);
}

/** 'YYYY-MM-DD' → ms of its midnight, or undefined when it is not a real date. */
export function parseDay(s: string): Naive | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return undefined;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return dayKey(ms) === s && Number(m[1]) >= 1 ? ms : undefined;
}

/** 'YYYY-MM' → ms of its first day, or undefined. */
export function parseMonth(s: string): Naive | undefined {
  return parseDay(`${s}-01`);
}

/** Intl formats of one locale, made once (a DateTimeFormat costs tens of µs to build). */
export class Dates {
  private readonly f: Record<string, Intl.DateTimeFormat> = {};
  readonly locale: string;

  constructor(locale: string) {
    let known = false;
    try {
      known = Intl.DateTimeFormat.supportedLocalesOf([locale]).length > 0;
    } catch {
      // not a BCP 47 tag
    }
    this.locale = known ? locale : 'en-US';
  }

  private fmt(name: string, o: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
    return (this.f[name] ??= new Intl.DateTimeFormat(this.locale, { ...o, timeZone: 'UTC' }));
  }

  /** Saturday, November 28, 2026 */
  longDay(ms: Naive): string {
    return this.fmt('longDay', { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' }).format(ms);
  }

  /** Sat, Nov 28 */
  shortDay(ms: Naive): string {
    return this.fmt('shortDay', { weekday: 'short', month: 'short', day: 'numeric' }).format(ms);
  }

  /** November 2026 */
  monthYear(ms: Naive): string {
    return this.fmt('monthYear', { year: 'numeric', month: 'long' }).format(ms);
  }

  /** Nov */
  monthShort(ms: Naive): string {
    return this.fmt('monthShort', { month: 'short' }).format(ms);
  }

  /** 28 */
  dayOfMonth(ms: Naive): string {
    return this.fmt('dayOfMonth', { day: 'numeric' }).format(ms);
  }

  /** Mon … Sun, narrow enough for a 360 px month grid */
  weekday(ms: Naive): string {
    return this.fmt('weekday', { weekday: 'short' }).format(ms);
  }

  weekdayLong(ms: Naive): string {
    return this.fmt('weekdayLong', { weekday: 'long' }).format(ms);
  }

  /** 8:00 AM */
  time(ms: Naive): string {
    return this.fmt('time', { hour: 'numeric', minute: '2-digit' }).format(ms);
  }

  /** November 28, 2026 */
  date(ms: Naive): string {
    return this.fmt('date', { year: 'numeric', month: 'long', day: 'numeric' }).format(ms);
  }

  /** A range of days: "November 28, 2026 – November 30, 2026" (formatRange would shorten it,
   *  but costs about half a millisecond a call) */
  dayRange(a: Naive, b: Naive): string {
    return `${this.date(a)} – ${this.date(b)}`;
  }

  /** A range of times on different days: "November 28, 2026, 8:00 AM – November 29, 2026, 9:00 AM" */
  timeRange(a: Naive, b: Naive): string {
    return `${this.date(a)}, ${this.time(a)} – ${this.date(b)}, ${this.time(b)}`;
  }
}

/** When an event happens, in words: one day or a range, with times unless it lasts all day. */
export function eventWhen(
  d: Dates,
  ev: { start_date?: unknown; end_date?: unknown; all_day?: unknown; timezone_abbr?: unknown },
): string {
  const start = naiveOf(ev.start_date);
  const end = naiveOf(ev.end_date);
  if (Number.isNaN(start)) return '';
  const last = Number.isNaN(end) ? start : end;
  const sameDay = dayKey(start) === dayKey(last);
  const zone = typeof ev.timezone_abbr === 'string' && ev.timezone_abbr !== '' ? ` ${ev.timezone_abbr}` : '';
  if (ev.all_day === true) return sameDay ? `${d.longDay(start)}, all day` : `${d.dayRange(start, last)}, all day`;
  if (sameDay) return `${d.longDay(start)}, ${d.time(start)} – ${d.time(last)}${zone}`;
  return `${d.timeRange(start, last)}${zone}`;
}
