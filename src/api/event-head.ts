// An event's own fields (everything up to `featured`, spec/representation.md) read straight
// from the engine's columns, without building a record: as a plain object in the emitted key
// order (the template the object path copies), and as JSON text written field by field (the
// head the JSON path caches). The two are the same data: test/api/render.test.ts checks that
// the text is exactly toJson of the object, on random calendars.

import type { EngineApi } from '../engine/engine-api.ts';
import { FLAG_ALL_DAY, FLAG_FEATURED, FLAG_HIDDEN, FLAG_SHOW_MAP, FLAG_SHOW_MAP_LINK, FLAG_STICKY } from '../engine/event-table.ts';
import { POST_STATUSES } from '../engine/records.ts';
import { costValues, formatCost } from './cost.ts';
import { eventUrl, jsonText, toJson, type Site } from './represent.ts';
import { displayContent, displayExcerpt, displayTitle, escapeUrl } from './text.ts';

export interface DateDetails {
  year: string; month: string; day: string; hour: string; minutes: string; seconds: string;
}

export interface CostDetails {
  currency_symbol: string; currency_code: string; currency_position: string; values: string[];
}

/** The event's own fields, in the order the real service emits them. */
export interface EventHead {
  id: number; global_id: string; global_id_lineage: string[]; author: string; status: string;
  date: string; date_utc: string; modified: string; modified_utc: string;
  url: string; rest_url: string; title: string; description: string; excerpt: string; slug: string;
  image: false | { url: string; id: number; extension: string }; all_day: boolean;
  start_date: string; start_date_details: DateDetails; end_date: string; end_date_details: DateDetails;
  utc_start_date: string; utc_start_date_details: DateDetails; utc_end_date: string; utc_end_date_details: DateDetails;
  timezone: string; timezone_abbr: string; cost: string; cost_details: CostDetails; website: string;
  show_map: boolean; show_map_link: boolean; hide_from_listings: boolean; sticky: boolean; featured: boolean;
}

export function details(ymdHis: string): DateDetails {
  return {
    year: ymdHis.slice(0, 4), month: ymdHis.slice(5, 7), day: ymdHis.slice(8, 10),
    hour: ymdHis.slice(11, 13), minutes: ymdHis.slice(14, 16), seconds: ymdHis.slice(17, 19),
  };
}

/**
 * formatCost and costValues of one (cost list, symbol, position) triple. Cost lists are interned
 * by the engine and calendars use few currencies, so a small memo serves almost every event;
 * it is emptied when it reaches its bound.
 */
const costMemo = new Map<string, { cost: string; values: readonly string[] }>();
const COST_MEMO_MAX = 4096;

function costOf(costs: readonly string[], symbol: string, position: string): { cost: string; values: readonly string[] } {
  if (costs.length === 0) return NO_COST;
  const key = costs.length === 1 ? costs[0] + '\u0000' + symbol + '\u0000' + position : JSON.stringify([costs, symbol, position]);
  let hit = costMemo.get(key);
  if (hit === undefined) {
    if (costMemo.size >= COST_MEMO_MAX) costMemo.clear();
    hit = { cost: formatCost(costs as string[], symbol, position), values: costValues(costs as string[]) };
    costMemo.set(key, hit);
  }
  return hit;
}
const NO_COST = { cost: '', values: [] as readonly string[] };

/** The event's own fields as a fresh plain object (nothing shared with other calls but strings). */
export function eventHead(site: Site, engine: EngineApi, row: number): EventHead {
  const t = engine.eventTable;
  const id = t.ids[row];
  const status = POST_STATUSES[t.statusCodes[row]];
  const slug = t.slugs[row];
  const url = eventUrl(site, { id, slug, status });
  const flags = t.flags[row];
  const globalId = site.origin + '?id=' + id;
  const lineage = t.lineages[row];
  const att = t.imageIds[row] === 0 ? undefined : engine.attachment(t.imageIds[row]);
  const startLocal = t.startLocal.get(row), endLocal = t.endLocal.get(row);
  const startUtc = t.startUtc.get(row), endUtc = t.endUtc.get(row);
  const pool = t.pool;
  const symbol = pool.currencySymbol.get(t.currencySymbols[row]);
  const position = pool.currencyPosition.get(t.currencyPositions[row]);
  const cost = costOf(t.costs[row], symbol, position);
  const website = t.websites[row];
  return {
    id, global_id: globalId, global_id_lineage: lineage ? [globalId, ...lineage] : [globalId],
    author: String(t.authorIds[row]), status,
    date: t.date.get(row), date_utc: t.dateUtc.get(row), modified: t.modified.get(row), modified_utc: t.modifiedUtc.get(row),
    url, rest_url: site.root + 'events/' + id,
    title: displayTitle(t.titles[row]), description: displayContent(t.descriptions[row]), excerpt: displayExcerpt(t.excerpts[row]),
    slug, image: att ? { url: att.url, id: att.id, extension: att.extension } : false, all_day: (flags & FLAG_ALL_DAY) !== 0,
    start_date: startLocal, start_date_details: details(startLocal),
    end_date: endLocal, end_date_details: details(endLocal),
    utc_start_date: startUtc, utc_start_date_details: details(startUtc),
    utc_end_date: endUtc, utc_end_date_details: details(endUtc),
    timezone: pool.timezone.get(t.timezones[row]), timezone_abbr: pool.abbr.get(t.abbrs[row]),
    cost: cost.cost,
    cost_details: {
      currency_symbol: symbol, currency_code: pool.currencyCode.get(t.currencyCodes[row]),
      currency_position: position, values: cost.values.slice(),
    },
    website: website === null ? url : escapeUrl(website),
    show_map: (flags & FLAG_SHOW_MAP) !== 0, show_map_link: (flags & FLAG_SHOW_MAP_LINK) !== 0,
    hide_from_listings: (flags & FLAG_HIDDEN) !== 0, sticky: (flags & FLAG_STICKY) !== 0, featured: (flags & FLAG_FEATURED) !== 0,
  };
}

/** A fresh copy of a head: new objects and arrays, the same (immutable) strings. */
export function copyHead(h: EventHead): EventHead {
  const c = { ...h };
  c.global_id_lineage = h.global_id_lineage.slice();
  if (h.image !== false) c.image = { ...h.image };
  c.start_date_details = { ...h.start_date_details };
  c.end_date_details = { ...h.end_date_details };
  c.utc_start_date_details = { ...h.utc_start_date_details };
  c.utc_end_date_details = { ...h.utc_end_date_details };
  c.cost_details = { ...h.cost_details, values: h.cost_details.values.slice() };
  return c;
}

const str = (s: string): string => '"' + jsonText(s) + '"';

function detailsJson(d: DateDetails): string {
  return '{"year":' + str(d.year) + ',"month":' + str(d.month) + ',"day":' + str(d.day) + ',"hour":' + str(d.hour) +
    ',"minutes":' + str(d.minutes) + ',"seconds":' + str(d.seconds) + '}';
}

function stringsJson(xs: readonly string[]): string {
  if (xs.length === 0) return '[]';
  let out = '[' + str(xs[0]);
  for (let i = 1; i < xs.length; i++) out += ',' + str(xs[i]);
  return out + ']';
}

/**
 * The head as JSON text without its closing brace (the event's embedded records follow), exactly
 * toJson(h) but written field by field: every name is known ASCII and every string goes through
 * jsonText, which returns plain ASCII text as it is.
 */
export function headJson(h: EventHead): string {
  const parts = [
    '{"id":', String(h.id), ',"global_id":', str(h.global_id), ',"global_id_lineage":', stringsJson(h.global_id_lineage),
    ',"author":', str(h.author), ',"status":', str(h.status),
    ',"date":', str(h.date), ',"date_utc":', str(h.date_utc), ',"modified":', str(h.modified), ',"modified_utc":', str(h.modified_utc),
    ',"url":', str(h.url), ',"rest_url":', str(h.rest_url),
    ',"title":', str(h.title), ',"description":', str(h.description), ',"excerpt":', str(h.excerpt), ',"slug":', str(h.slug),
    ',"image":', h.image === false ? 'false' : toJson(h.image), ',"all_day":', String(h.all_day),
    ',"start_date":', str(h.start_date), ',"start_date_details":', detailsJson(h.start_date_details),
    ',"end_date":', str(h.end_date), ',"end_date_details":', detailsJson(h.end_date_details),
    ',"utc_start_date":', str(h.utc_start_date), ',"utc_start_date_details":', detailsJson(h.utc_start_date_details),
    ',"utc_end_date":', str(h.utc_end_date), ',"utc_end_date_details":', detailsJson(h.utc_end_date_details),
    ',"timezone":', str(h.timezone), ',"timezone_abbr":', str(h.timezone_abbr), ',"cost":', str(h.cost),
    ',"cost_details":{"currency_symbol":', str(h.cost_details.currency_symbol), ',"currency_code":', str(h.cost_details.currency_code),
    ',"currency_position":', str(h.cost_details.currency_position), ',"values":', stringsJson(h.cost_details.values),
    '},"website":', str(h.website), ',"show_map":', String(h.show_map), ',"show_map_link":', String(h.show_map_link),
    ',"hide_from_listings":', String(h.hide_from_listings), ',"sticky":', String(h.sticky), ',"featured":', String(h.featured),
  ];
  return parts.join('');
}
