// What the wp/v2 routes share: WordPress core's parameter checks (rest_validate_value_from_schema
// for the types these routes use), the collection paging and its headers (X-WP-Total,
// X-WP-TotalPages, Link), HAL links with the `wp:` curie, and the URLs of the namespace.

import type { Core } from '../api/context.ts';
import { phpUrlencode } from '../api/representation/envelope.ts';
import { fail, type CalendarError, type ErrorCode } from '../api/wordpress/errors.ts';
import { Problems, asStrictBoolean, asString, has } from '../api/wordpress/params.ts';
import type { Params, RestResult } from '../api/wordpress/types.ts';
import { WP_MAX_PER_PAGE, WP_NAMESPACE, WP_PER_PAGE } from './arg-specs.ts';

export type Item = Record<string, unknown>;
export type Context = 'view' | 'embed' | 'edit';

/** `{site}{restPrefix}/wp/v2/` */
export function wpRoot(core: Core): string {
  const { siteUrl, restPrefix } = core.site.config;
  return `${siteUrl}${restPrefix}/${WP_NAMESPACE}/`;
}

/** A HAL link list of one href, with its attributes before it as WordPress writes them. */
export function link(href: string, attributes: Item = {}): Item[] {
  return [{ ...attributes, href }];
}

/** The curie WordPress compacts `https://api.w.org/{rel}` links with. */
export const CURIES = [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }];

/** rest_is_integer: an integer number or a string of one (optionally signed). */
export function asInteger(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? v : undefined;
  if (typeof v === 'string' && /^\s*[+-]?\d+\s*$/.test(v)) {
    const n = Number(v);
    return Number.isSafeInteger(n) ? n : undefined;
  }
  return undefined;
}

/** wp_parse_list: an array as is, a string split on commas and spaces. */
export function parseList(v: unknown): unknown[] | undefined {
  if (Array.isArray(v)) return v;
  if (typeof v === 'string') return v.split(/[\s,]+/).filter((s) => s !== '');
  if (typeof v === 'number') return [v];
  return undefined;
}

/** Reads the parameters of one request as core validates them; every problem collected. */
export class WpParams {
  readonly problems = new Problems();
  constructor(readonly params: Params) {}

  has(name: string): boolean {
    return has(this.params, name);
  }

  integer(name: string, min?: number, max?: number): number | undefined {
    if (!this.has(name)) return undefined;
    const n = asInteger(this.params[name]);
    if (n === undefined) this.problems.add(name, `${name} is not of type integer.`);
    else if (min !== undefined && n < min) this.problems.add(name, `${name} must be greater than or equal to ${min}`);
    else if (max !== undefined && n > max)
      this.problems.add(name, `${name} must be between ${min ?? 0} (inclusive) and ${max} (inclusive)`);
    else return n;
    return undefined;
  }

  boolean(name: string): boolean | undefined {
    if (!this.has(name)) return undefined;
    const b = asStrictBoolean(this.params[name]);
    if (b === undefined) this.problems.add(name, `${name} is not of type boolean.`);
    return b;
  }

  string(name: string): string | undefined {
    if (!this.has(name)) return undefined;
    const s = asString(this.params[name]);
    if (s === undefined) this.problems.add(name, `${name} is not of type string.`);
    return s;
  }

  oneOf<T extends string>(name: string, values: readonly T[]): T | undefined {
    const s = this.string(name);
    if (s === undefined) return undefined;
    if (!(values as readonly string[]).includes(s)) {
      this.problems.add(name, `${name} is not one of ${values.join(', ')}.`);
      return undefined;
    }
    return s as T;
  }

  /** An array of integers (array or CSV); an empty value is an empty list. */
  integers(name: string): number[] | undefined {
    if (!this.has(name)) return undefined;
    const items = parseList(this.params[name]);
    const out: number[] = [];
    for (const item of items ?? [null]) {
      const n = asInteger(item);
      if (n === undefined) {
        this.problems.add(name, `${name}[${out.length}] is not of type integer.`);
        return undefined;
      }
      out.push(n);
    }
    return out;
  }

  /** An array of strings (array or CSV). */
  strings(name: string): string[] | undefined {
    if (!this.has(name)) return undefined;
    const items = parseList(this.params[name]);
    const out: string[] = [];
    for (const item of items ?? [null]) {
      const s = asString(item);
      if (s === undefined) {
        this.problems.add(name, `${name}[${out.length}] is not of type string.`);
        return undefined;
      }
      out.push(s);
    }
    return out;
  }

  /** context, page, per_page and search: WP_REST_Controller::get_collection_params. */
  collection(): { context: Context; page: number; perPage: number; search: string | undefined } {
    const context = this.oneOf('context', ['view', 'embed', 'edit'] as const) ?? 'view';
    const page = this.integer('page', 1) ?? 1;
    const perPage = this.integer('per_page', 1, WP_MAX_PER_PAGE) ?? WP_PER_PAGE;
    const search = this.string('search');
    return { context, page, perPage, search };
  }

  context(): Context {
    return this.oneOf('context', ['view', 'embed', 'edit'] as const) ?? 'view';
  }

  /** Throws 400 rest_invalid_param naming every invalid parameter, if any. */
  check(): void {
    if (!this.problems.any) return;
    const reasons = this.problems.reasons;
    throw fail('rest_invalid_param', [Object.keys(reasons).join(', ')], { params: reasons, details: {} });
  }
}

/**
 * A collection's 200 answer: the JSON array, X-WP-Total and X-WP-TotalPages, and a Link header
 * with the previous and next pages (the request's own query, URL-encoded, `page` set), as
 * WordPress's controllers build them.
 */
export function collectionResult(
  items: string[],
  total: number,
  perPage: number,
  page: number,
  base: string,
  params: Params,
): RestResult {
  const maxPages = Math.ceil(total / perPage);
  const headers: Record<string, string> = { 'X-WP-Total': String(total), 'X-WP-TotalPages': String(maxPages) };
  const rels: string[] = [];
  if (page > 1) rels.push(`<${pageUrl(base, params, Math.min(page - 1, Math.max(maxPages, 1)))}>; rel="prev"`);
  if (maxPages > page) rels.push(`<${pageUrl(base, params, page + 1)}>; rel="next"`);
  if (rels.length) headers.Link = rels.join(', ');
  return { status: 200, headers, body: `[${items.join(',')}]` };
}

function pageUrl(base: string, params: Params, page: number): string {
  const pairs: string[] = [];
  let placed = false;
  const push = (name: string, value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach((v, i) => {
        push(`${name}[${i}]`, v);
      });
    } else
      pairs.push(
        `${phpUrlencode(name)}=${phpUrlencode(typeof value === 'string' ? value : (JSON.stringify(value) ?? ''))}`,
      );
  };
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (name === 'page') {
      pairs.push(`page=${page}`);
      placed = true;
    } else push(name, value);
  }
  if (!placed) pairs.push(`page=${page}`);
  return `${base}?${pairs.join('&')}`;
}

/** An error with this code and message and the status rest_authorization_required_code() gives. */
export function authError(code: ErrorCode, message: string, loggedIn: boolean): CalendarError {
  return fail(code, [], {}, { status: loggedIn ? 403 : 401, message });
}

/** MySQL's datetime as rest_ensure_response writes it: 'Y-m-d\TH:i:s'. */
export function rfc3339(mysql: string): string {
  return mysql.replace(' ', 'T');
}
