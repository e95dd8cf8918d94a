import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { endOfNaiveDay, naiveFromString, naiveToString, startOfNaiveDay } from '../../src/engine/naive-time.ts';

const naive = suite('naive-time');

naive('round trip :: ordinary, leap day, years below 100, year 9999', () => {
  for (const s of ['2026-03-04 15:00:00', '2024-02-29 23:59:59', '0001-01-01 00:00:00', '0099-12-31 12:30:45', '9999-12-31 23:59:59']) {
    assert.is(naiveToString(naiveFromString(s)), s);
  }
  assert.is(naiveFromString('2026-03-04 15:00:00'), Date.UTC(2026, 2, 4, 15));
});

naive('rejects :: wrong shapes and out-of-range fields', () => {
  for (const s of ['2026-3-4 15:00:00', '2026-13-01 00:00:00', '2026-01-01 24:00:00', '2026-01-01 00:60:00', 'tomorrow', '']) {
    assert.ok(Number.isNaN(naiveFromString(s)), s);
  }
  assert.is(naiveFromString('2026-03-04T15:00:00'), Date.UTC(2026, 2, 4, 15));
});

naive('day bounds', () => {
  const t = naiveFromString('2026-03-04 15:20:00');
  assert.is(naiveToString(startOfNaiveDay(t)), '2026-03-04 00:00:00');
  assert.is(naiveToString(endOfNaiveDay(t)), '2026-03-04 23:59:59');
});

naive.run();
