// Dates as the JSON text of an event's head, from naive ms: 'Y-m-d H:i:s' and its details
// object ({"year":"2024","month":"12",...}). Events share days and times of day, so the text of
// a day and of a time of day are each kept in a small direct-mapped table (4,096 slots each, a
// slot overwritten by the next key that maps to it): a date is then two table reads instead of
// formatting 19 characters and slicing six details out of them. Each date field of a head (start,
// end, and their UTC) keeps a table of its days with its key's texts around them (dateKey, 2,048
// slots). Bounded, whatever the calendar holds.

import { naiveToString } from '../../engine/naive-time.ts';

const SLOTS = 4096;
const DAY_MS = 86_400_000;

/** a day's text ends with the space before the time ('2024-03-01 '); a time's is 'H:i:s' */
interface Part {
  key: number;
  text: string;
  details: string;
}

const days: (Part | undefined)[] = new Array(SLOTS).fill(undefined);
const times: (Part | undefined)[] = new Array(SLOTS).fill(undefined);

/** naive ms within years 1000-9999 (whose string is four-digit year 'Y-m-d H:i:s'); others format on their own */
const MIN_MS = Date.UTC(1000, 0, 1),
  MAX_MS = Date.UTC(10000, 0, 1);

function day(d: number): Part {
  const slot = ((d % SLOTS) + SLOTS) % SLOTS;
  let p = days[slot];
  if (p === undefined || p.key !== d) {
    const s = naiveToString(d * DAY_MS);
    p = {
      key: d,
      text: s.slice(0, 11),
      details: `{"year":"${s.slice(0, 4)}","month":"${s.slice(5, 7)}","day":"${s.slice(8, 10)}"`,
    };
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
    const h = TWO_DIGITS[Math.floor(secs / 3600)],
      m = TWO_DIGITS[Math.floor(secs / 60) % 60],
      s = TWO_DIGITS[secs % 60];
    // each text made flat (joined, not concatenated): a rope would be walked again by every head's copy
    p = {
      key: secs,
      text: [h, m, s].join(':'),
      details: [',"hour":"', h, '","minutes":"', m, '","seconds":"', s, '"}'].join(''),
    };
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

/**
 * A date field of an event's head: its key, and a direct-mapped table of its days' texts with the
 * key's own texts around them, so that a date and its details are four ready pieces:
 * `"KEY":"Y-m-d ` · `H:i:s` · `","KEY_details":{"year":…,"day":"d"` · `,"hour":…}`.
 * `lead` is written before the key (',' for a field that follows another date).
 */
export interface DateKey {
  key: string;
  lead: string;
  open: string;
  details: string;
  days: (KeyedDay | undefined)[];
}
interface KeyedDay {
  key: number;
  open: string;
  details: string;
}

export const dateKey = (key: string, lead = ''): DateKey => ({
  key,
  lead,
  open: `${lead}"${key}":"`,
  details: `","${key}_details":`,
  days: new Array(KEYED_SLOTS).fill(undefined),
});

/** a keyed table's slots: 2,048 consecutive days (5.6 years) without two in one slot; four such
 *  tables at most about 1.5 MB */
const KEYED_SLOTS = 2048;

function keyedDay(k: DateKey, d: number): KeyedDay {
  const slot = ((d % KEYED_SLOTS) + KEYED_SLOTS) % KEYED_SLOTS;
  let p = k.days[slot];
  if (p === undefined || p.key !== d) {
    const dp = day(d);
    // made flat once (one string each): a head then copies them as they are
    p = { key: d, open: [k.open, dp.text].join(''), details: [k.details, dp.details].join('') };
    k.days[slot] = p;
  }
  return p;
}

/**
 * `LEAD"KEY":"Y-m-d H:i:s","KEY_details":{...}` of naive ms (whole seconds, years 1000-9999), or
 * undefined for any other value: four pieces, each a ready string.
 */
export function dateAndDetailsText(ms: number, k: DateKey): string | undefined {
  if (!(ms >= MIN_MS && ms < MAX_MS) || ms % 1000 !== 0) return undefined;
  const d = Math.floor(ms / DAY_MS);
  const dp = keyedDay(k, d),
    tp = time((ms - d * DAY_MS) / 1000);
  return dp.open + tp.text + dp.details + tp.details;
}
