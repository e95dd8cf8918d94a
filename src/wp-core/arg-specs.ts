// The pieces the wp/v2 route tables (args.ts, user-args.ts) are built of: the namespace, core's
// paging limits, the method lists, and argument and endpoint builders in WP_REST_Controller's
// words.

import type { ArgSpec, Args, EndpointSpec, Method } from '../api/args.ts';
import type { Action, WpResource } from '../api/wordpress/types.ts';

export const WP_NAMESPACE = 'wp/v2';
/** WP_REST_Controller's per_page: default 10, at most 100 (larger is a 400, not capped). */
export const WP_PER_PAGE = 10;
export const WP_MAX_PER_PAGE = 100;

export const GET: readonly Method[] = ['GET'];
export const POST: readonly Method[] = ['POST'];
export const EDIT: readonly Method[] = ['POST', 'PUT', 'PATCH'];
export const DELETE: readonly Method[] = ['DELETE'];

export const str = (description: string, extra: Partial<ArgSpec> = {}): ArgSpec => ({
  type: 'string',
  description,
  ...extra,
});
export const int = (description: string, extra: Partial<ArgSpec> = {}): ArgSpec => ({
  type: 'integer',
  description,
  ...extra,
});
export const ints = (description: string): ArgSpec => ({
  type: 'array',
  items: { type: 'integer' },
  description,
  default: [],
});
export const strings = (description: string): ArgSpec => ({ type: 'array', items: { type: 'string' }, description });
export const context = (dflt = 'view'): ArgSpec =>
  str('Scope under which the request is made; determines fields present in response.', {
    enum: ['view', 'embed', 'edit'],
    default: dflt,
  });

/** WP_REST_Controller::get_collection_params. */
export function collection(what: string): Args {
  return {
    context: context(),
    page: int('Current page of the collection.', { default: 1 }),
    per_page: int(`Maximum number of ${what} to be returned in result set (1 to ${WP_MAX_PER_PAGE}).`, {
      default: WP_PER_PAGE,
    }),
    search: str('Limit results to those matching a string.'),
  };
}

export function endpoint(
  methods: readonly Method[],
  op: { resource: WpResource; action: Action },
  summary: string,
  args: Args,
  responses: Record<string, string>,
): EndpointSpec {
  return { methods, op, summary, args, responses };
}
