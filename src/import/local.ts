// The checks of an import record that need nothing but the record itself and the site's zone and
// clock: field types, dates and time zones, slugs as wanted, flags, link ids as given. The
// import's Importer (import.ts) runs them in between the checks that need the calendar (ids in
// use, unique slugs, images); a parallel import's workers (worker.ts) run them alone, on
// the other core, and hand the results over packed (pack.ts). One implementation, so
// both take and reject the same records with the same messages.

import { naiveFromString } from '../engine/naive-time.ts';
import { POST_STATUSES, type PostStatus } from '../engine/records.ts';
import { epochToZoned, isValidTimezone, parseDateInput, zonedToEpoch } from '../api/wordpress/dates.ts';
import { asId, asList, asString, isTruthy } from '../api/wordpress/params.ts';
import { isValidUrl } from '../api/wordpress/text.ts';

/** A record's own problem: the caller names the record (list, index, id, line). */
export class RecordError extends Error {}

export function bad(message: string): never {
  throw new RecordError(message);
}

export type Rec = Record<string, unknown>;

// Each check comes in two forms: of a record's field by name (r[name]), and of the field's value
// already read (the *Of forms): a parallel import's workers read the fields of each record by
// name at their call sites (r.title...), where V8 finds them at once (the records JSON.parse makes
// share their hidden class), rather than by a computed name inside the helper, a lookup shared by
// every field (~20 ns each, ~60 a record).

export function str(r: Rec, name: string, fallback = ''): string {
  return strOf(r[name], name, fallback);
}

/** str() of the value of field `name` */
export function strOf(v: unknown, name: string, fallback = ''): string {
  if (v === undefined || v === null) return fallback;
  const s = asString(v);
  return s ?? bad(`${name} must be a string`);
}

export function req(r: Rec, name: string): string {
  return reqOf(r[name], name);
}

/** req() of the value of field `name` */
export function reqOf(v: unknown, name: string): string {
  const s = strOf(v, name).trim();
  return s !== '' ? s : bad(`${name} is required`);
}

/**
 * isValidUrl with a fast path: an http(s) URL of a lower-case host name (its last label begins
 * with a letter, so it is not read as an IPv4 address; no punycode label), an optional port of at
 * most 4 digits and a path of unreserved characters is valid without building a URL object
 * (which cost ~1 s of a million-event import, most events having a website).
 */
const SIMPLE_URL = /^https?:\/\/(?:[a-z0-9-]+\.)*[a-z][a-z0-9-]*(?::\d{1,4})?(?:\/[A-Za-z0-9\-._~/]*)?$/;
export function validUrl(s: string): boolean {
  return (SIMPLE_URL.test(s) && !s.includes('xn--')) || isValidUrl(s);
}

export function flag(r: Rec, name: string, fallback: boolean): boolean {
  return flagOf(r[name], fallback);
}

/** flag() of a field's value */
export function flagOf(v: unknown, fallback: boolean): boolean {
  return v === undefined || v === null ? fallback : isTruthy(v);
}

/** a positive integer that fits the engine's id columns */
export const isPlainId = (x: unknown): x is number =>
  typeof x === 'number' && x > 0 && x <= 0x7fffffff && Math.floor(x) === x;

/** every item is a plain id, none twice */
function distinctIds(list: unknown[]): boolean {
  for (let i = 0; i < list.length; i++) {
    if (!isPlainId(list[i])) return false;
    for (let j = 0; j < i; j++) if (list[j] === list[i]) return false;
  }
  return true;
}

/** An image value that means "no image" (anything else is looked up or made by the importer). */
export function noImage(v: unknown): boolean {
  return v === undefined || v === null || v === '' || v === 0 || v === false;
}

/** The record-local checks and conversions, with the site's zone and the import's clock. */
export class RecordReader {
  /** the import's stamps (its start), as naive ms, whole seconds */
  readonly stampsMs: { local: number; utc: number };
  /** the dates of the event being read, as naive ms (STAGED_DATES order) */
  readonly dates = new Float64Array(8);
  private readonly zoneOk = new Map<string, boolean>();

  /** `now`: the site's clock (relative dates such as "tomorrow" are read against it) */
  constructor(
    readonly siteZone: string,
    private readonly now: () => Date,
    stampsMs: { local: number; utc: number },
  ) {
    this.stampsMs = stampsMs;
  }

  zone(tz: string): string {
    if (tz === '') return this.siteZone;
    let ok = this.zoneOk.get(tz);
    if (ok === undefined) this.zoneOk.set(tz, (ok = isValidTimezone(tz)));
    return ok ? tz : bad(`timezone ${JSON.stringify(tz)} is not a valid time zone`);
  }

  /** A date in `tz`: 'Y-m-d H:i:s' fast, anything parseable otherwise; naive ms. */
  date(r: Rec, name: string, tz: string): number | undefined {
    return this.dateOf(r[name], name, tz);
  }

  /** date() of the value of field `name` */
  dateOf(v: unknown, name: string, tz: string): number | undefined {
    if (v === undefined || v === null || v === '') return undefined;
    if (typeof v === 'string') {
      const fast = naiveFromString(v);
      if (!Number.isNaN(fast)) return fast;
    }
    const n = parseDateInput(v, tz, this.now());
    return n ?? bad(`${name} is not a valid date`);
  }

  /** date/date_utc/modified/modified_utc stamps as naive ms into this.dates[4..7]; missing ones
   *  derived from the others or now. */
  stampsOf(r: Rec): void {
    const d = this.dates;
    this.stampPair(r.date, r.date_utc, 'date', 'date_utc', 4);
    const modified = r.modified,
      modifiedUtc = r.modified_utc;
    if (modified === undefined && modifiedUtc === undefined) {
      d[6] = d[4];
      d[7] = d[5];
    } else this.stampPair(modified, modifiedUtc, 'modified', 'modified_utc', 6);
  }

  /** One local/UTC stamp pair (the values of fields localName, utcName) into this.dates[at], [at + 1]. */
  private stampPair(localValue: unknown, utcValue: unknown, localName: string, utcName: string, at: number): void {
    const tz = this.siteZone,
      d = this.dates;
    const local = this.dateOf(localValue, localName, tz),
      utc = this.dateOf(utcValue, utcName, 'UTC');
    if (local !== undefined) {
      d[at] = local;
      d[at + 1] = utc ?? zonedToEpoch(local, tz);
    } else if (utc !== undefined) {
      d[at] = epochToZoned(utc, tz);
      d[at + 1] = utc;
    } else {
      d[at] = this.stampsMs.local;
      d[at + 1] = this.stampsMs.utc;
    }
  }

  status(r: Rec): PostStatus {
    return this.statusOf(r.status);
  }

  /** status() of the field's value */
  statusOf(v: unknown): PostStatus {
    const s = strOf(v, 'status', 'publish');
    return (POST_STATUSES as readonly string[]).includes(s)
      ? (s as PostStatus)
      : bad(`status ${JSON.stringify(s)} is not a post status`);
  }

  /** The id a record gives: undefined when it gives none (the importer allocates one). */
  givenId(r: Rec): number | undefined {
    return this.givenIdOf(r.id);
  }

  /** givenId() of the field's value */
  givenIdOf(v: unknown): number | undefined {
    if (v === undefined) return undefined;
    const id = asId(v);
    return id === undefined || id === 0 ? bad('id must be a positive integer') : id;
  }

  linkIds(r: Rec, name: string): number[] {
    return this.linkIdsOf(r[name], name);
  }

  /** linkIds() of the value of field `name` */
  linkIdsOf(v: unknown, name: string): number[] {
    if (v === undefined || v === null || v === '' || v === 0) return [];
    // the usual shapes, as export writes them: an id, or a list of distinct ids
    if (typeof v === 'number' && isPlainId(v)) return [v];
    if (Array.isArray(v) && distinctIds(v)) return v as number[];
    const items = Array.isArray(v)
      ? v.map((x) => (typeof x === 'object' && x !== null ? (x as Rec).id : x))
      : typeof v === 'object'
        ? [(v as Rec).id]
        : (asList(v) ?? bad(`${name} must be ids`));
    const ids: number[] = [];
    for (const item of items) {
      const id = asId(item);
      if (id === undefined) bad(`${name} ${JSON.stringify(item)} does not exist`);
      if (id !== 0 && !ids.includes(id)) ids.push(id);
    }
    return ids;
  }
}
