// Snapshot chunks: a header (version, id counters, string pools, the small tables) followed by
// events in columnar chunks of at most EVENT_CHUNK_ROWS rows. Arrays of numbers and strings
// parse far faster than arrays of objects; loading fills the columns directly and sorts once.

import { TYPED_COLUMNS, type EventTable, type ListInterner } from './event-table.ts';
import type { AttachmentRecord, OrganizerRecord, RecurInfo, TermRecord, VenueRecord } from './records.ts';
import type { CalendarState } from './state.ts';
import type { TextView } from './text-store.ts';
import { dropSearchIndex } from './search-index.ts';
import { wholeSecondMs } from './naive-time.ts';

/** written by encodeSnapshot; decodeSnapshot reads this one and version 1 */
export const SNAPSHOT_VERSION = 2;
export const EVENT_CHUNK_ROWS = 10_000;

export interface SnapshotHeader {
  type: 'calendar-engine-snapshot';
  version: number;
  nextPostId: number;
  nextTermId: number;
  eventCount: number;
  pools: {
    timezone: string[];
    abbr: string[];
    currencySymbol: string[];
    currencyPosition: string[];
    currencyCode: string[];
  };
  venues: VenueRecord[];
  organizers: OrganizerRecord[];
  terms: TermRecord[];
  attachments: AttachmentRecord[];
}

const DATE_FIELDS = [
  'startLocal',
  'endLocal',
  'startUtc',
  'endUtc',
  'date',
  'dateUtc',
  'modified',
  'modifiedUtc',
] as const;
type DateField = (typeof DATE_FIELDS)[number];
const INT_FIELDS = TYPED_COLUMNS;
type IntField = (typeof INT_FIELDS)[number];
const LINK_FIELDS = ['organizerIds', 'categoryIds', 'tagIds'] as const;
type LinkField = (typeof LINK_FIELDS)[number];
const TEXT_FIELDS = ['titles', 'descriptions', 'excerpts', 'slugs'] as const;
/**
 * Version 2 stores a date as whole seconds relative to another date of the row (small numbers
 * parse faster than 13-digit ones): the base's index in DATE_FIELDS, -1 = absolute.
 */
const DATE_BASE: readonly number[] = [-1, 0, 0, 1, -1, 4, 4, 6];

/** Version 1 events chunk (still read). */
export interface EventChunkV1 {
  type: 'events';
  /** first row of the chunk */
  from: number;
  count: number;
  ints: Record<IntField, number[]>;
  /** naive ms, null where the string is kept in `oddDates` */
  dates: Record<DateField, (number | null)[]>;
  /** [field index in DATE_FIELDS, row within chunk, raw string] */
  oddDates: [number, number, string][];
  titles: string[];
  descriptions: string[];
  excerpts: string[];
  slugs: string[];
  websites: (string | null)[];
  costs: string[][];
  /** [row within chunk, lineage] */
  lineages: [number, string[]][];
  /** [row within chunk, all venue ids] for events with several venues */
  extraVenues: [number, number[]][];
  /** per link kind: count per row, then the ids flattened */
  links: Record<LinkField, { counts: number[]; ids: number[] }>;
}

/**
 * Version 2 events chunk: flat arrays only (no array per row), small numbers.
 * - ints.ids: first id of the chunk, then differences to the previous row's id
 * - dates: whole seconds; DATE_BASE says which are differences to another date of the row
 *   (absolute when that base is null); null = not whole seconds, the value is in oddDates
 * - costs and links: the distinct lists of the chunk, and per row 0 (none) or 1 + the index
 *   of its list (rows share few distinct lists: the table keeps one array per content)
 */
export interface EventChunk {
  type: 'events';
  from: number;
  count: number;
  ints: Record<IntField, number[]>;
  dates: Record<DateField, (number | null)[]>;
  /** [field index in DATE_FIELDS, row within chunk, raw string (not a 'Y-m-d H:i:s' date) or naive ms] */
  oddDates: [number, number, string | number][];
  titles: string[];
  descriptions: string[];
  excerpts: string[];
  slugs: string[];
  websites: (string | null)[];
  costs: ListColumn<string>;
  lineages: [number, string[]][];
  extraVenues: [number, number[]][];
  links: Record<LinkField, ListColumn<number>>;
  /** [row within chunk, recurrence fields] of series and occurrences (absent: none) */
  recur?: [number, RecurInfo][];
}

export interface ListColumn<T> {
  lists: T[][];
  rows: number[];
}

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
  links: Record<LinkField, (readonly number[])[]>;
  recur: Map<number, RecurInfo>;
}

/**
 * The state's snapshot chunks. Everything is captured when this is called (typed columns
 * copied, string and list columns copied by reference: strings are immutable, lists and
 * records are replaced on writes, never edited), so the chunks may be built and stringified
 * later while writes go on: the result is detached from the live state.
 */
export function encodeSnapshot(st: CalendarState): Iterable<unknown> {
  const t = st.table;
  const n = t.count;
  const ints = {} as Frozen['ints'];
  for (const f of INT_FIELDS) ints[f] = t[f].slice(0, n);
  const links = {} as Frozen['links'];
  for (const f of LINK_FIELDS) links[f] = t[f].slice(0, n);
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
  };
  return chunksOf(snapshotHeader(st), frozen);
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

/** Distinct lists of rows [from, to) (by identity: the table shares equal lists) and an index per row. */
function listColumn<T>(col: readonly (readonly T[])[], from: number, to: number, typed: boolean): ListColumn<T> {
  const index = new Map<readonly T[], number>();
  const lists: T[][] = [];
  const rows = (typed ? new Int32Array(to - from) : new Array<number>(to - from)) as number[];
  for (let r = from; r < to; r++) {
    const list = col[r];
    if (list.length === 0) {
      rows[r - from] = 0;
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
    rows[r - from] = k;
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
  const ints = {} as Record<IntField, number[]>;
  for (const f of INT_FIELDS)
    ints[f] = typed ? (fz.ints[f].slice(from, to) as unknown as number[]) : Array.from(fz.ints[f].subarray(from, to));
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
    for (let r = from; r < to; r++) {
      const v = ms[r];
      if (v === v && wholeSecondMs(v)) {
        const bv = base === undefined ? NaN : base[r];
        out[r - from] = bv === bv && wholeSecondMs(bv) ? (v - bv) / 1000 : v / 1000;
      } else {
        out[r - from] = none;
        if (v === v) oddDates.push([fi, r - from, v]);
        else {
          const s = fz.odd[fi].get(r);
          if (s === undefined) throw new Error(`snapshot: expected a stored ${f} string for row ${r}, got none`);
          oddDates.push([fi, r - from, s]);
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
  for (let r = from; r < to; r++) {
    if (hasLineages) {
      const l = fz.lineages.get(r);
      if (l) lineages.push([r - from, l]);
    }
    if (hasExtra) {
      const ev = fz.extraVenues.get(r);
      if (ev) extraVenues.push([r - from, Array.from(ev)]);
    }
    if (hasRecur) {
      const info = fz.recur.get(r);
      if (info) recur.push([r - from, info]);
    }
  }
  const costs = listColumn(fz.costs, from, to, typed);
  const links = {} as EventChunk['links'];
  for (const f of LINK_FIELDS) links[f] = listColumn(fz.links[f], from, to, typed);
  const tx = fz.texts;
  return {
    type: 'events',
    from,
    count: n,
    ints,
    dates,
    oddDates,
    titles: tx.column('titles', from, to),
    descriptions: tx.column('descriptions', from, to),
    excerpts: tx.column('excerpts', from, to),
    slugs: tx.column('slugs', from, to),
    websites: tx.column('websites', from, to),
    costs,
    lineages,
    extraVenues,
    links,
    ...(recur.length > 0 ? { recur } : {}),
  };
}

/** Fill an empty state from encodeSnapshot() output (after JSON round trip or not); reads versions 1 and 2. */
export function decodeSnapshot(st: CalendarState, chunks: Iterable<unknown>): void {
  const t = st.table;
  if (t.count !== 0 || st.entities.venues.byId.size !== 0 || st.entities.terms.size !== 0) {
    throw new Error(`snapshot load: expected an empty engine, got ${t.count} events`);
  }
  let header: SnapshotHeader | undefined;
  for (const raw of chunks) {
    const chunk = raw as SnapshotHeader | EventChunk | EventChunkV1;
    if (!header) {
      if (chunk.type !== 'calendar-engine-snapshot' || (chunk.version !== 1 && chunk.version !== 2)) {
        throw new Error(
          `snapshot load: expected a version 1 or 2 header first, got ${JSON.stringify((chunk as { type?: unknown }).type)} v${(chunk as { version?: unknown }).version}`,
        );
      }
      header = chunk;
      loadHeader(st, header);
      continue;
    }
    if (chunk.type !== 'events')
      throw new Error(`snapshot load: expected an events chunk, got ${JSON.stringify(chunk.type)}`);
    if (chunk.from !== t.count)
      throw new Error(`snapshot load: expected a chunk starting at row ${t.count}, got ${chunk.from}`);
    if (!(Number.isInteger(chunk.count) && chunk.count > 0 && chunk.from + chunk.count <= header.eventCount)) {
      throw new Error(
        `snapshot load: expected a chunk of 1..${header.eventCount - chunk.from} rows at row ${chunk.from}, got ${chunk.count}`,
      );
    }
    if (header.version === 1) loadChunkV1(st, chunk as EventChunkV1);
    else loadChunkV2(st, chunk as EventChunk);
    registerRows(st, chunk.from, chunk.from + chunk.count);
  }
  if (!header) throw new Error('snapshot load: expected a header chunk, got nothing');
  if (t.count !== header.eventCount)
    throw new Error(`snapshot load: expected ${header.eventCount} events, got ${t.count}`);
  // the plain-array columns grew by appends and keep their slack (up to a third of their
  // capacity; +27 bytes/event at a million): trimming them by copying cost ~0.35 s of the load
  st.rebuildIndexes();
  // no search index yet: the first search builds it, or Engine.warmInBackground()
  // (the calendar starts that once its store is open), so start-up does not wait for it
  dropSearchIndex(st);
  st.geo.markDirty();
  if (header.nextPostId > st.ids.nextPostId) st.ids.nextPostId = header.nextPostId;
  if (header.nextTermId > st.ids.nextTermId) st.ids.nextTermId = header.nextTermId;
}

function loadHeader(st: CalendarState, h: SnapshotHeader): void {
  const t = st.table;
  t.pool.timezone.load(h.pools.timezone);
  t.pool.abbr.load(h.pools.abbr);
  t.pool.currencySymbol.load(h.pools.currencySymbol);
  t.pool.currencyPosition.load(h.pools.currencyPosition);
  t.pool.currencyCode.load(h.pools.currencyCode);
  for (const a of h.attachments) {
    st.ids.setPost(a.id, 'attachment');
    st.entities.putAttachment(a);
  }
  for (const term of h.terms) {
    st.ids.seeTermId(term.id);
    st.entities.putTerm(term);
  }
  for (const v of h.venues) {
    st.ids.setPost(v.id, 'venue');
    st.entities.venues.put(v);
  }
  for (const o of h.organizers) {
    st.ids.setPost(o.id, 'organizer');
    st.entities.organizers.put(o);
  }
  t.reserve(h.eventCount);
  if (h.eventCount > 0) st.ids.reserve(h.nextPostId);
}

function expectLength(what: string, got: { length: number } | undefined, n: number): void {
  if (!got || got.length !== n) throw new Error(`snapshot load: expected ${n} values of ${what}, got ${got?.length}`);
}

/** The ids of the rows go into the id registry (slugs are looked up through it lazily). */
function registerRows(st: CalendarState, from: number, to: number): void {
  const t = st.table,
    ids = t.ids;
  for (let r = from; r < to; r++) {
    st.ids.setPost(ids[r], 'event', r);
    st.ids.setEventSlug(r, undefined, t.slug(r));
  }
  st.table.count = to;
}

/** A chunk's texts into rows [from, from + n) of the table's text store. */
function copyTexts(t: EventTable, c: EventChunk | EventChunkV1, from: number, n: number): void {
  for (const f of TEXT_FIELDS) expectLength(f, c[f], n);
  expectLength('websites', c.websites, n);
  t.texts.setRows(from, n, c.titles, c.descriptions, c.excerpts, c.slugs, c.websites);
}

function loadChunkV2(st: CalendarState, c: EventChunk): void {
  const t = st.table;
  const from = c.from,
    n = c.count;
  t.reserve(from + n);
  for (const f of INT_FIELDS) {
    const src = c.ints[f];
    expectLength(f, src, n);
    t[f].set(src, from);
  }
  const ids = t.ids;
  for (let r = from + 1; r < from + n; r++) ids[r] += ids[r - 1];
  for (let fi = 0; fi < DATE_FIELDS.length; fi++) {
    const f = DATE_FIELDS[fi];
    const ms = t[f].ms,
      src = c.dates[f],
      b = DATE_BASE[fi];
    expectLength(`dates.${f}`, src, n);
    if (b < 0) {
      for (let i = 0; i < n; i++) {
        const v = src[i];
        ms[from + i] = v === null ? NaN : v * 1000;
      }
    } else {
      const base = t[DATE_FIELDS[b]].ms,
        baseSrc = c.dates[DATE_FIELDS[b]];
      for (let i = 0; i < n; i++) {
        const v = src[i];
        ms[from + i] = v === null ? NaN : baseSrc[i] === null ? v * 1000 : base[from + i] + v * 1000;
      }
    }
  }
  for (const [fi, i, v] of c.oddDates) {
    const col = t[DATE_FIELDS[fi]];
    if (typeof v === 'number') col.ms[from + i] = v;
    else col.odd.set(from + i, v);
  }
  copyTexts(t, c, from, n);
  for (let i = 0; i < n; i++) {
    t.setLineage(from + i, undefined);
    if (t.folded.size > 0) t.folded.delete(from + i);
  }
  for (const [i, l] of c.lineages) t.lineages.set(from + i, l);
  for (const [i, v] of c.extraVenues) t.extraVenues.set(from + i, v);
  for (const [i, info] of c.recur ?? []) t.recur.set(from + i, info);
  if (c.recur?.length) t.recurVersion++;
  listsOf('costs', t.costs, t.costLists, c.costs, from, n);
  for (const f of LINK_FIELDS) listsOf(f, t[f], t.idLists, c.links[f], from, n);
}

/**
 * Per-row lists out of (distinct lists, index per row). The chunk's rows share its parsed lists;
 * one-element lists (most of them) are shared through the interner's table of singles, longer
 * ones are kept as parsed (interning each chunk's lists again cost ~0.45 s of a 1M-event load; an
 * equal list in two chunks is two arrays, a few MB at a million events).
 */
function listsOf<T extends number | string>(
  what: string,
  dst: (readonly T[])[],
  lists: ListInterner<T>,
  col: ListColumn<T>,
  from: number,
  n: number,
): void {
  expectLength(`${what}.rows`, col?.rows, n);
  const shared: (readonly T[])[] = [lists.empty];
  for (const list of col.lists) {
    if (!Array.isArray(list) || list.length === 0)
      throw new Error(`snapshot load: expected non-empty ${what} lists, got ${JSON.stringify(list)}`);
    shared.push(list.length === 1 ? lists.intern(list) : list);
  }
  const rows = col.rows;
  for (let i = 0; i < n; i++) {
    const list = shared[rows[i]];
    if (list === undefined)
      throw new Error(`snapshot load: expected a ${what} list index < ${shared.length}, got ${rows[i]}`);
    dst[from + i] = list;
  }
}

/** Per-row lists out of (count per row, values flattened), shared through the interner (version 1). */
function flatLists<T extends number | string>(
  what: string,
  dst: (readonly T[])[],
  lists: ListInterner<T>,
  counts: number[],
  values: T[],
  from: number,
  n: number,
): void {
  expectLength(`${what}.counts`, counts, n);
  let at = 0;
  for (let i = 0; i < n; i++) {
    const k = counts[i];
    dst[from + i] = lists.internRange(values, at, k);
    at += k;
  }
  if (at !== values.length) throw new Error(`snapshot load: expected ${at} ${what} values, got ${values.length}`);
}

function loadChunkV1(st: CalendarState, c: EventChunkV1): void {
  const t = st.table;
  const from = c.from,
    n = c.count;
  t.reserve(from + n);
  for (const f of INT_FIELDS) {
    const src = c.ints[f];
    expectLength(f, src, n);
    t[f].set(src, from);
  }
  DATE_FIELDS.forEach((f) => {
    const ms = t[f].ms,
      src = c.dates[f];
    expectLength(`dates.${f}`, src, n);
    for (let i = 0; i < n; i++) {
      const v = src[i];
      ms[from + i] = v === null ? NaN : v;
    }
  });
  for (const [fi, i, s] of c.oddDates) t[DATE_FIELDS[fi]].odd.set(from + i, s);
  copyTexts(t, c, from, n);
  expectLength('costs', c.costs, n);
  for (let i = 0; i < n; i++) {
    t.costs[from + i] = t.costLists.intern(c.costs[i]);
    t.setLineage(from + i, undefined);
    if (t.folded.size > 0) t.folded.delete(from + i);
  }
  for (const [i, l] of c.lineages) t.lineages.set(from + i, l);
  for (const [i, v] of c.extraVenues) t.extraVenues.set(from + i, v);
  for (const f of LINK_FIELDS) flatLists(f, t[f], t.idLists, c.links[f].counts, c.links[f].ids, from, n);
}
