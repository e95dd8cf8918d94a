// Expansion speed, by hand (not part of `npm test`): occurrences per second of CPU for daily,
// weekly and monthly rules over 20 years in a DST zone, the cost of the first occurrence of a
// window a century out, and ical.js's RecurIterator on the same rules in floating time.
//   node --import tsx test/recurrence/measure.ts
import ICAL from 'ical.js';
import { occurrences, parseRecurrence } from '../../src/recurrence/index.ts';
import type { SeriesTime } from '../../src/recurrence/index.ts';

const series: SeriesTime = { start: '2026-01-05 09:00:00', timezone: 'America/New_York', allDay: false };
const RULES = [
  'FREQ=DAILY',
  'FREQ=WEEKLY;BYDAY=MO,WE,FR',
  'FREQ=MONTHLY;BYDAY=-1FR',
  'FREQ=MONTHLY;BYMONTHDAY=15',
  'FREQ=YEARLY;BYMONTH=3;BYDAY=2SU',
];
const END = Date.UTC(2046, 0, 1);
let sink = 0;

function cpuMs(fn: () => void): number {
  const before = process.cpuUsage();
  fn();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

/** best of `reps` runs (the machine is shared: the best is the least disturbed) */
function best(reps: number, fn: () => void): number {
  let min = Infinity;
  for (let i = 0; i < reps; i++) min = Math.min(min, cpuMs(fn));
  return min;
}

console.log('rule'.padEnd(32), 'occurrences', 'ours occ/s', 'ical.js occ/s', 'century out (ms)');
for (const rule of RULES) {
  const set = parseRecurrence(rule, series)!;
  let n = 0;
  const ours = best(5, () => {
    n = 0;
    for (const o of occurrences(set, series, undefined, END)) {
      n++;
      sink += o.utc;
    }
  });
  let m = 0;
  const ical = best(5, () => {
    m = 0;
    const it = ICAL.Recur.fromString(rule).iterator(ICAL.Time.fromDateTimeString('2026-01-05T09:00:00'));
    for (let t = it.next(); t && t.year < 2046; t = it.next()) {
      m++;
      sink += t.day;
    }
  });
  // the first occurrence on or after 2126-01-01 (a new window each time, so nothing is cached)
  let k = 0;
  const century = best(20, () => {
    const from = Date.UTC(2126, 0, 1) + k++ * 86_400_000;
    for (const o of occurrences(set, series, from)) {
      sink += o.utc;
      break;
    }
  });
  console.log(
    rule.padEnd(32),
    String(n).padStart(11),
    String(Math.round((n / ours) * 1000)).padStart(10),
    String(Math.round((m / ical) * 1000)).padStart(13),
    century.toFixed(3).padStart(16),
  );
}
console.log('(sink', sink > 0, ')');
