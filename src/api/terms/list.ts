// GET /categories and GET /tags (docs/behaviour.md): WordPress core term query semantics.

import type { Taxonomy, TermRecord } from '../../engine/records.ts';
import type { Core } from '../context.ts';
import { invalidParams } from '../wordpress/errors.ts';
import { readPaging, type Paging } from '../list-paging.ts';
import { Problems, asId, asList, asStrictBoolean, asString, has } from '../wordpress/params.ts';
import type { Params } from '../wordpress/types.ts';

export interface TermListResult {
  terms: TermRecord[];
  total: number;
  paging: Paging;
}

const compareText = (a: string, b: string): number => {
  const x = a.toLowerCase(),
    y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
};

export function listTerms(core: Core, taxonomy: Taxonomy, params: Params): TermListResult {
  const problems = new Problems();
  const engine = core.engine;
  const paging = readPaging(core, params, problems);
  const isTerm = (id: number | undefined): boolean => id !== undefined && engine.term(id)?.taxonomy === taxonomy;

  const idList = (name: string): number[] | undefined => {
    if (!has(params, name)) return undefined;
    const items = asList(params[name]);
    const ids = (items ?? []).map((s) => asId(s));
    if (!items || items.length === 0 || ids.some((id) => !isTerm(id))) {
      problems.add(name);
      return undefined;
    }
    return ids as number[];
  };
  const include = idList('include');
  const exclude = idList('exclude');
  const nonEmpty = (name: string): string | undefined => {
    if (!has(params, name)) return undefined;
    const s = asString(params[name]);
    if (s === undefined || s === '') {
      problems.add(name);
      return undefined;
    }
    return s;
  };
  const search = nonEmpty('search')?.toLowerCase();
  const slug = nonEmpty('slug');
  const order = nonEmpty('order');
  const orderby = nonEmpty('orderby');
  let hideEmpty = true;
  if (has(params, 'hide_empty')) {
    const b = asStrictBoolean(params.hide_empty);
    if (b === undefined) problems.add('hide_empty');
    else hideEmpty = b;
  }
  let parent: number | undefined;
  if (taxonomy === 'tribe_events_cat' && has(params, 'parent')) {
    const id = asId(params.parent);
    if (id === undefined || (id !== 0 && !isTerm(id))) problems.add('parent');
    else parent = id;
  }
  let postTerms: Set<number> | undefined;
  for (const name of ['post', 'event'] as const) {
    if (!has(params, name)) continue;
    const id = asId(params[name]);
    if (id === undefined || engine.postKind(id) !== 'event') problems.add(name);
    else {
      const rec = engine.eventRecord(engine.eventRow(id));
      postTerms = new Set(taxonomy === 'post_tag' ? rec.tagIds : rec.categoryIds); // `event` wins: read last
    }
  }
  if (problems.any) throw invalidParams(problems.reasons);

  const out: TermRecord[] = [];
  for (const t of engine.terms(taxonomy)) {
    if (include && !include.includes(t.id)) continue;
    if (exclude?.includes(t.id)) continue;
    if (parent !== undefined && t.parent !== parent) continue;
    if (postTerms && !postTerms.has(t.id)) continue;
    if (slug !== undefined && t.slug !== slug) continue;
    if (search !== undefined && !t.name.toLowerCase().includes(search) && !t.slug.toLowerCase().includes(search))
      continue;
    if (hideEmpty && engine.termCount(t.id) === 0) continue;
    out.push(t);
  }
  sortTerms(out, orderby ?? 'name', order === undefined || order.toLowerCase() === 'asc', include, (id) =>
    engine.termCount(id),
  );
  const offset = (paging.page - 1) * paging.perPage;
  return { terms: out.slice(offset, offset + paging.perPage), total: out.length, paging };
}

function sortTerms(
  terms: TermRecord[],
  orderby: string,
  asc: boolean,
  include: number[] | undefined,
  count: (id: number) => number,
): void {
  const c = termOrder(orderby, include, count);
  if (c) terms.sort((a, b) => (asc ? c(a, b) || a.id - b.id : c(b, a) || b.id - a.id));
}

/** The comparison of get_terms' `orderby` (ties are the caller's); undefined keeps the order as it is. */
export function termOrder(
  orderby: string,
  include: number[] | undefined,
  count: (id: number) => number,
): ((a: TermRecord, b: TermRecord) => number) | undefined {
  switch (orderby) {
    case 'id':
    case 'term_id':
      return (a, b) => a.id - b.id;
    case 'slug':
      return (a, b) => compareText(a.slug, b.slug);
    case 'description':
      return (a, b) => compareText(a.description, b.description);
    case 'count':
      return (a, b) => count(a.id) - count(b.id);
    case 'parent':
      return (a, b) => a.parent - b.parent;
    case 'term_group':
      return () => 0;
    case 'include':
      return include ? (a, b) => include.indexOf(a.id) - include.indexOf(b.id) : undefined;
    case 'none':
      return undefined;
    default:
      return (a, b) => compareText(a.name, b.name);
  }
}
