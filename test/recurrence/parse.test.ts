import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { RECURRENCE_LIMITS, occurrences, parseRecurrence, representRecurrence } from '../../src/recurrence/index.ts';
import type { SeriesTime } from '../../src/recurrence/index.ts';
import { CalendarError } from '../../src/api/wordpress/errors.ts';

const paris: SeriesTime = { start: '2030-01-04 09:00:00', timezone: 'Europe/Paris', allDay: false };
const allDay: SeriesTime = { start: '2030-01-04 00:00:00', timezone: 'Europe/Paris', allDay: true };

/** The 400 for `input`: its reason for `field`. */
function refusal(input: unknown, series = paris, field = 'recurrence'): string {
  try {
    parseRecurrence(input, series, field);
  } catch (e) {
    assert.instance(e, CalendarError);
    const err = e as CalendarError;
    assert.is(err.code, 'rest_invalid_param');
    assert.is(err.status, 400);
    assert.is(err.message, `Invalid parameter(s): ${field}`);
    return String((err.data.params as Record<string, string>)[field]);
  }
  assert.unreachable(`~> ${JSON.stringify(input)} was accepted`);
  return '';
}

const shown = (input: unknown, series = paris) => representRecurrence(parseRecurrence(input, series)!, series);
const locals = (input: unknown, n: number, series = paris) => {
  const out: string[] = [];
  for (const o of occurrences(parseRecurrence(input, series)!, series)) {
    if (out.length >= n) break;
    out.push(o.local);
  }
  return out;
};

// ---

const text = suite('parse :: RFC 5545 text');

text('names and values in any case, folded lines, CRLF, a bare rule', () => {
  const a = shown('rrule:freq=weekly;byday=mo,we;\r\n count=4\r\nexdate;tzid=Europe/Paris:20300109T090000');
  assert.equal(a.rules, ['FREQ=WEEKLY;COUNT=4;BYDAY=MO,WE']);
  assert.equal(a.exdates, ['2030-01-09 09:00:00']);
  assert.equal(shown('FREQ=DAILY;INTERVAL=1;COUNT=2').rules, ['FREQ=DAILY;COUNT=2']);
});

text("RDATE and EXDATE: TZID of another zone and UTC (Z) are converted to the event's zone", () => {
  const a = shown(
    'RRULE:FREQ=DAILY;COUNT=3\nRDATE;TZID=America/New_York:20300110T030000\nRDATE:20300111T080000Z,20300112T080000Z\nEXDATE:20300105T080000Z',
  );
  assert.equal(a.rdates, ['2030-01-10 09:00:00', '2030-01-11 09:00:00', '2030-01-12 09:00:00']);
  assert.equal(a.exdates, ['2030-01-05 09:00:00']);
  assert.equal(
    a.text,
    'RRULE:FREQ=DAILY;COUNT=3\nRDATE;TZID=Europe/Paris:20300110T090000,20300111T090000,20300112T090000\nEXDATE;TZID=Europe/Paris:20300105T090000',
  );
});

text('EXDATE;VALUE=DATE on a timed series leaves out every occurrence of that day', () => {
  const input = 'RRULE:FREQ=HOURLY;INTERVAL=6;COUNT=8\nEXDATE;VALUE=DATE:20300105';
  assert.equal(locals(input, 10), [
    '2030-01-04 09:00:00',
    '2030-01-04 15:00:00',
    '2030-01-04 21:00:00',
    '2030-01-06 03:00:00',
  ]);
  assert.equal(shown(input).exdates, ['2030-01-05']);
  assert.ok(shown(input).text.endsWith('EXDATE;VALUE=DATE:20300105'));
});

text('UNTIL: local time and DATE forms on a timed series are written in UTC', () => {
  assert.equal(shown('FREQ=DAILY;UNTIL=20300110T090000').rules, ['FREQ=DAILY;UNTIL=20300110T080000Z']);
  // a DATE UNTIL on a timed series: through the end of that day
  assert.equal(shown('FREQ=DAILY;UNTIL=20300110').rules, ['FREQ=DAILY;UNTIL=20300110T225959Z']);
  assert.equal(locals('FREQ=DAILY;UNTIL=20300110', 20).at(-1), '2030-01-10 09:00:00');
});

text("a DTSTART line equal to the event's start is accepted; another is refused", () => {
  assert.equal(shown('DTSTART;TZID=Europe/Paris:20300104T090000\nRRULE:FREQ=DAILY;COUNT=2').rules, [
    'FREQ=DAILY;COUNT=2',
  ]);
  assert.equal(shown('DTSTART:20300104T080000Z\nRRULE:FREQ=DAILY;COUNT=2').rules, ['FREQ=DAILY;COUNT=2']);
  assert.match(
    refusal('DTSTART:20300105T090000\nRRULE:FREQ=DAILY'),
    /DTSTART 2030-01-05 09:00:00 differs from the event's start 2030-01-04 09:00:00/,
  );
});

text('refused lines: EXRULE, other properties, VALUE=PERIOD, unknown TZID, RRULE parameters', () => {
  assert.match(refusal('EXRULE:FREQ=DAILY'), /EXRULE is not supported/);
  assert.match(refusal('SUMMARY:hello'), /"SUMMARY" lines are not part of a recurrence/);
  assert.match(refusal('RDATE;VALUE=PERIOD:20300105T090000/PT1H'), /VALUE=PERIOD/);
  assert.match(refusal('RDATE;TZID=Mars/Olympus:20300105T090000'), /TZID=Mars\/Olympus is not a known time zone/);
  assert.match(refusal('RRULE;X=1:FREQ=DAILY'), /RRULE: takes no parameters/);
  assert.match(refusal('EXDATE:20300105T090000\n'), /no RRULE and no RDATE/);
});

text.run();

// ---

const object = suite('parse :: object form');

object('rules as a string or an array, with or without RRULE:; dates in every accepted form', () => {
  const a = shown({
    rules: ['RRULE:FREQ=WEEKLY;COUNT=2', 'FREQ=MONTHLY;COUNT=2'],
    rdates: ['2030-02-01 10:30', '2030-02-02', '20300203T090000', '20300204T080000Z', '20300205'],
    exdates: ['2030-01-11 09:00:00'],
  });
  assert.equal(a.rules, ['FREQ=WEEKLY;COUNT=2', 'FREQ=MONTHLY;COUNT=2']);
  // a date alone adds that day at the series' time of day
  assert.equal(a.rdates, [
    '2030-02-01 10:30:00',
    '2030-02-02 09:00:00',
    '2030-02-03 09:00:00',
    '2030-02-04 09:00:00',
    '2030-02-05 09:00:00',
  ]);
  assert.equal(a.exdates, ['2030-01-11 09:00:00']);
});

object('the representation reads back as itself, as an object and as its text', () => {
  const input = {
    rules: 'freq=monthly;byday=-1fr;until=20311231T235959Z',
    rdates: ['2030-03-01 12:00'],
    exdates: ['2030-02-22 09:00:00', '2030-04-26'],
  };
  const a = shown(input);
  const { text: t, ...object } = a;
  assert.equal(shown(object), a);
  assert.equal(shown(t), a);
  const d = shown({ rules: 'FREQ=YEARLY;COUNT=3', exdates: ['2031-01-04'] }, allDay);
  assert.equal(shown(d.text, allDay), d);
});

object('refused shapes: unknown keys, wrong types, a bad date', () => {
  assert.match(refusal({ rules: 'FREQ=DAILY', exdate: [] }), /unknown key "exdate"/);
  assert.match(refusal({ rules: 5 }), /rules must be a string or an array of strings/);
  assert.match(refusal({ rules: 'FREQ=DAILY', rdates: '2030-01-01' }), /rdates must be an array/);
  assert.match(refusal({ rules: 'FREQ=DAILY', rdates: ['2030-02-30'] }), /rdates: "2030-02-30" is not a real date/);
  assert.match(refusal(42), /must be RFC 5545 text/);
  assert.match(refusal(['FREQ=DAILY']), /must be RFC 5545 text/);
});

object.run();

// ---

const rules = suite('parse :: rule parts and limits');

rules('each refusal names the field, the part and the limit', () => {
  const cases: Array<[string, RegExp]> = [
    ['FREQ=MONTHLY;BYMONTHDAY=32', /BYMONTHDAY=32: 32 is out of range \(allowed: 1\.\.31 or -31\.\.-1\)/],
    ['FREQ=WEEKLY;BYDAY=XX', /BYDAY=XX: "XX" is not a weekday/],
    ['FREQ=DAILY;COUNT=1000000000', new RegExp(`COUNT=1000000000: COUNT is limited to ${RECURRENCE_LIMITS.maxCount}`)],
    ['FREQ=DAILY;INTERVAL=5000', new RegExp(`INTERVAL is limited to ${RECURRENCE_LIMITS.maxInterval}`)],
    ['FREQ=DAILY;FOO=1', /FOO=1: unknown rule part FOO/],
    ['BYDAY=MO', /FREQ: is required/],
    ['FREQ=FORTNIGHTLY', /unknown frequency/],
    ['FREQ=DAILY;COUNT=2;UNTIL=20300101', /COUNT and UNTIL must not both appear/],
    ['FREQ=DAILY;COUNT=2;COUNT=3', /COUNT appears twice/],
    ['FREQ=MONTHLY;BYWEEKNO=2', /BYWEEKNO: is only valid with FREQ=YEARLY/],
    ['FREQ=WEEKLY;BYMONTHDAY=2', /BYMONTHDAY: is not valid with FREQ=WEEKLY/],
    ['FREQ=DAILY;BYYEARDAY=2', /BYYEARDAY: is not valid with FREQ=DAILY/],
    ['FREQ=WEEKLY;BYDAY=2MO', /an ordinal is only valid with FREQ=MONTHLY or FREQ=YEARLY/],
    ['FREQ=MONTHLY;BYDAY=6MO', /an ordinal within a month is limited to ±5/],
    ['FREQ=YEARLY;BYWEEKNO=3;BYDAY=1MO', /an ordinal is not valid with BYWEEKNO/],
    ['FREQ=DAILY;BYSETPOS=1', /BYSETPOS: needs another BYxxx part/],
    ['FREQ=DAILY;BYHOUR=24', /BYHOUR=24: 24 is out of range \(allowed: 0\.\.23\)/],
    ['FREQ=DAILY;UNTIL=2030-01-01', /UNTIL=2030-01-01: is not a date/],
    ['FREQ=SECONDLY', /FREQ=SECONDLY: must be bounded by COUNT \(at most 1000\) or UNTIL/],
    ['FREQ=MINUTELY;COUNT=5000', /COUNT=5000: FREQ=MINUTELY is limited to 1000 occurrences/],
    ['FREQ=MINUTELY;UNTIL=20300110T000000Z', /UNTIL=20300110T000000Z: FREQ=MINUTELY is limited to 1000 occurrences/],
    [
      `FREQ=DAILY;BYHOUR=${Array.from({ length: 24 }, (_, i) => i)};BYMINUTE=0,5,10,15,20,25,30,35,40,45,50,55;BYSECOND=0,10,20,30,40,50`,
      /BYHOUR × BYMINUTE × BYSECOND give 1728 times of day \(limit 1440\)/,
    ],
    ['FREQ=HOURLY;UNTIL=21000101T000000Z', /more than 100000 occurrences \(limit 100000/],
  ];
  for (const [rule, reason] of cases) {
    const got = refusal(rule, paris, 'rules');
    assert.ok(got.startsWith('rules: '), `~> ${rule}: ${got}`);
    assert.match(got, reason, `~> ${rule}: ${got}`);
  }
});

rules("the limits' edges are accepted", () => {
  assert.ok(parseRecurrence(`FREQ=DAILY;COUNT=${RECURRENCE_LIMITS.maxCount}`, paris));
  assert.ok(parseRecurrence(`FREQ=YEARLY;INTERVAL=${RECURRENCE_LIMITS.maxInterval}`, paris));
  assert.ok(parseRecurrence('FREQ=SECONDLY;COUNT=1000', paris));
  assert.ok(parseRecurrence('FREQ=MINUTELY;INTERVAL=15;UNTIL=20300106T000000Z', paris));
  // a bounded series just under the total: daily for 270 years
  assert.ok(parseRecurrence('FREQ=DAILY;UNTIL=23000101T000000Z', paris));
  // open-ended rules are not counted
  assert.ok(parseRecurrence('FREQ=HOURLY', paris));
});

rules('several rules: the refusal says which', () => {
  assert.match(refusal('RRULE:FREQ=DAILY\nRRULE:FREQ=WEEKLY;BYDAY=ZZ'), /rule 2: BYDAY=ZZ/);
  const many = Array.from({ length: RECURRENCE_LIMITS.maxRules + 1 }, () => 'RRULE:FREQ=DAILY').join('\n');
  assert.match(refusal(many), /11 rules \(limit 10\)/);
  const dates = Array.from(
    { length: RECURRENCE_LIMITS.maxDates + 1 },
    (_, i) => `2031-01-01 ${String(Math.floor(i / 60) % 24).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`,
  );
  assert.match(refusal({ rules: [], rdates: dates }), /1001 RDATEs \(limit 1000\)/);
});

rules('all-day series: days only', () => {
  assert.match(refusal('FREQ=HOURLY;COUNT=3', allDay), /an all-day series repeats by days at the most/);
  assert.match(refusal('FREQ=DAILY;BYHOUR=9', allDay), /BYHOUR: an all-day series has no time of day/);
  assert.equal(shown('FREQ=WEEKLY;UNTIL=20300201T120000Z', allDay).rules, ['FREQ=WEEKLY;UNTIL=20300201']);
});

rules('a rule with no instance after DTSTART gives DTSTART alone, at once', () => {
  const t0 = performance.now();
  assert.equal(locals('FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30', 5), ['2030-01-04 09:00:00']);
  assert.equal(locals('FREQ=DAILY;INTERVAL=7;BYDAY=MO', 5), ['2030-01-04 09:00:00']);
  assert.ok(performance.now() - t0 < 2000);
});

rules("the event's own start and zone must be valid", () => {
  assert.match(
    refusal('FREQ=DAILY', { ...paris, timezone: 'Nowhere/Else' }),
    /the event's time zone "Nowhere\/Else" is not valid/,
  );
  assert.match(
    refusal('FREQ=DAILY', { ...paris, start: '2030-01-04' }),
    /the event's start "2030-01-04" is not a date/,
  );
});

rules('zones without a TZID name (UTC, UTC+2) write their dates in UTC', () => {
  const utc2: SeriesTime = { start: '2030-01-04 09:00:00', timezone: 'UTC+2', allDay: false };
  assert.equal(
    shown({ rules: 'FREQ=DAILY;COUNT=2', exdates: ['2030-01-05 09:00'] }, utc2).text,
    'RRULE:FREQ=DAILY;COUNT=2\nEXDATE:20300105T070000Z',
  );
  const utc: SeriesTime = { ...utc2, timezone: 'UTC' };
  assert.equal(
    shown({ rules: 'FREQ=DAILY;COUNT=2', rdates: ['2030-02-05 09:00'] }, utc).text,
    'RRULE:FREQ=DAILY;COUNT=2\nRDATE:20300205T090000Z',
  );
});

rules.run();
