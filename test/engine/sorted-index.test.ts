import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PostingList } from '../../src/engine/posting-list.ts';
import { bisectLeft, bisectPair, bisectRight, SortedIndex } from '../../src/engine/sorted-index.ts';

const keysOf = (...k: number[]) => Float64Array.from(k);

// ---
const Bisect = suite('bisect');

Bisect('bisect :: left partition is keys < key | keys >= key', () => {
  const keys = keysOf(1, 2, 2, 2, 5);
  assert.is(bisectLeft(keys, 2, 0, 5), 1);
  assert.is(bisectLeft(keys, 0, 0, 5), 0);
  assert.is(bisectLeft(keys, 3, 0, 5), 4);
  assert.is(bisectLeft(keys, 9, 0, 5), 5);
});

Bisect('bisect :: right partition is keys <= key | keys > key', () => {
  const keys = keysOf(1, 2, 2, 2, 5);
  assert.is(bisectRight(keys, 2, 0, 5), 4);
  assert.is(bisectRight(keys, 1, 0, 5), 1);
  assert.is(bisectRight(keys, 0, 0, 5), 0);
  assert.is(bisectRight(keys, 5, 0, 5), 5);
});

Bisect('bisect :: pair partition breaks key ties by tie', () => {
  const keys = keysOf(1, 2, 2, 2, 5);
  const ties = Int32Array.from([9, 3, 5, 8, 1]);
  assert.is(bisectPair(keys, ties, 2, 5, 0, 5), 2);
  assert.is(bisectPair(keys, ties, 2, 6, 0, 5), 3);
  assert.is(bisectPair(keys, ties, 2, 1, 0, 5), 1);
  assert.is(bisectPair(keys, ties, 2, 99, 0, 5), 4);
});

Bisect('bisect :: empty and sub-ranges', () => {
  assert.is(bisectLeft(keysOf(), 1, 0, 0), 0);
  const keys = keysOf(1, 2, 3, 4);
  assert.is(bisectLeft(keys, 1, 2, 4), 2);
  assert.is(bisectRight(keys, 9, 0, 2), 2);
});

Bisect.run();

// ---
const Index = suite('sorted index');

function entries(ix: SortedIndex): string {
  const out: string[] = [];
  for (let i = 0; i < ix.count; i++) out.push(`${ix.keys[i]}/${ix.ties[i]}/${ix.rows[i]}`);
  return out.join(' ');
}

Index('sorted index :: insert keeps (key, tie) order and grows', () => {
  const ix = new SortedIndex();
  ix.insert(5, 2, 0);
  ix.insert(5, 1, 1);
  ix.insert(3, 9, 2);
  ix.insert(5, 3, 3);
  ix.insert(7, 0, 4);
  assert.is(entries(ix), '3/9/2 5/1/1 5/2/0 5/3/3 7/0/4');
  for (let i = 0; i < 100; i++) ix.insert(100 - i, i, 10 + i);
  assert.is(ix.count, 105);
  for (let i = 1; i < ix.count; i++) {
    assert.ok(ix.keys[i - 1] < ix.keys[i] || (ix.keys[i - 1] === ix.keys[i] && ix.ties[i - 1] < ix.ties[i]));
  }
});

Index('sorted index :: remove takes the exact entry, ties untouched', () => {
  const ix = new SortedIndex();
  ix.insert(5, 2, 0);
  ix.insert(5, 1, 1);
  ix.insert(5, 3, 3);
  ix.remove(5, 2, 0);
  assert.is(entries(ix), '5/1/1 5/3/3');
  assert.throws(() => ix.remove(5, 2, 0), /expected row 0/);
  assert.throws(() => ix.remove(5, 3, 7), /expected row 7/);
  assert.throws(() => ix.insert(5, 1, 9), /expected no entry/);
});

Index('sorted index :: range with inclusive and exclusive bounds', () => {
  const ix = new SortedIndex();
  [1, 2, 2, 3, 4].forEach((k, i) => {
    ix.insert(k, i, i);
  });
  assert.equal(ix.range(2, false, 3, false), [1, 4]);
  assert.equal(ix.range(2, true, 3, false), [3, 4]);
  assert.equal(ix.range(2, false, 3, true), [1, 3]);
  assert.equal(ix.range(-Infinity, false, Infinity, false), [0, 5]);
  assert.equal(ix.range(4, true, Infinity, false), [5, 5]);
  assert.equal(ix.range(3, false, 2, false), [3, 3]);
});

Index('sorted index :: load sorts once by (start, id)', () => {
  const starts = Float64Array.from([5, 3, 5, 1]);
  const ids = Int32Array.from([40, 30, 20, 10]);
  const ix = new SortedIndex();
  ix.load(4, starts, ids);
  assert.is(entries(ix), '1/10/3 3/30/1 5/20/2 5/40/0');
});

Index.run();

// ---
const Posting = suite('posting list');

Posting('posting list :: insert/remove through event columns, ties by id', () => {
  const starts = Float64Array.from([5, 5, 3, 5, 9]);
  const ids = Int32Array.from([7, 4, 8, 6, 1]);
  const list = new PostingList();
  for (const row of [0, 1, 2, 3, 4]) list.insert(starts, ids, row);
  assert.equal(list.toArray(), [2, 1, 3, 0, 4]);
  list.remove(starts, ids, 3, 5, 6);
  assert.equal(list.toArray(), [2, 1, 0, 4]);
  assert.throws(() => list.remove(starts, ids, 3, 5, 6), /expected row 3/);
  assert.equal(list.range(starts, 5, false, 5, false), [1, 3]);
  assert.equal(list.range(starts, 3, true, 9, true), [1, 3]);
});

Posting('posting list :: range equals a count of the starts, bounds inside, outside and on the ends', () => {
  let x = 7;
  const rnd = (n: number) => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 8) % n;
  for (let round = 0; round < 200; round++) {
    const n = rnd(40);
    const starts = Float64Array.from({ length: n }, () => 10 + rnd(20));
    const ids = Int32Array.from({ length: n }, (_, i) => i + 1);
    const list = new PostingList();
    for (let row = 0; row < n; row++) list.insert(starts, ids, row);
    const sorted = list.toArray().map((row) => starts[row]);
    // bounds below, on, between and above the starts, each open or not, or none
    const pick = () => [-Infinity, Infinity, 5 + rnd(30), sorted[0] ?? 0, sorted[sorted.length - 1] ?? 0][rnd(5)];
    const min = pick(),
      max = pick(),
      minOpen = rnd(2) === 1,
      maxOpen = rnd(2) === 1;
    const lo = sorted.filter((v) => v < min || (minOpen && v === min)).length;
    const before = sorted.filter((v) => v < max || (!maxOpen && v === max)).length;
    assert.equal(list.range(starts, min, minOpen, max, maxOpen), [lo, Math.max(lo, before)], `round ${round}`);
  }
});

Posting.run();
