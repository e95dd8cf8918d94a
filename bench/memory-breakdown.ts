// Where a loaded calendar's memory goes, per event: the event table's typed columns, its string
// columns (V8's size of each string: a 16-byte header and its characters rounded up to 8 bytes,
// two bytes a character for a two-byte string) and the arrays pointing at them, the rest of the
// heap (indexes, postings, entities, code), then what a search adds (the word index).
//
//   node --expose-gc --import tsx bench/memory-breakdown.ts STORE_DIR

import { openCalendar } from '../src/index.ts';
import { settledMemory } from './stats.ts';
import type { EventTable } from '../src/engine/event-table.ts';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node --expose-gc --import tsx bench/memory-breakdown.ts STORE_DIR');
  process.exit(2);
}
if (!(globalThis as { gc?: unknown }).gc) throw new Error('run with --expose-gc');
const mem = settledMemory;
const before = await mem();
const cal = await openCalendar({ dir, readOnly: true });
const loaded = await mem();
const t = (cal as unknown as { engine: { eventTable: EventTable } }).engine.eventTable;
const n = t.count;

const stringBytes = (s: string | null | undefined): number => {
  if (s == null) return 0;
  // eslint-disable-next-line no-control-regex
  const two = /[^\x00-\xff]/.test(s);
  return 16 + Math.ceil(((two ? 2 : 1) * s.length) / 8) * 8;
};
const rows: [string, number][] = [];
let typed = 0;
for (const [k, v] of Object.entries(t)) {
  if (ArrayBuffer.isView(v)) typed += v.byteLength;
  else if (v && typeof v === 'object' && 'ms' in v && ArrayBuffer.isView((v as { ms: unknown }).ms))
    typed += (v as { ms: Float64Array }).ms.byteLength;
  else if (v && typeof v === 'object' && 'nums' in v && ArrayBuffer.isView((v as { nums: unknown }).nums))
    rows.push([`costs: a list number a row`, (v as { nums: Uint16Array }).nums.byteLength]);
  else if (v && typeof v === 'object' && 'sec' in v && ArrayBuffer.isView((v as { sec: unknown }).sec))
    typed += (v as { sec: Int32Array }).sec.byteLength;
  else if (Array.isArray(v) && ['titles', 'descriptions', 'excerpts', 'slugs', 'websites'].includes(k)) {
    let s = 0;
    const seen = new Set<string>();
    for (let r = 0; r < n; r++) {
      const x = (v as (string | null)[])[r];
      s += stringBytes(x);
      if (x) seen.add(x);
    }
    rows.push([`strings: ${k} (${seen.size.toLocaleString('en-US')} distinct)`, s]);
    rows.push([`pointers: ${k}`, 8 * v.length]);
  } else if (Array.isArray(v)) rows.push([`pointers: ${k}`, 8 * v.length]);
}
rows.unshift(['typed columns (ids, flags, pools, 8 date columns)', typed]);
// the link columns: a list number a row and column, and the pool of distinct lists they number
const linkBytes = t.organizerIds.lists.byteLength + t.categoryIds.lists.byteLength + t.tagIds.lists.byteLength;
const pool = t.idLists;
typed += linkBytes + pool.byteSize();
rows.push(['link columns: a list number a row (organizers, categories, tags)', linkBytes]);
rows.push([
  `link lists: one pool (${pool.count.toLocaleString('en-US')} lists, ${pool.offsets[pool.count].toLocaleString('en-US')} ids)`,
  pool.byteSize(),
]);
// the texts' store: its buffer and offsets are array buffers, its title dictionary is heap
const tx = t.texts as unknown as {
  raw: Uint8Array;
  used: number;
  dead: number;
  titleCount: number;
  byteSize(): number;
};
const txBuffers = tx.raw.byteLength + 4 * t.capacity;
typed += txBuffers;
rows.push([`texts: one buffer (${tx.used.toLocaleString('en-US')} bytes used) and an offset a row`, txBuffers]);
rows.push([`texts: title dictionary (${tx.titleCount.toLocaleString('en-US')} titles)`, tx.byteSize() - txBuffers]);
const heapLoaded = loaded.heapUsed - before.heapUsed;
const abLoaded = loaded.arrayBuffers - before.arrayBuffers;
const counted = rows.reduce((s, [, b]) => s + b, 0) - typed;
rows.push(['other heap (indexes, postings, entities, cost lists, maps)', heapLoaded - counted]);
rows.push(['other array buffers (sorted index, postings, block stats)', abLoaded - typed]);
await new Promise((r) => setTimeout(r, 50));
await cal.rest({ resource: 'events', action: 'list', params: { search: 'pottery' }, actor: null } as never);
const searched = await mem();
rows.push(['a search: the word index (heap)', searched.heapUsed - loaded.heapUsed]);
rows.push(['a search: the word index (array buffers)', searched.arrayBuffers - loaded.arrayBuffers]);
console.log(
  `${n.toLocaleString('en-US')} events; heap ${Math.round(heapLoaded / 2 ** 20)} MiB, array buffers ${Math.round(abLoaded / 2 ** 20)} MiB, RSS ${Math.round(loaded.rss / 2 ** 20)} MiB loaded, ${Math.round(searched.rss / 2 ** 20)} MiB after a search`,
);
console.log('| what | MiB | B/event |\n|---|---:|---:|');
for (const [what, b] of rows) console.log(`| ${what} | ${(b / 2 ** 20).toFixed(1)} | ${(b / n).toFixed(0)} |`);
await cal.close();
