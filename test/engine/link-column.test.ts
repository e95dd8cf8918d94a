// The id list pool (src/engine/link-column.ts): one number per distinct list, found by its hash in
// an open-addressing table (slots shared by probing), across the table's growth; and the
// IdMap that keeps thinly spread ids in a Map (src/engine/columns.ts).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { IdMap } from '../../src/engine/columns.ts';
import { IdListPool } from '../../src/engine/link-column.ts';
import { listHash } from '../../src/engine/list-interner.ts';

const pool = suite('id list pool');

pool('equal lists are one number, different ones are not, as the pool and its table grow', () => {
  const p = new IdListPool();
  const seen = new Map<string, number>();
  let x = 7;
  const rnd = (n: number) => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 8) % n;
  for (let round = 0; round < 20_000; round++) {
    const list = Array.from({ length: 2 + rnd(3) }, () => 70_000 + rnd(40));
    const src = new Int32Array([1, ...list, 1]);
    // every other list by the hash an import worker computed, from a range of a larger array
    const k = round % 2 ? p.internHashed(src, 1, list.length, listHash(list, 0, list.length)) : p.intern(list);
    const key = JSON.stringify(list);
    const before = seen.get(key);
    if (before === undefined) seen.set(key, k);
    else assert.is(k, before, key);
    assert.equal(p.list(k), list);
  }
  const numbers = [...seen.values()];
  assert.is(new Set(numbers).size, numbers.length, 'distinct lists have distinct numbers');
  assert.ok(p.count > 1000);
});

pool('lists appended as they are (a load) are found once indexed, in slices or by the next intern', () => {
  // lists a snapshot brings: singletons of small ids, a large id alone, longer lists
  const lists = [[5], [70_000], [3, 9], [9, 3], [1, 2, 3, 4], [40_000], [7, 7]];
  const values = Int32Array.from(lists.flat());
  const ends = new Int32Array(lists.length);
  let at = 0;
  for (let j = 0; j < lists.length; j++) ends[j] = at += lists[j].length;
  for (const slices of [0, 1, 3]) {
    const p = new IdListPool();
    p.intern([8, 8]); // list 1, interned before the load
    p.appendPacked(values, ends);
    assert.is(p.count, 2 + lists.length);
    lists.forEach((l, j) => {
      assert.equal(p.list(2 + j), l);
    });
    // indexed a few at a time between requests, or not at all before the next intern
    if (slices > 0) while (!p.indexSome(slices));
    lists.forEach((l, j) => {
      assert.is(p.intern(l), 2 + j, `${slices}: ${JSON.stringify(l)}`);
    });
    assert.is(p.intern([8, 8]), 1);
    assert.is(p.count, 2 + lists.length, 'no list added twice');
    assert.is(p.intern([6, 6, 6]), p.count - 1, 'a new list gets the next number');
    assert.is(p.single(12), p.count - 1);
    assert.is(p.single(5), 2);
  }
  // a pool whose table grows while it takes them in: thousands of lists, a slice at a time
  const many = new IdListPool();
  const big = Array.from({ length: 5000 }, (_, i) => [i * 3 + 100_000, i]);
  const bigEnds = Int32Array.from(big, (_, j) => 2 * (j + 1));
  many.appendPacked(Int32Array.from(big.flat()), bigEnds);
  let steps = 0;
  while (!many.indexSome(700)) steps++;
  assert.is(steps, 7);
  big.forEach((l, j) => {
    assert.is(many.intern(l), 1 + j);
  });
  assert.is(many.count, 5001);
});

pool('an IdMap with no dense part keeps every id in its Map', () => {
  const m = new IdMap<string>(0);
  m.set(1_000_000, 'a');
  m.set(3, 'b');
  assert.is(m.get(1_000_000), 'a');
  assert.is(m.get(3), 'b');
  assert.is(m.get(4), undefined);
  assert.is(m.size, 2);
  m.delete(3);
  assert.is(m.get(3), undefined);
  assert.is(m.size, 1);
  assert.equal([...m.entries()], [[1_000_000, 'a']]);
  assert.is((m as unknown as { dense: unknown[] }).dense.length, 0);
});

pool.run();
