// node --expose-gc --import tsx bench/recurring-writes.ts [--events N] [--writes W]
// Writes on a recurring calendar (bench/recurring.ts over bench/generate.ts) in a store: p50/p99
// of series creates (weekly and daily, unbounded: their occurrences to the horizon), exception
// edits, exclusions (an occurrence deleted) and whole-series title edits; the store's start-up
// (snapshot load + journal replay) afterwards; a list a century out.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openCalendar, type Calendar } from '../src/calendar.ts';
import { generateCalendar } from './generate.ts';
import { addSeries } from './recurring.ts';
import { NOW } from './queries.ts';

const { values: opt } = parseArgs({
  options: { events: { type: 'string', default: '10000' }, writes: { type: 'string', default: '200' } },
});
const N = Number(opt.events),
  W = Number(opt.writes);
const log = (s: string) => process.stdout.write(s + '\n');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-recur-bench-'));
const open = () => openCalendar({ dir, timezone: 'UTC', now: () => NOW });

const data = generateCalendar({ events: N, seed: 1, now: NOW });
const r = addSeries(data, { seed: 1, now: NOW });
let cal: Calendar = await open();
await cal.import(data);
log(
  `recurring calendar: ${N} events, ${r.series} series, ${r.occurrences} occurrences (${data.events.length} rows); ${W} writes of each kind`,
);

async function timed(name: string, n: number, fn: (i: number) => Promise<unknown>): Promise<void> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  const q = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))].toFixed(2);
  log(`  ${name.padEnd(44)} p50 ${q(0.5).padStart(8)} ms   p99 ${q(0.99).padStart(8)} ms`);
}

const day = (i: number) => `2025-${String(7 + (i % 5)).padStart(2, '0')}-${String(1 + (i % 27)).padStart(2, '0')}`;
const weekly: number[] = [];
await timed('create a weekly series (~104 occurrences)', W, async (i) => {
  const s = await cal.events.create({
    title: `Class ${i}`,
    start_date: `${day(i)} 18:00:00`,
    end_date: `${day(i)} 19:00:00`,
    recurrence: 'RRULE:FREQ=WEEKLY',
    status: 'publish',
  });
  weekly.push(s.id as number);
});
await timed('create a daily series (~730 occurrences)', Math.max(1, W / 4), (i) =>
  cal.events.create({
    title: `Daily ${i}`,
    start_date: `${day(i)} 08:00:00`,
    end_date: `${day(i)} 08:15:00`,
    recurrence: 'RRULE:FREQ=DAILY',
    status: 'publish',
  }),
);
const kids = await Promise.all(
  weekly.map(async (id) => (await cal.events.list({ post_parent: id, start_date: '2025-01-01', per_page: 3 })).items),
);
await timed('edit one occurrence (an exception)', W, (i) =>
  cal.events.update(kids[i][0].id as number, { title: `Guest ${i}` }),
);
await timed('delete one occurrence (an exclusion)', W, (i) => cal.events.delete(kids[i][1].id as number));
await timed('edit a whole weekly series (title)', W, (i) =>
  cal.events.update(weekly[i], { title: `Class ${i} (new)` }),
);
await cal.snapshot();
await timed('edit a whole weekly series after a snapshot', Math.max(1, W / 4), (i) =>
  cal.events.update(weekly[i], { title: `Class ${i} (again)` }),
);
const rows = cal.engine.eventRowCount;
await cal.close();
let t = performance.now();
cal = await open();
log(`  start-up (snapshot + journal), ${rows} rows: ${(performance.now() - t).toFixed(0)} ms`);
t = performance.now();
const far = await cal.events.list({ start_date: '2125-06-01', end_date: '2125-06-30' });
log(
  `  a list a century out (June 2125): ${far.total} events in ${(performance.now() - t).toFixed(2)} ms ` +
    '(occurrences are rows to the horizon: unbounded series show none there)',
);
await cal.close();
fs.rmSync(dir, { recursive: true, force: true });
