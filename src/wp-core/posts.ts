// /wp/v2/tribe_events, /wp/v2/tribe_venue and /wp/v2/tribe_organizer, read only:
// WP_REST_Posts_Controller's list and single reads over the calendar's records: a list's
// parameters checked and read into a query, one page of the posts it matches (post-match.ts).
// Each post is written by post-object.ts.

import type { Core } from '../api/context.ts';
import { toJson } from '../api/representation/represent.ts';
import { canEditPost, canEditPosts, canReadPost, forbidden } from '../api/wordpress/auth.ts';
import { parseDateInput } from '../api/wordpress/dates.ts';
import { fail } from '../api/wordpress/errors.ts';
import { parseSearch } from '../api/wordpress/text.ts';
import type { Actor, Params, RestCall, RestResult } from '../api/wordpress/types.ts';
import { POST_ORDERBY, WP_POST_STATUSES } from './args.ts';
import { WpParams, authError, collectionResult, wpRoot } from './common.ts';
import { postObject, TYPE, type AnyPost, type PostKindName } from './post-object.ts';

import { NUMERIC_KEYS, PostMatch, type PostQuery, sortPosts } from './post-match.ts';
/** ISO 8601 as rest_parse_date accepts it. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}(?::?\d{2})?)?$/;

/** 'any' is every status but trash and auto-draft (they are excluded from search). */
const ANY = ['publish', 'future', 'draft', 'pending', 'private'];

export class WpPosts {
  private readonly match: PostMatch;

  constructor(private readonly core: Core) {
    this.match = new PostMatch(core);
  }

  rest(kind: PostKindName, call: RestCall): RestResult {
    if (call.action === 'list') return this.list(kind, call.params, call.actor);
    if (call.action !== 'get') throw fail('rest_no_route');
    const p = new WpParams(call.params);
    const context = p.context();
    p.check();
    const target = call.target;
    const id = target && 'id' in target ? target.id : 0;
    const rec = this.match.record(kind, id);
    if (!rec) throw fail('rest_post_invalid_id');
    if (context === 'edit' && !canEditPost(call.actor, rec)) {
      throw authError('rest_forbidden_context', 'Sorry, you are not allowed to edit this post.', call.actor !== null);
    }
    if (!canReadPost(call.actor, rec)) throw forbidden(call.actor);
    return { status: 200, headers: {}, body: toJson(postObject(this.core, kind, rec, context)) };
  }

  private list(kind: PostKindName, params: Params, actor: Actor): RestResult {
    const events = kind === 'event';
    const p = new WpParams(params);
    const { context, page, perPage, search } = p.collection();
    const date = (name: string): number | undefined => {
      const s = p.string(name);
      if (s === undefined) return undefined;
      const v = RFC3339.test(s.trim())
        ? parseDateInput(s.trim(), this.core.site.config.timezone, this.core.site.config.now())
        : null;
      if (v === null) p.problems.add(name, `Invalid date.`);
      return v ?? undefined;
    };
    const q: PostQuery = { statuses: new Set(['publish']), taxOr: false };
    q.after = date('after');
    q.before = date('before');
    q.modifiedAfter = date('modified_after');
    q.modifiedBefore = date('modified_before');
    q.include = p.integers('include');
    q.exclude = p.integers('exclude');
    const offset = p.integer('offset');
    const order = p.oneOf('order', ['asc', 'desc'] as const) ?? 'desc';
    const orderby = p.oneOf('orderby', POST_ORDERBY) ?? 'date';
    q.slugs = p.strings('slug');
    if (events) {
      q.authors = p.integers('author');
      q.authorsOut = p.integers('author_exclude');
      q.categories = p.integers('tribe_events_cat');
      q.categoriesOut = p.integers('tribe_events_cat_exclude');
      q.tags = p.integers('tags');
      q.tagsOut = p.integers('tags_exclude');
      q.taxOr = p.oneOf('tax_relation', ['AND', 'OR'] as const) === 'OR';
    }
    const statuses = p.strings('status');
    if (orderby === 'relevance' && !search)
      p.problems.add('orderby', 'You need to define a search term to order by relevance.');
    if (orderby === 'include' && !q.include?.length)
      p.problems.add('orderby', 'You need to define an include parameter to order by include.');
    p.check();
    const loggedIn = actor !== null;
    if (context === 'edit' && !canEditPosts(actor)) {
      throw authError(
        'rest_forbidden_context',
        'Sorry, you are not allowed to edit posts in this post type.',
        loggedIn,
      );
    }
    if (statuses) {
      q.statuses = new Set();
      for (const s of statuses) {
        if (s !== 'publish' && !canEditPosts(actor))
          throw authError('rest_forbidden_status', 'Status is forbidden.', loggedIn);
        if (!(WP_POST_STATUSES as readonly string[]).includes(s)) {
          p.problems.add('status', `status[${statuses.indexOf(s)}] is not one of ${WP_POST_STATUSES.join(', ')}.`);
          p.check();
        }
        for (const one of s === 'any' ? ANY : [s]) q.statuses.add(one);
      }
    }
    if (search) q.search = parseSearch(search);

    const start = offset ?? (page - 1) * perPage;
    const asc = order === 'asc';
    let total: number;
    let records: AnyPost[];
    const { engine } = this.core;
    const numeric = NUMERIC_KEYS[orderby];
    if (events && numeric) {
      // the page kept in a bounded heap while every match is counted: no sort of all matches
      const top = this.match.topEvents(q, actor, numeric, asc, start + perPage);
      total = top.total;
      records = top.rows.slice(start).map((row) => engine.eventRecord(row));
    } else {
      const matches = events ? this.match.matchingEvents(q, actor) : this.match.matchingLinked(kind, q, actor);
      sortPosts(matches, orderby, asc, q);
      total = matches.length;
      records = matches.slice(start, start + perPage).map((m) => m.rec ?? engine.eventRecord(m.row));
    }
    const maxPages = Math.ceil(total / perPage);
    if (page > maxPages && total > 0) throw fail('rest_post_invalid_page_number');
    const items = records.map((rec) => toJson(postObject(this.core, kind, rec, context)));
    return collectionResult(items, total, perPage, page, `${wpRoot(this.core)}${TYPE[kind]}`, params);
  }
}
