// The posting lists in a version 3 snapshot: what a load would otherwise make anew from the columns
// (index-rebuild.ts rebuildPostings), written as base64 typed-array lines after the rows and read
// straight into place. Per kind (categories, tags, venues, organizers, parents, the category
// closure) one `postings` line lists the lists (id, length, length of its `multi` sublist), then
// `postingRows` lines carry the rows of all its lists one after the other (each list's rows, then
// its multi's), at most POSTING_LINE_ROWS a line. A load checks them (bounds, the main index's
// order, the totals the columns imply) and refuses a damaged line; a snapshot without them (older
// ones) has its lists rebuilt as before.

import type { CalendarState, Postings } from './state.ts';
import { PostingList } from './posting-list.ts';
import { base64Bytes, base64Of, decodeInto, decodeNew } from './snapshot-bytes.ts';

/** the state's posting maps a snapshot carries, by their name in the lines */
export const POSTING_KINDS = {
  category: 'categoryPostings',
  tag: 'tagPostings',
  venue: 'venuePostings',
  organizer: 'organizerPostings',
  parent: 'parentPostings',
  closure: 'categoryClosure',
} as const satisfies Record<string, keyof CalendarState>;
export type Kind = keyof typeof POSTING_KINDS;
const KINDS = Object.keys(POSTING_KINDS) as Kind[];
/** rows a postingRows line holds at most (4 MiB of Int32) */
export const POSTING_LINE_ROWS = 1 << 20;

export interface PostingsChunk {
  type: 'postings';
  kind: Kind;
  /** Int32 per list: its id, its length, the length of its multi sublist (0: none) */
  ids: string;
  counts: string;
  multis: string;
  /** rows of all the postingRows lines of the kind */
  values: number;
}

export interface PostingRowsChunk {
  type: 'postingRows';
  kind: Kind;
  /** position of the line's first row among the kind's values */
  from: number;
  /** Int32 rows (positions in the snapshot's row order) */
  rows: string;
}

/** One kind's lists as captured: their ids, lengths, multi lengths and rows one after the other. */
export interface Captured {
  kind: Kind;
  ids: Int32Array;
  counts: Int32Array;
  multis: Int32Array;
  values: Int32Array;
}

/**
 * The posting lines of the state as it is now (everything copied at once, the lines made when
 * iterated), or none when the main index does not hold every row. `position`: a table row → its
 * row in the snapshot (undefined: the same).
 */
export function capturePostings(st: CalendarState, position?: Int32Array): Iterable<unknown> {
  if (st.main.count !== st.table.count) return [];
  // a stale closure is left out (a load then rebuilds it when first needed)
  const kinds = st.closureDirty ? KINDS.filter((k) => k !== 'closure') : KINDS;
  const captured = kinds.map((kind) => capture(kind, st[POSTING_KINDS[kind]], position));
  return postingLines(captured);
}

/** `position`: each row's place in the snapshot, which the captured rows are (undefined: the row). */
function capture(kind: Kind, postings: Postings, position: Int32Array | undefined): Captured {
  let lists = 0,
    total = 0;
  for (const [, list] of postings.entries()) {
    if (list.count === 0) continue;
    lists++;
    total += list.count + (list.multi?.count ?? 0);
  }
  const ids = new Int32Array(lists),
    counts = new Int32Array(lists),
    multis = new Int32Array(lists),
    values = new Int32Array(total);
  let k = 0,
    at = 0;
  for (const [id, list] of postings.entries()) {
    if (list.count === 0) continue;
    ids[k] = id;
    counts[k] = list.count;
    at = copyRows(values, at, list.rows, list.count, position);
    const m = list.multi?.count ?? 0;
    multis[k++] = m;
    if (m > 0) at = copyRows(values, at, list.multi!.rows, m, position);
  }
  return { kind, ids, counts, multis, values };
}

/** rows[0, n) into out from `at`, each mapped through `position` when there is one; the end. */
function copyRows(out: Int32Array, at: number, rows: Int32Array, n: number, position: Int32Array | undefined): number {
  if (!position) out.set(rows.subarray(0, n), at);
  else for (let j = 0; j < n; j++) out[at + j] = position[rows[j]];
  return at + n;
}

export function* postingLines(captured: Captured[]): Generator<unknown> {
  for (const c of captured) {
    const head: PostingsChunk = {
      type: 'postings',
      kind: c.kind,
      ids: base64Of(c.ids),
      counts: base64Of(c.counts),
      multis: base64Of(c.multis),
      values: c.values.length,
    };
    yield head;
    for (let from = 0; from < c.values.length; from += POSTING_LINE_ROWS) {
      const rows = c.values.subarray(from, Math.min(c.values.length, from + POSTING_LINE_ROWS));
      const line: PostingRowsChunk = { type: 'postingRows', kind: c.kind, from, rows: base64Of(rows) };
      yield line;
    }
  }
}

/** A kind's lists as read: complete once `filled` reaches values.length. */
interface Read {
  ids: Int32Array;
  counts: Int32Array;
  multis: Int32Array;
  values: Int32Array<ArrayBuffer>;
  filled: number;
}

/** The posting lines of a snapshot being loaded, kept until its rows are in (PostingsReader.install). */
export class PostingsReader {
  private readonly kinds = new Map<Kind, Read>();

  /** Takes a postings or postingRows line (true); else false. */
  take(raw: unknown): boolean {
    const c = raw as PostingsChunk | PostingRowsChunk;
    if (c.type !== 'postings' && c.type !== 'postingRows') return false;
    if (!Object.hasOwn(POSTING_KINDS, c.kind))
      throw new Error(`snapshot load: expected a postings kind (${KINDS.join(', ')}), got ${JSON.stringify(c.kind)}`);
    const what = `${c.kind} postings`;
    if (c.type === 'postings') {
      if (this.kinds.has(c.kind)) throw new Error(`snapshot load: expected one ${what} line, got another`);
      const k = base64Bytes(typeof c.ids === 'string' ? c.ids : '') / 4;
      const read: Read = {
        ids: decodeNew(`${what}.ids`, c.ids, k, (m) => new Int32Array(m)),
        counts: decodeNew(`${what}.counts`, c.counts, k, (m) => new Int32Array(m)),
        multis: decodeNew(`${what}.multis`, c.multis, k, (m) => new Int32Array(m)),
        values: new Int32Array(0),
        filled: 0,
      };
      let total = 0;
      for (let j = 0; j < k; j++) {
        const id = read.ids[j],
          n = read.counts[j],
          m = read.multis[j];
        if (!(id > 0 && n > 0 && m >= 0 && m <= n))
          throw new Error(
            `snapshot load: expected ${what} of an id > 0 with 1.. rows, got id ${id}: ${n} rows, ${m} multi`,
          );
        total += n + m;
      }
      if (total !== c.values)
        throw new Error(`snapshot load: expected ${what} of ${c.values} rows in all, the lists hold ${total}`);
      read.values = new Int32Array(total);
      this.kinds.set(c.kind, read);
      return true;
    }
    const read = this.kinds.get(c.kind);
    if (!read) throw new Error(`snapshot load: expected the ${what} line before its rows`);
    if (c.from !== read.filled)
      throw new Error(`snapshot load: expected ${what} rows from ${read.filled}, got a line from ${c.from}`);
    const n = base64Bytes(typeof c.rows === 'string' ? c.rows : '') / 4;
    if (!(n > 0 && read.filled + n <= read.values.length))
      throw new Error(`snapshot load: expected ${what} rows within ${read.values.length}, got ${n} from ${c.from}`);
    decodeInto(`${what}.rows`, c.rows, read.values, read.filled, n);
    read.filled += n; // each row is checked against the row count by install()
    return true;
  }

  /**
   * The lists read into the state (whose rows and main index are loaded), with the term counts
   * they imply; false (nothing changed) when the snapshot did not hold them all. Throws when they
   * are out of the main index's order or do not add up to what the columns hold.
   */
  install(st: CalendarState): boolean {
    for (const kind of KINDS) {
      const read = this.kinds.get(kind);
      if (read ? read.filled !== read.values.length : kind !== 'closure') return false;
    }
    const n = st.main.count;
    // a row's position in the main index (none needed when rows are in the index's order, as a
    // snapshot writes them), and its combination byte
    const { rows: mainRows, combos: mainCombos } = st.main;
    let identity = true;
    for (let i = 0; i < n && identity; i++) identity = mainRows[i] === i;
    const pos = identity ? mainRows : new Int32Array(n);
    if (!identity) for (let i = 0; i < n; i++) pos[mainRows[i]] = i;
    checkTotals(st, this.kinds);
    for (const kind of KINDS) {
      const read = this.kinds.get(kind);
      if (!read) continue;
      const combos = new Uint8Array(read.values.length);
      const v = read.values;
      let at = 0;
      const take = (count: number, what: string): PostingList => {
        const list = new PostingList(0);
        const end = at + count;
        let prev = -1;
        let checked = false;
        if (identity) {
          // rows in the index's order are positions: rising rows, the last below n, need no lookup
          // (a damaged list is checked again below, for the message)
          let i = at;
          for (; i < end; i++) {
            const r = v[i];
            if (r <= prev) break;
            combos[i] = mainCombos[r];
            prev = r;
          }
          checked = i === end && prev < n;
          prev = -1;
        }
        if (!checked)
          for (let i = at; i < end; i++) {
            const r = v[i];
            if (!(r >= 0 && r < n)) throw new Error(`snapshot load: expected ${what} rows below ${n}, got ${r}`);
            const p = pos[r];
            if (p <= prev)
              throw new Error(
                `snapshot load: expected ${what} in the main index's order, got row ${v[i]} after another`,
              );
            prev = p;
            combos[i] = mainCombos[p];
          }
        list.rows = v.subarray(at, at + count);
        list.combos = combos.subarray(at, at + count);
        list.count = count;
        at += count;
        return list;
      };
      const postings = st[POSTING_KINDS[kind]];
      postings.clear();
      for (let j = 0; j < read.ids.length; j++) {
        const id = read.ids[j];
        if (postings.has(id)) throw new Error(`snapshot load: expected one ${kind} list of ${id}, got two`);
        const list = take(read.counts[j], `the ${kind} list of ${id}`);
        if (read.multis[j] > 0) list.multi = take(read.multis[j], `the ${kind} list of ${id}`);
        postings.set(id, list);
      }
    }
    st.closureDirty = !this.kinds.has('closure');
    if (st.closureDirty) st.categoryClosure.clear();
    st.termCounts.clear();
    const codes = st.table.statusCodes;
    for (const postings of [st.categoryPostings, st.tagPostings]) {
      for (const [id, list] of postings.entries()) {
        let published = 0;
        for (let i = 0; i < list.count; i++) if (codes[list.rows[i]] === 0) published++;
        if (published > 0) st.termCounts.set(id, published);
      }
    }
    return true;
  }
}

/** The lists' lengths against the columns: each row is in one list of each distinct id it links. */
function checkTotals(st: CalendarState, kinds: Map<Kind, Read>): void {
  const t = st.table,
    n = t.count,
    pool = t.idLists;
  const distinct = new Int32Array(pool.count).fill(-1);
  const v = pool.values;
  // the distinct ids of pool list k (lists are short: no Set for each of hundreds of thousands)
  const distinctOf = (k: number): number => {
    let d = distinct[k];
    if (d < 0) {
      const a = pool.offsets[k],
        b = pool.offsets[k + 1];
      d = 0;
      for (let i = a; i < b; i++) {
        let j = a;
        while (j < i && v[j] !== v[i]) j++;
        if (j === i) d++;
      }
      distinct[k] = d;
    }
    return d;
  };
  const linked = (lists: Int32Array): number => {
    let sum = 0;
    for (let r = 0; r < n; r++) if (lists[r] !== 0) sum += distinctOf(lists[r]);
    return sum;
  };
  let venues = 0,
    parents = 0;
  for (let r = 0; r < n; r++) {
    if (t.parentIds[r] !== 0) parents++;
    if (t.venueIds[r] !== 0) venues++;
  }
  for (const [row, extra] of t.extraVenues) {
    if (row >= n) continue;
    venues += new Set(extra).size - (t.venueIds[row] !== 0 ? 1 : 0);
  }
  const expected: [Kind, number][] = [
    ['category', linked(t.categoryIds.lists)],
    ['tag', linked(t.tagIds.lists)],
    ['organizer', linked(t.organizerIds.lists)],
    ['venue', venues],
    ['parent', parents],
  ];
  for (const [kind, want] of expected) {
    const read = kinds.get(kind)!;
    let got = 0;
    for (let j = 0; j < read.counts.length; j++) got += read.counts[j];
    if (got !== want)
      throw new Error(`snapshot load: expected ${kind} lists of ${want} rows in all (from the columns), got ${got}`);
  }
}
