// List envelopes as JSON text: the archive envelope of events, venues and organizers (items,
// rest_url / next_rest_url / previous_rest_url, totals) and the term archive envelope (its own
// key order). Each body is a list of parts, made into one answer at the end (archiveResult).

import type { Paging } from '../list-paging.ts';
import type { RestResult } from '../wordpress/types.ts';
import { jsonText, toJson } from './represent.ts';

/**
 * Push the JSON text of the archive's own URL (`rest_url`) onto the parts:
 * `{base}?page=P&per_page=N&a=1&b=2`, values not URL-encoded, as TEC builds it. Escaped piece
 * by piece (JSON escapes are per character, and the names are ASCII), so the URL is never built
 * as a string of its own.
 */
function pushUrl(parts: string[], baseText: string, paging: Paging, urlArgs: Array<[string, string]>): void {
  parts.push('"', baseText, '?page=', String(paging.page), '&per_page=', String(paging.perPage));
  for (let i = 0; i < urlArgs.length; i++) parts.push('&', urlArgs[i][0], '=', jsonText(urlArgs[i][1]));
  parts.push('"');
}

/**
 * Push the JSON text of a neighbouring page's URL: the arguments of `rest_url` without `page`,
 * every value URL-encoded as PHP's urlencode does (`2031-01-01+00%3A00%3A00`), then `page`
 * last (TEC builds it with remove_query_arg and add_query_arg, which encode the query again).
 * `page` undefined: no page argument (the previous link to page 1).
 */
function pushPageUrl(
  parts: string[],
  baseText: string,
  page: number | undefined,
  paging: Paging,
  urlArgs: Array<[string, string]>,
): void {
  parts.push('"', baseText, '?per_page=', String(paging.perPage));
  for (let i = 0; i < urlArgs.length; i++) parts.push('&', urlArgs[i][0], '=', phpUrlencode(urlArgs[i][1]));
  if (page !== undefined) parts.push('&page=', String(page));
  parts.push('"');
}

const UNRESERVED = /^[A-Za-z0-9_.-]*$/;

/** PHP's urlencode: letters, digits, '-', '_' and '.' kept, a space as '+', every other byte %XX. */
export function phpUrlencode(s: string): string {
  if (UNRESERVED.test(s)) return s;
  return encodeURIComponent(s)
    .replace(/%20/g, '+')
    .replace(/[!'()*~]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

/** Push the items' texts, comma-separated, onto the parts. */
function pushItems(parts: string[], items: readonly string[]): void {
  for (let i = 0; i < items.length; i++) {
    if (i > 0) parts.push(',');
    parts.push(items[i]);
  }
}

/** The first parts of an archive envelope of events/venues/organizers: the items follow,
 *  comma-separated (events are pushed piece by piece, never joined on their own), then
 *  closeArchive. */
export function openArchive(key: string): string[] {
  return ['{"', key, '":['];
}

/**
 * Close an archive envelope (keys in the real order): its last parts pushed. `baseText` is the
 * archive's URL as JSON text without quotes (Site.archiveText). The body is the parts' join
 * (archiveResult).
 */
export function closeArchive(
  parts: string[],
  baseText: string,
  total: number,
  paging: Paging,
  urlArgs: Array<[string, string]>,
): void {
  const totalPages = total === 0 ? 0 : Math.ceil(total / paging.perPage);
  parts.push('],"rest_url":');
  pushUrl(parts, baseText, paging, urlArgs);
  if (paging.page < totalPages) {
    parts.push(',"next_rest_url":');
    pushPageUrl(parts, baseText, paging.page + 1, paging, urlArgs);
  }
  if (paging.page > 1 && paging.page - 1 <= totalPages) {
    parts.push(',"previous_rest_url":');
    pushPageUrl(parts, baseText, paging.page - 1 === 1 ? undefined : paging.page - 1, paging, urlArgs);
  }
  parts.push(',"total":', String(total), ',"total_pages":', String(totalPages), '}');
}

/** The parts of the archive envelope of venues or organizers around their texts (see closeArchive). */
export function archiveParts(
  key: string,
  baseText: string,
  items: readonly string[],
  total: number,
  paging: Paging,
  urlArgs: Array<[string, string]>,
): string[] {
  const parts = openArchive(key);
  pushItems(parts, items);
  closeArchive(parts, baseText, total, paging, urlArgs);
  return parts;
}

/**
 * A list's 200 answer from its body's parts. For a caller to keep, the parts joined once into one
 * flat string (a rope of concatenations would be walked again by every read). For the HTTP shell
 * (RestCall.forSocket) the parts themselves (RestResult.parts), which it copies into a reused
 * buffer (src/http/body-buffers.ts); the text is joined only if it is read (the answers the shell
 * writes as text: _envelope, _jsonp, _fields, a body larger than its buffers).
 */
export function archiveResult(parts: string[], headers: Record<string, string>, forSocket: boolean): RestResult {
  return forSocket ? new PartsResult(headers, parts) : { status: 200, headers, body: parts.join('') };
}

/** A 200 answer given as its parts, its body joined when first read (a class: no function made per answer). */
class PartsResult implements RestResult {
  readonly status = 200;
  private text: string | undefined;
  constructor(
    readonly headers: Record<string, string>,
    readonly parts: readonly string[],
  ) {}
  get body(): string {
    return (this.text ??= this.parts.join(''));
  }
  /** as a plain answer (the body is a getter, which JSON.stringify would leave out) */
  toJSON(): RestResult {
    return { status: this.status, headers: this.headers, body: this.body };
  }
}

/** The term archive envelope as JSON text (its own key order; rest_url has no query string). */
export function termEnvelope(key: string, base: string, items: string[], total: number, paging: Paging): string {
  const totalPages = total === 0 ? 0 : Math.ceil(total / paging.perPage);
  const parts: string[] = [
    '{"rest_url":',
    toJson(base),
    ',"total":',
    String(total),
    ',"total_pages":',
    String(totalPages),
    ',"',
    key,
    '":[',
  ];
  pushItems(parts, items);
  parts.push(']');
  if (paging.page < totalPages) parts.push(',"next_rest_url":', toJson(`${base}?page=${paging.page + 1}`));
  if (paging.page > 1)
    parts.push(',"previous_rest_url":', toJson(paging.page === 2 ? base : `${base}?page=${paging.page - 1}`));
  parts.push('}');
  return parts.join('');
}
