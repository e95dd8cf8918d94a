// CSV files as The Events Calendar's importer reads them, saved by a spreadsheet: BOM, CRLF,
// `;` separators, quoted fields with separators, quotes and newlines inside.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CalendarError, openCalendar } from '../../src/index.ts';
import { makeCalendar, rejects } from '../helpers/calendar.ts';
import { main } from '../../src/cli/main.ts';
import { memoryIo } from '../cli/io.ts';

const csv = suite('csv import');
const FIXTURES = fileURLToPath(new URL('../fixtures/csv', import.meta.url));
type Obj = Record<string, unknown>;

csv('an Excel-style events file (BOM, CRLF, ;): events with venues, organizers and terms by name', async () => {
  const { cal } = await makeCalendar({ timezone: 'America/New_York' });
  const existing = await cal.venues.create({ venue: 'Le Duc', city: 'Paris' });
  const summary = await cal.importCsv(path.join(FIXTURES, 'events-excel.csv'));
  assert.equal(
    [summary.events, summary.venues, summary.organizers],
    [3, 1, 2],
    'Le Duc exists; the market place and two organizers are new',
  );
  const all = (await cal.events.list({ start_date: '2030-01-01', end_date: '2031-01-01', per_page: 10 }))
    .items as Obj[];
  assert.equal(
    all.map((e) => e.title),
    ['Jazz night', 'Market', 'Run'],
  );
  const [jazz, market, run] = all;
  assert.equal(
    [jazz.start_date, jazz.end_date, jazz.timezone],
    ['2030-03-01 20:00:00', '2030-03-01 23:00:00', 'Europe/Paris'],
  );
  assert.is(
    jazz.description,
    '<p>Two sets;<br />\nbring friends</p>',
    'a quoted field with the separator and a newline',
  );
  assert.is((jazz.venue as Obj).id, existing.id, 'matched by name');
  assert.equal(
    (jazz.organizer as Obj[]).map((o) => o.organizer),
    ['Night Owls', 'Jazz Club'],
  );
  assert.equal(
    (jazz.categories as Obj[]).map((c) => c.name),
    ['Jazz', 'Music'],
  );
  assert.equal(
    (jazz.tags as Obj[]).map((c) => c.name),
    ['indoor', 'late'],
  );
  assert.equal([jazz.cost, jazz.featured, jazz.website], ['15€', true, 'https://example.org/jazz']);
  assert.equal(
    [market.all_day, market.start_date, market.end_date],
    [true, '2030-03-02 00:00:00', '2030-03-02 23:59:59'],
    'm/d/Y, all day',
  );
  assert.is(market.description, '<p>Fresh &#8220;local&#8221; food</p>');
  assert.is((market.venue as Obj).venue, 'Place du Marché');
  assert.equal(
    [run.start_date, run.end_date],
    ['2030-03-03 07:30:00', '2030-03-03 07:30:00'],
    'an end before the start is moved to the start',
  );
  assert.is((run.organizer as Obj[])[0].id, (jazz.organizer as Obj[])[0].id, 'one Night Owls, made once');
  await cal.close();
});

csv('venues and organizers files; --type through the command line', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-csv-'));
  const io = memoryIo({}, dir);
  assert.is(
    await main(['import', path.join(FIXTURES, 'venues.csv'), '--type', 'venues', '--data', 'store'], io),
    0,
    io.err(),
  );
  assert.match(io.out(), /^imported 0 events, 1 venues, 0 organizers, 0 categories, 0 tags/);
  fs.writeFileSync(
    path.join(dir, 'orgs.csv'),
    'Organizer Name,Organizer Email,Organizer Phone\nNight Owls,hello@example.org,123\n',
  );
  const io2 = memoryIo({}, dir);
  assert.is(await main(['import', 'orgs.csv', '--type', 'organizers', '--data', 'store'], io2), 0, io2.err());
  const bad = memoryIo({}, dir);
  assert.is(await main(['import', 'orgs.csv', '--type', 'people', '--data', 'store'], bad), 2);
});

csv('a bad row is named with its row number and nothing is imported', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-csv-'));
  const cases: Array<[string, RegExp]> = [
    [
      'Event Name,Event Start Date\nA,2030-01-01\nB,not a date\n',
      /row 3: "Event Start Date" "not a date" is not a date/,
    ],
    [
      'Event Name,Event Start Date\nA,2030-01-01\nB,2030-01-02,extra\n',
      /row 3: 3 fields where the header row has 2|line 3/,
    ],
    ['Event Name,Event Start Date\nA,\n', /row 2: "Event Start Date" is empty/],
    ['Name,Start\nA,2030-01-01\n', /row 1: no "Event Name" column/],
    [
      'Event Name,Event Start Date,Event Time Zone\nA,2030-01-01,Mars/Base\n',
      /row 2: "Event Time Zone" "Mars\/Base" is not a time zone/,
    ],
    ['Event Name,Event Start Date,Event Website\nA,2030-01-01,not a url\n', /row 2: website must be a URL/],
    ['Event Name,Event Start Date\n"A,2030-01-01\n', /Quote Not Closed|line/],
    ['', /empty: no header row/],
  ];
  for (const [text, message] of cases) {
    const { cal } = await makeCalendar();
    const file = path.join(dir, 'bad.csv');
    fs.writeFileSync(file, text);
    const e = await rejects(cal.importCsv(file), 'rest_invalid_param', 400);
    assert.match(e.message, message, JSON.stringify(text));
    assert.ok(cal.isEmpty(), `nothing imported for ${JSON.stringify(text)}`);
    assert.instance(e, CalendarError);
    await cal.close();
  }
});

csv(
  'a row matching a published event by title and start (and end; all day: by day) updates it, as the plugin does',
  async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-csv-'));
    const { cal } = await makeCalendar({ timezone: 'America/New_York' });
    const admin = { role: 'administrator' } as const;
    const talk = await cal.events.create(
      { title: 'Talk', start_date: '2030-04-01 18:00:00', end_date: '2030-04-01 19:00:00', cost: '5', author: 1 },
      admin,
    );
    const fair = await cal.events.create(
      { title: 'Fair', start_date: '2030-04-02', end_date: '2030-04-02', all_day: true },
      admin,
    );
    await cal.events.create(
      { title: 'Draft', start_date: '2030-04-03 10:00:00', end_date: '2030-04-03 11:00:00', status: 'draft' },
      admin,
    );
    const file = path.join(dir, 'update.csv');
    fs.writeFileSync(
      file,
      [
        'Event Name,Event Start Date,Event Start Time,Event End Date,Event End Time,All Day Event,Event Cost,Event Venue Name',
        'talk,2030-04-01,6:00 pm,2030-04-01,7:00 pm,,12,Hall', // the same event: title case aside
        'Talk,2030-04-01,6:00 pm,2030-04-01,8:00 pm,,1,', // another end: a new event
        'Fair,04/02/2030,,,,yes,3,', // all day, the same day
        'Draft,2030-04-03,10:00,2030-04-03,11:00,,,', // a draft is not matched
        'New,2030-05-01,9:00,2030-05-01,10:00,,,',
        'new,2030-05-01,9:00,2030-05-01,10:00,,7,', // matches the row above: it updates what that row made
      ].join('\n') + '\n',
    );
    const summary = await cal.importCsv(file);
    assert.equal([summary.events, summary.updated, summary.venues], [3, 2, 1]);
    const updated = await cal.events.get(talk.id as number);
    assert.equal(
      [updated.title, updated.cost, (updated.venue as Obj).venue, updated.slug, updated.date],
      ['talk', '$12', 'Hall', talk.slug, talk.date],
    );
    assert.is((await cal.events.get(fair.id as number)).cost, '$3');
    const all = (await cal.events.list({ start_date: '2030-01-01', end_date: '2031-01-01', per_page: 20 }))
      .items as Obj[];
    assert.equal(
      all.map((e) => `${e.title} ${e.start_date} ${e.end_date} ${e.cost}`),
      [
        'talk 2030-04-01 18:00:00 2030-04-01 19:00:00 $12',
        'Talk 2030-04-01 18:00:00 2030-04-01 20:00:00 $1',
        'Fair 2030-04-02 00:00:00 2030-04-02 23:59:59 $3',
        'Draft 2030-04-03 10:00:00 2030-04-03 11:00:00 ',
        'Draft 2030-04-03 10:00:00 2030-04-03 11:00:00 ',
        'new 2030-05-01 09:00:00 2030-05-01 10:00:00 $7',
      ],
    );
    // the draft stays as it was, and its row made a published event
    assert.equal(
      all.filter((e) => e.title === 'Draft').map((e) => e.status),
      ['draft', 'publish'],
    );
    // the command line says so
    const io = memoryIo({}, dir);
    assert.is(await main(['import', 'update.csv', '--data', 'store'], io), 0, io.err());
    assert.match(io.out(), /^imported 5 events, 1 venues, 0 organizers, 0 categories, 0 tags into store in/);
    const again = memoryIo({}, dir);
    assert.is(await main(['import', 'update.csv', '--data', 'store'], again), 0, again.err());
    assert.match(
      again.out(),
      /^imported 0 events, 0 venues, 0 organizers, 0 categories, 0 tags; updated 5 existing events into store in/,
    );
    const stored = await openCalendar({ dir: path.join(dir, 'store'), timezone: 'America/New_York' });
    assert.is(stored.engine.eventRowCount, 5, 'the updates are in the store, not new events');
    assert.equal(
      (await stored.events.list({ start_date: '2030-05-01', end_date: '2030-05-02' })).items.map((e) => e.cost),
      ['$7'],
    );
    await stored.close();
    await cal.close();
  },
);

csv.run();
