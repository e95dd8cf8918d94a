// The checks that link the staged events of an import to venues, organizers, categories, tags and
// parent events, made once every record is in (records may come in any order): the first
// problem of an event, or undefined. Link lists are shared by content in the staging table, so
// each distinct list is checked once; a single venue (nearly every event) is looked up once.
import type { EventTable } from '../engine/event-table.ts';
import type { LinkColumn } from '../engine/link-column.ts';

/** Whether an id is a post or term of each kind (this import's or the calendar's). */
export interface LinkKinds {
  event: (id: number) => boolean;
  venue: (id: number) => boolean;
  organizer: (id: number) => boolean;
  category: (id: number) => boolean;
  tag: (id: number) => boolean;
}

export class EventLinks {
  constructor(
    private readonly table: EventTable,
    private readonly is: LinkKinds,
  ) {}

  /** What the staged event at `row` links to exists and is of the right kind: the first problem, or undefined. */
  eventProblem(row: number): string | undefined {
    const t = this.table;
    const extra = t.extraVenues.size > 0 ? t.extraVenues.get(row) : undefined;
    const venue = t.venueIds[row];
    // one venue (nearly every event) found to be one: no list made for it, each venue looked up once
    // (all records are in: a venue then stays one)
    const venueOk =
      extra === undefined &&
      venue !== 0 &&
      (this.venuesOk.has(venue) || (this.is.venue(venue) && this.venuesOk.add(venue) !== undefined));
    const parent = t.parentIds[row];
    if (parent !== 0 && !this.is.event(parent)) return `post_parent ${parent} is not an event`;
    return (
      (venueOk ? undefined : this.listProblem('venue', extra ?? t.venueList(row), this.is.venue)) ??
      this.columnProblem(row, t.organizerIds, 0, 'organizer', this.is.organizer) ??
      this.columnProblem(row, t.categoryIds, 1, 'categories', this.is.category) ??
      this.columnProblem(row, t.tagIds, 2, 'tags', this.is.tag)
    );
  }

  /** per link column, 1 for each list of the pool found valid (a list is checked once, not per row) */
  private listOk: Uint8Array[] = [new Uint8Array(0), new Uint8Array(0), new Uint8Array(0)];

  /** listProblem of the row's list in `col` (the `c`th link column), by its number in the pool. */
  private columnProblem(
    row: number,
    col: LinkColumn,
    c: number,
    name: string,
    ok: (id: number) => boolean,
  ): string | undefined {
    const k = col.lists[row];
    if (k === 0) return undefined;
    let done = this.listOk[c];
    if (k < done.length && done[k] === 1) return undefined;
    // the list's ids read in the pool (no array made: a ten-million-event import has millions of lists)
    const pool = col.pool,
      v = pool.values;
    for (let i = pool.offsets[k], e = pool.offsets[k + 1]; i < e; i++)
      if (!ok(v[i])) return `${name} ${v[i]} does not exist`;
    if (k >= done.length) {
      const next = new Uint8Array(Math.max(k + 1, col.pool.count, 2 * done.length));
      next.set(done);
      this.listOk[c] = done = next;
    }
    done[k] = 1;
    return undefined;
  }

  private readonly venuesOk = new Set<number>();

  /** The same for an event given as its lists (an update of an existing event). */
  problem(
    parent: number,
    venues: readonly number[],
    organizers: readonly number[],
    categories: readonly number[],
    tags: readonly number[],
  ): string | undefined {
    if (parent !== 0 && !this.is.event(parent)) return `post_parent ${parent} is not an event`;
    return (
      this.listProblem('venue', venues, this.is.venue) ??
      this.listProblem('organizer', organizers, this.is.organizer) ??
      this.listProblem('categories', categories, this.is.category) ??
      this.listProblem('tags', tags, this.is.tag)
    );
  }

  private readonly listsOk = new WeakSet<readonly number[]>();

  private listProblem(name: string, ids: readonly number[], ok: (id: number) => boolean): string | undefined {
    if (ids.length === 0 || this.listsOk.has(ids)) return undefined;
    for (const id of ids) if (!ok(id)) return `${name} ${id} does not exist`;
    if (ids.length > 1 || name !== 'venue') this.listsOk.add(ids); // a single venue's list is made per call
    return undefined;
  }
}
