// The second half of strtotime() (strtotime.ts scans): a parse state's holes filled from a wall
// clock, then its weekday, relative and first/last-day parts applied, in timelib's order.

import type { ParseState } from './strtotime-state.ts';

const DAY_MS = 86_400_000;

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
