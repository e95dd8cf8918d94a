// ListInterner's hashed lists (src/engine/list-interner.ts): one shared list per content, found by
// its hash in an open-addressing table, whether lists share a hash or not, across its growth.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ListInterner, listHash } from '../../src/engine/list-interner.ts';

const lists = suite('list interner');

lists('equal lists are one list, different ones are not, when hashes collide and as the table grows', () => {
  const li = new ListInterner<number>([]);
  const seen = new Map<string, readonly number[]>();
  let x = 3;
  const rnd = (n: number) => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 8) % n;
  for (let round = 0; round < 20_000; round++) {
    const list = Array.from({ length: 2 + rnd(3) }, () => rnd(40));
    // a few keys for all (every list collides with many), or the real hash
    const key = round % 2 ? rnd(7) : listHash(list, 0, list.length);
    const src = new Int32Array([9, ...list, 9]);
    const got =
      key === listHash(list, 0, list.length)
        ? li.internRange(list, 0, list.length)
        : li.internHashed(src, 1, list.length, key);
    assert.equal([...got], list);
    const id = `${key}:${list}`;
    const before = seen.get(id);
    if (before) assert.ok(before === got, `list ${id} interned twice`);
    else seen.set(id, got);
  }
  // a list found by either hash is the one first given for it
  assert.ok(li.internHashed([5, 6], 0, 2, 123) === li.internHashed(new Int32Array([5, 6]), 0, 2, 123));
  assert.ok(li.internHashed([5, 6], 0, 2, 123) !== li.internHashed([5, 7], 0, 2, 123));
});

lists.run();
