import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BLOCK_SIZE, BlockStats, COMBOS, comboOf } from '../../src/engine/block-stats.ts';
import { Engine } from '../../src/engine/engine.ts';
import { PostingList } from '../../src/engine/posting-list.ts';
import { captureListStats } from '../../src/engine/snapshot-list-stats.ts';
import { naiveToString } from '../../src/engine/naive-time.ts';
import type { EventRecord } from '../../src/engine/records.ts';
import type { EventQuery } from '../../src/engine/types.ts';
import { makeEvent, makeTerm, makeVenue } from './build.ts';
import { Rng, mulberry32 } from './random-calendar.ts';

const DAY = 86_400_000;
const BASE = Date.UTC(2024, 0, 1);

// ---
const Blocks = suite('block stats');

/** Few distinct ends, so that bounds often sit exactly on a block's min or max end. */
function calendar(n: number): {
  engine: Engine;
  starts: number[];
  ends: number[];
  rows: { s: number; e: number; status: number; featured: boolean; ticketed: boolean; hidden: boolean }[];
} {
  const rng = new Rng(mulberry32(42));
  const engine = new Engine();
  const rows = [];
  const events = [];
  for (let i = 0; i < n; i++) {
    const s = BASE + Math.floor(i / 300) * DAY;
    const e = s + rng.pick([0, 1, 2]) * DAY;
    const status = rng.pick(['publish', 'draft', 'trash'] as const);
    const featured = rng.bool(0.3),
      ticketed = rng.bool(0.5),
      hidden = rng.bool(0.05);
    events.push(
      makeEvent(i + 1, {
        startLocal: naiveToString(s),
        endLocal: naiveToString(e),
        status,
        featured,
        ticketed,
        hideFromListings: hidden,
      }),
    );
    rows.push({
      s,
      e,
      status:
        ['publish', 'draft', 'trash'].indexOf(status) === 2 ? 5 : ['publish', 'draft'].indexOf(status) === 1 ? 2 : 0,
      featured,
      ticketed,
      hidden,
    });
  }
  engine.bulkLoad({ events, venues: [], organizers: [], terms: [], attachments: [] });
  const starts = [...new Set(rows.map((r) => r.s))];
  const ends = [...new Set(rows.map((r) => r.e))];
  return { engine, starts, ends, rows };
}

Blocks('block stats :: totals on exact end bounds equal a row-by-row count', () => {
  const { engine, starts, ends, rows } = calendar(BLOCK_SIZE * 12 + 17);
  const masks = [1, 0b100101, 0xff];
  let checked = 0;
  for (const mask of masks) {
    for (const bound of ends) {
      for (const key of ['endGt', 'endGte', 'endLt', 'endLte'] as const) {
        for (const featured of [undefined, true, false]) {
          const q: EventQuery = { statusMask: mask, offset: 0, limit: 5, [key]: bound, featured, startGte: starts[1] };
          const want = rows.filter((r) => {
            if (r.hidden || !((mask >> r.status) & 1) || r.s < starts[1]) return false;
            if (featured !== undefined && r.featured !== featured) return false;
            if (key === 'endGt') return r.e > bound;
            if (key === 'endGte') return r.e >= bound;
            if (key === 'endLt') return r.e < bound;
            return r.e <= bound;
          }).length;
          assert.is(engine.query(q).total, want, `${key} ${bound} mask ${mask} featured ${featured}`);
          checked++;
        }
      }
    }
  }
  assert.ok(checked > 100);
});

Blocks('block stats :: superblocks: long ranges equal a row-by-row count', () => {
  const { engine, starts, ends, rows } = calendar(BLOCK_SIZE * 70 + 5); // three superblocks
  const rng = new Rng(mulberry32(9));
  for (let n = 0; n < 300; n++) {
    const mask = rng.pick([1, 0b100101, 0xff]);
    const q: EventQuery = { statusMask: mask, offset: rng.int(0, 3) * 300, limit: 3 };
    if (rng.bool(0.7)) q.startGte = rng.pick(starts);
    if (rng.bool(0.5)) q.startLt = rng.pick(starts);
    if (rng.bool(0.5)) q.endLte = rng.pick(ends);
    if (rng.bool(0.3)) q.endGt = rng.pick(ends);
    if (rng.bool(0.3)) q.featured = rng.bool();
    const want = rows.filter(
      (r) =>
        !r.hidden &&
        ((mask >> r.status) & 1) === 1 &&
        (q.startGte === undefined || r.s >= q.startGte) &&
        (q.startLt === undefined || r.s < q.startLt) &&
        (q.endLte === undefined || r.e <= q.endLte) &&
        (q.endGt === undefined || r.e > q.endGt) &&
        (q.featured === undefined || r.featured === q.featured),
    ).length;
    assert.is(engine.query(q).total, want, JSON.stringify(q));
  }
});

Blocks('block stats :: counters follow writes (trash, moves, flag changes)', () => {
  const { engine } = calendar(BLOCK_SIZE * 4);
  const q: EventQuery = { statusMask: 1, offset: 0, limit: 1 };
  const count = () => {
    let n = 0;
    for (let r = 0; r < engine.eventRowCount; r++) {
      const rec = engine.eventRecord(r);
      if (rec.status === 'publish' && !rec.hideFromListings) n++;
    }
    return n;
  };
  assert.is(engine.query(q).total, count());
  // events well past the first page, so that their blocks are counted, not walked
  const published = engine.query({ ...q, offset: 300, limit: 3 }).rows.map((r) => engine.eventId(r));
  engine.apply([
    { t: 'event', a: 'delete', id: published[0], modified: '2024-05-01 00:00:00', modifiedUtc: '2024-05-01 04:00:00' },
  ]);
  assert.is(engine.query(q).total, count());
  const rec = engine.eventRecord(engine.eventRow(published[1]));
  engine.apply([{ t: 'event', a: 'put', rec: { ...rec, hideFromListings: true } }]);
  assert.is(engine.query(q).total, count());
  engine.apply([
    {
      t: 'event',
      a: 'put',
      rec: makeEvent(99999, { startLocal: '2030-01-01 00:00:00', endLocal: '2030-01-01 00:00:00' }),
    },
  ]);
  assert.is(engine.query(q).total, count());
});

Blocks.run();

// ---
const Unions = suite('posting list counters');

/** Events on a few tags and organizers, many carrying two or three of them (overlaps). */
function linked(n: number): { engine: Engine; recs: Map<number, EventRecord> } {
  const rng = new Rng(mulberry32(7));
  const engine = new Engine();
  const events: EventRecord[] = [];
  for (let i = 0; i < n; i++) {
    const s = BASE + Math.floor(i / 50) * DAY;
    const e = s + rng.pick([0, 1, 3]) * DAY;
    const tagIds = rng.some([1, 2, 3, 4], rng.int(0, 3));
    if (rng.bool(0.05) && tagIds.length > 0) tagIds.push(tagIds[0]); // a repeated id counts once
    events.push(
      makeEvent(i + 1, {
        startLocal: naiveToString(s),
        endLocal: naiveToString(e),
        status: rng.pick(['publish', 'draft', 'trash'] as const),
        featured: rng.bool(0.3),
        hideFromListings: rng.bool(0.05),
        tagIds,
        categoryIds: rng.some([5, 6, 7], rng.int(0, 2)),
      }),
    );
  }
  const terms = [1, 2, 3, 4].map((id) => makeTerm(id, { taxonomy: 'post_tag' }));
  terms.push(makeTerm(5), makeTerm(6, { parent: 5 }), makeTerm(7, { parent: 6 }));
  engine.bulkLoad({ events, venues: [], organizers: [], terms, attachments: [] });
  return { engine, recs: new Map(events.map((e) => [e.id, e])) };
}

function countOf(
  engine: Engine,
  recs: Map<number, EventRecord>,
  q: EventQuery,
  pick: (r: EventRecord) => boolean,
): void {
  const statuses = ['publish', 'future', 'draft', 'pending', 'private', 'trash'];
  let want = 0;
  for (const r of recs.values()) {
    if (r.hideFromListings || !((q.statusMask >> statuses.indexOf(r.status)) & 1)) continue;
    const s = Date.parse(r.startLocal.replace(' ', 'T') + 'Z'),
      e = Date.parse(r.endLocal.replace(' ', 'T') + 'Z');
    if (q.startGte !== undefined && s < q.startGte) continue;
    if (q.endGt !== undefined && e <= q.endGt) continue;
    if (q.featured !== undefined && r.featured !== q.featured) continue;
    if (pick(r)) want++;
  }
  assert.is(engine.query(q).total, want, `~> ${JSON.stringify(q)}`);
}

Unions('posting list counters :: union of overlapping tag lists counts each event once', () => {
  const { engine, recs } = linked(BLOCK_SIZE * 10 + 33);
  for (const tagIds of [[1], [1, 2], [2, 1, 3], [1, 2, 3, 4], [4, 4, 9]]) {
    for (const mask of [1, 0xff]) {
      for (const extra of [{}, { startGte: BASE + 7 * DAY }, { endGt: BASE + 20 * DAY, featured: true }]) {
        const q: EventQuery = { statusMask: mask, offset: 3, limit: 4, tagIds, ...extra };
        countOf(engine, recs, q, (r) => r.tagIds.some((t) => tagIds.includes(t)));
      }
    }
  }
});

Unions('posting list counters :: categories with descendants overlap with their children', () => {
  const { engine, recs } = linked(BLOCK_SIZE * 6);
  countOf(engine, recs, { statusMask: 1, offset: 0, limit: 3, categoryIds: [5] }, (r) => r.categoryIds.length > 0);
  countOf(engine, recs, { statusMask: 1, offset: 0, limit: 3, categoryIds: [6] }, (r) =>
    r.categoryIds.some((c) => c !== 5),
  );
});

Unions('posting list counters :: counts follow inserts, removals, trash and link changes', () => {
  const { engine, recs } = linked(BLOCK_SIZE * 6);
  const rng = new Rng(mulberry32(11));
  const q: EventQuery = { statusMask: 1, offset: 0, limit: 2, tagIds: [1, 2] };
  const pick = (r: EventRecord) => r.tagIds.some((t) => t === 1 || t === 2);
  for (let round = 0; round < 40; round++) {
    const id = rng.int(1, recs.size + 5);
    const old = recs.get(id);
    const k = rng.int(0, 3);
    if (old && k === 0) {
      engine.apply([
        { t: 'event', a: 'delete', id, modified: '2024-05-01 00:00:00', modifiedUtc: '2024-05-01 04:00:00' },
      ]);
      recs.set(id, {
        ...old,
        status: 'trash',
        slug: old.slug + '__trashed',
        modified: '2024-05-01 00:00:00',
        modifiedUtc: '2024-05-01 04:00:00',
      });
    } else {
      const day = rng.int(0, 40);
      const rec = makeEvent(id, {
        startLocal: naiveToString(BASE + day * DAY),
        endLocal: naiveToString(BASE + (day + 1) * DAY),
        tagIds: rng.some([1, 2, 3], rng.int(0, 3)),
      });
      engine.apply([{ t: 'event', a: 'put', rec }]);
      recs.set(id, rec);
    }
    countOf(engine, recs, q, pick);
  }
  // deleting a tag leaves events in the other list's `multi` with one link: still counted once
  engine.apply([{ t: 'term', a: 'delete', id: 2 }]);
  for (const r of recs.values()) r.tagIds = r.tagIds.filter((t) => t !== 2);
  countOf(engine, recs, { ...q, tagIds: [1, 3] }, (r) => r.tagIds.some((t) => t === 1 || t === 3));
});

Unions('posting list counters :: category closure lists follow event writes and a changed tree', () => {
  const { engine, recs } = linked(BLOCK_SIZE * 6);
  const parents = new Map([
    [5, 0],
    [6, 5],
    [7, 6],
  ]);
  const under = (c: number, root: number) => {
    for (let id = c, hops = 0; id !== 0 && hops < 5; id = parents.get(id) ?? 0, hops++) if (id === root) return true;
    return false;
  };
  const check = (label: string) => {
    for (const root of [5, 6, 7])
      countOf(engine, recs, { statusMask: 1, offset: 1, limit: 3, categoryIds: [root] }, (r) =>
        r.categoryIds.some((c) => under(c, root)),
      );
    assert.ok(label);
  };
  check('initial');
  for (let i = 1; i <= 30; i++) {
    const old = recs.get(i * 7)!;
    const rec = {
      ...old,
      categoryIds: [[], [7], [5, 7], [6]][i % 4],
      startLocal: naiveToString(BASE + i * DAY),
      endLocal: naiveToString(BASE + i * DAY),
    };
    engine.apply([{ t: 'event', a: 'put', rec }]);
    recs.set(rec.id, rec);
    if (i % 5 === 0) {
      engine.apply([
        { t: 'event', a: 'delete', id: i, modified: '2024-05-01 00:00:00', modifiedUtc: '2024-05-01 04:00:00' },
      ]);
      recs.set(i, { ...recs.get(i)!, status: 'trash' });
    }
  }
  check('after event writes');
  engine.apply([{ t: 'term', a: 'put', rec: makeTerm(7, { parent: 5 }) }]); // 7 moves from under 6 to under 5
  parents.set(7, 5);
  check('after moving a category');
  engine.apply([{ t: 'term', a: 'delete', id: 6 }]);
  parents.delete(6);
  for (const r of recs.values()) r.categoryIds = r.categoryIds.filter((c) => c !== 6);
  check('after deleting a category');
});

// ---
const Coords = suite('coords flag');

Coords('coords flag :: geoloc follows venue coordinate changes and venue trash', () => {
  const engine = new Engine();
  const venues = [makeVenue(1, { geoLat: 48.85, geoLng: 2.35 }), makeVenue(2), makeVenue(3, { geoLat: 1, geoLng: 2 })];
  const events: EventRecord[] = [];
  for (let i = 0; i < BLOCK_SIZE * 5; i++) {
    const venueIds = i % 7 === 0 ? [2, 3] : i % 3 === 0 ? [] : [(i % 2) + 1];
    events.push(
      makeEvent(100 + i, {
        startLocal: naiveToString(BASE + i * 3_600_000),
        endLocal: naiveToString(BASE + i * 3_600_000),
        venueIds,
      }),
    );
  }
  engine.bulkLoad({ events, venues, organizers: [], terms: [], attachments: [] });
  const coords = new Map<number, boolean>([
    [1, true],
    [2, false],
    [3, true],
  ]);
  const check = (label: string) => {
    for (const value of [true, false]) {
      const want = events.filter((e) => e.venueIds.some((v) => coords.get(v)) === value).length;
      assert.is(
        engine.query({ statusMask: 1, offset: 0, limit: 3, geo: { kind: 'has-coords', value } }).total,
        want,
        `~> ${label} geoloc=${value}`,
      );
    }
  };
  check('initial');
  engine.apply([{ t: 'venue', a: 'put', rec: makeVenue(2, { geoLat: 10, geoLng: 10 }) }]);
  coords.set(2, true);
  check('venue 2 gains coordinates');
  engine.apply([{ t: 'venue', a: 'put', rec: makeVenue(1) }]);
  coords.set(1, false);
  check('venue 1 loses coordinates');
  engine.apply([
    { t: 'venue', a: 'delete', id: 3, modified: '2024-05-01 00:00:00', modifiedUtc: '2024-05-01 04:00:00' },
  ]);
  for (const e of events) e.venueIds = e.venueIds.filter((v) => v !== 3);
  check('venue 3 trashed');
  const copy = new Engine();
  copy.loadSnapshotChunks(JSON.parse(JSON.stringify([...engine.snapshotChunks()])));
  assert.equal(copy.eventRecord(0), engine.eventRecord(0), 'the derived flag stays out of the record');
  for (const value of [true, false]) {
    const q: EventQuery = { statusMask: 1, offset: 0, limit: 3, geo: { kind: 'has-coords', value } };
    assert.is(copy.query(q).total, engine.query(q).total, `~> snapshot geoloc=${value}`);
  }
});

// ---
const Incremental = suite('block stats upkeep');

/** Every block's counters equal a recount of its rows, and its zone map bounds their ends. */
function checkBlocks(engine: Engine, label: string): void {
  const { blocks, main, table } = engine.state;
  assert.is(blocks.dirty, false, `~> ${label}: counters kept in step, not rebuilt`);
  assert.is(blocks.bounds[0], 0, `~> ${label}: first bound`);
  assert.is(blocks.bounds[blocks.blocks], main.count, `~> ${label}: last bound`);
  for (let b = 0; b < blocks.blocks; b++) {
    const want = new Int32Array(COMBOS);
    assert.ok(blocks.bounds[b + 1] - blocks.bounds[b] <= 2 * BLOCK_SIZE, `~> ${label}: block ${b} size`);
    for (let i = blocks.bounds[b]; i < blocks.bounds[b + 1]; i++) {
      const row = main.rows[i];
      want[comboOf(table.statusCodes[row], table.flags[row])]++;
      const e = table.ends[row];
      assert.ok(blocks.minEnds[b] <= e && e <= blocks.maxEnds[b], `~> ${label}: block ${b} zone map holds end ${e}`);
    }
    assert.equal(
      Array.from(blocks.counts.subarray(b * COMBOS, (b + 1) * COMBOS)),
      Array.from(want),
      `~> ${label}: block ${b} counters`,
    );
  }
}

Incremental('block stats upkeep :: inserts, removals and splits keep counters without a rebuild', () => {
  const { engine, rows } = calendar(BLOCK_SIZE * 4);
  const q: EventQuery = { statusMask: 1, offset: 0, limit: 1 };
  engine.query(q);
  const before = engine.state.blocks.blocks;
  const published = () => {
    let n = 0;
    for (let r = 0; r < engine.eventRowCount; r++) {
      const rec = engine.eventRecord(r);
      if (rec.status === 'publish' && !rec.hideFromListings) n++;
    }
    return n;
  };
  // 3 blocks' worth of events on one start: they all land in one block, which must split
  const at = naiveToString(BASE + 2 * DAY);
  for (let i = 0; i < BLOCK_SIZE * 3; i++) {
    engine.apply([
      {
        t: 'event',
        a: 'put',
        rec: makeEvent(50_000 + i, {
          startLocal: at,
          endLocal: naiveToString(BASE + (i % 5) * DAY + 2 * DAY),
          featured: i % 2 === 0,
        }),
      },
    ]);
  }
  checkBlocks(engine, 'after inserts');
  assert.ok(engine.state.blocks.blocks > before, 'a block was split');
  assert.is(engine.query(q).total, published());
  // moves (remove + insert elsewhere) and trash
  for (let i = 0; i < BLOCK_SIZE * 2; i++) {
    const id = 50_000 + ((i * 3) % (BLOCK_SIZE * 3));
    const rec = engine.eventRecord(engine.eventRow(id));
    if (i % 4 === 0)
      engine.apply([{ t: 'event', a: 'delete', id, modified: rec.modified, modifiedUtc: rec.modifiedUtc }]);
    else
      engine.apply([
        {
          t: 'event',
          a: 'put',
          rec: {
            ...rec,
            startLocal: naiveToString(BASE + (i % 9) * DAY),
            endLocal: naiveToString(BASE + (i % 9) * DAY + DAY),
          },
        },
      ]);
  }
  checkBlocks(engine, 'after moves');
  assert.is(engine.query(q).total, published());
  for (const bound of [BASE, BASE + 2 * DAY, BASE + 5 * DAY]) {
    const want = [...Array(engine.eventRowCount).keys()]
      .map((r) => engine.eventRecord(r))
      .filter(
        (r) => r.status === 'publish' && !r.hideFromListings && r.endLocal > naiveToString(bound) && r.featured,
      ).length;
    assert.is(engine.query({ ...q, endGt: bound, featured: true }).total, want, `~> endGt ${bound}`);
  }
  assert.ok(rows.length > 0);
});

Incremental('block stats upkeep :: stats never refreshed share empty arrays, left as they were by changes', () => {
  const arrays = (b: BlockStats) => [
    b.bounds,
    b.counts,
    b.minEnds,
    b.maxEnds,
    b.superCounts,
    b.superMinEnds,
    b.superMaxEnds,
    b.segEnds,
    b.segCombos,
    b.slotOf,
  ];
  const a = new BlockStats(),
    b = new BlockStats(true);
  // a store has one of these per link list and per pair of links (140,000 at ten million events)
  for (const [i, x] of arrays(a).entries()) assert.is(x, arrays(b)[i], `array ${i} is shared`);
  assert.equal([...a.bounds], [0]);
  assert.ok(
    arrays(a)
      .slice(1)
      .every((x) => x.length === 0),
  );
  // changes to stats not yet refreshed write nothing (they stay dirty) ...
  const { engine } = calendar(BLOCK_SIZE * 2);
  const table = engine.state.table;
  const rows = Int32Array.from({ length: 8 }, (_, i) => i);
  a.insertAt(0, 3, BASE, rows, table);
  a.removeAt(0, 3, BASE);
  a.moveCombo(0, 3, 4, BASE);
  assert.ok(a.dirty);
  assert.equal([...b.bounds], [0]);
  // ... and a refresh gives them arrays of their own
  a.refresh(rows, rows.length, table);
  assert.is.not(a.bounds, b.bounds);
  assert.is(a.bounds[a.blocks], rows.length);
  assert.equal([...b.bounds], [0]);
  assert.is(b.counts.length, 0);
});

Incremental('block stats upkeep :: a posting list makes its statistics when they are first read', () => {
  const { engine } = calendar(BLOCK_SIZE * 2);
  const st = engine.state,
    t = st.table;
  const made = (l: PostingList) => (l as unknown as { stats?: BlockStats }).stats !== undefined;
  const list = new PostingList();
  for (let row = 0; row < 40; row++) list.insert(t.starts, t.ids, row, 1);
  list.remove(t.starts, t.ids, 7, t.starts[7], t.ids[7]);
  list.setCombo(t.starts, t.ids, 8, 2);
  assert.not.ok(made(list), 'changes make no statistics');
  const b = list.blocks;
  assert.ok(made(list));
  assert.is(list.blocks, b, 'made once');
  assert.ok(b.dirty);
  b.refresh(list.rows, list.count, t, list.combos);
  assert.not.ok(b.dirty);
  assert.is(b.bounds[b.blocks], 39);
  list.insert(t.starts, t.ids, 7, 1);
  assert.ok(b.dirty, 'a change after they were made makes them stale');
  // a snapshot's capture reads only the large lists' statistics, and a load makes none of the rest
  const linkedState = linked(2_000).engine.state;
  const lists = [...linkedState.tagPostings.entries(), ...linkedState.categoryPostings.entries()].map(([, l]) => l);
  assert.ok(lists.length >= 7);
  captureListStats(linkedState);
  assert.ok(
    lists.every((l) => l.count < 4096 && !made(l)),
    'small lists left without statistics',
  );
});

Unions.run();
Incremental.run();
Coords.run();
