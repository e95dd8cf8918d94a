// The posting lists of a snapshot made straight from the columns (capturedFromColumns), for a
// state whose posting lists are not built: what an import that streams its snapshot once loaded
// writes (snapshot-indexes.ts describes the lines and reads them back). On a worker thread for a
// large table (snapshot-workers.ts): the columns it reads are plain arrays (postingColumns).

import { gathered } from './gather.ts';
import type { CalendarState } from './state.ts';
import type { Captured, Kind } from './snapshot-indexes.ts';
import { ListStatsGatherer, type ListStatsLine } from './snapshot-list-stats.ts';

/** What capturedFromColumns reads of a state: its link columns, pool and closures, as plain
 *  arrays (a worker thread gets them so: snapshot-workers.ts). */
export interface PostingColumns {
  /** the table rows in the snapshot's order (position → row) */
  order: Int32Array;
  /** per row: its category, tag and organizer lists' numbers in the pool */
  categories: Int32Array;
  tags: Int32Array;
  organizers: Int32Array;
  venueIds: Int32Array;
  parentIds: Int32Array;
  /** the pool's lists: list k is values[offsets[k], offsets[k + 1]) */
  poolValues: Int32Array;
  poolOffsets: Int32Array;
  poolCount: number;
  /** the rows with several venues, and theirs: rows[i]'s are venues[venueAt[i], venueAt[i + 1]) */
  extra: { rows: Int32Array; venueAt: Int32Array; venues: Int32Array };
  /** the closure of each category list k (State.closureOf of a row of it): closureValues[closureAt[k],
   *  closureAt[k + 1]) */
  closureAt: Int32Array;
  closureValues: Int32Array;
  /** the main index's (status, flags) combination and local end of each position (the large
   *  lists' block statistics are gathered from them: snapshot-list-stats.ts) */
  combos: Uint8Array;
  ends: Float64Array;
}

/** The columns capturedFromColumns reads of `st`, rows in `order`. `copy`: copies of the columns
 *  (their memory the caller's to transfer), else the table's own (for a walk made at once). */
export function postingColumns(st: CalendarState, order: Int32Array, copy: boolean): PostingColumns {
  const t = st.table,
    n = order.length,
    pool = t.idLists;
  const own = (a: Int32Array) => (copy ? a.slice(0, n) : a);
  const cats = t.categoryIds.lists;
  // each category list's closure, from its first row (closureOf reads the row's categories)
  const firstRow = new Int32Array(pool.count).fill(-1);
  for (let r = 0; r < n; r++) if (cats[r] !== 0 && firstRow[cats[r]] < 0) firstRow[cats[r]] = r;
  const closureAt = new Int32Array(pool.count + 1);
  const closureValues: number[] = [];
  const ids: number[] = [];
  for (let k = 0; k < pool.count; k++) {
    if (firstRow[k] >= 0) closureValues.push(...st.closureOf(firstRow[k], ids));
    closureAt[k + 1] = closureValues.length;
  }
  const rows: number[] = [],
    venueAt = [0],
    venues: number[] = [];
  for (const [row, list] of t.extraVenues) {
    rows.push(row);
    venues.push(...list);
    venueAt.push(venues.length);
  }
  return {
    order,
    categories: own(cats),
    tags: own(t.tagIds.lists),
    organizers: own(t.organizerIds.lists),
    venueIds: own(t.venueIds),
    parentIds: own(t.parentIds),
    poolValues: copy ? pool.values.slice(0, pool.offsets[pool.count]) : pool.values,
    poolOffsets: copy ? pool.offsets.slice(0, pool.count + 1) : pool.offsets,
    poolCount: pool.count,
    extra: { rows: Int32Array.from(rows), venueAt: Int32Array.from(venueAt), venues: Int32Array.from(venues) },
    closureAt,
    closureValues: Int32Array.from(closureValues),
    combos: copy ? st.main.combos.slice(0, n) : st.main.combos,
    ends: copy ? st.main.ends.slice(0, n) : st.main.ends,
  };
}

/** The posting lists made from the columns, and the block statistics of the large ones. */
export interface ColumnPostings {
  captured: Captured[];
  stats: ListStatsLine[];
}

/**
 * The posting lists of a state whose lists are not built (an import's, which streams its snapshot
 * once loaded), made straight from the columns: the lists capturePostings() would capture of the
 * lists rebuildPostings() (index-rebuild.ts) would make, rows as positions in `order` (the main
 * index's rows), but with no list objects made and nothing mapped afterwards. Two walks over the
 * rows, as rebuildPostings: the first (in table order) counts each list's rows, the second (in
 * `order`) puts each row's position at its lists' next place. The lists come in the order their
 * ids are first met (a load does not depend on it). `permute`: the row columns are the caller's
 * own (a worker's copies): the second walk first puts them in `order`, one column at a time, and
 * then reads them in order (at ten million rows, reading five columns at random for each row costs
 * more than the five gathers; docs/store.md, "Import").
 */
export function capturedFromColumns(c: PostingColumns, permute = false): ColumnPostings {
  const n = c.order.length;
  const pool = { values: c.poolValues, offsets: c.poolOffsets };
  const order = c.order;
  // per row: its index in c.extra (-1: one venue or none)
  let extraOf: Int32Array | undefined;
  if (c.extra.rows.length > 0) {
    extraOf = new Int32Array(n).fill(-1);
    for (let i = 0; i < c.extra.rows.length; i++) extraOf[c.extra.rows[i]] = i;
  }
  const kinds = {
    category: new ListsOf(c.poolCount),
    tag: new ListsOf(c.poolCount),
    organizer: new ListsOf(c.poolCount),
    venue: new ListsOf(0),
    parent: new ListsOf(0),
    closure: new ListsOf(c.poolCount),
  };
  const closureOf = (k: number) => c.closureValues.subarray(c.closureAt[k], c.closureAt[k + 1]);
  let { categories, tags, organizers, venueIds, parentIds } = c;
  for (const pass of [0, 1]) {
    const counting = pass === 0;
    // the second walk reads the rows in `order`: from copies put in that order first, when asked
    // (one column at a time reads each at random far faster than every column for each row)
    const inOrder = !counting && permute;
    if (inOrder) {
      // each copy in order takes its column's place in `c` (the caller's own), so that the column
      // in table order can go before the next is made (40 MB each at ten million rows)
      c.categories = categories = gathered(categories, order);
      c.tags = tags = gathered(tags, order);
      c.organizers = organizers = gathered(organizers, order);
      c.venueIds = venueIds = gathered(venueIds, order);
      c.parentIds = parentIds = gathered(parentIds, order);
      if (extraOf) extraOf = gathered(extraOf, order);
    }
    for (let i = 0; i < n; i++) {
      const row = counting || inOrder ? i : order[i];
      const cats = categories[row];
      kinds.category.poolList(pool, cats, i, counting);
      kinds.tag.poolList(pool, tags[row], i, counting);
      kinds.organizer.poolList(pool, organizers[row], i, counting);
      const e = extraOf === undefined ? -1 : extraOf[row];
      if (e >= 0) kinds.venue.list(c.extra.venues, c.extra.venueAt[e], c.extra.venueAt[e + 1], i, counting);
      else if (venueIds[row] !== 0) kinds.venue.one(venueIds[row], i, counting);
      if (parentIds[row] !== 0) kinds.parent.one(parentIds[row], i, counting);
      if (cats !== 0) kinds.closure.closure(cats, () => closureOf(cats), i, counting);
    }
    if (counting) for (const kind of Object.keys(kinds) as Kind[]) kinds[kind].place(kind, c);
  }
  const kindsOf = Object.keys(kinds) as Kind[];
  return {
    captured: kindsOf.map((kind) => kinds[kind].captured(kind)),
    // the large lists' block statistics (snapshot-list-stats.ts), gathered by the second walk
    stats: kindsOf.flatMap((kind) => [...kinds[kind].statLines(kind)]),
  };
}

/** One kind's lists while capturedFromColumns makes them: a slot per id, in the order met. */
class ListsOf {
  private readonly slotOf = new Map<number, number>();
  private ids = new Int32Array(64);
  private counts = new Int32Array(64);
  private multis = new Int32Array(64);
  private slots = 0;
  /** where each slot's next row and next multi row go (the fill) */
  private next = new Int32Array(0);
  private nextMulti = new Int32Array(0);
  private values = new Int32Array(0);
  /** the large lists' block statistics, gathered by the fill */
  private stats: ListStatsGatherer | undefined;
  /** per pool list: where its entry starts in `entries` (-1: not yet), entries being
   *  [multi (0/1), number of slots, slot...] */
  private readonly entryAt: Int32Array;
  private entries = new Int32Array(256);
  private used = 0;

  constructor(poolLists: number) {
    this.entryAt = new Int32Array(poolLists).fill(-1);
  }

  private slot(id: number): number {
    let s = this.slotOf.get(id);
    if (s === undefined) {
      s = this.slots++;
      this.slotOf.set(id, s);
      if (s >= this.ids.length) {
        const grow = (a: Int32Array) => {
          const b = new Int32Array(a.length * 2);
          b.set(a);
          return b;
        };
        this.ids = grow(this.ids);
        this.counts = grow(this.counts);
        this.multis = grow(this.multis);
      }
      this.ids[s] = id;
    }
    return s;
  }

  private put(s: number, at: number, multi: boolean, counting: boolean): void {
    if (counting) {
      this.counts[s]++;
      if (multi) this.multis[s]++;
    } else {
      this.stats?.add(s, this.next[s], at);
      this.values[this.next[s]++] = at;
      if (multi) this.values[this.nextMulti[s]++] = at;
    }
  }

  one(id: number, at: number, counting: boolean): void {
    this.put(this.slot(id), at, false, counting);
  }

  /** the row (at `at`) goes to the list of each distinct id of ids[from, to), and to the multi
   *  sublists when there are several (rebuildPostings' Filler.lists) */
  list(ids: ArrayLike<number>, from: number, to: number, at: number, counting: boolean): void {
    const k = to - from;
    if (k === 0) return;
    if (k === 1) return this.one(ids[from], at, counting);
    let multi = false;
    for (let i = from + 1; i < to && !multi; i++) multi = ids[i] !== ids[from];
    for (let i = from; i < to; i++) {
      let seen = false;
      for (let j = from; j < i && !seen; j++) seen = ids[j] === ids[i];
      if (!seen) this.put(this.slot(ids[i]), at, multi, counting);
    }
  }

  /** list() of pool list k, its slots found once per list */
  poolList(pool: { values: Int32Array; offsets: Int32Array }, k: number, at: number, counting: boolean): void {
    if (k === 0) return;
    let e = this.entryAt[k];
    if (e < 0) {
      const a = pool.offsets[k],
        b = pool.offsets[k + 1],
        v = pool.values;
      let multi = false;
      for (let i = a + 1; i < b && !multi; i++) multi = v[i] !== v[a];
      const slots: number[] = [];
      for (let i = a; i < b; i++) {
        let seen = false;
        for (let j = a; j < i && !seen; j++) seen = v[j] === v[i];
        if (!seen) slots.push(this.slot(v[i]));
      }
      e = this.entry(multi && b - a > 1, slots);
      this.entryAt[k] = e;
    }
    this.putEntry(e, at, counting);
  }

  /** the row goes to the list of each id of the closure of its categories (pool list k), each
   *  once, no multi sublists (rebuildPostings: closureOf(row), Filler.one each) */
  closure(k: number, closureOf: () => ArrayLike<number>, at: number, counting: boolean): void {
    let e = this.entryAt[k];
    if (e < 0) {
      const ids = closureOf();
      e = this.entry(
        false,
        Array.from(ids, (id) => this.slot(id)),
      );
      this.entryAt[k] = e;
    }
    this.putEntry(e, at, counting);
  }

  private entry(multi: boolean, slots: number[]): number {
    const need = this.used + 2 + slots.length;
    if (need > this.entries.length) {
      const b = new Int32Array(Math.max(need, this.entries.length * 2));
      b.set(this.entries);
      this.entries = b;
    }
    const e = this.used;
    this.entries[e] = multi ? 1 : 0;
    this.entries[e + 1] = slots.length;
    for (let i = 0; i < slots.length; i++) this.entries[e + 2 + i] = slots[i];
    this.used = need;
    return e;
  }

  private putEntry(e: number, at: number, counting: boolean): void {
    const en = this.entries,
      multi = en[e] === 1,
      m = en[e + 1];
    for (let i = 0; i < m; i++) this.put(en[e + 2 + i], at, multi, counting);
  }

  /** After the counting walk: each slot's place among the values (its rows, then its multi's). */
  place(kind: Kind, main: { combos: Uint8Array; ends: Float64Array }): void {
    const s = this.slots;
    this.next = new Int32Array(s);
    this.nextMulti = new Int32Array(s);
    let at = 0;
    for (let j = 0; j < s; j++) {
      this.next[j] = at;
      this.nextMulti[j] = at + this.counts[j];
      at += this.counts[j] + this.multis[j];
    }
    this.values = new Int32Array(at);
    this.stats = ListStatsGatherer.of(kind, this.counts, this.next, s, main.combos, main.ends);
  }

  /** the lines of the large lists' statistics, once the values are placed */
  statLines(kind: Kind): Iterable<ListStatsLine> {
    return this.stats ? this.stats.lines(kind, this.ids, this.counts) : [];
  }

  captured(kind: Kind): Captured {
    const s = this.slots;
    return {
      kind,
      ids: this.ids.slice(0, s),
      counts: this.counts.slice(0, s),
      multis: this.multis.slice(0, s),
      values: this.values,
    };
  }
}
