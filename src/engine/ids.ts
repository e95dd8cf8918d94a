// The one place that maps public ids and event slugs to rows / kinds (Orama's
// internal-document-id-store). Post ids (events, venues, organizers, attachments) share one id
// space and one counter; terms share another. Counters hand out max(seen)+1 and never go back.
//
// WordPress post ids are dense, so id → slot is a direct Int32Array table (grown by doubling);
// ids far beyond the table's reasonable size go to a Map instead.

import { nextCapacity } from './columns.ts';
import { SlugIndex } from './slug-index.ts';
import type { PostKind } from './records.ts';

// slot codes: 0 = unknown, 1..3 = small-table kinds, >= 4: event row + 4
const VENUE = 1;
const ORGANIZER = 2;
const ATTACHMENT = 3;
const ROW_BASE = 4;
/** ids below this always live in the dense table */
const DENSE_MIN = 1 << 20;

export class IdRegistry {
  private dense = new Int32Array(0);
  private readonly sparse = new Map<number, number>();
  private postCount = 0;
  /** event rows by slug; built on the first slug lookup, then kept in step */
  private eventSlugs: SlugIndex | undefined;
  /** next post id to hand out: max(seen) + 1 */
  nextPostId = 1;
  nextTermId = 1;

  /** `events` gives the slug column, to build the slug lookup lazily */
  constructor(private readonly events: () => { slug(row: number): string; readonly count: number }) {}

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

  private code(id: number): number {
    if (id < this.dense.length) return id >= 0 ? this.dense[id] : 0;
    return this.sparse.size > 0 ? (this.sparse.get(id) ?? 0) : 0;
  }

  /** Make the dense table cover ids below `need` (when that stays proportionate). */
  reserve(need: number): void {
    if (need <= this.dense.length || need > Math.max(DENSE_MIN, 8 * (this.postCount + need / 16))) return;
    const next = new Int32Array(nextCapacity(this.dense.length, need));
    next.set(this.dense);
    this.dense = next;
    for (const [id, code] of this.sparse) {
      if (id < next.length) {
        next[id] = code;
        this.sparse.delete(id);
      }
    }
  }

  postKind(id: number): PostKind | undefined {
    const c = this.code(id);
    if (c === 0) return undefined;
    if (c >= ROW_BASE) return 'event';
    return c === VENUE ? 'venue' : c === ORGANIZER ? 'organizer' : 'attachment';
  }

  eventRow(id: number): number {
    const c = this.code(id);
    return c >= ROW_BASE ? c - ROW_BASE : -1;
  }

  eventRowBySlug(slug: string): number {
    if (slug === '') return -1;
    return this.slugIndex(false).get(slug);
  }

  private slugIndex(lazy: boolean): SlugIndex {
    this.eventSlugs ??= new SlugIndex(
      (row) => this.events().slug(row),
      () => this.events().count,
      lazy,
    );
    return this.eventSlugs;
  }

  /** Build the slug lookup a slice at a time (between requests, after a load): puts up to `rows`
   *  more rows; true when it is complete. */
  buildSlugs(rows: number): boolean {
    return this.slugIndex(true).advance(rows);
  }

  /** Register a post id as `kind` (event: at `row`); an id never changes kind. */
  setPost(id: number, kind: PostKind, row = -1): void {
    if (!(Number.isInteger(id) && id > 0)) throw new Error(`ids: expected a positive integer post id, got ${id}`);
    if (kind === 'event' && row < 0) throw new Error(`ids: expected an event row >= 0 for post ${id}, got ${row}`);
    const code =
      kind === 'event' ? row + ROW_BASE : kind === 'venue' ? VENUE : kind === 'organizer' ? ORGANIZER : ATTACHMENT;
    const prev = this.code(id);
    if (prev !== 0 && prev !== code) {
      throw new Error(
        `ids: expected post ${id} to stay ${this.postKind(id)}${prev >= ROW_BASE ? ` at row ${prev - ROW_BASE}` : ''}, got ${kind}${row >= 0 ? ` at row ${row}` : ''}`,
      );
    }
    if (prev === 0) this.postCount++;
    if (id >= this.dense.length) this.reserve(id + 1);
    if (id < this.dense.length) this.dense[id] = code;
    else this.sparse.set(id, code);
    if (id >= this.nextPostId) this.nextPostId = id + 1;
  }

  /** setPost(ids[row], 'event', row) for rows [from, to): new ids of the dense table in one loop. */
  setEventRows(ids: Int32Array, from: number, to: number): void {
    let dense = this.dense;
    for (let row = from; row < to; row++) {
      const id = ids[row];
      if (id > 0 && id < dense.length && dense[id] === 0) {
        dense[id] = row + ROW_BASE;
        this.postCount++;
        if (id >= this.nextPostId) this.nextPostId = id + 1;
      } else {
        this.setPost(id, 'event', row);
        dense = this.dense; // it may have grown
      }
    }
  }

  /** true once the slug lookup is built (setEventSlug then keeps it in step; before, it is a no-op) */
  get tracksSlugs(): boolean {
    return this.eventSlugs !== undefined;
  }

  /** Forget the slug lookup (made again, from the slug column, by the next lookup); false. */
  dropSlugs(): false {
    this.eventSlugs = undefined;
    return false;
  }

  /** Move an event's slug mapping from `oldSlug` (undefined: a new row) to `newSlug`, which the
   *  slug column holds already. */
  setEventSlug(row: number, oldSlug: string | undefined, newSlug: string): void {
    this.eventSlugs?.set(row, oldSlug, newSlug);
  }
}
