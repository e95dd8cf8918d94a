import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  epochToZoned,
  isValidTimezone,
  nowIn,
  offsetOf,
  parseDateInput,
  timezoneAbbr,
  zonedToEpoch,
} from '../../../src/api/wordpress/dates.ts';
import { naiveFromDay, naiveFromString, naiveToString } from '../../../src/engine/naive-time.ts';
import { scan } from '../../../src/api/wordpress/strtotime.ts';
import { resolve } from '../../../src/api/wordpress/strtotime-resolve.ts';
import { formatInTimeZone } from 'date-fns-tz';

const ny = 'America/New_York';
const utc = (s: string): number => naiveFromString(s); // 'Y-m-d H:i:s' read as UTC = epoch ms
const wall = (s: string): number => naiveFromString(s); // same function, naive wall clock

// Tuesday 2024-05-07 22:30:15 in New York = Wednesday 2024-05-08 02:30:15 UTC
const LATE = new Date(Date.UTC(2024, 4, 8, 2, 30, 15));
// Wednesday 2024-05-08 14:00:00 UTC = Wednesday 10:00 in New York
const WED = new Date(Date.UTC(2024, 4, 8, 14, 0, 0));

function parsesTo(input: unknown, tz: string, now: Date, expected: string | null): void {
  const got = parseDateInput(input, tz, now);
  assert.is(got === null ? null : naiveToString(got), expected, `~> ${JSON.stringify(input)} in ${tz}`);
}

// ---

const zones = suite('zones');

zones('isValidTimezone :: IANA ids, UTC and WordPress offsets', () => {
  for (const tz of [
    'America/New_York',
    'Europe/Paris',
    'Australia/Darwin',
    'Asia/Hong_Kong',
    'UTC',
    'UTC+2',
    'UTC-5',
    'UTC+5:30',
    'UTC+5.5',
    'UTC+0',
    'Etc/GMT+5',
  ]) {
    assert.ok(isValidTimezone(tz), tz);
  }
  for (const tz of ['', 'Foo/Bar', 'foo', 'america/new_york', '+01:00', 'UTC+15', 'UTC+2:75', 'GMT+1 ']) {
    assert.not.ok(isValidTimezone(tz), tz);
  }
});

zones('zonedToEpoch :: plain winter and summer times in New York', () => {
  assert.is(zonedToEpoch(wall('2024-01-15 09:00:00'), ny), utc('2024-01-15 14:00:00'));
  assert.is(zonedToEpoch(wall('2024-07-15 09:00:00'), ny), utc('2024-07-15 13:00:00'));
});

zones('zonedToEpoch :: DST gap moves forward like PHP (02:30 → 03:30 EDT)', () => {
  const e = zonedToEpoch(wall('2024-03-10 02:30:00'), ny);
  assert.is(e, utc('2024-03-10 07:30:00'));
  assert.is(naiveToString(epochToZoned(e, ny)), '2024-03-10 03:30:00');
  // just around the gap
  assert.is(zonedToEpoch(wall('2024-03-10 01:59:59'), ny), utc('2024-03-10 06:59:59'));
  assert.is(zonedToEpoch(wall('2024-03-10 03:00:00'), ny), utc('2024-03-10 07:00:00'));
});

zones('zonedToEpoch :: DST overlap picks the first (DST) occurrence', () => {
  assert.is(zonedToEpoch(wall('2024-11-03 01:30:00'), ny), utc('2024-11-03 05:30:00'));
  assert.is(zonedToEpoch(wall('2024-11-03 00:59:59'), ny), utc('2024-11-03 04:59:59'));
  assert.is(zonedToEpoch(wall('2024-11-03 02:00:00'), ny), utc('2024-11-03 07:00:00'));
});

zones('zonedToEpoch :: Europe/Paris gap and overlap', () => {
  assert.is(zonedToEpoch(wall('2024-03-31 02:30:00'), 'Europe/Paris'), utc('2024-03-31 01:30:00'));
  assert.is(naiveToString(epochToZoned(utc('2024-03-31 01:30:00'), 'Europe/Paris')), '2024-03-31 03:30:00');
  assert.is(zonedToEpoch(wall('2024-10-27 02:30:00'), 'Europe/Paris'), utc('2024-10-27 00:30:00'));
  assert.is(zonedToEpoch(wall('2024-10-27 03:30:00'), 'Europe/Paris'), utc('2024-10-27 02:30:00'));
});

zones('zonedToEpoch :: Australia/Sydney (southern hemisphere) gap and overlap', () => {
  // DST ends 2024-04-07 03:00 AEDT → 02:00 AEST; starts 2024-10-06 02:00 AEST → 03:00 AEDT
  assert.is(zonedToEpoch(wall('2024-04-07 02:30:00'), 'Australia/Sydney'), utc('2024-04-06 15:30:00'));
  assert.is(zonedToEpoch(wall('2024-10-06 02:30:00'), 'Australia/Sydney'), utc('2024-10-05 16:30:00'));
  assert.is(naiveToString(epochToZoned(utc('2024-10-05 16:30:00'), 'Australia/Sydney')), '2024-10-06 03:30:00');
  assert.is(zonedToEpoch(wall('2024-01-15 09:00:00'), 'Australia/Sydney'), utc('2024-01-14 22:00:00'));
});

zones('epochToZoned :: both sides of each transition', () => {
  assert.is(naiveToString(epochToZoned(utc('2024-03-10 06:59:59'), ny)), '2024-03-10 01:59:59');
  assert.is(naiveToString(epochToZoned(utc('2024-03-10 07:00:00'), ny)), '2024-03-10 03:00:00');
  assert.is(naiveToString(epochToZoned(utc('2024-11-03 05:59:59'), ny)), '2024-11-03 01:59:59');
  assert.is(naiveToString(epochToZoned(utc('2024-11-03 06:00:00'), ny)), '2024-11-03 01:00:00');
  assert.is(offsetOf(ny, utc('2024-11-03 06:00:00')), -5 * 3_600_000);
});

zones('fixed offsets :: UTC±n zones', () => {
  assert.is(zonedToEpoch(wall('2024-05-01 10:00:00'), 'UTC+2'), utc('2024-05-01 08:00:00'));
  assert.is(zonedToEpoch(wall('2024-05-01 10:00:00'), 'UTC-5'), utc('2024-05-01 15:00:00'));
  assert.is(zonedToEpoch(wall('2024-05-01 10:00:00'), 'UTC+5:30'), utc('2024-05-01 04:30:00'));
  assert.is(zonedToEpoch(wall('2024-05-01 10:00:00'), 'UTC+5.5'), utc('2024-05-01 04:30:00'));
  assert.is(epochToZoned(utc('2024-05-01 10:00:00'), 'UTC'), utc('2024-05-01 10:00:00'));
  assert.is(epochToZoned(utc('2024-05-01 10:00:00'), 'UTC+0'), utc('2024-05-01 10:00:00'));
});

zones('nowIn :: wall clock of now in the zone', () => {
  assert.is(naiveToString(nowIn(ny, LATE)), '2024-05-07 22:30:15');
  assert.is(naiveToString(nowIn('Australia/Darwin', LATE)), '2024-05-08 12:00:15');
});

zones('round trip :: every half hour of 2024 in New York', () => {
  for (let e = utc('2024-01-01 00:00:00'); e < utc('2025-01-01 00:00:00'); e += 1_800_000) {
    const local = epochToZoned(e, ny);
    const back = zonedToEpoch(local, ny);
    // the second 01:xx hour of November 3rd maps back to the first occurrence
    if (back !== e) assert.is(back, e - 3_600_000, naiveToString(local));
  }
});

zones.run();

// ---

const abbr = suite('abbr');

abbr('timezoneAbbr :: every zone named in docs/behaviour.md', () => {
  const jan = utc('2024-01-15 12:00:00'),
    jul = utc('2024-07-15 12:00:00');
  const table: [string, string, string][] = [
    ['America/New_York', 'EST', 'EDT'],
    ['America/Juneau', 'AKST', 'AKDT'],
    ['Australia/Sydney', 'AEDT', 'AEST'],
    ['Atlantic/Reykjavik', 'GMT', 'GMT'],
    ['UTC', 'UTC', 'UTC'],
    ['Asia/Hong_Kong', 'HKT', 'HKT'],
    ['Europe/Rome', 'CET', 'CEST'],
    ['Europe/Paris', 'CET', 'CEST'],
    ['Australia/Darwin', 'ACST', 'ACST'],
  ];
  for (const [tz, winter, summer] of table) {
    assert.is(timezoneAbbr(tz, jan), winter, tz);
    assert.is(timezoneAbbr(tz, jul), summer, tz);
  }
});

abbr('timezoneAbbr :: numeric tzdata abbreviations and offset zones', () => {
  const t = utc('2024-01-15 12:00:00');
  assert.is(timezoneAbbr('Asia/Singapore', t), '+08');
  assert.is(timezoneAbbr('Asia/Kathmandu', t), '+0545');
  assert.is(timezoneAbbr('America/Sao_Paulo', t), '-03');
  assert.is(timezoneAbbr('Asia/Dubai', t), '+04');
  assert.is(timezoneAbbr('Asia/Kolkata', t), 'IST');
  assert.is(timezoneAbbr('Asia/Tokyo', t), 'JST');
  assert.is(timezoneAbbr('Europe/London', t), 'GMT');
  assert.is(timezoneAbbr('Europe/London', utc('2024-07-01 12:00:00')), 'BST');
  assert.is(timezoneAbbr('UTC+2', t), 'UTC+2');
  assert.is(timezoneAbbr('UTC-5', t), 'UTC-5');
  assert.is(timezoneAbbr('UTC+5:30', t), 'UTC+5:30');
});

abbr('timezoneAbbr :: switches exactly at the transition instant', () => {
  assert.is(timezoneAbbr(ny, utc('2024-03-10 06:59:59')), 'EST');
  assert.is(timezoneAbbr(ny, utc('2024-03-10 07:00:00')), 'EDT');
});

abbr.run();

// ---

const parse = suite('parse');

parse('parse :: Y-m-d H:i:s and its shorter forms are wall clock in tz', () => {
  parsesTo('2024-05-01 09:00:00', ny, LATE, '2024-05-01 09:00:00');
  parsesTo('2024-05-01', ny, LATE, '2024-05-01 00:00:00');
  parsesTo('2024-05-01 09:30', ny, LATE, '2024-05-01 09:30:00');
  parsesTo('2024-05-01T09:30:05', ny, LATE, '2024-05-01 09:30:05');
  parsesTo('2018-01-01 4pm', 'Asia/Hong_Kong', LATE, '2018-01-01 16:00:00');
  parsesTo('2018-01-01 5pm', ny, LATE, '2018-01-01 17:00:00');
});

parse('parse :: a date alone (the fast path) reads as the scanner reads it, days past the month running over', () => {
  const scanned = (text: string): string | null => {
    const st = scan(text, () => false);
    return st === null ? null : naiveToString(resolve(st, wall('2024-05-08 10:00:00')));
  };
  const texts = [
    '2024-01-01',
    '2024-02-29',
    '2023-02-29',
    '2024-02-31',
    '2024-04-31',
    '2024-12-31',
    '1999-12-31',
    '0099-03-01',
    '9999-12-31',
    '2024-01-09',
  ];
  for (let i = 0; i < 200; i++) {
    const y = 1900 + ((i * 37) % 300),
      mo = 1 + ((i * 7) % 12),
      d = 1 + ((i * 13) % 31);
    texts.push(`${y}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`);
  }
  for (const text of texts) {
    assert.is(naiveToString(naiveFromDay(text)), scanned(text), text);
    parsesTo(text, ny, LATE, scanned(text));
  }
  // not a date alone: left to the scanner
  for (const text of ['2024-13-01', '2024-00-10', '2024-01-00', '2024-1-01', '2024/01/01', '20240101', '2024-01-32'])
    assert.ok(Number.isNaN(naiveFromDay(text)), text);
  parsesTo('2024-1-5', ny, LATE, '2024-01-05 00:00:00');
});

parse('parse :: ISO strings with offsets are converted into tz', () => {
  parsesTo('2024-05-01T09:00:00Z', ny, LATE, '2024-05-01 05:00:00');
  parsesTo('2024-05-01T09:00:00.123Z', ny, LATE, '2024-05-01 05:00:00');
  parsesTo('2024-05-01T09:00:00+02:00', ny, LATE, '2024-05-01 03:00:00');
  parsesTo('2024-05-01T09:00:00-0500', 'UTC', LATE, '2024-05-01 14:00:00');
  parsesTo('2024-05-01 10:00 EST', 'UTC', LATE, '2024-05-01 15:00:00');
  parsesTo('2024-05-01 10:00 Europe/Paris', 'UTC', LATE, '2024-05-01 08:00:00');
});

parse('parse :: Unix timestamps become the wall clock in tz', () => {
  parsesTo(1700000000, ny, LATE, '2023-11-14 17:13:20');
  parsesTo('1700000000', ny, LATE, '2023-11-14 17:13:20');
  parsesTo('@1700000000', ny, LATE, '2023-11-14 17:13:20');
  parsesTo(1700000000, 'UTC', LATE, '2023-11-14 22:13:20');
  parsesTo('0', 'UTC', LATE, '1970-01-01 00:00:00');
});

parse('parse :: tomorrow 9am with New York date behind UTC date', () => {
  // late evening in New York: "tomorrow" is the 8th there, although UTC is already on the 8th
  parsesTo('tomorrow 9am', ny, LATE, '2024-05-08 09:00:00');
  parsesTo('tomorrow 11am', ny, LATE, '2024-05-08 11:00:00');
  parsesTo('tomorrow 1pm', ny, LATE, '2024-05-08 13:00:00');
  parsesTo('tomorrow 4pm', ny, LATE, '2024-05-08 16:00:00');
  parsesTo('tomorrow 9am', 'UTC', LATE, '2024-05-09 09:00:00');
  parsesTo('tomorrow 9am', 'Australia/Sydney', LATE, '2024-05-09 09:00:00');
  parsesTo('tomorrow 9am', 'America/Juneau', LATE, '2024-05-08 09:00:00');
  parsesTo('tomorrow 9am', 'Atlantic/Reykjavik', LATE, '2024-05-09 09:00:00');
});

parse('parse :: late evening UTC: zones east of UTC are already on the next day', () => {
  const eveningUtc = new Date(Date.UTC(2024, 4, 7, 22, 0, 0)); // Tue 22:00 UTC = Wed 08:00 Sydney = Tue 18:00 New York
  parsesTo('tomorrow 9am', 'Australia/Sydney', eveningUtc, '2024-05-09 09:00:00');
  parsesTo('tomorrow 9am', ny, eveningUtc, '2024-05-08 09:00:00');
  parsesTo('tomorrow 9am', 'UTC', eveningUtc, '2024-05-08 09:00:00');
  parsesTo('tomorrow 9am', 'UTC+2', eveningUtc, '2024-05-09 09:00:00');
  parsesTo('today', 'Europe/Paris', eveningUtc, '2024-05-08 00:00:00');
});

parse('parse :: tomorrow with full times', () => {
  parsesTo('tomorrow 00:00:00', ny, LATE, '2024-05-08 00:00:00');
  parsesTo('tomorrow 23:59:59', ny, LATE, '2024-05-08 23:59:59');
  parsesTo('+5 days 23:59:59', ny, LATE, '2024-05-12 23:59:59');
  parsesTo('+5 days 11am', ny, LATE, '2024-05-12 11:00:00');
});

parse('parse :: next wednesday is strictly after today, wednesday may be today', () => {
  parsesTo('next wednesday 4pm', ny, WED, '2024-05-15 16:00:00');
  parsesTo('next wednesday 5pm', ny, WED, '2024-05-15 17:00:00');
  parsesTo('wednesday', ny, WED, '2024-05-08 00:00:00');
  parsesTo('wednesday 4pm', ny, WED, '2024-05-08 16:00:00');
  // on Tuesday evening (New York) next wednesday is tomorrow
  parsesTo('next wednesday 4pm', ny, LATE, '2024-05-08 16:00:00');
  parsesTo('wednesday', ny, LATE, '2024-05-08 00:00:00');
  // in Sydney it is already Wednesday
  parsesTo('next wednesday 4pm', 'Australia/Sydney', LATE, '2024-05-15 16:00:00');
});

parse('parse :: weekday names and last/next', () => {
  parsesTo('monday', ny, WED, '2024-05-13 00:00:00');
  parsesTo('next monday 10:30', ny, WED, '2024-05-13 10:30:00');
  parsesTo('last friday', ny, WED, '2024-05-03 00:00:00');
  parsesTo('last wednesday', ny, WED, '2024-05-01 00:00:00');
  parsesTo('this friday', ny, WED, '2024-05-10 00:00:00');
  parsesTo('Sat', ny, WED, '2024-05-11 00:00:00');
});

parse('parse :: now, today, midnight, noon, tomorrow, yesterday', () => {
  parsesTo('now', ny, LATE, '2024-05-07 22:30:15');
  parsesTo('today', ny, LATE, '2024-05-07 00:00:00');
  parsesTo('midnight', ny, LATE, '2024-05-07 00:00:00');
  parsesTo('noon', ny, LATE, '2024-05-07 12:00:00');
  parsesTo('tomorrow', ny, LATE, '2024-05-08 00:00:00');
  parsesTo('yesterday', ny, LATE, '2024-05-06 00:00:00');
  parsesTo('yesterday 23:59', ny, LATE, '2024-05-06 23:59:00');
  parsesTo('today 9am', ny, LATE, '2024-05-07 09:00:00');
});

parse('parse :: PHP order quirks: tomorrow/noon reset an earlier time', () => {
  parsesTo('tomorrow noon', ny, LATE, '2024-05-08 12:00:00');
  // PHP: 'tomorrow' after a time resets it to 00:00 ("tomorrow 11:00" differs from "11:00 tomorrow")
  parsesTo('noon tomorrow', ny, LATE, '2024-05-08 00:00:00');
  parsesTo('9am tomorrow', ny, LATE, '2024-05-08 00:00:00');
});

parse('parse :: relative offsets keep the current time', () => {
  parsesTo('+1 day', ny, LATE, '2024-05-08 22:30:15');
  parsesTo('-2 hours', ny, LATE, '2024-05-07 20:30:15');
  parsesTo('3 weeks ago', ny, LATE, '2024-04-16 22:30:15');
  parsesTo('+1 week 2 days', ny, LATE, '2024-05-16 22:30:15');
  parsesTo('next month', ny, LATE, '2024-06-07 22:30:15');
  parsesTo('last year', ny, LATE, '2023-05-07 22:30:15');
  parsesTo('+90 minutes', 'UTC', LATE, '2024-05-08 04:00:15');
  parsesTo('2 days ago 9am', ny, LATE, '2024-05-05 09:00:00');
});

parse('parse :: month overflow follows PHP (Jan 31 + 1 month = Mar 2)', () => {
  parsesTo('2024-01-31 +1 month', 'UTC', LATE, '2024-03-02 00:00:00');
  parsesTo('2024-02-30', 'UTC', LATE, '2024-03-01 00:00:00');
});

parse('parse :: first/last day of', () => {
  parsesTo('first day of next month', ny, LATE, '2024-06-01 22:30:15');
  parsesTo('last day of next month', ny, LATE, '2024-06-30 22:30:15');
  parsesTo('midnight first day of next month', ny, LATE, '2024-06-01 00:00:00');
  parsesTo('first day of January 2025', ny, LATE, '2025-01-01 00:00:00');
});

parse('parse :: month names and numeric dates', () => {
  parsesTo('January 5 2024', ny, LATE, '2024-01-05 00:00:00');
  parsesTo('5 January 2024', ny, LATE, '2024-01-05 00:00:00');
  parsesTo('Jan 5, 2024 3pm', ny, LATE, '2024-01-05 15:00:00');
  parsesTo('January 5th, 2024', ny, LATE, '2024-01-05 00:00:00');
  parsesTo('Jan 5 10:30', ny, LATE, '2024-01-05 10:30:00');
  parsesTo('5 Jan', ny, LATE, '2024-01-05 00:00:00');
  parsesTo('March 2025', ny, LATE, '2025-03-01 00:00:00');
  parsesTo('12/25/2024', ny, LATE, '2024-12-25 00:00:00');
  parsesTo('12/25/24', ny, LATE, '2024-12-25 00:00:00');
  parsesTo('25-12-2024', ny, LATE, '2024-12-25 00:00:00');
  parsesTo('25.12.2024', ny, LATE, '2024-12-25 00:00:00');
  parsesTo('2024/12/25', ny, LATE, '2024-12-25 00:00:00');
});

parse('parse :: bare times set the time of today', () => {
  parsesTo('9:30pm', ny, LATE, '2024-05-07 21:30:00');
  parsesTo('21:00', ny, LATE, '2024-05-07 21:00:00');
  parsesTo('12am', ny, LATE, '2024-05-07 00:00:00');
  parsesTo('12pm', ny, LATE, '2024-05-07 12:00:00');
  parsesTo('9 p.m.', ny, LATE, '2024-05-07 21:00:00');
  parsesTo('tomorrow 0900', ny, LATE, '2024-05-08 09:00:00');
});

parse('parse :: case-insensitive, extra spaces', () => {
  parsesTo('  Tomorrow   9AM ', ny, LATE, '2024-05-08 09:00:00');
  parsesTo('NEXT Wednesday 4PM', ny, WED, '2024-05-15 16:00:00');
});

parse('parse :: DST gap wall times are kept as written (conversion happens later)', () => {
  parsesTo('2024-03-10 02:30:00', ny, LATE, '2024-03-10 02:30:00');
  // relative arithmetic around the change is wall-clock arithmetic
  parsesTo('2024-03-09 02:30:00 +1 day', ny, LATE, '2024-03-10 02:30:00');
});

parse('parse :: unparseable or empty → null', () => {
  for (const bad of [
    'not a strtotime parsable string',
    '"before my birthday"',
    'foo',
    '',
    '   ',
    'tomorrow 9am 10am',
    '2024-05-01 2024-06-01',
    '25:00',
    'a',
    'next',
  ]) {
    parsesTo(bad, ny, LATE, null);
  }
  for (const bad of [null, undefined, true, {}, [], NaN, Infinity]) {
    assert.is(parseDateInput(bad, ny, LATE), null, String(bad));
  }
  assert.is(parseDateInput('tomorrow', 'Foo/Bar', LATE), null);
});

parse.run();

const offsets = suite('dates :: offsets');

offsets('offsetOf answers as date-fns-tz formatInTimeZone(.., "xxx") does, in every kind of zone, 1800-2150', () => {
  const zones = [
    'Europe/Paris',
    'America/New_York',
    'Asia/Kolkata',
    'Australia/Lord_Howe',
    'Africa/Casablanca',
    'America/St_Johns',
    'Pacific/Chatham',
    'Asia/Kathmandu',
    'Europe/Dublin',
    'America/Sao_Paulo',
    'Antarctica/Troll',
    'Pacific/Apia',
    'Europe/Amsterdam',
    'Africa/Monrovia',
  ];
  let seed = 3;
  const rand = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  for (const tz of zones) {
    for (let i = 0; i < 150; i++) {
      const ms = Math.floor((rand() * 350 - 170) * 365.25 * 86_400) * 1000;
      const s = formatInTimeZone(new Date(ms), tz, 'xxx');
      const minutes = +s.slice(1, 3) * 60 + +s.slice(4, 6);
      assert.is(
        offsetOf(tz, ms),
        (s[0] === '-' ? -minutes : minutes) * 60_000,
        `${tz} at ${new Date(ms).toISOString()}`,
      );
    }
  }
});

offsets.run();
