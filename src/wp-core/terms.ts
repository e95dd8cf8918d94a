// /wp/v2/tags and /wp/v2/tribe_events_cat: WP_REST_Terms_Controller over the same terms the
// tribe/events/v1 routes manage. Lists read the engine's term table (ids and slugs looked up,
// the taxonomy's terms walked only when no id or slug narrows it); writes stage the same term
// ops as /categories and /tags (terms/write.ts), with core's permissions and errors.

import type { Taxonomy, TermRecord } from '../engine/records.ts';
import { Tx, type Core } from '../api/context.ts';
import { termLink, toJson } from '../api/representation/represent.ts';
import { terms as termRules } from './capabilities.ts';
import { fail, invalidParams, missingParams } from '../api/wordpress/errors.ts';
import { Problems } from '../api/wordpress/params.ts';
import { foldForSearch } from '../api/wordpress/text.ts';
import { stageTerm } from '../api/terms/write.ts';
import { termOrder } from '../api/terms/list.ts';
import type { Actor, Params, RestCall, RestResult } from '../api/wordpress/types.ts';
import { TERM_ORDERBY } from './args.ts';
import { CURIES, WpParams, authError, collectionResult, link, wpRoot, type Item } from './common.ts';

/** The rest base of a taxonomy under wp/v2. */
export const termBase = (taxonomy: Taxonomy): string => (taxonomy === 'post_tag' ? 'tags' : 'tribe_events_cat');

/** A term as WP_REST_Terms_Controller::prepare_item_for_response writes it (view and edit contexts). */
export function wpTermObject(core: Core, t: TermRecord): Item {
  const { engine } = core;
  const root = wpRoot(core);
  const base = `${root}${termBase(t.taxonomy)}`;
  const obj: Item = {
    id: t.id,
    count: engine.termCount(t.id),
    description: t.description,
    link: termLink(core.site, engine, t),
    name: t.name,
    slug: t.slug,
    taxonomy: t.taxonomy,
  };
  if (t.taxonomy === 'tribe_events_cat') obj.parent = t.parent;
  obj.meta = [];
  const links: Item = {
    self: link(`${base}/${t.id}`),
    collection: link(base),
    about: link(`${root}taxonomies/${t.taxonomy}`),
  };
  if (t.parent !== 0 && engine.term(t.parent)) links.up = link(`${base}/${t.parent}`, { embeddable: true });
  links['wp:post_type'] = link(`${root}tribe_events?${termBase(t.taxonomy)}=${t.id}`);
  links.curies = CURIES;
  obj._links = links;
  return obj;
}

/** The embed context: id, link, name, slug, taxonomy and the links. */
function embedded(obj: Item): Item {
  const { id, link: href, name, slug, taxonomy, _links } = obj;
  return { id, link: href, name, slug, taxonomy, _links };
}

export class WpTerms {
  constructor(private readonly core: Core) {}

  async rest(
    taxonomy: Taxonomy,
    call: RestCall,
    commit: (tx: Tx, render: () => RestResult) => Promise<RestResult>,
  ): Promise<RestResult> {
    const { core } = this;
    const { actor, params } = call;
    const rules = termRules(taxonomy);
    const loggedIn = actor !== null;
    switch (call.action) {
      case 'list':
        return this.list(taxonomy, params, actor);
      case 'get': {
        const p = new WpParams(params);
        const context = p.context();
        p.check();
        const term = this.target(taxonomy, call);
        if (context === 'edit' && !rules.edit(actor)) {
          throw authError('rest_forbidden_context', 'Sorry, you are not allowed to edit this term.', loggedIn);
        }
        return { status: 200, headers: {}, body: toJson(this.shaped(term, context)) };
      }
      case 'create': {
        const p = new WpParams(params);
        this.readFields(p, taxonomy);
        if (!p.has('name')) throw missingParams(['name']);
        p.check();
        if (!rules.create(actor))
          throw authError(
            'rest_cannot_create',
            'Sorry, you are not allowed to create terms in this taxonomy.',
            loggedIn,
          );
        this.checkParent(taxonomy, params);
        const tx = new Tx(core, actor);
        const rec = this.stage(tx, taxonomy, params, undefined);
        const location = `${wpRoot(core)}${termBase(taxonomy)}/${rec.id}`;
        return commit(tx, () => ({
          status: 201,
          headers: { Location: location },
          body: toJson(this.shaped(core.engine.term(rec.id)!, 'edit')),
        }));
      }
      case 'update': {
        const p = new WpParams(params);
        this.readFields(p, taxonomy);
        p.check();
        const term = this.target(taxonomy, call);
        if (!rules.edit(actor))
          throw authError('rest_cannot_update', 'Sorry, you are not allowed to edit this term.', loggedIn);
        this.checkParent(taxonomy, params);
        const tx = new Tx(core, actor);
        const rec = this.stage(tx, taxonomy, params, term);
        return commit(tx, () => ({
          status: 200,
          headers: {},
          body: toJson(this.shaped(core.engine.term(rec.id)!, 'edit')),
        }));
      }
      case 'delete': {
        const p = new WpParams(params);
        const force = p.boolean('force') ?? false;
        p.check();
        const term = this.target(taxonomy, call);
        if (!rules.delete(actor))
          throw authError('rest_cannot_delete', 'Sorry, you are not allowed to delete this term.', loggedIn);
        if (!force) throw fail('rest_trash_not_supported');
        const previous = this.shaped(term, 'view');
        const tx = new Tx(core, actor);
        tx.ops.push({ t: 'term', a: 'delete', id: term.id });
        return commit(tx, () => ({ status: 200, headers: {}, body: toJson({ deleted: true, previous }) }));
      }
    }
    throw fail('rest_no_route');
  }

  /** The term write of the plugin's routes (terms/write.ts), which refuse an empty description:
   *  core takes one (it clears the description), so it is set after staging. */
  private stage(tx: Tx, taxonomy: Taxonomy, params: Params, existing: TermRecord | undefined): TermRecord {
    const clear = params.description === '';
    const problems = new Problems();
    const rec = stageTerm(tx, taxonomy, clear ? { ...params, description: undefined } : params, existing, problems);
    if (!rec) throw invalidParams(problems.reasons);
    if (clear) rec.description = '';
    return rec;
  }

  private shaped(term: TermRecord, context: string): Item {
    const obj = wpTermObject(this.core, term);
    return context === 'embed' ? embedded(obj) : obj;
  }

  /** /{base}/{id}: a term of this taxonomy, else 404 rest_term_invalid. */
  private target(taxonomy: Taxonomy, call: RestCall): TermRecord {
    const target = call.target;
    const id = target && 'id' in target ? target.id : 0;
    const t = id > 0 ? this.core.engine.term(id) : undefined;
    if (!t || t.taxonomy !== taxonomy) throw fail('rest_term_invalid');
    return t;
  }

  /** The schema's checks of a write's fields (types only; values are checked when staged). */
  private readFields(p: WpParams, taxonomy: Taxonomy): void {
    p.string('name');
    p.string('description');
    p.string('slug');
    if (taxonomy === 'tribe_events_cat') p.integer('parent');
    if (p.has('meta') && (typeof p.params.meta !== 'object' || p.params.meta === null))
      p.problems.add('meta', 'meta is not of type object.');
  }

  /** `parent` on a write: tags have none (400 rest_taxonomy_not_hierarchical); a category's must exist. */
  private checkParent(taxonomy: Taxonomy, params: Params): void {
    if (params.parent === undefined) return;
    if (taxonomy !== 'tribe_events_cat') throw fail('rest_taxonomy_not_hierarchical');
    const id = Number(params.parent);
    if (id !== 0 && this.core.engine.term(id)?.taxonomy !== 'tribe_events_cat') {
      throw fail('rest_term_invalid', [], {}, { status: 400, message: 'Parent term does not exist.' });
    }
  }

  private list(taxonomy: Taxonomy, params: Params, actor: Actor): RestResult {
    const { engine } = this.core;
    const p = new WpParams(params);
    const { context, page, perPage, search } = p.collection();
    const include = p.integers('include');
    const exclude = p.integers('exclude');
    const offset = taxonomy === 'post_tag' ? p.integer('offset') : undefined;
    const order = p.oneOf('order', ['asc', 'desc'] as const) ?? 'asc';
    const orderby = p.oneOf('orderby', TERM_ORDERBY) ?? 'name';
    const hideEmpty = p.boolean('hide_empty') ?? false;
    const parent = taxonomy === 'tribe_events_cat' ? p.integer('parent') : undefined;
    const post = p.integer('post');
    const slugs = p.strings('slug');
    p.check();
    if (context === 'edit' && !termRules(taxonomy).edit(actor)) {
      throw authError(
        'rest_forbidden_context',
        'Sorry, you are not allowed to edit terms in this taxonomy.',
        actor !== null,
      );
    }

    // candidates: looked up by id or slug when either narrows the list, else the taxonomy's terms
    let candidates: Iterable<TermRecord>;
    if (include && include.length > 0)
      candidates = include.map((id) => engine.term(id)).filter((t): t is TermRecord => t !== undefined);
    else if (slugs && slugs.length > 0)
      candidates = slugs.map((s) => engine.termBySlug(taxonomy, s)).filter((t): t is TermRecord => t !== undefined);
    else candidates = engine.terms(taxonomy);
    let postTerms: Set<number> | undefined;
    if (post) {
      const row = engine.postKind(post) === 'event' ? engine.eventRow(post) : -1;
      const rec = row === -1 ? undefined : engine.eventRecord(row);
      postTerms = new Set(rec ? (taxonomy === 'post_tag' ? rec.tagIds : rec.categoryIds) : []);
    }
    const folded = search !== undefined && search !== '' ? foldForSearch(search) : undefined;
    const matches: TermRecord[] = [];
    const seen = new Set<number>();
    for (const t of candidates) {
      if (t.taxonomy !== taxonomy || seen.has(t.id)) continue;
      seen.add(t.id);
      if (include && include.length > 0 && slugs && slugs.length > 0 && !slugs.includes(t.slug)) continue;
      if (exclude?.includes(t.id)) continue;
      if (parent !== undefined && t.parent !== parent) continue;
      if (postTerms && !postTerms.has(t.id)) continue;
      if (folded !== undefined && !foldForSearch(t.name).includes(folded) && !foldForSearch(t.slug).includes(folded))
        continue;
      if (hideEmpty && engine.termCount(t.id) === 0) continue;
      matches.push(t);
    }
    sortTerms(matches, orderby, order === 'asc', include, slugs, (id) => engine.termCount(id));
    const start = offset ?? (page - 1) * perPage;
    const items = matches.slice(start, start + perPage).map((t) => toJson(this.shaped(t, context)));
    const pageNo = offset !== undefined ? Math.ceil(offset / perPage + 1) : page;
    return collectionResult(
      items,
      matches.length,
      perPage,
      pageNo,
      `${wpRoot(this.core)}${termBase(taxonomy)}`,
      params,
    );
  }
}

function sortTerms(
  terms: TermRecord[],
  orderby: string,
  asc: boolean,
  include: number[] | undefined,
  slugs: string[] | undefined,
  count: (id: number) => number,
): void {
  const c =
    orderby === 'include_slugs'
      ? slugs?.length
        ? (a: TermRecord, b: TermRecord) => slugs.indexOf(a.slug) - slugs.indexOf(b.slug)
        : undefined
      : termOrder(orderby, include?.length ? include : undefined, count);
  if (!c) return;
  // include and include_slugs keep the given order whatever `order` says (get_terms' FIELD())
  const keep = orderby === 'include' || orderby === 'include_slugs';
  terms.sort((a, b) => (asc || keep ? c(a, b) || a.id - b.id : c(b, a) || b.id - a.id));
}
