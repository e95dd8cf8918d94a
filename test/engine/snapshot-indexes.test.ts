// The posting lists a version 3 snapshot carries (src/engine/snapshot-indexes.ts): a load reads
// them instead of making them anew, to the same lists, combination bytes and term counts; a
// snapshot without them (or without the closure) is rebuilt; damaged lines are refused.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Engine } from '../../src/engine/engine.ts';
import type { ImportSet } from '../../src/engine/engine-api.ts';
import { EDITOR_MASK } from './build.ts';
import type { EventQuery } from '../../src/engine/types.ts';
import type { PostingList } from '../../src/engine/posting-list.ts';
import { POSTING_KINDS } from '../../src/engine/snapshot-indexes.ts';
import { EVENT_CHUNK_ROWS, encodeRows } from '../../src/engine/snapshot.ts';
import { checkIndexes } from './index-invariants.ts';
import { Generator, Rng, mulberry32 } from './random-calendar.ts';

const Idx = suite('snapshot posting lists');
type Chunk = {
  type: string;
  kind?: string;
  from?: number;
  rows?: string;
  ids?: string;
  counts?: string;
  values?: number;
};
/** Every chunk of an async body, in order. */
async function allOf(body: AsyncIterable<unknown>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const c of body) out.push(c);
  return out;
}
const roundTrip = (e: Engine): Chunk[] => JSON.parse(JSON.stringify([...e.snapshotChunks()])) as Chunk[];
const int32s = (s: string) => {
  const b = Buffer.from(s, 'base64');
  return Array.from({ length: b.length / 4 }, (_, i) => b.readInt32LE(i * 4));
};
const base64 = (values: number[]) => Buffer.from(Int32Array.from(values).buffer).toString('base64');

/** A calendar with several venues a row, parents, and writes after its load (rows out of order). */
function calendar(): Engine {
  const gen = new Generator(new Rng(mulberry32(23)));
  const set = gen.initial(1500);
  const e = new Engine();
  e.bulkLoad(set);
  for (let i = 0; i < 40; i++) {
    const rec = set.events[i * 11];
    e.apply([
      {
        t: 'event',
        a: 'put',
        rec: { ...rec, startLocal: '2031-01-01 00:00:00', endLocal: '2031-01-01 01:00:00', status: 'draft' },
      },
    ]);
  }
  e.apply([{ t: 'event', a: 'delete', id: set.events[3].id, modified: '2024-05-01 00:00:00', modifiedUtc: '' }]);
  // an id twice in a row's list: the row is once in its list
  const twice = set.events.find((ev) => ev.categoryIds.length > 0 && ev.venueIds.length > 0)!;
  const [c] = twice.categoryIds,
    [v] = twice.venueIds;
  e.apply([{ t: 'event', a: 'put', rec: { ...twice, categoryIds: [c, c], venueIds: [v, v], tagIds: [] } }]);
  return e;
}

/** Every list of every kind by event id: ids of its rows, their combination bytes, its multi's ids. */
function lists(e: Engine): Record<string, string> {
  const st = e.state,
    ids = st.table.ids;
  const out: Record<string, string> = {};
  const show = (l: PostingList) =>
    Array.from(l.rows.subarray(0, l.count), (r, i) => `${ids[r]}/${l.combos[i]}`).join(' ');
  for (const [kind, name] of Object.entries(POSTING_KINDS)) {
    for (const [id, list] of st[name].entries()) {
      if (list.count === 0) continue;
      out[`${kind} ${id}`] = show(list);
      if (list.multi && list.multi.count > 0) out[`${kind} ${id} multi`] = show(list.multi);
    }
  }
  return out;
}

function counts(e: Engine): [number, number][] {
  return [...e.state.termCounts.entries()];
}

Idx('the lists are written after the rows and read back as they were', () => {
  const e = calendar();
  const chunks = roundTrip(e);
  const types = chunks.map((c) => c.type);
  const firstPostings = types.indexOf('postings');
  assert.ok(firstPostings > types.lastIndexOf('events'), 'after the events lines');
  assert.equal(
    chunks.filter((c) => c.type === 'postings').map((c) => c.kind),
    Object.keys(POSTING_KINDS),
  );
  assert.ok(
    chunks.some((c) => c.type === 'postings' && c.kind === 'venue' && int32s(c.ids!).length > 1),
    'venue lists',
  );
  const copy = new Engine();
  copy.loadSnapshotChunks(chunks);
  checkIndexes(copy, 'read lists');
  // the same as a load that makes them anew (a snapshot without them)
  const rebuilt = new Engine();
  rebuilt.loadSnapshotChunks(chunks.filter((c) => c.type !== 'postings' && c.type !== 'postingRows'));
  assert.equal(lists(copy), lists(rebuilt));
  assert.equal(lists(copy), lists(e));
  assert.equal(counts(copy), counts(rebuilt));
  assert.ok(counts(copy).length > 5);
  assert.is(copy.state.closureDirty, false);
  assert.ok(
    Object.keys(lists(copy)).some((k) => k.endsWith('multi')),
    'multi sublists',
  );
  // writes after the load: the same answers as on the original
  const put = { ...e.eventRecord(10), categoryIds: [], venueIds: [] };
  for (const x of [e, copy, rebuilt]) x.apply([{ t: 'event', a: 'put', rec: put }]);
  assert.equal(lists(copy), lists(e));
  assert.equal(lists(rebuilt), lists(e));
  checkIndexes(copy, 'after a write');
});

Idx('rows lines split anywhere, and a snapshot without the closure, load the same', () => {
  const e = calendar();
  const chunks = roundTrip(e);
  // every rows line cut into lines of 7 rows
  const split: Chunk[] = [];
  for (const c of chunks) {
    if (c.type !== 'postingRows') {
      split.push(c);
      continue;
    }
    const rows = int32s(c.rows!);
    for (let i = 0; i < rows.length; i += 7)
      split.push({ ...c, from: c.from! + i, rows: base64(rows.slice(i, i + 7)) });
  }
  assert.ok(split.length > chunks.length + 20);
  const copy = new Engine();
  copy.loadSnapshotChunks(split);
  assert.equal(lists(copy), lists(e));
  const noClosure = new Engine();
  noClosure.loadSnapshotChunks(chunks.filter((c) => c.kind !== 'closure'));
  assert.is(noClosure.state.closureDirty, true);
  noClosure.state.ensureClosure();
  assert.equal(lists(noClosure), lists(e));
  // a lost rows line: the lists are made anew
  const cut = chunks.filter((c) => !(c.type === 'postingRows' && c.kind === 'tag'));
  const rebuilt = new Engine();
  rebuilt.loadSnapshotChunks(cut);
  assert.equal(lists(rebuilt), lists(e));
});

Idx('a snapshot of rows in table order with the lists in its head (as imports once wrote them) loads the same', () => {
  const gen = new Generator(new Rng(mulberry32(5)));
  const e = new Engine();
  e.bulkLoad(gen.initial(1200), undefined, { deferIndexes: true });
  const parts: unknown[] = [...e.snapshotHead()];
  const t = e.state.table;
  for (let from = 0; from < t.count; from += EVENT_CHUNK_ROWS)
    parts.push(encodeRows(t, from, Math.min(t.count, from + EVENT_CHUNK_ROWS)));
  const chunks = JSON.parse(JSON.stringify(parts)) as Chunk[];
  assert.is(chunks.filter((c) => c.type === 'postings').length, 6, 'the head holds the lists');
  const copy = new Engine();
  copy.loadSnapshotChunks(chunks);
  assert.ok(
    copy.state.main.rows.subarray(0, t.count).some((r, i) => r !== i),
    'rows not in the index order',
  );
  checkIndexes(copy, 'streamed');
  assert.equal(lists(copy), lists(e));
  assert.equal(counts(copy), counts(e));
});

/** What a bulk load of `src`'s calendar is given: its events as records, its linked posts and terms. */
const importSetOf = (src: Engine): ImportSet => ({
  events: Array.from({ length: src.state.table.count }, (_, row) => src.eventRecord(row)),
  venues: [...src.venues()],
  organizers: [...src.organizers()],
  terms: [...src.terms('tribe_events_cat'), ...src.terms('post_tag')],
  attachments: [...src.attachments()],
});

Idx("a deferred bulk load's streamed snapshot: the usual one, its lists made from the columns", async () => {
  // the records of a calendar with several venues a row, an id twice in a list, parents, drafts
  const src = calendar();
  const set = importSetOf(src);
  assert.ok(set.events.some((ev) => ev.venueIds.length > 1) && set.events.some((ev) => ev.parentId !== 0));
  const e = new Engine();
  e.bulkLoad(set, undefined, { deferIndexes: true });
  const { head, body } = e.streamedSnapshot();
  const streamed = JSON.parse(JSON.stringify([...head, ...(await allOf(body))])) as Chunk[];
  // the same state through the usual path: indexes and statistics built, then encodeSnapshot
  const usual = new Engine();
  usual.bulkLoad(set, undefined, { searchIndex: false });
  usual.state.mainBlocks();
  const expected = roundTrip(usual);
  const isList = (c: Chunk) => c.type === 'postings' || c.type === 'postingRows';
  assert.equal(
    streamed.filter((c) => !isList(c)),
    expected.filter((c) => !isList(c)),
    'the rows in the same order, the same block statistics',
  );
  assert.is(streamed.filter((c) => c.type === 'postings').length, 6, 'every kind of list');
  assert.is(streamed.filter((c) => c.type === 'block-stats').length, 1, 'the block statistics');
  const copy = new Engine();
  copy.loadSnapshotChunks(streamed);
  const n = copy.state.table.count;
  assert.ok(
    copy.state.main.rows.subarray(0, n).every((r, i) => r === i),
    'rows in the index order',
  );
  assert.is(copy.state.blocks.dirty, false);
  assert.is(copy.state.closureDirty, false, 'the closure lists read');
  checkIndexes(copy, 'streamed');
  assert.equal(lists(copy), lists(usual));
  assert.equal(counts(copy), counts(usual));
  // the engine that streamed it builds its lists when first read, as after any deferred load
  assert.equal(lists(e), {});
  e.termCount(1);
  assert.equal(lists(e), lists(usual));
});

Idx('a deferred bulk load forgets the word index made before it: not kept, not answered from', async () => {
  const src = calendar();
  const t0 = src.state.table;
  const set = importSetOf(src);
  const word = t0.texts.title(0).split(' ')[0].toLowerCase();
  const q: EventQuery = { statusMask: EDITOR_MASK, search: { include: [word], exclude: [] }, offset: 0, limit: 5 };
  const want = src.query(q).total;
  assert.ok(want > 0, `"${word}" is in the calendar`);
  // an empty calendar's word index, built (as a store opened empty builds it), then an import alone
  const e = new Engine();
  assert.is(e.query(q).total, 0);
  e.bulkLoad(set, undefined, { deferIndexes: true });
  const { head, body } = e.streamedSnapshot();
  const streamed = JSON.parse(JSON.stringify([...head, ...(await allOf(body))])) as Chunk[];
  assert.is(streamed.filter((c) => c.type === 'search-index').length, 0, 'no word index kept');
  const copy = new Engine();
  copy.loadSnapshotChunks(streamed);
  assert.is(copy.query(q).total, want, 'the copy finds the rows');
  assert.is(e.query(q).total, want, 'the engine that loaded them finds them');
});

Idx('damaged posting lines are refused with what is wrong', () => {
  const e = calendar();
  const chunks = roundTrip(e);
  const damage = (kind: string, edit: (c: Chunk) => Chunk): Chunk[] =>
    chunks.map((c) => (c.kind === kind && (c.type === 'postingRows' || c.type === 'postings') ? edit({ ...c }) : c));
  const refused = (what: string, bad: Chunk[], message: RegExp) => {
    try {
      new Engine().loadSnapshotChunks(bad);
    } catch (err) {
      assert.match((err as Error).message, message, what);
      return;
    }
    assert.unreachable(`${what}: loaded`);
  };
  const rowsEdit = (f: (rows: number[]) => void) => (c: Chunk) => {
    if (c.type !== 'postingRows') return c;
    const rows = int32s(c.rows!);
    f(rows);
    return { ...c, rows: base64(rows) };
  };
  refused(
    'a row past the table',
    damage(
      'category',
      rowsEdit((r) => {
        r[0] = 1_000_000;
      }),
    ),
    /the category list of \d+ rows below \d+, got 1000000/,
  );
  refused(
    'two rows swapped',
    damage(
      'venue',
      rowsEdit((r) => {
        [r[0], r[1]] = [r[1], r[0]];
      }),
    ),
    /in the main index's order/,
  );
  refused(
    'a list of a row too few',
    damage('tag', (c) => {
      if (c.type === 'postings') {
        const n = int32s(c.counts!);
        n[0]--;
        return { ...c, counts: base64(n), values: c.values! - 1 };
      }
      const rows = int32s(c.rows!);
      return { ...c, rows: base64(rows.slice(1)) };
    }),
    /tag lists of \d+ rows in all \(from the columns\), got/,
  );
  refused(
    'an unknown kind',
    damage('parent', (c) => ({ ...c, kind: 'nope' })),
    /postings kind/,
  );
  refused(
    'rows out of place',
    damage('organizer', (c) => (c.type === 'postingRows' ? { ...c, from: 3 } : c)),
    /organizer postings rows from 0, got a line from 3/,
  );
  refused(
    'a count that does not add up',
    damage('parent', (c) => (c.type === 'postings' ? { ...c, values: 1 } : c)),
    /parent postings of 1 rows in all/,
  );
});

Idx.run();
