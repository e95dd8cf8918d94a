// Snapshot format: version 2 chunks (flat arrays, seconds relative to another date of the row,
// shared link lists), still reading version 1 snapshots (fixture written by the engine at
// commit cfccfe5, test/fixtures/snapshot-v1.jsonl, with the records it held beside it).
import fs from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { sortRowsByStartId } from '../../src/engine/columns.ts';
import { Engine } from '../../src/engine/engine.ts';
import { ListInterner } from '../../src/engine/event-table.ts';
import { naiveToString, naiveToStringByDate } from '../../src/engine/naive-time.ts';
import type { EventRecord, OrganizerRecord, TermRecord, VenueRecord } from '../../src/engine/records.ts';
import { SNAPSHOT_VERSION } from '../../src/engine/snapshot.ts';
import type { EventQuery } from '../../src/engine/types.ts';
import { makeEvent, makeVenue } from './build.ts';
import { Generator, Rng, mulberry32 } from './random-calendar.ts';

const Snap = suite('snapshot');
const fixture = (name: string) => new URL(`../fixtures/${name}`, import.meta.url);
const lines = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as unknown);
const roundTrip = (e: Engine): unknown[] => JSON.parse(JSON.stringify([...e.snapshotChunks()])) as unknown[];

interface Expected {
  nextPostId: number;
  events: EventRecord[];
  venues: VenueRecord[];
  organizers: OrganizerRecord[];
  terms: TermRecord[];
  termCounts: Record<string, number>;
}

const ALL = 0xff;
const QUERIES: Omit<EventQuery, 'offset' | 'limit'>[] = [
  { statusMask: ALL },
  { statusMask: 1 },
  { statusMask: ALL, categoryIds: [1] },
  { statusMask: ALL, tagIds: [27, 30] },
  { statusMask: 1, venueIds: [41, 42] },
  { statusMask: ALL, organizerIds: [81] },
  { statusMask: ALL, search: { include: ['jazz'], exclude: [] } },
];

function answers(e: Engine): number[][] {
  return QUERIES.map((q) => {
    const r = e.query({ ...q, offset: 0, limit: 1000 } as EventQuery);
    return [r.total, ...r.rows.map((row) => e.eventId(row))];
  });
}

function sameContent(a: Engine, b: Engine, what: string): void {
  assert.is(a.eventRowCount, b.eventRowCount, `${what}: rows`);
  for (let row = 0; row < a.eventRowCount; row++) {
    const rec = a.eventRecord(row);
    assert.equal(b.eventRecord(b.eventRow(rec.id)), rec, `${what}: event ${rec.id}`);
    assert.is(b.eventRowBySlug(rec.slug), rec.slug === '' ? -1 : b.eventRow(rec.id), `${what}: slug ${rec.slug}`);
  }
  assert.equal([...b.venues()], [...a.venues()], `${what}: venues`);
  assert.equal([...b.organizers()], [...a.organizers()], `${what}: organizers`);
  for (const tax of ['tribe_events_cat', 'post_tag'] as const) {
    assert.equal([...b.terms(tax)], [...a.terms(tax)], `${what}: ${tax}`);
    for (const t of a.terms(tax)) assert.is(b.termCount(t.id), a.termCount(t.id), `${what}: count of term ${t.id}`);
  }
  assert.equal(answers(b), answers(a), `${what}: query answers`);
}

Snap('a version 1 snapshot (fixture) loads with every record, count and answer', () => {
  const chunks = lines(fs.readFileSync(fixture('snapshot-v1.jsonl'), 'utf8'));
  assert.is((chunks[0] as { version: number }).version, 1);
  const expected = JSON.parse(fs.readFileSync(fixture('snapshot-v1.expected.json'), 'utf8')) as Expected;
  const e = new Engine();
  e.loadSnapshotChunks(chunks);
  assert.is(e.eventRowCount, expected.events.length);
  for (const rec of expected.events) assert.equal(e.eventRecord(e.eventRow(rec.id)), rec, `event ${rec.id}`);
  assert.equal([...e.venues()], expected.venues);
  assert.equal([...e.organizers()], expected.organizers);
  assert.equal([...e.terms('tribe_events_cat'), ...e.terms('post_tag')], expected.terms);
  for (const [id, n] of Object.entries(expected.termCounts))
    assert.is(e.termCount(Number(id)), n, `count of term ${id}`);
  // the fixture holds an odd date string, several costs, a lineage, two venues, a repeated category
  assert.ok(expected.events.some((r) => r.date === '0000-00-00 00:00:00'));
  assert.ok(expected.events.some((r) => r.costs.length === 2));
  assert.ok(expected.events.some((r) => r.venueIds.length === 2));
  // the same calendar built by bulk load answers the same
  const fresh = new Engine();
  fresh.bulkLoad({
    events: expected.events,
    venues: expected.venues,
    organizers: expected.organizers,
    terms: expected.terms,
    attachments: [],
  });
  assert.equal(answers(e), answers(fresh));
  assert.is(e.allocPostId(), expected.nextPostId);
  // and re-saved, it is version 2 and loads to the same content
  const again = roundTrip(e);
  assert.is((again[0] as { version: number }).version, SNAPSHOT_VERSION);
  assert.is(SNAPSHOT_VERSION, 2);
  const v2 = new Engine();
  v2.loadSnapshotChunks(again);
  sameContent(e, v2, 'v1 → v2');
});

Snap('version 2 round trip: records, slugs, counts and answers are identical; the chunk is flat', () => {
  const gen = new Generator(new Rng(mulberry32(11)));
  const set = gen.initial(400);
  set.events[0] = { ...set.events[0], date: '2024-13-45 99:00:00', modifiedUtc: '' }; // odd stamps kept as strings
  set.events[1] = { ...set.events[1], costs: ['5', 'free', '5'] };
  set.events[2] = { ...set.events[2], lineage: ['x?id=1'], website: 'https://e.example/1' };
  const e = new Engine();
  e.bulkLoad(set);
  e.apply([
    {
      t: 'event',
      a: 'delete',
      id: set.events[5].id,
      modified: '2024-05-01 00:00:00',
      modifiedUtc: '2024-05-01 04:00:00',
    },
  ]);
  const chunks = roundTrip(e);
  const ev = chunks[1] as {
    ints: { ids: number[] };
    dates: Record<string, (number | null)[]>;
    oddDates: unknown[];
    links: { tagIds: { rows: number[]; lists: number[][] } };
  };
  assert.ok(
    ev.ints.ids.slice(1).every((d) => Math.abs(d) < 1000),
    'ids are differences',
  );
  assert.ok(
    ev.dates.endLocal.every((d) => d === null || Math.abs(d) < 1e9),
    'ends are relative to starts',
  );
  // rows are written in (start, id) order: event 0 is at the position of its id
  const ids = ev.ints.ids.reduce<number[]>((out, d, i) => {
    out.push(i === 0 ? d : out[i - 1] + d);
    return out;
  }, []);
  const at0 = ids.indexOf(set.events[0].id);
  assert.equal(ev.oddDates, [
    [4, at0, '2024-13-45 99:00:00'],
    [7, at0, ''],
  ]);
  assert.is(ev.links.tagIds.rows.length, 400);
  assert.ok(ev.links.tagIds.lists.length < 400, 'distinct tag lists only');
  const copy = new Engine();
  copy.loadSnapshotChunks(chunks);
  sameContent(e, copy, 'v2');
  assert.is(copy.eventRecord(copy.eventRow(set.events[0].id)).date, '2024-13-45 99:00:00');
  assert.equal(copy.eventRecord(copy.eventRow(set.events[1].id)).costs, ['5', 'free', '5']);
  // writes after the load behave as on the original
  const put = { ...set.events[7], title: 'changed jazz', tagIds: [gen.tagIds[0]] };
  e.apply([{ t: 'event', a: 'put', rec: put }]);
  copy.apply([{ t: 'event', a: 'put', rec: put }]);
  sameContent(e, copy, 'v2 after a write');
});

Snap('rows are written in (start, id) order, so a load finds them sorted', () => {
  const gen = new Generator(new Rng(mulberry32(17)));
  const set = gen.initial(2500); // three chunks' worth would be 30,000: the order spans chunks as well
  const e = new Engine();
  e.bulkLoad(set);
  // writes that move rows in the order: new starts for some, a created event
  for (let i = 0; i < 50; i++) {
    const rec = set.events[i * 7];
    e.apply([
      { t: 'event', a: 'put', rec: { ...rec, startLocal: '2031-01-01 00:00:00', endLocal: '2031-01-01 01:00:00' } },
    ]);
  }
  const chunks = roundTrip(e);
  const ev = chunks.slice(1) as { ints: { ids: number[] }; dates: { startLocal: (number | null)[] } }[];
  const pairs: [number, number][] = [];
  for (const c of ev) {
    let id = 0;
    c.ints.ids.forEach((d, i) => {
      id = i === 0 ? d : id + d;
      pairs.push([c.dates.startLocal[i] ?? Number.NaN, id]);
    });
  }
  assert.is(pairs.length, e.eventRowCount);
  for (let i = 1; i < pairs.length; i++) {
    const [s0, id0] = pairs[i - 1],
      [s1, id1] = pairs[i];
    assert.ok(s0 < s1 || (s0 === s1 && id0 < id1), `position ${i}: (${s0}, ${id0}) then (${s1}, ${id1})`);
  }
  const copy = new Engine();
  copy.loadSnapshotChunks(chunks);
  sameContent(e, copy, 'index order');
  // the load's rows are the snapshot's positions
  for (let row = 0; row < copy.eventRowCount; row++) assert.is(copy.eventId(row), pairs[row][1]);
});

Snap('chunks are detached: writes after snapshotChunks() do not show in it', () => {
  const e = new Engine();
  e.bulkLoad({
    events: [makeEvent(10, { title: 'before', venueIds: [5] })],
    venues: [makeVenue(5)],
    organizers: [],
    terms: [],
    attachments: [],
  });
  const chunks = e.snapshotChunks(); // captured here, iterated later
  e.apply([
    {
      t: 'event',
      a: 'put',
      rec: makeEvent(10, { title: 'after', startLocal: '2031-01-01 10:00:00', endLocal: '2031-01-01 11:00:00' }),
    },
  ]);
  e.apply([{ t: 'event', a: 'put', rec: makeEvent(11) }]);
  e.apply([{ t: 'venue', a: 'put', rec: makeVenue(5, { title: 'renamed' }) }]);
  const copy = new Engine();
  copy.loadSnapshotChunks(JSON.parse(JSON.stringify([...chunks])) as unknown[]);
  assert.is(copy.eventRowCount, 1);
  assert.is(copy.eventRecord(0).title, 'before');
  assert.is(copy.eventRecord(0).startLocal, makeEvent(10).startLocal);
  assert.is(copy.venue(5)!.title, makeVenue(5).title);
});

Snap('bad chunks are refused with the field named', () => {
  const e = new Engine();
  e.bulkLoad({ events: [makeEvent(1), makeEvent(2)], venues: [], organizers: [], terms: [], attachments: [] });
  const chunks = roundTrip(e) as [Record<string, unknown>, { titles: string[]; links: { tagIds: { rows: number[] } } }];
  chunks[1].titles.pop();
  assert.throws(() => new Engine().loadSnapshotChunks(chunks), /expected 2 values of titles, got 1/);
  const c2 = roundTrip(e) as typeof chunks;
  c2[1].links.tagIds.rows[1] = 3;
  assert.throws(() => new Engine().loadSnapshotChunks(c2), /expected a tagIds list index < 1, got 3/);
  const c3 = roundTrip(e) as typeof chunks;
  c3[0].version = 3;
  assert.throws(() => new Engine().loadSnapshotChunks(c3), /version 1 or 2 header/);
});

Snap('rows share their link and cost lists', () => {
  const e = new Engine();
  const events = Array.from({ length: 50 }, (_, i) =>
    makeEvent(i + 1, { categoryIds: [7], tagIds: i % 2 ? [8, 9] : [9, 8], costs: ['10'] }),
  );
  e.bulkLoad({
    events,
    venues: [],
    organizers: [],
    terms: [
      { id: 7, taxonomy: 'tribe_events_cat', name: 'c', slug: 'c', description: '', parent: 0 },
      { id: 8, taxonomy: 'post_tag', name: 't', slug: 't', description: '', parent: 0 },
      { id: 9, taxonomy: 'post_tag', name: 'u', slug: 'u', description: '', parent: 0 },
    ],
    attachments: [],
  });
  for (const engine of [
    e,
    (() => {
      const c = new Engine();
      c.loadSnapshotChunks(roundTrip(e));
      return c;
    })(),
  ]) {
    const t = engine.state.table;
    const tags = t.tagIds.lists;
    assert.ok(t.categoryIds.lists[0] === t.categoryIds.lists[49]);
    assert.ok(tags[1] === tags[3] && tags[0] === tags[2] && tags[0] !== tags[1]);
    assert.equal(t.tagIds.get(1), [8, 9]);
    assert.equal(t.tagIds.get(0), [9, 8]);
    assert.ok(t.costs[0] === t.costs[10]);
    assert.is(engine.termCount(9), 50);
  }
});

Snap('ListInterner: equal content → one list; no collisions between shapes', () => {
  const li = new ListInterner<number>([]);
  const lists = [
    [1],
    [65_537],
    [1, 1],
    [1, 65_537],
    [65_537, 1],
    [1, 2, 3],
    [12, 3],
    [1, 23],
    [70_000_000, 1],
    [-1],
    [1.5],
  ];
  const got = lists.map((l) => li.intern(l));
  lists.forEach((l, i) => {
    assert.equal([...got[i]], l);
    assert.ok(li.intern(l.slice()) === got[i]);
    assert.ok(li.internRange([0, ...l, 0], 1, l.length) === got[i]);
  });
  assert.is(new Set(got).size, lists.length);
  const ls = new ListInterner<string>([]);
  assert.ok(ls.intern(['a,b']) !== ls.intern(['a', 'b']));
  assert.ok(ls.intern(['a', 'b']) === ls.intern(['a', 'b']));
});

Snap('sortRowsByStartId orders by (start, id) like a comparison sort', () => {
  const rnd = mulberry32(3);
  for (const [n, spread, scale] of [
    [0, 1, 1000],
    [1, 1, 1000],
    [1000, 50, 1000],
    [5000, 1e9, 1000],
    [3000, 1e6, 1],
    [2000, 1e12, 1000],
  ]) {
    const starts = new Float64Array(n),
      ids = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      starts[i] = Math.floor(rnd() * spread) * scale - spread * scale * 0.3;
      ids[i] = Math.floor(rnd() * 2 ** 31);
    }
    const rows = Int32Array.from({ length: n }, (_, i) => n - 1 - i);
    const want = Array.from(rows).sort((a, b) => starts[a] - starts[b] || ids[a] - ids[b]);
    sortRowsByStartId(rows, starts, ids);
    assert.equal(Array.from(rows), want, `n ${n} spread ${spread} scale ${scale}`);
    // sorted input stays as it is; one pair out of order (equal starts, ids reversed) is found
    sortRowsByStartId(rows, starts, ids);
    assert.equal(Array.from(rows), want, `sorted again: n ${n}`);
    if (n >= 2) {
      const tied = Array.from(want);
      starts[tied[n - 1]] = starts[tied[n - 2]];
      ids[tied[n - 1]] = ids[tied[n - 2]] - 1;
      const again = Int32Array.from(tied);
      sortRowsByStartId(again, starts, ids);
      assert.equal(Array.from(again), [...tied.slice(0, n - 2), tied[n - 1], tied[n - 2]], `tie reversed: n ${n}`);
    }
  }
});

Snap('naiveToString: the arithmetic path gives what Date gives', () => {
  const rnd = mulberry32(5);
  const values = [
    0, -1, 1, -62_167_219_200_000, -62_167_219_200_001, 253_402_300_799_000, 253_402_300_799_999, 253_402_300_800_000,
    951_782_400_000, 951_868_800_000,
  ];
  for (let i = 0; i < 20_000; i++) values.push(Math.floor((rnd() * 2 - 0.6) * 2.6e14));
  for (const v of values) assert.is(naiveToString(v), naiveToStringByDate(v), String(v));
});

Snap.run();
