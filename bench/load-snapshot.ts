// Child of bench/run.ts: loads the engine's snapshot from DIR (a store snapshot: manifest and
// parts, as src/store/snapshot.ts writes them) into a fresh calendar in a fresh process, as a
// start-up does (read + sha256 + JSON.parse + loadSnapshotChunks), without the benchmark
// process's other heaps making every garbage collection slower. Prints one JSON line:
// { loadMs, searchMs, bytesPerEvent }.
//
//   node --expose-gc --import tsx bench/load-snapshot.ts DIR

import { openCalendar } from '../src/index.ts';
import { readManifest, readSnapshotChunks } from '../src/store/snapshot.ts';
import { NOW } from './queries.ts';
import { heapUsedAfterGc } from './stats.ts';

const dir = process.argv[2];
const manifest = dir ? await readManifest(dir) : undefined;
if (!manifest) {
  console.error('usage: node --expose-gc --import tsx bench/load-snapshot.ts DIR (a folder holding snapshot.json)');
  process.exit(2);
}
const cal = await openCalendar({ timezone: 'UTC', perPage: 12, now: () => NOW });
const h0 = heapUsedAfterGc();
let t = performance.now();
cal.engine.loadSnapshotChunks(readSnapshotChunks(dir, manifest));
const loadMs = performance.now() - t;
t = performance.now();
await cal.rest({ resource: 'events', action: 'list', params: { search: 'pottery' }, actor: null });
const searchMs = performance.now() - t;
const bytesPerEvent = (heapUsedAfterGc() - h0) / cal.engine.eventRowCount;
process.stdout.write(JSON.stringify({ loadMs, searchMs, bytesPerEvent }) + '\n');
await cal.close();
