// The posting lines of a snapshot made straight from the columns (postingsFromColumns), for a state
// whose posting lists are not built: what an import that streams its snapshot once loaded writes
// (snapshot-indexes.ts describes the lines and reads them back).

import type { CalendarState } from './state.ts';
import { postingLines, type Captured, type Kind } from './snapshot-indexes.ts';
import { ListStatsGatherer } from './snapshot-list-stats.ts';

/**
 * The posting lines of a state whose posting lists are not built (an import's, which streams its
 * snapshot once loaded), made straight from the columns: the lines capturePostings() would write
 * for the lists rebuildPostings() (index-rebuild.ts) would make, rows as positions in `order` (the
 * main index's rows), but with no list objects made and nothing mapped afterwards. Two walks over
 * the rows, as there: the first (in table order) counts each list's rows, the second (in `order`)
 * puts each row's position at its lists' next place. The lists come in the order their ids are
 * first met (a load does not depend on it).
 */
export function postingsFromColumns(st: CalendarState, order: Int32Array): Iterable<unknown> {
  const t = st.table,
    n = order.length;
  const pool = t.idLists;
  const { categoryIds, tagIds, organizerIds, venueIds, parentIds, extraVenues } = t;
  const hasExtra = extraVenues.size > 0;
  const kinds = {
    category: new ListsOf(pool.count),
    tag: new ListsOf(pool.count),
    organizer: new ListsOf(pool.count),
    venue: new ListsOf(0),
    parent: new ListsOf(0),
    closure: new ListsOf(pool.count),
  };
  const closureIds: number[] = [];
  for (const pass of [0, 1]) {
    const counting = pass === 0;
    for (let i = 0; i < n; i++) {
      const row = counting ? i : order[i];
      const cats = categoryIds.lists[row];
      kinds.category.poolList(pool, cats, i, counting);
      kinds.tag.poolList(pool, tagIds.lists[row], i, counting);
      kinds.organizer.poolList(pool, organizerIds.lists[row], i, counting);
      const extra = hasExtra ? extraVenues.get(row) : undefined;
      if (extra) kinds.venue.list(extra, 0, extra.length, i, counting);
      else if (venueIds[row] !== 0) kinds.venue.one(venueIds[row], i, counting);
      if (parentIds[row] !== 0) kinds.parent.one(parentIds[row], i, counting);
      if (cats !== 0) kinds.closure.closure(cats, () => st.closureOf(row, closureIds), i, counting);
    }
    if (counting) for (const kind of Object.keys(kinds) as Kind[]) kinds[kind].place(kind, st.main);
  }
  const captured: Captured[] = (Object.keys(kinds) as Kind[]).map((kind) => kinds[kind].captured(kind));
  // then the large lists' block statistics (snapshot-list-stats.ts), gathered by the second walk
  return chain(postingLines(captured), ...(Object.keys(kinds) as Kind[]).map((kind) => kinds[kind].statLines(kind)));
}

function* chain(...parts: Iterable<unknown>[]): Generator<unknown> {
  for (const part of parts) yield* part;
}

/** One kind's lists while postingsFromColumns makes them: a slot per id, in the order met. */
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
  closure(k: number, closureOf: () => readonly number[], at: number, counting: boolean): void {
    let e = this.entryAt[k];
    if (e < 0) {
      const ids = closureOf();
      e = this.entry(
        false,
        ids.map((id) => this.slot(id)),
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
  statLines(kind: Kind): Iterable<unknown> {
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
