// PackedPostings (src/engine/packed-postings.ts): lists of ranks packed in blocks of 256, narrow
// (a base and 16-bit distances) or wide (whole ranks) by their span; every position reads back
// the row its rank names, however the packing was cut into budgets.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PostingsPacker } from '../../src/engine/packed-postings.ts';
import { Rng, mulberry32 } from './random-calendar.ts';

const packed = suite('packed postings');

packed('every position reads back its row, narrow and wide blocks, any budget', () => {
  for (const seed of [1, 2, 3, 4]) {
    const rng = new Rng(mulberry32(seed));
    const n = seed === 4 ? 3 : rng.int(200_000, 400_000); // rows; a rank is a position in `order`
    const order = new Int32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    for (let i = n - 1; i > 0; i--) {
      const j = rng.int(0, i);
      [order[i], order[j]] = [order[j], order[i]];
    }
    // lists of increasing ranks: dense ones (narrow blocks), sparse ones (wide), lengths not
    // multiples of 256 so that blocks straddle lists
    const ranks: number[] = [];
    for (let l = 0; l < 40; l++) {
      const every = rng.pick([1, 3, 50, 400, 70_000]);
      for (let r = rng.int(0, every); r < n; r += rng.int(1, every)) ranks.push(r);
    }
    const packer = new PostingsPacker(Int32Array.from(ranks), order);
    const budget = rng.int(1, 50);
    let steps = 0;
    while (!packer.pack(budget)) steps++;
    const p = packer.done();
    assert.is(p.length, ranks.length);
    for (let i = 0; i < ranks.length; i++) if (p.at(i) !== order[ranks[i]]) assert.unreachable(`position ${i}`);
    // decode: any range, block by block, gives what at() gives
    const out = new Int32Array(1000);
    for (let k = 0; k < 200; k++) {
      const from = rng.int(0, ranks.length),
        to = Math.min(ranks.length, from + rng.int(0, 1000));
      out.fill(-1);
      p.decode(from, to, out);
      for (let i = from; i < to; i++)
        if (out[i - from] !== p.at(i)) assert.unreachable(`decode ${from}..${to} at ${i}`);
      if (to - from < out.length) assert.is(out[to - from], -1, 'nothing written past the range');
    }
    if (n > 1000) {
      assert.ok(steps > 0, 'packed in several steps');
      assert.ok(p.byteLength < 4 * ranks.length + order.byteLength, `${p.byteLength} bytes`);
    }
  }
});

packed.run();
