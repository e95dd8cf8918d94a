import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  occurrences,
  occurrenceAt,
  lastOccurrence,
  parseRecurrence,
  representRecurrence,
  isBounded,
  addExclusion,
  untilBefore,
} from '../../src/recurrence/index.ts';
import type { SeriesTime } from '../../src/recurrence/index.ts';

const series = (start: string, timezone = 'Europe/Paris', allDay = false): SeriesTime => ({ start, timezone, allDay });
const iso = (ms: number) => new Date(ms).toISOString().replace('.000', '');

/** The first `n` occurrences' local times (and instants when `withUtc`). */
function first(input: unknown, s: SeriesTime, n = 10, from?: number, to?: number): string[] {
  const set = parseRecurrence(input, s);
  assert.ok(set, '~> a set');
  const out: string[] = [];
  for (const o of occurrences(set!, s, from, to)) {
    out.push(o.local);
    if (out.length >= n) break;
  }
  return out;
}

function firstUtc(input: unknown, s: SeriesTime, n = 10): string[] {
  const out: string[] = [];
  for (const o of occurrences(parseRecurrence(input, s)!, s)) {
    out.push(`${o.local} ${iso(o.utc)}`);
    if (out.length >= n) break;
  }
  return out;
}

// ---

const basics = suite('occurrences :: basics');

basics('no recurrence: null, false, "" and an empty object', () => {
  for (const v of [null, false, '', undefined, { rules: [] }, { rules: '' }])
    assert.is(parseRecurrence(v, series('2030-01-04 09:00:00')), null);
});

basics('weekly stays at 09:00 local across both DST changes (Paris: 2030-03-31 and 2030-10-27)', () => {
  const got = firstUtc('RRULE:FREQ=WEEKLY;COUNT=3', series('2030-03-18 09:00:00'));
  assert.equal(got, [
    '2030-03-18 09:00:00 2030-03-18T08:00:00Z',
    '2030-03-25 09:00:00 2030-03-25T08:00:00Z',
    '2030-04-01 09:00:00 2030-04-01T07:00:00Z',
  ]);
  const autumn = firstUtc('FREQ=WEEKLY;COUNT=2', series('2030-10-21 09:00:00'));
  assert.equal(autumn, ['2030-10-21 09:00:00 2030-10-21T07:00:00Z', '2030-10-28 09:00:00 2030-10-28T08:00:00Z']);
});

basics('the issue example: last Friday monthly with UNTIL, RDATEs in another TZID, an EXDATE in UTC', () => {
  const s = series('2030-01-25 09:00:00');
  const text =
    'RRULE:FREQ=MONTHLY;BYDAY=-1FR;UNTIL=20300531T235959Z\nRDATE;TZID=Europe/London:20300105T080000,20300106T080000\nEXDATE:20300222T080000Z';
  assert.equal(first(text, s), [
    '2030-01-05 09:00:00',
    '2030-01-06 09:00:00',
    '2030-01-25 09:00:00',
    '2030-03-29 09:00:00',
    '2030-04-26 09:00:00',
    '2030-05-31 09:00:00',
  ]);
});

basics('a time in the spring-forward gap moves forward by the gap; a repeated time takes its first instant', () => {
  // New York: 2030-03-10 02:00 → 03:00; 2030-11-03 02:00 → 01:00
  assert.equal(firstUtc('FREQ=DAILY;COUNT=3', series('2030-03-09 02:30:00', 'America/New_York')), [
    '2030-03-09 02:30:00 2030-03-09T07:30:00Z',
    '2030-03-10 03:30:00 2030-03-10T07:30:00Z',
    '2030-03-11 02:30:00 2030-03-11T06:30:00Z',
  ]);
  assert.equal(firstUtc('FREQ=DAILY;COUNT=3', series('2030-11-02 01:30:00', 'America/New_York')), [
    '2030-11-02 01:30:00 2030-11-02T05:30:00Z',
    '2030-11-03 01:30:00 2030-11-03T05:30:00Z',
    '2030-11-04 01:30:00 2030-11-04T06:30:00Z',
  ]);
});

basics('an hourly rule through the gap: the moved 02:30 lands on 03:30 and is not doubled', () => {
  const got = firstUtc('FREQ=HOURLY;COUNT=4', series('2030-03-10 01:30:00', 'America/New_York'), 10);
  assert.equal(got, [
    '2030-03-10 01:30:00 2030-03-10T06:30:00Z',
    '2030-03-10 03:30:00 2030-03-10T07:30:00Z',
    '2030-03-10 04:30:00 2030-03-10T08:30:00Z',
  ]);
});

basics('a rule that fires every 30 minutes through the gap stays in start order', () => {
  const got = firstUtc('FREQ=MINUTELY;INTERVAL=30;COUNT=6', series('2030-03-10 01:15:00', 'America/New_York'), 10);
  assert.equal(got, [
    '2030-03-10 01:15:00 2030-03-10T06:15:00Z',
    '2030-03-10 01:45:00 2030-03-10T06:45:00Z',
    '2030-03-10 03:15:00 2030-03-10T07:15:00Z',
    '2030-03-10 03:45:00 2030-03-10T07:45:00Z',
  ]);
});

basics("Lord Howe's half-hour change moves 02:15 to 02:45; Apia's skipped 2011-12-30 moves to 2011-12-31", () => {
  // Lord Howe: 2030-10-06 02:00 (+10:30) → 02:30 (+11:00)
  assert.equal(firstUtc('FREQ=DAILY;COUNT=3', series('2030-10-05 02:15:00', 'Australia/Lord_Howe')), [
    '2030-10-05 02:15:00 2030-10-04T15:45:00Z',
    '2030-10-06 02:45:00 2030-10-05T15:45:00Z',
    '2030-10-07 02:15:00 2030-10-06T15:15:00Z',
  ]);
  // Apia went from -10:00 (DST -11:00 +1) to +14:00 at the end of 2011-12-29
  assert.equal(first('FREQ=DAILY;COUNT=5', series('2011-12-28 09:00:00', 'Pacific/Apia')), [
    '2011-12-28 09:00:00',
    '2011-12-29 09:00:00',
    '2011-12-31 09:00:00',
    '2012-01-01 09:00:00',
  ]);
});

basics('a rule that repeats every 1000 years is not taken to have ended after 400', () => {
  assert.equal(first('FREQ=YEARLY;INTERVAL=1000', series('2024-02-29 09:00:00', 'UTC'), 3), [
    '2024-02-29 09:00:00',
    '3024-02-29 09:00:00',
    '4024-02-29 09:00:00',
  ]);
});

basics('all-day series: dates, UNTIL as a DATE, EXDATE;VALUE=DATE', () => {
  const s = series('2030-01-31 00:00:00', 'America/New_York', true);
  assert.equal(first('RRULE:FREQ=MONTHLY;UNTIL=20300601\nEXDATE;VALUE=DATE:20300331', s), [
    '2030-01-31 00:00:00',
    '2030-05-31 00:00:00',
  ]);
  const set = parseRecurrence({ rules: 'FREQ=YEARLY;UNTIL=20330101T120000Z', rdates: ['2031-07-04'] }, s)!;
  assert.equal(representRecurrence(set, s), {
    rules: ['FREQ=YEARLY;UNTIL=20330101'],
    rdates: ['2031-07-04'],
    exdates: [],
    text: 'RRULE:FREQ=YEARLY;UNTIL=20330101\nRDATE;VALUE=DATE:20310704',
  });
});

basics('UNTIL before DTSTART: only DTSTART', () => {
  assert.equal(first('FREQ=DAILY;UNTIL=20200101T000000Z', series('2030-01-04 09:00:00')), ['2030-01-04 09:00:00']);
});

basics('a DTSTART that does not match the rule is still the first occurrence (and not counted by COUNT)', () => {
  assert.equal(first('FREQ=WEEKLY;BYDAY=MO;COUNT=2', series('2030-01-01 09:00:00')), [
    '2030-01-01 09:00:00',
    '2030-01-07 09:00:00',
    '2030-01-14 09:00:00',
  ]);
});

basics('a window a century out answers without expanding the century', () => {
  const s = series('2030-01-07 09:00:00', 'America/New_York');
  const set = parseRecurrence('FREQ=WEEKLY;BYDAY=MO,WE', s)!;
  const t0 = performance.now();
  const got = [...occurrences(set, s, Date.UTC(2130, 0, 1), Date.UTC(2130, 0, 15))].map((o) => o.local);
  assert.equal(got, ['2130-01-02 09:00:00', '2130-01-04 09:00:00', '2130-01-09 09:00:00', '2130-01-11 09:00:00']);
  assert.ok(performance.now() - t0 < 50, '~> fast');
});

basics('windows: from inclusive, to exclusive, on the start instant', () => {
  const s = series('2030-01-01 09:00:00', 'UTC');
  const got = first('FREQ=DAILY', s, 10, Date.UTC(2030, 0, 3, 9), Date.UTC(2030, 0, 5, 9));
  assert.equal(got, ['2030-01-03 09:00:00', '2030-01-04 09:00:00']);
});

basics.run();

// ---

const edits = suite('occurrences :: edits');

edits('isBounded: COUNT or UNTIL on every rule', () => {
  const s = series('2030-01-01 09:00:00');
  assert.ok(isBounded(parseRecurrence('FREQ=DAILY;COUNT=3', s)!));
  assert.not.ok(isBounded(parseRecurrence('RRULE:FREQ=DAILY;COUNT=3\nRRULE:FREQ=WEEKLY', s)!));
  assert.ok(isBounded(parseRecurrence({ rules: [], rdates: ['2030-02-01 10:00'] }, s)!));
});

edits('addExclusion leaves one occurrence out', () => {
  const s = series('2030-01-01 09:00:00');
  const set = addExclusion(parseRecurrence('FREQ=DAILY;COUNT=4', s)!, '2030-01-02 09:00:00');
  assert.equal(
    [...occurrences(set, s)].map((o) => o.local),
    ['2030-01-01 09:00:00', '2030-01-03 09:00:00', '2030-01-04 09:00:00'],
  );
  assert.equal(representRecurrence(set, s).exdates, ['2030-01-02 09:00:00']);
});

edits('untilBefore ends the series before an occurrence: UNTIL one second earlier in UTC, COUNT reduced', () => {
  const s = series('2030-01-01 09:00:00');
  const open = untilBefore(parseRecurrence('FREQ=DAILY', s)!, '2030-01-04 09:00:00', s);
  assert.equal(representRecurrence(open, s).rules, ['FREQ=DAILY;UNTIL=20300104T075959Z']);
  assert.equal([...occurrences(open, s)].length, 3);
  const counted = untilBefore(parseRecurrence('FREQ=DAILY;COUNT=10', s)!, '2030-01-04 09:00:00', s);
  assert.equal(representRecurrence(counted, s).rules, ['FREQ=DAILY;COUNT=3']);
});

edits('occurrenceAt finds an occurrence by its wall clock; lastOccurrence ends a bounded set', () => {
  const s = series('2030-03-09 02:30:00', 'America/New_York');
  const set = parseRecurrence('FREQ=DAILY;COUNT=3', s)!;
  assert.equal(occurrenceAt(set, s, '2030-03-10 03:30:00'), {
    local: '2030-03-10 03:30:00',
    utc: Date.UTC(2030, 2, 10, 7, 30),
  });
  assert.is(occurrenceAt(set, s, '2030-03-10 04:30:00'), null);
  assert.is(occurrenceAt(set, s, 'tomorrow'), null);
  assert.equal(lastOccurrence(set, s)?.local, '2030-03-11 02:30:00');
  assert.is(lastOccurrence(parseRecurrence('FREQ=DAILY', s)!, s), null);
});

edits('all-day: exclusion by day, split by day', () => {
  const s = series('2030-01-01 00:00:00', 'Europe/Paris', true);
  const set = parseRecurrence('FREQ=WEEKLY;COUNT=5', s)!;
  const without = addExclusion(set, '2030-01-08');
  assert.equal(
    [...occurrences(without, s)].map((o) => o.local.slice(0, 10)),
    ['2030-01-01', '2030-01-15', '2030-01-22', '2030-01-29'],
  );
  const before = untilBefore(parseRecurrence('FREQ=WEEKLY', s)!, '2030-01-22 00:00:00', s);
  assert.equal(representRecurrence(before, s).rules, ['FREQ=WEEKLY;UNTIL=20300121']);
  assert.equal([...occurrences(before, s)].length, 3);
  assert.throws(() => untilBefore(set, '2030-01-01 00:00:00', s), /Invalid parameter/);
});

edits.run();
