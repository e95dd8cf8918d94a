// RFC 5545 §3.8.5.3's examples (DTSTART in America/New_York, as there), each checked against the
// RFC's own list of instances and against rrule; then the rules on which rrule 2.8.1 is wrong,
// with what RFC 5545 says instead.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { occurrences, parseRecurrence } from '../../src/recurrence/index.ts';
import type { SeriesTime } from '../../src/recurrence/index.ts';
import { fields, rruleInstances } from './reference.ts';

const NY = 'America/New_York';

/** 'YYYYMMDDTHHMMSS' → 'YYYY-MM-DD HH:MM:SS' */
const local = (ical: string) =>
  `${ical.slice(0, 4)}-${ical.slice(4, 6)}-${ical.slice(6, 8)} ${ical.slice(9, 11)}:${ical.slice(11, 13)}:${ical.slice(13, 15)}`;

/** Days given as 'YYYY-MM-DD' or, after the first, 'MM-DD' (same year as the previous), at `time`. */
function days(list: string, time = '09:00:00'): string[] {
  let year = '';
  return list
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((d) => {
      if (d.length === 10) year = d.slice(0, 4);
      return `${d.length === 10 ? d : `${year}-${d}`} ${time}`;
    });
}

/** The first `n` occurrences' local times of `text` on a series starting at `dtstart` (as RFC 5545 writes it). */
function expand(dtstart: string, text: string, n: number, tz = NY): string[] {
  const series: SeriesTime = { start: local(dtstart), timezone: tz, allDay: false };
  const out: string[] = [];
  for (const o of occurrences(parseRecurrence(text, series)!, series)) {
    if (out.length >= n) break;
    out.push(o.local);
  }
  return out;
}

/** rrule's first `n` instances in floating time (DTSTART added when the rule leaves it out, as RFC 5545 counts it). */
function reference(dtstart: string, rule: string, n: number): string[] {
  const start = Date.parse(`${local(dtstart).replace(' ', 'T')}Z`);
  // UNTIL in UTC read as floating wall-clock time: the RFC's examples are all in EDT/EST, 4-5 hours behind
  const floatingRule = rule.replace(
    /UNTIL=(\d{8}T\d{6})Z/,
    (_, u: string) =>
      `UNTIL=${fields(Date.parse(`${local(u).replace(' ', 'T')}Z`) - 4 * 3_600_000).replace(/[-: ]/g, (c) => (c === ' ' ? 'T' : ''))}`,
  );
  const got = rruleInstances(floatingRule, start, Date.UTC(2010, 0, 1))
    .slice(0, n + 1)
    .map(fields);
  if (got[0] !== local(dtstart)) got.unshift(local(dtstart));
  return got.slice(0, n);
}

interface Example {
  title: string;
  dtstart: string;
  rule: string;
  want: string[];
  /** more of the RFC text than the RRULE (an EXDATE) */
  extra?: string;
  /** the list is the whole set (COUNT or UNTIL), not its start */
  whole?: boolean;
}

const EXAMPLES: Example[] = [
  {
    title: 'Daily for 10 occurrences',
    dtstart: '19970902T090000',
    rule: 'FREQ=DAILY;COUNT=10',
    whole: true,
    want: days('1997-09-02 09-03 09-04 09-05 09-06 09-07 09-08 09-09 09-10 09-11'),
  },
  {
    title: 'Every other day - forever',
    dtstart: '19970902T090000',
    rule: 'FREQ=DAILY;INTERVAL=2',
    want: days('1997-09-02 09-04 09-06 09-08 09-10 09-12'),
  },
  {
    title: 'Every 10 days, 5 occurrences',
    dtstart: '19970902T090000',
    rule: 'FREQ=DAILY;INTERVAL=10;COUNT=5',
    whole: true,
    want: days('1997-09-02 09-12 09-22 10-02 10-12'),
  },
  {
    title: 'Weekly for 10 occurrences',
    dtstart: '19970902T090000',
    rule: 'FREQ=WEEKLY;COUNT=10',
    whole: true,
    want: days('1997-09-02 09-09 09-16 09-23 09-30 10-07 10-14 10-21 10-28 11-04'),
  },
  {
    title: 'Every other week - forever',
    dtstart: '19970902T090000',
    rule: 'FREQ=WEEKLY;INTERVAL=2;WKST=SU',
    want: days('1997-09-02 09-16 09-30 10-14 10-28 11-11 11-25 12-09 12-23 1998-01-06 01-20 02-03 02-17'),
  },
  {
    title: 'Weekly on Tuesday and Thursday for five weeks (UNTIL)',
    dtstart: '19970902T090000',
    rule: 'FREQ=WEEKLY;UNTIL=19971007T000000Z;WKST=SU;BYDAY=TU,TH',
    whole: true,
    want: days('1997-09-02 09-04 09-09 09-11 09-16 09-18 09-23 09-25 09-30 10-02'),
  },
  {
    title: 'Weekly on Tuesday and Thursday for five weeks (COUNT)',
    dtstart: '19970902T090000',
    rule: 'FREQ=WEEKLY;COUNT=10;WKST=SU;BYDAY=TU,TH',
    whole: true,
    want: days('1997-09-02 09-04 09-09 09-11 09-16 09-18 09-23 09-25 09-30 10-02'),
  },
  {
    title: 'Every other week on Monday, Wednesday, and Friday until December 24, 1997',
    dtstart: '19970901T090000',
    whole: true,
    rule: 'FREQ=WEEKLY;INTERVAL=2;UNTIL=19971224T000000Z;WKST=SU;BYDAY=MO,WE,FR',
    want: days(
      '1997-09-01 09-03 09-05 09-15 09-17 09-19 09-29 10-01 10-03 10-13 10-15 10-17 10-27 10-29 10-31 11-10 11-12 11-14 11-24 11-26 11-28 12-08 12-10 12-12 12-22',
    ),
  },
  {
    title: 'Every other week on Tuesday and Thursday, for 8 occurrences',
    dtstart: '19970902T090000',
    rule: 'FREQ=WEEKLY;INTERVAL=2;COUNT=8;WKST=SU;BYDAY=TU,TH',
    whole: true,
    want: days('1997-09-02 09-04 09-16 09-18 09-30 10-02 10-14 10-16'),
  },
  {
    title: 'Monthly on the first Friday for 10 occurrences',
    dtstart: '19970905T090000',
    rule: 'FREQ=MONTHLY;COUNT=10;BYDAY=1FR',
    whole: true,
    want: days('1997-09-05 10-03 11-07 12-05 1998-01-02 02-06 03-06 04-03 05-01 06-05'),
  },
  {
    title: 'Monthly on the first Friday until December 24, 1997',
    dtstart: '19970905T090000',
    rule: 'FREQ=MONTHLY;UNTIL=19971224T000000Z;BYDAY=1FR',
    whole: true,
    want: days('1997-09-05 10-03 11-07 12-05'),
  },
  {
    title: 'Every other month on the first and last Sunday of the month for 10 occurrences',
    dtstart: '19970907T090000',
    rule: 'FREQ=MONTHLY;INTERVAL=2;COUNT=10;BYDAY=1SU,-1SU',
    whole: true,
    want: days('1997-09-07 09-28 11-02 11-30 1998-01-04 01-25 03-01 03-29 05-03 05-31'),
  },
  {
    title: 'Monthly on the second-to-last Monday of the month for 6 months',
    dtstart: '19970922T090000',
    rule: 'FREQ=MONTHLY;COUNT=6;BYDAY=-2MO',
    whole: true,
    want: days('1997-09-22 10-20 11-17 12-22 1998-01-19 02-16'),
  },
  {
    title: 'Monthly on the third-to-the-last day of the month, forever',
    dtstart: '19970928T090000',
    rule: 'FREQ=MONTHLY;BYMONTHDAY=-3',
    want: days('1997-09-28 10-29 11-28 12-29 1998-01-29 02-26'),
  },
  {
    title: 'Monthly on the 2nd and 15th of the month for 10 occurrences',
    dtstart: '19970902T090000',
    rule: 'FREQ=MONTHLY;COUNT=10;BYMONTHDAY=2,15',
    whole: true,
    want: days('1997-09-02 09-15 10-02 10-15 11-02 11-15 12-02 12-15 1998-01-02 01-15'),
  },
  {
    title: 'Monthly on the first and last day of the month for 10 occurrences',
    dtstart: '19970930T090000',
    rule: 'FREQ=MONTHLY;COUNT=10;BYMONTHDAY=1,-1',
    whole: true,
    want: days('1997-09-30 10-01 10-31 11-01 11-30 12-01 12-31 1998-01-01 01-31 02-01'),
  },
  {
    title: 'Every 18 months on the 10th thru 15th of the month for 10 occurrences',
    dtstart: '19970910T090000',
    rule: 'FREQ=MONTHLY;INTERVAL=18;COUNT=10;BYMONTHDAY=10,11,12,13,14,15',
    whole: true,
    want: days('1997-09-10 09-11 09-12 09-13 09-14 09-15 1999-03-10 03-11 03-12 03-13'),
  },
  {
    title: 'Every Tuesday, every other month',
    dtstart: '19970902T090000',
    rule: 'FREQ=MONTHLY;INTERVAL=2;BYDAY=TU',
    want: days(
      '1997-09-02 09-09 09-16 09-23 09-30 11-04 11-11 11-18 11-25 1998-01-06 01-13 01-20 01-27 03-03 03-10 03-17 03-24 03-31',
    ),
  },
  {
    title: 'Yearly in June and July for 10 occurrences',
    dtstart: '19970610T090000',
    rule: 'FREQ=YEARLY;COUNT=10;BYMONTH=6,7',
    whole: true,
    want: days('1997-06-10 07-10 1998-06-10 07-10 1999-06-10 07-10 2000-06-10 07-10 2001-06-10 07-10'),
  },
  {
    title: 'Every other year on January, February, and March for 10 occurrences',
    dtstart: '19970310T090000',
    rule: 'FREQ=YEARLY;INTERVAL=2;COUNT=10;BYMONTH=1,2,3',
    whole: true,
    want: days('1997-03-10 1999-01-10 02-10 03-10 2001-01-10 02-10 03-10 2003-01-10 02-10 03-10'),
  },
  {
    title: 'Every third year on the 1st, 100th, and 200th day for 10 occurrences',
    dtstart: '19970101T090000',
    rule: 'FREQ=YEARLY;INTERVAL=3;COUNT=10;BYYEARDAY=1,100,200',
    whole: true,
    want: days('1997-01-01 04-10 07-19 2000-01-01 04-09 07-18 2003-01-01 04-10 07-19 2006-01-01'),
  },
  {
    title: 'Every 20th Monday of the year, forever',
    dtstart: '19970519T090000',
    rule: 'FREQ=YEARLY;BYDAY=20MO',
    want: days('1997-05-19 1998-05-18 1999-05-17'),
  },
  {
    title: 'Monday of week number 20 (where the default start of the week is Monday), forever',
    dtstart: '19970512T090000',
    rule: 'FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO',
    want: days('1997-05-12 1998-05-11 1999-05-17'),
  },
  {
    title: 'Every Thursday in March, forever',
    dtstart: '19970313T090000',
    rule: 'FREQ=YEARLY;BYMONTH=3;BYDAY=TH',
    want: days('1997-03-13 03-20 03-27 1998-03-05 03-12 03-19 03-26 1999-03-04 03-11 03-18 03-25'),
  },
  {
    title: 'Every Thursday, but only during June, July, and August, forever',
    dtstart: '19970605T090000',
    rule: 'FREQ=YEARLY;BYDAY=TH;BYMONTH=6,7,8',
    want: days(`1997-06-05 06-12 06-19 06-26 07-03 07-10 07-17 07-24 07-31 08-07 08-14 08-21 08-28
      1998-06-04 06-11 06-18 06-25 07-02 07-09 07-16 07-23 07-30 08-06 08-13 08-20 08-27
      1999-06-03 06-10 06-17 06-24 07-01 07-08 07-15 07-22 07-29 08-05 08-12 08-19 08-26`),
  },
  {
    title: 'Every Friday the 13th, forever (DTSTART excluded)',
    dtstart: '19970902T090000',
    rule: 'FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13',
    extra: 'EXDATE;TZID=America/New_York:19970902T090000',
    want: days('1998-02-13 03-13 11-13 1999-08-13 2000-10-13'),
  },
  {
    title: 'The first Saturday that follows the first Sunday of the month, forever',
    dtstart: '19970913T090000',
    rule: 'FREQ=MONTHLY;BYDAY=SA;BYMONTHDAY=7,8,9,10,11,12,13',
    want: days('1997-09-13 10-11 11-08 12-13 1998-01-10 02-07 03-07 04-11 05-09 06-13'),
  },
  {
    title: 'Every 4 years, the first Tuesday after a Monday in November, forever',
    dtstart: '19961105T090000',
    rule: 'FREQ=YEARLY;INTERVAL=4;BYMONTH=11;BYDAY=TU;BYMONTHDAY=2,3,4,5,6,7,8',
    want: days('1996-11-05 2000-11-07 2004-11-02'),
  },
  {
    title: 'The third instance into the month of one of Tuesday, Wednesday, or Thursday, for the next 3 months',
    dtstart: '19970904T090000',
    rule: 'FREQ=MONTHLY;COUNT=3;BYDAY=TU,WE,TH;BYSETPOS=3',
    whole: true,
    want: days('1997-09-04 10-07 11-06'),
  },
  {
    title: 'The second-to-last weekday of the month',
    dtstart: '19970929T090000',
    rule: 'FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-2',
    want: days('1997-09-29 10-30 11-27 12-30 1998-01-29 02-26 03-30'),
  },
  {
    title: 'Every 15 minutes for 6 occurrences',
    dtstart: '19970902T090000',
    rule: 'FREQ=MINUTELY;INTERVAL=15;COUNT=6',
    whole: true,
    want: ['09:00', '09:15', '09:30', '09:45', '10:00', '10:15'].map((t) => `1997-09-02 ${t}:00`),
  },
  {
    title: 'Every hour and a half for 4 occurrences',
    dtstart: '19970902T090000',
    rule: 'FREQ=MINUTELY;INTERVAL=90;COUNT=4',
    whole: true,
    want: ['09:00', '10:30', '12:00', '13:30'].map((t) => `1997-09-02 ${t}:00`),
  },
  {
    title: 'An example where the days generated makes a difference because of WKST (MO)',
    dtstart: '19970805T090000',
    rule: 'FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO',
    whole: true,
    want: days('1997-08-05 08-10 08-19 08-24'),
  },
  {
    title: 'An example where the days generated makes a difference because of WKST (SU)',
    dtstart: '19970805T090000',
    rule: 'FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU',
    whole: true,
    want: days('1997-08-05 08-17 08-19 08-31'),
  },
  {
    title: 'An example where an invalid date (i.e., February 30) is ignored',
    dtstart: '20070115T090000',
    rule: 'FREQ=MONTHLY;BYMONTHDAY=15,30;COUNT=5',
    whole: true,
    want: days('2007-01-15 01-30 02-15 03-15 03-30'),
  },
];

const rfc = suite('RFC 5545 §3.8.5.3 examples');

for (const ex of EXAMPLES) {
  rfc(ex.title, () => {
    const text = `RRULE:${ex.rule}${ex.extra ? `\n${ex.extra}` : ''}`;
    const n = ex.whole ? ex.want.length + 5 : ex.want.length;
    assert.equal(expand(ex.dtstart, text, n), ex.want, "~> the RFC's list");
    if (!ex.extra) assert.equal(reference(ex.dtstart, ex.rule, n), ex.want, '~> rrule agrees');
  });
}

rfc('Daily until December 24, 1997: 113 days, at 09:00 in EDT and then EST', () => {
  const series: SeriesTime = { start: '1997-09-02 09:00:00', timezone: NY, allDay: false };
  const all = [...occurrences(parseRecurrence('RRULE:FREQ=DAILY;UNTIL=19971224T000000Z', series)!, series)];
  assert.is(all.length, 113);
  assert.is(all[112].local, '1997-12-23 09:00:00');
  const at = (d: string) => new Date(all.find((o) => o.local.startsWith(d))!.utc).toISOString();
  assert.is(at('1997-10-25'), '1997-10-25T13:00:00.000Z');
  assert.is(at('1997-10-26'), '1997-10-26T14:00:00.000Z');
});

rfc('Everyday in January, for 3 years: the YEARLY and the DAILY forms give the same 93 days', () => {
  const yearly = expand(
    '19980101T090000',
    'RRULE:FREQ=YEARLY;UNTIL=20000131T140000Z;BYMONTH=1;BYDAY=SU,MO,TU,WE,TH,FR,SA',
    200,
  );
  const daily = expand('19980101T090000', 'RRULE:FREQ=DAILY;UNTIL=20000131T140000Z;BYMONTH=1', 200);
  assert.is(yearly.length, 93);
  assert.equal(daily, yearly);
  assert.equal(
    [yearly[0], yearly[31], yearly[92]],
    ['1998-01-01 09:00:00', '1999-01-01 09:00:00', '2000-01-31 09:00:00'],
  );
});

rfc('Every 3 hours from 9:00 AM to 5:00 PM on a specific day: UNTIL=...170000Z is 13:00 EDT', () => {
  // The RFC lists 09:00, 12:00 and 15:00 EDT, which reads UNTIL as local time; UNTIL with Z is UTC
  // (§3.3.10), 17:00Z is 13:00 EDT, and 15:00 EDT is after it. UTC it is here.
  assert.equal(expand('19970902T090000', 'RRULE:FREQ=HOURLY;INTERVAL=3;UNTIL=19970902T170000Z', 10), [
    '1997-09-02 09:00:00',
    '1997-09-02 12:00:00',
  ]);
  assert.equal(expand('19970902T090000', 'RRULE:FREQ=HOURLY;INTERVAL=3;UNTIL=19970902T210000Z', 10), [
    '1997-09-02 09:00:00',
    '1997-09-02 12:00:00',
    '1997-09-02 15:00:00',
  ]);
});

rfc(
  'Every 20 minutes from 9:00 AM to 4:40 PM every day: the DAILY form; the open-ended MINUTELY form is over the limit',
  () => {
    const daily = expand('19970902T090000', 'RRULE:FREQ=DAILY;BYHOUR=9,10,11,12,13,14,15,16;BYMINUTE=0,20,40', 25);
    assert.equal(daily.slice(0, 4), [
      '1997-09-02 09:00:00',
      '1997-09-02 09:20:00',
      '1997-09-02 09:40:00',
      '1997-09-02 10:00:00',
    ]);
    assert.equal(daily.slice(23), ['1997-09-02 16:40:00', '1997-09-03 09:00:00']);
    const minutely = expand(
      '19970902T090000',
      'RRULE:FREQ=MINUTELY;INTERVAL=20;BYHOUR=9,10,11,12,13,14,15,16;COUNT=25',
      25,
    );
    assert.equal(minutely, daily);
    const series: SeriesTime = { start: '1997-09-02 09:00:00', timezone: NY, allDay: false };
    assert.throws(
      () => parseRecurrence('RRULE:FREQ=MINUTELY;INTERVAL=20;BYHOUR=9,10,11,12,13,14,15,16', series),
      /rest_invalid_param|Invalid parameter/,
    );
  },
);

rfc.run();

// ---

const wrong = suite('where rrule 2.8.1 is wrong');

wrong('BYDAY mixing a weekday with and without an ordinal (1WE,FR): rrule yields nothing', () => {
  // §3.3.10: each BYDAY value adds its days; 1WE is the month's first Wednesday, FR every Friday
  const want = days('2007-04-04 04-06 04-13 04-20 04-27 05-02');
  assert.equal(expand('20070404T090000', 'RRULE:FREQ=MONTHLY;BYDAY=1WE,FR;COUNT=6', 10), want);
  assert.equal(rruleInstances('FREQ=MONTHLY;BYDAY=1WE,FR;COUNT=6', Date.UTC(2007, 3, 4, 9), Date.UTC(2008, 0, 1)), []);
});

wrong('BYHOUR not in ascending order: rrule yields out of order, and BYSETPOS picks by the written order', () => {
  // instances are a set in time order; BYSETPOS=-1 is the day's last, 17:00
  // DTSTART (09:00) first, then the rule's three
  assert.equal(expand('20300102T090000', 'RRULE:FREQ=DAILY;BYHOUR=17,10;COUNT=3', 10), [
    '2030-01-02 09:00:00',
    '2030-01-02 10:00:00',
    '2030-01-02 17:00:00',
    '2030-01-03 10:00:00',
  ]);
  assert.equal(
    rruleInstances('FREQ=DAILY;BYHOUR=17,10;COUNT=3', Date.UTC(2030, 0, 2, 9), Date.UTC(2031, 0, 1)).map(fields),
    ['2030-01-02 17:00:00', '2030-01-02 10:00:00', '2030-01-03 17:00:00'],
  );
  assert.equal(expand('20300102T170000', 'RRULE:FREQ=DAILY;BYHOUR=17,10;BYSETPOS=-1;COUNT=2', 10), [
    '2030-01-02 17:00:00',
    '2030-01-03 17:00:00',
  ]);
  assert.equal(
    rruleInstances('FREQ=DAILY;BYHOUR=17,10;BYSETPOS=-1;COUNT=2', Date.UTC(2030, 0, 2, 17), Date.UTC(2031, 0, 1)).map(
      fields,
    ),
    ['2030-01-03 10:00:00', '2030-01-04 10:00:00'],
  );
});

wrong('BYSETPOS=-2 of a one-instance set: there is no second-to-last; rrule takes the only one', () => {
  assert.equal(expand('20300101T090000', 'RRULE:FREQ=MONTHLY;BYMONTHDAY=1;BYSETPOS=-2;COUNT=3', 10), [
    '2030-01-01 09:00:00',
  ]);
  assert.equal(
    rruleInstances('FREQ=MONTHLY;BYMONTHDAY=1;BYSETPOS=-2;COUNT=3', Date.UTC(2030, 0, 1, 9), Date.UTC(2031, 0, 1))
      .length,
    3,
  );
});

wrong('BYSETPOS=1,-1 of a one-instance set: one instance, counted once; rrule repeats it and counts it twice', () => {
  assert.equal(
    expand('20300101T090000', 'RRULE:FREQ=MONTHLY;BYMONTHDAY=1;BYSETPOS=1,-1;COUNT=4', 10),
    days('2030-01-01 02-01 03-01 04-01'),
  );
  assert.equal(
    rruleInstances(
      'FREQ=MONTHLY;BYMONTHDAY=1;BYSETPOS=1,-1;COUNT=4',
      Date.UTC(2030, 0, 1, 9),
      Date.UTC(2031, 0, 1),
    ).map(fields),
    days('2030-01-01 01-01 02-01 02-01'),
  );
});

wrong("WEEKLY with BYSETPOS: the set is the whole week; rrule drops the days of DTSTART's week before DTSTART", () => {
  // 1997-09-04 is a Thursday; that week's Tuesday and Thursday are {09-02, 09-04}: the 2nd is 09-04
  assert.equal(
    expand('19970904T090000', 'RRULE:FREQ=WEEKLY;BYDAY=TU,TH;BYSETPOS=2;COUNT=3', 10),
    days('1997-09-04 09-11 09-18'),
  );
  assert.equal(
    rruleInstances('FREQ=WEEKLY;BYDAY=TU,TH;BYSETPOS=2;COUNT=3', Date.UTC(1997, 8, 4, 9), Date.UTC(1998, 0, 1)).map(
      fields,
    ),
    days('1997-09-11 09-18 09-25'),
  );
});

wrong(
  "BYWEEKNO=53: 2021 has 52 weeks, so 2022-01-01 is in week 52; rrule counts 2021's weeks with 2022's length",
  () => {
    // ISO weeks (WKST=MO): 2020-W53 ends Sunday 2021-01-03; 2021 has 52 weeks (it starts on a
    // Friday); the next week 53 is 2026-W53, Monday 2026-12-28 to Sunday 2027-01-03
    assert.equal(
      expand('20200104T090000', 'RRULE:FREQ=YEARLY;BYWEEKNO=53;BYDAY=SA;COUNT=3', 3),
      days('2020-01-04 2021-01-02 2027-01-02'),
    );
    assert.equal(
      rruleInstances('FREQ=YEARLY;BYWEEKNO=53;BYDAY=SA;COUNT=3', Date.UTC(2020, 0, 4, 9), Date.UTC(2030, 0, 1)).map(
        fields,
      ),
      days('2021-01-02 2022-01-01 2027-01-02'),
    );
    // and week 52 of 2021 does hold Saturday 2022-01-01
    assert.ok(expand('20210101T090000', 'RRULE:FREQ=YEARLY;BYWEEKNO=52;BYDAY=SA', 4).includes('2022-01-01 09:00:00'));
  },
);

wrong.run();
