// The bit arena (src/engine/bit-arena.ts): sets in one shared WebAssembly memory, counted in
// WebAssembly exactly as a plain count would; views survive the memory's growth; a dropped block is
// reused only after the task that dropped it, zeroed; the committed module is bit-count.wat's.
import { spawnSync } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { andCounter, arenaStats, dropBits, keptBits } from '../../src/engine/bit-arena.ts';
import { mulberry32, Rng } from './random-calendar.ts';

const arena = suite('bit arena');

/** A set of `words` words in the arena, each bit set with probability `p`. */
function randomSet(r: Rng, words: number, p: number): Int32Array {
  const bits = keptBits(words);
  for (let i = 0; i < words * 32; i++) if (r.bool(p)) bits[i >> 5] |= 1 << (i & 31);
  return bits;
}

function naive(sets: Int32Array[], passing: Int32Array, from: number, to: number): number {
  let total = 0;
  for (let i = from; i <= to; i++) {
    let x = passing[i];
    for (const s of sets) x &= s[i];
    for (; x !== 0; x &= x - 1) total++;
  }
  return total;
}

arena('the committed module is bit-count.wat compiled (npm run build:wasm)', () => {
  const script = new URL('../../scripts/build-wasm.mjs', import.meta.url).pathname;
  const run = spawnSync(process.execPath, [script, '--check'], { encoding: 'utf8' });
  assert.is(run.status, 0, run.stdout + run.stderr);
});

arena('one, two and three sets ANDed with the passing set: counted as a plain count', () => {
  const r = new Rng(mulberry32(21));
  const words = 700;
  const sets = [0.3, 0.6, 0.9].map((p) => randomSet(r, words, p));
  const passing = randomSet(r, words, 0.8);
  for (let round = 0; round < 300; round++) {
    const k = r.int(1, 3),
      from = r.int(0, words - 1),
      to = r.int(from - 1, words - 1); // empty ranges too; odd and even lengths, odd and even starts
    const chosen = sets.slice(0, k);
    assert.is(andCounter(chosen, passing)!(from, to), naive(chosen, passing, from, to), `round ${round}`);
  }
  // all bits set: every lane and the odd word counted whole (no sign trouble in bit 31)
  const full = keptBits(9);
  full.fill(-1);
  assert.is(andCounter([full, full, full], full)!(0, 8), 9 * 32);
  assert.is(andCounter([full], full)!(1, 8), 8 * 32);
});

arena('plain arrays and four sets are left to the caller', () => {
  const inside = keptBits(4);
  assert.is(andCounter([new Int32Array(4)], inside), undefined);
  assert.is(andCounter([inside], new Int32Array(4)), undefined);
  assert.is(andCounter([inside, inside, inside, inside], inside), undefined);
});

arena('sets made before the memory grows keep their bits and are still counted', () => {
  const r = new Rng(mulberry32(4));
  const small = randomSet(r, 300, 0.5);
  const copy = Array.from(small);
  const big = keptBits(1 << 21); // 8 MiB: more than the memory held
  big.fill(-1, 0, 300);
  assert.equal(Array.from(small), copy, 'the earlier view reads the same bits');
  assert.is(andCounter([small], big)!(0, 299), naive([small], big, 0, 299));
  dropBits(big);
});

arena('a dropped block is reused after the task that dropped it, zeroed', async () => {
  await Promise.resolve();
  const a = keptBits(1000);
  a.fill(-1);
  const blocks = arenaStats()!.blocks;
  dropBits(a);
  const b = keptBits(1000);
  assert.is.not(b.byteOffset, a.byteOffset, 'not within the task that dropped it');
  assert.ok(
    a.every((w) => w === -1),
    'the dropped set is whole until then',
  );
  await Promise.resolve();
  assert.is(arenaStats()!.blocks, blocks, 'a given back, b taken');
  const c = keptBits(1000);
  assert.is(c.byteOffset, a.byteOffset, 'the free block taken');
  assert.ok(
    c.every((w) => w === 0),
    'zeroed',
  );
  // a smaller set takes the smallest larger free block when none of its size is free
  dropBits(b);
  dropBits(c);
  await Promise.resolve();
  const d = keptBits(900);
  assert.ok(d.byteOffset === b.byteOffset || d.byteOffset === c.byteOffset);
  dropBits(d);
  dropBits(d); // twice: given back once
  await Promise.resolve();
  const e = keptBits(1000),
    f = keptBits(1000);
  assert.is.not(e.byteOffset, f.byteOffset, 'no block given out twice');
});

arena.run();
