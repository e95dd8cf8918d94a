// Independent references for the recurrence tests: the `rrule` package (a port of
// python-dateutil's rrule) for expansion in floating time, and Intl.DateTimeFormat for placing a
// wall-clock time in a zone. Neither shares code with src/recurrence/.
import * as rrulePkg from 'rrule';
import type { RRule as RRuleType, Options } from 'rrule';

// rrule is CommonJS: under Node's ESM loader its exports sit on `default`
const mod = ((rrulePkg as unknown as { default?: typeof rrulePkg }).default ?? rrulePkg) as typeof rrulePkg;
const RRule = mod.RRule;

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** ms since the epoch (or naive ms) → 'YYYY-MM-DD HH:MM:SS' of its UTC fields. */
export function fields(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/**
 * rrule's instances (naive ms, floating time) of an RRULE value from `dtstart` (naive ms),
 * stopped at `cutoff` (naive ms, inclusive) whatever COUNT or UNTIL say.
 */
export function rruleInstances(value: string, dtstart: number, cutoff: number): number[] {
  const parsed: Partial<Options> = RRule.parseString(value);
  const opts: Partial<Options> = { ...parsed, dtstart: new Date(dtstart) };
  if (!opts.until || opts.until.getTime() > cutoff) opts.until = new Date(cutoff);
  const rule: RRuleType = new RRule(opts);
  return rule.all().map((d) => d.getTime());
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** offsets by zone and UTC day: one number, or [the instant it changes, before, after] (one change a day at most) */
const days = new Map<string, number | [number, number, number]>();
const D = 86_400_000;

/** The wall clock (naive ms) in `tz` at instant `utc`, as Intl shows it. */
export function wallAt(utc: number, tz: string): number {
  const day = Math.floor(utc / D);
  const key = `${tz}|${day}`;
  let entry = days.get(key);
  if (entry === undefined) {
    const lo = day * D,
      hi = lo + D - 1000;
    const a = intlWall(lo, tz) - lo,
      b = intlWall(hi, tz) - hi;
    if (a === b) entry = a;
    else {
      // bisect to the second: offset(l) = a, offset(h) != a
      let l = lo,
        h = hi;
      while (h - l > 1000) {
        const mid = Math.floor((l + h) / 2000) * 1000;
        if (intlWall(mid, tz) - mid === a) l = mid;
        else h = mid;
      }
      entry = [h, a, b];
    }
    days.set(key, entry);
  }
  return utc + (typeof entry === 'number' ? entry : utc < entry[0] ? entry[1] : entry[2]);
}

function intlWall(utc: number, tz: string): number {
  let f = formats.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(tz, f);
  }
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(utc)) if (part.type !== 'literal') p[part.type] = Number(part.value);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
}

/**
 * The instant of wall-clock time `wall` (naive ms) in `tz` as RFC 5545 §3.3.5 places it: the
 * instant whose wall clock it is (the earlier of two when the clock was turned back); a time
 * the clock skipped is read with the offset in force before the skip, i.e. moved forward by the
 * skip's length.
 */
export function instantOf(wall: number, tz: string): number {
  const offsets = new Set<number>();
  for (const h of [-50, -26, -12, 0, 12, 26, 50])
    offsets.add(wallAt(wall + h * 3_600_000, tz) - (wall + h * 3_600_000));
  const valid = [...offsets].map((o) => wall - o).filter((u) => wallAt(u, tz) === wall);
  if (valid.length) return Math.min(...valid);
  // skipped: the skip happened after (wall - the later offset), so the offset just before that instant is the earlier one
  const before = wall - Math.max(...offsets) - 1000;
  return wall - (wallAt(before, tz) - before);
}
