// Snapshot chunks: a header (version, id counters, string pools, the small tables) followed by
// events in columnar chunks of at most EVENT_CHUNK_ROWS rows. Arrays of numbers and strings
// parse far faster than arrays of objects; loading fills the columns directly and sorts once.

import type { DateColumn } from './event-table.ts';
import { EMPTY_IDS } from './event-table.ts';
import type { AttachmentRecord, OrganizerRecord, TermRecord, VenueRecord } from './records.ts';
import type { CalendarState } from './state.ts';
import { rebuildSearchIndex } from './search-index.ts';

export const SNAPSHOT_VERSION = 1;
export const EVENT_CHUNK_ROWS = 50_000;

export interface SnapshotHeader {
  type: 'calendar-engine-snapshot';
  version: number;
  nextPostId: number;
  nextTermId: number;
  eventCount: number;
  pools: { timezone: string[]; abbr: string[]; currencySymbol: string[]; currencyPosition: string[]; currencyCode: string[] };
  venues: VenueRecord[];
  organizers: OrganizerRecord[];
  terms: TermRecord[];
  attachments: AttachmentRecord[];
}

const DATE_FIELDS = ['startLocal', 'endLocal', 'startUtc', 'endUtc', 'date', 'dateUtc', 'modified', 'modifiedUtc'] as const;
type DateField = (typeof DATE_FIELDS)[number];
const INT_FIELDS = ['ids', 'authorIds', 'statusCodes', 'flags', 'imageIds', 'parentIds', 'venueIds', 'timezones', 'abbrs', 'currencySymbols', 'currencyPositions', 'currencyCodes'] as const;
type IntField = (typeof INT_FIELDS)[number];
const LINK_FIELDS = ['organizerIds', 'categoryIds', 'tagIds'] as const;

export interface EventChunk {
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
  links: Record<(typeof LINK_FIELDS)[number], { counts: number[]; ids: number[] }>;
}

export function* encodeSnapshot(st: CalendarState): Generator<unknown> {
  const t = st.table;
  const header: SnapshotHeader = {
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
  yield header;
  for (let from = 0; from < t.count; from += EVENT_CHUNK_ROWS) {
    const to = Math.min(t.count, from + EVENT_CHUNK_ROWS);
    yield encodeChunk(st, from, to);
  }
}

function encodeChunk(st: CalendarState, from: number, to: number): EventChunk {
  const t = st.table;
  const ints = {} as Record<IntField, number[]>;
  for (const f of INT_FIELDS) ints[f] = Array.from(t[f].subarray(from, to));
  const dates = {} as Record<DateField, (number | null)[]>;
  const oddDates: [number, number, string][] = [];
  DATE_FIELDS.forEach((f, fi) => {
    const col: DateColumn = t[f];
    const out = new Array<number | null>(to - from);
    for (let r = from; r < to; r++) {
      const v = col.ms[r];
      if (v === v) out[r - from] = v;
      else {
        out[r - from] = null;
        oddDates.push([fi, r - from, col.get(r)]);
      }
    }
    dates[f] = out;
  });
  const lineages: [number, string[]][] = [];
  const extraVenues: [number, number[]][] = [];
  for (let r = from; r < to; r++) {
    const l = t.lineages[r];
    if (l) lineages.push([r - from, l]);
    const ev = t.extraVenues.get(r);
    if (ev) extraVenues.push([r - from, Array.from(ev)]);
  }
  const links = {} as EventChunk['links'];
  for (const f of LINK_FIELDS) {
    const counts = new Array<number>(to - from);
    const ids: number[] = [];
    for (let r = from; r < to; r++) {
      const list = t[f][r];
      counts[r - from] = list.length;
      for (let i = 0; i < list.length; i++) ids.push(list[i]);
    }
    links[f] = { counts, ids };
  }
  return {
    type: 'events', from, count: to - from, ints, dates, oddDates,
    titles: t.titles.slice(from, to), descriptions: t.descriptions.slice(from, to), excerpts: t.excerpts.slice(from, to),
    slugs: t.slugs.slice(from, to), websites: t.websites.slice(from, to), costs: t.costs.slice(from, to),
    lineages, extraVenues, links,
  };
}

/** Fill an empty state from encodeSnapshot() output (after JSON round trip or not). */
export function decodeSnapshot(st: CalendarState, chunks: Iterable<unknown>): void {
  const t = st.table;
  if (t.count !== 0 || st.entities.venues.byId.size !== 0 || st.entities.terms.size !== 0) {
    throw new Error(`snapshot load: expected an empty engine, got ${t.count} events`);
  }
  let header: SnapshotHeader | undefined;
  for (const raw of chunks) {
    const chunk = raw as SnapshotHeader | EventChunk;
    if (!header) {
      if (chunk.type !== 'calendar-engine-snapshot' || chunk.version !== SNAPSHOT_VERSION) {
        throw new Error(`snapshot load: expected a version ${SNAPSHOT_VERSION} header first, got ${JSON.stringify((chunk as { type?: unknown }).type)} v${(chunk as { version?: unknown }).version}`);
      }
      header = chunk;
      loadHeader(st, header);
      continue;
    }
    if (chunk.type !== 'events') throw new Error(`snapshot load: expected an events chunk, got ${JSON.stringify(chunk.type)}`);
    if (chunk.from !== t.count) throw new Error(`snapshot load: expected a chunk starting at row ${t.count}, got ${chunk.from}`);
    loadChunk(st, chunk);
  }
  if (!header) throw new Error('snapshot load: expected a header chunk, got nothing');
  if (t.count !== header.eventCount) throw new Error(`snapshot load: expected ${header.eventCount} events, got ${t.count}`);
  st.rebuildIndexes();
  rebuildSearchIndex(st);
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
}

function loadChunk(st: CalendarState, c: EventChunk): void {
  const t = st.table;
  const from = c.from, n = c.count, to = from + n;
  t.reserve(to);
  for (const f of INT_FIELDS) {
    const src = c.ints[f];
    if (src.length !== n) throw new Error(`snapshot load: expected ${n} values of ${f}, got ${src.length}`);
    t[f].set(src, from);
  }
  DATE_FIELDS.forEach((f) => {
    const ms = t[f].ms, src = c.dates[f];
    for (let i = 0; i < n; i++) {
      const v = src[i];
      ms[from + i] = v === null ? NaN : v;
    }
  });
  for (const [fi, i, s] of c.oddDates) t[DATE_FIELDS[fi]].odd.set(from + i, s);
  const copy = <T>(dst: T[], src: T[]) => {
    for (let i = 0; i < n; i++) dst[from + i] = src[i];
  };
  copy(t.titles, c.titles);
  copy(t.descriptions, c.descriptions);
  copy(t.excerpts, c.excerpts);
  copy(t.slugs, c.slugs);
  copy(t.websites, c.websites);
  copy(t.costs, c.costs);
  for (let i = 0; i < n; i++) {
    t.lineages[from + i] = undefined;
    t.folded[from + i] = undefined;
  }
  for (const [i, l] of c.lineages) t.lineages[from + i] = l;
  for (const [i, v] of c.extraVenues) t.extraVenues.set(from + i, v);
  for (const f of LINK_FIELDS) {
    const { counts, ids } = c.links[f];
    const dst = t[f];
    let at = 0;
    for (let i = 0; i < n; i++) {
      const k = counts[i];
      if (k === 0) dst[from + i] = EMPTY_IDS;
      else {
        dst[from + i] = ids.slice(at, at + k);
      }
      at += k;
    }
  }
  const ids = t.ids;
  for (let r = from; r < to; r++) {
    st.ids.setPost(ids[r], 'event', r);
    st.ids.setEventSlug(r, undefined, t.slugs[r]);
  }
  t.count = to;
}
