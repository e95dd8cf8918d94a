// The link lists' pool in a snapshot (src/engine/snapshot-links.ts): written once in link-lists
// lines (the lists the rows use, renumbered), each row's list as its number; loaded as it is and
// checked line by line; an older version 3 snapshot whose events lines carry their own lists
// (test/fixtures/snapshot-v3-links.jsonl, written by the engine at 3ed8db8 from the version 2
// fixture) still loads.
import fs from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Engine } from '../../src/engine/engine.ts';
import type { EventRecord } from '../../src/engine/records.ts';
import { EVENT_CHUNK_ROWS, encodeRows } from '../../src/engine/snapshot.ts';
import { IdListPool } from '../../src/engine/link-column.ts';
import { LINK_LISTS_CHUNK, type LinkListsChunk, type SnapshotHeader } from '../../src/engine/snapshot-format.ts';
import {
  checkLinkLists,
  linkCounts,
  linkListChunks,
  loadLinkLists,
  reserveLinks,
  wholePool,
} from '../../src/engine/snapshot-links.ts';
import { Generator, Rng, mulberry32 } from './random-calendar.ts';

const Links = suite('snapshot link lists');

interface Line {
  type: string;
  from?: number;
  values?: string;
  ends?: string;
  linkLists?: number;
  linkValues?: number;
  linkRows?: Record<string, string>;
  links?: unknown;
}
const roundTrip = (e: Engine): Line[] => JSON.parse(JSON.stringify([...e.snapshotChunks()])) as Line[];
const int32s = (s: string) => {
  const b = Buffer.from(s, 'base64');
  return Array.from({ length: b.length / 4 }, (_, i) => b.readInt32LE(i * 4));
};
const b64 = (values: number[]) => Buffer.from(Int32Array.from(values).buffer).toString('base64');
const fixture = (name: string) => new URL(`../fixtures/${name}`, import.meta.url);

/** Every event's link lists, by id. */
function linkLists(e: Engine): Map<number, [number[], number[], number[]]> {
  const out = new Map<number, [number[], number[], number[]]>();
  for (let row = 0; row < e.eventRowCount; row++) {
    const r = e.eventRecord(row);
    out.set(r.id, [r.organizerIds, r.categoryIds, r.tagIds]);
  }
  return out;
}

function records(e: Engine): EventRecord[] {
  const out: EventRecord[] = [];
  for (let row = 0; row < e.eventRowCount; row++) out.push(e.eventRecord(row));
  return out.sort((a, b) => a.id - b.id);
}

/** A calendar whose writes left lists no row uses any more. */
function calendar(events = 1200): Engine {
  const gen = new Generator(new Rng(mulberry32(31)));
  const set = gen.initial(events);
  const e = new Engine();
  e.bulkLoad(set);
  for (let i = 0; i < 30; i++) {
    const rec = set.events[(i * 13) % events];
    e.apply([{ t: 'event', a: 'put', rec: { ...rec, tagIds: [gen.tagIds[i % 5], 999_000 + i], categoryIds: [] } }]);
    e.apply([{ t: 'event', a: 'put', rec: { ...rec, tagIds: [gen.tagIds[i % 5]] } }]);
  }
  return e;
}

Links('the lists the rows use are written once, numbered from 1; rows give their numbers', () => {
  const e = calendar();
  const pool = e.state.table.idLists;
  const chunks = roundTrip(e);
  const types = chunks.map((c) => c.type);
  const first = types.indexOf('link-lists');
  assert.ok(first > types.lastIndexOf('titles') && first < types.indexOf('events'), 'after the titles, before rows');
  const header = chunks[0];
  const lines = chunks.filter((c) => c.type === 'link-lists');
  const ends = lines.flatMap((c) => int32s(c.ends!));
  const values = lines.flatMap((c) => int32s(c.values!));
  assert.is(ends.length, header.linkLists);
  assert.is(values.length, header.linkValues);
  // the lists the writes replaced (each with an id 999,000 + i) are left out
  assert.ok(header.linkLists! < pool.count - 1 - 25, `${header.linkLists} of ${pool.count - 1}`);
  assert.not.ok(values.some((v) => v >= 999_000));
  // each list once
  const lists: string[] = [];
  for (const line of lines) {
    const le = int32s(line.ends!),
      lv = int32s(line.values!);
    for (let j = 0; j < le.length; j++) lists.push(JSON.stringify(lv.slice(j === 0 ? 0 : le[j - 1], le[j])));
  }
  assert.is(new Set(lists).size, lists.length, 'no list twice');
  // the rows' numbers name lists in the lines, and a load gives every row its lists back
  for (const c of chunks.filter((x) => x.type === 'events')) {
    assert.is(c.links, undefined);
    for (const f of ['organizerIds', 'categoryIds', 'tagIds'])
      for (const k of int32s(c.linkRows![f])) assert.ok(k >= 0 && k <= lists.length, `${f} ${k}`);
  }
  const copy = new Engine();
  copy.loadSnapshotChunks(chunks);
  assert.equal(linkLists(copy), linkLists(e));
  assert.is(copy.state.table.idLists.count, 1 + header.linkLists!);
  // the same answers to queries by link
  for (const q of [
    { tagIds: [e.eventRecord(5).tagIds[0] ?? 1] },
    { categoryIds: [e.eventRecord(7).categoryIds[0] ?? 1] },
  ])
    assert.equal(
      copy.query({ statusMask: 0xff, offset: 0, limit: 2000, ...q }).total,
      e.query({ statusMask: 0xff, offset: 0, limit: 2000, ...q }).total,
    );
  // and written again, the same lines
  assert.equal(roundTrip(copy), chunks);
});

Links('after a load, a write finds the lists the load brought and numbers new ones after them', () => {
  const e = calendar(300);
  const copy = new Engine();
  copy.loadSnapshotChunks(roundTrip(e));
  const pool = copy.state.table.idLists;
  const n = pool.count;
  const rec = copy.eventRecord(0),
    other = copy.eventRecord(1);
  // another row's lists: no new list
  copy.apply([{ t: 'event', a: 'put', rec: { ...rec, tagIds: other.tagIds, organizerIds: other.organizerIds } }]);
  assert.is(pool.count, n);
  copy.apply([{ t: 'event', a: 'put', rec: { ...rec, tagIds: [...other.tagIds, 424_242] } }]);
  assert.is(pool.count, n + 1);
  assert.equal(copy.eventRecord(copy.eventRow(rec.id)).tagIds, [...other.tagIds, 424_242]);
  const again = new Engine();
  again.loadSnapshotChunks(roundTrip(copy));
  assert.equal(linkLists(again), linkLists(copy));
});

Links("an import's chunks (rows as they are, the whole pool in the head) load the same", () => {
  const e = calendar(2500);
  const t = e.state.table;
  const parts: unknown[] = [...e.snapshotHead()];
  for (let from = 0; from < t.count; from += EVENT_CHUNK_ROWS)
    parts.push(encodeRows(t, from, Math.min(t.count, from + EVENT_CHUNK_ROWS)));
  const chunks = JSON.parse(JSON.stringify(parts)) as Line[];
  assert.is(chunks[0].linkLists, t.idLists.count - 1, 'every list of the pool, unused ones too');
  const ev = chunks.find((c) => c.type === 'events')!;
  assert.equal(int32s(ev.linkRows!.tagIds), Array.from(t.tagIds.lists.subarray(0, t.count)), 'numbers as they are');
  const copy = new Engine();
  copy.loadSnapshotChunks(chunks);
  assert.equal(records(copy), records(e));
});

Links('a pool longer than a line is cut into lines that come in order, and loads as it was', () => {
  // a pool of LINK_LISTS_CHUNK + 10 lists of 1 to 3 ids
  const n = LINK_LISTS_CHUNK + 10;
  const ends = new Int32Array(n);
  const values: number[] = [];
  for (let j = 0; j < n; j++) {
    for (let i = 0; i <= j % 3; i++) values.push(70_000 + j + i);
    ends[j] = values.length;
  }
  const pool = new IdListPool();
  pool.appendPacked(Int32Array.from(values), ends);
  const header = { eventCount: n } as SnapshotHeader;
  const numbering = wholePool(pool);
  linkCounts(header, numbering);
  assert.is(header.linkLists, n);
  assert.is(header.linkValues, values.length);
  const lines = JSON.parse(JSON.stringify([...linkListChunks(numbering)])) as LinkListsChunk[];
  assert.equal(
    lines.map((c) => c.from),
    [1, 1 + LINK_LISTS_CHUNK],
  );
  const copy = new IdListPool();
  reserveLinks(copy, header);
  for (const line of lines) loadLinkLists(copy, line, header);
  checkLinkLists(copy, header);
  for (const k of [1, 2, 3, LINK_LISTS_CHUNK, LINK_LISTS_CHUNK + 1, n]) assert.equal(copy.list(k), pool.list(k));
  assert.equal(copy.values.subarray(0, values.length), pool.values.subarray(0, values.length));
  assert.is(copy.offsets.length, n + 2, 'room made at once from the header'); // the empty list's end too
  // the lines out of order, or one left out
  assert.throws(
    () => loadLinkLists(new IdListPool(), lines[1], header),
    /snapshot load: expected link lists from 1, got a link-lists line from 262145/,
  );
  const short = new IdListPool();
  loadLinkLists(short, lines[0], header);
  assert.throws(() => checkLinkLists(short, header), /expected 262154 link lists before the events, got 262144/);
});

Links('damaged link-lists lines and list numbers are refused with what is wrong', () => {
  const e = calendar(200);
  const refused = (damage: (c: Line[]) => void, message: RegExp) => {
    const c = roundTrip(e);
    damage(c);
    assert.throws(() => new Engine().loadSnapshotChunks(c), message);
  };
  const pool = (c: Line[]) => c.find((x) => x.type === 'link-lists')!;
  const events = (c: Line[]) => c.find((x) => x.type === 'events')!;
  refused((c) => {
    pool(c).from = 2;
  }, /snapshot load: expected link lists from 1, got a link-lists line from 2/);
  refused((c) => {
    const ends = int32s(pool(c).ends!);
    ends[1] = ends[0]; // an empty list
    pool(c).ends = b64(ends);
  }, /snapshot load: expected non-empty link lists within \d+ values, got list 2 ending at \d+/);
  refused((c) => {
    const ends = int32s(pool(c).ends!);
    ends[0] = ends[ends.length - 1] + 5; // past the values
    pool(c).ends = b64(ends);
  }, /snapshot load: expected non-empty link lists within \d+ values, got list 1 ending at \d+/);
  refused((c) => {
    pool(c).values = b64(int32s(pool(c).values!).slice(1));
  }, /snapshot load: expected \d+ values \(\d+ bytes\) of link-lists.values, got \d+ bytes/);
  refused((c) => {
    pool(c).ends = 'AAA';
  }, /snapshot load: expected 1\.\.\d+ link lists at 1 \(the header's \d+\), got 2 bytes of ends/);
  refused((c) => {
    c[0].linkLists! += 1; // a line short
  }, /snapshot load: expected \d+ link lists before the events, got \d+/);
  refused((c) => {
    c[0].linkLists! -= 1; // a line too many
  }, /snapshot load: expected 1\.\.\d+ link lists at 1 \(the header's \d+\)/);
  refused((c) => {
    const rows = int32s(events(c).linkRows!.categoryIds);
    rows[7] = c[0].linkLists! + 1;
    events(c).linkRows!.categoryIds = b64(rows);
  }, /snapshot load: expected a categoryIds list number < \d+, got \d+ at row 7/);
  refused((c) => {
    const rows = int32s(events(c).linkRows!.organizerIds);
    rows[0] = -1;
    events(c).linkRows!.organizerIds = b64(rows);
  }, /snapshot load: expected a organizerIds list number < \d+, got -1 at row 0/);
  refused((c) => {
    delete events(c).linkRows!.tagIds;
  }, /snapshot load: expected base64 text for linkRows.tagIds, got undefined/);
  refused((c) => {
    events(c).linkRows = 'x' as never;
  }, /snapshot load: expected the link list numbers of the rows/);
  // a line after the first events line
  refused((c) => {
    const at = c.indexOf(pool(c));
    c.splice(at, 1);
    c.splice(c.indexOf(events(c)) + 1, 0, pool(roundTrip(e)));
  }, /expected \d+ link lists before the events, got 0/);
});

Links('an older version 3 snapshot, with lists of its own in each events line, still loads', () => {
  const lines = fs
    .readFileSync(fixture('snapshot-v3-links.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);
  assert.is((lines[0] as unknown as { version: number }).version, 3);
  assert.ok(!lines.some((c) => c.type === 'link-lists'));
  assert.ok(lines.some((c) => c.type === 'events' && c.links !== undefined && c.linkRows === undefined));
  const expected = JSON.parse(fs.readFileSync(fixture('snapshot-v2.expected.json'), 'utf8')) as {
    events: EventRecord[];
  };
  const e = new Engine();
  e.loadSnapshotChunks(lines);
  assert.is(e.eventRowCount, expected.events.length);
  for (const rec of expected.events) assert.equal(e.eventRecord(e.eventRow(rec.id)), rec, `event ${rec.id}`);
  assert.ok(expected.events.some((r) => r.tagIds.length > 1 && r.organizerIds.length > 0));
  // saved again: the pool once, and the same records
  const again = roundTrip(e);
  assert.ok(again.some((c) => c.type === 'link-lists'));
  const copy = new Engine();
  copy.loadSnapshotChunks(again);
  assert.equal(records(copy), records(e));
});

Links.run();
