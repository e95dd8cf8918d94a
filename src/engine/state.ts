// Everything the engine holds, and the index upkeep that every mutator shares: the main
// (start, id) index, posting lists per category/tag/venue/organizer/parent, term counts,
// the venue geo index, and the hooks that tell a representation cache what changed.

import { IdMap } from './columns.ts';
import { BlockStats, comboOf } from './block-stats.ts';
import { Entities } from './entities.ts';
import { EventTable, FLAG_COORDS } from './event-table.ts';
import { VenueGeo } from './geo.ts';
import { VenueGroups } from './venue-groups.ts';
import { IdRegistry } from './ids.ts';
import { PostingList } from './posting-list.ts';
import { SortedIndex } from './sorted-index.ts';
import { IndexBatch, applyBatch } from './index-batch.ts';
import { pushOne, rebuildIndexes } from './index-rebuild.ts';
import { distinctIds, eachDistinct, eachLink } from './distinct.ts';
import { dropPairsWith, forEachPair, pairList } from './pair-lists.ts';

export type Postings = IdMap<PostingList>;

/**
 * What a cache of rendered representations needs to hear from the engine. Each call names the
 * narrowest thing that changed, so a cache drops only what shows it.
 */
export interface ChangeHooks {
  /** the event's own stored fields changed (a write, a trash, a link removed by a cascade) */
  eventChanged(row: number): void;
  /** a record the event embeds changed (its venue, an organizer, a term's name or place; not a count) */
  embeddedChanged(row: number): void;
  /** a venue, organizer or attachment changed */
  postChanged(id: number): void;
  /** a term changed (name, slug, description, parent) or was deleted */
  termChanged(id: number): void;
  /** the number of published events carrying the term changed */
  termCountChanged(id: number): void;
}

const nothing = (): void => undefined;
export const NO_HOOKS: ChangeHooks = {
  eventChanged: nothing,
  embeddedChanged: nothing,
  postChanged: nothing,
  termChanged: nothing,
  termCountChanged: nothing,
};

export class CalendarState {
  readonly table = new EventTable();
  readonly ids = new IdRegistry(() => this.table);
  readonly entities = new Entities();
  /** every event row, (local start, id) order */
  readonly main = new SortedIndex();
  /** direct links only (a category's list does not hold its descendants' events) */
  readonly categoryPostings: Postings = new IdMap();
  readonly tagPostings: Postings = new IdMap();
  readonly venuePostings: Postings = new IdMap();
  readonly organizerPostings: Postings = new IdMap();
  /** by parent event id: a few ids spread over the range of event ids, so a Map (8 MiB less at
   *  a million events than an array indexed by id) */
  readonly parentPostings: Postings = new IdMap(0);
  /** category id → rows linking it or any of its descendants (what a category filter asks
   *  for); kept by indexRow/unindexRow, rebuilt lazily (ensureClosure) after a change of the
   *  category tree or a bulk rebuild */
  readonly categoryClosure: Postings = new IdMap();
  closureDirty = true;
  /** term id → number of 'publish' events linking it directly (absent = 0) */
  readonly termCounts = new IdMap<number>();
  readonly geo = new VenueGeo(() => this.entities.venues.values());
  /** groups of nearby venues, each with the list of its venues' rows (venue-groups.ts): made when a
   *  radius query first needs them, then kept by indexRow/unindexRow/setRowCombo */
  readonly venueGroups = new VenueGroups();
  /** per-block counters (and end-sorted segments) over the main index, kept in step by
   *  indexRow/unindexRow/setRowCombo; dirty after a rebuild */
  readonly blocks = new BlockStats(true);

  /** told of every change a rendered representation may depend on (api/ installs its cache's) */
  hooks: ChangeHooks = NO_HOOKS;

  /** Calls fn(postings, id, multi) for every distinct link of the row, reading the current
   *  columns; multi = the row carries two or more distinct ids of that kind. */
  forEachLink(row: number, fn: (postings: Postings, id: number, multi: boolean) => void): void {
    const t = this.table;
    eachLink(t.categoryIds.get(row), this.categoryPostings, fn);
    eachLink(t.tagIds.get(row), this.tagPostings, fn);
    eachLink(t.venueList(row), this.venuePostings, fn);
    eachLink(t.organizerIds.get(row), this.organizerPostings, fn);
    const parent = t.parentIds[row];
    if (parent !== 0) fn(this.parentPostings, parent, false);
  }

  /** Calls fn(postings, distinct ids) for every multi-valued link kind of the row. */
  forEachKind(row: number, fn: (postings: Postings, ids: number[]) => void): void {
    const t = this.table;
    fn(this.categoryPostings, distinctIds(t.categoryIds.get(row)));
    fn(this.tagPostings, distinctIds(t.tagIds.get(row)));
    fn(this.venuePostings, distinctIds(t.venueList(row)));
    fn(this.organizerPostings, distinctIds(t.organizerIds.get(row)));
  }

  /** The row loses its link to `id` of the kind of `postings` (a cascade, before its column
   *  changes): it leaves the pair lists of `id` with its other ids (pair-lists.ts). */
  dropPairsWith(postings: Postings, ids: readonly number[], id: number, row: number): void {
    dropPairsWith(postings, ids, id, row, this.table);
  }

  /** The pair list of a and b (ids of the kind of `postings`), made on first use (pair-lists.ts). */
  pairList(postings: Postings, a: number, b: number): PostingList | undefined {
    return pairList(postings, a, b, this.table.count);
  }

  /** The (status, flags) combination of the row changed from `from` to `to` (columns already
   *  hold the new one): the main index, its block counters and every list holding the row follow. */
  setRowCombo(row: number, from: number, to: number): void {
    if (from === to) return;
    const t = this.table,
      starts = t.starts,
      ids = t.ids;
    const pos = this.main.positionOf(starts[row], ids[row], row);
    this.main.combos[pos] = to;
    this.blocks.moveCombo(pos, from, to, t.ends[row]);
    this.forEachKind(row, (postings, linkIds) => {
      for (const id of linkIds) {
        const list = postings.get(id);
        if (!list) throw new Error(`postings: expected a list for id ${id} holding row ${row}, got none`);
        list.setCombo(starts, ids, row, to);
        list.multi?.setCombo(starts, ids, row, to);
      }
      if (linkIds.length > 1) forEachPair(postings, linkIds, false, (list) => list.setCombo(starts, ids, row, to));
    });
    const parent = t.parentIds[row];
    if (parent !== 0) this.parentPostings.get(parent)?.setCombo(starts, ids, row, to);
    this.forEachDerived(row, (list) => list.setCombo(starts, ids, row, to));
  }

  /** Distinct categories of the row and all their ancestors, into out (cleared first). */
  closureOf(row: number, out: number[]): number[] {
    out.length = 0;
    const cats = this.table.categoryIds.get(row),
      terms = this.entities.terms;
    for (let i = 0; i < cats.length; i++) {
      // the parent chain; a cycle stops at the first id seen again
      for (let id = cats[i]; id !== 0 && !out.includes(id); id = terms.get(id)?.parent ?? 0) out.push(id);
    }
    return out;
  }

  /** The closure lists, rebuilt first when dirty (one pass over the main index). */
  ensureClosure(): Postings {
    if (!this.closureDirty) return this.categoryClosure;
    const closure = this.categoryClosure;
    closure.clear();
    const rows = this.main.rows,
      combos = this.main.combos,
      n = this.main.count,
      ids: number[] = [];
    for (let i = 0; i < n; i++) {
      const row = rows[i];
      if (this.table.categoryIds.size(row) === 0) continue;
      for (const id of this.closureOf(row, ids)) pushOne(closure, id, row, combos[i]);
    }
    this.closureDirty = false;
    return closure;
  }

  /** Calls fn(list) for every closure list holding the row (none while the lists are dirty). */
  forEachClosure(row: number, fn: (list: PostingList) => void): void {
    if (this.closureDirty || this.table.categoryIds.size(row) === 0) return;
    for (const id of this.closureOf(row, [])) {
      const list = this.categoryClosure.get(id);
      if (!list) throw new Error(`category closure: expected a list for ${id} holding row ${row}, got none`);
      fn(list);
    }
  }

  /** Calls fn(list) for every list derived from the row's links that holds it: the category
   *  closure's and the venue groups' (each while made). */
  forEachDerived(row: number, fn: (list: PostingList) => void): void {
    this.forEachClosure(row, fn);
    this.venueGroups.forEachList(row, this.table, false, fn);
  }

  /** Whether some venue of the row has both coordinates (the geoloc=true predicate). */
  rowHasCoords(row: number): boolean {
    const venues = this.entities.venues;
    const list = this.table.venueList(row);
    for (let i = 0; i < list.length; i++) {
      const v = venues.get(list[i]);
      if (v && v.geoLat !== null && v.geoLng !== null) return true;
    }
    return false;
  }

  /** Set FLAG_COORDS of the row from its venues; returns whether it changed. */
  updateCoordsFlag(row: number): boolean {
    const flags = this.table.flags;
    const next = this.rowHasCoords(row) ? flags[row] | FLAG_COORDS : flags[row] & ~FLAG_COORDS;
    if (next === flags[row]) return false;
    flags[row] = next;
    return true;
  }

  /** The block counters of the main index and of every list holding the row are stale. */
  dirtyBlocksOf(row: number): void {
    this.blocks.dirty = true;
    this.forEachLink(row, (postings, id) => {
      const list = postings.get(id);
      if (list) list.blocks.dirty = true;
    });
    this.forEachDerived(row, (list) => (list.blocks.dirty = true));
  }

  /** Index changes gathered while a batch is open (beginBatch … endBatch), else undefined. */
  private batch: IndexBatch | undefined;

  /**
   * From now on indexRow and unindexRow only note their changes, and endBatch applies them to
   * each index in one pass: what a write of many rows (a series' occurrences) needs, where an
   * insert or remove each would move the tail of the main index (every row) once per row. Only
   * indexRow/unindexRow may touch the indexes meanwhile (nothing reads them until endBatch).
   */
  beginBatch(): void {
    if (this.batch) throw new Error('index batch: expected none open, got one');
    this.batch = new IndexBatch();
  }

  /** Apply the changes gathered since beginBatch (index-batch.ts). */
  endBatch(): void {
    const b = this.batch;
    if (!b) throw new Error('index batch: expected one open, got none');
    this.batch = undefined;
    applyBatch(this, b);
  }

  /** Add the row (as its columns are now) to the main index and its postings. */
  indexRow(row: number): void {
    const t = this.table;
    this.updateCoordsFlag(row);
    const combo = comboOf(t.statusCodes[row], t.flags[row]);
    const b = this.batch;
    if (b) {
      b.mainAdd.set(row, combo);
      this.forEachLink(row, (postings, id, multi) => {
        let list = postings.get(id);
        if (!list) postings.set(id, (list = new PostingList()));
        b.add(list, row, combo);
        if (multi) b.add((list.multi ??= new PostingList()), row, combo);
      });
      this.forEachKind(row, (postings, ids) => {
        if (ids.length > 1) forEachPair(postings, ids, false, (list) => b.add(list, row, combo));
      });
      if (!this.closureDirty && t.categoryIds.size(row) > 0) {
        for (const id of this.closureOf(row, [])) {
          let list = this.categoryClosure.get(id);
          if (!list) this.categoryClosure.set(id, (list = new PostingList()));
          b.add(list, row, combo);
        }
      }
      this.venueGroups.forEachList(row, t, true, (list) => b.add(list, row, combo));
      return;
    }
    const pos = this.main.insert(t.starts[row], t.ids[row], row, t.ends[row], combo);
    this.blocks.insertAt(pos, combo, t.ends[row], this.main.rows, t);
    this.forEachLink(row, (postings, id, multi) => {
      let list = postings.get(id);
      if (!list) postings.set(id, (list = new PostingList()));
      list.insert(t.starts, t.ids, row, combo);
      if (multi) (list.multi ??= new PostingList()).insert(t.starts, t.ids, row, combo);
    });
    this.forEachKind(row, (postings, ids) => {
      if (ids.length > 1) forEachPair(postings, ids, false, (list) => list.insert(t.starts, t.ids, row, combo));
    });
    if (!this.closureDirty && t.categoryIds.size(row) > 0) {
      for (const id of this.closureOf(row, [])) {
        let list = this.categoryClosure.get(id);
        if (!list) this.categoryClosure.set(id, (list = new PostingList()));
        list.insert(t.starts, t.ids, row, combo);
      }
    }
    this.venueGroups.forEachList(row, t, true, (list) => list.insert(t.starts, t.ids, row, combo));
  }

  /** Remove the row from the main index and its postings; call before its columns change. */
  unindexRow(row: number): void {
    const t = this.table;
    const start = t.starts[row],
      id = t.ids[row];
    const b = this.batch;
    if (b) {
      if (!b.mainAdd.delete(row)) b.mainGone.add(row);
      this.forEachKind(row, (postings, ids) => {
        if (ids.length < 2) return;
        forEachPair(postings, ids, false, (list, lo, hi) =>
          b.remove(list, row, true, () => {
            const pairs = postings.get(lo)?.pairs;
            if (pairs?.get(hi) === list) pairs.delete(hi);
          }),
        );
      });
      this.forEachLink(row, (postings, linkId) => {
        const list = postings.get(linkId);
        if (!list) throw new Error(`postings: expected a list for id ${linkId} holding row ${row}, got none`);
        b.remove(list, row, true, () => {
          if (postings.get(linkId) === list) postings.delete(linkId);
        });
        if (list.multi) b.remove(list.multi, row, false);
      });
      this.forEachDerived(row, (list) => b.remove(list, row, true));
      return;
    }
    const pos = this.main.remove(start, id, row);
    this.blocks.removeAt(pos, comboOf(t.statusCodes[row], t.flags[row]), t.ends[row]);
    this.forEachKind(row, (postings, ids) => {
      if (ids.length < 2) return;
      forEachPair(postings, ids, false, (list, lo, hi) => {
        list.remove(t.starts, t.ids, row, start, id);
        if (list.count === 0) postings.get(lo)!.pairs!.delete(hi);
      });
    });
    this.forEachLink(row, (postings, linkId) => {
      const list = postings.get(linkId);
      if (!list) throw new Error(`postings: expected a list for id ${linkId} holding row ${row}, got none`);
      list.remove(t.starts, t.ids, row, start, id);
      // the row may sit in `multi` though it now has one link (links dropped by a cascade)
      list.multi?.removeIfPresent(t.starts, t.ids, row, start, id);
      if (list.count === 0) postings.delete(linkId);
    });
    this.forEachDerived(row, (list) => list.remove(t.starts, t.ids, row, start, id));
  }

  /** Add sign × (the row's contribution) to `deltas` (term id → change of its count). */
  countContribution(row: number, sign: number, deltas: Map<number, number>): void {
    const t = this.table;
    if (t.statusCodes[row] !== 0) return;
    const add = (id: number) => deltas.set(id, (deltas.get(id) ?? 0) + sign);
    eachDistinct(t.categoryIds.get(row), add);
    eachDistinct(t.tagIds.get(row), add);
  }

  /** Apply count changes; the hooks hear of each term whose count changed. */
  applyCountDeltas(deltas: Map<number, number>): void {
    for (const [id, d] of deltas) {
      if (d === 0) continue;
      const n = (this.termCounts.get(id) ?? 0) + d;
      if (n < 0) throw new Error(`term ${id}: expected a count >= 0, got ${n}`);
      if (n === 0) this.termCounts.delete(id);
      else this.termCounts.set(id, n);
      this.hooks.termCountChanged(id);
    }
  }

  /** Tell the hooks that every event linked through `postings` to `id` embeds something that changed. */
  embeddedChanged(postings: Postings, id: number): void {
    const list = postings.get(id);
    if (!list) return;
    for (let i = 0; i < list.count; i++) this.hooks.embeddedChanged(list.rows[i]);
  }

  /** The main index's block statistics, rebuilt first if a write or a load left them dirty. */
  mainBlocks(): BlockStats {
    this.blocks.refresh(this.main.rows, this.main.count, this.table);
    return this.blocks;
  }

  /** Rebuild the main index, every posting list and the term counts from the columns
   *  (index-rebuild.ts). */
  rebuildIndexes(): void {
    rebuildIndexes(this);
  }
}
