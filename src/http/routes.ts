// The route table of the HTTP shell: every route and method of src/api/args.ts under
// `{restPrefix}/tribe/events/v1` and of src/wp-core/args.ts under `{restPrefix}/wp/v2`, plus
// the site index at `{restPrefix}/`. Each entry is a method, a ready RegExp of the path (ids are
// `\d+`, matched case-insensitively as WordPress does, so `/events/foo` matches nothing and falls
// through to 404 rest_no_route) and a handler; the first entry of the request's method whose
// RegExp matches answers (router.ts). Handlers get a plain request object and return a Reply;
// nothing here touches node:http.

import {
  changePageText,
  changeQuery,
  changeRoutes,
  type ChangeSource,
  streamChanges,
  wantsEventStream,
} from './changes.ts';
import type { Actor } from '../api/wordpress/types.ts';
import { NAMESPACE, type RouteSpec, type Method } from '../api/args.ts';
import { routeTable } from '../api/route-table.ts';
import { buildOpenApi } from '../api/openapi.ts';
import { toJson } from '../api/representation/represent.ts';
import type { Page, RestCall, RestResult, SiteConfig, User } from '../api/wordpress/types.ts';
import { mergeBody, parseUrlEncoded } from './body.ts';
import { type Handler, type RouteEntry, Router } from './router.ts';
import { siteRoutes } from './site-routes.ts';
import type { SitePages } from '../site/pages.ts';
import { indexRoute, namespaceIndex, namespacesOf, siteIndex, apiRootUrl } from './discovery.ts';
import { wpRouteTable } from '../wp-core/args.ts';
import type { UserVerifier } from './auth.ts';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { fail } from '../api/wordpress/errors.ts';
import type { MediaLibrary } from '../media/library.ts';
import { mediaCall } from '../media/http.ts';
import { mediaRoutes } from '../media/args.ts';

/** What the HTTP shell needs from a calendar (src/calendar.ts's Calendar satisfies it). */
export interface RestService extends Partial<ChangeSource> {
  rest(call: RestCall): Promise<RestResult>;
  /** iCalendar feeds ({site}/events/?ical=1 and {site}/event/{slug}/?ical=1), when the calendar serves them */
  ical?(query: Record<string, unknown>, as: Actor): string;
  icalEvent?(idOrSlug: string, as: Actor): string;
  /** list/get as objects, in process (the public pages of src/site/ are rendered from them) */
  read?(call: RestCall): Page<Record<string, unknown>> | Record<string, unknown>;
  readonly site: SiteConfig;
  readonly users: UserVerifier;
  /** the seq of the newest write the calendar reflects (sent as X-Calendar-Seq) */
  readonly seq?: number;
  /** a cluster node's id and role (sent as X-Calendar-Node: ID; role=writer|follower) */
  readonly nodeInfo?: string;
  /** resolves true once the calendar reflects write `seq` (X-Calendar-Min-Seq), false after `ms` */
  waitForSeq?(seq: number, ms?: number): Promise<boolean>;
  /** true when every body rest() answers is ASCII (the calendar's JSON is: see Reply) */
  readonly asciiJson?: boolean;
  /** the store's state for GET .../health (a calendar without a store is always ok) */
  health?(): { status: string };
  /** the media library (/wp/v2/media and the uploaded files) */
  readonly media?: MediaLibrary;
}

/** A finished HTTP answer before the adapter adds the common headers. `ascii`: the body is known
 *  to be ASCII (its byte length is its length), as the calendar's JSON texts are by construction
 *  (every character above 0x7f escaped, as wp_json_encode does); the adapter then neither counts
 *  its UTF-8 bytes (a scan of the whole body: 15-30 µs for an 80 KB page) nor encodes it as UTF-8. */
export type Reply = RestResult & {
  ascii?: boolean;
  /** a site page (its own headers, the site's Link) or an iCalendar feed file (its own headers
   *  only), written as such rather than as REST JSON, or an uploaded file the route wrote itself
   *  through RouteContext.respond (site-routes.ts) */
  site?: 'page' | 'feed' | 'file';
};

export type { RoutedRequest } from './router.ts';

/** Per-request context passed through the router to the handler. */
export interface RouteContext {
  actor: User | null;
  body: Buffer | null;
  contentType: string | undefined;
  /** the request's headers (an upload's Content-Disposition, Content-MD5) */
  headers?: IncomingHttpHeaders;
  /** a HEAD request (routed as GET: its answer's body is not sent) */
  head?: boolean;
  /** Answers the request with a stream the handler opens on the node response (the change feed's
   *  Server-Sent Events); the adapter keeps it until it ends. Absent where nothing can stream. */
  stream?(open: (req: IncomingMessage, res: ServerResponse, heartbeatMs: number) => { stop(): void }): Reply;
  /** Answers a route of kind 'file' by writing on the node response (`close`: the answer says
   *  Connection: close). Absent where nothing can be written. */
  respond?(write: (req: IncomingMessage, res: ServerResponse, close: boolean) => Promise<void>): Promise<void>;
}

/** What a handler answers when it answered through RouteContext.stream. */
export const STREAMED: Reply = Object.freeze({ status: 200, headers: {}, body: '' });

type RestHandler = Handler<RouteContext, Reply>;

/** Parameters WordPress core consumes itself; they never reach an endpoint. */
const META_PARAMS = ['_method', '_envelope', '_fields', '_jsonp'];

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** '/events/(?P<id>\d+)' → RegExp source with JS named groups. */
function patternSource(pattern: string): string {
  return pattern
    .split(/(\(\?P<\w+>[^)]*\))/)
    .map((part) => {
      const g = /^\(\?P<(\w+)>([^)]*)\)$/.exec(part);
      return g ? `(?<${g[1]}>${g[2]})` : escapeRegExp(part);
    })
    .join('');
}

export const JSON_TYPE = 'application/json; charset=UTF-8';

function jsonReply(status: number, data: unknown, headers: Record<string, string> = {}): Reply {
  return { status, headers, body: toJson(data) };
}

/** A calendar answer (JSON text, ASCII by construction: test/e2e/ascii.test.ts) as a Reply: the
 *  answer itself, marked (a copy would read its body, which a list given as parts joins only if
 *  it is read: envelope.ts, archiveResult). */
const asciiReply = (r: RestResult): Reply => Object.assign(r, { ascii: true });

/** A query string as a record of its parameters, a repeated name's values as an array (in order). */
function queryRecord(search: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  for (const [k, v] of new URLSearchParams(search)) {
    const had = out[k];
    out[k] = had === undefined ? v : ([] as string[]).concat(had, v);
  }
  return out;
}

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export interface Routes {
  /** Routes a request (`url`: path and query); resolves to undefined when no route matches
   *  (→ 404 rest_no_route). */
  fetch(req: { method: string; url: string }, ctx: RouteContext, files?: boolean): Promise<Reply | undefined>;
  /** The kind of the first route matching the request (router.ts's RouteEntry.kind). */
  kindOf(req: { method: string; url: string }): 'file' | 'upload' | undefined;
  /** The route table the router was built from. */
  table: RouteSpec[];
  /** the router's entries, in matching order */
  entries: readonly RouteEntry<RouteContext, Reply>[];
}

/**
 * Builds the router for one calendar. Discovery documents and /doc are rendered once here;
 * they depend only on the route table and the site settings.
 */
export function createRoutes(cal: RestService, opts: { pages?: SitePages } = {}): Routes {
  const site = cal.site;
  const table = [...routeTable({ perPage: site.perPage }), ...changeRoutes(), ...wpRouteTable(), ...mediaRoutes()];
  const prefix = site.restPrefix.replace(/\/+$/, '');
  const root = apiRootUrl(site);
  const router = new Router<RouteContext, Reply>();

  const namespaceBodies = new Map(namespacesOf(table).map((ns) => [ns, toJson(namespaceIndex(table, site, ns))]));
  let docBody: string | undefined;

  const add = (method: string, source: string, handler: RestHandler, path: string, kind?: 'upload') => {
    router.add(method, new RegExp(`^${source}/*$`, 'i'), handler, path, kind);
  };

  for (const route of table) {
    const namespace = route.namespace ?? NAMESPACE;
    const base = `${prefix}/${namespace}`;
    const source = escapeRegExp(base) + patternSource(route.pattern);
    const path = base + route.path.replace(/\{(\w+)\}/g, ':$1');
    const allow = new Set<Method>();
    for (const ep of route.endpoints) {
      const op = ep.op;
      let handler: RestHandler;
      if (op.resource === 'index') {
        const namespaceBody = namespaceBodies.get(namespace)!;
        handler = () => ({ status: 200, headers: {}, body: namespaceBody });
      } else if (op.resource === 'doc') {
        handler = () => ({ status: 200, headers: {}, body: (docBody ??= toJson(buildOpenApi(table, site))) });
      } else if (op.resource === 'health') {
        handler = () =>
          jsonReply(200, cal.health ? cal.health() : { status: 'ok', seq: cal.seq ?? 0 }, {
            'Cache-Control': 'no-store',
          });
      } else if (op.resource === 'changes') {
        handler = (req, ctx) => {
          if (!cal.changeWindow || !cal.subscribeWrites) throw fail('rest_no_route');
          const headers = ctx.headers ?? {};
          const lastEventId = headers['last-event-id'];
          const q = changeQuery(req.search, typeof lastEventId === 'string' ? lastEventId : undefined);
          if (ctx.stream !== undefined && ctx.head !== true && wantsEventStream({ headers })) {
            const source = cal as ChangeSource;
            return ctx.stream((nodeReq, res, heartbeatMs) =>
              streamChanges(nodeReq, res, source, q, ctx.actor, heartbeatMs),
            );
          }
          const page = cal.changeWindow({ since: q.since, types: q.types, limit: q.limit, actor: ctx.actor });
          return { status: 200, headers: {}, body: changePageText(page), ascii: true };
        };
      } else if (op.resource === 'media') {
        const action = op.action;
        handler = (req, ctx) => {
          if (!cal.media) throw fail('rest_no_route');
          const id = req.params.id !== undefined ? Number(req.params.id) : undefined;
          return mediaCall(cal.media, action, id, queryRecord(req.search), ctx);
        };
      } else {
        const { resource, action } = op;
        handler = (req, ctx) => {
          const params = mergeBody(parseUrlEncoded(req.search), ctx.body, ctx.contentType);
          for (const k of META_PARAMS) delete params[k];
          const p = req.params;
          const target =
            p.id !== undefined
              ? { id: Number(p.id) }
              : p.slug !== undefined
                ? { slug: decodeSegment(p.slug) }
                : undefined;
          const answer = cal.rest({ resource, action, target, params, actor: ctx.actor, forSocket: true });
          return cal.asciiJson === true ? answer.then(asciiReply) : answer;
        };
      }
      // an upload's body may be larger than other bodies
      const kind = op.resource === 'media' && op.action === 'create' ? 'upload' : undefined;
      for (const m of ep.methods) {
        allow.add(m);
        add(m, source, handler, path, kind);
      }
    }
    // OPTIONS describes the route, as WordPress core answers it.
    const described = toJson(indexRoute(route, root));
    const allowHeader = [...allow].join(', ');
    add('OPTIONS', source, () => ({ status: 200, headers: { Allow: allowHeader }, body: described }), path);
  }

  // The site's feeds and pages, before the site index: the bare site URL is the home page for
  // browsers (SitePages) and the index for the others.
  for (const e of siteRoutes(cal, opts.pages)) router.add(e.method, e.match, e.handler, e.path, e.kind);

  // The site index: {restPrefix}/ and, for discovery from the bare site URL, /. With the site's
  // pages, the site's root is the home page for browsers and this index for the others.
  const siteBody = toJson(siteIndex(table, site));
  const sitePath = new URL(site.siteUrl).pathname.replace(/\/+$/, '');
  const siteRoots = opts.pages === undefined ? [] : [`${sitePath}/`, sitePath || '/'];
  const siteHandler: RestHandler = (req) => {
    const headers: Record<string, string> = siteRoots.includes(req.path) ? { Vary: 'Accept' } : {};
    return { status: 200, headers, body: siteBody };
  };
  const prefixSource = escapeRegExp(prefix);
  for (const m of ['GET', 'OPTIONS']) {
    add(m, prefixSource, siteHandler, `${site.restPrefix}/`);
    if (prefixSource !== '') add(m, '', siteHandler, '/');
  }

  return {
    table,
    entries: router.entries,
    fetch: (req, ctx, files) => router.fetch(req.method, req.url, ctx, files),
    kindOf: (req) => router.match(req.method, req.url)?.kind,
  };
}

export { jsonReply };
