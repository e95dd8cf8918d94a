// Bit sets of dense word lists and their AND (src/engine/search-dense.ts): a bit set holds exactly
// its list's rows, only lists of one row in 32 or more get one, only unranked postings, at most
// DENSE_KEPT of them (least recently used dropped); the AND visits the rows in every set, within
// the given row ranges, that pass the row check, counted and paged as a list walk would.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { arenaStats, keptBits } from '../../src/engine/bit-arena.ts';
import { PostingsPacker } from '../../src/engine/packed-postings.ts';
import {
  andRows,
  DENSE_KEPT,
  denseBits,
  denseCount,
  PASS_KEPT,
  passingBits,
  type RowCheck,
} from '../../src/engine/search-dense.ts';
import { mulberry32, Rng } from './random-calendar.ts';

const dense = suite('search dense');

/** Lists of increasing rows over [0, n), packed one after the other; offsets[i] = list i's first position. */
function packLists(lists: number[][], order: Int32Array) {
  const all = lists.flat();
  const offsets = new Int32Array(lists.length + 1);
  lists.forEach((l, i) => {
    offsets[i + 1] = offsets[i] + l.length;
  });
  const packer = new PostingsPacker(Int32Array.from(all), order);
  while (!packer.pack(7));
  return { rows: packer.done(), offsets };
}

const identity = (n: number) => Int32Array.from({ length: n }, (_, i) => i);

/** `count` lists over [0, n): list k holds every `every`-th row from k % every. */
function everyNth(count: number, n: number, every: number): number[][] {
  return Array.from({ length: count }, (_, k) => {
    const l: number[] = [];
    for (let row = k % every; row < n; row += every) l.push(row);
    return l;
  });
}

dense('a bit set holds its list rows; sparse lists and ranked postings get none', () => {
  const r = new Rng(mulberry32(5));
  const n = 20_000;
  const lists: number[][] = [];
  for (const every of [2, 9, 30, 31, 33, 200]) {
    const l: number[] = [];
    for (let row = r.int(0, every - 1); row < n; row += every) l.push(row);
    lists.push(l);
  }
  const { rows, offsets } = packLists(lists, identity(n));
  lists.forEach((l, id) => {
    const bits = denseBits(rows, offsets, id, n);
    if (l.length < n >> 5) {
      assert.is(bits, undefined, `list ${id} of ${l.length} rows is sparse`);
      return;
    }
    assert.ok(bits, `list ${id} of ${l.length} rows has a bit set`);
    const set = new Set(l);
    for (let row = 0; row < n; row++) {
      if (((bits![row >> 5] >>> (row & 31)) & 1) !== (set.has(row) ? 1 : 0))
        assert.unreachable(`list ${id} row ${row}`);
    }
    assert.is(denseBits(rows, offsets, id, n), bits, 'kept: the same set the second time');
  });
  assert.is(denseBits(rows, offsets, lists.length, n), undefined, 'no such list');
  // ranked: an entry is a rank through a shuffled order, not a row
  const order = identity(n).reverse();
  const ranked = packLists(lists, order);
  assert.ok(ranked.rows.ranked);
  assert.is(denseBits(ranked.rows, ranked.offsets, 0, n), undefined);
  assert.is(denseCount(ranked.rows), 0);
});

dense('at most DENSE_KEPT bit sets, the least recently used dropped first', () => {
  const n = 3200;
  const lists = everyNth(DENSE_KEPT + 2, n, 4);
  const { rows, offsets } = packLists(lists, identity(n));
  const first = denseBits(rows, offsets, 0, n)!;
  const second = denseBits(rows, offsets, 1, n)!;
  for (let id = 2; id < DENSE_KEPT; id++) denseBits(rows, offsets, id, n);
  assert.is(denseCount(rows), DENSE_KEPT);
  assert.is(denseBits(rows, offsets, 0, n), first, 'used again: now the most recent');
  denseBits(rows, offsets, DENSE_KEPT, n); // one more: list 1 is the least recent
  assert.is(denseCount(rows), DENSE_KEPT);
  assert.is(denseBits(rows, offsets, 0, n), first, 'list 0 kept');
  const again = denseBits(rows, offsets, 1, n)!;
  assert.is.not(again, second, 'list 1 was dropped and made again');
  assert.equal(Array.from(again), Array.from(second));
});

dense('bit sets live in the bit arena; the dropped ones go back to it', async () => {
  const n = 64_000;
  const lists = everyNth(DENSE_KEPT + 6, n, 3);
  const { rows, offsets } = packLists(lists, identity(n));
  await Promise.resolve();
  const before = arenaStats()!.blocks;
  for (let id = 0; id < lists.length; id++) {
    const bits = denseBits(rows, offsets, id, n)!;
    assert.instance(bits.buffer, SharedArrayBuffer, 'in the arena');
  }
  await Promise.resolve(); // dropped sets go back after the task that dropped them
  assert.is(arenaStats()!.blocks - before, DENSE_KEPT, 'only the kept sets hold blocks');
});

dense('the AND visits the rows in every set, in the ranges, that pass; counted and paged', () => {
  const r = new Rng(mulberry32(9));
  for (let round = 0; round < 240; round++) {
    const n = r.int(1, 3000);
    const k = r.int(1, 4);
    // sets in the bit arena (whole ranges counted in WebAssembly) or plain (counted in JavaScript)
    const inArena = r.bool(0.6);
    const made = (words: number) => (inArena ? keptBits(words) : new Int32Array(words));
    const members = Array.from({ length: k }, () => {
      const p = r.pick([0.2, 0.5, 0.9, 1]);
      return Uint8Array.from({ length: n }, () => (r.bool(p) ? 1 : 0));
    });
    // sets sized to the table or shorter (a list built before rows were added)
    const sets = members.map((m) => {
      const bits = made(((r.bool(0.8) ? n : r.int(0, n)) >> 5) + 1);
      for (let row = 0; row < Math.min(n, bits.length * 32); row++) if (m[row] === 1) bits[row >> 5] |= 1 << (row & 31);
      return bits;
    });
    const inSets = (row: number) => sets.every((s) => row >> 5 < s.length && ((s[row >> 5] >>> (row & 31)) & 1) === 1);
    // increasing, disjoint ranges, some sharing a 32-row word with the next
    const segs: number[] = [];
    for (let row = r.int(0, 40); row < n; ) {
      const last = Math.min(n - 1, row + r.int(0, r.bool(0.3) ? 2000 : 90));
      segs.push(row, last, r.int(0, 1));
      row = last + 1 + r.int(0, 40);
    }
    const statusCodes = Uint8Array.from({ length: n }, () => r.int(0, 7));
    const flags = Uint8Array.from({ length: n }, () => r.int(0, 255));
    const ends = Float64Array.from({ length: n }, () => r.int(0, 100));
    const pass = Uint8Array.from({ length: 8 << 8 }, () => (r.bool(0.7) ? 1 : 0));
    const end = { min: r.int(-1, 50), minOpen: r.bool(), max: r.int(50, 101), maxOpen: r.bool() };
    const stale = r.bool(0.5) ? Uint8Array.from({ length: n }, () => (r.bool(0.1) ? 1 : 0)) : undefined;
    const simple = r.bool(0.7);
    const odd = (row: number) => row % 3 !== 1;
    const check: RowCheck = { pass: simple ? pass : undefined, statusCodes, flags, ends, end, match: odd, stale };
    if (simple && r.bool(0.6)) {
      // the passing rows as a set (read only when no row is stale): counted by words, not rows
      const passing = made((n >> 5) + 1);
      for (let row = 0; row < n; row++)
        if (pass[(statusCodes[row] << 8) | flags[row]] === 1) passing[row >> 5] |= 1 << (row & 31);
      check.passing = passing;
    }
    const want: number[] = [];
    for (let g = 0; g < segs.length; g += 3) {
      for (let row = segs[g]; row <= segs[g + 1]; row++) {
        if (!inSets(row) || (stale && stale[row] === 1)) continue;
        if (!simple) {
          if (odd(row)) want.push(row);
          continue;
        }
        if (pass[(statusCodes[row] << 8) | flags[row]] === 0) continue;
        const v = ends[row];
        const endOk = !(v < end.min || (end.minOpen && v === end.min) || v > end.max || (end.maxOpen && v === end.max));
        if (segs[g + 2] === 0 || endOk) want.push(row);
      }
    }
    const from = r.int(0, 20),
      to = from + r.int(0, 15);
    const got = andRows(sets, segs, check, from, to);
    assert.is(got.total, want.length, `round ${round}: total`);
    assert.equal(got.page, want.slice(from, to), `round ${round}: page`);
  }
});

dense('the passing rows: one bit set a pass table, none when the table reads the coordinates flag', () => {
  const r = new Rng(mulberry32(13));
  const n = 5000;
  const { rows } = packLists([[1, 2, 3]], identity(n));
  const statusCodes = Uint8Array.from({ length: n }, () => r.int(0, 5));
  const flags = Uint8Array.from({ length: n }, () => r.int(0, 255));
  // a pass table that ignores the coordinates flag (FLAG_COORDS = 128): entries i and i ^ 128 agree
  const pass = new Uint8Array(8 << 8);
  for (let i = 0; i < pass.length; i++) pass[i] = (i & 128) === 0 ? (r.bool(0.5) ? 1 : 0) : pass[i ^ 128];
  const bits = passingBits(rows, pass, statusCodes, flags, n)!;
  assert.ok(bits);
  for (let row = 0; row < n; row++) {
    const want = pass[(statusCodes[row] << 8) | flags[row]];
    if (((bits[row >> 5] >>> (row & 31)) & 1) !== want) assert.unreachable(`row ${row}`);
  }
  assert.is(passingBits(rows, Uint8Array.from(pass), statusCodes, flags, n), bits, 'the same table: the kept set');
  const coords = Uint8Array.from(pass);
  coords[(0 << 8) | 128] = 1 - coords[0];
  assert.is(passingBits(rows, coords, statusCodes, flags, n), undefined, 'reads the coordinates flag');
  for (let k = 0; k < PASS_KEPT; k++) {
    const other = Uint8Array.from(pass);
    other[k] = other[k ^ 128] = 1 - other[k];
    passingBits(rows, other, statusCodes, flags, n);
  }
  assert.is.not(passingBits(rows, pass, statusCodes, flags, n), bits, 'dropped after PASS_KEPT others, made again');
});

dense.run();
