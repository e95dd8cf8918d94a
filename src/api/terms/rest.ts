// The REST operations of categories and tags (tribe/events/v1): list, get, create, update and
// delete, in WordPress's check order. Collections (../collections.ts) routes them here.

import type { TermRecord, Taxonomy } from '../../engine/records.ts';
import { canEditOthers, canEditPosts, canPublish, forbidden } from '../wordpress/auth.ts';
import { type Core, Tx } from '../context.ts';
import { fail, invalidParams } from '../wordpress/errors.ts';
import { termEnvelope } from '../representation/envelope.ts';
import { Problems } from '../wordpress/params.ts';
import { termObject, toJson } from '../representation/represent.ts';
import { badTarget, ok, requireMissing, totals } from '../results.ts';
import { listTerms } from './list.ts';
import { stageTerm } from './write.ts';
import type { RestCall, RestResult } from '../wordpress/types.ts';

/** A REST call on the categories or the tags (`taxonomy`); `write` commits a staged write and
 *  renders its answer once it is durable (Collections.write). */
export async function termsRest(
  core: Core,
  taxonomy: Taxonomy,
  call: RestCall,
  write: (tx: Tx, render: () => RestResult) => Promise<RestResult>,
): Promise<RestResult> {
  const engine = core.engine;
  const { params, actor } = call;
  const plural = taxonomy === 'post_tag' ? 'tags' : 'categories';
  const authorize = (): void => {
    const allowed = canEditPosts(actor) && (taxonomy === 'post_tag' ? canEditOthers(actor) : canPublish(actor));
    if (!allowed) throw forbidden(actor);
  };
  if (call.action === 'list') {
    const res = listTerms(core, taxonomy, params);
    const items = res.terms.map((t) => core.render.termJson(t));
    const body = termEnvelope(plural, `${core.site.root}${plural}/`, items, res.total, res.paging);
    return ok(200, body, totals(res.total, res.paging.perPage));
  }
  if (call.action === 'create') {
    requireMissing(params, ['name']);
    const tx = new Tx(core, actor);
    const problems = new Problems();
    const rec = stageTerm(tx, taxonomy, params, undefined, problems, authorize);
    if (!rec) throw invalidParams(problems.reasons);
    return write(tx, () => ok(201, core.render.termJson(engine.term(rec.id)!)));
  }
  const existing = termTarget(core, taxonomy, call);
  if (call.action === 'get') return ok(200, core.render.termJson(existing));
  if (call.action === 'update') {
    const tx = new Tx(core, actor);
    const problems = new Problems();
    const rec = stageTerm(tx, taxonomy, params, existing, problems, authorize);
    if (!rec) throw invalidParams(problems.reasons);
    return write(tx, () => ok(200, core.render.termJson(engine.term(rec.id)!)));
  }
  authorize();
  const before = toJson(termObject(core.site, engine, existing));
  const tx = new Tx(core, actor);
  tx.ops.push({ t: 'term', a: 'delete', id: existing.id });
  return write(tx, () => ok(200, before));
}

/** The category or tag a call names by id (categories and tags have no by-slug routes). */
export function termTarget(core: Core, taxonomy: Taxonomy, call: RestCall): TermRecord {
  const target = call.target;
  if (!target || 'slug' in target) throw fail('rest_no_route');
  const t = core.engine.term(target.id);
  if (!t || t.taxonomy !== taxonomy) throw badTarget('id');
  return t;
}
