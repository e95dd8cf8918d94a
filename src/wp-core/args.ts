// The endpoint table of the WordPress core routes (`wp/v2`) this service answers over its own
// records: the tags and event categories (WP_REST_Terms_Controller), the events, venues and
// organizers (WP_REST_Posts_Controller, read only), and the users (WP_REST_Users_Controller,
// read only). The HTTP shell adds these routes to the same table as tribe/events/v1's, so the
// router, OPTIONS, the discovery index and /doc all read them from here. The pieces they are built
// of: arg-specs.ts; the users routes: user-args.ts.

import type { ArgSpec, Args, RouteSpec } from '../api/args.ts';
import type { Action, WpResource } from '../api/wordpress/types.ts';
import {
  collection,
  context,
  DELETE,
  EDIT,
  endpoint,
  GET,
  int,
  ints,
  POST,
  str,
  strings,
  WP_NAMESPACE,
} from './arg-specs.ts';
import { userRoutes } from './user-args.ts';

// ---- terms --------------------------------------------------------------------------------

export const TERM_ORDERBY = [
  'id',
  'include',
  'name',
  'slug',
  'include_slugs',
  'term_group',
  'description',
  'count',
] as const;

function termListArgs(hierarchical: boolean): Args {
  return {
    ...collection('terms'),
    exclude: ints('Ensure result set excludes specific IDs.'),
    include: ints('Limit result set to specific IDs.'),
    ...(hierarchical ? {} : { offset: int('Offset the result set by a specific number of items.') }),
    order: str('Order sort attribute ascending or descending.', { enum: ['asc', 'desc'], default: 'asc' }),
    orderby: str('Sort collection by term attribute.', { enum: TERM_ORDERBY, default: 'name' }),
    hide_empty: { type: 'boolean', default: false, description: 'Whether to hide terms not assigned to any posts.' },
    ...(hierarchical ? { parent: int('Limit result set to terms assigned to a specific parent.') } : {}),
    post: int('Limit result set to terms assigned to a specific post.', { default: null }),
    slug: strings('Limit result set to terms with one or more specific slugs.'),
  };
}

function termFields(hierarchical: boolean, create: boolean): Args {
  return {
    description: str('HTML description of the term.'),
    name: str('HTML title for the term.', { required: create }),
    slug: str('An alphanumeric identifier for the term unique to its type.'),
    ...(hierarchical ? { parent: int('The parent term ID.') } : {}),
    meta: { type: 'object', description: 'Meta fields (none are registered for these taxonomies).' },
  };
}

function termRoutes(resource: WpResource, base: string, hierarchical: boolean): RouteSpec[] {
  const id: ArgSpec = { type: 'integer', in: 'path', required: true, description: 'Unique identifier for the term.' };
  const op = (action: Action) => ({ resource, action });
  return [
    {
      namespace: WP_NAMESPACE,
      path: `/${base}`,
      pattern: `/${base}`,
      endpoints: [
        endpoint(GET, op('list'), `List ${base} terms`, termListArgs(hierarchical), {
          '200': 'an array of terms (empty past the last page); headers X-WP-Total, X-WP-TotalPages and Link',
          '400': 'a parameter is invalid (rest_invalid_param)',
          '401': 'context=edit without the capability to edit these terms, logged out (rest_forbidden_context)',
          '403': 'context=edit without the capability to edit these terms (rest_forbidden_context)',
        }),
        endpoint(POST, op('create'), `Create a ${base} term`, termFields(hierarchical, true), {
          '201': 'the new term; header Location',
          '400':
            'a parameter is missing or invalid, the parent does not exist (rest_term_invalid), or the name is taken (term_exists)',
          '401': 'not logged in (rest_cannot_create)',
          '403': 'logged in without the capability (rest_cannot_create)',
        }),
      ],
    },
    {
      namespace: WP_NAMESPACE,
      path: `/${base}/{id}`,
      pattern: `/${base}/(?P<id>[\\d]+)`,
      endpoints: [
        endpoint(
          GET,
          op('get'),
          `Get a ${base} term`,
          { id, context: context() },
          {
            '200': 'the term',
            '404': 'no such term (rest_term_invalid)',
            '401': 'context=edit, logged out',
            '403': 'context=edit without the capability',
          },
        ),
        endpoint(
          EDIT,
          op('update'),
          `Update a ${base} term`,
          { id, ...termFields(hierarchical, false) },
          {
            '200': 'the updated term',
            '400': 'a parameter is invalid',
            '401': 'not logged in (rest_cannot_update)',
            '403': 'logged in without the capability (rest_cannot_update)',
            '404': 'no such term (rest_term_invalid)',
          },
        ),
        endpoint(
          DELETE,
          op('delete'),
          `Delete a ${base} term`,
          {
            id,
            force: {
              type: 'boolean',
              default: false,
              description: 'Required to be true, as terms do not support trashing.',
            },
          },
          {
            '200': '{deleted: true, previous: the term as it was}',
            '401': 'not logged in (rest_cannot_delete)',
            '403': 'logged in without the capability (rest_cannot_delete)',
            '404': 'no such term (rest_term_invalid)',
            '501': 'force is not true (rest_trash_not_supported)',
          },
        ),
      ],
    },
  ];
}

// ---- posts --------------------------------------------------------------------------------

export const POST_ORDERBY = [
  'author',
  'date',
  'id',
  'include',
  'modified',
  'parent',
  'relevance',
  'slug',
  'include_slugs',
  'title',
] as const;
export const WP_POST_STATUSES = [
  'publish',
  'future',
  'draft',
  'pending',
  'private',
  'trash',
  'auto-draft',
  'inherit',
  'any',
] as const;

function postListArgs(events: boolean): Args {
  const iso = (description: string): ArgSpec => str(description, { format: 'date-time' });
  const args: Args = {
    ...collection('items'),
    after: iso('Limit response to posts published after a given ISO8601 compliant date.'),
    modified_after: iso('Limit response to posts modified after a given ISO8601 compliant date.'),
  };
  if (events) {
    args.author = ints('Limit result set to posts assigned to specific authors.');
    args.author_exclude = ints('Ensure result set excludes posts assigned to specific authors.');
  }
  Object.assign(args, {
    before: iso('Limit response to posts published before a given ISO8601 compliant date.'),
    modified_before: iso('Limit response to posts modified before a given ISO8601 compliant date.'),
    exclude: ints('Ensure result set excludes specific IDs.'),
    include: ints('Limit result set to specific IDs.'),
    offset: int('Offset the result set by a specific number of items.'),
    order: str('Order sort attribute ascending or descending.', { enum: ['asc', 'desc'], default: 'desc' }),
    orderby: str('Sort collection by post attribute.', { enum: POST_ORDERBY, default: 'date' }),
    slug: strings('Limit result set to posts with one or more specific slugs.'),
    status: {
      type: 'array',
      items: { type: 'string' },
      default: 'publish',
      enum: WP_POST_STATUSES,
      description: 'Limit result set to posts assigned one or more statuses (other than publish: contributors and up).',
    } as ArgSpec,
  });
  if (events) {
    Object.assign(args, {
      tax_relation: str('Limit result set based on relationship between multiple taxonomies.', { enum: ['AND', 'OR'] }),
      tribe_events_cat: ints(
        'Limit result set to items with specific terms assigned in the tribe_events_cat taxonomy (and their children).',
      ),
      tribe_events_cat_exclude: ints(
        'Limit result set to items except those with specific terms assigned in the tribe_events_cat taxonomy.',
      ),
      tags: ints('Limit result set to items with specific terms assigned in the tags taxonomy.'),
      tags_exclude: ints('Limit result set to items except those with specific terms assigned in the tags taxonomy.'),
    });
  }
  return args;
}

function postRoutes(resource: WpResource, base: string): RouteSpec[] {
  const events = base === 'tribe_events';
  const id: ArgSpec = { type: 'integer', in: 'path', required: true, description: 'Unique identifier for the post.' };
  return [
    {
      namespace: WP_NAMESPACE,
      path: `/${base}`,
      pattern: `/${base}`,
      endpoints: [
        endpoint(GET, { resource, action: 'list' }, `List ${base} posts`, postListArgs(events), {
          '200': 'an array of posts; headers X-WP-Total, X-WP-TotalPages and Link',
          '400':
            'a parameter is invalid (rest_invalid_param), or the page is past the last one (rest_post_invalid_page_number)',
          '401':
            'a status other than publish, or context=edit, logged out (rest_forbidden_status, rest_forbidden_context)',
          '403': 'a status other than publish, or context=edit, without the capability',
        }),
      ],
    },
    {
      namespace: WP_NAMESPACE,
      path: `/${base}/{id}`,
      pattern: `/${base}/(?P<id>[\\d]+)`,
      endpoints: [
        endpoint(
          GET,
          { resource, action: 'get' },
          `Get a ${base} post`,
          {
            id,
            context: context(),
            password: str('The password for the post if it is password protected.'),
          },
          {
            '200': 'the post',
            '401': 'not readable by an anonymous caller (rest_forbidden)',
            '403': 'not readable by the caller (rest_forbidden), or context=edit without the right to edit it',
            '404': 'no such post of this type (rest_post_invalid_id)',
          },
        ),
      ],
    },
  ];
}

/** Every wp/v2 route, the namespace index first (GET {restPrefix}/wp/v2). */
export function wpRouteTable(): RouteSpec[] {
  return [
    {
      namespace: WP_NAMESPACE,
      path: '',
      pattern: '',
      endpoints: [
        {
          methods: GET,
          op: { resource: 'index', action: 'get' },
          summary: 'The namespace index: every route of wp/v2 this service answers',
          args: {
            namespace: str('the namespace', { default: WP_NAMESPACE }),
            context: str('the request context', { default: 'view' }),
          },
          responses: { '200': 'the namespace index' },
        },
      ],
    },
    ...postRoutes('wp-events', 'tribe_events'),
    ...postRoutes('wp-venues', 'tribe_venue'),
    ...postRoutes('wp-organizers', 'tribe_organizer'),
    ...termRoutes('wp-categories', 'tribe_events_cat', true),
    ...termRoutes('wp-tags', 'tags', false),
    ...userRoutes(),
  ];
}
