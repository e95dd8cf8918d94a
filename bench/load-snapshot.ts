// Child of bench/run.ts: loads the engine's snapshot chunks (one JSON line each) from FILE into a
// fresh calendar in a fresh process, so the load is timed without the benchmark process's other
// heaps (the generated calendar, the baselines) making every garbage collection slower. Prints
// one JSON line: { readMs, loadMs, searchMs, bytesPerEvent, events }.
//
//   node --expose-gc --import tsx bench/load-snapshot.ts FILE

import fs from 'node:fs';
import { isAscii } from 'node:buffer';
import { openCalendar } from '../src/index.ts';
import { NOW } from './queries.ts';
import { heapUsedAfterGc } from './stats.ts';

const file = process.argv[2];
if (!file) {
  console.error('usage: node --expose-gc --import tsx bench/load-snapshot.ts FILE');
  process.exit(2);
}
const cal = await openCalendar({ timezone: 'UTC', perPage: 12, now: () => NOW });
const h0 = heapUsedAfterGc();
let t = performance.now();
let buf: Buffer | null = fs.readFileSync(file);
const readMs = performance.now() - t;
t = performance.now();
// as the store reads its parts: one chunk a line, ASCII lines decoded as latin1
cal.engine.loadSnapshotChunks((function* () {
  const b = buf!;
  for (let pos = 0; pos < b.length;) {
    let nl = b.indexOf(10, pos);
    if (nl < 0) nl = b.length;
    if (nl > pos) yield JSON.parse(b.toString(isAscii(b.subarray(pos, nl)) ? 'latin1' : 'utf8', pos, nl)) as unknown;
    pos = nl + 1;
  }
  buf = null;
})());
const loadMs = performance.now() - t;
t = performance.now();
await cal.rest({ resource: 'events', action: 'list', params: { search: 'pottery' }, actor: null });
const searchMs = performance.now() - t;
const events = cal.engine.eventRowCount;
const bytesPerEvent = (heapUsedAfterGc() - h0) / events;
process.stdout.write(JSON.stringify({ readMs, loadMs, searchMs, bytesPerEvent, events }) + '\n');
await cal.close();
