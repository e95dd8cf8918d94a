// The one place that maps public ids and event slugs to rows / kinds (Orama's
// internal-document-id-store). Post ids (events, venues, organizers, attachments) share one id
// space and one counter; terms share another. Counters hand out max(seen)+1 and never go back.

import type { PostKind } from './records.ts';

const VENUE = -1;
const ORGANIZER = -2;
const ATTACHMENT = -3;

export class IdRegistry {
  /** post id → event row (>= 0) or a negative kind code for the small tables */
  private readonly posts = new Map<number, number>();
  private readonly eventSlugs = new Map<string, number>();
  /** next post id to hand out: max(seen) + 1 */
  nextPostId = 1;
  nextTermId = 1;

  allocPostId(): number {
    return this.nextPostId++;
  }

  allocTermId(): number {
    return this.nextTermId++;
  }

  seePostId(id: number): void {
    if (id >= this.nextPostId) this.nextPostId = id + 1;
  }

  seeTermId(id: number): void {
    if (id >= this.nextTermId) this.nextTermId = id + 1;
  }

  postKind(id: number): PostKind | undefined {
    const v = this.posts.get(id);
    if (v === undefined) return undefined;
    if (v >= 0) return 'event';
    return v === VENUE ? 'venue' : v === ORGANIZER ? 'organizer' : 'attachment';
  }

  eventRow(id: number): number {
    const v = this.posts.get(id);
    return v === undefined || v < 0 ? -1 : v;
  }

  eventRowBySlug(slug: string): number {
    if (slug === '') return -1;
    const v = this.eventSlugs.get(slug);
    return v === undefined ? -1 : v;
  }

  /** Register a post id as `kind` (event: at `row`); an id never changes kind. */
  setPost(id: number, kind: PostKind, row = -1): void {
    if (!(Number.isInteger(id) && id > 0)) throw new Error(`ids: expected a positive integer post id, got ${id}`);
    const code = kind === 'event' ? row : kind === 'venue' ? VENUE : kind === 'organizer' ? ORGANIZER : ATTACHMENT;
    const prev = this.posts.get(id);
    if (prev !== undefined && prev !== code) {
      throw new Error(`ids: expected post ${id} to stay ${this.postKind(id)}${prev >= 0 ? ` at row ${prev}` : ''}, got ${kind}${row >= 0 ? ` at row ${row}` : ''}`);
    }
    if (kind === 'event' && row < 0) throw new Error(`ids: expected an event row >= 0 for post ${id}, got ${row}`);
    this.posts.set(id, code);
    this.seePostId(id);
  }

  /** Move an event's slug mapping from `oldSlug` to `newSlug`. */
  setEventSlug(row: number, oldSlug: string | undefined, newSlug: string): void {
    if (oldSlug !== undefined && oldSlug !== '' && this.eventSlugs.get(oldSlug) === row) this.eventSlugs.delete(oldSlug);
    if (newSlug !== '') this.eventSlugs.set(newSlug, row);
  }
}
