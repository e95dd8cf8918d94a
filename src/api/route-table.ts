// The endpoint table of the tribe/events/v1 namespace: every route, its methods and the
// arguments of each method (their lists in args.ts). The router (src/http/routes.ts), the
// discovery index and /doc (src/api/openapi.ts) are all built from this one table, so what is
// documented is exactly what is routed.

import type { Action, Resource } from './wordpress/types.ts';
import {
  type ArgSpec,
  type Args,
  type ArgsOptions,
  type RouteSpec,
  CREATABLE,
  DELETABLE,
  EDITABLE,
  READABLE,
  NAMESPACE,
  SCOPE_ARG,
  eventFields,
  eventListArgs,
  id,
  linkedListArgs,
  organizerFields,
  slug,
  str,
  termFields,
  termId,
  termListArgs,
  venueFields,
} from './args.ts';

// ---

const SINGULAR: Record<Resource, string> = {
  events: 'event',
  venues: 'venue',
  organizers: 'organizer',
  categories: 'event category',
  tags: 'event tag',
};

function listResponses(resource: Resource): Record<string, string> {
  const terms = resource === 'categories' || resource === 'tags';
  return {
    '200': `a page of ${resource} with rest_url, next_rest_url, previous_rest_url, total and total_pages; headers X-TEC-Total and X-TEC-TotalPages`,
    '400': 'a parameter is invalid (rest_invalid_param)',
    ...(terms ? {} : { '404': 'page > 1 past the last page' }),
  };
}

function singleResponses(resource: Resource, action: Action): Record<string, string> {
  const one = SINGULAR[resource];
  const posts = resource === 'events' || resource === 'venues' || resource === 'organizers';
  const r: Record<string, string> = {};
  if (action === 'create') r['201'] = `the new ${one}`;
  else if (action === 'get') r['200'] = `the ${one}`;
  else if (action === 'update') r['200'] = `the updated ${one}`;
  else r['200'] = posts ? `the ${one} as it is after moving it to the trash` : `the ${one} as it was before deletion`;
  r['400'] =
    action === 'create'
      ? 'a required parameter is missing or a parameter is invalid'
      : `a parameter is invalid, or (${resource === 'events' ? 'slug routes' : 'id and slug routes'}) no such ${one}`;
  if (action !== 'get') r['401'] = 'not logged in';
  r['403'] = action === 'get' ? `the ${one} is not accessible to the caller` : 'logged in without the capability';
  if (resource === 'events' && action !== 'create') r['404'] = 'no event with this id';
  if (posts && action === 'delete') r['410'] = `the ${one} is already in the trash`;
  return r;
}

/** One record's route, by id (`/events/{id}`) or by slug (`/events/by-slug/{slug}`): get,
 *  update and delete, with the key as the first argument of each. */
function singleRoute(resource: Resource, key: 'id' | 'slug', keyArg: ArgSpec, update: Args): RouteSpec {
  const one = SINGULAR[resource];
  const keyed = { [key]: keyArg };
  const events = resource === 'events';
  return {
    path: key === 'id' ? `/${resource}/{id}` : `/${resource}/by-slug/{slug}`,
    pattern: key === 'id' ? `/${resource}/(?P<id>\\d+)` : `/${resource}/by-slug/(?P<slug>[^/]+)`,
    endpoints: [
      {
        methods: READABLE,
        op: { resource, action: 'get' },
        summary: `Get a ${one} by ${key}`,
        args: events ? { ...keyed, password: str('the post password of a password-protected event') } : keyed,
        responses: singleResponses(resource, 'get'),
      },
      {
        methods: EDITABLE,
        op: { resource, action: 'update' },
        summary: `Update a ${one} by ${key}`,
        args: { ...keyed, ...update },
        responses: singleResponses(resource, 'update'),
      },
      {
        methods: DELETABLE,
        op: { resource, action: 'delete' },
        summary: `Delete a ${one} by ${key}`,
        args: events ? { ...keyed, recurrence_scope: SCOPE_ARG } : keyed,
        responses: singleResponses(resource, 'delete'),
      },
    ],
  };
}

function collectionRoutes(
  resource: Resource,
  listArgs: Args,
  create: Args,
  update: Args,
  bySlug: boolean,
): RouteSpec[] {
  const one = SINGULAR[resource];
  const terms = resource === 'categories' || resource === 'tags';
  const idArg = terms ? termId(one) : id(one);
  const routes: RouteSpec[] = [
    {
      path: `/${resource}`,
      pattern: `/${resource}`,
      endpoints: [
        {
          methods: READABLE,
          op: { resource, action: 'list' },
          summary: `List ${resource}`,
          args: listArgs,
          responses: listResponses(resource),
        },
        {
          methods: CREATABLE,
          op: { resource, action: 'create' },
          summary: `Create a ${one}`,
          args: create,
          responses: singleResponses(resource, 'create'),
        },
      ],
    },
  ];
  routes.push(singleRoute(resource, 'id', idArg, update));
  if (bySlug) routes.push(singleRoute(resource, 'slug', slug(one), update));
  return routes;
}

/** Every route of the namespace, in WordPress registration order. */
export function routeTable(opts: ArgsOptions): RouteSpec[] {
  const { perPage } = opts;
  return [
    {
      path: '',
      pattern: '',
      endpoints: [
        {
          methods: READABLE,
          op: { resource: 'index', action: 'get' },
          summary: 'The namespace index: every route of tribe/events/v1',
          args: {
            namespace: str('the namespace', { default: NAMESPACE }),
            context: str('the request context', { default: 'view' }),
          },
          responses: { '200': 'the namespace index' },
        },
      ],
    },
    {
      path: '/doc',
      pattern: '/doc',
      endpoints: [
        {
          methods: READABLE,
          op: { resource: 'doc', action: 'get' },
          summary: 'This OpenAPI document',
          args: {},
          responses: { '200': 'an OpenAPI 3.0 document' },
        },
      ],
    },
    {
      path: '/health',
      pattern: '/health',
      endpoints: [
        {
          methods: READABLE,
          op: { resource: 'health', action: 'get' },
          summary:
            "The store's state: ok, read-only, or degraded (writes refused) with the fault, its cause and file; the journal's size and the last snapshot",
          args: {},
          responses: { '200': "the store's state (status ok, read-only or degraded)" },
        },
      ],
    },
    ...collectionRoutes('events', eventListArgs(perPage), eventFields(true), eventFields(false), true),
    ...collectionRoutes('venues', linkedListArgs(perPage, 'venues'), venueFields(true), venueFields(false), true),
    ...collectionRoutes(
      'organizers',
      linkedListArgs(perPage, 'organizers'),
      organizerFields(true),
      organizerFields(false),
      true,
    ),
    ...collectionRoutes(
      'categories',
      termListArgs(perPage, 'categories', true),
      termFields(true, true),
      termFields(false, true),
      false,
    ),
    ...collectionRoutes(
      'tags',
      termListArgs(perPage, 'tags', false),
      termFields(true, false),
      termFields(false, false),
      false,
    ),
  ];
}

/** The args of one operation (e.g. for validation): the first endpoint of the table that performs it. */
export function argsOf(opts: ArgsOptions, resource: Resource, action: Action, bySlug = false): Args {
  for (const route of routeTable(opts)) {
    if (route.path.includes('by-slug') !== bySlug) continue;
    for (const ep of route.endpoints) {
      if (ep.op.resource === resource && ep.op.action === action) return ep.args;
    }
  }
  throw new Error(`No endpoint for ${resource} ${action}`);
}
