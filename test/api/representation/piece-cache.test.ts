// The byte-budgeted LRU of rendered pieces, against a reference LRU built on a Map's order.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { KIND_EVENT, KIND_POST, KIND_TERM, PieceCache } from '../../../src/api/representation/piece-cache.ts';
import { Rng, mulberry32 } from '../../engine/random-calendar.ts';

const cache = suite('piece cache');

/** The obvious LRU: a Map in recency order (oldest first), evicting from the front. */
class ReferenceLru {
  readonly map = new Map<string, { value: unknown; bytes: number }>();
  bytes = 0;
  evictions = 0;
  constructor(readonly budget: number) {}
  get(key: string): unknown {
    const e = this.map.get(key);
    if (!e) return undefined;
    this.map.delete(key);
    this.map.set(key, e);
    return e.value;
  }
  set(key: string, value: unknown, bytes: number): void {
    this.drop(key);
    if (bytes > this.budget) return;
    this.map.set(key, { value, bytes });
    this.bytes += bytes;
    for (const [k] of this.map) {
      if (this.bytes <= this.budget) break;
      this.drop(k);
      this.evictions++;
    }
  }
  drop(key: string): void {
    const e = this.map.get(key);
    if (!e) return;
    this.bytes -= e.bytes;
    this.map.delete(key);
  }
}

const KINDS = [KIND_EVENT, KIND_POST, KIND_TERM] as const;

cache('random gets, sets and drops agree with a reference LRU, evictions included', () => {
  for (const budget of [0, 50, 1_000, 20_000]) {
    const rng = new Rng(mulberry32(budget + 1));
    const c = new PieceCache(budget);
    const ref = new ReferenceLru(budget);
    let hits = 0,
      misses = 0;
    for (let step = 0; step < 20_000; step++) {
      const kind = rng.pick(KINDS);
      const id = rng.int(0, kind === KIND_EVENT ? 3_000 : 200);
      const key = `${kind}:${id}`;
      const k = rng.int(0, 99);
      if (k < 45) {
        const got = kind === KIND_EVENT ? c.getRow(id) : c.get(kind, id);
        const want = ref.get(key);
        assert.is(got, want, `step ${step}: get ${key}`);
        if (want === undefined) misses++;
        else hits++;
      } else if (k < 90) {
        const value = { step };
        const bytes = rng.int(1, 400);
        if (kind === KIND_EVENT) c.setRow(id, value, bytes);
        else c.set(kind, id, value, bytes);
        ref.set(key, value, bytes);
      } else if (k < 99) {
        if (kind === KIND_EVENT) c.dropRow(id);
        else c.drop(kind, id);
        ref.drop(key);
      } else {
        c.dropKind(kind);
        for (const key2 of [...ref.map.keys()]) if (key2.startsWith(`${kind}:`)) ref.drop(key2);
      }
      assert.ok(c.bytes <= budget, `step ${step}: ${c.bytes} bytes over the budget ${budget}`);
    }
    assert.equal(c.stats(), {
      budget,
      bytes: ref.bytes,
      rejections: 0,
      entries: ref.map.size,
      hits,
      misses,
      evictions: ref.evictions,
    });
    // every key the reference still holds is held, with its value
    for (const [key, e] of ref.map) {
      const [kind, id] = key.split(':').map(Number);
      assert.is(kind === KIND_EVENT ? c.getRow(id) : c.get(kind as 1 | 2, id), e.value, key);
    }
  }
});

cache('a budget of 0 keeps nothing; a piece bigger than the budget is not kept', () => {
  const none = new PieceCache(0);
  none.setRow(5, 'x', 1);
  none.set(KIND_TERM, 1, 'y', 1);
  assert.is(none.getRow(5), undefined);
  assert.is(none.get(KIND_TERM, 1), undefined);
  assert.equal(none.stats(), { budget: 0, bytes: 0, rejections: 0, entries: 0, hits: 0, misses: 2, evictions: 0 });
  const small = new PieceCache(100);
  small.set(KIND_POST, 1, 'a', 60);
  small.set(KIND_POST, 2, 'huge', 101);
  assert.is(small.get(KIND_POST, 2), undefined);
  assert.is(small.get(KIND_POST, 1), 'a', 'the smaller piece survives');
});

cache('least recently used goes first: a read protects a piece', () => {
  const c = new PieceCache(300);
  c.setRow(1, 'one', 100);
  c.setRow(2, 'two', 100);
  c.setRow(3, 'three', 100);
  c.getRow(1);
  c.setRow(4, 'four', 100);
  assert.is(c.getRow(2), undefined, 'row 2 was the least recently used');
  assert.is(c.getRow(1), 'one');
  assert.is(c.getRow(3), 'three');
  // replacing a piece changes its size in place
  c.setRow(3, 'three again', 10);
  assert.is(c.bytes, 210);
});

cache(
  'admitOnSecondSight: a row is stored the second time it is offered; a crawl does not push out the rows read again',
  () => {
    const c = new PieceCache(100 * 10, true);
    for (let row = 0; row < 10; row++) c.setRow(row, `hot ${row}`, 100);
    assert.is(c.entries, 0, 'nothing kept on first sight');
    for (let row = 0; row < 10; row++) c.setRow(row, `hot ${row}`, 100);
    assert.is(c.entries, 10, 'kept on second sight');
    // a crawl over many rows, each offered once: none is kept, the hot rows stay
    for (let row = 1000; row < 20_000; row++) c.setRow(row, 'cold', 100);
    assert.is(c.entries, 10);
    for (let row = 0; row < 10; row++) assert.is(c.getRow(row), `hot ${row}`);
    assert.is(c.stats().rejections, 10 + 19_000);
    // the window closes: a row seen long ago is on first sight again
    c.setRow(1000, 'again', 100);
    assert.is(c.getRow(1000), undefined, 'row 1000 was forgotten when the window closed');
    // replacing a stored row needs no admission
    c.setRow(3, 'replaced', 100);
    assert.is(c.getRow(3), 'replaced');
    // posts and terms are always stored
    c.set(KIND_POST, 7, 'venue', 50);
    assert.is(c.get(KIND_POST, 7), 'venue');
  },
);

cache('a bad budget is refused', () => {
  for (const b of [-1, Number.NaN, Number.POSITIVE_INFINITY]) assert.throws(() => new PieceCache(b), /byte budget/);
});

cache.run();
