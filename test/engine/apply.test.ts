import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Engine } from '../../src/engine/engine.ts';
import type { Op } from '../../src/engine/records.ts';
import { makeEvent, makeOrganizer, makeTerm, makeVenue } from './build.ts';

const ALL = 0xff;
const idsOf = (e: Engine, rows: readonly number[]) => rows.map((r) => e.eventId(r));
const list = (e: Engine, extra: Partial<Parameters<Engine['query']>[0]> = {}) =>
  idsOf(e, e.query({ statusMask: ALL, offset: 0, limit: 100, ...extra }).rows);

function seeded(): Engine {
  const e = new Engine();
  e.apply([
    { t: 'term', a: 'put', rec: makeTerm(1) },
    { t: 'term', a: 'put', rec: makeTerm(2, { parent: 1 }) },
    { t: 'term', a: 'put', rec: makeTerm(3, { parent: 2 }) },
    { t: 'term', a: 'put', rec: makeTerm(4, { taxonomy: 'post_tag' }) },
    { t: 'venue', a: 'put', rec: makeVenue(20) },
    { t: 'venue', a: 'put', rec: makeVenue(21) },
    { t: 'organizer', a: 'put', rec: makeOrganizer(30) },
    { t: 'organizer', a: 'put', rec: makeOrganizer(31) },
    {
      t: 'event',
      a: 'put',
      rec: makeEvent(100, {
        startLocal: '2024-03-02 10:00:00',
        endLocal: '2024-03-02 11:00:00',
        categoryIds: [3],
        tagIds: [4],
        venueIds: [20],
        organizerIds: [30, 31],
      }),
    },
    {
      t: 'event',
      a: 'put',
      rec: makeEvent(101, {
        startLocal: '2024-03-01 10:00:00',
        endLocal: '2024-03-01 11:00:00',
        categoryIds: [2],
        venueIds: [20, 21],
        organizerIds: [31],
      }),
    },
    {
      t: 'event',
      a: 'put',
      rec: makeEvent(102, {
        startLocal: '2024-03-01 10:00:00',
        endLocal: '2024-03-03 11:00:00',
        categoryIds: [1, 2],
        tagIds: [4],
        status: 'draft',
      }),
    },
  ]);
  return e;
}

// ---
const Put = suite('apply put');

Put('apply :: insert keeps (start, id) order and every posting', () => {
  const e = seeded();
  assert.equal(list(e), [101, 102, 100]);
  assert.equal(idsOf(e, e.linkedEventRows('venue', 20)), [101, 100]);
  assert.equal(idsOf(e, e.linkedEventRows('organizer', 31)), [101, 100]);
  assert.equal(idsOf(e, e.linkedEventRows('category', 2)), [101, 102]);
  assert.equal(idsOf(e, e.linkedEventRows('category', 1)), [102], 'direct links only');
  assert.equal(list(e, { categoryIds: [1] }), [101, 102, 100], 'a category matches its descendants');
  assert.is(e.eventRowBySlug('event-101'), e.eventRow(101));
  assert.is(e.eventRowBySlug(''), -1);
});

Put('apply :: replace moves the row in the index and its postings', () => {
  const e = seeded();
  const row = e.eventRow(100);
  e.apply([
    {
      t: 'event',
      a: 'put',
      rec: makeEvent(100, {
        startLocal: '2024-02-01 10:00:00',
        endLocal: '2024-02-01 11:00:00',
        categoryIds: [1],
        venueIds: [21],
        organizerIds: [],
        slug: 'moved',
      }),
    },
  ]);
  assert.is(e.eventRow(100), row, 'row is kept');
  assert.is(e.eventRowCount, 3);
  assert.equal(list(e), [100, 101, 102]);
  assert.equal(idsOf(e, e.linkedEventRows('venue', 20)), [101]);
  assert.equal(idsOf(e, e.linkedEventRows('venue', 21)), [100, 101]);
  assert.equal(idsOf(e, e.linkedEventRows('organizer', 30)), []);
  assert.equal(idsOf(e, e.linkedEventRows('category', 3)), []);
  assert.equal(list(e, { categoryIds: [3] }), []);
  assert.equal(list(e, { startGte: Date.UTC(2024, 2, 1) }), [101, 102]);
  assert.is(e.eventRowBySlug('event-100'), -1);
  assert.is(e.eventRowBySlug('moved'), row);
  assert.is(e.eventRecord(row).startLocal, '2024-02-01 10:00:00');
});

Put('apply :: a broken record throws before anything changes', () => {
  const e = seeded();
  assert.throws(
    () => e.apply([{ t: 'event', a: 'put', rec: makeEvent(100, { endLocal: '2024-01-01 00:00:00' }) }]),
    /expected end >= start/,
  );
  assert.throws(() => e.apply([{ t: 'event', a: 'put', rec: makeEvent(20) }]), /expected post 20 to be an event/);
  assert.throws(
    () => e.apply([{ t: 'event', a: 'put', rec: makeEvent(103, { status: 'nope' as 'publish' }) }]),
    /unknown status/,
  );
  assert.equal(list(e), [101, 102, 100]);
  assert.is(e.eventRowCount, 3);
});

Put('apply :: hidden events never match', () => {
  const e = seeded();
  e.apply([{ t: 'event', a: 'put', rec: makeEvent(103, { hideFromListings: true }) }]);
  assert.equal(list(e), [101, 102, 100]);
  assert.ok(e.eventRow(103) >= 0);
});

Put.run();

// ---
const Delete = suite('apply delete');

Delete('apply :: event delete moves to trash with slug suffix and stamps', () => {
  const e = seeded();
  const row = e.eventRow(100);
  e.apply([{ t: 'event', a: 'delete', id: 100, modified: '2024-05-01 00:00:00', modifiedUtc: '2024-05-01 04:00:00' }]);
  const rec = e.eventRecord(row);
  assert.is(rec.status, 'trash');
  assert.is(rec.slug, 'event-100__trashed');
  assert.is(rec.modified, '2024-05-01 00:00:00');
  assert.is(rec.modifiedUtc, '2024-05-01 04:00:00');
  assert.is(e.eventStatus(row), 'trash');
  assert.is(e.eventRowBySlug('event-100__trashed'), row);
  assert.is(e.eventRowBySlug('event-100'), -1);
  assert.equal(list(e, { statusMask: 1 << 5 }), [100]);
  assert.equal(list(e, { statusMask: 1 }), [101]);
  e.apply([{ t: 'event', a: 'delete', id: 100, modified: '2024-05-02 00:00:00', modifiedUtc: '2024-05-02 04:00:00' }]);
  assert.is(e.eventRecord(row).slug, 'event-100__trashed', 'no second suffix');
});

Delete('apply :: venue and organizer delete trash the record and unlink it from every event', () => {
  const e = seeded();
  e.apply([
    { t: 'venue', a: 'delete', id: 20, modified: '2024-05-01 00:00:00', modifiedUtc: '2024-05-01 04:00:00' },
    { t: 'organizer', a: 'delete', id: 31, modified: '2024-05-01 00:00:00', modifiedUtc: '2024-05-01 04:00:00' },
  ]);
  assert.is(e.venue(20)!.status, 'trash');
  assert.is(e.venue(20)!.slug, 'venue-20__trashed');
  assert.is(e.venueBySlug('venue-20__trashed')!.id, 20);
  assert.is(e.venueBySlug('venue-20'), undefined);
  assert.is(e.postKind(20), 'venue');
  assert.equal(e.eventRecord(e.eventRow(100)).venueIds, []);
  assert.equal(e.eventRecord(e.eventRow(101)).venueIds, [21]);
  assert.equal(e.eventRecord(e.eventRow(100)).organizerIds, [30]);
  assert.equal(e.eventRecord(e.eventRow(101)).organizerIds, []);
  assert.equal(e.linkedEventRows('venue', 20), []);
  assert.equal(list(e, { venueIds: [20] }), []);
  assert.equal(list(e, { venueIds: [21] }), [101]);
  assert.equal(list(e, { organizerIds: [31, 30] }), [100]);
});

Delete('apply :: term delete unlinks it and re-parents its children to its parent', () => {
  const e = seeded();
  e.apply([{ t: 'term', a: 'delete', id: 2 }]);
  assert.is(e.term(2), undefined);
  assert.is(e.term(3)!.parent, 1);
  assert.equal(e.termChildren(1), [3]);
  assert.equal(e.eventRecord(e.eventRow(101)).categoryIds, []);
  assert.equal(e.eventRecord(e.eventRow(102)).categoryIds, [1]);
  assert.equal(list(e, { categoryIds: [1] }), [102, 100], '3 is now a child of 1');
  assert.equal(list(e, { categoryIds: [2] }), []);
  e.apply([{ t: 'term', a: 'delete', id: 4 }]);
  assert.equal(e.eventRecord(e.eventRow(100)).tagIds, []);
  assert.throws(() => e.apply([{ t: 'term', a: 'delete', id: 4 }]), /expected an existing term/);
});

Delete.run();

// ---
const Counts = suite('term counts and caches');

Counts('apply :: term counts follow published events with direct links', () => {
  const e = seeded();
  assert.is(e.termCount(1), 0, 'only a draft links 1 directly');
  assert.is(e.termCount(2), 1);
  assert.is(e.termCount(3), 1);
  assert.is(e.termCount(4), 1);
  e.apply([{ t: 'event', a: 'put', rec: makeEvent(102, { categoryIds: [1, 2], tagIds: [4] }) }]);
  assert.is(e.termCount(1), 1);
  assert.is(e.termCount(2), 2);
  assert.is(e.termCount(4), 2);
  e.apply([{ t: 'event', a: 'delete', id: 100, modified: '2024-05-01 00:00:00', modifiedUtc: '2024-05-01 04:00:00' }]);
  assert.is(e.termCount(3), 0);
  assert.is(e.termCount(4), 1);
  e.apply([{ t: 'event', a: 'put', rec: makeEvent(104, { categoryIds: [2, 2] }) }]);
  assert.is(e.termCount(2), 3, 'a repeated link counts once');
});

Counts('apply :: the hooks hear exactly what changed', () => {
  const e = seeded();
  let heard: string[] = [];
  e.setHooks({
    eventChanged: (row) => heard.push(`event ${e.eventId(row)}`),
    embeddedChanged: (row) => heard.push(`embedded ${e.eventId(row)}`),
    postChanged: (id) => heard.push(`post ${id}`),
    termChanged: (id) => heard.push(`term ${id}`),
    termCountChanged: (id) => heard.push(`count ${id}`),
  });
  const hear = (ops: Parameters<typeof e.apply>[0]): string[] => {
    heard = [];
    e.apply(ops);
    return [...new Set(heard)].sort();
  };

  assert.equal(
    hear([
      {
        t: 'event',
        a: 'put',
        rec: makeEvent(101, {
          startLocal: '2024-03-01 10:00:00',
          endLocal: '2024-03-01 11:00:00',
          categoryIds: [2, 1],
          venueIds: [20, 21],
          organizerIds: [31],
        }),
      },
    ]),
    ['count 1', 'event 101'],
    'the event itself and the count of 1 (2 kept its count)',
  );
  assert.equal(
    hear([{ t: 'venue', a: 'delete', id: 21, modified: '2024-05-01 00:00:00', modifiedUtc: '2024-05-01 04:00:00' }]),
    ['event 101', 'post 21'],
    'the venue and the event it was unlinked from',
  );
  assert.equal(
    hear([{ t: 'organizer', a: 'put', rec: { ...e.organizer(31)!, title: 'Renamed' } }]),
    ['embedded 100', 'embedded 101', 'post 31'],
    'an organizer edit: its piece, and the events embedding it (not their own fields)',
  );
  const before = e.linkedEventRows('category', 2).map((r) => e.eventId(r));
  const heardDelete = hear([{ t: 'term', a: 'delete', id: 2 }]);
  for (const id of before) assert.ok(heardDelete.includes(`event ${id}`), `~> event ${id} lost the term`);
  assert.ok(heardDelete.includes('term 2') && heardDelete.includes('term 3'), 'the term and its re-parented child');
  assert.not.ok(heardDelete.includes('term 4'));
  assert.equal(
    hear([{ t: 'event', a: 'delete', id: 100, modified: '2024-05-01 00:00:00', modifiedUtc: '2024-05-01 04:00:00' }]),
    ['count 3', 'count 4', 'event 100'],
  );
});

Counts.run();

// ---
const Ids = suite('ids and counters');

Ids('ids :: counters hand out max(seen)+1 and never reuse', () => {
  const e = new Engine();
  assert.is(e.allocPostId(), 1);
  e.apply([{ t: 'event', a: 'put', rec: makeEvent(50) }]);
  assert.is(e.allocPostId(), 51);
  e.apply([{ t: 'venue', a: 'put', rec: makeVenue(10) }]);
  assert.is(e.allocPostId(), 52, 'a lower id does not move the counter back');
  e.apply([{ t: 'event', a: 'delete', id: 50, modified: '2024-05-01 00:00:00', modifiedUtc: '2024-05-01 04:00:00' }]);
  assert.is(e.allocPostId(), 53);
  e.apply([
    { t: 'term', a: 'put', rec: makeTerm(7) },
    { t: 'term', a: 'delete', id: 7 },
  ]);
  assert.is(e.allocTermId(), 8);
  assert.is(e.allocTermId(), 9);
  e.bulkLoad({
    events: [makeEvent(900)],
    venues: [],
    organizers: [],
    terms: [makeTerm(40)],
    attachments: [{ id: 950, authorId: 1, url: 'u', extension: 'jpg', date: '', dateUtc: '' }],
  });
  assert.is(e.allocPostId(), 951);
  assert.is(e.allocTermId(), 41);
  assert.is(e.postKind(950), 'attachment');
  assert.is(e.postKind(50), 'event');
  assert.is(e.postKind(10), 'venue');
  assert.is(e.postKind(51), undefined);
  assert.is(e.attachmentByUrl('u')!.id, 950);
});

Ids('ids :: bulk load refuses existing ids', () => {
  const e = seeded();
  assert.throws(
    () => e.bulkLoad({ events: [makeEvent(100)], venues: [], organizers: [], terms: [], attachments: [] }),
    /existing id 100/,
  );
  assert.throws(
    () => e.bulkLoad({ events: [], venues: [], organizers: [], terms: [makeTerm(1)], attachments: [] }),
    /existing id 1/,
  );
});

Ids('ids :: terms by name follow renames, deletes and namesakes (lowest id first)', () => {
  const e = seeded();
  e.apply([{ t: 'term', a: 'put', rec: makeTerm(3, { parent: 2, name: 'Renamed' }) }]);
  assert.is(e.termByName('tribe_events_cat', 'term 3'), undefined);
  assert.is(e.termByName('tribe_events_cat', 'RENAMED')!.id, 3);
  e.apply([
    { t: 'term', a: 'put', rec: makeTerm(7, { name: 'renamed' }) },
    { t: 'term', a: 'put', rec: makeTerm(5, { name: 'Renamed' }) },
  ]);
  assert.is(e.termByName('tribe_events_cat', 'renamed')!.id, 3);
  assert.is(e.termByName('tribe_events_cat', 'renamed', 0)!.id, 5);
  assert.is(e.termByName('post_tag', 'renamed'), undefined);
  e.apply([
    { t: 'term', a: 'delete', id: 3 },
    { t: 'term', a: 'delete', id: 5 },
  ]);
  assert.is(e.termByName('tribe_events_cat', 'renamed')!.id, 7);
  e.apply([{ t: 'term', a: 'delete', id: 7 }]);
  assert.is(e.termByName('tribe_events_cat', 'renamed'), undefined);
});

Ids('ids :: small tables lookups', () => {
  const e = seeded();
  assert.is(e.termBySlug('tribe_events_cat', 'term-2')!.id, 2);
  assert.is(e.termBySlug('post_tag', 'term-2'), undefined);
  assert.is(e.termByName('tribe_events_cat', 'TERM 3')!.id, 3);
  assert.is(e.termByName('tribe_events_cat', 'term 3', 1), undefined);
  assert.is(e.termByName('tribe_events_cat', 'term 3', 2)!.id, 3);
  assert.equal(
    [...e.terms('tribe_events_cat')].map((t) => t.id),
    [1, 2, 3],
  );
  assert.equal(e.termChildren(1), [2]);
  assert.is(e.organizerBySlug('organizer-30')!.id, 30);
  assert.equal([...e.venues()].map((v) => v.id).sort(), [20, 21]);
  assert.is(e.venue(99), undefined);
});

Ids.run();

// ---
const Bulk = suite('bulk load');

Bulk('bulk load :: equals the same records applied one by one', () => {
  const records = [
    makeEvent(10, {
      startLocal: '2024-03-05 10:00:00',
      endLocal: '2024-03-05 10:00:00',
      categoryIds: [1],
      venueIds: [5, 6],
    }),
    makeEvent(11, { startLocal: '2024-03-05 10:00:00', endLocal: '2024-03-06 10:00:00', tagIds: [2], parentId: 10 }),
    makeEvent(12, {
      startLocal: '2024-01-05 10:00:00',
      endLocal: '2024-01-05 10:00:00',
      categoryIds: [1],
      organizerIds: [7],
      date: '0000-00-00 00:00:00',
      dateUtc: '0000-00-00 00:00:00',
    }),
  ];
  const terms = [makeTerm(1), makeTerm(2, { taxonomy: 'post_tag' })];
  const venues = [makeVenue(5, { geoLat: 1, geoLng: 1 }), makeVenue(6)];
  const organizers = [makeOrganizer(7)];
  const a = new Engine();
  a.bulkLoad({ events: records, venues, organizers, terms, attachments: [] });
  const b = new Engine();
  const ops: Op[] = [
    ...terms.map((rec): Op => ({ t: 'term', a: 'put', rec })),
    ...venues.map((rec): Op => ({ t: 'venue', a: 'put', rec })),
    ...organizers.map((rec): Op => ({ t: 'organizer', a: 'put', rec })),
    ...records.map((rec): Op => ({ t: 'event', a: 'put', rec })),
  ];
  b.apply(ops);
  for (const engine of [a, b]) {
    assert.equal(list(engine), [12, 10, 11]);
    assert.equal(list(engine, { parentId: 10 }), [11]);
    assert.equal(list(engine, { geo: { kind: 'has-coords', value: true } }), [10]);
    assert.equal(idsOf(engine, engine.linkedEventRows('category', 1)), [12, 10]);
    assert.is(engine.termCount(1), 2);
    assert.equal(engine.eventRecord(engine.eventRow(12)), records[2]);
    assert.equal(list(engine, { includeIds: [11, 12, 10, 10] }), [12, 10, 11]);
  }
  for (let r = 0; r < 3; r++) assert.equal(a.eventRecord(r), b.eventRecord(r));
});

Bulk.run();
