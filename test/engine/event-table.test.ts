// The import's ways into the event table: appendStaged (dates as naive ms) stores what append
// stores for the same record, appendTable moves a staging table into an empty table or copies it
// after existing rows, and the list interner shares one list per content on every path.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  EventTable,
  IdListPool,
  LinkColumn,
  ListInterner,
  STAGED_DATES,
  EMPTY_IDS,
  type StagedEvent,
} from '../../src/engine/event-table.ts';
import { naiveFromString, naiveToString } from '../../src/engine/naive-time.ts';
import type { EventRecord } from '../../src/engine/records.ts';
import { makeEvent } from './build.ts';

const table = suite('engine :: event table');

const records: EventRecord[] = [
  makeEvent(5, {
    venueIds: [1, 2],
    organizerIds: [3, 4, 5, 6],
    categoryIds: [7, 8],
    tagIds: [70_000, 1],
    costs: ['10', '20'],
    lineage: ['a'],
    website: 'https://x.example',
  }),
  makeEvent(6, {
    date: '0999-05-01 10:00:00',
    modifiedUtc: '2024-02-30 10:00:00',
    allDay: true,
    featured: true,
    currencySymbol: '\u20ac',
  }),
  makeEvent(7, { startLocal: '2030-01-01 00:00:00', endLocal: '2030-12-31 23:59:59', status: 'draft', tagIds: [2, 1] }),
];

function staged(rec: EventRecord): [StagedEvent, number[]] {
  const fields = { ...rec } as Record<string, unknown>;
  // a date that is not a 'Y-m-d H:i:s' string of years 1000-9999 goes in as naive ms all the same
  const dates = STAGED_DATES.map((f) => naiveFromString(rec[f]));
  for (const f of STAGED_DATES) delete fields[f];
  return [fields as unknown as StagedEvent, dates];
}

table('appendStaged stores what append stores with the dates written as strings (odd dates included)', () => {
  const a = new EventTable(),
    b = new EventTable();
  for (const rec of records) {
    const written = { ...rec };
    for (const f of STAGED_DATES) written[f] = naiveToString(naiveFromString(rec[f]));
    a.append(written);
    const [fields, dates] = staged(rec);
    b.appendStaged(fields, dates);
  }
  for (let row = 0; row < records.length; row++) assert.equal(b.record(row), a.record(row), `row ${row}`);
  assert.is(b.record(1).date, '0999-05-01 10:00:00');
  assert.is(b.record(1).modifiedUtc, '2024-03-01 10:00:00'); // Feb 30th as naiveFromString reads it (what an import stored before)
  assert.throws(
    () =>
      b.appendStaged(
        staged(makeEvent(8))[0],
        [0.5, 0, 0, 0, 0, 0, 0, 0].map((x, i) => (i < 2 ? naiveFromString('2030-01-02 00:00:00') - i * 1000 : x)),
      ),
    /expected end >= start/,
  );
});

table('appendTable: moved into an empty table, copied after existing rows; the staging table is emptied', () => {
  const live = new EventTable();
  const stage = new EventTable(live);
  for (const rec of records) stage.append(rec);
  assert.is(live.appendTable(stage), 0);
  assert.is(stage.count, 0);
  assert.is(live.count, 3);
  for (let row = 0; row < 3; row++) assert.equal(live.record(row), records[row]);
  const more = new EventTable(live);
  more.append(
    makeEvent(9, { tagIds: [2, 1], organizerIds: [3, 4, 5, 6], date: '0500-01-01 00:00:00', venueIds: [4, 3] }),
  );
  more.append(makeEvent(10));
  assert.is(live.appendTable(more), 3);
  assert.is(live.count, 5);
  for (let row = 0; row < 3; row++) assert.equal(live.record(row), records[row]);
  assert.is(live.record(3).date, '0500-01-01 00:00:00');
  assert.equal(live.venueList(3), [4, 3]);
  assert.is(live.tagIds.lists[3], live.tagIds.lists[2], 'equal lists are one list, across tables sharing a pool');
  assert.is(live.organizerIds.lists[3], live.organizerIds.lists[0]);
  assert.equal(live.tagIds.get(3), [2, 1]);
  assert.equal(live.organizerIds.get(3), [3, 4, 5, 6]);
  assert.is(live.record(4).id, 10);
  live.append(makeEvent(11));
  assert.is(live.record(5).id, 11);
  assert.throws(() => live.appendTable(new EventTable()), /sharing this table's pools/);
});

table('the id list pool: one number per content, whatever the path (single, hashed, ranges)', () => {
  const pool = new IdListPool();
  const lists = [
    [],
    [3],
    [3, 4],
    [4, 3],
    [3, 4, 5],
    [3, 4, 5, 6],
    [70_000, 3],
    [3, 70_000],
    [65_535, 65_535, 65_535],
    [-1, 2],
    [70_000],
  ];
  const first = lists.map((l) => pool.intern(l.slice()));
  assert.is(first[0], 0, 'the empty list is list 0');
  lists.forEach((l, i) => {
    assert.equal(pool.list(first[i]), l);
    assert.is(pool.intern(l.slice()), first[i], JSON.stringify(l));
    assert.is(pool.internRange([9, ...l, 9], 1, l.length), first[i], `range ${JSON.stringify(l)}`);
    assert.is(pool.internRange(new Int32Array([9, ...l]), 1, l.length), first[i], `typed ${JSON.stringify(l)}`);
  });
  assert.is(new Set(first).size, lists.length);
  // enough lists to grow the hash table and the packed arrays several times: each found again
  const many: number[][] = [];
  for (let i = 0; i < 5000; i++) many.push([i, i + 1, (i * 7) % 13]);
  const ks = many.map((l) => pool.intern(l));
  many.forEach((l, i) => {
    assert.is(pool.intern(l.slice()), ks[i]);
    assert.equal(pool.list(ks[i]), l);
  });
  // a column reads its rows' lists through the pool
  const col = new LinkColumn(pool);
  col.grow(4);
  col.set(0, [5, 6, 5]);
  col.set(1, []);
  col.set(2, [5, 6, 5]);
  assert.is(col.lists[0], col.lists[2]);
  assert.equal(col.get(0), [5, 6, 5]);
  assert.equal(col.get(1), []);
  assert.is(col.size(0), 3);
  assert.is(col.size(1), 0);
  assert.ok(col.some(0, (id) => id === 6));
  assert.not.ok(col.some(0, (id) => id === 7));
  assert.not.ok(col.some(1, () => true));
  const frozen = col.freeze(3);
  col.set(0, [8]);
  assert.equal(pool.list(frozen.lists[0]), [5, 6, 5], 'a frozen copy keeps the lists it had');
  assert.equal(col.get(0), [8]);
});

table('the list interner: one list per content, whatever the path (single, hashed, strings)', () => {
  const li = new ListInterner<number>(EMPTY_IDS);
  const lists = [
    [],
    [3],
    [3, 4],
    [4, 3],
    [3, 4, 5],
    [3, 4, 5, 6],
    [70_000, 3],
    [3, 70_000],
    [65_535, 65_535, 65_535],
    [-1, 2],
    [1.5, 2],
  ];
  const first = lists.map((l) => li.intern(l.slice()));
  lists.forEach((l, i) => {
    assert.equal([...first[i]], l);
    assert.is(li.intern(l.slice()), first[i], JSON.stringify(l));
    assert.is(li.internRange([9, ...l, 9], 1, l.length), first[i], `range ${JSON.stringify(l)}`);
  });
  assert.is(new Set(first).size, lists.length);
  // three lists of one hash key (found by search): each still its own list, found again
  const same = [
    [1, 295, 7],
    [4, 2189, 7],
    [15585, 3721, 7],
  ];
  const shared = same.map((l) => li.intern(l.slice()));
  same.forEach((l, i) => {
    assert.equal([...shared[i]], l);
    assert.is(li.intern(l.slice()), shared[i], JSON.stringify(l));
  });
  assert.is(new Set(shared).size, 3);
  const ls = new ListInterner<string>([]);
  const a = ls.intern(['10', '20']);
  assert.is(ls.intern(['10', '20']), a);
  assert.is(ls.intern(a), a);
  assert.is.not(ls.intern(['10']), a);
});

table.run();
