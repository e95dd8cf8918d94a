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
