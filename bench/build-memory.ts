// What building the word index costs in memory and time: a store is loaded read-only (its word
// index is dropped if the snapshot held one), then the index is built whole at once. Prints RSS
// before the build, the peak during it (VmHWM, reset just before), RSS after it (after a full
// collection and a pause), V8's heap and array buffers at each point, the index's own size and
// the build's time (wall and the process's CPU).
//
//   node --expose-gc --import tsx bench/build-memory.ts STORE_DIR

import { readFileSync, writeFileSync } from 'node:fs';
import { dropSearchIndex, existingSearchIndex, rebuildSearchIndex } from '../src/engine/search-index.ts';
import type { CalendarState } from '../src/engine/state.ts';
import { openCalendar } from '../src/index.ts';
import { settledMemory } from './stats.ts';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node --expose-gc --import tsx bench/build-memory.ts STORE_DIR');
  process.exit(2);
}
if (!(globalThis as { gc?: unknown }).gc) throw new Error('run with --expose-gc');
const mem = settledMemory;
const status = (key: string): number => {
  const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) * 1024 : Number.NaN;
};
const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;

const cal = await openCalendar({ dir, readOnly: true });
const st = (cal as unknown as { engine: { state: CalendarState } }).engine.state;
// let the load's background work (block statistics, slugs) finish: its last step starts the word
// index's build in slices, which is stopped at once (a slice or two of scratch at most)
while (existingSearchIndex(st) === undefined) await new Promise((r) => setTimeout(r, 2));
dropSearchIndex(st);
const n = st.table.count;
await new Promise((r) => setTimeout(r, 20));
const before = await mem();
// reset the peak (VmHWM) to the current RSS: writing 5 to clear_refs does that
writeFileSync('/proc/self/clear_refs', '5');
const t0 = performance.now(),
  c0 = process.cpuUsage();
rebuildSearchIndex(st);
const ms = performance.now() - t0,
  cpu = process.cpuUsage(c0);
const peak = status('VmHWM');
const during = process.memoryUsage();
const after = await mem();
const si = existingSearchIndex(st);
const size = si?.byteSize() ?? 0;
const row = (what: string, m: NodeJS.MemoryUsage) =>
  console.log(`| ${what} | ${mib(m.rss)} | ${mib(m.heapUsed)} | ${mib(m.arrayBuffers)} | ${(m.rss / n).toFixed(0)} |`);
console.log(
  `${n.toLocaleString('en-US')} events; build ${(ms / 1000).toFixed(2)} s (CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s); index ${mib(size)}`,
);
console.log('| when | RSS | heap used | array buffers | RSS B/event |\n|---|---:|---:|---:|---:|');
row('before the build', before);
console.log(`| peak (VmHWM) | ${mib(peak)} | | | ${(peak / n).toFixed(0)} |`);
row('right after (no collection)', during);
row('after (collected)', after);
console.log(
  `growth ${mib(after.rss - before.rss)} (index ${mib(size)}); target ${mib(size * 1.1)}; peak growth ${mib(peak - before.rss)}`,
);
await cal.close();
