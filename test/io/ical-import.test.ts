// .ics files as Google Calendar and Outlook export them, imported: zones, all-day dates,
// recurring events expanded with their exceptions and overrides, venues/organizers/categories.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeCalendar, rejects } from '../helpers/calendar.ts';
import { main } from '../../src/cli/main.ts';
import { memoryIo } from '../cli/io.ts';

const ics = suite('ics import');
const FIXTURES = fileURLToPath(new URL('../fixtures/ics/', import.meta.url));
type Obj = Record<string, unknown>;
const wide = { start_date: '2030-01-01', end_date: '2031-01-01', per_page: 50 };

ics('a Google Calendar export: a weekly series with an EXDATE and an override, all day, UTC; venue, organizer, categories', async () => {
  const { cal } = await makeCalendar({ timezone: 'America/New_York' });
  const summary = await cal.importIcs(path.join(FIXTURES, 'google.ics'), { horizon: new Date('2031-01-01') });
  assert.equal([summary.events, summary.venues, summary.organizers, summary.categories], [6, 1, 1, 2]);
  const events = (await cal.events.list(wide)).items as Obj[];
  const jams = events.filter((e) => String(e.title).startsWith('Weekly jam'));
  assert.equal(jams.map((e) => e.start_date), ['2030-03-04 19:00:00', '2030-03-18 20:00:00', '2030-03-25 19:00:00', '2030-04-01 19:00:00'],
    '5 Mondays, the 11th excluded, the 18th moved');
  assert.equal(jams.map((e) => e.timezone), ['Europe/Paris', 'Europe/Paris', 'Europe/Paris', 'Europe/Paris']);
  assert.is(jams[1].title, 'Weekly jam (late edition)');
  assert.is(jams[0].utc_start_date, '2030-03-04 18:00:00', 'CET');
  assert.is(jams[3].utc_start_date, '2030-04-01 17:00:00', 'CEST after the change');
  assert.match(String(jams[0].description), /folded over two lines by Google/, 'an unfolded line');
  const venue = jams[0].venue as Obj;
  assert.equal([venue.venue, venue.geo_lat, venue.geo_lng], ['Le Duc des Lombards', 48.8594, 2.3484]);
  assert.is((jams[1].venue as Obj).id, venue.id, 'the same venue by name');
  assert.equal((jams[0].organizer as Obj[]).map((o) => [o.organizer, o.email]), [['Night Owls', 'owls@example.org']]);
  assert.equal((jams[0].categories as Obj[]).map((c) => c.name), ['Jazz', 'Music']);
  const fest = events.find((e) => e.title === 'Spring festival')!;
  assert.equal([fest.all_day, fest.start_date, fest.end_date], [true, '2030-03-20 00:00:00', '2030-03-21 23:59:59'], 'DTEND exclusive');
  const utc = events.find((e) => e.title === 'Call in UTC')!;
  assert.equal([utc.timezone, utc.start_date], ['America/New_York', '2030-03-25 13:00:00'], 'a UTC time in the site zone');
  await cal.close();
});

ics('an Outlook export: a Windows zone name is converted through its VTIMEZONE', async () => {
  const { cal } = await makeCalendar({ timezone: 'UTC' });
  await cal.importIcs(path.join(FIXTURES, 'outlook.ics'));
  const [meeting] = (await cal.events.list(wide)).items as Obj[];
  assert.equal([meeting.title, meeting.start_date, meeting.timezone], ['Board meeting', '2030-04-02 07:00:00', 'UTC'], '09:00 CEST');
  assert.is((meeting.venue as Obj).venue, 'Room 4');
  await cal.close();
});

ics('the horizon bounds a series; a broken file imports nothing', async () => {
  const { cal } = await makeCalendar();
  const s = await cal.importIcs(path.join(FIXTURES, 'google.ics'), { horizon: new Date('2030-03-20') });
  assert.is(s.events, 2 + 2, 'the series up to the horizon (the 4th and the moved 18th), and the two single events');
  const jams = ((await cal.events.list(wide)).items as Obj[]).filter((e) => String(e.title).startsWith('Weekly jam'));
  assert.equal(jams.map((e) => e.start_date), ['2030-03-04 19:00:00', '2030-03-18 20:00:00']);
  await cal.close();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-ics-'));
  const file = path.join(dir, 'broken.ics');
  fs.writeFileSync(file, 'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:half');
  const { cal: c2 } = await makeCalendar();
  await rejects(c2.importIcs(file), 'rest_invalid_param', 400);
  assert.ok(c2.isEmpty());
  fs.writeFileSync(file, 'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:no start\r\nUID:x\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n');
  const e = await rejects(c2.importIcs(file), 'rest_invalid_param', 400);
  assert.match(e.message, /VEVENT 1 \(UID x\): no DTSTART/);
  await c2.close();
});

ics('through the command line: .ics by its name, --horizon checked', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-ics-'));
  const io = memoryIo({}, dir);
  assert.is(await main(['import', path.join(FIXTURES, 'outlook.ics'), '--data', 'store', '--horizon', '6m'], io), 0, io.err());
  assert.match(io.out(), /^imported 1 events, 1 venues, 0 organizers, 0 categories, 0 tags/);
  const bad = memoryIo({}, dir);
  assert.is(await main(['import', path.join(FIXTURES, 'outlook.ics'), '--data', 'store', '--horizon', 'forever'], bad), 2);
  assert.match(bad.err(), /--horizon: expected a number of years or months/);
});

ics.run();
