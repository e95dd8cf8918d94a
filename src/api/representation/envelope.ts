// List envelopes as JSON text: the archive envelope of events, venues and organizers (items,
// rest_url / next_rest_url / previous_rest_url, totals) and the term archive envelope (its own
// key order). Each body is a list of parts joined once, so it is one flat string.

import type { Paging } from '../events/list.ts';
import { jsonText, toJson } from './represent.ts';

/**
 * Push the JSON text of a page's URL onto the parts: `{base}?page=P&per_page=N&a=1&b=2`, values
 * not URL-encoded, as TEC builds it. Escaped piece by piece (JSON escapes are per character, and
 * the names are ASCII), so the URL is never built as a string of its own. `page` undefined: no
 * page argument (the previous link to page 1).
 */
function pushUrl(parts: string[], baseText: string, page: number | undefined, paging: Paging, urlArgs: Array<[string, string]>): void {
  parts.push('"', baseText);
  if (page !== undefined) parts.push('?page=', String(page), '&per_page=', String(paging.perPage));
  else parts.push('?per_page=', String(paging.perPage));
  for (let i = 0; i < urlArgs.length; i++) parts.push('&', urlArgs[i][0], '=', jsonText(urlArgs[i][1]));
  parts.push('"');
}

/**
 * Envelopes are built as a list of parts joined once, so a body is one flat string: the HTTP
 * layer measures and writes it as is, where a rope of concatenations would be flattened first,
 * copying the page once more. This pushes the items, comma-separated, onto the parts.
 */
function pushItems(parts: string[], items: readonly string[]): void {
  for (let i = 0; i < items.length; i++) {
    if (i > 0) parts.push(',');
    parts.push(items[i]);
  }
}

/** Items of a list page: their texts, or a function that pushes them (comma-separated) onto the
 *  parts of the body (events are written piece by piece, never joined on their own). */
export type Items = readonly string[] | ((parts: string[]) => void);

/** The archive envelope of events/venues/organizers as JSON text (keys in the real order);
 *  `baseText` is the archive's URL as JSON text without quotes (Site.archiveText). */
export function archiveEnvelope(key: string, baseText: string, items: Items, total: number, paging: Paging, urlArgs: Array<[string, string]>): string {
  const totalPages = total === 0 ? 0 : Math.ceil(total / paging.perPage);
  const parts: string[] = ['{"', key, '":['];
  if (typeof items === 'function') items(parts);
  else pushItems(parts, items);
  parts.push('],"rest_url":');
  pushUrl(parts, baseText, paging.page, paging, urlArgs);
  if (paging.page < totalPages) {
    parts.push(',"next_rest_url":');
    pushUrl(parts, baseText, paging.page + 1, paging, urlArgs);
  }
  if (paging.page > 1 && paging.page - 1 <= totalPages) {
    parts.push(',"previous_rest_url":');
    pushUrl(parts, baseText, paging.page - 1 === 1 ? undefined : paging.page - 1, paging, urlArgs);
  }
  parts.push(',"total":', String(total), ',"total_pages":', String(totalPages), '}');
  return parts.join('');
}

/** The term archive envelope as JSON text (its own key order; rest_url has no query string). */
export function termEnvelope(key: string, base: string, items: string[], total: number, paging: Paging): string {
  const totalPages = total === 0 ? 0 : Math.ceil(total / paging.perPage);
  const parts: string[] = ['{"rest_url":', toJson(base), ',"total":', String(total), ',"total_pages":', String(totalPages), ',"', key, '":['];
  pushItems(parts, items);
  parts.push(']');
  if (paging.page < totalPages) parts.push(',"next_rest_url":', toJson(`${base}?page=${paging.page + 1}`));
  if (paging.page > 1) parts.push(',"previous_rest_url":', toJson(paging.page === 2 ? base : `${base}?page=${paging.page - 1}`));
  parts.push('}');
  return parts.join('');
}
