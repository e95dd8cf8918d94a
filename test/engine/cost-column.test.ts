// The cost column (cost-column.ts): a list number a row in the table's interner, 2 bytes a row
// until there are more than 65,536 distinct lists, then 4, with every row's list unchanged.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CostColumn } from '../../src/engine/cost-column.ts';
import { ListInterner } from '../../src/engine/list-interner.ts';

const C = suite('cost column');

C('rows share the interned lists; numbers are 2 bytes until they no longer fit, then 4', () => {
  const lists = new ListInterner<string>([]);
  const col = new CostColumn(lists);
  col.grow(4);
  col.set(0, ['5', 'free']);
  col.set(1, ['5', 'free']);
  col.set(2, []);
  assert.is(col.nums.BYTES_PER_ELEMENT, 2);
  assert.ok(col.get(0) === col.get(1), 'equal lists are one shared list');
  assert.equal(col.get(0), ['5', 'free']);
  assert.equal(col.get(2), []);
  assert.equal(col.get(3), [], 'a row never set has no costs');
  const n = 70_000;
  col.grow(n + 4);
  for (let i = 0; i < n; i++) col.set(4 + i, [String(i)]);
  assert.is(col.nums.BYTES_PER_ELEMENT, 4, 'widened past 65,536 lists');
  assert.equal(col.get(0), ['5', 'free']);
  assert.equal(col.get(4 + 65_534), ['65534']);
  assert.equal(col.get(4 + n - 1), [String(n - 1)]);
  assert.is(lists.count, n + 2);
  // a copy of the rows (a staging table's, sharing the interner) and a frozen copy read the same
  const other = new CostColumn(lists);
  other.grow(2);
  other.copyRows(col, 2, 0, false);
  assert.ok(other.get(1) === col.get(1));
  const frozen = col.freeze(n + 4);
  col.set(0, ['9']);
  assert.equal(frozen.get(0), ['5', 'free'], 'later writes do not reach a frozen copy');
  assert.equal(frozen.get(4 + n - 1), [String(n - 1)]);
});

C.run();
