// An event's own fields (everything up to `featured`, docs/behaviour.md) read straight
// from the engine's columns, without building a record, as a plain object in the emitted key
// order (the template the object path copies). The same data as JSON text: head-text.ts.
// test/api/read.test.ts checks that objects and texts agree, key order included, on random
// calendars.

import { pluginImage } from '../../media/represent.ts';
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
import { costValues, formatCost } from '../wordpress/cost.ts';
import { eventUrl, type Site } from '../representation/represent.ts';
import { displayContent, displayExcerpt, displayTitle } from '../wordpress/display.ts';
import { escapeUrl } from '../wordpress/text.ts';

export interface DateDetails {
  year: string;
  month: string;
  day: string;
  hour: string;
  minutes: string;
  seconds: string;
}

export interface CostDetails {
  currency_symbol: string;
  currency_code: string;
  currency_position: string;
  values: string[];
}

/** The event's own fields, in the order the real service emits them. */
export interface EventHead {
  id: number;
  global_id: string;
  global_id_lineage: string[];
  author: string;
  status: string;
  date: string;
  date_utc: string;
  modified: string;
  modified_utc: string;
  url: string;
  rest_url: string;
  title: string;
  description: string;
  excerpt: string;
  slug: string;
  /** the plugin's image object (src/media/represent.ts: pluginImage), or false */
  image: false | Record<string, unknown>;
  all_day: boolean;
  start_date: string;
  start_date_details: DateDetails;
  end_date: string;
  end_date_details: DateDetails;
  utc_start_date: string;
  utc_start_date_details: DateDetails;
  utc_end_date: string;
  utc_end_date_details: DateDetails;
  timezone: string;
  timezone_abbr: string;
  cost: string;
  cost_details: CostDetails;
  website: string;
  show_map: boolean;
  show_map_link: boolean;
  hide_from_listings: boolean;
  sticky: boolean;
  featured: boolean;
}

export function details(ymdHis: string): DateDetails {
  return {
    year: ymdHis.slice(0, 4),
    month: ymdHis.slice(5, 7),
    day: ymdHis.slice(8, 10),
    hour: ymdHis.slice(11, 13),
    minutes: ymdHis.slice(14, 16),
    seconds: ymdHis.slice(17, 19),
  };
}

/**
 * formatCost and costValues of one (cost list, symbol, position) triple. Cost lists are interned
 * by the engine and calendars use few currencies, so a small memo serves almost every event;
 * it is emptied when it reaches its bound.
 */
const costMemo = new Map<string, { cost: string; values: readonly string[] }>();
const COST_MEMO_MAX = 4096;

export function costOf(
  costs: readonly string[],
  symbol: string,
  position: string,
): { cost: string; values: readonly string[] } {
  if (costs.length === 0) return NO_COST;
  const key =
    costs.length === 1 ? costs[0] + '\u0000' + symbol + '\u0000' + position : JSON.stringify([costs, symbol, position]);
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
  const slug = t.slug(row);
  const url = eventUrl(site, { id, slug, status });
  const flags = t.flags[row];
  const globalId = site.origin + '?id=' + id;
  const lineage = t.lineages.size > 0 ? t.lineages.get(row) : undefined;
  const att = t.imageIds[row] === 0 ? undefined : engine.attachment(t.imageIds[row]);
  const startLocal = t.startLocal.get(row),
    endLocal = t.endLocal.get(row);
  const startUtc = t.startUtc.get(row),
    endUtc = t.endUtc.get(row);
  const pool = t.pool;
  const symbol = pool.currencySymbol.get(t.currencySymbols[row]);
  const position = pool.currencyPosition.get(t.currencyPositions[row]);
  const cost = costOf(t.costs.get(row), symbol, position);
  const website = t.website(row);
  return {
    id,
    global_id: globalId,
    global_id_lineage: lineage ? [globalId, ...lineage] : [globalId],
    author: String(t.authorIds[row]),
    status,
    date: t.date.get(row),
    date_utc: t.dateUtc.get(row),
    modified: t.modified.get(row),
    modified_utc: t.modifiedUtc.get(row),
    url,
    rest_url: site.root + 'events/' + id,
    title: displayTitle(t.title(row)),
    description: displayContent(t.description(row)),
    excerpt: displayExcerpt(t.excerpt(row)),
    slug,
    image: att ? pluginImage(site.config.siteUrl, att) : false,
    all_day: (flags & FLAG_ALL_DAY) !== 0,
    start_date: startLocal,
    start_date_details: details(startLocal),
    end_date: endLocal,
    end_date_details: details(endLocal),
    utc_start_date: startUtc,
    utc_start_date_details: details(startUtc),
    utc_end_date: endUtc,
    utc_end_date_details: details(endUtc),
    timezone: pool.timezone.get(t.timezones[row]),
    timezone_abbr: pool.abbr.get(t.abbrs[row]),
    cost: cost.cost,
    cost_details: {
      currency_symbol: symbol,
      currency_code: pool.currencyCode.get(t.currencyCodes[row]),
      currency_position: position,
      values: cost.values.slice(),
    },
    website: website === null ? url : escapeUrl(website),
    show_map: (flags & FLAG_SHOW_MAP) !== 0,
    show_map_link: (flags & FLAG_SHOW_MAP_LINK) !== 0,
    hide_from_listings: (flags & FLAG_HIDDEN) !== 0,
    sticky: (flags & FLAG_STICKY) !== 0,
    featured: (flags & FLAG_FEATURED) !== 0,
  };
}

const copyDetails = (d: DateDetails): DateDetails => ({
  year: d.year,
  month: d.month,
  day: d.day,
  hour: d.hour,
  minutes: d.minutes,
  seconds: d.seconds,
});

/**
 * An event's list representation as a fresh object: a copy of the head (new objects and arrays,
 * the same immutable strings) followed by the embedded records. Written as one object literal
 * with every key: V8 creates it from one boilerplate, where a spread copy that then gains keys
 * falls back to a slow dictionary object (measured 12 µs against well under 1 µs).
 */
export function eventObjectOf(
  h: EventHead,
  categories: unknown[],
  tags: unknown[],
  venue: unknown,
  organizer: unknown[],
): Record<string, unknown> {
  const cd = h.cost_details;
  return {
    id: h.id,
    global_id: h.global_id,
    global_id_lineage: h.global_id_lineage.slice(),
    author: h.author,
    status: h.status,
    date: h.date,
    date_utc: h.date_utc,
    modified: h.modified,
    modified_utc: h.modified_utc,
    url: h.url,
    rest_url: h.rest_url,
    title: h.title,
    description: h.description,
    excerpt: h.excerpt,
    slug: h.slug,
    image: h.image === false ? false : structuredClone(h.image),
    all_day: h.all_day,
    start_date: h.start_date,
    start_date_details: copyDetails(h.start_date_details),
    end_date: h.end_date,
    end_date_details: copyDetails(h.end_date_details),
    utc_start_date: h.utc_start_date,
    utc_start_date_details: copyDetails(h.utc_start_date_details),
    utc_end_date: h.utc_end_date,
    utc_end_date_details: copyDetails(h.utc_end_date_details),
    timezone: h.timezone,
    timezone_abbr: h.timezone_abbr,
    cost: h.cost,
    cost_details: {
      currency_symbol: cd.currency_symbol,
      currency_code: cd.currency_code,
      currency_position: cd.currency_position,
      values: cd.values.slice(),
    },
    website: h.website,
    show_map: h.show_map,
    show_map_link: h.show_map_link,
    hide_from_listings: h.hide_from_listings,
    sticky: h.sticky,
    featured: h.featured,
    categories,
    tags,
    venue,
    organizer,
    custom_fields: [],
  };
}
