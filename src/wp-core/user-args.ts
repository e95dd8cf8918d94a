// The wp/v2 users routes (WP_REST_Users_Controller, read only): /users, /users/{id}, /users/me
// and their arguments, in the table of args.ts.

import type { ArgSpec, RouteSpec } from '../api/args.ts';
import { collection, context, endpoint, GET, int, ints, str, strings, WP_NAMESPACE } from './arg-specs.ts';

export const USER_ORDERBY = [
  'id',
  'include',
  'name',
  'registered_date',
  'slug',
  'include_slugs',
  'email',
  'url',
] as const;

export function userRoutes(): RouteSpec[] {
  const id: ArgSpec = { type: 'integer', in: 'path', required: true, description: 'Unique identifier for the user.' };
  return [
    {
      namespace: WP_NAMESPACE,
      path: '/users',
      pattern: '/users',
      endpoints: [
        endpoint(
          GET,
          { resource: 'wp-users', action: 'list' },
          'List users',
          {
            ...collection('users'),
            exclude: ints('Ensure result set excludes specific IDs.'),
            include: ints('Limit result set to specific IDs.'),
            offset: int('Offset the result set by a specific number of items.'),
            order: str('Order sort attribute ascending or descending.', { enum: ['asc', 'desc'], default: 'asc' }),
            orderby: str('Sort collection by user attribute.', { enum: USER_ORDERBY, default: 'name' }),
            slug: strings('Limit result set to users with one or more specific slugs.'),
            roles: strings('Limit result set to users matching at least one specific role provided (list_users only).'),
            who: str('Limit result set to users who are considered authors.', { enum: ['authors'] }),
          },
          {
            '200':
              'an array of users (without list_users: the authors of published posts); headers X-WP-Total, X-WP-TotalPages',
            '400': 'a parameter is invalid',
            '401': 'context=edit, roles or who, logged out',
            '403': 'context=edit, roles or who without the capability',
          },
        ),
      ],
    },
    {
      namespace: WP_NAMESPACE,
      path: '/users/{id}',
      pattern: '/users/(?P<id>[\\d]+)',
      endpoints: [
        endpoint(
          GET,
          { resource: 'wp-users', action: 'get' },
          'Get a user',
          { id, context: context() },
          {
            '200': 'the user',
            '401': 'a user without published posts, logged out (rest_user_cannot_view)',
            '403': 'a user without published posts, or context=edit, without list_users',
            '404': 'no such user (rest_user_invalid_id)',
          },
        ),
      ],
    },
    {
      namespace: WP_NAMESPACE,
      path: '/users/me',
      pattern: '/users/me',
      endpoints: [
        endpoint(
          GET,
          { resource: 'wp-me', action: 'get' },
          'The authenticated user',
          { context: context() },
          {
            '200': 'the user making the request',
            '401': 'not logged in (rest_not_logged_in)',
          },
        ),
      ],
    },
  ];
}
