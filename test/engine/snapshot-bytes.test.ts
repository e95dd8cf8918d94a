// Typed columns as base64 of their little-endian bytes (snapshot version 3): round trips at any
// offset, and text of the wrong length is refused.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { base64Of, decodeInto, decodeNew } from '../../src/engine/snapshot-bytes.ts';

const Bytes = suite('snapshot bytes');

Bytes('columns round trip through base64, from and into the middle of a column', () => {
  const ints = Int32Array.from([0, -1, 2 ** 31 - 1, -(2 ** 31), 123_456, 7]);
  const dates = Float64Array.from([Number.NaN, 0, -62_167_219_200_000, 253_402_300_799_000, 1.5, -0]);
  const bytes = Uint8Array.from([0, 255, 1, 128]);
  // little-endian bytes, as the format says
  assert.is(Buffer.from(base64Of(Int32Array.of(1)), 'base64').toString('hex'), '01000000');
  assert.is(Buffer.from(base64Of(Float64Array.of(1)), 'base64').toString('hex'), '000000000000f03f');
  const back = new Int32Array(10);
  decodeInto('ints', base64Of(ints, 2, 5), back, 4, 3);
  assert.equal(Array.from(back), [0, 0, 0, 0, 2 ** 31 - 1, -(2 ** 31), 123_456, 0, 0, 0]);
  const d = decodeNew('dates', base64Of(dates), dates.length, (n) => new Float64Array(n));
  assert.ok(Number.isNaN(d[0]));
  assert.equal(Array.from(d.subarray(1)), Array.from(dates.subarray(1)));
  assert.ok(Object.is(d[5], -0));
  // a view that does not start at its buffer's first byte
  const view = new Uint8Array(new ArrayBuffer(16), 3, 8);
  decodeInto('flags', base64Of(bytes), view, 2, 4);
  assert.equal(Array.from(view), [0, 0, 0, 255, 1, 128, 0, 0]);
});

Bytes('text that is not base64 of exactly the values, or would not fit, is refused', () => {
  const col = new Int32Array(4);
  assert.throws(
    () => decodeInto('ids', base64Of(Int32Array.of(1, 2, 3)), col, 0, 2),
    /expected 2 values \(8 bytes\) of ids, got 12 bytes/,
  );
  assert.throws(() => decodeInto('ids', 12, col, 0, 1), /expected base64 text for ids, got number/);
  assert.throws(
    () => decodeInto('ids', base64Of(Int32Array.of(1, 2)), col, 3, 2),
    /expected room for 2 values of ids at 3/,
  );
  assert.equal(Array.from(col), [0, 0, 0, 0], 'nothing written');
});

Bytes.run();
