// The search index's query walk: the rows of a query with a search, from the word lists (a
// date window is a position range of each list, per-block counters give totals without visiting
// rows), the overflow of rows written since the build, and the rest of the query's filters.

import { comboOf, COMBOS } from './block-stats.ts';
import type { EventTable } from './event-table.ts';
import { andRows, denseBits, isDense, passingBits } from './search-dense.ts';
import { buildMatcher, endPasses, endsOutside, endsWithin, startRangeOf, type Matcher } from './matcher.ts';
import { searchIndexOf, searchIndexStale, type Constraint, type SearchIndex } from './search-index.ts';
import { blocksOf, constraint, countWindow } from './search-windows.ts';
import { BLOCK_SHIFT, COUNTED_MIN, fieldsHold, isWordOnly, wordPieces } from './search-words.ts';
import type { CalendarState } from './state.ts';
import type { EventQuery, QueryResult } from './types.ts';

/** Rows of one constraint as a bit set (bits of words [lo, hi) may be set), and whether a row
 *  must be in it (an include) or not (an exclude). */
interface RowTest {
  bits: Int32Array;
  want: boolean;
  lo: number;
  hi: number;
  /** a dense list's bit set, kept by search-dense.ts: not cleared, not pooled */
  kept?: boolean;
}

/** Bit sets over rows kept between walks, all zeros while here: at ten million rows a fresh
 *  1.25 MB array cost more (allocation, then a page fault a 4 KiB page) than setting its bits. */
const spareBits: Int32Array[] = [];
const SPARE_BITS = 4;

function takeBits(words: number): Int32Array {
  const i = spareBits.findIndex((b) => b.length >= words);
  return i >= 0 ? spareBits.splice(i, 1)[0] : new Int32Array(words);
}

/** Clears the words a test wrote and keeps the set for the next walk (the largest few). */
function giveBits(test: RowTest): void {
  if (test.kept) return;
  test.bits.fill(0, test.lo, test.hi);
  spareBits.push(test.bits);
  spareBits.sort((a, b) => b.length - a.length);
  if (spareBits.length > SPARE_BITS) spareBits.length = SPARE_BITS;
}

/** Positions decoded at a time (a word list's block is 1 << BLOCK_SHIFT of them). */
const DECODED = 4096;

/** Touched rows whose current text holds one of the words (distinct). */
function touchedRows(si: SearchIndex, ids: number[]): number[] {
  if (si.touchedCount === 0) return [];
  const out = new Set<number>();
  for (const id of ids) {
    const set = si.extra.get(id);
    if (set) for (const row of set) out.add(row);
  }
  return [...out];
}

/**
 * The query answered from the index, or undefined when it cannot help (no include term, a
 * term without any word unit) or when walking its candidates costs more than the planner's
 * driver (`driverCost` rows).
 */
export function walk(
  si: SearchIndex,
  st: CalendarState,
  q: EventQuery,
  _matcher: Matcher,
  driverCost: number,
): QueryResult | undefined {
  const search = q.search;
  if (!search || (search.include.length === 0 && search.exclude.length === 0)) return undefined;
  if (si.waiting) return undefined; // a worker's build not done: the planner's scan answers
  if (si.job) si.advance(st, Infinity); // a background build not done yet: finish it now
  if (si.stale) searchIndexStale(st); // answered with the overflow while the next one builds
  const t = st.table,
    starts = t.starts;
  const window = startRangeOf(q, false);

  // constraints: one per word piece of every include term; excluded exact terms
  const includes: Constraint[] = [];
  let verify = false;
  for (const term of search.include) {
    const pieces = wordPieces(term);
    if (pieces.length === 0) return undefined; // no word unit: nothing to look up
    if (!(pieces.length === 1 && pieces[0] === term)) verify = true;
    for (const piece of pieces) {
      const ids = si.wordsContaining(piece);
      if (ids.length === 0) return { rows: [], total: 0 }; // no row holds the piece
      includes.push(constraint(si, ids, starts, window));
    }
  }
  const excludes: Constraint[] = [];
  for (const term of search.exclude) {
    if (isWordOnly(term)) excludes.push(constraint(si, si.wordsContaining(term), starts, window));
    else verify = true;
  }
  let driver: Constraint | undefined = includes[0];
  for (const c of includes) if (c.size < driver.size) driver = c;
  const rest = buildMatcher(st, { ...q, search: undefined });
  const countable =
    driver !== undefined &&
    includes.length === 1 &&
    excludes.length === 0 &&
    !verify &&
    driver.ids.length === 1 &&
    rest.simple &&
    q.geo === undefined &&
    driver.size >= COUNTED_MIN;
  // the main index's start range is the planner's driver unless a posting list is smaller
  const [mainLo, mainHi] = st.main.range(window.min, window.minOpen, window.max, window.maxOpen);
  const mainSize = mainHi - mainLo;
  const mainIsDriver = driverCost >= mainSize;
  let walkMain: boolean;
  if (driver !== undefined && (countable ? driver.size >> 6 : driver.size) < driverCost) {
    // a union of several lists is walked in (start, id) order through the main index when that is not much longer
    walkMain = !countable && driver.windows.length > 1 && mainIsDriver && mainSize < 3 * driver.size;
  } else if (mainIsDriver) {
    walkMain = true; // bit tests instead of text checks over the main range
  } else return undefined;

  const offset = Math.max(0, q.offset),
    end = offset + Math.max(0, q.limit);
  const restMatch = rest.match;
  const textMatch = (row: number) => {
    const f = t.foldedText(row);
    for (const term of search.include) if (!fieldsHold(t, row, f, term)) return false;
    for (const term of search.exclude) if (fieldsHold(t, row, f, term)) return false;
    return true;
  };
  // touched rows: their current words (overflow) against every constraint; their texts only
  // when a term has separators (folding thousands of texts took 0.2-0.7 s)
  const fresh: number[] = [];
  const some = si.touchedCount > 0;
  const [inc, exc] = [includes, excludes].map((cs) => (some ? cs.map((c) => new Set(c.ids)) : []));
  for (const row of !some ? [] : driver ? touchedRows(si, driver.ids) : si.rowWords.keys())
    if (restMatch(row) && (verify ? textMatch(row) : (si.wordsHold(row, inc, exc) ?? textMatch(row)))) fresh.push(row);

  const rows = si.rows,
    touched = si.touched;
  // untouched rows of a window already pass the start bounds: with only date/status/flag
  // filters besides search, the rest is a table lookup on (status, flags) and the end bounds
  const pass = rest.simple ? passTable(rest) : undefined;
  const statusCodes = t.statusCodes,
    flags = t.flags,
    ends = t.ends,
    e = rest.end;
  const inRest = pass
    ? (row: number) => {
        if (pass[(statusCodes[row] << 8) | flags[row]] === 0) return false;
        return endPasses(e, ends[row]);
      }
    : restMatch;
  if (countable) {
    const win = driver.windows[0];
    const total = countWindow(si, t, win, rest) + fresh.length;
    const firstRows: number[] = [];
    for (let p = win.lo; p < win.hi && firstRows.length < end; p++) {
      const row = rows.at(p);
      if (touched[row] === 0 && inRest(row)) firstRows.push(row);
    }
    if (fresh.length === 0) return { rows: firstRows.slice(offset, end), total };
    return { rows: sortRows(t, firstRows.concat(fresh)).slice(offset, end), total };
  }

  // several words, each with a list dense enough: their bit sets ANDed (search-dense.ts)
  if (
    !walkMain &&
    excludes.length === 0 &&
    !verify &&
    includes.length > 1 &&
    includes.every((c) => c.ids.length === 1 && isDense(rows, si.offsets, c.ids[0], t.count))
  ) {
    const sets: Int32Array[] = [];
    let r0 = 0,
      r1 = t.count - 1;
    for (const c of includes) {
      const w = c.windows[0];
      const bits = w.hi > w.lo ? denseBits(rows, si.offsets, w.id, t.count) : undefined;
      if (bits === undefined) break;
      sets.push(bits);
      // the list's rows increase (its postings are unranked): its window is a row range
      r0 = Math.max(r0, rows.at(w.lo));
      r1 = Math.min(r1, rows.at(w.hi - 1));
    }
    if (sets.length === includes.length && driver !== undefined) {
      // the rows to visit: the driver list's blocks between r0 and r1 whose ends can pass, each
      // a row range (its rows increase); the end bounds are read only in blocks that straddle them
      const w = driver.windows[0],
        a = si.offsets[w.id],
        bl = blocksOf(si, t, w.id),
        e = rest.end;
      const segs: number[] = [];
      for (let p = w.lo; p < w.hi; ) {
        const b = (p - a) >> BLOCK_SHIFT,
          stop = Math.min(w.hi, a + ((b + 1) << BLOCK_SHIFT)),
          lo = bl.minEnds[b],
          hi = bl.maxEnds[b];
        if (!endsOutside(lo, hi, e)) {
          const s0 = Math.max(r0, rows.at(p)),
            s1 = Math.min(r1, rows.at(stop - 1));
          if (s0 <= s1) segs.push(s0, s1, pass !== undefined && endsWithin(lo, hi, e) ? 0 : 1);
        }
        p = stop;
      }
      const check = {
        pass,
        statusCodes,
        flags,
        ends,
        end: e,
        match: restMatch,
        stale: si.touchedCount > 0 ? touched : undefined,
        passing:
          pass !== undefined && si.touchedCount === 0
            ? passingBits(rows, pass, statusCodes, flags, t.count)
            : undefined,
      };
      const { page, total } = andRows(sets, segs, check, fresh.length > 0 ? 0 : offset, end);
      if (fresh.length === 0) return { rows: page, total };
      return { rows: sortRows(t, page.concat(fresh)).slice(offset, end), total: total + fresh.length };
    }
  }

  // general: walk the driver's windows; other constraints as bit sets over rows
  const tests: RowTest[] = [];
  const buf = new Int32Array(DECODED);
  const bitsOf = (c: Constraint, want: boolean): RowTest => {
    // a dense list's kept bit set: its rows outside the window are never asked (the walk's rows
    // are in the window, rows added since are touched and skipped)
    const dense = c.ids.length === 1 ? denseBits(rows, si.offsets, c.ids[0], t.count) : undefined;
    if (dense !== undefined) return { bits: dense, want, lo: 0, hi: 0, kept: true };
    const bits = takeBits((t.count >> 5) + 1);
    let lo = bits.length,
      hi = 0;
    for (const w of c.windows) {
      for (let p = w.lo; p < w.hi; p += DECODED) {
        const n = Math.min(DECODED, w.hi - p);
        rows.decode(p, p + n, buf);
        for (let k = 0; k < n; k++) {
          const row = buf[k];
          bits[row >> 5] |= 1 << (row & 31);
        }
        // the words written: a list's rows come in increasing order unless they are ranked
        if (n > 0 && buf[0] >> 5 < lo) lo = buf[0] >> 5;
        if (n > 0 && buf[n - 1] >> 5 > hi) hi = buf[n - 1] >> 5;
      }
    }
    return rows.ranked ? { bits, want, lo: 0, hi: bits.length } : { bits, want, lo, hi: hi + 1 };
  };
  try {
    for (const c of includes) if (c !== driver) tests.push(bitsOf(c, true));
    for (const c of excludes) if (c.size > 0) tests.push(bitsOf(c, false));
    const anyTouched = si.touchedCount > 0;
    if (walkMain) {
      if (driver) tests.push(bitsOf(driver, true));
      const nt = tests.length,
        mrows = st.main.rows;
      const page: number[] = [];
      let total = 0;
      for (let i = mainLo; i < mainHi; i++) {
        const row = mrows[i];
        let ok = true;
        for (let k = 0; k < nt && ok; k++) {
          const test = tests[k];
          ok = ((test.bits[row >> 5] & (1 << (row & 31))) !== 0) === test.want;
        }
        if (!ok || (anyTouched && touched[row] === 1) || !inRest(row) || (verify && !textMatch(row))) continue;
        if (fresh.length > 0 ? total < end : total >= offset && total < end) page.push(row);
        total++;
      }
      if (fresh.length === 0) return { rows: page, total };
      return { rows: sortRows(t, page.concat(fresh)).slice(offset, end), total: total + fresh.length };
    }
    if (!driver) return undefined; // not reached: no driver means the main walk
    const nTests = tests.length;

    if (driver.windows.length === 1 && fresh.length === 0 && !verify && nTests <= 1) {
      // one list in order (the common case: one or two words): count, keep the page only
      const w = driver.windows[0];
      const bits = nTests === 1 ? tests[0].bits : undefined,
        want = nTests === 1 && tests[0].want;
      const page: number[] = [];
      let total = 0;
      // with a simple rest, a block of the list whose ends all pass needs only the (status, flags)
      // table: its rows' ends are not read (at ten million rows each read missed the caches)
      const a = si.offsets[w.id],
        bl = pass ? blocksOf(si, t, w.id) : undefined;
      for (let p = w.lo; p < w.hi; ) {
        const b = (p - a) >> BLOCK_SHIFT,
          stop = Math.min(w.hi, a + ((b + 1) << BLOCK_SHIFT));
        const endsPass = bl !== undefined && pass !== undefined && endsWithin(bl.minEnds[b], bl.maxEnds[b], e);
        rows.decode(p, stop, buf);
        for (let k = 0, n = stop - p; k < n; k++) {
          const row = buf[k];
          if (bits && ((bits[row >> 5] & (1 << (row & 31))) !== 0) !== want) continue;
          if (anyTouched && touched[row] === 1) continue;
          if (endsPass ? pass[(statusCodes[row] << 8) | flags[row]] === 0 : !inRest(row)) continue;
          if (total >= offset && total < end) page.push(row);
          total++;
        }
        p = stop;
      }
      return { rows: page, total };
    }

    const seen = driver.windows.length > 1 ? new Int32Array((t.count >> 5) + 1) : undefined;
    const hits: number[] = [];
    for (const w of driver.windows) {
      for (let p = w.lo; p < w.hi; p++) {
        const row = rows.at(p);
        if (anyTouched && touched[row] === 1) continue;
        if (seen) {
          const bit = 1 << (row & 31);
          if ((seen[row >> 5] & bit) !== 0) continue;
          seen[row >> 5] |= bit;
        }
        let ok = true;
        for (let k = 0; k < nTests && ok; k++) {
          const test = tests[k];
          ok = ((test.bits[row >> 5] & (1 << (row & 31))) !== 0) === test.want;
        }
        if (ok && inRest(row) && (!verify || textMatch(row))) hits.push(row);
      }
    }
    const total = hits.length + fresh.length;
    if (driver.windows.length === 1 && fresh.length === 0) return { rows: hits.slice(offset, end), total };
    for (const row of fresh) hits.push(row);
    return { rows: firstInOrder(t, hits, end).slice(offset, end), total };
  } finally {
    for (const test of tests) giveBits(test);
  }
}

/** passTable's tables by the matcher's combinations (shared read-only per table: matcher.ts) */
const passTables = new WeakMap<Int32Array, Uint8Array>();

/** 1 at [status << 8 | flags] when a row of that status and flag byte passes a simple matcher's
 *  combinations; made once per combination table. */
function passTable(m: Matcher): Uint8Array {
  const have = passTables.get(m.combos);
  if (have !== undefined) return have;
  const ok = new Uint8Array(COMBOS);
  for (let i = 0; i < m.combos.length; i++) ok[m.combos[i]] = 1;
  const table = new Uint8Array(8 << 8);
  for (let status = 0; status < 8; status++) {
    for (let f = 0; f < 256; f++) table[(status << 8) | f] = ok[comboOf(status, f)];
  }
  passTables.set(m.combos, table);
  return table;
}

/** Rows sorted by (local start, id). */
function sortRows(t: EventTable, rows: number[]): number[] {
  const starts = t.starts,
    ids = t.ids;
  return rows.sort((r, s) => (starts[r] < starts[s] ? -1 : starts[r] > starts[s] ? 1 : ids[r] - ids[s]));
}

/** The first `end` rows in (start, id) order. */
function firstInOrder(t: EventTable, hits: number[], end: number): number[] {
  const total = hits.length;
  if (end <= 0) return [];
  if (end * 8 >= total) return sortRows(t, hits).slice(0, end);
  const starts = t.starts,
    ids = t.ids;
  const before = (r: number, s: number) => starts[r] < starts[s] || (starts[r] === starts[s] && ids[r] < ids[s]);
  // a sorted buffer of the first `end` rows, insertion from the back
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
  return top;
}

/**
 * The query answered from the search index when that is cheaper than the chosen driver
 * (`driverCost` rows). Undefined = use the driver.
 */
export function searchQuery(
  st: CalendarState,
  q: EventQuery,
  matcher: Matcher,
  driverCost: number,
): QueryResult | undefined {
  if (!q.search || (q.search.include.length === 0 && q.search.exclude.length === 0)) return undefined;
  return walk(searchIndexOf(st), st, q, matcher, driverCost);
}
