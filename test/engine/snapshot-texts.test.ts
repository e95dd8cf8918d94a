// The snapshot of a calendar whose texts are coded with a symbol table (src/engine/text-symbols.ts):
// its events chunks carry the table, a load reads the coded records as they are, and every text
// comes back the same (through JSON, writes after the load, and a snapshot of the loaded copy);
// a damaged table is refused.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Engine } from '../../src/engine/engine.ts';
import type { EventRecord } from '../../src/engine/records.ts';
import { Generator, Rng, mulberry32 } from './random-calendar.ts';

const Snap = suite('snapshot of coded texts');
const roundTrip = (e: Engine): unknown[] => JSON.parse(JSON.stringify([...e.snapshotChunks()])) as unknown[];
type Events = { type: string; texts: { bytes: string; symbols?: string } };
const eventsChunks = (chunks: unknown[]) => (chunks as Events[]).filter((c) => c.type === 'events');

const WORDS = ['join', 'us', 'for', 'an', 'evening', 'of', 'jazz', 'naïve', 'tickets', 'the', 'Ωmega'];
const EVERY = String.fromCharCode(...Array.from({ length: 256 }, (_, i) => i));

function records(e: Engine): EventRecord[] {
  return Array.from({ length: e.eventRowCount }, (_, r) => e.eventRecord(r)).sort((a, b) => a.id - b.id);
}

function calendar(): { e: Engine; gen: Generator; rng: Rng } {
  const rng = new Rng(mulberry32(31));
  const gen = new Generator(rng);
  const set = gen.initial(5_000);
  const words = (n: number) => Array.from({ length: n }, () => rng.pick(WORDS)).join(' ');
  set.events = set.events.map((ev, i) => ({
    ...ev,
    description: i === 0 ? EVERY : i === 1 ? '' : words(rng.int(20, 60)),
    excerpt: i === 2 ? 'lone \ud800 surrogate' : words(rng.int(0, 12)),
    website: i === 3 ? '' : i === 4 ? null : `https://tickets.example.com/e/${ev.id}`,
  }));
  const e = new Engine();
  e.bulkLoad(set);
  return { e, gen, rng };
}

Snap('the chunks carry the table; a load reads the records as they are, texts the same', () => {
  const { e, rng } = calendar();
  const chunks = roundTrip(e);
  const events = eventsChunks(chunks);
  assert.ok(events.length > 0);
  for (const c of events) assert.type(c.texts.symbols, 'string', 'each events chunk names its table');
  const copy = new Engine();
  copy.loadSnapshotChunks(chunks);
  assert.equal(records(copy), records(e));
  // saved again, the records are the same bytes (read straight in, not re-coded)
  const again = eventsChunks(roundTrip(copy));
  assert.equal(
    again.map((c) => [c.texts.bytes, c.texts.symbols]),
    events.map((c) => [c.texts.bytes, c.texts.symbols]),
  );
  // writes after the load behave as on the original
  const recs = records(e);
  for (let i = 0; i < 200; i++) {
    const rec = { ...rng.pick(recs), description: `${EVERY.slice(rng.int(0, 255))} jazz`, title: 'jazz' };
    e.apply([{ t: 'event', a: 'put', rec }]);
    copy.apply([{ t: 'event', a: 'put', rec }]);
  }
  assert.equal(records(copy), records(e));
});

Snap("a small calendar's chunks carry no table; a damaged table is refused", () => {
  const { e } = calendar();
  const chunks = roundTrip(e);
  const small = new Engine();
  small.bulkLoad({ events: records(e).slice(0, 20), venues: [], organizers: [], terms: [], attachments: [] });
  const plain = eventsChunks(roundTrip(small));
  assert.is(plain[0].texts.symbols, undefined, 'a small calendar does not code');
  const copy = new Engine();
  copy.loadSnapshotChunks(roundTrip(small));
  assert.equal(records(copy), records(small));
  // a damaged table is refused with what is wrong
  for (const [symbols, message] of [
    ['AAAA', /symbol table: symbol 0 is damaged/],
    [42, /symbol table: expected base64 text/],
  ] as const) {
    const bad = JSON.parse(JSON.stringify(chunks)) as unknown[];
    (eventsChunks(bad)[0].texts as { symbols: unknown }).symbols = symbols;
    assert.throws(() => new Engine().loadSnapshotChunks(bad), message);
  }
});

Snap.run();
