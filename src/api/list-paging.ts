// What every list of posts reads (events, venues, organizers; terms read the paging): the statuses
// listed when none is asked for, the `status` parameter as a bit mask, and `page` and `per_page`.

import { POST_STATUSES } from '../engine/records.ts';
import { canEditPosts } from './wordpress/auth.ts';
import type { Core } from './context.ts';
import { type Problems, asList, asPositiveInt, has } from './wordpress/params.ts';
import type { Actor, Params } from './wordpress/types.ts';

import { MAX_PER_PAGE } from './args.ts';

const PUBLISH_MASK = 1 << POST_STATUSES.indexOf('publish');
const EDITOR_MASK = ['publish', 'future', 'draft', 'pending', 'private'].reduce(
  (m, s) => m | (1 << POST_STATUSES.indexOf(s as never)),
  0,
);

/** Statuses listed when none is asked for: everything but trash/auto-draft for editors of the type. */
export function defaultStatusMask(actor: Actor): number {
  return canEditPosts(actor) ? EDITOR_MASK : PUBLISH_MASK;
}

/** The `status` a list's URLs carry when none was asked for: what TEC queried, `any` for callers
 *  who may edit the post type (contributor and up), else `publish`. */
export function defaultStatusArg(actor: Actor): string {
  return canEditPosts(actor) ? 'any' : 'publish';
}

/** `status` list parameter (events, venues, organizers): a bit mask, or undefined when invalid. */
export function statusMaskParam(value: unknown, actor: Actor): number | undefined {
  const items = asList(value);
  if (!items || items.length === 0) return undefined;
  if (!canEditPosts(actor))
    return items.length === 1 && items[0] === 'publish' ? 1 << POST_STATUSES.indexOf('publish') : undefined;
  let mask = 0;
  for (const s of items) {
    const i = (POST_STATUSES as readonly string[]).indexOf(s);
    if (i < 0) return undefined;
    mask |= 1 << i;
  }
  return mask;
}

export interface Paging {
  page: number;
  perPage: number;
}

export function readPaging(core: Core, params: Params, problems: Problems): Paging {
  let page = 1,
    perPage = core.site.config.perPage;
  if (has(params, 'page')) {
    const n = asPositiveInt(params.page);
    if (n === undefined) problems.add('page');
    else page = n;
  }
  if (has(params, 'per_page')) {
    const n = asPositiveInt(params.per_page);
    if (n === undefined) problems.add('per_page');
    else perPage = n;
  }
  return { page, perPage: Math.min(perPage, MAX_PER_PAGE) };
}
