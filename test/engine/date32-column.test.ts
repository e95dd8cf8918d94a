// The Int32 date columns (date32-column.ts): the same reads as the Float64 DateColumn for every
// kind of value (in range, out of range both ways, odd strings, the range's edges), through
// writes, snapshot round trips (their far and odd values) and the loading of chunks written with
// every date as Float64.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DateColumn } from '../../src/engine/date-column.ts';
import { Date32Column, FAR } from '../../src/engine/date32-column.ts';
import { Engine } from '../../src/engine/engine.ts';
import { exactNaive } from '../../src/engine/naive-time.ts';
import type { EventRecord } from '../../src/engine/records.ts';
import { makeEvent } from './build.ts';

const D = suite('date32 column');

const STRINGS = [
  '2024-03-01 10:00:00',
  '2024-03-10 02:30:00', // in a DST gap of New York: a naive date all the same
  '2000-01-01 00:00:00',
  '1931-12-13 20:45:52', // one second before the Int32 range
  '1931-12-13 20:45:53', // its first second
  '2068-01-19 03:14:07', // its last second
  '2068-01-19 03:14:08', // one past
  '1900-01-01 00:00:00',
  '2100-06-15 12:34:56',
  '2126-11-30 23:59:59', // a weekly series' occurrence a century out
  '9999-12-31 23:59:59',
  '1000-01-01 00:00:00',
  '0999-12-31 23:59:59',
  '0000-00-00 00:00:00',
  '',
  '2024-13-45 99:00:00',
  '2024-02-30 10:00:00',
  'tomorrow',
];

const same = (a: number, b: number) => (a !== a && b !== b) || a === b;

D('set, get and at answer what the Float64 column answers, in range or not', () => {
  const a = new DateColumn(),
    b = new Date32Column();
  a.grow(STRINGS.length);
  b.grow(STRINGS.length);
  STRINGS.forEach((s, i) => {
    a.set(i, s);
    b.set(i, s);
  });
  STRINGS.forEach((s, i) => {
    assert.is(b.get(i), a.get(i), s);
    assert.ok(same(b.at(i), a.at(i)), `${s}: ${b.at(i)} vs ${a.at(i)}`);
  });
  assert.is(b.sec[4], -0x7fffffff, 'the first second of the range is in the Int32');
  assert.is(b.sec[5], 0x7fffffff, 'its last second too');
  assert.is(b.sec[3], FAR);
  assert.is(b.sec[6], FAR);
  assert.is(b.far.size, 7, 'out-of-range dates keep their ms aside');
  assert.is(b.odd.size, 6, 'odd strings are kept aside (years before 1000 too)');
  // overwriting a far or odd row with an in-range date drops what was kept aside
  b.set(3, '2024-01-01 00:00:00');
  b.set(13, '2024-01-01 00:00:00');
  assert.is(b.far.has(3) || b.odd.has(13), false);
  assert.is(b.get(3), '2024-01-01 00:00:00');
  b.set(0, 'odd');
  b.set(1, '2200-01-01 00:00:00');
  assert.is(b.get(0), 'odd');
  assert.is(b.get(1), '2200-01-01 00:00:00');
});

D('setMs answers what the Float64 column answers, milliseconds and NaN included', () => {
  const base = exactNaive('2024-03-01 10:00:00');
  const values = [
    base,
    base + 1,
    base + 999,
    base - 0.5,
    exactNaive('1900-01-01 00:00:00') + 250,
    exactNaive('2100-01-01 00:00:00'),
    exactNaive('9999-12-31 23:59:59'),
    exactNaive('9999-12-31 23:59:59') + 1000,
    exactNaive('1000-01-01 00:00:00') - 1000,
    Number.NaN,
  ];
  const a = new DateColumn(),
    b = new Date32Column();
  a.grow(values.length);
  b.grow(values.length);
  values.forEach((v, i) => {
    a.setMs(i, v);
    b.setMs(i, v);
  });
  values.forEach((v, i) => {
    assert.ok(same(b.at(i), a.at(i)), `${v}: ${b.at(i)} vs ${a.at(i)}`);
    assert.is(b.get(i), a.get(i), `${v}`);
  });
});

/** An event whose six Int32 dates hold `s` (its local start and end stay in range). */
const withDates = (id: number, s: string, far?: string): EventRecord =>
  makeEvent(id, {
    date: s,
    dateUtc: s,
    modified: s,
    modifiedUtc: s,
    ...(far ? { startLocal: far, endLocal: far, startUtc: far, endUtc: far } : {}),
  });

function records(e: Engine): EventRecord[] {
  const out: EventRecord[] = [];
  for (let row = 0; row < e.eventRowCount; row++) out.push(e.eventRecord(row));
  return out.sort((x, y) => x.id - y.id);
}

const chunksOf = (e: Engine) => JSON.parse(JSON.stringify([...e.snapshotChunks()])) as Record<string, unknown>[];

D('edge dates survive writes and snapshot round trips, and older chunks convert', () => {
  const e = new Engine();
  e.bulkLoad({
    events: STRINGS.map((s, i) => withDates(i + 1, s, i % 3 === 0 ? '2150-01-01 09:00:00' : undefined)),
    venues: [],
    organizers: [],
    terms: [],
    attachments: [],
  });
  e.apply([
    { t: 'event', a: 'put', rec: withDates(100, '1901-02-03 04:05:06', '1899-12-31 23:00:00') },
    { t: 'event', a: 'put', rec: withDates(2, '9999-12-31 23:59:59') },
  ]);
  const want = records(e);
  assert.is(want.find((r) => r.id === 100)?.startUtc, '1899-12-31 23:00:00');
  assert.is(want.find((r) => r.id === 2)?.modifiedUtc, '9999-12-31 23:59:59');
  const chunks = chunksOf(e);
  const ev = chunks.find((c) => c.type === 'events') as Record<string, unknown>;
  assert.ok((ev.farDates as unknown[]).length > 0, 'far dates written beside the Int32 seconds');
  assert.equal(Object.keys(ev.secs as object).sort(), [
    'date',
    'dateUtc',
    'endUtc',
    'modified',
    'modifiedUtc',
    'startUtc',
  ]);
  const copy = new Engine();
  copy.loadSnapshotChunks(chunks);
  assert.equal(records(copy), want);
  // the same chunk as written before the Int32 columns: every date as Float64 ms in `dates`
  const old = chunks.map((c) => {
    if (c.type !== 'events') return c;
    const dates = { ...(c.dates as Record<string, string>) };
    const secs = c.secs as Record<string, string>;
    const far = c.farDates as [number, number, number][];
    const fields = ['startLocal', 'endLocal', 'startUtc', 'endUtc', 'date', 'dateUtc', 'modified', 'modifiedUtc'];
    for (const [f, s] of Object.entries(secs)) {
      const b = Buffer.from(s, 'base64');
      const ms = Buffer.alloc(b.length * 2);
      for (let i = 0; i < b.length / 4; i++) {
        const v = b.readInt32LE(i * 4);
        const x = far.find(([fi, at]) => fields[fi] === f && at === i);
        ms.writeDoubleLE(v === FAR ? (x ? x[2] : Number.NaN) : exactNaive('2000-01-01 00:00:00') + v * 1000, i * 8);
      }
      dates[f] = ms.toString('base64');
    }
    const { secs: _s, farDates: _f, ...rest } = c;
    return { ...rest, dates };
  });
  const converted = new Engine();
  converted.loadSnapshotChunks(old);
  assert.equal(records(converted), want);
  // writes after a load, and a second round trip, still agree
  for (const x of [e, copy, converted])
    x.apply([{ t: 'event', a: 'put', rec: withDates(1, '2200-02-02 02:02:02', '2300-01-01 00:00:00') }]);
  const again = new Engine();
  again.loadSnapshotChunks(chunksOf(converted));
  assert.equal(records(copy), records(e));
  assert.equal(records(again), records(e));
  assert.is(records(again)[0].modified, '2200-02-02 02:02:02');
});

D('a chunk whose far date names a row with an in-range date is refused', () => {
  const e = new Engine();
  e.bulkLoad({ events: [withDates(1, '2024-01-01 00:00:00')], venues: [], organizers: [], terms: [], attachments: [] });
  const chunks = chunksOf(e);
  const ev = chunks.find((c) => c.type === 'events') as Record<string, unknown>;
  ev.farDates = [[4, 0, exactNaive('2200-01-01 00:00:00')]];
  assert.throws(() => new Engine().loadSnapshotChunks(chunks), /far date/);
  ev.farDates = [];
  ev.secs = { ...(ev.secs as object), date: Buffer.alloc(4).fill(0x80, 3).toString('base64') };
  assert.throws(() => new Engine().loadSnapshotChunks(chunks), /expected a date string for row 0/);
});

D.run();
