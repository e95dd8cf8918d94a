// Snapshot format: version 3 chunks (typed columns as base64 of their bytes, the text store's
// records, the title dictionary), still reading version 1 snapshots (fixture written by the engine
// at commit cfccfe5, test/fixtures/snapshot-v1.jsonl) and version 2 ones (written at 175eaed,
// test/fixtures/snapshot-v2.jsonl), each with the records it held beside it.
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
const bytes = (s: string) => Buffer.from(s, 'base64');
const int32s = (s: string) => {
  const b = bytes(s);
  return Array.from({ length: b.length / 4 }, (_, i) => b.readInt32LE(i * 4));
};
const float64s = (s: string) => {
  const b = bytes(s);
  return Array.from({ length: b.length / 8 }, (_, i) => b.readDoubleLE(i * 8));
};

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

for (const v of [1, 2]) {
  Snap(`a version ${v} snapshot (fixture) loads with every record, count and answer`, () => {
    const chunks = lines(fs.readFileSync(fixture(`snapshot-v${v}.jsonl`), 'utf8'));
    assert.is((chunks[0] as { version: number }).version, v);
    const expected = JSON.parse(fs.readFileSync(fixture(`snapshot-v${v}.expected.json`), 'utf8')) as Expected;
    const e = new Engine();
    e.loadSnapshotChunks(chunks);
    assert.is(e.eventRowCount, expected.events.length);
    for (const rec of expected.events) assert.equal(e.eventRecord(e.eventRow(rec.id)), rec, `event ${rec.id}`);
    assert.equal([...e.venues()], expected.venues);
    assert.equal([...e.organizers()], expected.organizers);
    assert.equal([...e.terms('tribe_events_cat'), ...e.terms('post_tag')], expected.terms);
    for (const [id, n] of Object.entries(expected.termCounts))
      assert.is(e.termCount(Number(id)), n, `count of term ${id}`);
    // the fixtures hold an odd date string, several costs, a lineage, two venues, a repeated category
    assert.ok(expected.events.some((r) => r.date === '0000-00-00 00:00:00' || r.date === '2024-13-45 99:00:00'));
    assert.ok(expected.events.some((r) => r.costs.length === 3 || r.costs.length === 2));
    assert.ok(expected.events.some((r) => r.venueIds.length === 2));
    assert.ok(expected.events.some((r) => r.lineage !== undefined));
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
    // and re-saved, it is version 3 and loads to the same content
    const again = roundTrip(e);
    assert.is((again[0] as { version: number }).version, SNAPSHOT_VERSION);
    assert.is(SNAPSHOT_VERSION, 3);
    const v3 = new Engine();
    v3.loadSnapshotChunks(again);
    sameContent(e, v3, `v${v} → v3`);
  });
}

Snap('version 3 round trip: records, slugs, counts and answers are identical; columns are bytes', () => {
  const gen = new Generator(new Rng(mulberry32(11)));
  const set = gen.initial(400);
  set.events[0] = { ...set.events[0], date: '2024-13-45 99:00:00', modifiedUtc: '' }; // odd stamps kept as strings
  set.events[1] = { ...set.events[1], costs: ['5', 'free', '5'] };
  set.events[2] = { ...set.events[2], lineage: ['x?id=1'], website: 'https://e.example/1', title: 'Ωmega 🎉' };
  set.events[3] = { ...set.events[3], description: 'naïve \ud800 lone surrogate', website: '' };
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
  assert.equal(
    chunks.map((c) => (c as { type: string }).type).filter((t) => t !== 'postings' && t !== 'postingRows'),
    ['calendar-engine-snapshot', 'titles', 'link-lists', 'events'],
  );
  const titles = chunks[1] as { from: number; titles: string[] };
  assert.is(titles.from, 0);
  assert.is(titles.titles[0], '');
  assert.ok(titles.titles.includes('Ωmega 🎉'));
  assert.is((chunks[0] as { titles: number }).titles, titles.titles.length);
  const pool = chunks[2] as { from: number; values: string; ends: string };
  assert.is(pool.from, 1);
  assert.is(int32s(pool.ends).length, (chunks[0] as { linkLists: number }).linkLists);
  assert.is(int32s(pool.values).length, (chunks[0] as { linkValues: number }).linkValues);
  const ev = chunks[3] as {
    ints: { ids: string; statusCodes: string };
    dates: Record<string, string>;
    secs: Record<string, string>;
    oddDates: unknown[];
    texts: { bytes: string; ends: string };
    linkRows: { tagIds: string };
    links?: unknown;
  };
  const ids = int32s(ev.ints.ids);
  assert.is(ids.length, 400);
  assert.is(bytes(ev.ints.statusCodes).length, 400, 'statuses: a byte a row');
  const starts = float64s(ev.dates.startLocal);
  assert.is(starts.length, 400);
  // rows are written in (start, id) order: event 0 is at the position of its id
  const at0 = ids.indexOf(set.events[0].id);
  assert.is(int32s(ev.secs.date)[at0], -0x80000000, 'an odd date is FAR in its Int32 column');
  assert.is(ev.dates.date, undefined, 'the post date is written as Int32 seconds only');
  assert.is(int32s(ev.secs.date).length, 400);
  assert.equal(ev.oddDates, [
    [4, at0, '2024-13-45 99:00:00'],
    [7, at0, ''],
  ]);
  const ends = int32s(ev.texts.ends);
  assert.is(ends.length, 400);
  assert.is(ends[399], bytes(ev.texts.bytes).length, 'the records end where the bytes end');
  const tagRows = int32s(ev.linkRows.tagIds);
  assert.is(tagRows.length, 400);
  assert.ok(new Set(tagRows).size < 400, 'rows share the pool lists');
  assert.ok(Math.max(...tagRows) <= int32s(pool.ends).length);
  assert.is(ev.links, undefined, 'no lists of its own');
  const copy = new Engine();
  copy.loadSnapshotChunks(chunks);
  sameContent(e, copy, 'v3');
  assert.is(copy.eventRecord(copy.eventRow(set.events[0].id)).date, '2024-13-45 99:00:00');
  assert.equal(copy.eventRecord(copy.eventRow(set.events[1].id)).costs, ['5', 'free', '5']);
  // writes after the load behave as on the original
  const put = { ...set.events[7], title: 'changed jazz', tagIds: [gen.tagIds[0]] };
  e.apply([{ t: 'event', a: 'put', rec: put }]);
  copy.apply([{ t: 'event', a: 'put', rec: put }]);
  sameContent(e, copy, 'v3 after a write');
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
  const ev = chunks.filter((c) => (c as { type: string }).type === 'events') as {
    ints: { ids: string };
    dates: { startLocal: string };
  }[];
  const pairs: [number, number][] = [];
  for (const c of ev) {
    const starts = float64s(c.dates.startLocal);
    const ids = int32s(c.ints.ids);
    for (let i = 0; i < ids.length; i++) pairs.push([starts[i], ids[i]]);
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
  type Chunks = [
    Record<string, unknown>,
    { titles: string[] },
    {
      ints: Record<string, string>;
      dates: Record<string, string>;
      texts: { bytes: string; ends: string };
      linkRows: { tagIds: string };
    },
  ];
  const refused = (damage: (c: Chunks) => void, message: RegExp) => {
    const c = roundTrip(e) as Chunks;
    damage(c);
    assert.throws(() => new Engine().loadSnapshotChunks(c), message);
  };
  const b64 = (values: number[]) => Buffer.from(Int32Array.from(values).buffer).toString('base64');
  refused((c) => {
    c[2].ints.authorIds = b64([1]);
  }, /expected 2 values \(8 bytes\) of authorIds, got 4 bytes/);
  refused((c) => {
    c[2].dates.endLocal = 'AAAA';
  }, /expected 2 values \(16 bytes\) of dates.endLocal, got 3 bytes/);
  refused((c) => {
    c[2].linkRows.tagIds = b64([0, 3]);
  }, /expected a tagIds list number < 1, got 3 at row 1/);
  // a record one byte short, a title index past the dictionary, a dictionary cut short
  refused((c) => {
    const ends = int32s(c[2].texts.ends);
    ends[0]--;
    c[2].texts.ends = b64(ends);
  }, /record 0 of 2 is damaged/);
  refused((c) => {
    const raw = bytes(c[2].texts.bytes);
    raw[0] = 100;
    c[2].texts.bytes = raw.toString('base64');
  }, /record 0 of 2 is damaged/);
  refused((c) => {
    c[1].titles.pop();
  }, /expected \d+ titles before the events, got \d+/);
  refused((c) => {
    c[0].version = 4;
  }, /version 1, 2 or 3 header/);
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
    assert.ok(t.costs.get(0) === t.costs.get(10) && t.costs.nums[0] === t.costs.nums[10]);
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
