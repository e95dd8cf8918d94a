// node:http request → the plain request the router sees: the target with WordPress's
// `?rest_route=` rewritten to the pretty form, the method after `_method` and
// X-HTTP-Method-Override, and X-Calendar-Min-Seq (wait until the calendar reflects a write).
// Reading a request's body is body.ts's.

import { fail } from '../api/wordpress/errors.ts';
import type { RestService } from './routes.ts';

const METHOD_RE = /[?&]_method=/;

export interface ParsedTarget {
  /** path + query as the router sees it (rest_route rewritten to the pretty form) */
  url: string;
  /** raw query string (without '?') */
  query: string;
}

/**
 * `/?rest_route=/tribe/events/v1/events&page=2` (also `/index.php?rest_route=`) →
 * `{restPrefix}/tribe/events/v1/events?page=2`; any other target is kept as is.
 */
export function rewriteTarget(target: string, restPrefix: string): ParsedTarget {
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  const query = q < 0 ? '' : target.slice(q + 1);
  if (query !== '' && (path === '/' || path === '/index.php') && /(?:^|&)rest_route=/.test(query)) {
    const sp = new URLSearchParams(query);
    const route = sp.get('rest_route') ?? '/';
    sp.delete('rest_route');
    const rest = sp.toString();
    const encoded = route
      .split('/')
      .map((s) => encodeURIComponent(s))
      .join('/');
    const prefix = restPrefix.replace(/\/+$/, '');
    const url = `${prefix}${encoded.startsWith('/') ? '' : '/'}${encoded}${rest ? `?${rest}` : ''}`;
    return { url, query: rest };
  }
  return { url: target, query };
}

/** The method after WordPress's overrides: `?_method=` first, then X-HTTP-Method-Override. */
export function effectiveMethod(method: string, query: string, override: string | string[] | undefined): string {
  if (METHOD_RE.test(`?${query}`)) {
    const m = new URLSearchParams(query).get('_method');
    if (m) return m.toUpperCase();
  }
  if (typeof override === 'string' && override !== '') return override.toUpperCase();
  return method;
}

/**
 * X-Calendar-Min-Seq: N — answer only once the calendar reflects write N (a client reading its
 * own writes on another node of a cluster); 503 rest_cluster_behind after `ms`.
 */
export async function awaitMinSeq(cal: RestService, header: string | string[] | undefined, ms: number): Promise<void> {
  if (header === undefined || !cal.waitForSeq) return;
  const value = Array.isArray(header) ? header[0] : header;
  if (!/^\d{1,15}$/.test(value.trim())) {
    throw fail(
      'rest_invalid_param',
      [],
      {},
      { message: `X-Calendar-Min-Seq: expected a write's seq (a whole number), got '${value}'.` },
    );
  }
  if (!(await cal.waitForSeq(Number(value), ms))) {
    throw fail('rest_cluster_behind', [value, ms / 1000, cal.seq ?? 0], { seq: cal.seq ?? 0 });
  }
}
