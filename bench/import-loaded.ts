// The memory of the calendar an import made, for `npm run bench -- --import`: opens the store
// as `serve` does (snapshot load), collects garbage and prints the process's RSS and the heap
// plus array buffers; then once more after a search has built the search index (which `serve`
// builds in the background after a load).
//
//   node --expose-gc --import tsx bench/import-loaded.ts DIR   (prints one JSON line)

import { openCalendar } from '../src/index.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  console.error('run with --expose-gc');
  process.exit(2);
}
const measure = () => {
  for (let i = 0; i < 3; i++) gc();
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed + m.arrayBuffers };
};
const cal = await openCalendar({ dir: process.argv[2], webhooks: false });
const events = cal.engine.eventRowCount;
const loaded = measure();
await cal.events.list({ search: 'workshop' });
const searched = measure();
await cal.close();
process.stdout.write(JSON.stringify({ events, loaded, searched }) + '\n');
