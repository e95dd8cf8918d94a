// A parallel import's unit of work: a block of an import file's events array, whole lines of one
// event each (the layout `export` writes), read by a worker thread (worker.ts). Each line
// is parsed and its event put through the record-local checks (local.ts); the results go
// back to the importing thread packed: numbers in typed arrays, strings in one array, small
// repeated strings (zones, costs, currencies) once a block. There, each event is checked against
// the calendar and the events before it (ids, slugs, images, links) and staged, in file order
// (ImportBuilder.addPacked): the outcome is the one of reading the file on one thread.
//
// What the worker does not take it stops at: a line that is not one whole event (another layout,
// the end of the array, bad JSON), after which the importing thread reads on as it always does.
// An event that fails a record-local check is not judged here: it is handed back as its text,
// and the importing thread gives it to the sequential path, which names its first problem.

import { isAscii, isUtf8, transcode } from 'node:buffer';
import { statusCode } from '../engine/records.ts';
import { listHash, ListInterner } from '../engine/list-interner.ts';
import { computeDatesMs } from '../api/events/write.ts';
import { slugHash } from './slugs.ts';
import { stringHash } from '../engine/hash-slots.ts';
import { bad, flagOf, noImage, RecordError, reqOf, strOf, validUrl, type Rec, type RecordReader } from './local.ts';
import { asId } from '../api/wordpress/params.ts';
import { sanitizeSlug } from '../api/wordpress/text.ts';
import type { SymbolTable } from '../engine/text-symbols.ts';
import { KeyPacker, P_TEXT_AT, type KeyBytes, type TextCoder, TextPacker } from './pack-texts.ts';

/** Int32 slots a packed event has (P_* indexes). */
export const P_INTS = 29;
export const P_ID = 0,
  P_AUTHOR = 1,
  P_STATUS = 2,
  P_FLAGS = 3,
  P_PARENT = 4,
  P_ZONE = 5,
  P_ABBR = 6,
  P_COST = 7;
export const P_SYMBOL = 8,
  P_POSITION = 9,
  P_CODE = 10,
  P_VENUES = 11,
  P_ORGANIZERS = 12,
  P_CATEGORIES = 13,
  P_TAGS = 14,
  P_LINE = 15;
/** the slugHash of the slug as wanted (when not ''), and the listHash of the organizer, category
 *  and tag lists (when not a singleton of a small id): what the importing thread finds them by */
export const P_SLUG_HASH = 16,
  P_ORGANIZERS_HASH = 17,
  P_CATEGORIES_HASH = 18,
  P_TAGS_HASH = 19;
/** the stringHash of the title: the importing thread finds its index in the title dictionary by it */
export const P_TITLE_HASH = 20;
/** (the P_TEXT_*, P_TITLE_* and P_SLUG_* slots: pack-texts.ts) */
export type { KeyBytes, TextCoder } from './pack-texts.ts';
/** strings a packed event of a block not coded has: description, excerpt, website (or null) */
export const P_STRINGS = 3;
/** P_STATUS of an event handed back as its text (a record-local check failed) */
export const P_REDO = 255;
/** P_ID of an event without an id; P_COST/P_SYMBOL/P_POSITION: no value (-1), P_COST: a value in extras (-2) */
export const P_NONE = -1,
  P_EXTRA = -2;

// P_FLAGS bits
export const B_ALL_DAY = 1,
  B_SHOW_MAP = 2,
  B_SHOW_MAP_LINK = 4,
  B_HIDDEN = 8,
  B_STICKY = 16,
  B_FEATURED = 32,
  B_TICKETED = 64;
/** no slug: none wanted and none given (a draft without one) */
export const B_NO_SLUG = 128;

export interface PackedEvents {
  /** events packed (staged or handed back) */
  n: number;
  /** 8 dates an event, naive ms (STAGED_DATES order) */
  f64: Float64Array;
  i32: Int32Array;
  /** the link lists of each event (venues, organizers, categories, tags; lengths in i32) */
  links: Int32Array;
  /** the texts of the events of a block not coded (textTag 0), P_STRINGS an event; empty when coded */
  strs: (string | null)[];
  /** the events' titles and slugs as wanted (P_TITLE_*, P_SLUG_*) */
  titles: KeyBytes;
  slugs: KeyBytes;
  /** the small strings P_ZONE, P_ABBR, P_COST, P_SYMBOL, P_POSITION, P_CODE index */
  pool: string[];
  /** what few events have, by event: a non-text cost, an image, a lineage */
  extras: { k: number; cost?: unknown; image?: unknown; lineage?: string[] }[];
  /** the text of the events handed back (P_REDO), by event */
  redo: { k: number; text: string }[];
  /** the byte the worker stopped at (the block's length when it took every line), its line (0-based in the block) */
  stop: number;
  stopLine: number;
  /** newlines in the block */
  lines: number;
  /** the last event taken ended its line with ',' (the array goes on; always so for JSON Lines) */
  comma: boolean;
  /** lines of a JSON Lines file: a record handed back has its "type" (which the sequential path drops) */
  jsonl: boolean;
  /** the description, excerpt, slug as wanted and website of the events, as the text store's
   *  records hold them (P_TEXT_*), coded with the table numbered `textTag` (0: none; then the
   *  slug is in slugs and the rest in strs) */
  coded: Uint8Array;
  textTag: number;
  /** that table (set by the importing thread when the block comes back: ImportWorkers) */
  codedWith?: SymbolTable | null;
}

/** how many times the byte c occurs in buf */
function countByte(buf: Buffer, c: number): number {
  let n = 0;
  for (let i = buf.indexOf(c); i >= 0; i = buf.indexOf(c, i + 1)) n++;
  return n;
}

/**
 * buf.toString('utf8'), faster for text whose characters are all below U+0100 (ASCII and the
 * accented letters of Latin-1, what most import files hold): V8's UTF-8 decoder took ~4 ms a MiB
 * (a million-event file: ~1.2 s of each worker's CPU), where ICU's conversion to Latin-1 bytes
 * and a copy of those into a one-byte string take ~2 (ASCII alone, a copy: 0.2). ICU writes '?'
 * for a character Latin-1 lacks, so a block with more '?' after the conversion than before (or
 * not valid UTF-8, whose bad bytes the decoder turns into U+FFFD) is decoded by V8 as before.
 */
export function decodeUtf8(buf: Buffer): string {
  if (isAscii(buf)) return buf.toString('latin1');
  if (!isUtf8(buf)) return buf.toString('utf8');
  const latin1 = transcode(buf, 'utf8', 'latin1');
  return countByte(latin1, 0x3f) === countByte(buf, 0x3f) ? latin1.toString('latin1') : buf.toString('utf8');
}

/** JSON's white space */
const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/** `a` copied into a new array of the same kind and `size` elements (a packer's array grown). */
function grown<T extends Int32Array | Float64Array>(a: T, size: number): T {
  const b = new (a.constructor as new (n: number) => T)(size);
  b.set(a);
  return b;
}

/** The growing arrays of one block. */
class Packer {
  n = 0;
  f64 = new Float64Array(8 * 2048);
  i32 = new Int32Array(P_INTS * 2048);
  links = new Int32Array(8 * 2048);
  nLinks = 0;
  strs: (string | null)[] = [];
  pool: string[] = [];
  private readonly poolIndex = new Map<string, number>();
  extras: PackedEvents['extras'] = [];
  redo: PackedEvents['redo'] = [];
  readonly keys = new KeyPacker();
  /** the events' texts coded (a worker that has the store's table) */
  readonly texts: TextPacker | undefined;

  constructor(coder: TextCoder | undefined) {
    this.texts = coder && new TextPacker(coder);
  }

  small(s: string): number {
    let i = this.poolIndex.get(s);
    if (i === undefined) {
      this.poolIndex.set(s, (i = this.pool.length));
      this.pool.push(s);
    }
    return i;
  }

  /** room for one more event */
  next(): number {
    const k = this.n;
    if ((k + 1) * P_INTS > this.i32.length) {
      this.i32 = grown(this.i32, this.i32.length * 2);
      this.f64 = grown(this.f64, this.f64.length * 2);
    }
    this.n = k + 1;
    return k;
  }

  list(ids: readonly number[]): number {
    if (this.nLinks + ids.length > this.links.length)
      this.links = grown(this.links, Math.max(this.links.length * 2, this.nLinks + ids.length));
    for (let i = 0; i < ids.length; i++) this.links[this.nLinks++] = ids[i];
    return ids.length;
  }

  /** listHash of `ids` (0 when ListInterner finds it otherwise: empty, or one small id) */
  static hash(ids: readonly number[]): number {
    return ids.length === 0 || ListInterner.bySingle(ids, 0, ids.length) ? 0 : listHash(ids, 0, ids.length);
  }
}

/**
 * Reads the event `r` (of the line text) into packer slot k as the importer would, but for what
 * needs the calendar: its id is taken, its slug made unique, its image and cost looked up there.
 */
function packEvent(rd: RecordReader, p: Packer, r: Rec, k: number): void {
  const i = k * P_INTS,
    ints = p.i32;
  // postBase's checks, in its order (the id's use, the unique slug and the image: the importer's);
  // fields read by name here (see local.ts: the *Of checks)
  // series and occurrences are read on the importing thread (their recurrence needs the calendar's zone)
  if ((r.recurrence !== undefined && r.recurrence !== null) || r.recurrence_id !== undefined) bad('recurrence');
  const id = rd.givenIdOf(r.id);
  const title = reqOf(r.title, 'title');
  const status = rd.statusOf(r.status);
  const slug = r.slug;
  const wanted =
    slug === undefined || slug === ''
      ? status === 'draft' || status === 'pending'
        ? ''
        : sanitizeSlug(title)
      : sanitizeSlug(strOf(slug, 'slug'));
  rd.stampsOf(r);
  const author = asId(r.author ?? 0) ?? bad('author must be a user id');
  const description = strOf(r.description, 'description'),
    excerpt = strOf(r.excerpt, 'excerpt');
  // eventFields' checks, in its order
  const tz = rd.zone(strOf(r.timezone, 'timezone').trim());
  const allDay = flagOf(r.all_day, false);
  const start = rd.dateOf(r.start_date, 'start_date', tz) ?? bad('start_date is required');
  const end = rd.dateOf(r.end_date, 'end_date', tz) ?? bad('end_date is required');
  const site = r.website;
  const website = site === undefined || site === null ? null : strOf(site, 'website');
  if (website && !validUrl(website)) bad('website must be a URL');
  const parent = asId(r.post_parent ?? r.parent ?? 0) ?? bad('post_parent must be an event id');
  const abbr = computeDatesMs(tz, start, end, allDay, rd.dates);
  const symbolValue = r.currency_symbol,
    positionValue = r.currency_position;
  const symbol = symbolValue === undefined ? P_NONE : p.small(strOf(symbolValue, 'currency_symbol'));
  const position = positionValue === undefined ? P_NONE : p.small(strOf(positionValue, 'currency_position'));
  const code = p.small(strOf(r.currency_code, 'currency_code'));
  const venues = rd.linkIdsOf(r.venue, 'venue'),
    organizers = rd.linkIdsOf(r.organizer, 'organizer');
  const categories = rd.linkIdsOf(r.categories, 'categories'),
    tags = rd.linkIdsOf(r.tags, 'tags');

  ints[i + P_ID] = id ?? P_NONE;
  ints[i + P_AUTHOR] = author;
  ints[i + P_STATUS] = statusCode(status);
  ints[i + P_FLAGS] =
    (allDay ? B_ALL_DAY : 0) |
    (flagOf(r.show_map, true) ? B_SHOW_MAP : 0) |
    (flagOf(r.show_map_link, true) ? B_SHOW_MAP_LINK : 0) |
    (flagOf(r.hide_from_listings, false) ? B_HIDDEN : 0) |
    (flagOf(r.sticky, false) ? B_STICKY : 0) |
    (flagOf(r.featured, false) ? B_FEATURED : 0) |
    (flagOf(r.ticketed, false) ? B_TICKETED : 0) |
    (wanted === '' && slug === undefined ? B_NO_SLUG : 0);
  ints[i + P_PARENT] = parent;
  ints[i + P_ZONE] = p.small(tz);
  ints[i + P_ABBR] = p.small(abbr);
  const cost = r.cost;
  ints[i + P_COST] = cost === undefined || cost === null ? P_NONE : typeof cost === 'string' ? p.small(cost) : P_EXTRA;
  ints[i + P_SYMBOL] = symbol;
  ints[i + P_POSITION] = position;
  ints[i + P_CODE] = code;
  ints[i + P_VENUES] = p.list(venues);
  ints[i + P_ORGANIZERS] = p.list(organizers);
  ints[i + P_CATEGORIES] = p.list(categories);
  ints[i + P_TAGS] = p.list(tags);
  ints[i + P_SLUG_HASH] = wanted === '' ? 0 : slugHash(wanted);
  ints[i + P_TITLE_HASH] = stringHash(title);
  ints[i + P_ORGANIZERS_HASH] = Packer.hash(organizers);
  ints[i + P_CATEGORIES_HASH] = Packer.hash(categories);
  ints[i + P_TAGS_HASH] = Packer.hash(tags);
  p.f64.set(rd.dates, k * 8);
  p.keys.add(k, title, wanted);
  if (p.texts === undefined) {
    ints[i + P_TEXT_AT] = -1;
    p.strs.push(description, excerpt, website);
  } else p.texts.code(ints, i, description, excerpt, wanted, website);
  const lineage = Array.isArray(r.global_id_lineage)
    ? (r.global_id_lineage as unknown[]).slice(1).map(String)
    : undefined;
  if (ints[i + P_COST] === P_EXTRA || !noImage(r.image) || lineage !== undefined) {
    p.extras.push({
      k,
      ...(ints[i + P_COST] === P_EXTRA && { cost }),
      ...(!noImage(r.image) && { image: r.image }),
      ...(lineage && { lineage }),
    });
  }
}

/**
 * The events of block[0, len) (whole lines, the last one ending in a newline), read as the
 * import-shape scanner reads an events array in the one-event-a-line layout (src/import/read-records.ts
 * ShapeScanner.wholeLine); the block is taken to begin where an event may (after '[' or ',').
 * `jsonl`: the lines of a JSON Lines file instead (read-records.ts LineScanner), each an object
 * {"type": "event", ...} (its "type" not read: the sequential path drops it), blank lines skipped;
 * the worker stops at any other line (another type, not one JSON object), which is the scanner's.
 */
export function packEventLines(
  rd: RecordReader,
  block: Uint8Array,
  len: number,
  jsonl = false,
  coder?: TextCoder,
): PackedEvents {
  const p = new Packer(coder);
  const buf = Buffer.from(block.buffer, block.byteOffset, len);
  // the block decoded at once, each line a slice of it (a decoding a line cost ~10% of a worker's
  // time); `at` and `sat` are where a line begins, in bytes and in characters (a newline is
  // one of each, and UTF-8 decoding never joins one to the bytes around it)
  const str = decodeUtf8(buf);
  let at = 0,
    sat = 0,
    line = 0,
    comma = true,
    stop = -1,
    stopLine = 0;
  while (at < len) {
    const nl = buf.indexOf(0x0a, at),
      snl = str.indexOf('\n', sat);
    const lineEnd = nl < 0 ? len : nl,
      sEnd = snl < 0 ? str.length : snl;
    let a = sat;
    while (a < sEnd && isSpace(str.charCodeAt(a))) a++;
    if (a < sEnd) {
      // not an event where one may begin: the scanner's business
      if (!comma || str.charCodeAt(a) !== 0x7b) {
        stop = at;
        stopLine = line;
        break;
      }
      let end = sEnd;
      while (end > a && isSpace(str.charCodeAt(end - 1))) end--;
      const endsComma = !jsonl && str.charCodeAt(end - 1) === 0x2c;
      if (endsComma) end--;
      if (str.charCodeAt(end - 1) !== 0x7d) {
        stop = at;
        stopLine = line;
        break;
      }
      const text = str.slice(a, end);
      let rec: unknown;
      try {
        rec = JSON.parse(text);
      } catch {
        stop = at;
        stopLine = line;
        break;
      }
      if (jsonl && (typeof rec !== 'object' || rec === null || (rec as { type?: unknown }).type !== 'event')) {
        stop = at;
        stopLine = line;
        break;
      }
      const k = p.next();
      try {
        if (typeof rec !== 'object' || rec === null || Array.isArray(rec)) bad('must be an object');
        packEvent(rd, p, rec as Rec, k);
      } catch (err) {
        if (!(err instanceof RecordError)) throw err;
        // the sequential path names the first problem (some are the calendar's to find)
        p.i32[k * P_INTS + P_STATUS] = P_REDO;
        p.i32[k * P_INTS + P_TEXT_AT] = -1;
        if (p.texts === undefined) for (let s = 0; s < P_STRINGS; s++) p.strs.push(null);
        p.redo.push({ k, text });
      }
      p.i32[k * P_INTS + P_LINE] = line;
      comma = jsonl || endsComma;
    }
    line++;
    at = lineEnd + 1;
    sat = sEnd + 1;
  }
  if (stop < 0) {
    stop = len;
    stopLine = line;
  }
  let lines = stopLine;
  for (let i = buf.indexOf(0x0a, stop); i >= 0 && i < len; i = buf.indexOf(0x0a, i + 1)) lines++;
  const i32 = p.i32.slice(0, p.n * P_INTS);
  const { titles, slugs } = p.keys.finish(i32, P_INTS, p.n);
  return {
    n: p.n,
    f64: p.f64.slice(0, p.n * 8),
    i32,
    links: p.links.slice(0, p.nLinks),
    strs: p.strs,
    titles,
    slugs,
    pool: p.pool,
    extras: p.extras,
    redo: p.redo,
    stop,
    stopLine,
    lines,
    comma,
    jsonl,
    coded: p.texts === undefined ? new Uint8Array(0) : p.texts.coded.subarray(0, p.texts.codedAt),
    textTag: coder === undefined ? 0 : coder.tag,
  };
}
