// The word index and the main block statistics kept in a snapshot (src/engine/snapshot-words.ts):
// a load reads them instead of building them, answers exactly as a fresh build, takes writes
// after the load, refuses damaged ones; past its bound of writes the index is rebuilt in the
// background while the old one answers.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mulberry32 } from '../../bench/stats.ts';
import { Engine } from '../../src/engine/engine.ts';
import type { EventRecord } from '../../src/engine/records.ts';
import { existingSearchIndex } from '../../src/engine/search-index.ts';
import type { EventQuery } from '../../src/engine/types.ts';
import { EDITOR_MASK, makeEvent } from './build.ts';

const SYLLABLES = ['ka', 'ré', 'mo', 'ta', 'ni', 'Öl', 'su', 'be', 'ça', 'ω', 'ri', 'po'];

class Rand {
  constructor(private readonly next: () => number) {}
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  word(): string {
    let w = '';
    for (let i = this.int(1, 3); i > 0; i--) w += SYLLABLES[this.int(0, SYLLABLES.length - 1)];
    return w;
  }
  text(n: number): string {
    const ws: string[] = [];
    for (let i = this.int(0, n); i > 0; i--) ws.push(this.word());
    return ws.join(' ');
  }
  term(): string {
    const w = this.word().normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    const len = this.int(1, Math.min(4, w.length));
    const at = this.int(0, w.length - len);
    return w.slice(at, at + len);
  }
}

function event(r: Rand, id: number): EventRecord {
  const d = `2024-02-${String(1 + r.int(0, 27)).padStart(2, '0')}`;
  return makeEvent(id, {
    title: r.text(3) || 'x',
    excerpt: r.text(4),
    description: `<p>${r.text(6)}</p>`,
    status: r.int(0, 9) < 8 ? 'publish' : 'draft',
    startLocal: `${d} ${String(r.int(8, 20)).padStart(2, '0')}:00:00`,
    endLocal: `${d} 22:00:00`,
  });
}

const put = (e: Engine, rec: EventRecord) => e.apply([{ t: 'event', a: 'put', rec: structuredClone(rec) }]);
const roundTrip = (e: Engine): unknown[] => JSON.parse(JSON.stringify([...e.snapshotChunks()])) as unknown[];
const load = (chunks: unknown[]): Engine => {
  const e = new Engine();
  e.loadSnapshotChunks(chunks);
  return e;
};

/** Answers of the same random queries (search and lists) on each engine: ids and totals. */
function sameAnswers(a: Engine, b: Engine, seed: number, n: number): void {
  const r = new Rand(mulberry32(seed));
  for (let i = 0; i < n; i++) {
    const q: EventQuery = {
      statusMask: i % 3 === 0 ? 1 : EDITOR_MASK,
      search: { include: [r.term()], exclude: i % 4 === 0 ? [r.term()] : [] },
      offset: r.int(0, 5),
      limit: r.int(1, 20),
      ...(i % 5 === 0 ? { startMin: Date.UTC(2024, 1, r.int(1, 27)) } : {}),
    } as EventQuery;
    if (i % 7 === 0) delete (q as { search?: unknown }).search;
    const x = a.query(q),
      y = b.query(q);
    const ids = (e: Engine, rows: number[]) => rows.map((row) => e.eventId(row)).join(',');
    assert.is(`${x.total} ${ids(a, x.rows)}`, `${y.total} ${ids(b, y.rows)}`, JSON.stringify(q));
  }
}

/** An engine with random events, searched once (its index built), then written to. */
function written(seed: number, events: number, writes: number): { engine: Engine; r: Rand } {
  const r = new Rand(mulberry32(seed));
  const engine = new Engine();
  for (let id = 1; id <= events; id++) put(engine, event(r, id));
  engine.finishIndexes();
  for (let k = 0; k < writes; k++) put(engine, event(r, r.int(1, events + 50)));
  return { engine, r };
}

const Words = suite('snapshot words');

Words('a loaded index answers exactly as a fresh build, and after writes', () => {
  const { engine, r } = written(1, 700, 120);
  const chunks = roundTrip(engine);
  const types = new Set(chunks.map((c) => (c as { type: string }).type));
  for (const t of ['search-index', 'search-words', 'search-array', 'block-stats', 'block-array'])
    assert.ok(types.has(t), t);
  const loaded = load(chunks);
  const si = existingSearchIndex(loaded.state);
  assert.ok(si && !si.building, 'the index is read, not built');
  assert.is(si!.stats().touched, existingSearchIndex(engine.state)!.stats().touched, 'touched rows carried over');
  assert.ok(si!.stats().touched > 0);
  assert.not.ok(loaded.state.blocks.dirty, 'block statistics read');
  // a fresh build of the same rows: a load of the snapshot without the extra chunks
  const plain = load(chunks.filter((c) => !/^(search|block)-/.test((c as { type: string }).type)));
  assert.is(existingSearchIndex(plain.state), undefined);
  sameAnswers(loaded, plain, 11, 400);
  sameAnswers(loaded, engine, 12, 200);
  for (let k = 0; k < 80; k++) {
    const rec = event(r, r.int(1, 800));
    put(loaded, rec);
    put(plain, rec);
  }
  sameAnswers(loaded, plain, 13, 400);
});

Words('damaged index or statistics lines are refused with a clear error', () => {
  const { engine } = written(2, 400, 10);
  const chunks = roundTrip(engine);
  const damage = (pick: (c: Record<string, unknown>) => boolean, change: (c: Record<string, unknown>) => void) => {
    const copy = structuredClone(chunks) as Record<string, unknown>[];
    const c = copy.find(pick);
    assert.ok(c);
    change(c!);
    assert.throws(() => load(copy), /snapshot load: expected/);
  };
  const flip = (s: string, at: number) => {
    const b = Buffer.from(s, 'base64');
    b[at % b.length] ^= 0xff;
    return b.toString('base64');
  };
  damage(
    (c) => c.type === 'search-array' && c.name === 'packed',
    (c) => {
      c.data = flip(c.data as string, 7);
    },
  );
  damage(
    (c) => c.type === 'search-array' && c.name === 'order',
    (c) => {
      c.data = flip(c.data as string, 3);
    },
  );
  damage(
    (c) => c.type === 'search-array' && c.name === 'offsets',
    (c) => {
      c.data = (c.data as string).slice(0, 8);
    },
  );
  damage(
    (c) => c.type === 'search-words',
    (c) => {
      const w = (c.words as string).split(' ');
      w[1] = w[0];
      c.words = w.join(' ');
    },
  );
  damage(
    (c) => c.type === 'search-words',
    (c) => {
      c.words = `${c.words} Extra`;
    },
  );
  damage(
    (c) => c.type === 'block-array' && c.name === 'counts',
    (c) => {
      c.data = flip(c.data as string, 0);
    },
  );
  damage(
    (c) => c.type === 'search-index',
    (c) => {
      c.entries = 'many';
    },
  );
  // cut short: the packed words missing
  const short = chunks.filter(
    (c) =>
      !((c as Record<string, unknown>).type === 'search-array' && (c as Record<string, unknown>).name === 'packed'),
  );
  assert.throws(() => load(short), /snapshot load: expected all of search-index.packed/);
});

Words('past its bound of writes the index is rebuilt in the background; searches answer meanwhile', async () => {
  const { engine, r } = written(3, 4500, 0);
  const before = existingSearchIndex(engine.state)!;
  // a reference that always builds afresh
  const fresh = () => load(roundTrip(engine).filter((c) => !/^(search|block)-/.test((c as { type: string }).type)));
  for (let id = 1; id <= 4200; id++) put(engine, event(r, id));
  // still the old index, with its overflow: no search rebuilds it on the spot
  assert.is(existingSearchIndex(engine.state), before);
  assert.ok(before.stats().touched > 4096);
  sameAnswers(engine, fresh(), 21, 150);
  assert.is(existingSearchIndex(engine.state), before);
  // writes during the rebuild reach both
  for (let k = 0; k < 30; k++) put(engine, event(r, r.int(1, 4600)));
  for (let i = 0; i < 200 && existingSearchIndex(engine.state) === before; i++)
    await new Promise((res) => setTimeout(res, 5));
  const after = existingSearchIndex(engine.state)!;
  assert.is.not(after, before, 'the new index took over');
  assert.not.ok(after.building);
  assert.ok(after.stats().touched < 200, `${after.stats().touched} rows touched since its build began`);
  sameAnswers(engine, fresh(), 22, 200);
});

Words.run();
