// .ics files as Google Calendar, Outlook and Apple Calendar export them, imported: zones, all-day
// dates, recurring events kept as series with their exclusions and exceptions (overrides),
// venues/organizers/categories.
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
const FIXTURES = fileURLToPath(new URL('../fixtures/ics', import.meta.url));
type Obj = Record<string, unknown>;
const wide = { start_date: '2030-01-01', end_date: '2031-01-01', per_page: 50 };

ics(
  'a Google Calendar export: a weekly series with an EXDATE and an override, all day, UTC; venue, organizer, categories',
  async () => {
    const { cal } = await makeCalendar({ timezone: 'America/New_York' });
    const summary = await cal.importIcs(path.join(FIXTURES, 'google.ics'));
    assert.equal(
      [summary.events, summary.venues, summary.organizers, summary.categories],
      [4, 1, 1, 2],
      'a series, its exception, two events',
    );
    const events = (await cal.events.list(wide)).items as Obj[];
    const jams = events.filter((e) => String(e.title).startsWith('Weekly jam'));
    assert.equal(
      jams.map((e) => e.start_date),
      ['2030-03-04 19:00:00', '2030-03-18 20:00:00', '2030-03-25 19:00:00', '2030-04-01 19:00:00'],
      '5 Mondays, the 11th excluded, the 18th moved',
    );
    assert.equal(
      jams.map((e) => e.timezone),
      ['Europe/Paris', 'Europe/Paris', 'Europe/Paris', 'Europe/Paris'],
    );
    assert.is(jams[1].title, 'Weekly jam (late edition)');
    assert.is(jams[0].utc_start_date, '2030-03-04 18:00:00', 'CET');
    assert.is(jams[3].utc_start_date, '2030-04-01 17:00:00', 'CEST after the change');
    assert.match(String(jams[0].description), /folded over two lines by Google/, 'an unfolded line');
    const venue = jams[0].venue as Obj;
    assert.equal([venue.venue, venue.geo_lat, venue.geo_lng], ['Le Duc des Lombards', 48.8594, 2.3484]);
    assert.is((jams[1].venue as Obj).id, venue.id, 'the same venue by name');
    assert.equal(
      (jams[0].organizer as Obj[]).map((o) => [o.organizer, o.email]),
      [['Night Owls', 'owls@example.org']],
    );
    assert.equal(
      (jams[0].categories as Obj[]).map((c) => c.name),
      ['Jazz', 'Music'],
    );
    const fest = events.find((e) => e.title === 'Spring festival')!;
    assert.equal(
      [fest.all_day, fest.start_date, fest.end_date],
      [true, '2030-03-20 00:00:00', '2030-03-21 23:59:59'],
      'DTEND exclusive',
    );
    const utc = events.find((e) => e.title === 'Call in UTC')!;
    assert.equal(
      [utc.timezone, utc.start_date],
      ['America/New_York', '2030-03-25 13:00:00'],
      'a UTC time in the site zone',
    );
    await cal.close();
  },
);

ics('an Outlook export: a Windows zone name is its IANA zone (CLDR windowsZones)', async () => {
  const { cal } = await makeCalendar({ timezone: 'UTC' });
  await cal.importIcs(path.join(FIXTURES, 'outlook.ics'));
  const [meeting] = (await cal.events.list(wide)).items as Obj[];
  assert.equal(
    [meeting.title, meeting.start_date, meeting.timezone, meeting.utc_start_date],
    ['Board meeting', '2030-04-02 09:00:00', 'Europe/Berlin', '2030-04-02 07:00:00'],
    '09:00 CEST',
  );
  assert.is((meeting.venue as Obj).venue, 'Room 4');
  await cal.close();
});

ics('a series stays one series: its rule and exclusions, its override an exception at its original start', async () => {
  const { cal } = await makeCalendar();
  await cal.importIcs(path.join(FIXTURES, 'google.ics'));
  const jams = ((await cal.events.list(wide)).items as Obj[]).filter((e) => String(e.title).startsWith('Weekly jam'));
  const series = jams[0];
  assert.equal(series.recurrence, {
    rules: ['FREQ=WEEKLY;COUNT=5;BYDAY=MO'],
    rdates: [],
    exdates: ['2030-03-11 19:00:00'],
    text: 'RRULE:FREQ=WEEKLY;COUNT=5;BYDAY=MO\nEXDATE;TZID=Europe/Paris:20300311T190000',
  });
  assert.equal(
    jams.slice(1).map((e) => [e.post_parent, e.recurrence_id, e.is_exception]),
    [
      [series.id, '2030-03-18 19:00:00', true],
      [series.id, '2030-03-25 19:00:00', false],
      [series.id, '2030-04-01 19:00:00', false],
    ],
  );
  // iCalendar out: the series and its exception, not its occurrences
  const text = cal.ical({ start_date: '2030-03-01', end_date: '2030-04-30' });
  assert.is(text.match(/BEGIN:VEVENT/g)!.length, 4, 'series, exception, festival, call');
  assert.match(text, /RRULE:FREQ=WEEKLY;COUNT=5;BYDAY=MO\r\nEXDATE;TZID=Europe\/Paris:20300311T190000\r\n/);
  assert.match(text, /RECURRENCE-ID;TZID=Europe\/Paris:20300318T190000\r\n/);
  await cal.close();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-ics-'));
  const file = path.join(dir, 'broken.ics');
  fs.writeFileSync(file, 'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:half');
  const { cal: c2 } = await makeCalendar();
  await rejects(c2.importIcs(file), 'rest_invalid_param', 400);
  assert.ok(c2.isEmpty());
  fs.writeFileSync(
    file,
    'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:no start\r\nUID:x\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
  );
  const e = await rejects(c2.importIcs(file), 'rest_invalid_param', 400);
  assert.match(e.message, /VEVENT 1 \(UID x\): no DTSTART/);
  await c2.close();
});

ics(
  'an Outlook series: Windows zone times in the site zone, a last-Friday rule with UNTIL, an exclusion, a moved meeting',
  async () => {
    const { cal } = await makeCalendar({ timezone: 'Europe/Berlin' });
    await cal.importIcs(path.join(FIXTURES, 'outlook-recurring.ics'));
    const items = (await cal.events.list(wide)).items as Obj[];
    assert.equal(
      items.map((e) => [e.title, e.start_date]),
      [
        ['Monthly review', '2030-01-25 10:00:00'],
        ['Monthly review', '2030-02-22 10:00:00'],
        ['Monthly review (moved)', '2030-04-26 11:00:00'],
        ['Monthly review', '2030-05-31 10:00:00'],
        ['Monthly review', '2030-06-28 10:00:00'],
      ],
      'March 29 excluded; April moved',
    );
    assert.equal((items[0].recurrence as Obj).rules, ['FREQ=MONTHLY;UNTIL=20300628T080000Z;BYDAY=-1FR']);
    assert.equal(
      [items[2].recurrence_id, items[2].is_exception, (items[2].venue as Obj).venue],
      ['2030-04-26 10:00:00', true, 'Room 7'],
    );
    await cal.close();
  },
);

ics(
  'an Apple Calendar export: an unbounded twice-weekly series in Los Angeles and a yearly all-day birthday',
  async () => {
    const { cal } = await makeCalendar({ timezone: 'UTC' });
    const summary = await cal.importIcs(path.join(FIXTURES, 'apple.ics'));
    assert.is(summary.events, 3);
    const runs = (
      await cal.events.list({ start_date: '2030-03-01', end_date: '2030-03-20', per_page: 50, search: 'run' })
    ).items as Obj[];
    assert.equal(
      runs.map((e) => [e.start_date, e.title]),
      [
        ['2030-03-05 06:30:00', 'Morning run'],
        ['2030-03-07 06:30:00', 'Morning run'],
        ['2030-03-14 06:30:00', 'Morning run (long)'],
        ['2030-03-19 06:30:00', 'Morning run'],
      ],
      'the 12th excluded',
    );
    assert.equal(
      runs.map((e) => e.utc_start_date),
      ['2030-03-05 14:30:00', '2030-03-07 14:30:00', '2030-03-14 13:30:00', '2030-03-19 13:30:00'],
      'PDT from March 10',
    );
    assert.is(runs[2].end_date, '2030-03-14 08:30:00');
    const far = (
      await cal.events.list({ start_date: '2031-12-01', end_date: '2031-12-31', search: 'run', per_page: 50 })
    ).total;
    assert.is(
      far,
      9,
      'Tuesdays and Thursdays of December 2031: an unbounded series materialised two years past its start',
    );
    const birthdays = (await cal.events.list({ start_date: '2030-01-01', end_date: '2035-01-01', search: 'birthday' }))
      .items as Obj[];
    assert.equal(
      birthdays.map((e) => [e.all_day, e.start_date, e.end_date]),
      [
        [true, '2030-04-10 00:00:00', '2030-04-10 23:59:59'],
        [true, '2031-04-10 00:00:00', '2031-04-10 23:59:59'],
        [true, '2032-04-10 00:00:00', '2032-04-10 23:59:59'],
      ],
    );
    await cal.close();
  },
);

ics('through the command line: .ics by its name', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-ics-'));
  const io = memoryIo({}, dir);
  assert.is(await main(['import', path.join(FIXTURES, 'google.ics'), '--data', 'store'], io), 0, io.err());
  assert.match(io.out(), /^imported 4 events, 1 venues, 1 organizers, 2 categories, 0 tags/);
});

ics(
  'Outlook zones (Eastern, W. Europe, AUS Eastern): IANA zones at their wall time; an override of the first instance is no duplicate',
  async () => {
    const { cal } = await makeCalendar({ timezone: 'UTC' });
    await cal.importIcs(path.join(FIXTURES, 'outlook-zones.ics'));
    const items = (await cal.events.list(wide)).items as Obj[];
    assert.equal(
      items.map((e) => [e.title, e.timezone, e.start_date, e.utc_start_date, e.post_parent ?? 0]),
      [
        ['New York call', 'America/New_York', '2030-03-12 09:00:00', '2030-03-12 13:00:00', 0],
        ['Sydney sync (kick-off)', 'Australia/Sydney', '2030-03-26 09:00:00', '2030-03-25 22:00:00', 0],
        ['Sydney sync', 'Australia/Sydney', '2030-04-02 08:00:00', '2030-04-01 21:00:00', 0],
        ['Berlin review', 'Europe/Berlin', '2030-04-02 09:00:00', '2030-04-02 07:00:00', 0],
        ['Sydney sync', 'Australia/Sydney', '2030-04-09 08:00:00', '2030-04-08 22:00:00', items[2].id],
        ['Sydney sync', 'Australia/Sydney', '2030-04-16 08:00:00', '2030-04-15 22:00:00', items[2].id],
      ],
      'EDT from March 10; AEST from April 7; the kick-off once, the series from its second Tuesday',
    );
    assert.equal((items[2].recurrence as Obj).rules, ['FREQ=WEEKLY;COUNT=3;BYDAY=TU']);
    await cal.close();
  },
);

ics.run();
