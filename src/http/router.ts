// The router: an ordered table of (method, path RegExp, handler) entries; the first entry of the
// request's method whose RegExp matches the path answers, and a handler that resolves to
// undefined hands the request on to the next match (a feed page without `?ical=1`). What it does
// is what itty-router's IttyRouter did for this table, in a few typed lines: itty built a URL
// object for every request and needed its entries cast (its handlers take itty's request type);
// here the path is the request target's own text unless it needs URL's normalisation (dot
// segments, percent-escapes, backslashes), entries are grouped by method, and the handler's
// request and context are typed.

/** itty needed an absolute URL; so does URL for a target that needs normalising. */
const ORIGIN = 'http://calendar.invalid';

/** A path URL's parser gives back as it is: no dot segment, escape, backslash or character it would encode. */
const PLAIN_PATH = /^\/[A-Za-z0-9\-_~!$&'()*+,;=:@/]*$/;

/** What a handler sees of the request. */
export interface RoutedRequest {
  method: string;
  /** the path, as URL normalises it */
  path: string;
  /** the query string, without '?' (not decoded) */
  search: string;
  /** the RegExp's named groups (not decoded) */
  params: Record<string, string>;
  /** the matched entry's path (`/wp-json/tribe/events/v1/events/:id`) */
  route: string;
}

export type Handler<C, R> = (req: RoutedRequest, ctx: C) => Promise<R | undefined> | R | undefined;

export interface RouteEntry<C, R> {
  method: string;
  match: RegExp;
  handler: Handler<C, R>;
  /** the route's path for listings, `:name` for a parameter */
  path: string;
  /** How the shell treats a request of this entry before its handler runs. 'file': a file served
   *  as a web server serves it, outside WordPress: matched before the body is read and the caller
   *  authenticated, and only then (Router.fetch's `files`). 'upload': the body is an upload, read
   *  up to the media library's limit rather than the body limit. */
  kind?: 'file' | 'upload';
}

/** A request target (path and query, or an absolute URL) as the path and query string the router matches. */
export function splitTarget(target: string): { path: string; search: string } {
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  if (PLAIN_PATH.test(path) && target.indexOf('#') < 0) return { path, search: q < 0 ? '' : target.slice(q + 1) };
  const url = new URL(target, ORIGIN);
  return { path: url.pathname, search: url.search.slice(1) };
}

export class Router<C, R> {
  /** every entry, in the order added */
  readonly entries: RouteEntry<C, R>[] = [];
  private readonly byMethod = new Map<string, RouteEntry<C, R>[]>();

  add(method: string, match: RegExp, handler: Handler<C, R>, path: string, kind?: RouteEntry<C, R>['kind']): void {
    const entry: RouteEntry<C, R> = { method, match, handler, path };
    if (kind !== undefined) entry.kind = kind;
    this.entries.push(entry);
    let list = this.byMethod.get(method);
    if (list === undefined) this.byMethod.set(method, (list = []));
    list.push(entry);
  }

  /** The first entry of the method whose RegExp matches the target, whether or not its handler
   *  would answer (what the shell reads of a route before the body: its kind). */
  match(method: string, target: string): RouteEntry<C, R> | undefined {
    const { path } = splitTarget(target);
    return this.byMethod.get(method)?.find((e) => e.match.test(path));
  }

  /** The answer of the first matching entry that gives one; undefined when none does. `files`:
   *  only the entries of kind 'file'; otherwise every other entry. */
  async fetch(method: string, target: string, ctx: C, files = false): Promise<R | undefined> {
    const list = this.byMethod.get(method);
    if (list === undefined) return undefined;
    const { path, search } = splitTarget(target);
    for (let i = 0; i < list.length; i++) {
      const e = list[i];
      if ((e.kind === 'file') !== files) continue;
      const m = e.match.exec(path);
      if (m === null) continue;
      const answer = await e.handler({ method, path, search, params: m.groups ?? {}, route: e.path }, ctx);
      if (answer !== undefined) return answer;
    }
    return undefined;
  }
}
