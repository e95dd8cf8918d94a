// A search right after many writes: a store is loaded (read only, in this process), N events are
// rewritten with a new word in their titles (engine writes, nothing stored), then searches are
// timed: the first one after the writes, then again once the background work is done.
//
//   node --import tsx bench/search-after-writes.ts STORE_DIR [--writes 5000] [--bin-src DIR]
//
// `--bin-src DIR`: another checkout's src/index.ts (the build before a change), for a before/after
// pair. Prints one JSON line.

import path from 'node:path';
import { parseArgs } from 'node:util';

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: { writes: { type: 'string', default: '5000' }, 'bin-src': { type: 'string' } },
});
const dir = positionals[0];
if (!dir) throw new Error('usage: bench/search-after-writes.ts STORE_DIR [--writes N]');
const src = args['bin-src'] ? path.resolve(args['bin-src'], 'src/index.ts') : '../src/index.ts';
const { openCalendar } = (await import(src)) as typeof import('../src/index.ts');
type Eng = import('../src/engine/engine.ts').Engine;

const t0 = performance.now();
const cal = await openCalendar({ dir, readOnly: true });
const engine = (cal as unknown as { engine: Eng }).engine;
const loadS = (performance.now() - t0) / 1000;
const n = engine.eventTable.count;
const search = (word: string) => {
  const s = performance.now();
  const r = engine.query({ statusMask: 1, search: { include: [word], exclude: [] }, offset: 0, limit: 10 } as never);
  return { ms: Math.round((performance.now() - s) * 10) / 10, total: r.total };
};
// the index as the load left it (read from the snapshot, or built now by this first search)
const first = search('jazz');
const writes = Number(args.writes);
const w0 = performance.now();
for (let i = 0; i < writes; i++) {
  const row = Math.floor((i * 7919) % n);
  const rec = engine.eventRecord(row);
  engine.apply([{ t: 'event', a: 'put', rec: { ...rec, title: `${rec.title} zork${i % 97}` } }]);
}
const writesS = (performance.now() - w0) / 1000;
const afterWrites = search('zork');
const again = search('zork1');
// once the background work (a rebuild, if any) is done
await new Promise((r) => setTimeout(r, 20_000));
const settled = search('zork');
console.log(
  JSON.stringify({
    events: n,
    loadS: Math.round(loadS * 10) / 10,
    first,
    writes,
    writesS,
    afterWrites,
    again,
    settled,
  }),
);
process.exit(0);
