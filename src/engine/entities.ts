// The small tables: venues, organizers, attachments, categories and tags, as plain records in
// Maps with their slug/url lookups. The engine's own records: callers must not mutate them.

import type { AttachmentRecord, OrganizerRecord, Taxonomy, TermRecord, VenueRecord } from './records.ts';

function termKey(taxonomy: Taxonomy, slug: string): string {
  return taxonomy + '\u0000' + slug;
}

/** Records keyed by id, plus a slug → id lookup kept in step, and their order by publication date. */
export class PostTable<R extends { id: number; slug: string; date: string }> {
  readonly byId = new Map<number, R>();
  private readonly bySlugMap = new Map<string, number>();
  /** every record, newest publication date first (then the higher id); made again after a put */
  private newest: R[] | undefined;

  get(id: number): R | undefined {
    return this.byId.get(id);
  }

  bySlug(slug: string): R | undefined {
    if (slug === '') return undefined;
    const id = this.bySlugMap.get(slug);
    return id === undefined ? undefined : this.byId.get(id);
  }

  /** Insert or replace; returns the previous record. */
  put(rec: R): R | undefined {
    const prev = this.byId.get(rec.id);
    if (prev && prev.slug !== '' && this.bySlugMap.get(prev.slug) === rec.id) this.bySlugMap.delete(prev.slug);
    this.byId.set(rec.id, rec);
    if (rec.slug !== '') this.bySlugMap.set(rec.slug, rec.id);
    this.newest = undefined;
    return prev;
  }

  values(): IterableIterator<R> {
    return this.byId.values();
  }

  /** Every record, newest publication date first, then the higher id (the order of GET /venues
   *  and /organizers): sorted once, kept until the next put. */
  newestFirst(): readonly R[] {
    return (this.newest ??= [...this.byId.values()].sort((a, b) =>
      a.date < b.date ? 1 : a.date > b.date ? -1 : b.id - a.id,
    ));
  }
}

export class Entities {
  readonly venues = new PostTable<VenueRecord>();
  readonly organizers = new PostTable<OrganizerRecord>();
  readonly attachments = new Map<number, AttachmentRecord>();
  private readonly attachmentUrls = new Map<string, number>();
  readonly terms = new Map<number, TermRecord>();
  private readonly termSlugs = new Map<string, number>();
  /** category id → direct child ids */
  private readonly children = new Map<number, number[]>();
  /** taxonomy + lower-case name → the terms of that name (names repeat under different parents) */
  private readonly termNames = new Map<string, TermRecord[]>();

  putAttachment(rec: AttachmentRecord): void {
    const prev = this.attachments.get(rec.id);
    if (prev && this.attachmentUrls.get(prev.url) === rec.id) this.attachmentUrls.delete(prev.url);
    this.attachments.set(rec.id, rec);
    this.attachmentUrls.set(rec.url, rec.id);
  }

  /** Remove an attachment; returns it, or undefined when there was none. */
  removeAttachment(id: number): AttachmentRecord | undefined {
    const prev = this.attachments.get(id);
    if (!prev) return undefined;
    if (this.attachmentUrls.get(prev.url) === id) this.attachmentUrls.delete(prev.url);
    this.attachments.delete(id);
    return prev;
  }

  attachmentByUrl(url: string): AttachmentRecord | undefined {
    const id = this.attachmentUrls.get(url);
    return id === undefined ? undefined : this.attachments.get(id);
  }

  /** Insert or replace a term; returns the previous record. */
  putTerm(rec: TermRecord): TermRecord | undefined {
    const prev = this.terms.get(rec.id);
    if (prev) this.unindexTerm(prev);
    this.terms.set(rec.id, rec);
    this.termSlugs.set(termKey(rec.taxonomy, rec.slug), rec.id);
    const nameKey = termKey(rec.taxonomy, rec.name.toLowerCase());
    const named = this.termNames.get(nameKey);
    if (named) named.push(rec);
    else this.termNames.set(nameKey, [rec]);
    if (rec.parent !== 0) {
      const list = this.children.get(rec.parent);
      if (list) list.push(rec.id);
      else this.children.set(rec.parent, [rec.id]);
    }
    return prev;
  }

  /** Remove a term for good; returns it (undefined when unknown). Its children stay as they are. */
  removeTerm(id: number): TermRecord | undefined {
    const prev = this.terms.get(id);
    if (!prev) return undefined;
    this.unindexTerm(prev);
    this.terms.delete(id);
    return prev;
  }

  private unindexTerm(t: TermRecord): void {
    const key = termKey(t.taxonomy, t.slug);
    if (this.termSlugs.get(key) === t.id) this.termSlugs.delete(key);
    const nameKey = termKey(t.taxonomy, t.name.toLowerCase());
    const named = this.termNames.get(nameKey);
    if (named) {
      const i = named.indexOf(t);
      if (i >= 0) named.splice(i, 1);
      if (named.length === 0) this.termNames.delete(nameKey);
    }
    if (t.parent !== 0) {
      const list = this.children.get(t.parent);
      if (list) {
        const i = list.indexOf(t.id);
        if (i >= 0) list.splice(i, 1);
        if (list.length === 0) this.children.delete(t.parent);
      }
    }
  }

  termBySlug(taxonomy: Taxonomy, slug: string): TermRecord | undefined {
    const id = this.termSlugs.get(termKey(taxonomy, slug));
    return id === undefined ? undefined : this.terms.get(id);
  }

  termByName(taxonomy: Taxonomy, name: string, parent?: number): TermRecord | undefined {
    let best: TermRecord | undefined;
    for (const t of this.termNames.get(termKey(taxonomy, name.toLowerCase())) ?? []) {
      if (parent !== undefined && t.parent !== parent) continue;
      if (!best || t.id < best.id) best = t;
    }
    return best;
  }

  termsOf(taxonomy: Taxonomy): TermRecord[] {
    const out: TermRecord[] = [];
    for (const t of this.terms.values()) if (t.taxonomy === taxonomy) out.push(t);
    return out.sort((a, b) => a.id - b.id);
  }

  /** direct children, in id order */
  termChildren(id: number): number[] {
    const list = this.children.get(id);
    return list ? list.slice().sort((a, b) => a - b) : [];
  }

  /** the category and all its descendants (cycle-safe) */
  descendantsOf(id: number, out: number[]): void {
    const stack = [id];
    while (stack.length > 0) {
      const t = stack.pop()!;
      if (out.includes(t)) continue;
      out.push(t);
      const list = this.children.get(t);
      if (list) for (const c of list) stack.push(c);
    }
  }
}
