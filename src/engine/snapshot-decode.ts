// Loading a snapshot's chunks (versions 1, 2 and 3, snapshot-format.ts) into an empty state: the
// columns filled from the chunks (version 3: their bytes decoded into place), the ids
// registered, the indexes built once at the end.

import type { EventTable, LinkColumn } from './event-table.ts';
import type { CalendarState } from './state.ts';
import { rebuildMain, rebuildPostings } from './index-rebuild.ts';
import { dropSearchIndex } from './search-index.ts';
import { PostingsReader } from './snapshot-indexes.ts';
import { ExtrasReader } from './snapshot-words.ts';
import { base64Bytes, decodeInto, decodeNew } from './snapshot-bytes.ts';
import { loadDates } from './snapshot-dates.ts';
import { checkLinkLists, loadLinkLists, loadLinkRows, reserveLinks } from './snapshot-links.ts';
import {
  DATE_BASE,
  DATE_FIELDS,
  INT_FIELDS,
  intWidth,
  LINK_FIELDS,
  TEXT_FIELDS,
  type EventChunk,
  type EventChunkV1,
  type EventChunkV2,
  type LinkListsChunk,
  type ListColumn,
  type SnapshotHeader,
  type TitlesChunk,
} from './snapshot-format.ts';

/** Fill an empty state from encodeSnapshot() output (after JSON round trip or not); reads versions 1, 2 and 3. */
export function decodeSnapshot(st: CalendarState, chunks: Iterable<unknown>): void {
  const t = st.table;
  if (t.count !== 0 || st.entities.venues.byId.size !== 0 || st.entities.terms.size !== 0) {
    throw new Error(`snapshot load: expected an empty engine, got ${t.count} events`);
  }
  let header: SnapshotHeader | undefined;
  const postings = new PostingsReader();
  const extras = new ExtrasReader();
  for (const raw of chunks) {
    const chunk = raw as SnapshotHeader | EventChunk | EventChunkV1 | EventChunkV2 | TitlesChunk | LinkListsChunk;
    if (!header) {
      if (chunk.type !== 'calendar-engine-snapshot' || ![1, 2, 3].includes(chunk.version)) {
        throw new Error(
          `snapshot load: expected a version 1, 2 or 3 header first, got ${JSON.stringify((chunk as { type?: unknown }).type)} v${(chunk as { version?: unknown }).version}`,
        );
      }
      header = chunk;
      loadHeader(st, header);
      continue;
    }
    if (chunk.type === 'titles' && header.version === 3 && t.count === 0) {
      loadTitles(t, chunk, header);
      continue;
    }
    if (chunk.type === 'link-lists' && header.version === 3 && t.count === 0) {
      loadLinkLists(t.idLists, chunk, header);
      continue;
    }
    if (header.version === 3 && postings.take(chunk)) continue;
    // the word index and block statistics, after every row (snapshot-words.ts)
    if (header.version === 3 && t.count === header.eventCount && extras.take(raw as { type?: unknown }, t.count))
      continue;
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
    else if (header.version === 2) loadChunkV2(st, chunk as EventChunkV2);
    else {
      if (t.count === 0) {
        checkTitles(t, header);
        checkLinkLists(t.idLists, header);
      }
      loadChunkV3(st, chunk as EventChunk);
      // the first rows' share of the lists they interned (none when they are numbered in link-lists lines)
      if (chunk.from === 0 && (chunk as EventChunk).linkRows === undefined)
        t.idLists.expect(header.eventCount / chunk.count);
    }
    registerRows(st, chunk.from, chunk.from + chunk.count);
  }
  if (!header) throw new Error('snapshot load: expected a header chunk, got nothing');
  if (t.count !== header.eventCount)
    throw new Error(`snapshot load: expected ${header.eventCount} events, got ${t.count}`);
  if (header.version === 3 && t.count === 0) {
    checkTitles(t, header);
    checkLinkLists(t.idLists, header);
  }
  t.texts.settle();
  // the plain-array columns grew by appends and keep their slack (up to a third of their
  // capacity; +27 bytes/event at a million): trimming them by copying cost ~0.35 s of the load
  rebuildMain(st);
  if (!postings.install(st)) rebuildPostings(st);
  // the search index and block statistics the snapshot holds; else the first search builds it, or
  // Engine.warmInBackground() (the calendar starts that once its store is open)
  dropSearchIndex(st);
  extras.install(st);
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
  // a hint only (records are checked as they come): at most 4 GiB, the text store's limit
  const textBytes = h.textBytes;
  if (h.version === 3 && Number.isSafeInteger(textBytes) && textBytes! > 0 && textBytes! < 2 ** 32)
    t.texts.reserveBytes(textBytes!);
  if (h.eventCount > 0) st.ids.reserve(h.nextPostId);
  if (h.version === 3) reserveLinks(t.idLists, h);
}

function expectLength(what: string, got: { length: number } | undefined, n: number): void {
  if (!got || got.length !== n) throw new Error(`snapshot load: expected ${n} values of ${what}, got ${got?.length}`);
}

/** The ids of the rows go into the id registry (slugs are looked up through it lazily). */
function registerRows(st: CalendarState, from: number, to: number): void {
  const t = st.table;
  st.ids.setEventRows(t.ids, from, to);
  if (st.ids.tracksSlugs) for (let r = from; r < to; r++) st.ids.setEventSlug(r, undefined, t.slug(r));
  st.table.count = to;
}

/** A chunk's texts into rows [from, from + n) of the table's text store. */
function copyTexts(t: EventTable, c: EventChunkV2 | EventChunkV1, from: number, n: number): void {
  for (const f of TEXT_FIELDS) expectLength(f, c[f], n);
  expectLength('websites', c.websites, n);
  t.texts.setRows(from, n, c.titles, c.descriptions, c.excerpts, c.slugs, c.websites);
}

/** A version 3 titles chunk: the next titles of the dictionary. */
function loadTitles(t: EventTable, c: TitlesChunk, h: SnapshotHeader): void {
  if (!Array.isArray(c.titles) || c.from + c.titles.length > (h.titles ?? 0))
    throw new Error(`snapshot load: expected at most ${h.titles} titles, got a titles chunk past them at ${c.from}`);
  t.texts.appendTitles(c.titles, c.from);
}

/** Before a version 3 snapshot's rows: the whole title dictionary is there. */
function checkTitles(t: EventTable, h: SnapshotHeader): void {
  if (t.texts.titleCount !== h.titles)
    throw new Error(`snapshot load: expected ${h.titles} titles before the events, got ${t.texts.titleCount}`);
}

/** Per-row lists of a version 3 chunk: the distinct lists (values and ends), each interned in the
 *  table's pool once, and 0 or 1 + the index of its list per row. */
function numberLists(
  what: string,
  dst: LinkColumn,
  col: { values: string; ends: string; rows: string } | undefined,
  from: number,
  n: number,
): void {
  if (typeof col !== 'object' || col === null) throw new Error(`snapshot load: expected the ${what} lists, got none`);
  const k = base64Bytes(typeof col.ends === 'string' ? col.ends : '') / 4;
  const ends = decodeNew(`${what}.ends`, col.ends, k, (m) => new Int32Array(m));
  const total = k > 0 ? ends[k - 1] : 0;
  const values = decodeNew(`${what}.values`, col.values, total, (m) => new Int32Array(m));
  const rows = decodeNew(`${what}.rows`, col.rows, n, (m) => new Int32Array(m));
  const shared = new Int32Array(k + 1);
  let at = 0;
  for (let j = 0; j < k; j++) {
    const end = ends[j];
    if (!(end > at && end <= total))
      throw new Error(
        `snapshot load: expected non-empty ${what} lists within ${total} values, got one ending at ${end}`,
      );
    shared[j + 1] = dst.pool.intern(values.subarray(at, end));
    at = end;
  }
  const lists = dst.lists; // typed arrays only here: placeRows' loop also serves arrays of lists
  for (let i = 0; i < n; i++) {
    const r = rows[i];
    if (!(r >= 0 && r <= k)) throw new Error(`snapshot load: expected a ${what} list index < ${k + 1}, got ${r}`);
    lists[from + i] = shared[r];
  }
}

function loadChunkV3(st: CalendarState, c: EventChunk): void {
  const t = st.table;
  const from = c.from,
    n = c.count;
  t.reserve(from + n);
  if (typeof c.ints !== 'object' || c.ints === null)
    throw new Error('snapshot load: expected ints in the events chunk');
  for (const f of INT_FIELDS) {
    const col = t[f];
    if (col.BYTES_PER_ELEMENT === intWidth(f)) decodeInto(f, c.ints[f], col, from, n);
    else {
      const w = intWidth(f);
      col.set(
        decodeNew(f, c.ints[f], n, (m) => (w === 1 ? new Uint8Array(m) : new Int32Array(m))),
        from,
      );
    }
  }
  loadDates(t, c, from, n);
  if (typeof c.texts !== 'object' || c.texts === null) throw new Error('snapshot load: expected the texts of the rows');
  t.texts.appendRecords(
    from,
    n,
    c.texts.bytes,
    decodeNew('texts.ends', c.texts.ends, n, (m) => new Uint32Array(m)),
    c.texts.symbols,
  );
  for (let i = 0; i < n; i++) {
    t.setLineage(from + i, undefined);
    if (t.folded.size > 0) t.folded.delete(from + i);
  }
  for (const [i, l] of c.lineages) t.lineages.set(from + i, l);
  for (const [i, v] of c.extraVenues) t.extraVenues.set(from + i, v);
  for (const [i, info] of c.recur ?? []) t.recur.set(from + i, info);
  if (c.recur?.length) t.recurVersion++;
  if (typeof c.costs !== 'object' || c.costs === null) throw new Error('snapshot load: expected the costs lists');
  costsOf(
    t,
    { lists: c.costs.lists, rows: decodeNew('costs.rows', c.costs.rows, n, (m) => new Int32Array(m)) },
    from,
    n,
  );
  if (c.linkRows !== undefined) {
    if (typeof c.linkRows !== 'object' || c.linkRows === null)
      throw new Error('snapshot load: expected the link list numbers of the rows');
    for (const f of LINK_FIELDS) loadLinkRows(f, t[f], c.linkRows[f], from, n);
  } else for (const f of LINK_FIELDS) numberLists(f, t[f], c.links?.[f], from, n);
}

function loadChunkV2(st: CalendarState, c: EventChunkV2): void {
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
    const col = t[f],
      src = c.dates[f],
      b = DATE_BASE[fi];
    expectLength(`dates.${f}`, src, n);
    const base = b < 0 ? undefined : t[DATE_FIELDS[b]],
      baseSrc = b < 0 ? undefined : c.dates[DATE_FIELDS[b]];
    for (let i = 0; i < n; i++) {
      const v = src[i];
      const rel = base !== undefined && baseSrc![i] !== null;
      col.put(from + i, v === null ? NaN : rel ? base.at(from + i) + v * 1000 : v * 1000);
    }
  }
  for (const [fi, i, v] of c.oddDates) {
    const col = t[DATE_FIELDS[fi]];
    if (typeof v === 'number') col.put(from + i, v);
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
  costsOf(t, c.costs, from, n);
  for (const f of LINK_FIELDS) linkListsOf(f, t[f], c.links[f], from, n);
}

/** listsOf for a link column: each of the chunk's lists interned in the table's pool once. */
function linkListsOf(what: string, dst: LinkColumn, col: ListColumn<number>, from: number, n: number): void {
  expectLength(`${what}.rows`, col?.rows, n);
  const shared = [0];
  for (const list of col.lists) {
    if (!Array.isArray(list) || list.length === 0)
      throw new Error(`snapshot load: expected non-empty ${what} lists, got ${JSON.stringify(list)}`);
    shared.push(dst.pool.intern(list));
  }
  placeRows(what, shared, col.rows, dst.lists, from, n);
}

/** The cost lists of a chunk's rows: the chunk's distinct lists, numbered in the table's
 *  interner, and per row 0 (none) or 1 + the index of its list. */
function costsOf(t: EventTable, col: { lists: unknown; rows: ArrayLike<number> }, from: number, n: number): void {
  expectLength('costs.rows', col?.rows, n);
  if (!Array.isArray(col.lists)) throw new Error('snapshot load: expected the distinct costs lists');
  const shared = [0];
  for (const list of col.lists) {
    if (!Array.isArray(list) || list.length === 0 || !list.every((s) => typeof s === 'string'))
      throw new Error(`snapshot load: expected non-empty costs lists of strings, got ${JSON.stringify(list)}`);
    shared.push(t.costLists.number(list));
  }
  const rows = col.rows;
  for (let i = 0; i < n; i++) {
    const k = shared[rows[i]];
    if (k === undefined)
      throw new Error(`snapshot load: expected a costs list index < ${shared.length}, got ${rows[i]}`);
    t.costs.setNumber(from + i, k);
  }
}

/** dst[from + i] = shared[rows[i]] for the chunk's n rows: each row's list by its index in the
 *  chunk's distinct lists (0: none). */
function placeRows<T>(
  what: string,
  shared: readonly T[],
  rows: ArrayLike<number>,
  dst: { [row: number]: T },
  from: number,
  n: number,
): void {
  for (let i = 0; i < n; i++) {
    const list = shared[rows[i]];
    if (list === undefined)
      throw new Error(`snapshot load: expected a ${what} list index < ${shared.length}, got ${rows[i]}`);
    dst[from + i] = list;
  }
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
    const col = t[f],
      src = c.dates[f];
    expectLength(`dates.${f}`, src, n);
    for (let i = 0; i < n; i++) {
      const v = src[i];
      col.put(from + i, v === null ? NaN : v);
    }
  });
  for (const [fi, i, s] of c.oddDates) t[DATE_FIELDS[fi]].odd.set(from + i, s);
  copyTexts(t, c, from, n);
  expectLength('costs', c.costs, n);
  for (let i = 0; i < n; i++) {
    t.costs.set(from + i, c.costs[i]);
    t.setLineage(from + i, undefined);
    if (t.folded.size > 0) t.folded.delete(from + i);
  }
  for (const [i, l] of c.lineages) t.lineages.set(from + i, l);
  for (const [i, v] of c.extraVenues) t.extraVenues.set(from + i, v);
  for (const f of LINK_FIELDS) {
    const { counts, ids } = c.links[f],
      col = t[f];
    expectLength(`${f}.counts`, counts, n);
    let at = 0;
    for (let i = 0; i < n; i++) {
      col.lists[from + i] = col.pool.internRange(ids, at, counts[i]);
      at += counts[i];
    }
    if (at !== ids.length) throw new Error(`snapshot load: expected ${at} ${f} values, got ${ids.length}`);
  }
}
