// What the change feed's window costs in memory: the heap (after full collections) taken by N
// created events with the window at 1 change and at 100,000, the difference per create being
// what a retained change holds. The calendars are in memory (no store): a store-backed one also
// writes each change to DIR/changes.jsonl, from the same text.
//
//   node --expose-gc --import tsx bench/feed-memory.ts [--creates N]

import { openCalendar } from '../src/calendar.ts';
import { memoryAfterGc } from './stats.ts';

const i = process.argv.indexOf('--creates');
const N = i > 0 ? Number(process.argv[i + 1]) : 10_000;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

const words =
  'Evening heart we join welcome for across rendezvous welcome. Photography talk Youth recommended a join. And mushroom naïve café'.split(
    ' ',
  );
const description = (k: number): string =>
  Array.from({ length: 40 }, (_, j) => words[(k * 7 + j * 13) % words.length]).join(' ');
const heap = (): number => memoryAfterGc().bytes;

async function perCreate(retain: number): Promise<number> {
  const cal = await openCalendar({ timezone: 'UTC', changesRetainCount: retain });
  const event = (k: number) => ({
    title: `Event ${k}`,
    description: description(k),
    excerpt: 'short',
    start_date: '2025-07-01 10:00:00',
    end_date: '2025-07-01 12:00:00',
    cost: '10',
  });
  for (let k = 0; k < 2000; k++) await cal.events.create(event(k)); // warm: the engine's tables grown
  const before = heap();
  for (let k = 0; k < N; k++) await cal.events.create(event(2000 + k));
  const after = heap();
  await cal.close();
  return (after - before) / N;
}

const without = await perCreate(1);
const withWindow = await perCreate(100_000);
console.log(
  `${N} creates: ${without.toFixed(0)} B of heap each with a window of 1 change, ${withWindow.toFixed(0)} B with 100,000: ` +
    `a retained created event's change ${(withWindow - without).toFixed(0)} B`,
);
