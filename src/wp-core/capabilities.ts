// The capabilities WordPress core's controllers check, for the roles of this service. The
// event category's are the plugin's (register_taxonomy: manage, edit and delete terms need
// publish_tribe_events, assigning them edit_tribe_events); tags keep core's post_tag
// capabilities (manage_categories to edit or delete a tag, edit_posts to assign one, which is
// what creating one through the terms controller asks for, the taxonomy being flat).

import type { Taxonomy } from '../engine/records.ts';
import { canEditOthers, canEditPosts, canPublish } from '../api/wordpress/auth.ts';
import type { Actor, Role } from '../api/wordpress/types.ts';

export interface TermRules {
  /** create_item_permissions_check: edit_terms (hierarchical) or assign_terms (flat) */
  create(actor: Actor): boolean;
  /** edit_term: edit_terms; also what context=edit asks for */
  edit(actor: Actor): boolean;
  /** delete_term: delete_terms */
  delete(actor: Actor): boolean;
}

const CATEGORY_RULES: TermRules = { create: canPublish, edit: canPublish, delete: canPublish };
const TAG_RULES: TermRules = { create: canEditPosts, edit: canEditOthers, delete: canEditOthers };

export function terms(taxonomy: Taxonomy): TermRules {
  return taxonomy === 'post_tag' ? TAG_RULES : CATEGORY_RULES;
}

/** list_users (administrators). */
export const canListUsers = (actor: Actor): boolean => actor !== null && actor.role === 'administrator';

const ROLE_CAPS: Record<Role, string[]> = {
  subscriber: ['read', 'level_0'],
  contributor: [
    'edit_posts',
    'delete_posts',
    'level_1',
    'edit_tribe_events',
    'delete_tribe_events',
    'edit_tribe_venues',
    'edit_tribe_organizers',
  ],
  author: [
    'upload_files',
    'publish_posts',
    'edit_published_posts',
    'delete_published_posts',
    'level_2',
    'publish_tribe_events',
    'edit_published_tribe_events',
    'publish_tribe_venues',
    'publish_tribe_organizers',
  ],
  editor: [
    'moderate_comments',
    'manage_categories',
    'manage_links',
    'unfiltered_html',
    'edit_others_posts',
    'edit_pages',
    'delete_others_posts',
    'read_private_posts',
    'edit_private_posts',
    'level_7',
    'edit_others_tribe_events',
    'delete_others_tribe_events',
    'read_private_tribe_events',
  ],
  administrator: [
    'switch_themes',
    'edit_themes',
    'activate_plugins',
    'edit_plugins',
    'edit_users',
    'edit_files',
    'manage_options',
    'import',
    'list_users',
    'create_users',
    'delete_users',
    'promote_users',
    'level_10',
  ],
};
const RANKED: Role[] = ['subscriber', 'contributor', 'author', 'editor', 'administrator'];

/** The user's capabilities as the users controller's edit context lists them: the role's
 *  primitive capabilities (each role has those of the roles below it) and the role itself. */
export function capabilitiesOf(role: Role): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const r of RANKED.slice(0, RANKED.indexOf(role) + 1)) for (const cap of ROLE_CAPS[r]) out[cap] = true;
  if (role !== 'subscriber') out.read = true;
  out[role] = true;
  return out;
}
