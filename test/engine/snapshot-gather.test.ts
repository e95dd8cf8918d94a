// The events chunks' typed columns gathered in the write order a window at a time
// (src/engine/snapshot-gather.ts): every take is the column read at those positions, whatever the
// window, the order of the takes and the arrays' types.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type Gatherable, OrderedGather } from '../../src/engine/snapshot-gather.ts';

const gather = suite('snapshot gather');

gather('takes read each column at the positions of the order, across windows, in any order', () => {
  let x = 11;
  const rnd = (n: number) => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 8) % n;
  const n = 1000;
  const order = Int32Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = rnd(i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  const cols: Gatherable[] = [
    Int32Array.from({ length: n }, (_, i) => i * 7 - 3000),
    Uint8Array.from({ length: n }, (_, i) => (i * 13) & 255),
    Uint16Array.from({ length: n }, (_, i) => i * 61),
    Float64Array.from({ length: n }, (_, i) => (i % 17 === 0 ? NaN : i / 3)),
    Int32Array.from({ length: n }, (_, i) => i * 5),
  ];
  // the last column into a narrower buffer (a value converted as an assignment converts it)
  const sources = cols.map((src, k) => ({
    src,
    buffer: (rows: number) =>
      k === 4 ? new Uint8Array(rows) : new (src.constructor as new (m: number) => Gatherable)(rows),
  }));
  const window = 64;
  const g = new OrderedGather(sources, order, window);
  const starts = Array.from({ length: Math.ceil(n / window) }, (_, w) => w * window);
  // windows visited forwards, backwards and again; ranges inside a window of every size
  for (const w of [...starts, ...starts.slice().reverse(), 3 * window, 0]) {
    for (let t = 0; t < 6; t++) {
      const end = Math.min(n, w + window);
      const from = w + rnd(end - w),
        to = from + 1 + rnd(end - from);
      cols.forEach((src, k) => {
        const want = Array.from(order.subarray(from, to), (r) => (k === 4 ? src[r] & 255 : src[r]));
        assert.equal(Array.from(g.take(k, from, to)), want, `column ${k} at [${from}, ${to})`);
      });
    }
  }
});

gather.run();
