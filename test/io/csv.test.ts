// CSV files as The Events Calendar's importer reads them, saved by a spreadsheet: BOM, CRLF,
// `;` separators, quoted fields with separators, quotes and newlines inside.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CalendarError } from '../../src/index.ts';
import { makeCalendar, rejects } from '../helpers/calendar.ts';
import { main } from '../../src/cli/main.ts';
import { memoryIo } from '../cli/io.ts';

const csv = suite('csv import');
const FIXTURES = fileURLToPath(new URL('../fixtures/csv/', import.meta.url));
type Obj = Record<string, unknown>;

csv('an Excel-style events file (BOM, CRLF, ;): events with venues, organizers and terms by name', async () => {
  const { cal } = await makeCalendar({ timezone: 'America/New_York' });
  const existing = await cal.venues.create({ venue: 'Le Duc', city: 'Paris' });
  const summary = await cal.importCsv(path.join(FIXTURES, 'events-excel.csv'));
  assert.equal([summary.events, summary.venues, summary.organizers], [3, 1, 2], 'Le Duc exists; the market place and two organizers are new');
  const all = (await cal.events.list({ start_date: '2030-01-01', end_date: '2031-01-01', per_page: 10 })).items as Obj[];
  assert.equal(all.map((e) => e.title), ['Jazz night', 'Market', 'Run']);
  const [jazz, market, run] = all;
  assert.equal([jazz.start_date, jazz.end_date, jazz.timezone], ['2030-03-01 20:00:00', '2030-03-01 23:00:00', 'Europe/Paris']);
  assert.is(jazz.description, '<p>Two sets;<br />\nbring friends</p>', 'a quoted field with the separator and a newline');
  assert.is((jazz.venue as Obj).id, existing.id, 'matched by name');
  assert.equal((jazz.organizer as Obj[]).map((o) => o.organizer), ['Night Owls', 'Jazz Club']);
  assert.equal((jazz.categories as Obj[]).map((c) => c.name), ['Jazz', 'Music']);
  assert.equal((jazz.tags as Obj[]).map((c) => c.name), ['indoor', 'late']);
  assert.equal([jazz.cost, jazz.featured, jazz.website], ['15€', true, 'https://example.org/jazz']);
  assert.equal([market.all_day, market.start_date, market.end_date], [true, '2030-03-02 00:00:00', '2030-03-02 23:59:59'], 'm/d/Y, all day');
  assert.is(market.description, '<p>Fresh &#8220;local&#8221; food</p>');
  assert.is((market.venue as Obj).venue, 'Place du Marché');
  assert.equal([run.start_date, run.end_date], ['2030-03-03 07:30:00', '2030-03-03 07:30:00'], 'an end before the start is moved to the start');
  assert.is((run.organizer as Obj[])[0].id, (jazz.organizer as Obj[])[0].id, 'one Night Owls, made once');
  await cal.close();
});

csv('venues and organizers files; --type through the command line', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-csv-'));
  const io = memoryIo({}, dir);
  assert.is(await main(['import', path.join(FIXTURES, 'venues.csv'), '--type', 'venues', '--data', 'store'], io), 0, io.err());
  assert.match(io.out(), /^imported 0 events, 1 venues, 0 organizers, 0 categories, 0 tags/);
  fs.writeFileSync(path.join(dir, 'orgs.csv'), 'Organizer Name,Organizer Email,Organizer Phone\nNight Owls,hello@example.org,123\n');
  const io2 = memoryIo({}, dir);
  assert.is(await main(['import', 'orgs.csv', '--type', 'organizers', '--data', 'store'], io2), 0, io2.err());
  const bad = memoryIo({}, dir);
  assert.is(await main(['import', 'orgs.csv', '--type', 'people', '--data', 'store'], bad), 2);
});

csv('a bad row is named with its row number and nothing is imported', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-csv-'));
  const cases: Array<[string, RegExp]> = [
    ['Event Name,Event Start Date\nA,2030-01-01\nB,not a date\n', /row 3: "Event Start Date" "not a date" is not a date/],
    ['Event Name,Event Start Date\nA,2030-01-01\nB,2030-01-02,extra\n', /row 3: 3 fields where the header row has 2|line 3/],
    ['Event Name,Event Start Date\nA,\n', /row 2: "Event Start Date" is empty/],
    ['Name,Start\nA,2030-01-01\n', /row 1: no "Event Name" column/],
    ['Event Name,Event Start Date,Event Time Zone\nA,2030-01-01,Mars/Base\n', /row 2: "Event Time Zone" "Mars\/Base" is not a time zone/],
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

csv.run();
