// Roles → capabilities, WordPress's meaning for posts applied to events, venues and organizers
// (docs/http-api.md "Roles and capabilities"), and the acting user of an embedding-API call.

import { type CalendarError, fail } from './errors.ts';
import { ROLES, type Actor, type AsArg, type Role, type User, type UserDirectory } from './types.ts';

/** The actor when `as` is left out: administrator rights, acting as the site itself (author id 0, as WordPress
 *  records posts created by the system), so it never impersonates a real user. */
export const SITE_OWNER: User = Object.freeze({ id: 0, login: '', role: 'administrator' as Role });

const RANK: Record<Role, number> = { subscriber: 0, contributor: 1, author: 2, editor: 3, administrator: 4 };

function atLeast(actor: Actor, role: Role): boolean {
  return actor !== null && RANK[actor.role] >= RANK[role];
}

/** "edit_posts": may create posts and list every status (contributor and up). */
export const canEditPosts = (actor: Actor): boolean => atLeast(actor, 'contributor');
/** "publish_posts" (author and up). Also the capability that manages event categories. */
export const canPublish = (actor: Actor): boolean => atLeast(actor, 'author');
/** "edit_others_posts", "read_private_posts" (editor and up). Also manage_categories (tags). */
export const canEditOthers = (actor: Actor): boolean => atLeast(actor, 'editor');
/** "unfiltered_html": editors and administrators keep raw HTML. */
export const canUnfilteredHtml = (actor: Actor): boolean => atLeast(actor, 'editor');
/** "upload_files" (author and up): needed to set an image by URL. */
export const canUpload = (actor: Actor): boolean => atLeast(actor, 'author');

interface Owned {
  authorId: number;
  status: string;
}

const PUBLISHED = new Set(['publish', 'future']);

/** map_meta_cap('edit_post') and ('delete_post'): the same matrix for both. */
export function canEditPost(actor: Actor, post: Owned): boolean {
  if (!actor || !canEditPosts(actor)) return false;
  if (canEditOthers(actor)) return true;
  if (post.authorId !== actor.id) return false;
  return PUBLISHED.has(post.status) ? canPublish(actor) : true;
}
export const canDeletePost = canEditPost;

/** Whether the actor may read a non-trashed post of this status (single GET). */
export function canReadPost(actor: Actor, post: Owned): boolean {
  if (post.status === 'publish') return true;
  if (!actor) return false;
  if (post.authorId === actor.id) return true;
  return canEditOthers(actor);
}

/** WordPress answers a failed permission check with 401 when logged out, 403 when logged in. */
export function forbidden(actor: Actor): CalendarError {
  return actor === null ? fail('rest_forbidden', [], {}, { status: 401 }) : fail('rest_forbidden');
}

/** Resolve the `as` argument of the embedding API into an actor. */
export function resolveActor(as: AsArg, users: UserDirectory | undefined): Actor {
  if (as === undefined) return SITE_OWNER;
  if (as === null) return null;
  if (typeof as === 'string') {
    const user = users?.byLogin(as);
    if (!user) throw fail('invalid_username');
    return user;
  }
  if (typeof as === 'object' && (ROLES as readonly string[]).includes(as.role)) {
    return { id: as.id ?? 0, login: as.login ?? '', role: as.role };
  }
  throw fail(
    'rest_invalid_param',
    [],
    { params: { as: 'Invalid parameter.' } },
    { message: 'Invalid acting user: expected a login, { role } or null.' },
  );
}
