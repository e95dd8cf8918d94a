// Imports fill a staging table row by row (src/import/index.ts, EventTable.appendStaged) that joins
// the calendar at the end: a failure found late (a bad record near the end of a large file, or a
// link checked once every record is in) must leave the calendar and its store as they were, and
// a successful import must give the same calendar whether the calendar was empty (the staged
// columns are moved in) or not (they are copied after the existing rows).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openCalendar, type Calendar } from '../../src/calendar.ts';
import { CalendarError } from '../../src/api/wordpress/errors.ts';
import { validUrl } from '../../src/import/index.ts';
import { isValidUrl } from '../../src/api/wordpress/text.ts';

const imp = suite('import :: staging');

const ADMIN = { role: 'administrator' } as const;
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'ce-import-'));

const venue = (id: number) => ({
  id,
  author: 1,
  status: 'publish',
  date: '2030-01-01 10:00:00',
  venue: `Hall ${id}`,
  slug: `hall-${id}`,
  description: '',
  address: '',
  city: 'Paris',
  country: 'France',
  province: '',
  state: '',
  zip: '',
  phone: '',
  website: '',
  show_map: true,
  show_map_link: true,
  geo_lat: 48.85,
  geo_lng: 2.35,
});

const event = (id: number, over: Record<string, unknown> = {}) => ({
  id,
  author: 1,
  status: 'publish',
  date: '2030-01-01 10:00:00',
  title: `Event ${id} caf\u00e9`,
  slug: `event-${id}`,
  description: `About ${id}`,
  excerpt: '',
  timezone: id % 2 ? 'Europe/Paris' : 'America/New_York',
  all_day: id % 7 === 0,
  start_date: `2030-03-${String(1 + (id % 28)).padStart(2, '0')} 10:00:00`,
  end_date: `2030-03-${String(1 + (id % 28)).padStart(2, '0')} 12:30:00`,
  cost: id % 3 ? '10' : '5 - 15',
  website: '',
  show_map: true,
  show_map_link: true,
  hide_from_listings: false,
  sticky: false,
  featured: id % 5 === 0,
  ticketed: false,
  categories: [1],
  tags: id % 2 ? [2] : [],
  venue: 10,
  organizer: [],
  ...over,
});

const terms = {
  categories: [{ id: 1, name: 'Music', slug: 'music', description: '', parent: 0 }],
  tags: [
    { id: 2, name: 'Free', slug: 'free', description: '' },
    { id: 3, name: 'Kids', slug: 'kids', description: '' },
  ],
};

/** The import shape in the export layout: one record a line (the reader's fast path). */
function fileOf(dir: string, data: Record<string, unknown[]>): string {
  const file = path.join(dir, `cal-${Math.random().toString(36).slice(2)}.json`);
  const lists = Object.entries(data).map(
    ([k, list]) => `"${k}":[\n${list.map((r) => JSON.stringify(r)).join(',\n')}\n]`,
  );
  fs.writeFileSync(file, `{\n${lists.join(',\n')}\n}\n`);
  return file;
}

async function failure(p: Promise<unknown>): Promise<CalendarError> {
  try {
    await p;
  } catch (e) {
    assert.instance(e, CalendarError);
    return e as CalendarError;
  }
  assert.unreachable('the import succeeded');
  throw new Error('unreachable');
}

/** What a reader sees of the calendar: every list as an editor reads it, and the export. */
async function view(cal: Calendar): Promise<string> {
  const lists = (await cal.events.list({ per_page: 50, start_date: '2000-01-01' }, ADMIN)).items.map(
    (e) => `${e.id}:${e.title}:${e.start_date}:${e.utc_start_date}:${e.cost}`,
  );
  return JSON.stringify({
    lists,
    venue: cal.engine.linkedEventRows('venue', 10).length,
    cat: cal.engine.termCount(1),
    tag: cal.engine.termCount(2),
    // by kind and id: a snapshot holds the events in (start, id) order, an import's in the file's
    export: [...cal.export()].sort((x, y) => {
      const [a, b] = [x as { type: string; id: number }, y as { type: string; id: number }];
      return a.type < b.type ? -1 : a.type > b.type ? 1 : a.id - b.id;
    }),
  });
}

imp(
  'a bad record near the end of a large file imports nothing: the calendar and its store are as they were',
  async () => {
    const dir = tmp(),
      store = path.join(dir, 'store');
    const cal = await openCalendar({ dir: store, timezone: 'Europe/Paris' });
    await cal.importFile(fileOf(dir, { ...terms, venues: [venue(10)], events: [event(100), event(101)] }));
    const before = await view(cal);
    const events = Array.from({ length: 3000 }, (_, i) => event(1000 + i));
    events[2990] = event(3990, { start_date: 'not a date' });
    const file = fileOf(dir, { events });
    const err = await failure(cal.importFile(file));
    // '{' and the list's key take lines 1 and 2, then one record a line: events[2990] is on line 2993
    assert.match(err.message, /events\[2990\] \(id 3990\) at line 2993: start_date is not a valid date/);
    assert.is(cal.engine.eventRowCount, 2);
    assert.is(await view(cal), before);
    // a link checked once every record is in (after all 3000 rows were staged)
    events[2990] = event(3990, { venue: 77 });
    const err2 = await failure(cal.importFile(fileOf(dir, { events })));
    assert.match(err2.message, /events\[2990\] \(id 3990\) at line 2993: venue 77 does not exist/);
    assert.is(await view(cal), before);
    // the ids of the failed imports are free, and the store holds what it held
    events[2990] = event(3990);
    await cal.close();
    const again = await openCalendar({ dir: store, timezone: 'Europe/Paris' });
    try {
      assert.is(await view(again), before);
      const summary = await again.importFile(fileOf(dir, { events }));
      assert.is(summary.events, 3000);
      assert.is(again.engine.eventRowCount, 3002);
    } finally {
      await again.close();
    }
  },
);

imp(
  'an import into a calendar with events (rows copied after them) equals one into an empty calendar (rows moved in)',
  async () => {
    const dir = tmp();
    const first = [event(100), event(101, { venue: 0, categories: [], tags: [] })];
    const rest = Array.from({ length: 300 }, (_, i) =>
      event(200 + i, i % 50 === 0 ? { date: '0999-05-01 10:00:00', tags: [3, 2] } : {}),
    );
    const twoSteps = await openCalendar({ timezone: 'Europe/Paris' });
    await twoSteps.importFile(fileOf(dir, { ...terms, venues: [venue(10)], events: first }));
    await twoSteps.events.create(
      { title: 'Made by hand', start_date: '2030-03-05 09:00:00', end_date: '2030-03-05 10:00:00', venue: 10 },
      ADMIN,
    );
    await twoSteps.importFile(fileOf(dir, { events: rest }));
    const oneStep = await openCalendar({ timezone: 'Europe/Paris' });
    await oneStep.importFile(fileOf(dir, { ...terms, venues: [venue(10)], events: first }));
    const handMade = await oneStep.events.create(
      { title: 'Made by hand', start_date: '2030-03-05 09:00:00', end_date: '2030-03-05 10:00:00', venue: 10 },
      ADMIN,
    );
    // the same calendar built the other way: the hand-made event last
    const empty = await openCalendar({ timezone: 'Europe/Paris' });
    await empty.importFile(fileOf(dir, { ...terms, venues: [venue(10)], events: [...first, ...rest] }));
    assert.is(twoSteps.engine.eventRowCount, 303);
    assert.is(empty.engine.eventRowCount, 302);
    for (const cal of [twoSteps, empty]) {
      const ev = await cal.events.get(250);
      assert.is(ev.title, 'Event 250 caf\u00e9');
      assert.is(ev.utc_start_date, '2030-03-27 14:00:00'); // 10:00 in New York (EDT)
      assert.is((ev.venue as { id: number }).id, 10);
      assert.is(cal.engine.eventRecord(cal.engine.eventRow(200)).date, '0999-05-01 10:00:00');
    }
    assert.is(twoSteps.engine.termCount(1), empty.engine.termCount(1));
    assert.is(
      twoSteps.engine.linkedEventRows('venue', 10).length,
      empty.engine.linkedEventRows('venue', 10).length + 1,
    );
    const exportOf = (cal: Calendar) =>
      [...cal.export()].filter((r) => r.type !== 'event' || r.id !== handMade.id).map((r) => JSON.stringify(r));
    assert.equal(exportOf(twoSteps), exportOf(empty));
    for (const cal of [twoSteps, oneStep, empty]) await cal.close();
  },
);

imp('import(data) and importFile give the same calendar', async () => {
  const dir = tmp();
  const data = { ...terms, venues: [venue(10)], events: Array.from({ length: 50 }, (_, i) => event(100 + i)) };
  const a = await openCalendar({ timezone: 'Europe/Paris' });
  const b = await openCalendar({ timezone: 'Europe/Paris' });
  assert.equal(await a.import(structuredClone(data)), await b.importFile(fileOf(dir, data)));
  assert.is(await view(a), await view(b));
  await a.close();
  await b.close();
});

imp(
  'alone (the import command): indexes built by the first read, the snapshot the same as after an ordinary import',
  async () => {
    const dir = tmp();
    const data = { ...terms, venues: [venue(10)], events: Array.from({ length: 120 }, (_, i) => event(100 + i)) };
    const file = fileOf(dir, data);
    const [a, b] = [path.join(dir, 'a'), path.join(dir, 'b')];
    const alone = await openCalendar({ dir: a, timezone: 'Europe/Paris' });
    const usual = await openCalendar({ dir: b, timezone: 'Europe/Paris' });
    await alone.importFile(file, { alone: true });
    await usual.importFile(file);
    assert.is(await view(alone), await view(usual)); // the first list builds the deferred indexes
    assert.is((await alone.categories.get(1)).count, 120);
    await alone.close();
    await usual.close();
    const [ra, rb] = [
      await openCalendar({ dir: a, timezone: 'Europe/Paris' }),
      await openCalendar({ dir: b, timezone: 'Europe/Paris' }),
    ];
    assert.is(await view(ra), await view(rb));
    await ra.close();
    await rb.close();
  },
);

/** A store's snapshot as text: its parts' lines in the manifest's order. The has-coordinates bit
 *  of the events' flags (128) is left out: a load derives it from the venues, and an import alone
 *  leaves it to the first read that builds the indexes. */
function snapshotText(store: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(store, 'snapshot.json'), 'utf8')) as {
    parts: { file: string }[];
  };
  const text = manifest.parts.map((p) => fs.readFileSync(path.join(store, p.file), 'latin1')).join('');
  return text.replace(
    /"flags":\[([\d,]*)\]/g,
    (_, flags: string) =>
      `"flags":[${flags
        .split(',')
        .map((f) => Number(f) & 127)
        .join(',')}]`,
  );
}

imp(
  'alone into an empty store: the streamed snapshot holds the rows in index order, the lists and block statistics; a late failure leaves nothing',
  async () => {
    const dir = tmp();
    // more than two events chunks (10,000 rows each), some with an odd date, several venues, lineage
    const events = Array.from({ length: 20_500 }, (_, i) =>
      event(
        100 + ((i * 7919) % 20_500),
        i % 997 === 0 ? { date: '0999-05-01 10:00:00', venue: [10, 11], global_id_lineage: ['a', 'b'] } : {},
      ),
    );
    const file = fileOf(dir, { ...terms, venues: [venue(10), venue(11)], events });
    const [a, b] = [path.join(dir, 'a'), path.join(dir, 'b')];
    const streamed = await openCalendar({ dir: a, timezone: 'Europe/Paris' });
    const usual = await openCalendar({ dir: b, timezone: 'Europe/Paris' });
    await streamed.importFile(file, { alone: true });
    await usual.importFile(file);
    await streamed.close();
    await usual.close();
    assert.ok(
      fs.readdirSync(a).filter((f) => f.endsWith('.jsonl') && f.startsWith('snapshot.')).length >= 2,
      'a head part and the streamed part',
    );
    const lines = snapshotText(a).split('\n');
    const typed = (text: string, type: string) => text.split('\n').filter((l) => l.startsWith(`{"type":"${type}"`));
    assert.ok(typed(lines.join('\n'), 'postingRows').length > 0, 'the posting rows');
    assert.is(typed(lines.join('\n'), 'postings').length, 6, 'the posting lists of every kind');
    assert.is(typed(lines.join('\n'), 'block-stats').length, 1, 'the block statistics');
    assert.ok(typed(lines.join('\n'), 'link-lists').length > 0, 'the link lists');
    assert.is(typed(lines.join('\n'), 'events').length, 3);
    // the events lines are those of the usual import's snapshot (rows in (start, id) order)
    assert.equal(typed(lines.join('\n'), 'events'), typed(snapshotText(b), 'events'));
    const [ra, rb] = [
      await openCalendar({ dir: a, timezone: 'Europe/Paris' }),
      await openCalendar({ dir: b, timezone: 'Europe/Paris' }),
    ];
    // loaded: the rows are in the main index's order, the statistics fresh without a refresh
    const st = ra.engine.state;
    assert.ok(
      st.main.rows.subarray(0, st.main.count).every((r, i) => r === i),
      'rows in the index order',
    );
    assert.is(st.blocks.dirty, false, 'the block statistics read from the snapshot');
    assert.is(await view(ra), await view(rb));
    await ra.close();
    await rb.close();
    const reopened = await openCalendar({ dir: a, timezone: 'Europe/Paris' });
    assert.is(reopened.engine.eventRowCount, 20_500);
    await reopened.close();
    // a record that fails after two chunks were handed to the writer: no part is left, the store is empty
    const c = path.join(dir, 'c');
    const bad = events.slice();
    bad[20_400] = event(20_500, { start_date: 'not a date' });
    const failing = await openCalendar({ dir: c, timezone: 'Europe/Paris' });
    const err = await failure(
      failing.importFile(fileOf(dir, { ...terms, venues: [venue(10), venue(11)], events: bad }), { alone: true }),
    );
    assert.match(err.message, /events\[20400\] \(id 20500\)/);
    assert.is(failing.engine.eventRowCount, 0);
    assert.equal(
      fs.readdirSync(c).filter((f) => f.startsWith('snapshot.')),
      [],
    );
    await failing.close();
  },
);

imp('slugs are made unique against the calendar and the file (-2, -3...)', async () => {
  const dir = tmp();
  const cal = await openCalendar({ timezone: 'Europe/Paris' });
  await cal.importFile(fileOf(dir, { ...terms, venues: [venue(10)], events: [event(100, { slug: 'party' })] }));
  await cal.importFile(
    fileOf(dir, {
      events: [
        event(101, { slug: 'party' }),
        event(102, { slug: 'party' }),
        event(103, { slug: 'party-2' }),
        event(104, { slug: 'other' }),
      ],
    }),
  );
  const slugs = [100, 101, 102, 103, 104].map((id) => cal.engine.eventRecord(cal.engine.eventRow(id)).slug);
  assert.equal(slugs, ['party', 'party-2', 'party-3', 'party-2-2', 'other']);
  await cal.close();
});

imp(
  'links in every shape an import accepts: ids, lists of ids (duplicates and 0 dropped), id strings, {id} objects',
  async () => {
    const dir = tmp();
    const cal = await openCalendar({ timezone: 'Europe/Paris' });
    const shapes: [Record<string, unknown>, number[], number[]][] = [
      [{ venue: 10, tags: [2, 3] }, [10], [2, 3]],
      [{ venue: [10], tags: [3, 2, 3, 0] }, [10], [3, 2]],
      [{ venue: '10', tags: '2, 3' }, [10], [2, 3]],
      [{ venue: { id: 10 }, tags: [{ id: 3 }, '2'] }, [10], [3, 2]],
      [{ venue: 0, tags: [] }, [], []],
    ];
    await cal.importFile(
      fileOf(dir, { ...terms, venues: [venue(10)], events: shapes.map(([over], i) => event(100 + i, over)) }),
    );
    shapes.forEach(([over, venues, tags], i) => {
      const rec = cal.engine.eventRecord(cal.engine.eventRow(100 + i));
      assert.equal([rec.venueIds, rec.tagIds], [venues, tags], JSON.stringify(over));
    });
    const err = await failure(cal.importFile(fileOf(dir, { events: [event(200, { tags: [2, 1.5] })] })));
    assert.match(err.message, /tags 1.5 does not exist/);
    await cal.close();
  },
);

imp('validUrl (the fast path for plain URLs) answers as isValidUrl does', () => {
  const pieces = [
    'a',
    'z',
    'tickets',
    'example',
    '0',
    '9',
    '-',
    '.',
    '..',
    ':',
    ':80',
    ':8080',
    ':99999',
    '/',
    '/e/',
    '_',
    '~',
    'xn--',
    'xn--p1ai',
    'A',
    '%',
    ' ',
    '?q=1',
    '#f',
    '@',
    '1.2.3.4',
    '256',
    '[::1]',
  ];
  let seed = 7;
  const rand = (n: number) => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
  const urls = [
    'https://tickets.example.com/e/3005',
    'http://a.b:9999/x',
    'http://999.1.1.1/',
    'http://1.2.3.4/',
    'http://xn--a.com/',
    'http://a-.b-/',
  ];
  for (let i = 0; i < 3000; i++) {
    let s = rand(2) ? 'https://' : 'http://';
    for (let k = 1 + rand(6); k > 0; k--) s += pieces[rand(pieces.length)];
    urls.push(s);
  }
  let fast = 0;
  for (const u of urls) {
    assert.is(validUrl(u), isValidUrl(u), u);
    if (validUrl(u)) fast++;
  }
  assert.ok(fast > 300, `${fast} valid URLs among the generated ones`);
});

imp.run();
