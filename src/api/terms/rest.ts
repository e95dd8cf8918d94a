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

type Item = Record<string, unknown>;

/**
 * Commits a staged write and, once it is durable, answers with record `id` rendered by `json`
 * (a REST result with `status`) or by `object` (the embedding API's object) (Collections.answer).
 */
export type TermAnswer = (
  tx: Tx,
  status: number,
  id: number,
  json: (id: number) => string,
  object: (id: number) => Item,
) => Promise<RestResult | Item>;

/** A REST call on the categories or the tags (`taxonomy`); `answer` commits a staged write. */
export async function termsRest(
  core: Core,
  taxonomy: Taxonomy,
  call: RestCall,
  answer: TermAnswer,
): Promise<RestResult | Item> {
  const engine = core.engine;
  const { params, actor } = call;
  const plural = taxonomy === 'post_tag' ? 'tags' : 'categories';
  const json = (id: number) => core.render.termJson(engine.term(id)!);
  const object = (id: number) => core.render.termCopy(engine.term(id)!);
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
    return answer(tx, 201, rec.id, json, object);
  }
  const existing = termTarget(core, taxonomy, call);
  if (call.action === 'get') return ok(200, core.render.termJson(existing));
  if (call.action === 'update') {
    const tx = new Tx(core, actor);
    const problems = new Problems();
    const rec = stageTerm(tx, taxonomy, params, existing, problems, authorize);
    if (!rec) throw invalidParams(problems.reasons);
    return answer(tx, 200, rec.id, json, object);
  }
  authorize();
  // the answer is the term as it was: captured before the delete
  const before = termObject(core.site, engine, existing);
  const text = toJson(before);
  const tx = new Tx(core, actor);
  tx.ops.push({ t: 'term', a: 'delete', id: existing.id });
  return answer(
    tx,
    200,
    existing.id,
    () => text,
    () => before,
  );
}

/** The category or tag a call names by id (categories and tags have no by-slug routes). */
export function termTarget(core: Core, taxonomy: Taxonomy, call: RestCall): TermRecord {
  const target = call.target;
  if (!target || 'slug' in target) throw fail('rest_no_route');
  const t = core.engine.term(target.id);
  if (!t || t.taxonomy !== taxonomy) throw badTarget('id');
  return t;
}
