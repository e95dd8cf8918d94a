// ListInterner (src/engine/list-interner.ts): one shared list per content, whatever the path
// (whole list, range, a list it handed out); listHash and bySingle, which the link lists' pool
// and a parallel import's workers must agree on.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ListInterner, listHash } from '../../src/engine/list-interner.ts';

const lists = suite('list interner');

lists('equal lists are one list, different ones are not, by whole list or range', () => {
  const li = new ListInterner<string>([]);
  const a = li.intern(['10', '20']);
  assert.is(li.intern(['10', '20']), a);
  assert.is(li.internRange(['x', '10', '20', 'y'], 1, 2), a);
  assert.is(li.intern(a), a, 'a list it handed out is its own answer');
  assert.is.not(li.intern(['10']), a);
  assert.is.not(li.intern(['10,20']), li.intern(['10', '20']), 'JSON keeps the boundaries');
  assert.is(li.intern([]), li.empty);
  assert.is(li.internRange(['10'], 0, 0), li.empty);
  const copy = ['5'];
  const kept = li.intern(copy);
  copy[0] = '6';
  assert.equal([...kept], ['5'], 'a copy is kept, not the caller’s array');
});

lists('listHash of a range is the hash of the same ids anywhere; bySingle takes small single ids', () => {
  const ids = [3, 70_000, 12];
  assert.is(listHash(new Int32Array([9, ...ids, 9]), 1, 3), listHash(ids, 0, 3));
  assert.is.not(listHash([3, 12], 0, 2), listHash([12, 3], 0, 2));
  assert.ok(listHash(ids, 0, 3) >= 0 && listHash(ids, 0, 3) < 2 ** 30);
  assert.ok(ListInterner.bySingle([7], 0, 1));
  assert.ok(ListInterner.bySingle([1, 65_535], 1, 1));
  assert.not.ok(ListInterner.bySingle([65_536], 0, 1));
  assert.not.ok(ListInterner.bySingle([-1], 0, 1));
  assert.not.ok(ListInterner.bySingle([7, 8], 0, 2));
});

lists.run();
