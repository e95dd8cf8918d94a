// The expansion against two independent references over thousands of seeded random rules:
// rrule (python-dateutil's algorithm) for the instances in floating wall-clock time, and Intl for
// placing them in zones (DST in both hemispheres, Lord Howe's half-hour shift, Moscow's changes
// of 2011 and 2014, Apia's skipped 2011-12-30). Zero differences expected.
//
// The generator keeps to rules on which rrule 2.8.1 is right (see rfc-examples.test.ts for where it
// is not): BYDAY lists do not mix weekdays with and without ordinals, BYHOUR/BYMINUTE/BYSECOND lists
// are ascending, BYSETPOS goes with a day or time part and not with HOURLY or shorter, and its
// positions are positive or just -1 (rrule takes BYSETPOS=-2 of a one-instance set as that
// instance, and counts an instance two positions pick twice towards COUNT),
// a weekly rule with BYSETPOS starts on the first day of a week, and BYWEEKNO is not 52 or 53
// (rrule counts the weeks of the previous year with the current year's length).
// rrule walks period by period to year 9999 when a rule has no more instances, whatever UNTIL says,
// so the floating cases start late in year 9999's century; the zone cases start in real years. rrule
// leaves out a DTSTART that the rule does not produce, which RFC 5545 counts as the first
// occurrence: the reference adds it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { occurrences, parseRecurrence } from '../../src/recurrence/index.ts';
import type { SeriesTime } from '../../src/recurrence/index.ts';
import { fields, instantOf, rruleInstances, wallAt } from './reference.ts';

const SEED = Number(process.env.RECURRENCE_SEED ?? 20301);

/** mulberry32: a seeded PRNG, so a failure names its seed and reproduces */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const FREQS = ['YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY', 'HOURLY', 'MINUTELY'];
const DAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];
const DAY = 86_400_000;
const LAST = Date.UTC(9999, 11, 31, 23, 59, 59);
/** how far past DTSTART each FREQ is compared (the reference walks every period) */
const SPAN = [30 * 366 * DAY, 5 * 366 * DAY, 2 * 366 * DAY, 300 * DAY, 8 * DAY, DAY / 3];

interface Case {
  rule: string;
  freq: number;
  dtstart: number;
}

function randomRule(r: () => number, times: number[], far: boolean): Case {
  const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  const pick = <T>(a: T[]): T => a[Math.floor(r() * a.length)];
  const some = (a: number[], n: number) => [...new Set(Array.from({ length: n }, () => pick(a)))];
  const asc = (a: number[]) => a.sort((x, y) => x - y).join(',');
  const freq = int(0, 5);
  const parts = [`FREQ=${FREQS[freq]}`];
  if (r() < 0.4) parts.push(`INTERVAL=${pick(freq === 3 ? [1, 2, 3, 4, 5, 10] : [1, 2, 3, 4, 5, 7, 12, 18])}`);
  if (r() < 0.3) parts.push(`BYMONTH=${asc(some([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], int(1, 3)))}`);
  const byMonthDay = freq !== 2 && r() < 0.3;
  if (byMonthDay)
    parts.push(`BYMONTHDAY=${some([1, 2, 13, 15, 28, 29, 30, 31, -1, -2, -3, -31], int(1, 3)).join(',')}`);
  const ordinals = (freq === 0 || freq === 1) && r() < 0.5;
  if (r() < 0.45) {
    const n = int(1, 3);
    const items = Array.from(
      { length: n },
      () =>
        (ordinals
          ? String(
              pick(
                freq === 1 || parts.some((p) => p.startsWith('BYMONTH='))
                  ? [1, 2, 3, 4, -1, -2]
                  : [1, 2, 10, 20, 52, -1, -5],
              ),
            )
          : '') + pick(DAYS),
    );
    parts.push(`BYDAY=${[...new Set(items)].join(',')}`);
  }
  if (freq === 0 && !ordinals && !byMonthDay && r() < 0.2)
    parts.push(`BYWEEKNO=${some([1, 2, 10, 20, 30, -1, -2, -3], int(1, 2)).join(',')}`);
  if ((freq === 0 || freq === 4) && !parts.some((p) => p.startsWith('BYMONTH')) && r() < 0.2)
    parts.push(`BYYEARDAY=${some([1, 60, 100, 200, 365, 366, -1, -60, -366], int(1, 3)).join(',')}`);
  if (freq <= 3 && r() < 0.25) parts.push(`BYHOUR=${asc(some([0, 1, 2, 3, 9, 12, 17, 23], int(1, 3)))}`);
  if (freq <= 4 && r() < 0.2) parts.push(`BYMINUTE=${asc(some([0, 15, 30, 45], int(1, 2)))}`);
  if (freq <= 3 && parts.length > 1 && !parts.every((p) => /^(FREQ|INTERVAL)=/.test(p)) && r() < 0.2)
    parts.push(`BYSETPOS=${r() < 0.3 ? -1 : asc(some([1, 2, 3, 5], int(1, 2)))}`);
  if (r() < 0.2) parts.push(`WKST=${pick(DAYS)}`);
  const y = far
    ? [int(9940, 9975), int(9985, 9994), int(9990, 9997), int(9995, 9998), 9999, 9999][freq]
    : int(1998, 2032);
  const mo = far && freq >= 4 ? int(1, 11) : int(1, 12),
    d = int(1, 28);
  let dtstart = Date.UTC(y, mo - 1, d) + pick(times);
  if (freq === 2 && parts.some((p) => p.startsWith('BYSETPOS'))) {
    // rrule applies BYSETPOS to DTSTART's week from DTSTART's day on only: start on the week's first day
    const wkst = DAYS.indexOf(/WKST=(\w\w)/.exec(parts.join(';'))?.[1] ?? 'MO');
    dtstart -= ((new Date(dtstart).getUTCDay() + 6 - wkst) % 7) * DAY;
  }
  if (freq === 5) parts.push(`COUNT=${int(1, 200)}`);
  else if (r() < 0.5) parts.push(`COUNT=${int(1, 60)}`);
  else if (r() < 0.8)
    parts.push(
      `UNTIL=${fields(Math.min(dtstart + r() * SPAN[freq], LAST))
        .replace(/[-:]/g, '')
        .replace(' ', 'T')}`,
    );
  return { rule: parts.join(';'), freq, dtstart };
}

const series = (dtstart: number, timezone: string): SeriesTime => ({ start: fields(dtstart), timezone, allDay: false });

/** The reference for one case in floating time (zone UTC): rrule's instances up to the cutoff, with DTSTART. */
function expected(c: Case, cutoff: number): number[] {
  // rrule 2.8.1 repeats an instance that two BYSETPOS values pick (BYSETPOS=1,-1 of a one-instance set): once here
  const ref = [...new Set(rruleInstances(c.rule, c.dtstart, cutoff))];
  if (ref[0] !== c.dtstart) ref.unshift(c.dtstart);
  return ref;
}

// ---

const floating = suite('recurrence property :: floating time against rrule');

floating(`1500 random rules, whole expansions and random windows (seed ${SEED})`, () => {
  const r = rng(SEED);
  const times = [
    0,
    9 * 3_600_000,
    9.5 * 3_600_000,
    17 * 3_600_000 + 45 * 60_000,
    23 * 3_600_000 + 59 * 60_000 + 59_000,
  ];
  let compared = 0,
    instances = 0;
  for (let i = 0; i < 1500; i++) {
    const c = randomRule(r, times, true);
    const cutoff = c.dtstart + SPAN[c.freq];
    const s = series(c.dtstart, 'UTC');
    let set;
    try {
      set = parseRecurrence(`RRULE:${c.rule}`, s);
    } catch (e) {
      throw new Error(
        `case ${i}: DTSTART ${fields(c.dtstart)} RRULE:${c.rule}: ${JSON.stringify((e as { data?: unknown }).data)}`,
      );
    }
    const want = expected(c, cutoff);
    const got = [...occurrences(set!, s, undefined, cutoff + 1)].map((o) => o.utc);
    assert.equal(
      got.map(fields),
      want.map(fields),
      `~> case ${i} (seed ${SEED}): DTSTART ${fields(c.dtstart)} RRULE:${c.rule}`,
    );
    // a window: what lies in [from, to) of the whole, found without expanding from DTSTART (no COUNT)
    const from = c.dtstart + Math.floor(r() * (cutoff - c.dtstart)),
      to = from + Math.floor(r() * (cutoff - from)) + 1;
    const inWindow = [...occurrences(set!, s, from, to)].map((o) => o.utc);
    assert.equal(
      inWindow.map(fields),
      want.filter((t) => t >= from && t < to).map(fields),
      `~> case ${i} window [${fields(from)}, ${fields(to)}): RRULE:${c.rule}`,
    );
    compared++;
    instances += want.length;
  }
  assert.is(compared, 1500);
  assert.ok(instances > 30_000, `~> ${instances} instances compared`);
});

floating.run();

// ---

const zones = suite('recurrence property :: zones against Intl');

/** a wall-clock time each zone's spring-forward skips (Apia skipped all of 2011-12-30) */
const GAP_TIME: Record<string, number> = {
  'America/New_York': 2.5 * 3_600_000,
  'Europe/Paris': 2.5 * 3_600_000,
  'Australia/Sydney': 2.5 * 3_600_000,
  'America/Santiago': 0.5 * 3_600_000,
  'Australia/Lord_Howe': 2.25 * 3_600_000,
  'Europe/Moscow': 2.5 * 3_600_000,
  'Pacific/Apia': 3.5 * 3_600_000,
};

const ZONES = [
  'America/New_York',
  'Europe/Paris',
  'Australia/Sydney',
  'America/Santiago',
  'Australia/Lord_Howe',
  'Europe/Moscow',
  'Pacific/Apia',
];

zones(`400 random rules in 7 zones: instants and wall clocks as Intl places them (seed ${SEED})`, () => {
  const r = rng(SEED + 1);
  // times of day at and around the transitions of these zones (00:00 Santiago, 01:30-03:00 elsewhere)
  const times = [
    0,
    1800_000,
    3_600_000,
    1.5 * 3_600_000,
    2 * 3_600_000,
    2.5 * 3_600_000,
    3 * 3_600_000,
    9 * 3_600_000,
    23.5 * 3_600_000,
  ];
  let moved = 0,
    total = 0;
  for (let i = 0; i < 400; i++) {
    const tz = ZONES[i % ZONES.length];
    let c = randomRule(r, times, false);
    // start within a few years (Moscow and Apia: 2010-2014, when they changed their rules), so
    // that the reference's zone readings are shared between cases
    c = {
      ...c,
      dtstart:
        Date.UTC(tz === 'Europe/Moscow' || tz === 'Pacific/Apia' ? 2010 + (i % 5) : 2024 + (i % 4), 0, 1) +
        (c.dtstart % (366 * DAY)),
    };
    // every third case: a daily or weekly rule at a time the zone's spring-forward skips
    if (i % 3 === 0) {
      c = {
        rule: i % 2 ? 'FREQ=DAILY;COUNT=300' : 'FREQ=WEEKLY;BYDAY=SA,SU;COUNT=150',
        freq: i % 2 ? 3 : 2,
        dtstart: Math.floor(c.dtstart / DAY) * DAY + GAP_TIME[tz],
      };
    }
    const text = `RRULE:${c.rule.replace(/;UNTIL=[^;]*/, ';COUNT=300')}`;
    const cutoff = c.dtstart + SPAN[c.freq];
    // the wall-clock times: the floating expansion (checked against rrule above), each placed by Intl
    const floating = series(c.dtstart, 'UTC');
    const walls = [...occurrences(parseRecurrence(text, floating)!, floating, undefined, cutoff + 1)].map((o) => o.utc);
    const end = instantOf(cutoff, tz);
    const placed = [...new Set(walls.map((w) => instantOf(w, tz)))].sort((a, b) => a - b).filter((u) => u <= end);
    const s = series(c.dtstart, tz);
    const got = [...occurrences(parseRecurrence(text, s)!, s, undefined, end + 1)];
    assert.equal(
      got.map((o) => o.utc),
      placed,
      `~> case ${i} ${tz} (seed ${SEED}): DTSTART ${fields(c.dtstart)} ${text}`,
    );
    for (const o of got) {
      assert.is(o.local, fields(wallAt(o.utc, tz)), `~> case ${i}: local is the wall clock at the instant`);
      if (!walls.includes(wallAt(o.utc, tz))) moved++;
    }
    total += got.length;
  }
  assert.ok(total > 8_000, `~> ${total} occurrences`);
  assert.ok(moved > 50, `~> ${moved} occurrences moved out of a gap`);
});

zones.run();
