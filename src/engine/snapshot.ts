// Snapshot chunks: a header (version, id counters, string pools, the small tables), the title
// dictionary in titles chunks, then events in columnar chunks of at most EVENT_CHUNK_ROWS rows
// whose columns are base64 text of typed arrays (snapshot-format.ts): loading
// (snapshot-decode.ts) decodes their bytes into the columns, and finds the rows already sorted.

import type { CostColumn } from './cost-column.ts';
import type { EventTable, LinkLists } from './event-table.ts';
import type { RecurInfo } from './records.ts';
import type { CalendarState } from './state.ts';
import type { TextView } from './text-view.ts';
import { base64Of, chunkTexts } from './snapshot-bytes.ts';
import { dateCopies, encodeDates, type DateCopy } from './snapshot-dates.ts';
import {
  COSTS_AT,
  costLists,
  DATES_AT,
  type Gatherable,
  type GatherSource,
  gatherSources,
  LINKS_AT,
  OrderedGather,
  WINDOW_ROWS,
} from './snapshot-gather.ts';
import { capturePostings, postingLines } from './snapshot-indexes.ts';
import type { ColumnPostings } from './snapshot-postings.ts';
import { captureExtras, extraChunks, type Extras } from './snapshot-words.ts';
import { ChunkTextsWorker, postingsLater, sharedCopy, snapshotWorkersFor } from './snapshot-workers.ts';
import {
  linkCounts,
  linkListChunks,
  linkNumbering,
  linkRowsOf,
  wholePool,
  type LinkNumbering,
} from './snapshot-links.ts';
import {
  EVENT_CHUNK_ROWS,
  INT_FIELDS,
  LINK_FIELDS,
  SNAPSHOT_VERSION,
  TITLE_CHUNK_SIZE,
  type EventChunk,
  type IntField,
  type LinkField,
  type SnapshotHeader,
  type TitlesChunk,
} from './snapshot-format.ts';

export { EVENT_CHUNK_ROWS, SNAPSHOT_VERSION } from './snapshot-format.ts';
export { decodeSnapshot } from './snapshot-decode.ts';

/** The table as it was at one instant: column copies that later writes cannot touch. */
interface Frozen {
  count: number;
  ints: Record<IntField, Int32Array | Uint8Array>;
  dates: DateCopy[];
  /** the rows' texts as they were (a frozen view, or the live store read at once) */
  texts: TextView;
  costs: CostColumn;
  lineages: Map<number, string[]>;
  extraVenues: Map<number, readonly number[]>;
  links: Record<LinkField, LinkLists>;
  /** the link lists' numbers in the snapshot's link-lists lines (none: the pool's own) */
  linkNumbers?: Int32Array;
  recur: Map<number, RecurInfo>;
  /** the rows in the order they are written (the main index's (start, id) order); none: 0, 1, ... */
  order?: Int32Array;
  /** the typed columns the events chunks read, and those read in `order` (made by the first chunk) */
  sources?: GatherSource[];
  gather?: OrderedGather;
  /** the word index and block statistics, written after the events (snapshot-words.ts) */
  extras?: Extras;
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
 * for each row (docs/store.md, "Start-up"). The posting lists follow the rows (snapshot-indexes.ts)
 * unless `withPostings` is false (the indexes are not built).
 */
export function encodeSnapshot(st: CalendarState, withPostings = true): Iterable<unknown> {
  const t = st.table;
  const n = t.count;
  const ints = {} as Frozen['ints'];
  for (const f of INT_FIELDS) ints[f] = t[f].slice(0, n);
  const links = {} as Frozen['links'];
  for (const f of LINK_FIELDS) links[f] = t[f].freeze(n);
  const frozen: Frozen = {
    count: n,
    ints,
    dates: dateCopies(t, n, true),
    texts: t.texts.freeze(n),
    costs: t.costs.freeze(n),
    lineages: new Map(t.lineages),
    extraVenues: new Map(t.extraVenues),
    links,
    recur: new Map(t.recur),
    order: indexOrder(st),
  };
  // each row's place in the events chunks, for the lines that name rows by it
  const positions = frozen.order && positionsOf(frozen.order);
  frozen.extras = captureExtras(st, positions);
  const postings = withPostings ? capturePostings(st, positions) : [];
  return chunksOf(snapshotHeader(st), frozen, postings);
}

/** The inverse of a permutation: each row's position in `order`. */
function positionsOf(order: Int32Array): Int32Array {
  const pos = new Int32Array(order.length);
  for (let i = 0; i < order.length; i++) pos[order[i]] = i;
  return pos;
}

/**
 * The rows in the main index's order, when the index holds every row of the table exactly once
 * (it does, unless a bulk load left it to be built); else undefined (table order). `copy`: false
 * when nothing writes to the state while the order is read (the index's own array is used).
 */
function indexOrder(st: CalendarState, copy = true): Int32Array | undefined {
  const n = st.table.count,
    main = st.main;
  if (main.count !== n || n === 0) return undefined;
  const order = copy ? main.rows.slice(0, n) : main.rows.subarray(0, n);
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
    titles: t.texts.titleCount,
    textBytes: t.texts.liveBytes,
  };
}

/** The snapshot's chunks other than its events chunks (the header, the title dictionary, the
 *  posting lists), for the state as it is now, whose rows are the events chunks' in table order. */
export function snapshotHead(st: CalendarState): unknown[] {
  return [...headChunks(snapshotHeader(st), st.table.texts, wholePool(st.table.idLists)), ...capturePostings(st)];
}

/**
 * The events chunk of rows [from, to) of `t` as it is now (read at once, nothing copied first):
 * for a table whose rows will be the calendar's rows from 0 on, such as an import's staging table
 * into an empty calendar (whose text store, and so its title dictionary, the calendar then takes
 * over), whose chunks are written while the import goes on. Chunks begin at multiples of
 * EVENT_CHUNK_ROWS, as encodeSnapshot's do; the chunk is the one encodeSnapshot makes of those rows,
 * but that its rows' link lists keep their numbers in the pool (snapshotHead writes all of it).
 */
export function encodeRows(t: EventTable, from: number, to: number): unknown {
  return encodeChunk(liveColumns(t), from, to);
}

/** The table's columns as they are (nothing copied): for chunks made while nothing writes to it. */
function liveColumns(t: EventTable): Frozen {
  const ints = {} as Frozen['ints'];
  for (const f of INT_FIELDS) ints[f] = t[f];
  const links = {} as Frozen['links'];
  for (const f of LINK_FIELDS) links[f] = t[f];
  return {
    count: t.count,
    ints,
    dates: dateCopies(t, t.count, false),
    texts: t.texts,
    costs: t.costs,
    lineages: t.lineages,
    extraVenues: t.extraVenues,
    links,
    recur: t.recur,
  };
}

/**
 * encodeSnapshot's chunks of a state nothing writes to while they are made (an import alone, into
 * an empty calendar, streaming its snapshot): read from the live columns, nothing copied (at ten
 * million events the copies would be ~1 GiB). `head`: the header and the title dictionary;
 * `body`: the events chunks in the main index's (start, id) order, the posting lines and the
 * block statistics (and the word index, when there is one), made one by one as iterated. The
 * main index must be built (it holds every row); `listsBuilt` false: the posting lists are not,
 * and their lines are made from the columns (snapshot-postings.ts). For a large table the events
 * chunks' texts and those lists are made on worker threads (snapshot-workers.ts) while this one
 * makes the rest of each chunk: the same chunks either way.
 */
export function liveSnapshot(
  st: CalendarState,
  listsBuilt = true,
  workers = startSnapshotWorkers(st, listsBuilt),
): { head: unknown[]; body: AsyncIterable<unknown> } {
  const fz = liveColumns(st.table);
  // the order the workers were started with (in shared memory), else the main index's rows
  const order = workers?.order ?? indexOrder(st, false);
  fz.order = order;
  const positions = order && positionsOf(order);
  fz.extras = captureExtras(st, positions);
  const lines = listsBuilt || !order ? capturePostings(st, positions) : undefined;
  const later = lines === undefined ? (workers?.postings ?? postingsLater(st, order!)) : undefined;
  const postings = async (): Promise<Iterable<unknown>> => {
    if (lines) return lines;
    // the posting lines, then the large lists' block statistics (snapshot-list-stats.ts)
    const made = await later!();
    return (function* () {
      yield* postingLines(made.captured);
      yield* made.stats;
    })();
  };
  const texts = workers?.texts;
  // the whole pool under its own numbers (an import's lists are all some row's), as snapshotHead
  return {
    head: [...headChunks(snapshotHeader(st), fz.texts, wholePool(st.table.idLists))],
    body: streamedBody(fz, postings, texts),
  };
}

/** The worker threads of a large streamed snapshot (snapshot-workers.ts): liveSnapshot's. */
interface SnapshotWorkers {
  /** the rows in the main index's order, as the workers read them (a copy in shared memory) */
  order: Int32Array;
  /** the posting lists made from the columns (none: the lists are built) */
  postings?: () => Promise<ColumnPostings>;
  texts?: ChunkTextsWorker;
}

/**
 * liveSnapshot's workers, started once the main index holds every row (an import starts them
 * before the block statistics are made, which they do not read): undefined below the settings'
 * minRows or where no worker can start. `listsBuilt`: as liveSnapshot's.
 */
export function startSnapshotWorkers(st: CalendarState, listsBuilt: boolean): SnapshotWorkers | undefined {
  // the size first: below it (or with no workers here) liveSnapshot reads the order itself
  if (!snapshotWorkersFor(st.table.count)) return undefined;
  const order = indexOrder(st, false);
  if (order === undefined) return undefined;
  const shared = sharedCopy(order); // once in shared memory, for both
  return {
    order: shared,
    ...(!listsBuilt && { postings: postingsLater(st, shared) }),
    texts: ChunkTextsWorker.start(st.table.texts, shared, EVENT_CHUNK_ROWS),
  };
}

function* bodyOf(fz: Frozen, postings: Iterable<unknown>): Generator<unknown> {
  for (let from = 0; from < fz.count; from += EVENT_CHUNK_ROWS)
    yield encodeChunk(fz, from, Math.min(fz.count, from + EVENT_CHUNK_ROWS));
  yield* afterEvents(fz, postings);
}

/** bodyOf, the chunks' texts taken from `texts` when given (undefined once it failed: made here). */
async function* streamedBody(
  fz: Frozen,
  postings: () => Promise<Iterable<unknown>>,
  texts: ChunkTextsWorker | undefined,
): AsyncGenerator<unknown> {
  try {
    for (let from = 0; from < fz.count; from += EVENT_CHUNK_ROWS) {
      const to = Math.min(fz.count, from + EVENT_CHUNK_ROWS);
      yield encodeChunk(fz, from, to, await texts?.take(from, to));
    }
  } finally {
    texts?.close();
  }
  yield* afterEvents(fz, await postings());
}

/** The chunks after the events: the posting lines, the block statistics, the word index. */
function* afterEvents(fz: Frozen, postings: Iterable<unknown>): Generator<unknown> {
  yield* postings;
  if (fz.extras) yield* extraChunks(fz.extras, fz.count);
}

function* chunksOf(header: SnapshotHeader, fz: Frozen, postings: Iterable<unknown>): Generator<unknown> {
  // the lists the rows use, once (numbered here, not at the capture: the pool's lists never change)
  const pool = linkNumbering(fz.links, fz.count);
  fz.linkNumbers = pool.numbers;
  yield* headChunks(header, fz.texts, pool);
  yield* bodyOf(fz, postings);
}

/** The chunks before the events: the header (given the link lists' counts), the title
 *  dictionary, the link lists written. */
function* headChunks(header: SnapshotHeader, texts: TextView, pool: LinkNumbering): Generator<unknown> {
  linkCounts(header, pool);
  yield header;
  yield* titleChunks(texts, header.titles ?? 0);
  yield* linkListChunks(pool);
}

/** The title dictionary's first `count` titles, TITLE_CHUNK_SIZE to a chunk. */
function titleChunks(texts: TextView, count: number): TitlesChunk[] {
  const out: TitlesChunk[] = [];
  for (let from = 0; from < count; from += TITLE_CHUNK_SIZE)
    out.push({ type: 'titles', from, titles: texts.titleRange(from, Math.min(count, from + TITLE_CHUNK_SIZE)) });
  return out;
}

/** The events chunk (version 3) of positions [from, to); `made`: its texts, made elsewhere. */
function encodeChunk(fz: Frozen, from: number, to: number, made?: { bytes: string; ends: string }): EventChunk {
  const n = to - from;
  // the table rows of the chunk's positions, and their typed columns' values in chunk order
  let at: Int32Array;
  let values: (k: number) => Gatherable;
  const sources = (fz.sources ??= gatherSources(fz));
  if (fz.order) {
    at = fz.order.subarray(from, to);
    const g = (fz.gather ??= new OrderedGather(sources, fz.order, WINDOW_ROWS));
    values = (k) => g.take(k, from, to);
  } else {
    at = new Int32Array(n);
    for (let i = 0; i < n; i++) at[i] = from + i;
    values = (k) => sources[k].src.subarray(from, to);
  }
  const ints = {} as Record<IntField, string>;
  INT_FIELDS.forEach((f, k) => {
    ints[f] = base64Of(values(k));
  });
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
  const costs = costLists(fz.costs, values(COSTS_AT));
  const linkRows = {} as Record<LinkField, string>;
  LINK_FIELDS.forEach((f, k) => {
    linkRows[f] = linkRowsOf(values(LINKS_AT + k) as Int32Array, fz.linkNumbers);
  });
  const texts = made ?? chunkTexts(fz.texts, at);
  return {
    type: 'events',
    from,
    count: n,
    ints,
    ...encodeDates(fz.dates, at, (fi) => values(DATES_AT + fi)),
    texts: {
      bytes: texts.bytes,
      ends: texts.ends,
      ...(fz.texts.symbolTable && { symbols: fz.texts.symbolTable.text }),
    },
    costs: { lists: costs.lists.map((l) => l.slice()), rows: base64Of(costs.rows) },
    linkRows,
    lineages,
    extraVenues,
    ...(recur.length > 0 ? { recur } : {}),
  };
}
