// Times queries of the mix (bench/queries.ts) against a store that `calendar-engine import` wrote
// from a generated calendar: the store is loaded as start-up loads it, the word index finished by
// one search, then each query is called `--calls` times over pages 1-6 (those it has), `--rounds` times in turn,
// through cal.rest (the REST list with its page of JSON, as the benchmark's engine cells). One
// median and p99 a query and round: rounds show how much this machine's speed moves.
//
// To compare two builds on the same store, run it from each checkout in turn, twice or more.
//
//   node --import tsx bench/store-queries.ts STORE_DIR --events N [--seed 1]
//     [--only search-accent,geo-radius] [--rounds 4] [--calls 60]
//
// --events and --seed are those of the generated file the store was imported from (the mix's
// tag, venue and event ids come from the generator).

import { parseArgs } from 'node:util';
import { openCalendar } from '../src/index.ts';
import { readManifest } from '../src/store/snapshot.ts';
import { readSnapshotChunks } from '../src/store/snapshot-read.ts';
import { buildQueriesStreamed, NOW } from './queries.ts';
import { summarize } from './stats.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    events: { type: 'string' },
    seed: { type: 'string', default: '1' },
    only: { type: 'string' },
    rounds: { type: 'string', default: '4' },
    calls: { type: 'string', default: '60' },
  },
});
const dir = positionals[0];
const events = Number(values.events);
if (!dir || !(Number.isInteger(events) && events > 0)) {
  console.error('usage: bench/store-queries.ts STORE_DIR --events N [--seed 1] [--only a,b] [--rounds 4] [--calls 60]');
  process.exit(2);
}
const rounds = Math.max(1, Number(values.rounds)),
  calls = Math.max(1, Number(values.calls));
const only = values.only?.split(',');
const queries = buildQueriesStreamed(events, Number(values.seed)).filter((q) => !only || only.includes(q.name));
if (only && queries.length !== only.length) {
  console.error(
    `unknown query in --only ${values.only}: the mix has ${buildQueriesStreamed(events, 1).map((q) => q.name)}`,
  );
  process.exit(2);
}

const manifest = await readManifest(dir);
if (!manifest) {
  console.error(`${dir}: no snapshot manifest`);
  process.exit(2);
}
const cal = await openCalendar({ timezone: 'UTC', now: () => NOW });
let t0 = performance.now();
cal.engine.loadSnapshotChunks(readSnapshotChunks(dir, manifest));
const loadMs = performance.now() - t0;
t0 = performance.now();
await cal.rest({ resource: 'events', action: 'list', params: { search: 'pottery' }, actor: null });
console.log(`loaded in ${(loadMs / 1000).toFixed(1)} s; first search ${(performance.now() - t0).toFixed(0)} ms`);
type Actor = Parameters<typeof cal.rest>[0]['actor'];
// each query once, then what they started in the background (a radius query's venue groups) done,
// as between requests in a server: these calls alone leave the event loop no turn
t0 = performance.now();
for (const q of queries)
  await cal
    .rest({ resource: 'events', action: 'list', params: q.params, actor: q.actor as Actor })
    .catch(() => undefined);
await cal.engine.settled();
console.log(`first calls and background work ${(performance.now() - t0).toFixed(0)} ms`);

const cells = new Map<string, string[]>();
const totals = new Map<string, string>();
for (let round = 0; round < rounds; round++) {
  for (const q of queries) {
    // pages 1-6, as far as the query has pages (one that names its page keeps it)
    const first = (await cal.rest({
      resource: 'events',
      action: 'list',
      params: q.params,
      actor: q.actor as Actor,
    })) as {
      headers: Record<string, string>;
    };
    totals.set(q.name, first.headers['X-TEC-Total']);
    const pages = q.params.page ? 0 : Math.min(6, Number(first.headers['X-TEC-TotalPages']) || 1);
    const ms: number[] = [];
    for (let i = 0; i < calls; i++) {
      const params = pages > 0 ? { ...q.params, page: String(1 + (i % pages)) } : q.params;
      const start = performance.now();
      await cal.rest({ resource: 'events', action: 'list', params, actor: q.actor as Actor });
      ms.push(performance.now() - start);
    }
    const { median, p99 } = summarize(ms);
    const cell = `${median.toFixed(3)} / ${p99.toFixed(3)}`;
    cells.set(q.name, [...(cells.get(q.name) ?? []), cell]);
  }
}
console.log(
  `| query | total | ${Array.from({ length: rounds }, (_, r) => `round ${r + 1} med / p99 (ms)`).join(' | ')} |`,
);
console.log(`|:--|--:|${'--:|'.repeat(rounds)}`);
for (const q of queries) console.log(`| ${q.name} | ${totals.get(q.name)} | ${cells.get(q.name)!.join(' | ')} |`);
process.exit(0);
