// Search: a trigram → row postings index over the folded title, excerpt and description of
// every event row. It is only a filter: the rows it returns are a superset of the rows whose
// folded fields hold every include term, and every candidate is then checked by the query's
// full row predicate (which verifies each term with `includes`), so answers stay exact.
//
// Trigrams are three consecutive UTF-16 units of one folded field, none of them a space or a
// control character (so no trigram crosses a word gap or a field boundary). A term's own
// trigrams of that kind must all occur in a row that holds the term, whatever the term is.
//
// Storage: one posting list per distinct trigram, row ids ascending, delta + LEB128 varint
// encoded in a single byte buffer (built in bulk from the table). Writes do not touch the
// buffer: a written row's trigrams go to per-trigram overflow lists (stale entries of the
// row's old text stay behind; they only cost a failed check). When the overflow grows past a
// quarter of the buffer, the next search rebuilds everything.

import { foldText, type EventTable } from './event-table.ts';
import type { CalendarState } from './state.ts';
import type { Matcher } from './query.ts';
import type { EventQuery, QueryResult } from './types.ts';

const ASCII_KEYS = 1 << 21;
const EMPTY = new Int32Array(0);

const indexes = new WeakMap<CalendarState, SearchIndex>();

/** The state's search index, built over the whole table on first use. */
export function searchIndexOf(st: CalendarState): SearchIndex {
  let si = indexes.get(st);
  if (!si) {
    si = new SearchIndex();
    si.rebuild(st.table);
    indexes.set(st, si);
  }
  return si;
}

/** Rebuild (or build) the state's search index from the table: after bulk loads. */
export function rebuildSearchIndex(st: CalendarState): void {
  let si = indexes.get(st);
  if (!si) indexes.set(st, (si = new SearchIndex()));
  si.rebuild(st.table);
}

/** The event row's title, excerpt or description were written (new row or changed text). */
export function searchRowWritten(st: CalendarState, row: number): void {
  indexes.get(st)?.addRow(st.table, row); // no index yet: the first search builds it whole
}

/** true for units that may be part of an indexed trigram */
function indexable(c: number): boolean {
  return c > 32;
}

export class SearchIndex {
  /** ascii trigram key (a << 14 | b << 7 | c) → dense id + 1 (0 = none); allocated on first use */
  private asciiIds: Int32Array | undefined;
  /** other trigrams: a * 2^32 + b * 2^16 + c → dense id */
  private readonly otherIds = new Map<number, number>();
  private nIds = 0;

  /** base postings of dense id i: data[offsets[i] .. offsets[i + 1]), counts[i] rows */
  private data = new Uint8Array(0);
  private offsets = new Uint32Array(1);
  private counts = new Uint32Array(0);
  /** rows added by writes since the last build, per dense id (unsorted, may repeat base rows) */
  private extra: (number[] | undefined)[] = [];
  private extraTotal = 0;
  /** true when the next search must rebuild first (overflow too large) */
  private stale = false;

  /** Rebuild from every row of the table (rows ascending: each list comes out sorted). */
  rebuild(t: EventTable): void {
    this.asciiIds = undefined;
    this.otherIds.clear();
    this.nIds = 0;
    this.extra = [];
    this.extraTotal = 0;
    this.stale = false;
    let cap = 256;
    let bufs: Uint8Array[] = [];
    let lens: Int32Array = new Int32Array(cap), lastRows: Int32Array = new Int32Array(cap), counts: Uint32Array = new Uint32Array(cap);
    const n = t.count;
    for (let row = 0; row < n; row++) {
      this.eachTrigram(t, row, true, (id) => {
        if (id >= cap) {
          const next = cap * 2;
          lens = grow(lens, next);
          const lr = new Int32Array(next);
          lr.set(lastRows);
          lastRows = lr;
          const c = new Uint32Array(next);
          c.set(counts);
          counts = c;
          cap = next;
        }
        if (id >= bufs.length) {
          bufs.push(new Uint8Array(8));
          lastRows[id] = -1;
        }
        const last = lastRows[id];
        if (last === row) return; // seen in this row already
        let delta = row - last;
        lastRows[id] = row;
        counts[id]++;
        let buf = bufs[id], len = lens[id];
        if (len + 5 > buf.length) {
          const b = new Uint8Array(buf.length * 2);
          b.set(buf);
          bufs[id] = buf = b;
        }
        while (delta >= 0x80) {
          buf[len++] = (delta & 0x7f) | 0x80;
          delta >>>= 7;
        }
        buf[len++] = delta;
        lens[id] = len;
      });
    }
    const ids = this.nIds;
    const offsets = new Uint32Array(ids + 1);
    for (let i = 0; i < ids; i++) offsets[i + 1] = offsets[i] + lens[i];
    const data = new Uint8Array(offsets[ids]);
    for (let i = 0; i < ids; i++) data.set(bufs[i].subarray(0, lens[i]), offsets[i]);
    bufs = [];
    this.data = data;
    this.offsets = offsets;
    this.counts = counts.slice(0, ids);
  }

  /** The row's text was written: its trigrams go to the overflow lists. */
  addRow(t: EventTable, row: number): void {
    const seen = new Set<number>();
    this.eachTrigram(t, row, true, (id) => {
      if (seen.has(id)) return;
      seen.add(id);
      let list = this.extra[id];
      if (!list) this.extra[id] = list = [];
      list.push(row);
      this.extraTotal++;
    });
    if (this.extraTotal > 4096 && this.extraTotal * 4 > this.data.length) this.stale = true;
  }

  /** Bytes held by the index (buffers and tables, not object headers). */
  byteSize(): number {
    let extra = 0;
    for (const l of this.extra) if (l) extra += 8 * l.length;
    return this.data.byteLength + this.offsets.byteLength + this.counts.byteLength + (this.asciiIds?.byteLength ?? 0) +
      this.otherIds.size * 24 + extra;
  }

  /**
   * Sorted distinct rows that may hold every include term, or undefined when the index cannot
   * help (no term has an indexed trigram) or its smallest list is not below `budget` rows.
   */
  candidates(t: EventTable, include: readonly string[], budget: number): Int32Array | undefined {
    if (this.stale) this.rebuild(t);
    const lists: number[] = [];
    let usable = false;
    for (const term of include) {
      for (let i = 0; i + 2 < term.length; i++) {
        const a = term.charCodeAt(i), b = term.charCodeAt(i + 1), c = term.charCodeAt(i + 2);
        if (!indexable(a) || !indexable(b) || !indexable(c)) continue;
        usable = true;
        const id = this.lookup(a, b, c, false);
        if (id < 0) return EMPTY; // no row has ever held this trigram
        if (!lists.includes(id)) lists.push(id);
      }
    }
    if (!usable) return undefined;
    const size = (id: number) => (id < this.counts.length ? this.counts[id] : 0) + (this.extra[id]?.length ?? 0);
    lists.sort((x, y) => size(x) - size(y));
    if (size(lists[0]) >= budget) return undefined;
    let cand = this.rows(lists[0]);
    for (let k = 1; k < lists.length && cand.length > 8; k++) {
      if (size(lists[k]) > 32 * cand.length) break;
      cand = intersect(cand, this.rows(lists[k]));
    }
    return cand;
  }

  /** Sorted distinct rows of one list (base and overflow). */
  private rows(id: number): Int32Array {
    const base = id < this.counts.length ? this.counts[id] : 0;
    const extra = this.extra[id];
    const out = new Int32Array(base + (extra?.length ?? 0));
    const data = this.data;
    let p = base > 0 ? this.offsets[id] : 0, row = -1;
    for (let i = 0; i < base; i++) {
      let b = data[p++], delta = b & 0x7f, shift = 7;
      while (b & 0x80) {
        b = data[p++];
        delta |= (b & 0x7f) << shift;
        shift += 7;
      }
      row += delta;
      out[i] = row;
    }
    if (!extra) return out;
    for (let i = 0; i < extra.length; i++) out[base + i] = extra[i];
    out.sort();
    let w = 0;
    for (let i = 0; i < out.length; i++) if (i === 0 || out[i] !== out[w - 1]) out[w++] = out[i];
    return out.subarray(0, w);
  }

  /** Dense id of a trigram; -1 when unknown and create is false. */
  private lookup(a: number, b: number, c: number, create: boolean): number {
    if ((a | b | c) < 128) {
      let table = this.asciiIds;
      if (!table) {
        if (!create) return -1;
        this.asciiIds = table = new Int32Array(ASCII_KEYS);
      }
      const key = (a << 14) | (b << 7) | c;
      const v = table[key];
      if (v !== 0) return v - 1;
      if (!create) return -1;
      table[key] = this.nIds + 1;
      return this.nIds++;
    }
    const key = a * 4294967296 + b * 65536 + c;
    const v = this.otherIds.get(key);
    if (v !== undefined) return v;
    if (!create) return -1;
    this.otherIds.set(key, this.nIds);
    return this.nIds++;
  }

  /** Calls fn(id) for every indexed trigram of the row's folded fields (repeats included). */
  private eachTrigram(t: EventTable, row: number, create: boolean, fn: (id: number) => void): void {
    this.eachIn(foldText(t.titles[row]), create, fn);
    this.eachIn(foldText(t.excerpts[row]), create, fn);
    this.eachIn(foldText(t.descriptions[row]), create, fn);
  }

  private eachIn(s: string, create: boolean, fn: (id: number) => void): void {
    const n = s.length;
    if (n < 3) return;
    let a = s.charCodeAt(0), b = s.charCodeAt(1);
    for (let i = 2; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c > 32 && b > 32 && a > 32) {
        const id = this.lookup(a, b, c, create);
        if (id >= 0) fn(id);
      }
      a = b;
      b = c;
    }
  }
}

function grow(a: Int32Array, n: number): Int32Array {
  const b = new Int32Array(n);
  b.set(a);
  return b;
}

/** Rows in both sorted lists. */
export function intersect(x: Int32Array, y: Int32Array): Int32Array {
  const out = new Int32Array(Math.min(x.length, y.length));
  let i = 0, j = 0, w = 0;
  while (i < x.length && j < y.length) {
    const a = x[i], b = y[j];
    if (a === b) {
      out[w++] = a;
      i++;
      j++;
    } else if (a < b) i++;
    else j++;
  }
  return out.subarray(0, w);
}

/**
 * The query answered from the search candidates when that is cheaper than the chosen driver
 * (`driverCost` rows): every candidate goes through the full predicate, the matches are
 * counted and the page is cut from them in (start, id) order. Undefined = use the driver.
 */
export function searchQuery(st: CalendarState, q: EventQuery, matcher: Matcher, driverCost: number): QueryResult | undefined {
  const include = q.search?.include;
  if (!include || include.length === 0) return undefined;
  const t = st.table;
  const cand = searchIndexOf(st).candidates(t, include, driverCost);
  if (!cand) return undefined;
  const match = matcher.match;
  const hits: number[] = [];
  for (let i = 0; i < cand.length; i++) if (match(cand[i])) hits.push(cand[i]);
  const offset = Math.max(0, q.offset), end = offset + Math.max(0, q.limit);
  const total = hits.length;
  if (offset >= total || end <= offset) return { rows: [], total };
  const starts = t.starts, ids = t.ids;
  const before = (r: number, s: number) => starts[r] < starts[s] || (starts[r] === starts[s] && ids[r] < ids[s]);
  if (end * 8 >= total) {
    hits.sort((r, s) => (before(r, s) ? -1 : before(s, r) ? 1 : 0));
    return { rows: hits.slice(offset, end), total };
  }
  // keep the first `end` rows in order: a sorted buffer, insertion from the back
  const top: number[] = [];
  for (let i = 0; i < total; i++) {
    const row = hits[i];
    if (top.length === end && !before(row, top[end - 1])) continue;
    let j = top.length === end ? end - 1 : top.length;
    while (j > 0 && before(row, top[j - 1])) {
      top[j] = top[j - 1];
      j--;
    }
    top[j] = row;
  }
  return { rows: top.slice(offset, end), total };
}
