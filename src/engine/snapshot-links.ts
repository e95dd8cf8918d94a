// The link lists' pool in a snapshot (snapshot-format.ts): the distinct lists of organizer,
// category and tag ids once, in link-lists lines before the events, and each row's list as its
// number there (the events lines' `linkRows`). A load appends the lists to the table's pool as they
// are (IdListPool.appendPacked) and copies the rows' numbers into the link columns, instead of
// finding every line's lists in the pool again (at ten million events that took ~8.5 s).

import type { IdListPool, LinkColumn, LinkLists } from './event-table.ts';
import { base64Bytes, base64Of, decodeInto, decodeNew } from './snapshot-bytes.ts';
import {
  LINK_FIELDS,
  LINK_LISTS_CHUNK,
  LINK_VALUES_CHUNK,
  type LinkField,
  type LinkListsChunk,
  type SnapshotHeader,
} from './snapshot-format.ts';

/** The lists of a pool a snapshot writes, and the number each takes there. */
export interface LinkNumbering {
  readonly pool: IdListPool;
  /** the pool's numbers of the lists written, in order: the i-th is numbered i + 1 */
  readonly kept: Int32Array;
  /** a pool number → its number in the snapshot (0: not written); none: the same number */
  readonly numbers?: Int32Array;
  /** the ids the written lists hold in all */
  readonly values: number;
}

/**
 * The lists rows [0, n) of the columns use (each once, in the pool's order), numbered from 1: what
 * a snapshot of them writes. Lists no row uses any more (replaced by writes) are left out.
 */
export function linkNumbering(links: Record<LinkField, LinkLists>, n: number): LinkNumbering {
  const pool = links.organizerIds.pool;
  const used = new Int32Array(pool.count);
  for (const f of LINK_FIELDS) {
    const lists = links[f].lists;
    for (let r = 0; r < n; r++) used[lists[r]] = 1;
  }
  used[0] = 0; // the empty list stays 0
  const o = pool.offsets;
  let m = 0,
    values = 0;
  for (let k = 1; k < used.length; k++) {
    if (used[k] === 0) continue;
    used[k] = ++m;
    values += o[k + 1] - o[k];
  }
  const kept = new Int32Array(m);
  for (let k = 1; k < used.length; k++) if (used[k] !== 0) kept[used[k] - 1] = k;
  return { pool, kept, numbers: m === used.length - 1 ? undefined : used, values };
}

/** Every list of the pool as it is now, under its own number (the pool of a table whose rows are
 *  written as they are, as an import streams them). */
export function wholePool(pool: IdListPool): LinkNumbering {
  const kept = new Int32Array(pool.count - 1);
  for (let i = 0; i < kept.length; i++) kept[i] = i + 1;
  return { pool, kept, values: pool.offsets[pool.count] - pool.offsets[1] };
}

/** The header's counts of the link-lists lines that follow it. */
export function linkCounts(h: SnapshotHeader, ln: LinkNumbering): void {
  h.linkLists = ln.kept.length;
  h.linkValues = ln.values;
}

/** The link-lists lines: the lists written, at most LINK_LISTS_CHUNK lists or (past one list)
 *  LINK_VALUES_CHUNK ids a line. */
export function* linkListChunks(ln: LinkNumbering): Generator<LinkListsChunk> {
  const { pool, kept } = ln;
  for (let i = 0; i < kept.length; ) {
    const o = pool.offsets,
      v = pool.values;
    let j = i,
      total = 0;
    while (j < kept.length && j - i < LINK_LISTS_CHUNK && (j === i || total < LINK_VALUES_CHUNK)) {
      total += o[kept[j] + 1] - o[kept[j]];
      j++;
    }
    const values = new Int32Array(total),
      ends = new Int32Array(j - i);
    let at = 0;
    for (let x = i; x < j; x++) {
      const a = o[kept[x]],
        b = o[kept[x] + 1];
      values.set(v.subarray(a, b), at);
      ends[x - i] = at += b - a;
    }
    yield { type: 'link-lists', from: i + 1, values: base64Of(values), ends: base64Of(ends) };
    i = j;
  }
}

/** A chunk's link list numbers (its rows' values of a link column, in chunk order) as the
 *  snapshot numbers them (`numbers`; none: the pool's own), base64 Int32. */
export function linkRowsOf(lists: Int32Array, numbers: Int32Array | undefined): string {
  if (numbers === undefined) return base64Of(lists);
  const n = lists.length;
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = numbers[lists[i]];
  return base64Of(out);
}

/** The room a header's counts ask for, made at once when they are plausible (they are checked as
 *  the lines come: a count that is wrong is refused before the first events line). */
export function reserveLinks(pool: IdListPool, h: SnapshotHeader): void {
  const lists = h.linkLists,
    values = h.linkValues;
  if (!(Number.isSafeInteger(lists) && Number.isSafeInteger(values))) return;
  if (lists! > 0 && lists! <= 3 * h.eventCount + 65_536 && values! >= lists! && values! < 2 ** 30)
    pool.reserve(1 + lists!, pool.offsets[pool.count] + values!);
}

/** A link-lists line: its lists join the pool, numbered from `from` (the lines come in order). */
export function loadLinkLists(pool: IdListPool, c: LinkListsChunk, h: SnapshotHeader): void {
  const declared = h.linkLists ?? 0;
  if (c.from !== pool.count)
    throw new Error(`snapshot load: expected link lists from ${pool.count}, got a link-lists line from ${c.from}`);
  const bytes = typeof c.ends === 'string' ? base64Bytes(c.ends) : 0;
  const k = bytes / 4;
  if (!(Number.isInteger(k) && k > 0 && c.from + k - 1 <= declared))
    throw new Error(
      `snapshot load: expected 1..${declared - c.from + 1} link lists at ${c.from} (the header's ${declared}), got ${bytes} bytes of ends`,
    );
  const ends = decodeNew('link-lists.ends', c.ends, k, (m) => new Int32Array(m));
  const total = ends[k - 1];
  let at = 0;
  for (let j = 0; j < k; j++) {
    const end = ends[j];
    if (!(end > at && end <= total))
      throw new Error(
        `snapshot load: expected non-empty link lists within ${total} values, got list ${c.from + j} ending at ${end}`,
      );
    at = end;
  }
  const values = decodeNew('link-lists.values', c.values, total, (m) => new Int32Array(m));
  pool.appendPacked(values, ends);
}

/** Before a snapshot's first events line: the pool holds every list its header counts. */
export function checkLinkLists(pool: IdListPool, h: SnapshotHeader): void {
  const want = h.linkLists ?? 0;
  if (pool.count - 1 !== want)
    throw new Error(`snapshot load: expected ${want} link lists before the events, got ${pool.count - 1}`);
}

/** An events line's `linkRows` for one column: each row's list number, decoded into place and
 *  checked against the pool (a number past it is refused, never kept). */
export function loadLinkRows(what: LinkField, dst: LinkColumn, s: unknown, from: number, n: number): void {
  const lists = dst.lists;
  decodeInto(`linkRows.${what}`, s, lists, from, n);
  const max = dst.pool.count;
  for (let r = from; r < from + n; r++) {
    const k = lists[r];
    if (k >= 0 && k < max) continue;
    lists.fill(0, from, from + n);
    throw new Error(`snapshot load: expected a ${what} list number < ${max}, got ${k} at row ${r}`);
  }
}
