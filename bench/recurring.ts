// The recurring calendar of `npm run bench -- --recurring`: a share of the generated events made
// series (daily, weekly, monthly; bounded by COUNT or UNTIL, or unbounded), each followed by its
// occurrences as the calendar keeps them (bench/run.ts's calendars and SQLite load the same rows:
// SQLite has the occurrences materialised into its events table, with the same indexes). The
// occurrences are the recurrence library's, to the calendar's horizon, so that the calendar finds
// nothing to add after the import. Seeded: the same calendar for the same (data, seed, now).

import { mulberry32 } from './stats.ts';
import type { ImportData, ImportEvent } from './generate.ts';
import { occurrences, parseRecurrence, isBounded } from '../src/recurrence/index.ts';
import { HORIZON_DAYS, horizonOf } from '../src/recurrence/series.ts';
import { naiveFromString, naiveToString } from '../src/engine/naive-time.ts';
import { zonedToEpoch } from '../src/api/wordpress/dates.ts';
import type { EventRecord } from '../src/engine/records.ts';

const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];

/**
 * Make `share` of the events series and append their occurrences; returns the counts: series,
 * occurrence rows, and the occurrences that start in the two years from `now` (the horizon's
 * window, where the calendar's occurrences are what a list shows).
 */
export function addSeries(
  data: ImportData,
  opts: { seed: number; now: Date; share?: number },
): { series: number; occurrences: number; inWindow: number } {
  const rand = mulberry32(opts.seed * 7919 + 17);
  const share = opts.share ?? 0.1;
  let nextId = 1;
  for (const e of data.events) nextId = Math.max(nextId, (e.id ?? 0) + 1);
  for (const v of data.venues) nextId = Math.max(nextId, (v.id ?? 0) + 1);
  for (const o of data.organizers) nextId = Math.max(nextId, (o.id ?? 0) + 1);
  const added: ImportEvent[] = [];
  let series = 0,
    inWindow = 0;
  const windowFrom = opts.now.toISOString().slice(0, 10),
    windowTo = new Date(opts.now.getTime() + HORIZON_DAYS * 86_400_000).toISOString().slice(0, 10);
  const parents = new Set(data.events.map((e) => e.post_parent ?? 0));
  for (const e of data.events) {
    if (rand() >= share || parents.has(e.id!) || e.post_parent) continue;
    const start = String(e.start_date),
      tz = e.timezone || 'UTC',
      allDay = e.all_day === true;
    const day = WEEKDAYS[(new Date(start.slice(0, 10) + 'T00:00:00Z').getUTCDay() + 6) % 7];
    const r = rand(),
      bound = rand();
    const end = bound < 0.4 ? '' : bound < 0.7 ? ';COUNT=' : ';UNTIL=';
    let rule: string;
    if (r < 0.12)
      rule = 'FREQ=DAILY' + (end === ';COUNT=' ? end + 365 : end === ';UNTIL=' ? end + untilAfter(start, 400) : '');
    else if (r < 0.72) {
      const days = rand() < 0.5 ? day : `${day},${WEEKDAYS[(WEEKDAYS.indexOf(day) + 2) % 7]}`;
      rule =
        `FREQ=WEEKLY;BYDAY=${days}` +
        (end === ';COUNT=' ? end + 52 : end === ';UNTIL=' ? end + untilAfter(start, 730) : '');
    } else
      rule = 'FREQ=MONTHLY' + (end === ';COUNT=' ? end + 24 : end === ';UNTIL=' ? end + untilAfter(start, 900) : '');
    e.recurrence = `RRULE:${rule}`;
    series++;
    const st = { start, timezone: tz, allDay };
    const set = parseRecurrence(e.recurrence, st, 'recurrence')!;
    const startUtc = naiveToString(zonedToEpoch(naiveFromString(start), tz));
    const horizon = isBounded(set) ? Infinity : horizonOf(opts.now.getTime(), { startUtc } as EventRecord);
    const duration = naiveFromString(String(e.end_date)) - naiveFromString(start);
    // the series' fields without its recurrence, once (a `delete` on each copy would leave a
    // million objects in V8's slow dictionary mode: most of the generation's time went there)
    const { recurrence: _, ...fields } = e;
    for (const occ of occurrences(set, st, undefined, horizon)) {
      if (occ.local >= windowFrom && occ.local < windowTo) inWindow++;
      if (occ.local === start) continue;
      const at = naiveFromString(occ.local);
      const o: ImportEvent = {
        ...fields,
        id: nextId++,
        post_parent: e.id,
        recurrence_id: occ.local,
        is_exception: false,
        start_date: occ.local,
        end_date: naiveToString(at + duration),
      };
      if (e.slug)
        o.slug = `${e.slug}-${occ.local.slice(0, 10)}${occ.local.slice(11) === start.slice(11) ? '' : '-' + occ.local.slice(11, 13)}`;
      added.push(o);
    }
  }
  for (const o of added) data.events.push(o); // a million rows: too many arguments for push(...added)
  return { series, occurrences: added.length, inWindow };
}

/** UNTIL `days` after a local start, as a UTC date-time. */
function untilAfter(start: string, days: number): string {
  const t = new Date(Date.parse(start.slice(0, 10) + 'T23:59:59Z') + days * 86_400_000);
  return t.toISOString().replace(/[-:]/g, '').slice(0, 15) + 'Z';
}
