// /wp/v2/users, /wp/v2/users/{id} and /wp/v2/users/me, read only: WP_REST_Users_Controller
// over the service's users. Without list_users (administrators) a caller sees only the users
// who have published something (an event, venue or organizer), as core shows only authors of
// published posts; /users/me is the acting user (401 rest_not_logged_in when anonymous).

import { createHash } from 'node:crypto';
import type { Core } from '../api/context.ts';
import { toJson } from '../api/representation/represent.ts';
import { fail } from '../api/wordpress/errors.ts';
import { sanitizeSlug } from '../api/wordpress/text.ts';
import type { Actor, Params, RestCall, RestResult, User } from '../api/wordpress/types.ts';
import { USER_ORDERBY } from './user-args.ts';
import { canListUsers, capabilitiesOf } from './capabilities.ts';
import { WpParams, authError, collectionResult, link, wpRoot, type Context, type Item } from './common.ts';

/** get_avatar_url of a user without an email address: the mystery person. */
const AVATAR_HASH = createHash('md5').update('').digest('hex');

export class WpUsers {
  constructor(private readonly core: Core) {}

  rest(call: RestCall): RestResult {
    const { actor } = call;
    const p = new WpParams(call.params);
    if (call.resource === 'wp-me') {
      const context = p.context();
      p.check();
      if (!actor) throw fail('rest_not_logged_in');
      return { status: 200, headers: {}, body: toJson(this.object(this.core.users?.byId(actor.id) ?? actor, context)) };
    }
    if (call.action === 'list') return this.list(p, call.params, actor);
    const context = p.context();
    p.check();
    const target = call.target;
    const id = target && 'id' in target ? target.id : 0;
    const user = id > 0 ? this.core.users?.byId(id) : undefined;
    if (!user) throw fail('rest_user_invalid_id');
    const self = actor !== null && actor.id === user.id;
    if (context === 'edit' && !self && !canListUsers(actor)) {
      throw authError('rest_forbidden_context', 'Sorry, you are not allowed to list users.', actor !== null);
    }
    if (!self && !canListUsers(actor) && !this.authors().has(user.id)) {
      throw authError('rest_user_cannot_view', 'Sorry, you are not allowed to list users.', actor !== null);
    }
    return { status: 200, headers: {}, body: toJson(this.object(user, context)) };
  }

  private list(p: WpParams, params: Params, actor: Actor): RestResult {
    const { context, page, perPage, search } = p.collection();
    const include = p.integers('include');
    const exclude = p.integers('exclude');
    const offset = p.integer('offset');
    const order = p.oneOf('order', ['asc', 'desc'] as const) ?? 'asc';
    const orderby = p.oneOf('orderby', USER_ORDERBY) ?? 'name';
    const slugs = p.strings('slug');
    const roles = p.strings('roles');
    const who = p.oneOf('who', ['authors'] as const);
    p.check();
    const loggedIn = actor !== null;
    const admin = canListUsers(actor);
    if (context === 'edit' && !admin)
      throw authError('rest_forbidden_context', 'Sorry, you are not allowed to list users.', loggedIn);
    if (roles && !admin)
      throw authError('rest_user_cannot_view', 'Sorry, you are not allowed to filter users by role.', loggedIn);
    if (who && !actor)
      throw authError('rest_forbidden_who', 'Sorry, you are not allowed to query users by this parameter.', loggedIn);
    const authors = admin ? undefined : this.authors();
    const words = search?.toLowerCase().replace(/^\*|\*$/g, '');
    const users = (this.core.users?.list?.() ?? []).filter((u) => {
      if (authors && !authors.has(u.id)) return false;
      if (who === 'authors' && u.role === 'subscriber') return false;
      if (include?.length && !include.includes(u.id)) return false;
      if (exclude?.includes(u.id)) return false;
      if (slugs?.length && !slugs.includes(sanitizeSlug(u.login))) return false;
      if (roles?.length && !roles.includes(u.role)) return false;
      if (words && !u.login.toLowerCase().includes(words)) return false;
      return true;
    });
    const key = (u: User): string | number =>
      orderby === 'id' ? u.id : orderby === 'include' ? (include ?? []).indexOf(u.id) : u.login.toLowerCase();
    users.sort((a, b) => {
      const x = key(a),
        y = key(b);
      const c = x < y ? -1 : x > y ? 1 : a.id - b.id;
      return order === 'asc' ? c : -c;
    });
    const start = offset ?? (page - 1) * perPage;
    const items = users.slice(start, start + perPage).map((u) => toJson(this.object(u, context)));
    return collectionResult(items, users.length, perPage, page, `${wpRoot(this.core)}users`, params);
  }

  /** The ids of the users who have published an event, a venue or an organizer. */
  private authors(): Set<number> {
    const { engine } = this.core;
    const out = new Set<number>();
    const table = engine.eventTable;
    for (let row = 0; row < table.count; row++) if (table.statusCodes[row] === 0) out.add(table.authorIds[row]);
    for (const v of engine.venues()) if (v.status === 'publish') out.add(v.authorId);
    for (const o of engine.organizers()) if (o.status === 'publish') out.add(o.authorId);
    return out;
  }

  /** WP_REST_Users_Controller::prepare_item_for_response (view, embed and edit contexts). */
  private object(user: User, context: Context): Item {
    const root = wpRoot(this.core);
    const slug = sanitizeSlug(user.login);
    const edit = context === 'edit';
    const obj: Item = { id: user.id };
    if (edit) obj.username = user.login;
    obj.name = user.login;
    if (edit) Object.assign(obj, { first_name: '', last_name: '', email: '' });
    obj.url = '';
    if (context !== 'embed') obj.description = '';
    obj.link = `${this.core.site.config.siteUrl}/author/${slug}/`;
    if (edit) Object.assign(obj, { locale: 'en_US', nickname: user.login });
    obj.slug = slug;
    if (edit) {
      obj.roles = [user.role];
      obj.capabilities = capabilitiesOf(user.role);
      obj.extra_capabilities = { [user.role]: true };
    }
    const avatar = (size: number) => `https://secure.gravatar.com/avatar/${AVATAR_HASH}?s=${size}&d=mm&r=g`;
    obj.avatar_urls = { 24: avatar(24), 48: avatar(48), 96: avatar(96) };
    if (context !== 'embed') obj.meta = [];
    obj._links = { self: link(`${root}users/${user.id}`), collection: link(`${root}users`) };
    return obj;
  }
}
