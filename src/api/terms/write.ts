// Category and tag writes (docs/behaviour.md), and the terms an event write creates by name.

import type { Taxonomy, TermRecord } from '../../engine/records.ts';
import { canUnfilteredHtml } from '../wordpress/auth.ts';
import type { Tx } from '../context.ts';
import { fail } from '../wordpress/errors.ts';
import { Problems, asId, asString, has } from '../wordpress/params.ts';
import { kses } from '../wordpress/kses.ts';
import { sanitizeSlug } from '../wordpress/text.ts';
import type { Params } from '../wordpress/types.ts';

function cleanName(tx: Tx, s: string): string {
  return (canUnfilteredHtml(tx.actor) ? s : kses(s)).trim();
}

function findByName(tx: Tx, taxonomy: Taxonomy, name: string, parent: number): TermRecord | undefined {
  const lower = name.toLowerCase();
  return (
    tx.newTerms.find((t) => t.taxonomy === taxonomy && t.parent === parent && t.name.toLowerCase() === lower) ??
    tx.engine.termByName(taxonomy, name, parent)
  );
}

/** True when making `parentId` the parent of `id` would create a loop. */
function makesLoop(tx: Tx, id: number, parentId: number): boolean {
  const seen = new Set<number>();
  for (let p = parentId; p !== 0 && !seen.has(p); p = tx.engine.term(p)?.parent ?? 0) {
    if (p === id) return true;
    seen.add(p);
  }
  return false;
}

/**
 * Validate and stage a create (existing undefined) or update of a term. Parameter problems are
 * collected; conflicts (term_exists, duplicate_term_slug) throw after validation.
 */
export function stageTerm(
  tx: Tx,
  taxonomy: Taxonomy,
  params: Params,
  existing: TermRecord | undefined,
  problems: Problems,
  authorize?: () => void,
): TermRecord | undefined {
  const next: TermRecord = existing
    ? { ...existing }
    : { id: 0, taxonomy, name: '', slug: '', description: '', parent: 0 };
  if (has(params, 'name')) {
    const s = asString(params.name);
    if (s === undefined || s.trim() === '') problems.add('name');
    else next.name = cleanName(tx, s);
  }
  if (has(params, 'description')) {
    const s = asString(params.description);
    if (s === undefined || s === '') problems.add('description');
    else next.description = canUnfilteredHtml(tx.actor) ? s : kses(s);
  }
  let explicitSlug: string | undefined;
  if (has(params, 'slug')) {
    const s = asString(params.slug);
    if (s === undefined || s.trim() === '') problems.add('slug');
    else explicitSlug = sanitizeSlug(s);
  }
  if (taxonomy === 'tribe_events_cat' && has(params, 'parent')) {
    const id = asId(params.parent);
    const parent = id === undefined || id === 0 ? undefined : tx.engine.term(id);
    if (id === undefined || (id !== 0 && parent?.taxonomy !== 'tribe_events_cat')) problems.add('parent');
    else if (existing && makesLoop(tx, existing.id, id))
      problems.add('parent', 'A category cannot be its own ancestor.');
    else next.parent = id;
  }
  if (problems.any) return undefined;
  authorize?.();

  if (!existing) {
    const dup = findByName(tx, taxonomy, next.name, next.parent);
    if (dup) throw fail('term_exists', [], { term_id: dup.id });
    next.id = tx.engine.allocTermId();
    next.slug = tx.uniqueSlug(taxonomy, explicitSlug || sanitizeSlug(next.name) || String(next.id), next.id);
  } else if (explicitSlug !== undefined && explicitSlug !== existing.slug) {
    if (tx.slugTaken(taxonomy, explicitSlug, existing.id)) throw fail('duplicate_term_slug', [explicitSlug]);
    next.slug = tx.uniqueSlug(taxonomy, explicitSlug, existing.id);
  }
  tx.ops.push({ t: 'term', a: 'put', rec: next });
  tx.newTerms.push(next);
  return next;
}

/**
 * Event categories/tags (writes.md "Categories / tags"): ids and names/slugs, array or CSV.
 * Numeric items that are not terms of the taxonomy are skipped; unknown names create terms.
 * Returns the term ids in the given order, without duplicates.
 */
export function resolveEventTerms(tx: Tx, taxonomy: Taxonomy, items: string[]): number[] {
  const ids: number[] = [];
  for (const item of items) {
    let id: number | undefined;
    if (/^\d+$/.test(item)) {
      const t = tx.engine.term(Number(item));
      if (t?.taxonomy === taxonomy) id = t.id;
    } else {
      const slug = sanitizeSlug(item);
      const t =
        tx.engine.termBySlug(taxonomy, slug) ??
        tx.newTerms.find((n) => n.taxonomy === taxonomy && n.slug === slug) ??
        tx.engine.termByName(taxonomy, item) ??
        tx.newTerms.find((n) => n.taxonomy === taxonomy && n.name.toLowerCase() === item.toLowerCase());
      id = t?.id ?? stageTerm(tx, taxonomy, { name: item }, undefined, new Problems())?.id;
    }
    if (id !== undefined && !ids.includes(id)) ids.push(id);
  }
  return ids;
}
