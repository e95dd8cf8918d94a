// WordPress discovery documents: the site index (`{restPrefix}/`) and the namespace index
// (`{restPrefix}/tribe/events/v1`), both built from the route table of src/api/args.ts.
// wpapi's WPAPI.discover() follows the Link header to the site index and builds its request
// handlers from `routes[*].namespace`, `methods` and `endpoints[].args`.

import { NAMESPACE, type ArgSpec, type Args, type RouteSpec } from '../api/args.ts';
import type { SiteConfig } from '../api/wordpress/types.ts';

export interface IndexArg {
  type?: ArgSpec['type'];
  format?: string;
  description?: string;
  default?: unknown;
  enum?: readonly string[];
  items?: ArgSpec['items'];
  required: boolean;
}

export interface IndexRoute {
  namespace: string;
  methods: string[];
  endpoints: Array<{ methods: string[]; args: Record<string, IndexArg> }>;
  _links?: { self: Array<{ href: string }> };
}

/** The route key WordPress uses: '/tribe/events/v1/events/(?P<id>\d+)'. */
export function routeKey(route: RouteSpec): string {
  return `/${route.namespace ?? NAMESPACE}${route.pattern}`;
}

/** The namespaces of the table, in the order their first route comes. */
export function namespacesOf(table: RouteSpec[]): string[] {
  const out: string[] = [];
  for (const r of table) if (!out.includes(r.namespace ?? NAMESPACE)) out.push(r.namespace ?? NAMESPACE);
  return out;
}

function indexArgs(args: Args): Record<string, IndexArg> {
  const out: Record<string, IndexArg> = {};
  for (const [name, a] of Object.entries(args)) {
    const arg = { type: a.type } as IndexArg;
    if (a.format) arg.format = a.format;
    arg.description = a.description;
    if (a.default !== undefined) arg.default = a.default;
    if (a.enum) arg.enum = a.enum;
    if (a.items) arg.items = a.items;
    arg.required = a.required === true;
    out[name] = arg;
  }
  return out;
}

/** One entry of `routes`, as WP_REST_Server::get_data_for_route renders it. */
export function indexRoute(route: RouteSpec, apiRoot: string): IndexRoute {
  const methods: string[] = [];
  for (const ep of route.endpoints) for (const m of ep.methods) if (!methods.includes(m)) methods.push(m);
  const namespace = route.namespace ?? NAMESPACE;
  const entry: IndexRoute = {
    namespace,
    methods,
    endpoints: route.endpoints.map((ep) => ({ methods: [...ep.methods], args: indexArgs(ep.args) })),
  };
  if (!route.pattern.includes('(?P<')) entry._links = { self: [{ href: `${apiRoot}${namespace}${route.pattern}` }] };
  return entry;
}

/** `{site}{restPrefix}/`, the root every link of the API hangs from. */
export function apiRootUrl(site: SiteConfig): string {
  return `${site.siteUrl}${site.restPrefix}/`;
}

/** A namespace index: GET {restPrefix}/tribe/events/v1 (or /wp/v2): the routes of that namespace. */
export function namespaceIndex(table: RouteSpec[], site: SiteConfig, namespace = NAMESPACE): object {
  const root = apiRootUrl(site);
  const routes: Record<string, IndexRoute> = {};
  for (const r of table) if ((r.namespace ?? NAMESPACE) === namespace) routes[routeKey(r)] = indexRoute(r, root);
  return { namespace, routes, _links: { up: [{ href: root }] } };
}

/** Hours east of UTC for a site time zone ('America/New_York' → -5 or -4; 'UTC+5.5' → 5.5). */
export function gmtOffset(timezone: string, at: Date): number {
  const m = /^UTC([+-]\d+(?:\.\d+)?)?$/i.exec(timezone);
  if (m) return m[1] ? Number(m[1]) : 0;
  try {
    const name = new Intl.DateTimeFormat('en-US', { timeZone: timezone, timeZoneName: 'longOffset' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value;
    const o = name && /GMT([+-])(\d{2}):(\d{2})/.exec(name);
    if (!o) return 0;
    return (o[1] === '-' ? -1 : 1) * (Number(o[2]) + Number(o[3]) / 60);
  } catch {
    return 0;
  }
}

/** The site index: GET {restPrefix}/ (WordPress core's shape, with the namespaces of the table). */
export function siteIndex(table: RouteSpec[], site: SiteConfig): object {
  const root = apiRootUrl(site);
  const isOffset = /^UTC[+-]/i.test(site.timezone);
  const routes: Record<string, IndexRoute | object> = {
    '/': {
      namespace: '',
      methods: ['GET'],
      endpoints: [{ methods: ['GET'], args: { context: { type: 'string', default: 'view', required: false } } }],
      _links: { self: [{ href: root }] },
    },
  };
  for (const r of table) routes[routeKey(r)] = indexRoute(r, root);
  return {
    name: 'calendar-engine',
    description: 'An in-memory calendar engine with The Events Calendar REST API',
    url: site.siteUrl,
    home: site.siteUrl,
    gmt_offset: gmtOffset(site.timezone, site.now()),
    timezone_string: isOffset ? '' : site.timezone,
    namespaces: namespacesOf(table),
    authentication: {
      'application-passwords': {
        endpoints: { authorization: `${site.siteUrl}/wp-admin/authorize-application.php` },
      },
    },
    routes,
    _links: { help: [{ href: 'https://developer.wordpress.org/rest-api/' }] },
  };
}
