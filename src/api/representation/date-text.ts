// Dates as the JSON text of an event's head, from naive ms: 'Y-m-d H:i:s' and its details
// object ({"year":"2024","month":"12",...}). Events share days and times of day, so the text of
// a day and of a time of day are each kept in a small direct-mapped table (4,096 slots each, a
// slot overwritten by the next key that maps to it): a date is then two table reads instead of
// formatting 19 characters and slicing six details out of them. Bounded: at most 8,192 short
// strings pairs, whatever the calendar holds.

import { naiveToString } from '../../engine/naive-time.ts';

const SLOTS = 4096;
const DAY_MS = 86_400_000;

/** a day's text ends with the space before the time ('2024-03-01 '); a time's is 'H:i:s' */
interface Part { key: number; text: string; details: string }

const days: (Part | undefined)[] = new Array(SLOTS).fill(undefined);
const times: (Part | undefined)[] = new Array(SLOTS).fill(undefined);

/** naive ms within years 1000-9999 (whose string is four-digit year 'Y-m-d H:i:s'); others format on their own */
const MIN_MS = Date.UTC(1000, 0, 1), MAX_MS = Date.UTC(10000, 0, 1);

function day(d: number): Part {
  const slot = ((d % SLOTS) + SLOTS) % SLOTS;
  let p = days[slot];
  if (p === undefined || p.key !== d) {
    const s = naiveToString(d * DAY_MS);
    p = { key: d, text: s.slice(0, 11), details: `{"year":"${s.slice(0, 4)}","month":"${s.slice(5, 7)}","day":"${s.slice(8, 10)}"` };
    days[slot] = p;
  }
  return p;
}

/** '00' … '59' */
const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));

function time(secs: number): Part {
  const slot = secs % SLOTS;
  let p = times[slot];
  if (p === undefined || p.key !== secs) {
    // post dates (created, modified) carry any second of the day, so this table misses often:
    // its texts are made from two-digit strings, not by formatting a whole date
    const h = TWO_DIGITS[Math.floor(secs / 3600)], m = TWO_DIGITS[Math.floor(secs / 60) % 60], s = TWO_DIGITS[secs % 60];
    p = { key: secs, text: h + ':' + m + ':' + s, details: ',"hour":"' + h + '","minutes":"' + m + '","seconds":"' + s + '"}' };
    times[slot] = p;
  }
  return p;
}

/** 'Y-m-d H:i:s' of naive ms (whole seconds, years 1000-9999), or undefined for any other value. */
export function dateString(ms: number): string | undefined {
  if (!(ms >= MIN_MS && ms < MAX_MS) || ms % 1000 !== 0) return undefined;
  const d = Math.floor(ms / DAY_MS);
  return day(d).text + time((ms - d * DAY_MS) / 1000).text;
}

/** The texts around a date field's value: `"KEY":"` and `","KEY_details":`. */
export interface DateKey { key: string; open: string; details: string }
export const dateKey = (key: string): DateKey => ({ key, open: `"${key}":"`, details: `","${key}_details":` });

/**
 * `"KEY":"Y-m-d H:i:s","KEY_details":{...}` of naive ms (whole seconds, years 1000-9999), or
 * undefined for any other value: six pieces, each a ready string.
 */
export function dateAndDetailsText(ms: number, k: DateKey): string | undefined {
  if (!(ms >= MIN_MS && ms < MAX_MS) || ms % 1000 !== 0) return undefined;
  const d = Math.floor(ms / DAY_MS);
  const dp = day(d), tp = time((ms - d * DAY_MS) / 1000);
  return k.open + dp.text + tp.text + k.details + dp.details + tp.details;
}
