// An event's own fields (everything up to `featured`, docs/behaviour.md) as JSON text without the
// closing brace, written straight from the engine's columns: the head the JSON path caches and
// writes before the embedded pieces. The same data as a plain object: head.ts.
// test/api/read.test.ts checks that objects and texts agree, key order included, on random
// calendars.

import { pluginImageText } from '../../media/represent.ts';
import { jsonSafe } from '../../ascii-json.ts';
import type { EngineApi } from '../../engine/engine-api.ts';
import {
  FLAG_ALL_DAY,
  FLAG_FEATURED,
  FLAG_HIDDEN,
  FLAG_SHOW_MAP,
  FLAG_SHOW_MAP_LINK,
  FLAG_STICKY,
} from '../../engine/event-table.ts';
import { POST_STATUSES } from '../../engine/records.ts';
import type { AnyDateColumn, EventTable } from '../../engine/event-table.ts';
import { dateAndDetailsText, dateKey, dateString, type DateKey } from '../representation/date-text.ts';
import { jsonText, oneByte, plainPermalink, toJson, type Site } from '../representation/represent.ts';
import { displayContent, displayExcerpt, displayTitle, unfiltered, unfilteredSequences } from '../wordpress/display.ts';
import { escapeUrl } from '../wordpress/text.ts';

import { costOf, details } from './head.ts';

/**
 * What a row's texts need, found once (textFlags) and kept by the renderer until the row changes:
 * TEXTS_KNOWN, then for each of the title, description and excerpt whether no display filter
 * acts on it (*_PLAIN: the title is shown as it is, already trimmed; a description or excerpt in
 * one paragraph) and whether it needs no JSON escaping (*_SAFE: jsonSafe, ASCII from 0x20 on
 * without quote or backslash; the slug too: SLUG_SAFE), and whether the event's own website is
 * shown as it is (WEBSITE_PLAIN: esc_url leaves it, and it needs no escaping). A cold render of a known row then neither filters nor scans such texts.
 */
export const TEXTS_KNOWN = 1;
const TITLE_PLAIN = 2,
  DESCRIPTION_PLAIN = 4,
  EXCERPT_PLAIN = 8,
  TITLE_SAFE = 16,
  DESCRIPTION_SAFE = 32,
  EXCERPT_SAFE = 64,
  SLUG_SAFE = 128,
  WEBSITE_PLAIN = 256;

export function textFlags(engine: EngineApi, row: number): number {
  const t = engine.eventTable;
  let flags =
    TEXTS_KNOWN |
    titleFlags(t.title(row)) |
    paragraphFlags(t.description(row), DESCRIPTION_PLAIN, DESCRIPTION_SAFE) |
    paragraphFlags(t.excerpt(row), EXCERPT_PLAIN, EXCERPT_SAFE);
  if (jsonSafe(t.slug(row))) flags |= SLUG_SAFE;
  const website = t.website(row);
  if (website !== null && escapeUrl(website) === website && jsonSafe(website)) flags |= WEBSITE_PLAIN;
  return flags;
}

/**
 * A character that JSON escapes or that a display filter acts on by itself: outside printable
 * ASCII, or one of `"&'<>\` and the backtick. A text without any (most event texts) is known
 * safe and free of FILTERED_CHARS in one scan, where jsonSafe and unfiltered would scan it twice.
 */
const STIRRED = /[^\x20\x21\x23-\x25\x28-\x3b\x3d\x3f-\x5b\x5d-\x5f\x61-\x7e]/;

/** A title's flags: plain when shown as it is (already trimmed, no filter acts on it). */
function titleFlags(s: string): number {
  const calm = !STIRRED.test(s);
  return (calm || jsonSafe(s) ? TITLE_SAFE : 0) | (s.trim() === s && leftAlone(s, calm) ? TITLE_PLAIN : 0);
}

/** A description's or excerpt's flags: plain when '' (shown as '') or when no filter acts on it
 *  (shown in one paragraph). */
function paragraphFlags(s: string, plain: number, safe: number): number {
  if (s === '') return plain | safe;
  const calm = !STIRRED.test(s);
  return (calm || jsonSafe(s) ? safe : 0) | (s.trim() !== '' && leftAlone(s, calm) ? plain : 0);
}

/** No display filter acts on `s`; `calm`: STIRRED found none of the filters' characters in it. */
const leftAlone = (s: string, calm: boolean): boolean => (calm ? unfilteredSequences(s) : unfiltered(s));

/** A row's text as JSON text without quotes: itself when textFlags found it needs no escaping (`safe`). */
const escaped = (s: string, flags: number, safe: number): string => (flags & safe ? s : jsonText(s));

/** The display text of a row's title as JSON text without quotes. */
const titleText = (s: string, flags: number): string =>
  flags & TITLE_PLAIN ? escaped(s, flags, TITLE_SAFE) : jsonText(displayTitle(s));

/** A date column's value as JSON text without quotes. */
function dateText(col: AnyDateColumn, row: number): string {
  return dateString(col.at(row)) ?? jsonText(col.get(row));
}

/** A date and its details object as JSON text, from key to key. */
function dateAndDetails(col: AnyDateColumn, row: number, k: DateKey): string {
  const text = dateAndDetailsText(col.at(row), k);
  if (text !== undefined) return text;
  const s = col.get(row); // '0000-00-00 00:00:00' of a draft, or a date outside years 1000-9999
  return `${k.lead}"${k.key}":${toJson(s)},"${k.key}_details":${toJson(details(s))}`;
}
const START = dateKey('start_date'),
  START_NO_IMAGE = [
    dateKey('start_date', '","image":false,"all_day":false,'),
    dateKey('start_date', '","image":false,"all_day":true,'),
  ];
const END = dateKey('end_date', ','),
  UTC_START = dateKey('utc_start_date', ','),
  UTC_END = dateKey('utc_end_date', ',');

type Pool = EventTable['pool'];
/** the zone-and-cost texts by the cost list's identity (the engine interns cost lists, one array
 *  per distinct list, and each calendar has its own: the pool indexes below mean one thing), then
 *  by the five pool indexes (zoneCostKey); emptied at their bound */
const zoneCostMemo = new Map<readonly string[], Map<number | string, string>>();
const ZONE_COST_MEMO_MAX = 4096;

/**
 * A row's `,"timezone":…,"timezone_abbr":…,"cost":…,"cost_details":{…},"website":"` as one ready
 * piece: calendars use a few zones and currencies, so one memo serves almost every event with
 * two look-ups, and the page's join copies one piece where there would be three.
 */
function zoneCostText(t: EventTable, row: number): string {
  const costs = t.costs.get(row),
    zone = t.timezones[row],
    abbr = t.abbrs[row];
  const symbol = t.currencySymbols[row],
    code = t.currencyCodes[row],
    position = t.currencyPositions[row];
  // the five indexes packed into one small integer while each is below 64, else a string
  const key =
    (zone | abbr | symbol | code | position) < 64
      ? (zone << 24) | (abbr << 18) | (symbol << 12) | (code << 6) | position
      : `${zone},${abbr},${symbol},${code},${position}`;
  let byKey = zoneCostMemo.get(costs);
  let text = byKey?.get(key);
  if (text !== undefined) return text;
  text = zoneCostTextOf(t.pool, costs, zone, abbr, symbol, code, position);
  if (byKey === undefined || byKey.size >= ZONE_COST_MEMO_MAX) {
    if (zoneCostMemo.size >= ZONE_COST_MEMO_MAX) zoneCostMemo.clear();
    zoneCostMemo.set(costs, (byKey = new Map()));
  }
  byKey.set(key, text);
  return text;
}

/** zoneCostText made: a flat one-byte string (oneByte), so that the heads holding it copy one piece */
function zoneCostTextOf(
  pool: Pool,
  costs: readonly string[],
  zone: number,
  abbr: number,
  symbol: number,
  code: number,
  position: number,
): string {
  const sym = pool.currencySymbol.get(symbol),
    pos = pool.currencyPosition.get(position);
  const cost = costOf(costs, sym, pos);
  let values = '';
  for (let i = 0; i < cost.values.length; i++) values += (i > 0 ? ',"' : '"') + jsonText(cost.values[i]) + '"';
  return oneByte(
    `,"timezone":"${jsonText(pool.timezone.get(zone))}","timezone_abbr":"${jsonText(pool.abbr.get(abbr))}",` +
      `"cost":"${jsonText(cost.cost)}","cost_details":{"currency_symbol":"${jsonText(sym)}",` +
      `"currency_code":"${jsonText(pool.currencyCode.get(code))}","currency_position":"${jsonText(pos)}","values":[${values}]},"website":"`,
  );
}

/** A site's ready pieces of an event's head (the texts around the id, the URLs). */
interface HeadPieces {
  /** `,"global_id":"ORIGIN?id=`, `","global_id_lineage":["ORIGIN?id=` */
  globalId: string;
  lineage: string;
  /** `","url":"SITE/event/` and `/","rest_url":"ROOT/events/` (a published event's URL, then its REST URL) */
  url: string;
  urlRest: string;
  /** `","url":"SITE/?post_type=tribe_events&p=` and `","rest_url":"ROOT/events/` (a draft's plain permalink) */
  plainUrl: string;
  plainRest: string;
  /** the two URL forms alone (an event without a website of its own shows its URL there too):
   *  `SITE/event/` before the slug, `SITE/?post_type=tribe_events&p=` before the id */
  eventBase: string;
  plainLink: string;
}
const pieces = new WeakMap<Site, HeadPieces>();
function headPieces(site: Site): HeadPieces {
  let p = pieces.get(site);
  if (p === undefined) {
    const eventBase = site.eventBaseText,
      plainLink = `${site.homeText}/?post_type=tribe_events&p=`;
    p = {
      globalId: oneByte(`,"global_id":"${site.originText}?id=`),
      lineage: oneByte(`","global_id_lineage":["${site.originText}?id=`),
      url: oneByte(`","url":"${eventBase}`),
      urlRest: oneByte(`/","rest_url":"${site.rootText}events/`),
      plainUrl: oneByte(`","url":"${plainLink}`),
      plainRest: oneByte(`","rest_url":"${site.rootText}events/`),
      eventBase: oneByte(eventBase),
      plainLink: oneByte(plainLink),
    };
    pieces.set(site, p);
  }
  return p;
}

/** `"],"author":"A","status":"S","date":"` (after a global id lineage of one) by author and
 *  status code; emptied at its bound */
const authorMemo = new Map<number, string>();
function authorText(author: number, status: number): string {
  const key = author * 8 + status;
  let text = authorMemo.get(key);
  if (text === undefined) {
    if (authorMemo.size >= 4096) authorMemo.clear();
    text = oneByte(`"],"author":"${author}","status":"${POST_STATUSES[status]}","date":"`);
    authorMemo.set(key, text);
  }
  return text;
}

/** `","show_map":…,"featured":…,"categories":[` for each combination of the five flags (flagsIndex) */
const FLAG_TEXTS = Array.from({ length: 32 }, (_, i) =>
  oneByte(
    `","show_map":${(i & 1) !== 0},"show_map_link":${(i & 2) !== 0},"hide_from_listings":${(i & 4) !== 0},` +
      `"sticky":${(i & 8) !== 0},"featured":${(i & 16) !== 0},"categories":[`,
  ),
);
/** the same after the closing slash of a published event's URL (its website when it has none of its own) */
const SLASH_FLAG_TEXTS = FLAG_TEXTS.map((text) => oneByte('/' + text));
const flagsIndex = (f: number): number =>
  ((f & FLAG_SHOW_MAP) !== 0 ? 1 : 0) |
  ((f & FLAG_SHOW_MAP_LINK) !== 0 ? 2 : 0) |
  ((f & FLAG_HIDDEN) !== 0 ? 4 : 0) |
  ((f & FLAG_STICKY) !== 0 ? 8 : 0) |
  ((f & FLAG_FEATURED) !== 0 ? 16 : 0);

/** the texts between the title and the slug, by whether the description and the excerpt are
 *  written in one paragraph here (their `<p>` and `</p>` in the pieces) */
const DESCRIPTION_OPEN = ['","description":"', '","description":"<p>'];
const EXCERPT_OPEN = ['","excerpt":"', '","excerpt":"<p>', '</p>","excerpt":"', '</p>","excerpt":"<p>'];
const SLUG_OPEN = ['","slug":"', '</p>","slug":"'];
/** with an image: `","image":` … `,"all_day":B,` by all_day; without, `","image":false,"all_day":B,`
 *  opens the start date (START_NO_IMAGE) */
const ALL_DAY = [',"all_day":false,', ',"all_day":true,'];

/**
 * The event's own fields as JSON text, then the opening of its categories (`,"categories":[`),
 * written straight from the columns: exactly the JSON text of eventHead(site, engine, row)
 * without its closing brace, then that opening (test/api/events/head.test.ts).
 *
 * One concatenation of about forty-five pieces, which the renderer flattens (flat) when it keeps
 * the head. What a rope costs (made, then copied) is per piece, so the fixed texts between fields
 * are ready pieces with the values that come from small sets: the site's texts around the id and
 * the URLs, author and status, zone, cost and the website's key, the five flags, each date's key
 * around its day. Every ready piece is a flat string (oneByte, join): a piece that is itself a
 * rope is walked again, piece by piece, by every copy of every head that holds it. Array.join of
 * the pieces cost about four times as much as the concatenations, and a Buffer round trip about
 * five times. With `flags` (textFlags) its texts are not scanned again.
 */
export function headText(site: Site, engine: EngineApi, row: number, flags: number): string {
  const t = engine.eventTable;
  const p = headPieces(site);
  const id = t.ids[row];
  const statusCode = t.statusCodes[row];
  const slug = t.slug(row);
  const slugText = flags & SLUG_SAFE ? slug : jsonText(slug);
  const plain = plainPermalink(slug, POST_STATUSES[statusCode]);
  const f = t.flags[row];
  const lineage = t.lineages.size > 0 ? t.lineages.get(row) : undefined;
  let afterId = authorText(t.authorIds[row], statusCode);
  if (lineage) {
    let lineageText = '"';
    for (const g of lineage) lineageText += `,"${jsonText(g)}"`;
    afterId = lineageText + afterId.slice(1);
  }
  const description = t.description(row),
    excerpt = t.excerpt(row);
  const descP = (flags & DESCRIPTION_PLAIN) !== 0 && description !== '' ? 1 : 0;
  const excP = (flags & EXCERPT_PLAIN) !== 0 && excerpt !== '' ? 1 : 0;
  const imageId = t.imageIds[row];
  const att = imageId === 0 ? undefined : engine.attachment(imageId);
  const allDay = (f & FLAG_ALL_DAY) !== 0 ? 1 : 0;
  const image = att ? `","image":${pluginImageText(site.config.siteUrl, att)}${ALL_DAY[allDay]}` : '';
  const website = t.website(row);
  // the four post dates are often one or two values (modified = date until an edit, UTC = local
  // in a UTC site): each distinct one is made once (an odd date's ms is NaN, equal to nothing)
  const dm = t.date.at(row),
    dum = t.dateUtc.at(row),
    mm = t.modified.at(row),
    mum = t.modifiedUtc.at(row);
  const date = dateText(t.date, row);
  const dateUtc = dum === dm ? date : dateText(t.dateUtc, row);
  const modified = mm === dm ? date : mm === dum ? dateUtc : dateText(t.modified, row);
  const modifiedUtc = mum === mm ? modified : mum === dum ? dateUtc : dateText(t.modifiedUtc, row);
  const url = plain ? p.plainUrl + id + p.plainRest : p.url + slugText + p.urlRest;
  return (
    `{"id":${id}${p.globalId}${id}${p.lineage}${id}${afterId}${date}","date_utc":"${dateUtc}",` +
    `"modified":"${modified}","modified_utc":"${modifiedUtc}${url}${id}` +
    `","title":"${titleText(t.title(row), flags)}${DESCRIPTION_OPEN[descP]}${descP ? escaped(description, flags, DESCRIPTION_SAFE) : jsonText(displayContent(description))}` +
    `${EXCERPT_OPEN[descP * 2 + excP]}${excP ? escaped(excerpt, flags, EXCERPT_SAFE) : jsonText(displayExcerpt(excerpt))}` +
    `${SLUG_OPEN[excP]}${slugText}${image}` +
    `${dateAndDetails(t.startLocal, row, att ? START : START_NO_IMAGE[allDay])}${dateAndDetails(t.endLocal, row, END)}` +
    `${dateAndDetails(t.startUtc, row, UTC_START)}${dateAndDetails(t.endUtc, row, UTC_END)}` +
    zoneCostText(t, row) +
    (website !== null
      ? (flags & WEBSITE_PLAIN ? website : jsonText(escapeUrl(website))) + FLAG_TEXTS[flagsIndex(f)]
      : plain
        ? p.plainLink + id + FLAG_TEXTS[flagsIndex(f)]
        : p.eventBase + slugText + SLASH_FLAG_TEXTS[flagsIndex(f)])
  );
}
