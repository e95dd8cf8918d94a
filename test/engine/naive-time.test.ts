import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  endOfNaiveDay,
  naiveFromString,
  naiveToString,
  startOfNaiveDay,
  utc,
  wholeSecondMs,
} from '../../src/engine/naive-time.ts';

const naive = suite('naive-time');

naive('round trip :: ordinary, leap day, years below 100, year 9999', () => {
  for (const s of [
    '2026-03-04 15:00:00',
    '2024-02-29 23:59:59',
    '0001-01-01 00:00:00',
    '0099-12-31 12:30:45',
    '9999-12-31 23:59:59',
  ]) {
    assert.is(naiveToString(naiveFromString(s)), s);
  }
  assert.is(naiveFromString('2026-03-04 15:00:00'), Date.UTC(2026, 2, 4, 15));
});

naive('rejects :: wrong shapes and out-of-range fields', () => {
  for (const s of [
    '2026-3-4 15:00:00',
    '2026-13-01 00:00:00',
    '2026-01-01 24:00:00',
    '2026-01-01 00:60:00',
    'tomorrow',
    '',
  ]) {
    assert.ok(Number.isNaN(naiveFromString(s)), s);
  }
  assert.is(naiveFromString('2026-03-04T15:00:00'), Date.UTC(2026, 2, 4, 15));
});

naive('day bounds', () => {
  const t = naiveFromString('2026-03-04 15:20:00');
  assert.is(naiveToString(startOfNaiveDay(t)), '2026-03-04 00:00:00');
  assert.is(naiveToString(endOfNaiveDay(t)), '2026-03-04 23:59:59');
});

naive('wholeSecondMs :: the same answer as v % 1000 === 0, near the bound and past it', () => {
  const B = 2 ** 52;
  const vs = [
    0,
    -0,
    1000,
    -1000,
    999,
    -999,
    1,
    0.5,
    1000.5,
    -1000.5,
    B,
    -B,
    B - 1,
    B - 8,
    B - 1000,
    B + 2,
    B + 1000,
    -B - 2,
    2 ** 53,
    2 ** 53 + 2,
    2 ** 60,
    -(2 ** 60),
    Infinity,
    -Infinity,
    NaN,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    1e300,
    Date.UTC(2026, 2, 4, 15),
    Date.UTC(2026, 2, 4, 15) + 1,
  ];
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < 20_000; i++) {
    const k = Math.floor((rnd() - 0.5) * 2 * (B / 1000));
    vs.push(
      k * 1000,
      k * 1000 + 1,
      k * 1000 - 1,
      k * 1000 + Math.floor(rnd() * 1000),
      (rnd() - 0.5) * 2 * B,
      (rnd() - 0.5) * 2 ** 64,
    );
  }
  for (const v of vs) assert.is(wholeSecondMs(v), v % 1000 === 0, String(v));
});

naive("utc :: Date.UTC for years 100-9999 (days past a month's end running over), years below 100 kept", () => {
  let seed = 3;
  const rnd = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % n;
  const years = [0, 1, 99, 100, 101, 399, 400, 1600, 1899, 1900, 1970, 1999, 2000, 2024, 2100, 2400, 9999];
  for (let i = 0; i < 100_000; i++) {
    const y = i < years.length * 372 ? years[i % years.length] : rnd(10_000),
      mo = i < years.length * 372 ? Math.floor(i / years.length) % 12 : rnd(12);
    const d = 1 + (i < years.length * 372 ? Math.floor(i / (years.length * 12)) % 31 : rnd(31)),
      h = rnd(24),
      mi = rnd(60),
      se = rnd(60);
    const want = y >= 100 ? Date.UTC(y, mo, d, h, mi, se) : new Date(Date.UTC(y, mo, d, h, mi, se)).setUTCFullYear(y);
    assert.is(utc(y, mo, d, h, mi, se), want, `${y}-${mo + 1}-${d} ${h}:${mi}:${se}`);
  }
});

naive.run();
