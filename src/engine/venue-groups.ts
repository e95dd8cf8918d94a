// Venue groups: the venues with coordinates split into groups of nearby venues (a k-d split at
// the median of the wider side, down to at most LEAF_VENUES venues a group), and above them the
// groups of at most SUPER_VENUES venues; each group has one posting list of the rows at any of
// its venues, in the main index's order. A radius query (query.ts) takes the list of a group
// whose venues are all within the radius instead of one list a venue: at ten million events a
// 10 km radius around a city centre holds thousands of venues, and each list in the union costs
// a bisection and a count.
//
// Membership, not position, decides: a group is taken only when every one of its venues is in
// the radius's venue set (VenueGeo.withinRadius), so a venue moved or trashed after the split
// leaves every answer right (its group is no longer taken whole); a venue made after the split
// is in no group (its own list answers). A group whose list ever took a row with two or more
// venues is not taken either (`mixed`): its rows could then sit in another list of the union
// too, and the union's count (query-scan.ts unionCount) corrects only for venue lists.
//
// The lists are made by one pass over the main index: by the radius query that first needs them
// in a calendar of at most SYNC_BUILD_ROWS rows, else in the background (background.ts), the
// radius queries meanwhile answered from the venues' lists; a row written during that pass makes
// it start again. Once made, the row upkeep (state.ts: indexRow, unindexRow, setRowCombo) keeps
// them, as it keeps the category closure lists. A bulk rebuild of the indexes drops them.

import { inSlices } from './background.ts';
import { IdMap } from './columns.ts';
import type { EventTable } from './event-table.ts';
import { PostingList } from './posting-list.ts';
import type { VenueRecord } from './records.ts';
import type { SortedIndex } from './sorted-index.ts';

/**
 * Reorders order[lo, hi) so that order[k] holds the venue that sorts k-th by (key, id), those
 * before it sort no later and those after no earlier (Hoare's selection: linear on average, where
 * a sort of each node would make the split n log^2 n).
 */
export function selectNth(
  order: Int32Array,
  key: Float64Array,
  ids: Int32Array,
  lo: number,
  hi: number,
  k: number,
): void {
  const less = (a: number, b: number) => key[a] < key[b] || (key[a] === key[b] && ids[a] < ids[b]);
  let l = lo,
    r = hi - 1;
  while (l < r) {
    const pivot = order[(l + r) >>> 1];
    let i = l,
      j = r;
    while (i <= j) {
      while (less(order[i], pivot)) i++;
      while (less(pivot, order[j])) j--;
      if (i <= j) {
        const x = order[i];
        order[i] = order[j];
        order[j] = x;
        i++;
        j--;
      }
    }
    if (k <= j) r = j;
    else if (k >= i) l = i;
    else return;
  }
}

/** Venues a group holds at most. */
export const LEAF_VENUES = 16;
/** Venues a group of groups holds at most. */
export const SUPER_VENUES = 256;
/** A calendar of at most this many rows gets the lists made by the query that first needs them; a
 *  larger one in the background. Made on the spot, a million events' lists took that query from
 *  18 to 125 ms; 131,072 rows take about a tenth of that. */
export const SYNC_BUILD_ROWS = 1 << 17;
/** Rows of the pass between two looks at the clock (about a tenth of a millisecond at ten million
 *  events: a slice ends close to its deadline). */
const BUILD_STEP = 1024;

/** What the groups read of the calendar's state. */
export interface GroupSource {
  readonly table: EventTable;
  readonly main: SortedIndex;
  readonly venuePostings: { get(id: number): PostingList | undefined };
  readonly entities: { readonly venues: { values(): Iterable<VenueRecord> } };
}

/** Runs work(deadline) a slice at a time until it returns true (background.ts inSlices). */
export type Schedule = (work: (deadline: number) => boolean) => void;

/** A radius's venues as lists: whole groups, and the venues left over. */
export interface GroupCover {
  lists: PostingList[];
  venues: number[];
}

export class VenueGroups {
  /** lists made and kept in step with the rows; 'building': the pass is under way */
  private state: 'none' | 'building' | 'ready' = 'none';
  /** bumped by every row change: a pass that sees it move starts again */
  private changes = 0;
  /** the pass under way (a pass that is no longer the last one begun stops) */
  private pass = 0;
  /** venue id → its group (leaves first, then the groups of groups) */
  private leafOf = new IdMap<number>();
  private leaves = 0;
  /** leaf → its group of groups, or -1 */
  private superOf = new Int32Array(0);
  /** group → its venues' number */
  private size = new Int32Array(0);
  /** group of groups s: its leaves are [firstLeaf[s - leaves], lastLeaf[s - leaves]) */
  private firstLeaf = new Int32Array(0);
  private lastLeaf = new Int32Array(0);
  /** group → 1 once its list took a row with several venues */
  private mixed = new Uint8Array(0);
  private lists: PostingList[] = [];
  private readonly scratch: number[] = [];
  /** group lists handed to radius queries so far */
  taken = 0;

  private leafVenues = LEAF_VENUES;
  private superVenues = SUPER_VENUES;
  private syncRows = SYNC_BUILD_ROWS;
  private stepRows = BUILD_STEP;
  private schedule: Schedule = inSlices;

  /** The split's sizes, the largest calendar whose lists a query makes on the spot, the rows of
   *  the pass between looks at the clock and what runs the pass's slices (tests use small ones); the lists are made again when next needed. */
  configure(
    leafVenues: number,
    superVenues: number,
    opts: { syncRows?: number; stepRows?: number; schedule?: Schedule } = {},
  ): void {
    this.leafVenues = Math.max(1, leafVenues);
    this.superVenues = Math.max(this.leafVenues, superVenues);
    this.syncRows = opts.syncRows ?? SYNC_BUILD_ROWS;
    this.stepRows = Math.max(1, opts.stepRows ?? BUILD_STEP);
    this.schedule = opts.schedule ?? inSlices;
    this.drop();
  }

  get ready(): boolean {
    return this.state === 'ready';
  }

  /** The lists are gone (a bulk rebuild of the indexes); made again when next needed. */
  drop(): void {
    this.changes++;
    this.state = 'none';
    this.lists = [];
    this.leafOf = new IdMap<number>();
  }

  /** Number of groups (leaves and groups of groups) while the lists are made, else 0. */
  get groupCount(): number {
    return this.state === 'ready' ? this.lists.length : 0;
  }

  /** The list of group g and whether it may be taken (for the index checks). */
  groupList(g: number): { list: PostingList; mixed: boolean } {
    return { list: this.lists[g], mixed: this.mixed[g] === 1 };
  }

  /** The groups (distinct) of the row's venues as they are now, into `out`; true when the row
   *  has two or more distinct venues. */
  groupsOf(row: number, t: EventTable, out: number[]): boolean {
    out.length = 0;
    const vs = t.venueList(row);
    let distinct = 0;
    for (let i = 0; i < vs.length; i++) {
      const v = vs[i];
      let seen = false;
      for (let j = 0; j < i && !seen; j++) seen = vs[j] === v;
      if (seen) continue;
      distinct++;
      const leaf = this.leafOf.get(v);
      if (leaf === undefined) continue;
      if (!out.includes(leaf)) out.push(leaf);
      const up = this.superOf[leaf];
      if (up >= 0 && !out.includes(up)) out.push(up);
    }
    return distinct > 1;
  }

  /** Calls fn(list) for the list of each group of the row (none until the lists are made).
   *  `joining`: the row joins them now (a row of several venues marks its groups mixed). */
  forEachList(row: number, t: EventTable, joining: boolean, fn: (list: PostingList) => void): void {
    this.changes++;
    if (this.state === 'ready') this.eachGroupList(row, t, joining, fn);
  }

  /** fn(list) for the list of each group of the row's venues as they are now; `joining`: a row of
   *  several venues marks those groups mixed. */
  private eachGroupList(row: number, t: EventTable, joining: boolean, fn: (list: PostingList) => void): void {
    const out = this.scratch;
    const several = this.groupsOf(row, t, out);
    for (let i = 0; i < out.length; i++) {
      if (joining && several) this.mixed[out[i]] = 1;
      fn(this.lists[out[i]]);
    }
  }

  /**
   * The radius's venues (`ids`, distinct) as whole groups, where every venue of a group is among
   * them and its list never took a row of several venues, and the venues left over; undefined
   * while the lists are not made (a large calendar's are then started in the background).
   */
  cover(src: GroupSource, ids: ArrayLike<number>): GroupCover | undefined {
    if (!this.ensure(src)) return undefined;
    const leaves = this.leaves,
      hits = new Int32Array(leaves);
    /** each id's leaf, -1 for a venue in no group */
    const leafOfId = new Int32Array(ids.length);
    for (let i = 0; i < ids.length; i++) {
      const leaf = this.leafOf.get(ids[i]) ?? -1;
      leafOfId[i] = leaf;
      if (leaf >= 0) hits[leaf]++;
    }
    const lists: PostingList[] = [];
    // taken: 1 for a leaf whose rows a taken group's list holds
    const taken = new Uint8Array(leaves);
    const size = this.size,
      mixed = this.mixed;
    for (let s = 0; s < this.firstLeaf.length; s++) {
      const from = this.firstLeaf[s],
        to = this.lastLeaf[s];
      let n = 0;
      for (let leaf = from; leaf < to; leaf++) n += hits[leaf];
      if (n === 0) continue;
      const g = leaves + s;
      if (n === size[g] && mixed[g] === 0) {
        lists.push(this.lists[g]);
        taken.fill(1, from, to);
      }
    }
    for (let leaf = 0; leaf < leaves; leaf++) {
      // (a leaf holds one venue or more: no hit, not whole)
      if (taken[leaf] === 1 || hits[leaf] !== size[leaf] || mixed[leaf] === 1) continue;
      lists.push(this.lists[leaf]);
      taken[leaf] = 1;
    }
    const venues: number[] = [];
    for (let i = 0; i < ids.length; i++) if (leafOfId[i] < 0 || taken[leafOfId[i]] === 0) venues.push(ids[i]);
    this.taken += lists.length;
    return { lists, venues };
  }

  /** Whether the lists are made: made now in a small calendar, else started in the background. */
  private ensure(src: GroupSource): boolean {
    if (this.state === 'ready') return true;
    if (this.state === 'building') return false;
    if (src.main.count <= this.syncRows) {
      const pass = this.begin(src);
      pass(Infinity);
      return this.ready;
    }
    this.schedule(this.begin(src));
    return false;
  }

  /** Split the venues and start the pass; returns its step (true once done or given up). */
  private begin(src: GroupSource): (deadline: number) => boolean {
    this.state = 'building';
    this.split(src);
    const at = this.changes,
      pass = ++this.pass;
    let pos = 0;
    return (deadline: number): boolean => {
      if (pass !== this.pass || this.state !== 'building') return true;
      if (this.changes !== at) {
        // rows changed under the pass: the next radius query starts again
        this.drop();
        return true;
      }
      pos = this.fill(src, pos, deadline);
      if (pos < src.main.count) return false;
      this.state = 'ready';
      return true;
    };
  }

  /** The k-d split of the venues with coordinates, and empty lists sized for their rows. */
  private split(src: GroupSource): void {
    const points: VenueRecord[] = [];
    for (const v of src.entities.venues.values()) if (v.geoLat !== null && v.geoLng !== null) points.push(v);
    points.sort((a, b) => a.id - b.id);
    const n = points.length;
    const ids = Int32Array.from(points, (v) => v.id),
      lats = Float64Array.from(points, (v) => v.geoLat!),
      lngs = Float64Array.from(points, (v) => v.geoLng!);
    /** the venues (indexes into ids, lats, lngs), each node's a range of it */
    const order = Int32Array.from({ length: n }, (_, i) => i);
    const leafOf = new IdMap<number>();
    const leafSizes: number[] = [];
    const supers: number[] = []; // first leaf, last leaf (exclusive), pairs
    const rec = (lo: number, hi: number, inSuper: boolean): void => {
      const size = hi - lo;
      const isSuper = !inSuper && size <= this.superVenues;
      const first = leafSizes.length;
      if (size <= this.leafVenues) {
        for (let i = lo; i < hi; i++) leafOf.set(ids[order[i]], leafSizes.length);
        leafSizes.push(size);
      } else {
        // the wider side, its longitude degrees shrunk by the cosine of the latitude
        let minLat = Infinity,
          maxLat = -Infinity,
          minLng = Infinity,
          maxLng = -Infinity;
        for (let i = lo; i < hi; i++) {
          const p = order[i];
          minLat = Math.min(minLat, lats[p]);
          maxLat = Math.max(maxLat, lats[p]);
          minLng = Math.min(minLng, lngs[p]);
          maxLng = Math.max(maxLng, lngs[p]);
        }
        const shrink = Math.cos((((minLat + maxLat) / 2) * Math.PI) / 180);
        const mid = lo + (size >> 1);
        selectNth(order, maxLat - minLat >= (maxLng - minLng) * shrink ? lats : lngs, ids, lo, hi, mid);
        rec(lo, mid, inSuper || isSuper);
        rec(mid, hi, inSuper || isSuper);
      }
      // a group of groups over one leaf would repeat that leaf's list
      if (isSuper && leafSizes.length - first > 1) supers.push(first, leafSizes.length);
    };
    if (n > 0) rec(0, n, false);
    const leaves = leafSizes.length,
      groups = leaves + supers.length / 2;
    this.leafOf = leafOf;
    this.leaves = leaves;
    this.superOf = new Int32Array(leaves).fill(-1);
    this.size = new Int32Array(groups);
    this.size.set(leafSizes);
    this.firstLeaf = new Int32Array(supers.length / 2);
    this.lastLeaf = new Int32Array(supers.length / 2);
    for (let s = 0; s < supers.length / 2; s++) {
      const from = supers[2 * s],
        to = supers[2 * s + 1];
      this.firstLeaf[s] = from;
      this.lastLeaf[s] = to;
      for (let leaf = from; leaf < to; leaf++) {
        this.superOf[leaf] = leaves + s;
        this.size[leaves + s] += leafSizes[leaf];
      }
    }
    this.mixed = new Uint8Array(groups);
    // each list sized for its venues' rows (a row at two venues of a group is counted twice)
    const room = new Float64Array(groups);
    for (const v of points) {
      const leaf = leafOf.get(v.id)!;
      const rows = src.venuePostings.get(v.id)?.count ?? 0;
      room[leaf] += rows;
      if (this.superOf[leaf] >= 0) room[this.superOf[leaf]] += rows;
    }
    this.lists = Array.from(room, (n) => new PostingList(Math.max(4, n)));
  }

  /** The pass from main index position `from` until `deadline`: each row joins its groups'
   *  lists, in the main index's order. Returns the next position. */
  private fill(src: GroupSource, from: number, deadline: number): number {
    const { main, table: t } = src;
    const rows = main.rows,
      combos = main.combos,
      n = main.count,
      venueIds = t.venueIds,
      extra = t.extraVenues,
      leafOf = this.leafOf,
      superOf = this.superOf,
      lists = this.lists;
    let pos = from;
    while (pos < n) {
      const stop = Math.min(n, pos + this.stepRows);
      for (; pos < stop; pos++) {
        const row = rows[pos];
        const v = venueIds[row];
        if (v === 0) continue;
        if (extra.size > 0 && extra.has(row)) {
          // a row of several venues (rare): each of its groups, marked mixed
          const combo = combos[pos];
          this.eachGroupList(row, t, true, (list) => list.push(row, combo));
          continue;
        }
        const leaf = leafOf.get(v);
        if (leaf === undefined) continue;
        lists[leaf].push(row, combos[pos]);
        const up = superOf[leaf];
        if (up >= 0) lists[up].push(row, combos[pos]);
      }
      if (performance.now() >= deadline) break;
    }
    return pos;
  }
}
