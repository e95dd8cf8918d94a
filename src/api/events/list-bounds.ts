// The date bounds of an events list: a boundary parameter read in the site's zone (strict_dates)
// or as a literal day, and the default window (from yesterday 23:59 to 24 months ahead) when no
// bound is given.

import { daysFromCivil, endOfNaiveDay, naiveToString, startOfNaiveDay } from '../../engine/naive-time.ts';
import { epochToZoned, nowIn, parseDateInput } from '../wordpress/dates.ts';
import { type Problems, has } from '../wordpress/params.ts';
import type { Params } from '../wordpress/types.ts';

const DAY = 86_400_000;

interface DefaultWindow {
  tz: string;
  /** the clock reading this was computed for, in whole seconds (the window's resolution) */
  sec: number;
  /** "yesterday 23:59" in the site zone, and the UTC clock + 24 months (naive ms, unrounded) */
  lower: number;
  upper: number;
  /** the day-rounded bounds as 'Y-m-d H:i:s' (what rest_url shows without strict_dates) */
  lowerText: string;
  upperText: string;
}

let lastWindow: DefaultWindow | undefined;

/** The default window of a list at this clock reading. Both bounds change at most once a
 *  second (the lower one once a day), so the last window is kept and reused within its second. */
export function defaultWindow(tz: string, now: Date): DefaultWindow {
  const sec = Math.floor(now.getTime() / 1000);
  const w = lastWindow;
  if (w !== undefined && w.sec === sec && w.tz === tz) return w;
  const lower = startOfNaiveDay(nowIn(tz, now)) - DAY + 23 * 3_600_000 + 59 * 60_000;
  const upper = addMonthsNaive(sec * 1000, 24);
  return (lastWindow = {
    tz,
    sec,
    lower,
    upper,
    lowerText: naiveToString(startOfNaiveDay(lower)),
    upperText: naiveToString(endOfNaiveDay(upper)),
  });
}

/** A boundary parameter as naive ms in the site zone (strict) or as the literal/UTC day (inclusive). */
export function boundary(
  params: Params,
  name: string,
  strict: boolean,
  siteTz: string,
  now: Date,
  problems: Problems,
): number | undefined {
  if (!has(params, name)) return undefined;
  const raw = params[name];
  const digits = typeof raw === 'number' || (typeof raw === 'string' && /^\d+$/.test(raw.trim()));
  let n: number | null;
  if (strict) {
    const utc = digits ? Number(raw) * 1000 : parseDateInput(raw, 'UTC', now);
    n = utc === null || !Number.isFinite(utc) ? null : epochToZoned(utc, siteTz);
  } else {
    n = digits ? Number(raw) * 1000 : parseDateInput(raw, siteTz, now);
  }
  if (n === null || !Number.isFinite(n)) {
    problems.add(name);
    return undefined;
  }
  return n;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** UTC clock + n months, day clamped to the month's length, as naive ms of the UTC wall clock. */
function addMonthsNaive(ms: number, months: number): number {
  const days = Math.floor(ms / DAY);
  if (days >= 0 && days < 2_932_897) {
    // 1970-01-01 .. 9999-12-31: civil date arithmetic (H. Hinnant), no Date objects
    const z = days + 719_468,
      era = Math.floor(z / 146_097),
      doe = z - era * 146_097;
    const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
    const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
    const mp = Math.floor((5 * doy + 2) / 153);
    const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
    const m0 = mp < 10 ? mp + 2 : mp - 10; // 0-based month
    const y = yoe + era * 400 + (m0 < 2 ? 1 : 0);
    const total = y * 12 + m0 + months,
      ny = Math.floor(total / 12),
      nm = total - ny * 12;
    const leap = (ny % 4 === 0 && ny % 100 !== 0) || ny % 400 === 0;
    const last = nm === 1 ? (leap ? 29 : 28) : MONTH_DAYS[nm];
    if (ny >= 100) return daysFromCivil(ny, nm + 1, Math.min(d, last)) * DAY + (ms - days * DAY);
  }
  const d = new Date(ms);
  const y = d.getUTCFullYear(),
    m = d.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return Date.UTC(y, m, Math.min(d.getUTCDate(), lastDay), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds());
}
