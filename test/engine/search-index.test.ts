import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Engine } from '../../src/engine/engine.ts';
import { buildMatcher } from '../../src/engine/matcher.ts';
import {
  existingSearchIndex,
  scheduleSearchIndexBuild,
  searchIndexOf,
  searchIndexReady,
  SearchIndex,
} from '../../src/engine/search-index.ts';
import { searchWorkerSettings } from '../../src/engine/search-workers.ts';
import { walk } from '../../src/engine/search-walk.ts';
import type { EventRecord } from '../../src/engine/records.ts';
import type { EventQuery } from '../../src/engine/types.ts';
import { EDITOR_MASK, makeEvent } from './build.ts';
import { mulberry32 } from '../../bench/stats.ts';

const folded = new Map<string, string>();
/** a text as the index folds it (accents off, lower case); the reference asks for the same texts
 *  again and again (every event, every query), so each is folded once */
const fold = (s: string) => {
  let f = folded.get(s);
  if (f === undefined) folded.set(s, (f = s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()));
  return f;
};

// small alphabet (with accents and a non-Latin letter): many substring hits of every length
const SYLLABLES = ['ka', 'ré', 'mo', 'ta', 'ni', 'Öl', 'su', 'be', 'ça', 'ω', 'ri', 'po'];

class Rand {
  constructor(private readonly next: () => number) {}
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  bool(p: number): boolean {
    return this.next() < p;
  }
  word(): string {
    let w = '';
    for (let i = this.int(1, 3); i > 0; i--) w += SYLLABLES[this.int(0, SYLLABLES.length - 1)];
    return w;
  }
  text(maxWords: number): string {
    const ws: string[] = [];
    for (let i = this.int(0, maxWords); i > 0; i--) ws.push(this.word());
    return ws.join(this.bool(0.8) ? ' ' : ', ');
  }
  term(): string {
    const w = fold(this.text(2) || this.word());
    const len = this.int(1, Math.min(7, w.length));
    const at = this.int(0, w.length - len);
    return w.slice(at, at + len);
  }
}

function event(r: Rand, id: number): EventRecord {
  const day = 1 + r.int(0, 27);
  const d = `2024-02-${String(day).padStart(2, '0')}`;
  return makeEvent(id, {
    title: r.text(3) || 'x',
    excerpt: r.bool(0.5) ? r.text(4) : '',
    description: r.bool(0.6) ? `<p>${r.text(8)}</p>` : '',
    status: r.bool(0.85) ? 'publish' : 'draft',
    startLocal: `${d} ${String(r.int(8, 20)).padStart(2, '0')}:00:00`,
    endLocal: `${d} 22:00:00`,
  });
}

function reference(events: Map<number, EventRecord>, q: EventQuery): { total: number; ids: number[] } {
  const rows = [...events.values()].filter((e) => {
    if (e.status !== 'publish' && e.status !== 'draft') return false;
    const fields = [fold(e.title), fold(e.excerpt), fold(e.description)];
    const inc = q.search!.include,
      exc = q.search!.exclude;
    return inc.every((w) => fields.some((f) => f.includes(w))) && !exc.some((w) => fields.some((f) => f.includes(w)));
  });
  rows.sort((a, b) => (a.startLocal < b.startLocal ? -1 : a.startLocal > b.startLocal ? 1 : a.id - b.id));
  return { total: rows.length, ids: rows.slice(q.offset, q.offset + q.limit).map((e) => e.id) };
}

function check(engine: Engine, events: Map<number, EventRecord>, q: EventQuery, label: string): void {
  const got = engine.query(q);
  const want = reference(events, q);
  const ids = got.rows.map((row) => engine.eventId(row));
  if (got.total !== want.total || ids.join(',') !== want.ids.join(',')) {
    assert.unreachable(
      `${label}: ${JSON.stringify(q.search)} offset ${q.offset}\nexpected ${want.total} [${want.ids}]\ngot      ${got.total} [${ids}]`,
    );
  }
}

function randomQuery(r: Rand): EventQuery {
  const include: string[] = [];
  for (let i = r.int(1, 3); i > 0; i--) include.push(r.term());
  const exclude: string[] = r.bool(0.3) ? [r.term()] : [];
  return {
    statusMask: EDITOR_MASK,
    search: { include, exclude },
    offset: r.bool(0.7) ? 0 : r.int(0, 40),
    limit: r.int(1, 15),
  };
}

/** An engine bulk-loaded with copies of `events` (the reference keeps the originals). */
function loaded(events: Map<number, EventRecord>): Engine {
  const engine = new Engine();
  engine.bulkLoad({
    attachments: [],
    terms: [],
    venues: [],
    organizers: [],
    events: [...events.values()].map((e) => structuredClone(e)),
  });
  return engine;
}

/**
 * One random write, to the engine and the reference alike: a new event (4 in 10), an edit of any
 * event (4 in 10; with `keepTitles`, 3 in 10 edits keep the old title), or a trash (a trashed
 * one is left alone). Returns the next free id.
 */
function randomWrite(
  r: Rand,
  engine: Engine,
  events: Map<number, EventRecord>,
  nextId: number,
  keepTitles: boolean,
): number {
  const x = r.int(0, 9);
  if (x < 4) {
    const rec = event(r, nextId++);
    events.set(rec.id, rec);
    engine.apply([{ t: 'event', a: 'put', rec: structuredClone(rec) }]);
  } else if (x < 8) {
    const id = r.int(1, nextId - 1),
      old = events.get(id)!;
    const rec = { ...event(r, id), slug: old.slug, status: old.status };
    if (keepTitles && r.bool(0.3)) rec.title = old.title; // text partly unchanged
    events.set(id, rec);
    engine.apply([{ t: 'event', a: 'put', rec: structuredClone(rec) }]);
  } else {
    const id = r.int(1, nextId - 1),
      old = events.get(id)!;
    if (old.status === 'trash') return nextId;
    events.set(id, { ...old, status: 'trash' });
    engine.apply([{ t: 'event', a: 'delete', id, modified: old.modified, modifiedUtc: old.modifiedUtc }]);
  }
  return nextId;
}

/** Events of given texts, each on its own day of March 2024 (`day`: the day of an id). */
function textEvents(day: (id: number) => number) {
  const events = new Map<number, EventRecord>();
  const add = (id: number, title: string, excerpt = '', description = '') =>
    events.set(
      id,
      makeEvent(id, {
        title,
        excerpt,
        description,
        startLocal: `2024-03-0${day(id)} 10:00:00`,
        endLocal: `2024-03-0${day(id)} 12:00:00`,
      }),
    );
  return { events, add };
}

const Index = suite('search index');

Index('search :: random texts, terms of length 1-7, accents, exclusions, edits and trash equal the reference', () => {
  for (const seed of [1, 2]) {
    const r = new Rand(mulberry32(seed));
    const events = new Map<number, EventRecord>();
    for (let id = 1; id <= 600; id++) events.set(id, event(r, id));
    let engine: Engine;
    if (seed === 1) engine = loaded(events);
    else {
      engine = new Engine();
      engine.apply(
        [...events.values()].map((rec) => ({ t: 'event' as const, a: 'put' as const, rec: structuredClone(rec) })),
      );
    }
    for (let i = 0; i < 300; i++) check(engine, events, randomQuery(r), `seed ${seed} initial #${i}`);
    let nextId = 601;
    for (let round = 0; round < 6; round++) {
      for (let k = r.int(1, 60); k > 0; k--) nextId = randomWrite(r, engine, events, nextId, true);
      for (let i = 0; i < 150; i++) check(engine, events, randomQuery(r), `seed ${seed} round ${round} #${i}`);
    }
  }
});

Index('search :: fixed cases (accents, short terms, spaces, unknown trigrams)', () => {
  const { events, add } = textEvents((id) => 1 + (id % 9));
  add(1, 'Crème Brûlée night');
  add(2, 'Creme brulee class', 'no accents here');
  add(3, 'Jazz', '', '<p>café au lait</p>');
  add(4, 'Ångström talk', 'über-cool');
  add(5, 'cafe', 'crè', 'me');
  const engine = loaded(events);
  const q = (include: string[], exclude: string[] = []): EventQuery => ({
    statusMask: EDITOR_MASK,
    search: { include, exclude },
    offset: 0,
    limit: 10,
  });
  for (const [inc, exc] of [
    [['creme brulee'], []],
    [['creme', 'brulee'], []],
    [['cafe'], []],
    [['ca'], []],
    [['e'], []],
    [['angstrom'], []],
    [['uber-cool'], []],
    [['creme'], ['night']],
    [['creme'], ['me']],
    [['zzz'], []],
    [['cremebrulee'], []],
    [['me'], ['creme']],
    [['é'], []],
    [['e b'], []],
    [['ht c'], []],
  ] as [string[], string[]][]) {
    check(engine, events, q(inc, exc), `${inc} -${exc}`);
  }
});

Index('search :: incremental upkeep answers as a fresh build', () => {
  const r = new Rand(mulberry32(7));
  const engine = new Engine();
  const recs: EventRecord[] = [];
  for (let id = 1; id <= 300; id++) recs.push(event(r, id));
  engine.apply(recs.slice(0, 100).map((rec) => ({ t: 'event' as const, a: 'put' as const, rec })));
  engine.query({ statusMask: EDITOR_MASK, search: { include: ['kar'], exclude: [] }, offset: 0, limit: 1 }); // builds the index
  engine.apply(recs.slice(100).map((rec) => ({ t: 'event' as const, a: 'put' as const, rec })));
  for (let id = 1; id <= 300; id += 3)
    engine.apply([{ t: 'event', a: 'put', rec: { ...event(r, id), slug: `event-${id}` } }]);
  const st = engine.state;
  const live = searchIndexOf(st);
  assert.ok(live.stats().touched > 0, 'writes after the build are kept aside, not rebuilt');
  const fresh = new SearchIndex();
  fresh.rebuild(st);
  assert.is(fresh.stats().touched, 0);
  for (let i = 0; i < 300; i++) {
    const q = randomQuery(r);
    const m = buildMatcher(st, q);
    const a = walk(live, st, q, m, Infinity),
      b = walk(fresh, st, q, m, Infinity);
    assert.is(a === undefined, b === undefined, `both or neither answer ${JSON.stringify(q.search)}`);
    if (!a || !b) continue;
    assert.is(a.total, b.total, `total of ${JSON.stringify(q.search)}`);
    assert.equal(a.rows, b.rows, `page of ${JSON.stringify(q.search)}`);
  }
});

Index(
  'search :: writes without searches keep the index bounded: past its bound a new one is built in the background and takes over',
  async () => {
    const engine = new Engine();
    engine.apply([{ t: 'event', a: 'put', rec: makeEvent(1, { title: 'first words' }) }]);
    const q: EventQuery = { statusMask: EDITOR_MASK, search: { include: ['word'], exclude: [] }, offset: 0, limit: 10 };
    assert.is(engine.query(q).total, 1); // builds the index
    const st = engine.state;
    const built = searchIndexOf(st);
    // one row rewritten with new words: the touched count stays 1, the dictionary grows
    let n = 0;
    for (; n < 40_000 && !built.needsRebuild; n++)
      engine.apply([{ t: 'event', a: 'put', rec: makeEvent(1, { title: `take ${n} x${n.toString(36)}` }) }]);
    assert.ok(n < 40_000, 'the index passed its bound of new words');
    const last = `x${(n - 1).toString(36)}`;
    // the old index answers until the new one is built
    assert.is(searchIndexOf(st), built);
    assert.is(engine.query({ ...q, search: { include: [last], exclude: [] } }).total, 1, 'answered meanwhile');
    for (let i = 0; i < 400 && searchIndexOf(st) === built; i++) await new Promise((res) => setTimeout(res, 2));
    assert.is.not(searchIndexOf(st), built, 'the new index took over');
    assert.is(
      engine.query({ ...q, search: { include: [last], exclude: [] } }).total,
      1,
      'the rebuilt index finds the latest words',
    );
    assert.is(engine.query({ ...q, search: { include: ['x0'], exclude: [] } }).total, 0, 'and not the old ones');
    assert.ok(searchIndexOf(st).stats().words < 10, `${searchIndexOf(st).stats().words} words after the rebuild`);
  },
);

Index('search :: words are per field: a term across title and excerpt does not match', () => {
  const { events, add } = textEvents((id) => id);
  add(1, 'cafe', 'crè', 'me'); // "crème" only across fields
  add(2, 'Crème brûlée');
  add(3, 'night', 'cafe crème');
  const engine = loaded(events);
  const ids = (include: string[], exclude: string[] = []) => {
    const res = engine.query({ statusMask: EDITOR_MASK, search: { include, exclude }, offset: 0, limit: 10 });
    return { total: res.total, ids: res.rows.map((row) => engine.eventId(row)) };
  };
  assert.equal(ids(['creme']), { total: 2, ids: [2, 3] });
  assert.equal(ids(['cafecre']), { total: 0, ids: [] });
  assert.equal(ids(['cafe cre']), { total: 1, ids: [3] }); // a phrase inside one field
  assert.equal(ids(['cafe\u0000cre']), { total: 0, ids: [] }); // never across the field join
  assert.equal(ids(['cafe', 'creme']), { total: 1, ids: [3] });
  assert.equal(ids(['cafe'], ['creme']), { total: 1, ids: [1] });
  assert.equal(ids(['re']), { total: 3, ids: [1, 2, 3] }); // the excerpt "crè" of 1 folds to "cre"
});

Index('search :: short terms (1-2 characters), accents, punctuation inside terms', () => {
  const events = new Map<number, EventRecord>();
  const titles = [
    'Ωmega talk',
    'ÉTÉ festival',
    'e',
    'x-ray night',
    'hands-on pottery',
    'Piñata party!',
    'A.I. meetup',
    '3D printing',
  ];
  titles.forEach((title, i) => {
    events.set(
      i + 1,
      makeEvent(i + 1, { title, startLocal: `2024-04-0${i + 1} 10:00:00`, endLocal: `2024-04-0${i + 1} 11:00:00` }),
    );
  });
  const engine = loaded(events);
  for (const inc of [
    ['e'],
    ['ω'],
    ['et'],
    ['ete'],
    ['n'],
    ['x-'],
    ['-r'],
    ['s-o'],
    ['a.i.'],
    ['.'],
    ['!'],
    ['3d'],
    ['d'],
    ['pinata'],
    ['n', 'a'],
    ['ta p'],
  ]) {
    check(
      engine,
      events,
      { statusMask: EDITOR_MASK, search: { include: inc, exclude: [] }, offset: 0, limit: 10 },
      `[${inc}]`,
    );
    check(
      engine,
      events,
      { statusMask: EDITOR_MASK, search: { include: ['a'], exclude: inc }, offset: 0, limit: 10 },
      `a -[${inc}]`,
    );
    check(
      engine,
      events,
      { statusMask: EDITOR_MASK, search: { include: [], exclude: inc }, offset: 1, limit: 3 },
      `-[${inc}]`,
    );
  }
});

/** The long lists' case: with `inOrder`, the events' ids follow their (start, id) order, so the rows
 *  are loaded in that order, as from a store, and the index's postings are their rows' ranks. */
function longListsCase(inOrder: boolean): void {
  // few distinct words, so single-word lists are long enough to be counted from block counters
  const WORDS = ['pottery', 'jazz', 'crème', 'brûlée', 'night', 'market', 'wheel'];
  const r = new Rand(mulberry32(11));
  const pick = () => WORDS[r.int(0, WORDS.length - 1)];
  const statuses = ['publish', 'publish', 'publish', 'draft', 'private', 'pending'] as const;
  const make = (id: number): EventRecord => {
    const day = new Date(Date.UTC(2024, 0, 1) + r.int(0, 365) * 86_400_000).toISOString().slice(0, 10);
    const hour = String(r.int(0, 22)).padStart(2, '0');
    const longEnd = new Date(Date.parse(day) + r.int(0, 40) * 86_400_000).toISOString().slice(0, 10);
    return makeEvent(id, {
      title: `${pick()} ${pick()}`,
      excerpt: r.bool(0.3) ? pick() : '',
      description: r.bool(0.5) ? `<p>${pick()} ${pick()} ${pick()}</p>` : '',
      status: statuses[r.int(0, statuses.length - 1)],
      hideFromListings: r.bool(0.05),
      featured: r.bool(0.2),
      startLocal: `${day} ${hour}:00:00`,
      endLocal: r.bool(0.1) ? `${longEnd} 23:00:00` : `${day} ${hour}:30:00`,
    });
  };
  const events = new Map<number, EventRecord>();
  const made = Array.from({ length: 9000 }, (_, i) => make(i + 1));
  if (inOrder) {
    made.sort((a, b) => (a.startLocal < b.startLocal ? -1 : a.startLocal > b.startLocal ? 1 : a.id - b.id));
    made.forEach((e, i) => {
      e.id = i + 1;
    });
  }
  for (const e of made) events.set(e.id, e);
  const engine = loaded(events);
  const times = new Map<string, number>();
  /** a local time's instant, parsed once a distinct time (the reference reads each row's every query) */
  const ms = (d: string) => {
    let t = times.get(d);
    if (t === undefined) times.set(d, (t = Date.parse(d.replace(' ', 'T') + 'Z')));
    return t;
  };
  const ref = (q: EventQuery) => {
    const rows = [...events.values()].filter((e) => {
      if (
        ((q.statusMask >>> ['publish', 'future', 'draft', 'pending', 'private', 'trash'].indexOf(e.status)) & 1) ===
        0
      )
        return false;
      if (e.hideFromListings) return false;
      if (q.featured !== undefined && e.featured !== q.featured) return false;
      const s = ms(e.startLocal),
        en = ms(e.endLocal);
      if (q.startGte !== undefined && s < q.startGte) return false;
      if (q.startLt !== undefined && s >= q.startLt) return false;
      if (q.endLte !== undefined && en > q.endLte) return false;
      if (q.endGt !== undefined && en <= q.endGt) return false;
      const fields = [fold(e.title), fold(e.excerpt), fold(e.description)];
      return (
        q.search!.include.every((w) => fields.some((f) => f.includes(w))) &&
        !q.search!.exclude.some((w) => fields.some((f) => f.includes(w)))
      );
    });
    rows.sort((a, b) => (a.startLocal < b.startLocal ? -1 : a.startLocal > b.startLocal ? 1 : a.id - b.id));
    return { total: rows.length, ids: rows.slice(q.offset, q.offset + q.limit).map((e) => e.id) };
  };
  const query = (): EventQuery => {
    const lo = Date.UTC(2024, 0, 1) + r.int(-10, 300) * 86_400_000;
    const q: EventQuery = {
      statusMask: r.bool(0.5) ? 1 : EDITOR_MASK,
      search: { include: [pick()], exclude: [] },
      offset: r.bool(0.8) ? 0 : r.int(0, 30),
      limit: r.int(1, 12),
    };
    if (r.bool(0.8)) q.startGte = lo;
    if (r.bool(0.5)) q.startLt = lo + r.int(1, 120) * 86_400_000;
    if (r.bool(0.5)) q.endLte = lo + r.int(1, 120) * 86_400_000;
    if (r.bool(0.2)) q.endGt = lo + r.int(0, 30) * 86_400_000;
    if (r.bool(0.15)) q.featured = r.bool(0.5);
    if (r.bool(0.25)) q.search!.include.push(pick());
    if (r.bool(0.1)) q.search!.exclude.push(pick());
    return q;
  };
  const compare = (label: string) => {
    for (let i = 0; i < 150; i++) {
      const q = query();
      const got = engine.query(q),
        want = ref(q);
      const ids = got.rows.map((row) => engine.eventId(row));
      if (got.total !== want.total || ids.join(',') !== want.ids.join(',')) {
        assert.unreachable(
          `${label} #${i}: ${JSON.stringify(q)}\nexpected ${want.total} [${want.ids}]\ngot      ${got.total} [${ids}]`,
        );
      }
    }
  };
  compare('initial');
  assert.ok(searchIndexOf(engine.state).stats().countedLists > 0, 'some lists were counted from block counters');
  // two words, each in more than one row in 32: ANDed as bit sets when an entry is its row
  assert.is(searchIndexOf(engine.state).stats().denseLists > 0, inOrder, 'bit sets of dense lists');
  assert.is(
    searchIndexOf(engine.state).rows.ranked,
    !inOrder,
    'postings are ranks through the order unless it is the rows',
  );
  let nextId = 9001;
  for (let round = 0; round < 4; round++) {
    for (let k = 0; k < 200; k++) {
      const x = r.int(0, 9);
      if (x < 3) {
        const rec = make(nextId++);
        events.set(rec.id, rec);
        engine.apply([{ t: 'event', a: 'put', rec: structuredClone(rec) }]);
      } else if (x < 8) {
        // moved in time, status or text changed (or not)
        const id = r.int(1, nextId - 1),
          old = events.get(id)!;
        if (old.status === 'trash') continue;
        const fresh = make(id);
        const rec = {
          ...old,
          ...(r.bool(0.5) ? { startLocal: fresh.startLocal, endLocal: fresh.endLocal } : {}),
          ...(r.bool(0.4) ? { status: fresh.status } : {}),
          ...(r.bool(0.4) ? { title: fresh.title } : {}),
        };
        events.set(id, rec);
        engine.apply([{ t: 'event', a: 'put', rec: structuredClone(rec) }]);
      } else {
        const id = r.int(1, nextId - 1),
          old = events.get(id)!;
        if (old.status === 'trash') continue;
        events.set(id, { ...old, status: 'trash' });
        engine.apply([{ t: 'event', a: 'delete', id, modified: old.modified, modifiedUtc: old.modifiedUtc }]);
      }
    }
    compare(`round ${round}`);
  }
}

Index('search :: long lists counted per block equal the reference: date windows, statuses, hidden rows, writes', () =>
  longListsCase(false),
);

Index('search :: the same with the rows in (start, id) order, as loaded from a store', () => longListsCase(true));

Index(
  'search :: a background build answers as the reference, with writes between its slices and searches before it ends',
  async () => {
    for (const searchEarly of [false, true]) {
      const r = new Rand(mulberry32(searchEarly ? 21 : 22));
      const events = new Map<number, EventRecord>();
      for (let id = 1; id <= 800; id++) events.set(id, event(r, id));
      const engine = loaded(events);
      scheduleSearchIndexBuild(engine.state, 60);
      const si = searchIndexOf(engine.state);
      assert.ok(si.building, 'the build is pending after scheduling');
      let nextId = 801,
        ticks = 0;
      while (si.building) {
        await new Promise((resolve) => setTimeout(resolve, 1));
        ticks++;
        for (let k = r.int(0, 6); k > 0; k--) nextId = randomWrite(r, engine, events, nextId, false);
        if (searchEarly && ticks === 3) {
          check(engine, events, randomQuery(r), 'search during the build');
          assert.not.ok(si.building, 'a search finishes the build');
        }
        if (ticks > 10_000) assert.unreachable('the background build never ended');
      }
      if (!searchEarly) assert.ok(ticks > 3, `the build ran in several slices (${ticks} ticks)`);
      for (let i = 0; i < 200; i++) check(engine, events, randomQuery(r), `after a background build #${i}`);
    }
  },
);

Index('search :: a build whose word sequence spans several pages answers as the reference', () => {
  // 3,000 rows of 120 distinct words: 360,000 (row, word) entries, past the first page of 262,144
  const r = new Rand(mulberry32(31));
  const events = new Map<number, EventRecord>();
  for (let id = 1; id <= 3000; id++) {
    const words = Array.from({ length: 120 }, (_, k) => `w${(id * 7 + k * 13) % 4000}x`).join(' ');
    events.set(id, { ...event(r, id), description: words });
  }
  const engine = loaded(events);
  for (const w of ['w0x', 'w1234x', 'w3999x', 'w7x w20x', 'w2500x']) {
    const q: EventQuery = {
      statusMask: EDITOR_MASK,
      search: { include: w.split(' '), exclude: [] },
      offset: 0,
      limit: 50,
    };
    check(engine, events, q, `word ${w}`);
  }
  for (let i = 0; i < 30; i++) check(engine, events, randomQuery(r), `random #${i}`);
});

Index(
  'search :: a snapshot load leaves the index unbuilt (start-up does not wait); warmInBackground builds block stats, the slug lookup, then the index in slices; searches are right before and after',
  async () => {
    const r = new Rand(mulberry32(9));
    const events = new Map<number, EventRecord>();
    for (let id = 1; id <= 200; id++) events.set(id, event(r, id));
    const a = new Engine();
    a.bulkLoad({ attachments: [], terms: [], venues: [], organizers: [], events: [...events.values()] });
    const chunks = JSON.parse(JSON.stringify([...a.snapshotChunks()]));
    // searched at once: the first search builds the index
    const b = new Engine();
    b.loadSnapshotChunks(chunks);
    for (let i = 0; i < 100; i++) check(b, events, randomQuery(r), `snapshot, searched at once #${i}`);
    // built in the background, as the calendar starts it after opening its store
    const c = new Engine();
    c.loadSnapshotChunks(chunks);
    c.warmInBackground();
    assert.ok(c.state.blocks.dirty, 'nothing is built before the event loop turns');
    // a turn of the loop at a time: the index is begun only once the rest is done
    for (let turns = 0; existingSearchIndex(c.state) === undefined; turns++) {
      if (turns > 10_000) assert.unreachable('the warm-up never began the index');
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.not.ok(c.state.blocks.dirty, 'the block statistics are built first');
    assert.ok(c.state.ids.buildSlugs(0), 'then the slug lookup');
    const si = searchIndexOf(c.state);
    for (let ticks = 0; si.building; ticks++) {
      if (ticks > 1000) assert.unreachable('the background build never ended');
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    for (let i = 0; i < 100; i++) check(c, events, randomQuery(r), `snapshot, built in the background #${i}`);
  },
);

Index(
  'search :: a build on a worker thread answers as the reference: searches before it is done are scanned, writes meanwhile are touched again once it is installed',
  async () => {
    const saved = searchWorkerSettings.minRows;
    searchWorkerSettings.minRows = 0;
    try {
      const r = new Rand(mulberry32(41));
      const events = new Map<number, EventRecord>();
      for (let id = 1; id <= 1500; id++) events.set(id, event(r, id));
      const engine = loaded(events);
      scheduleSearchIndexBuild(engine.state);
      const si = existingSearchIndex(engine.state)!;
      assert.ok(si.waiting, 'the build runs on a worker thread');
      assert.ok(si.building);
      assert.is(si.persisted(), undefined, 'a snapshot does not keep an index that is not built');
      // writes and searches while the worker builds: the searches are answered by a scan
      let nextId = 1501;
      for (let k = 0; k < 120; k++) nextId = randomWrite(r, engine, events, nextId, true);
      for (let i = 0; i < 40; i++) check(engine, events, randomQuery(r), `before the worker is done #${i}`);
      assert.ok(si.waiting, 'a search does not finish the build on this thread');
      await searchIndexReady(engine.state);
      assert.not.ok(si.building, 'the worker build is installed');
      assert.is(existingSearchIndex(engine.state), si);
      assert.ok(si.stats().touched > 0, 'the rows written meanwhile are touched');
      assert.ok(si.stats().entries > 0, 'the lists are in place');
      for (let i = 0; i < 200; i++) check(engine, events, randomQuery(r), `after the worker build #${i}`);
      for (let round = 0; round < 3; round++) {
        for (let k = r.int(1, 60); k > 0; k--) nextId = randomWrite(r, engine, events, nextId, true);
        for (let i = 0; i < 60; i++) check(engine, events, randomQuery(r), `writes after it, round ${round} #${i}`);
      }
    } finally {
      searchWorkerSettings.minRows = saved;
    }
  },
);

Index(
  'search :: a worker build stopped by an explicit finish is built here; a small table never starts one',
  async () => {
    const saved = searchWorkerSettings.minRows;
    try {
      const r = new Rand(mulberry32(43));
      const events = new Map<number, EventRecord>();
      for (let id = 1; id <= 300; id++) events.set(id, event(r, id));
      searchWorkerSettings.minRows = 1000;
      const small = loaded(events);
      scheduleSearchIndexBuild(small.state);
      assert.not.ok(existingSearchIndex(small.state)!.waiting, 'under minRows: slices on this thread');
      searchWorkerSettings.minRows = 0;
      const engine = loaded(events);
      scheduleSearchIndexBuild(engine.state);
      const si = existingSearchIndex(engine.state)!;
      assert.ok(si.waiting);
      const ready = engine.searchReady();
      engine.finishIndexes(); // what the snapshot command does before writing
      assert.not.ok(si.building, 'built on this thread at once');
      assert.ok(si.persisted() !== undefined);
      await ready; // the stopped worker's wait settles
      assert.is(existingSearchIndex(engine.state), si);
      for (let i = 0; i < 100; i++) check(engine, events, randomQuery(r), `after finishIndexes #${i}`);
    } finally {
      searchWorkerSettings.minRows = saved;
    }
  },
);

Index.run();
