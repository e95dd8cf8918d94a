// The posts a /wp/v2 list of events, venues or organizers matches (WP_REST_Posts_Controller's
// query over the calendar's records): events read from the engine's columns (status, author and
// dates; a term filter starts from the term's posting lists), venues and organizers from the
// engine's list kept newest first; the order asked for, and the first page kept in a bounded heap
// when the order is numeric. posts.ts reads the parameters into a PostQuery.

import { naiveFromString } from '../engine/naive-time.ts';
import { POST_STATUSES } from '../engine/records.ts';
import type { Core } from '../api/context.ts';
import { canReadPost } from '../api/wordpress/auth.ts';
import { foldForSearch } from '../api/wordpress/text.ts';
import type { Actor } from '../api/wordpress/types.ts';
import type { AnyPost, PostKindName } from './post-object.ts';

/** A list's parameters, checked: what a post must be to match. */
export interface PostQuery {
  statuses: Set<string>;
  include?: number[];
  exclude?: number[];
  slugs?: string[];
  authors?: number[];
  authorsOut?: number[];
  /** naive ms bounds on the publication date and the modification date (exclusive) */
  after?: number;
  before?: number;
  modifiedAfter?: number;
  modifiedBefore?: number;
  search?: { include: string[]; exclude: string[] };
  categories?: number[];
  categoriesOut?: number[];
  tags?: number[];
  tagsOut?: number[];
  taxOr: boolean;
}

export class PostMatch {
  constructor(private readonly core: Core) {}

  /** The post of this kind with this id, or undefined. */
  record(kind: PostKindName, id: number): AnyPost | undefined {
    const { engine } = this.core;
    if (id <= 0 || engine.postKind(id) !== kind) return undefined;
    if (kind === 'event') return engine.eventRecord(engine.eventRow(id));
    return kind === 'venue' ? engine.venue(id) : engine.organizer(id);
  }

  /** The first `keep` matching event rows in the order asked for (ties by id the same way), and the number of matches. */
  topEvents(
    q: PostQuery,
    actor: Actor,
    key: NumericKey,
    asc: boolean,
    keep: number,
  ): { rows: number[]; total: number } {
    const table = this.core.engine.eventTable;
    const column = key === 'id' ? table.ids : key === 'author' ? table.authorIds : table.parentIds;
    const text = key === 'modified' ? table.modified : table.date;
    const dated = key === 'date' || key === 'modified';
    const ids = table.ids;
    const dir = asc ? 1 : -1;
    const value = (row: number): number => {
      if (!dated) return column[row];
      const v = text.at(row);
      return v !== v ? naiveFromString(text.get(row)) : v;
    };
    // heap[0] is the kept row that comes last in the order; a row that comes before it replaces it
    const heap: number[] = [];
    const keys: number[] = [];
    const after = (i: number, j: number): boolean => {
      const d = dir * (keys[i] - keys[j]);
      return d > 0 || (d === 0 && dir * (ids[heap[i]] - ids[heap[j]]) > 0);
    };
    const swap = (i: number, j: number): void => {
      [heap[i], heap[j]] = [heap[j], heap[i]];
      [keys[i], keys[j]] = [keys[j], keys[i]];
    };
    const down = (i: number): void => {
      for (;;) {
        const l = 2 * i + 1,
          r = l + 1;
        let m = i;
        if (l < heap.length && after(l, m)) m = l;
        if (r < heap.length && after(r, m)) m = r;
        if (m === i) return;
        swap(i, m);
        i = m;
      }
    };
    let total = 0;
    this.eachEvent(q, actor, (row) => {
      total++;
      if (keep <= 0) return;
      const k = value(row);
      if (heap.length < keep) {
        heap.push(row);
        keys.push(k);
        for (let i = heap.length - 1; i > 0; ) {
          const parent = (i - 1) >> 1;
          if (!after(i, parent)) break;
          swap(i, parent);
          i = parent;
        }
        return;
      }
      const d = dir * (k - keys[0]);
      if (d < 0 || (d === 0 && dir * (ids[row] - ids[heap[0]]) < 0)) {
        heap[0] = row;
        keys[0] = k;
        down(0);
      }
    });
    const order = heap.map((row, i) => ({ row, key: keys[i] }));
    order.sort((a, b) => dir * (a.key - b.key) || dir * (ids[a.row] - ids[b.row]));
    return { rows: order.map((o) => o.row), total };
  }

  /** Events matching the query and readable by the actor, each with its sort keys. */
  matchingEvents(q: PostQuery, actor: Actor): Match[] {
    const table = this.core.engine.eventTable;
    const out: Match[] = [];
    this.eachEvent(q, actor, (row) => {
      const date = dateMs(table.date.at(row), () => table.date.get(row));
      const modified = dateMs(table.modified.at(row), () => table.modified.get(row));
      out.push({
        row,
        rec: undefined,
        id: table.ids[row],
        date,
        modified,
        title: table.title(row),
        slug: table.slug(row),
        authorId: table.authorIds[row],
        parentId: table.parentIds[row],
      });
    });
    return out;
  }

  /** Calls `visit` with every event row matching the query and readable by the actor, read from the columns. */
  private eachEvent(q: PostQuery, actor: Actor, visit: (row: number) => void): void {
    const { engine } = this.core;
    const table = engine.eventTable;
    // the rows to look at: the ids asked for, the term postings, or every row
    let rows: Iterable<number> | undefined;
    const byTerms = this.termRows(q);
    if (q.include && q.include.length > 0) {
      rows = new Set(q.include.filter((id) => engine.postKind(id) === 'event').map((id) => engine.eventRow(id)));
    } else if (byTerms) rows = byTerms;
    const allowed = new Uint8Array(POST_STATUSES.length);
    for (const s of q.statuses) allowed[(POST_STATUSES as readonly string[]).indexOf(s)] = 1;
    const plain =
      !q.exclude?.length &&
      !q.authors?.length &&
      !q.authorsOut?.length &&
      !q.slugs?.length &&
      q.after === undefined &&
      q.before === undefined &&
      q.modifiedAfter === undefined &&
      q.modifiedBefore === undefined &&
      !q.categoriesOut?.length &&
      !q.tagsOut?.length &&
      !q.search;
    const count = table.count;
    const codes = table.statusCodes;
    if (!rows && plain && allowed[0] === 1 && q.statuses.size === 1) {
      // published only, nothing else asked: the status column alone decides
      for (let row = 0; row < count; row++) if (codes[row] === 0) visit(row);
      return;
    }
    const dated =
      q.after !== undefined ||
      q.before !== undefined ||
      q.modifiedAfter !== undefined ||
      q.modifiedBefore !== undefined;
    const categoriesOut = q.categoriesOut?.length ? new Set(this.withDescendants(q.categoriesOut)) : undefined;
    const each = (row: number): void => {
      if (allowed[codes[row]] !== 1) return;
      if (byTerms && q.include && q.include.length > 0 && !byTerms.has(row)) return;
      const id = table.ids[row];
      if (q.exclude?.includes(id)) return;
      const authorId = table.authorIds[row];
      if (q.authors?.length && !q.authors.includes(authorId)) return;
      if (q.authorsOut?.includes(authorId)) return;
      if (q.slugs?.length && !q.slugs.includes(table.slug(row))) return;
      if (dated) {
        const date = dateMs(table.date.at(row), () => table.date.get(row));
        if (
          !inDates(
            q,
            date,
            dateMs(table.modified.at(row), () => table.modified.get(row)),
          )
        )
          return;
      }
      if (categoriesOut && table.categoryIds.some(row, (t) => categoriesOut.has(t))) return;
      if (q.tagsOut?.length && table.tagIds.some(row, (t) => q.tagsOut!.includes(t))) return;
      if (q.search && !matchesSearch(table.foldedText(row), q.search)) return;
      const status = POST_STATUSES[codes[row]];
      if (status !== 'publish' && !canReadPost(actor, { authorId, status })) return;
      visit(row);
    };
    if (rows) for (const row of rows) each(row);
    else for (let row = 0; row < count; row++) each(row);
  }

  /** The rows the term filters allow (categories with their descendants), or undefined when none is given. */
  private termRows(q: PostQuery): Set<number> | undefined {
    const { engine } = this.core;
    const sets: Set<number>[] = [];
    if (q.categories?.length) {
      const s = new Set<number>();
      for (const id of this.withDescendants(q.categories))
        for (const row of engine.linkedEventRows('category', id)) s.add(row);
      sets.push(s);
    }
    if (q.tags?.length) {
      const s = new Set<number>();
      for (const id of q.tags)
        if (engine.term(id)?.taxonomy === 'post_tag') for (const row of engine.linkedEventRows('tag', id)) s.add(row);
      sets.push(s);
    }
    if (sets.length === 0) return undefined;
    if (sets.length === 1) return sets[0];
    if (q.taxOr) return new Set([...sets[0], ...sets[1]]);
    return new Set([...sets[0]].filter((r) => sets[1].has(r)));
  }

  private withDescendants(ids: number[]): number[] {
    const { engine } = this.core;
    const out: number[] = [];
    const stack = ids.filter((id) => engine.term(id)?.taxonomy === 'tribe_events_cat');
    while (stack.length) {
      const id = stack.pop()!;
      if (out.includes(id)) continue;
      out.push(id);
      stack.push(...engine.termChildren(id));
    }
    return out;
  }

  matchingLinked(kind: PostKindName, q: PostQuery, actor: Actor): Match[] {
    const { engine } = this.core;
    const out: Match[] = [];
    const records =
      q.include && q.include.length > 0
        ? q.include.map((id) => this.record(kind, id)).filter((r): r is AnyPost => r !== undefined)
        : engine.linkedNewestFirst(kind === 'venue' ? 'venue' : 'organizer');
    const seen = new Set<number>();
    for (const rec of records) {
      if (seen.has(rec.id)) continue;
      seen.add(rec.id);
      if (!q.statuses.has(rec.status)) continue;
      if (q.exclude?.includes(rec.id)) continue;
      if (q.slugs?.length && !q.slugs.includes(rec.slug)) continue;
      const date = naiveFromString(rec.date),
        modified = naiveFromString(rec.modified);
      if (!inDates(q, date, modified)) continue;
      if (q.search) {
        const text =
          foldForSearch(rec.title) + '\u0000' + foldForSearch(rec.excerpt) + '\u0000' + foldForSearch(rec.description);
        if (!matchesSearch(text, q.search)) continue;
      }
      if (rec.status !== 'publish' && !canReadPost(actor, rec)) continue;
      out.push({
        row: -1,
        rec,
        id: rec.id,
        date,
        modified,
        title: rec.title,
        slug: rec.slug,
        authorId: rec.authorId,
        parentId: 0,
      });
    }
    return out;
  }
}

export interface Match {
  row: number;
  rec: AnyPost | undefined;
  id: number;
  date: number;
  modified: number;
  title: string;
  slug: string;
  authorId: number;
  parentId: number;
}

export type NumericKey = 'date' | 'modified' | 'id' | 'author' | 'parent';
export const NUMERIC_KEYS: Record<string, NumericKey | undefined> = {
  date: 'date',
  modified: 'modified',
  id: 'id',
  author: 'author',
  parent: 'parent',
};

function dateMs(ms: number, text: () => string): number {
  return ms === ms ? ms : naiveFromString(text());
}

function inDates(q: PostQuery, date: number, modified: number): boolean {
  if (q.after !== undefined && !(date > q.after)) return false;
  if (q.before !== undefined && !(date < q.before)) return false;
  if (q.modifiedAfter !== undefined && !(modified > q.modifiedAfter)) return false;
  if (q.modifiedBefore !== undefined && !(modified < q.modifiedBefore)) return false;
  return true;
}

function matchesSearch(folded: string, search: { include: string[]; exclude: string[] }): boolean {
  for (const w of search.include) if (!folded.includes(w)) return false;
  for (const w of search.exclude) if (folded.includes(w)) return false;
  return true;
}

/** WP_Query's orders; ties by id in the same direction. `relevance`: title matches first, then date. */
export function sortPosts(matches: Match[], orderby: string, asc: boolean, q: PostQuery): void {
  const text = (a: string, b: string): number => {
    const x = a.toLowerCase(),
      y = b.toLowerCase();
    return x < y ? -1 : x > y ? 1 : 0;
  };
  let cmp: (a: Match, b: Match) => number;
  switch (orderby) {
    case 'id':
      cmp = (a, b) => a.id - b.id;
      break;
    case 'modified':
      cmp = (a, b) => a.modified - b.modified;
      break;
    case 'title':
      cmp = (a, b) => text(a.title, b.title);
      break;
    case 'slug':
      cmp = (a, b) => text(a.slug, b.slug);
      break;
    case 'author':
      cmp = (a, b) => a.authorId - b.authorId;
      break;
    case 'parent':
      cmp = (a, b) => a.parentId - b.parentId;
      break;
    case 'include': {
      const at = q.include ?? [];
      matches.sort((a, b) => at.indexOf(a.id) - at.indexOf(b.id));
      return;
    }
    case 'include_slugs': {
      const at = q.slugs ?? [];
      matches.sort((a, b) => at.indexOf(a.slug) - at.indexOf(b.slug) || a.id - b.id);
      return;
    }
    case 'relevance': {
      const words = q.search?.include ?? [];
      const inTitle = (m: Match) => (words.every((w) => foldForSearch(m.title).includes(w)) ? 1 : 0);
      matches.sort((a, b) => inTitle(b) - inTitle(a) || b.date - a.date || b.id - a.id);
      return;
    }
    default:
      cmp = (a, b) => a.date - b.date;
  }
  matches.sort((a, b) => (asc ? cmp(a, b) || a.id - b.id : cmp(b, a) || b.id - a.id));
}
