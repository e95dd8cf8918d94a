// The bulk path of the indexes: the main (start, id) index, every posting list and the term
// counts made anew from the columns, after a snapshot load or a bulk import.
import { IdMap } from './columns.ts';
import { comboOf } from './block-stats.ts';
import { FLAG_COORDS } from './event-table.ts';
import { PostingList } from './posting-list.ts';
import type { BlockStats } from './block-stats.ts';
import type { Entities } from './entities.ts';
import type { EventTable, IdListPool } from './event-table.ts';
import type { SortedIndex } from './sorted-index.ts';

type Postings = IdMap<PostingList>;

/** what a rebuild reads and makes: the state's columns, indexes, lists and counts */
export interface RebuildTarget {
  readonly table: EventTable;
  readonly entities: Entities;
  readonly ids: { readonly nextTermId: number };
  readonly main: SortedIndex;
  readonly blocks: BlockStats;
  readonly categoryPostings: Postings;
  readonly tagPostings: Postings;
  readonly venuePostings: Postings;
  readonly organizerPostings: Postings;
  readonly parentPostings: Postings;
  readonly categoryClosure: Postings;
  readonly termCounts: IdMap<number>;
  closureDirty: boolean;
  closureOf(row: number, out: number[]): number[];
  readonly venueGroups: { drop(): void };
}

/** Rebuild the main index, every posting list, the category closure and the term counts from
 *  the columns: one sort, then postings filled by walking rows in index order (already sorted). */
export function rebuildIndexes(st: RebuildTarget): void {
  rebuildMain(st);
  rebuildPostings(st);
}

/** The coords flag of every row (from its venues), then the main index made anew from the columns:
 *  one sort (nothing to move when the rows are in order already). */
export function rebuildMain(st: RebuildTarget): void {
  const t = st.table;
  const n = t.count;
  const { venueIds, statusCodes, extraVenues, flags } = t;
  // the venue groups' lists follow the main index: made again when next needed
  st.venueGroups.drop();
  const hasExtra = extraVenues.size > 0;
  // the coords flag, from one has-coordinates answer per venue
  const coords = new IdMap<boolean>();
  for (const v of st.entities.venues.values()) coords.set(v.id, v.geoLat !== null && v.geoLng !== null);
  for (let row = 0; row < n; row++) {
    let has = false;
    const extra = hasExtra ? extraVenues.get(row) : undefined;
    if (extra) {
      for (let i = 0; i < extra.length && !has; i++) has = coords.get(extra[i]) === true;
    } else if (venueIds[row] !== 0) has = coords.get(venueIds[row]) === true;
    flags[row] = has ? flags[row] | FLAG_COORDS : flags[row] & ~FLAG_COORDS;
  }
  const codes = statusCodes;
  st.main.load(n, t.starts, t.ids, t.ends, (row) => comboOf(codes[row], flags[row]));
  st.blocks.dirty = true;
}

/** Every posting list, the category closure and the term counts made anew from the columns and the
 *  main index (rebuildMain's). */
export function rebuildPostings(st: RebuildTarget): void {
  const t = st.table;
  const n = t.count;
  const { categoryIds, tagIds, organizerIds, venueIds, parentIds, statusCodes, extraVenues } = t;
  const pool = t.idLists;
  const hasExtra = extraVenues.size > 0;
  const all = [
    st.categoryPostings,
    st.tagPostings,
    st.venuePostings,
    st.organizerPostings,
    st.parentPostings,
    st.categoryClosure,
  ];
  for (const p of all) p.clear();
  st.termCounts.clear();
  const rows = st.main.rows,
    combos = st.main.combos;
  // rows in index order go to the end of their lists, so every list comes out sorted;
  // term counts are tallied in a typed array by id, then moved to the map. Two walks: the first
  // only counts each list's entries, so that each is made once at its size (no copies as it
  // grows, no room left over), the second fills them.
  const counted = new Int32Array(Math.max(16, st.ids.nextTermId));
  const fill = new Filler(counted);
  // the category closure (each category and its ancestors) in the same walks, once per distinct
  // list of categories (rows share their lists)
  const closures = new Map<number, readonly number[]>();
  for (const pass of [0, 1]) {
    for (let i = 0; i < n; i++) {
      // the counting walk takes the rows in table order (counts do not depend on the order, and
      // the columns are read in order rather than all over them); the filling walk in index order
      const row = pass === 0 ? i : rows[i],
        combo = combos[i];
      const published = statusCodes[row] === 0;
      const cats = categoryIds.lists[row];
      fill.list(st.categoryPostings, pool, cats, row, combo, published);
      fill.list(st.tagPostings, pool, tagIds.lists[row], row, combo, published);
      fill.list(st.organizerPostings, pool, organizerIds.lists[row], row, combo, false);
      const extra = hasExtra ? extraVenues.get(row) : undefined;
      if (extra) fill.lists(st.venuePostings, extra, 0, extra.length, row, combo, false);
      else if (venueIds[row] !== 0) fill.one(st.venuePostings, venueIds[row], row, combo);
      if (parentIds[row] !== 0) fill.one(st.parentPostings, parentIds[row], row, combo);
      if (cats !== 0) {
        let closure = closures.get(cats);
        if (closure === undefined) closures.set(cats, (closure = st.closureOf(row, [])));
        for (let k = 0; k < closure.length; k++) fill.one(st.categoryClosure, closure[k], row, combo);
      }
    }
    if (pass === 0) {
      for (const postings of all) for (const [, list] of postings.entries()) sizeToCount(list);
      fill.counting = false;
    }
  }
  st.closureDirty = false;
  for (let id = 0; id < counted.length; id++) if (counted[id] !== 0) st.termCounts.set(id, counted[id]);
  for (const [id, c] of fill.bigCounts) st.termCounts.set(id, c);
}

/** An empty list (and its `multi`) made at the size its count says, the count back to 0. */
function sizeToCount(list: PostingList): void {
  list.rows = new Int32Array(list.count);
  list.combos = new Uint8Array(list.count);
  list.count = 0;
  if (list.multi) sizeToCount(list.multi);
}

/** Bulk fill of posting lists: rows arrive in index order and are appended. While `counting`,
 *  the lists are made (empty) and only their counts go up; then the rows go in. */
class Filler {
  counting = true;
  /** counts of term ids too large for `counted` */
  readonly bigCounts = new Map<number, number>();
  constructor(private readonly counted: Int32Array) {}

  one(postings: Postings, id: number, row: number, combo: number): void {
    let list = postings.get(id);
    if (!list) postings.set(id, (list = new PostingList(0)));
    if (this.counting) list.count++;
    else list.push(row, combo);
  }

  /** lists() of the pool's list number k */
  list(postings: Postings, pool: IdListPool, k: number, row: number, combo: number, count: boolean): void {
    if (k !== 0) this.lists(postings, pool.values, pool.offsets[k], pool.offsets[k + 1], row, combo, count);
  }

  /** the row goes to the list of each distinct id of ids[from, to) (and `multi` of each when there
   *  are several, and the pair list of each pair of them) */
  lists(
    postings: Postings,
    ids: ArrayLike<number>,
    from: number,
    to: number,
    row: number,
    combo: number,
    count: boolean,
  ): void {
    const k = to - from;
    if (k === 0) return;
    if (k === 1) {
      this.one(postings, ids[from], row, combo);
      if (count) this.count(ids[from]);
      return;
    }
    let multi = false;
    for (let i = from + 1; i < to && !multi; i++) multi = ids[i] !== ids[from];
    for (let i = from; i < to; i++) {
      const id = ids[i];
      let seen = false;
      for (let j = from; j < i; j++)
        if (ids[j] === id) {
          seen = true;
          break;
        }
      if (seen) continue;
      if (this.counting) {
        let list = postings.get(id);
        if (!list) postings.set(id, (list = new PostingList(0)));
        list.count++;
        if (multi) (list.multi ??= new PostingList(0)).count++;
      } else {
        pushOne(postings, id, row, combo, multi);
        if (count) this.count(id);
      }
    }
  }

  private count(id: number): void {
    if (this.counting) return;
    if (id < this.counted.length) this.counted[id]++;
    else this.bigCounts.set(id, (this.bigCounts.get(id) ?? 0) + 1);
  }
}

export function pushOne(postings: Postings, id: number, row: number, combo: number, multi = false): void {
  let list = postings.get(id);
  if (!list) postings.set(id, (list = new PostingList()));
  list.push(row, combo);
  if (multi) (list.multi ??= new PostingList()).push(row, combo);
}
