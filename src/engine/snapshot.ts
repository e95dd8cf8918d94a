// Snapshot chunks: a header (version, id counters, string pools, the small tables) followed by
// events in columnar chunks of at most EVENT_CHUNK_ROWS rows (snapshot-format.ts). Arrays of
// numbers and strings parse far faster than arrays of objects; loading (snapshot-decode.ts) fills
// the columns directly and sorts once.

import type { EventTable, LinkLists } from './event-table.ts';
import type { RecurInfo } from './records.ts';
import type { CalendarState } from './state.ts';
import type { TextView } from './text-store.ts';
import { wholeSecondMs } from './naive-time.ts';
import {
  DATE_BASE,
  DATE_FIELDS,
  EVENT_CHUNK_ROWS,
  INT_FIELDS,
  LINK_FIELDS,
  SNAPSHOT_VERSION,
  type DateField,
  type EventChunk,
  type IntField,
  type LinkField,
  type ListColumn,
  type SnapshotHeader,
} from './snapshot-format.ts';

export { EVENT_CHUNK_ROWS, SNAPSHOT_VERSION } from './snapshot-format.ts';
export { decodeSnapshot } from './snapshot-decode.ts';

/** The table as it was at one instant: column copies that later writes cannot touch. */
interface Frozen {
  count: number;
  ints: Record<IntField, Int32Array | Uint8Array>;
  ms: Float64Array[];
  odd: Map<number, string>[];
  /** the rows' texts as they were (a frozen view, or the live store read at once) */
  texts: TextView;
  costs: (readonly string[])[];
  lineages: Map<number, string[]>;
  extraVenues: Map<number, readonly number[]>;
  links: Record<LinkField, LinkLists>;
  recur: Map<number, RecurInfo>;
  /** the rows in the order they are written (the main index's (start, id) order); none: 0, 1, ... */
  order?: Int32Array;
}

/**
 * The state's snapshot chunks. Everything is captured when this is called (typed columns
 * copied, string and list columns copied by reference: strings are immutable, lists and
 * records are replaced on writes, never edited), so the chunks may be built and stringified
 * later while writes go on: the result is detached from the live state.
 *
 * The rows are written in the main index's (start, id) order (the order is copied now; each
 * chunk gathers its rows from the copies when it is made): a load then finds the rows sorted and
 * fills the indexes reading every column in order, instead of jumping about the whole table
 * for each row (docs/store.md, "Start-up").
 */
export function encodeSnapshot(st: CalendarState): Iterable<unknown> {
  const t = st.table;
  const n = t.count;
  const ints = {} as Frozen['ints'];
  for (const f of INT_FIELDS) ints[f] = t[f].slice(0, n);
  const links = {} as Frozen['links'];
  for (const f of LINK_FIELDS) links[f] = t[f].freeze(n);
  const frozen: Frozen = {
    count: n,
    ints,
    ms: DATE_FIELDS.map((f) => t[f].ms.slice(0, n)),
    odd: DATE_FIELDS.map((f) => new Map(t[f].odd)),
    texts: t.texts.freeze(n),
    costs: t.costs.slice(0, n),
    lineages: new Map(t.lineages),
    extraVenues: new Map(t.extraVenues),
    links,
    recur: new Map(t.recur),
    order: indexOrder(st),
  };
  return chunksOf(snapshotHeader(st), frozen);
}

/**
 * The rows in the main index's order, when the index holds every row of the table exactly once
 * (it does, unless a bulk load left it to be built); else undefined (table order).
 */
function indexOrder(st: CalendarState): Int32Array | undefined {
  const n = st.table.count,
    main = st.main;
  if (main.count !== n || n === 0) return undefined;
  const order = main.rows.slice(0, n);
  const seen = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const r = order[i];
    if (!(r >= 0 && r < n) || seen[r] !== 0) return undefined;
    seen[r] = 1;
  }
  return order;
}

/** The snapshot's first chunk: counters, pools and the small tables, for the state as it is now. */
export function snapshotHeader(st: CalendarState): SnapshotHeader {
  const t = st.table;
  return {
    type: 'calendar-engine-snapshot',
    version: SNAPSHOT_VERSION,
    nextPostId: st.ids.nextPostId,
    nextTermId: st.ids.nextTermId,
    eventCount: t.count,
    pools: {
      timezone: t.pool.timezone.values.slice(),
      abbr: t.pool.abbr.values.slice(),
      currencySymbol: t.pool.currencySymbol.values.slice(),
      currencyPosition: t.pool.currencyPosition.values.slice(),
      currencyCode: t.pool.currencyCode.values.slice(),
    },
    venues: [...st.entities.venues.values()],
    organizers: [...st.entities.organizers.values()],
    terms: [...st.entities.terms.values()],
    attachments: [...st.entities.attachments.values()],
  };
}

/**
 * The events chunk of rows [from, to) of `t` as it is now (read at once, nothing copied first):
 * for a table whose rows will be the calendar's rows from 0 on, such as an import's staging table
 * into an empty calendar, whose chunks are written while the import goes on. Chunks begin at
 * multiples of EVENT_CHUNK_ROWS, as encodeSnapshot's do. Its lists of numbers are typed arrays
 * (posted to a worker thread as a copy of their bytes): made plain arrays (Array.from: NaN for
 * null, which JSON writes as null), it is the chunk encodeSnapshot makes of those rows.
 */
export function encodeRows(t: EventTable, from: number, to: number): unknown {
  const ints = {} as Frozen['ints'];
  for (const f of INT_FIELDS) ints[f] = t[f];
  const links = {} as Frozen['links'];
  for (const f of LINK_FIELDS) links[f] = t[f];
  return encodeChunk(
    {
      count: t.count,
      ints,
      ms: DATE_FIELDS.map((f) => t[f].ms),
      odd: DATE_FIELDS.map((f) => t[f].odd),
      texts: t.texts,
      costs: t.costs,
      lineages: t.lineages,
      extraVenues: t.extraVenues,
      links,
      recur: t.recur,
    },
    from,
    to,
    true,
  );
}

/** Distinct lists of the rows `at` (by identity: the table shares equal lists) and an index per row. */
function listColumn<T>(col: readonly (readonly T[])[], at: Int32Array, typed: boolean): ListColumn<T> {
  const index = new Map<readonly T[], number>();
  const lists: T[][] = [];
  const n = at.length;
  const rows = (typed ? new Int32Array(n) : new Array<number>(n)) as number[];
  for (let i = 0; i < n; i++) {
    const list = col[at[i]];
    if (list.length === 0) {
      rows[i] = 0;
      continue;
    }
    let k = index.get(list);
    if (k === undefined) {
      k = lists.length + 1;
      index.set(list, k);
      // a typed chunk is posted at once (a copy): the table's own list (shared lists are never
      // changed in place) rather than a copy of it that would be garbage the moment it is posted
      lists.push(typed ? (list as T[]) : list.slice());
    }
    rows[i] = k;
  }
  return { lists, rows };
}

/** listColumn of a link column: its lists by their numbers in the pool. */
function linkColumn(col: LinkLists, at: Int32Array, typed: boolean): ListColumn<number> {
  const index = new Map<number, number>();
  const lists: number[][] = [];
  const n = at.length;
  const rows = (typed ? new Int32Array(n) : new Array<number>(n)) as number[];
  for (let i = 0; i < n; i++) {
    const list = col.lists[at[i]];
    if (list === 0) {
      rows[i] = 0;
      continue;
    }
    let k = index.get(list);
    if (k === undefined) {
      k = lists.length + 1;
      index.set(list, k);
      lists.push(col.pool.list(list));
    }
    rows[i] = k;
  }
  return { lists, rows };
}

function* chunksOf(header: SnapshotHeader, fz: Frozen): Generator<unknown> {
  yield header;
  for (let from = 0; from < fz.count; from += EVENT_CHUNK_ROWS)
    yield encodeChunk(fz, from, Math.min(fz.count, from + EVENT_CHUNK_ROWS));
}

/** `typed`: the number lists as typed arrays (Int32Array, Uint8Array; dates as a Float64Array
 *  with NaN for null), which a worker thread gets by a copy of their bytes (see encodeRows). */
function encodeChunk(fz: Frozen, from: number, to: number, typed = false): EventChunk {
  const n = to - from;
  // the table rows of the chunk's positions
  let at: Int32Array;
  if (fz.order) at = fz.order.subarray(from, to);
  else {
    at = new Int32Array(n);
    for (let i = 0; i < n; i++) at[i] = from + i;
  }
  const ints = {} as Record<IntField, number[]>;
  for (const f of INT_FIELDS) {
    const col = fz.ints[f];
    if (typed) ints[f] = col.slice(from, to) as unknown as number[];
    else {
      const out = new Array<number>(n);
      for (let i = 0; i < n; i++) out[i] = col[at[i]];
      ints[f] = out;
    }
  }
  const ids = ints.ids;
  for (let i = n - 1; i > 0; i--) ids[i] -= ids[i - 1];
  const dates = {} as Record<DateField, (number | null)[]>;
  const oddDates: [number, number, string | number][] = [];
  const none = typed ? NaN : null;
  DATE_FIELDS.forEach((f, fi) => {
    const ms = fz.ms[fi],
      b = DATE_BASE[fi],
      base = b < 0 ? undefined : fz.ms[b];
    const out = (typed ? new Float64Array(n) : new Array<number | null>(n)) as (number | null)[];
    for (let i = 0; i < n; i++) {
      const r = at[i];
      const v = ms[r];
      if (v === v && wholeSecondMs(v)) {
        const bv = base === undefined ? NaN : base[r];
        out[i] = bv === bv && wholeSecondMs(bv) ? (v - bv) / 1000 : v / 1000;
      } else {
        out[i] = none;
        if (v === v) oddDates.push([fi, i, v]);
        else {
          const s = fz.odd[fi].get(r);
          if (s === undefined) throw new Error(`snapshot: expected a stored ${f} string for row ${r}, got none`);
          oddDates.push([fi, i, s]);
        }
      }
    }
    dates[f] = out;
  });
  // a base that is not whole seconds makes its dependants absolute: the decoder sees its null
  const lineages: [number, string[]][] = [];
  const extraVenues: [number, number[]][] = [];
  const recur: [number, RecurInfo][] = [];
  const hasExtra = fz.extraVenues.size > 0,
    hasRecur = fz.recur.size > 0,
    hasLineages = fz.lineages.size > 0;
  for (let i = 0; i < n; i++) {
    const r = at[i];
    if (hasLineages) {
      const l = fz.lineages.get(r);
      if (l) lineages.push([i, l]);
    }
    if (hasExtra) {
      const ev = fz.extraVenues.get(r);
      if (ev) extraVenues.push([i, Array.from(ev)]);
    }
    if (hasRecur) {
      const info = fz.recur.get(r);
      if (info) recur.push([i, info]);
    }
  }
  const costs = listColumn(fz.costs, at, typed);
  const links = {} as EventChunk['links'];
  for (const f of LINK_FIELDS) links[f] = linkColumn(fz.links[f], at, typed);
  const tx = fz.texts;
  return {
    type: 'events',
    from,
    count: n,
    ints,
    dates,
    oddDates,
    titles: gather(at, (r) => tx.title(r)),
    descriptions: gather(at, (r) => tx.description(r)),
    excerpts: gather(at, (r) => tx.excerpt(r)),
    slugs: gather(at, (r) => tx.slug(r)),
    websites: gather(at, (r) => tx.website(r)),
    costs,
    lineages,
    extraVenues,
    links,
    ...(recur.length > 0 ? { recur } : {}),
  };
}

/** col[at[0]], col[at[1]], ... */
function gather<T>(at: Int32Array, get: (row: number) => T): T[] {
  const out = new Array<T>(at.length);
  for (let i = 0; i < at.length; i++) out[i] = get(at[i]);
  return out;
}
