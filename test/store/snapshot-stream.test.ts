// A snapshot streamed while it is made (src/store/snapshot-stream.ts): the writer thread's lines
// are chunkLine's, a caller is asked to wait when the writer falls behind, and a writer that fails
// makes add() and parts() fail rather than hang.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SnapshotStream } from '../../src/store/snapshot-stream.ts';
import { chunkLine } from '../../src/store/snapshot.ts';
import { chunkBytes } from '../../src/store/chunk-bytes.ts';

const stream = suite('snapshot stream');
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'snapshot-stream-'));

stream('the parts hold chunkLine of each chunk, typed arrays as arrays; a fast producer is asked to wait', async () => {
  const dir = tmp();
  const s = new SnapshotStream(dir, 7, 4096);
  // every fourth chunk's text is Latin-1 only (chunkBytes escapes it in its bytes), the others' not
  const chunks = Array.from({ length: 40 }, (_, i) => ({
    type: 'events',
    from: i,
    title: i % 4 === 0 ? `caf\u00e9 ${i} \u00ff\u0080` : `caf\u00e9 ${i} \ud83c\udf89`,
    ints: { ids: new Int32Array([i, -i, 2 ** 31 - 1]) },
    dates: new Float64Array([i / 2, NaN, -0]),
  }));
  let waits = 0;
  for (const c of chunks) {
    const wait = s.add(structuredClone(c));
    if (wait) {
      waits++;
      await wait;
    }
  }
  assert.ok(waits > 0, 'asked to wait at least once');
  const parts = await s.parts();
  assert.ok(parts.length > 1, 'parts split past partBytes');
  assert.equal(
    parts.map((p) => p.file),
    parts.map((_, i) => `snapshot.7.${s.tag}.${i + 1}.jsonl`),
  );
  const text = parts.map((p) => fs.readFileSync(path.join(dir, p.file), 'latin1')).join('');
  const plain = (c: (typeof chunks)[number]) => ({
    ...c,
    ints: { ids: Array.from(c.ints.ids) },
    dates: Array.from(c.dates),
  });
  assert.is(text, chunks.map((c, i) => chunkLine(plain(c), i)).join(''));
  assert.is(
    parts.reduce((n, p) => n + p.chunks, 0),
    40,
  );
});

stream("chunkBytes (the writer's) gives the bytes of chunkLine", () => {
  const rnd = (() => {
    let x = 7;
    return (n: number) => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 8) % n;
  })();
  // strings of ASCII, Latin-1, wider units, escapes and lone surrogates, in lists, objects and alone
  const units = [0x61, 0x20, 0x22, 0x5c, 0x0a, 0x01, 0x7f, 0x80, 0xe9, 0xff, 0xaa, 0xbd, 0x100, 0x20ac, 0xd83c, 0xdf89];
  const text = (wide: boolean) =>
    String.fromCharCode(...Array.from({ length: rnd(12) }, () => units[rnd(wide ? units.length : 12)]));
  for (let round = 0; round < 300; round++) {
    const wide = round % 3 === 0;
    const chunk = {
      type: 'events',
      from: round,
      titles: Array.from({ length: rnd(20) }, () => text(wide)),
      websites: [text(wide), null],
      ints: { ids: [1, -2, 3.5] },
      extra: { [text(wide)]: text(wide) },
      odd: [[0, 1, text(wide)]],
      none: undefined,
      s: text(wide),
    };
    assert.is(chunkBytes(chunk).toString('latin1'), chunkLine(chunk, round));
    // typed arrays in its objects (not in its arrays) are lists of numbers, NaN and infinities null
    const n = rnd(6),
      f64 = Float64Array.from(
        { length: n },
        () => [0.5, -0, NaN, 1e21, -3, 2 ** 53, Infinity, 1 / 3][rnd(round % 2 ? 8 : 6)],
      );
    const i32 = Int32Array.from({ length: n }, () => rnd(2 ** 31) * (rnd(2) ? 1 : -1)),
      u8 = Uint8Array.from({ length: n }, () => rnd(256));
    const typed = { a: f64, b: { c: i32, d: [new Uint8Array(2)], e: u8 }, s: text(wide) };
    const plain = { a: Array.from(f64), b: { c: Array.from(i32), d: typed.b.d, e: Array.from(u8) }, s: typed.s };
    assert.is(chunkBytes(typed).toString('latin1'), chunkLine(plain, round));
  }
  assert.is(chunkBytes({}).toString('latin1'), chunkLine({}, 0));
  // long enough for the bytes to be scanned four at a time, with the tail not a multiple of four
  const long = { t: 'a\u00e9bc'.repeat(1001) + '\u00ff' };
  assert.is(chunkBytes(long).toString('latin1'), chunkLine(long, 0));
});

stream('chunkBytes copies long strings that need no escape, and escapes the others', () => {
  // base64 text (copied as it is) behind keys and values of every length, so that the copy starts
  // at each alignment; then one character that needs an escape at the start, middle and end
  const b64 = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 37) & 255)).toString('base64');
  for (let shift = 0; shift < 8; shift++) {
    const plain = { type: 'events', ['k'.repeat(shift)]: 'x'.repeat(shift), a: b64, b: b64.slice(shift), n: [shift] };
    const bytes = chunkBytes(plain).toString('latin1');
    assert.is(bytes, chunkLine(plain, 0));
    for (const odd of ['"', '\\', '\n', '\u0001', '\u001f', '\u007f', '\u00e9', '\u0100', '\u20ac', '\ud83c']) {
      for (const at of [0, shift + 1, 1999, b64.length - 1]) {
        const s = b64.slice(0, at) + odd + b64.slice(at + 1);
        const chunk = { type: 'events', ['k'.repeat(shift)]: s, t: [s], z: s.slice(shift) };
        assert.is(chunkBytes(chunk).toString('latin1'), chunkLine(chunk, 0), `${JSON.stringify(odd)} at ${at}`);
      }
    }
  }
  // a long list of numbers, and strings just below and at the length copied as they are
  const values = Int32Array.from({ length: 100_000 }, (_, i) => i * 7919 - 400_000);
  const typed = { values, s255: 'é'.repeat(255), s256: 'a'.repeat(255) + '"', s257: 'b'.repeat(257) };
  assert.is(chunkBytes(typed).toString('latin1'), chunkLine({ ...typed, values: Array.from(values) }, 0));
});

stream('a writer that cannot write fails add() or parts() rather than hanging', async () => {
  const dir = path.join(tmp(), 'missing');
  const s = new SnapshotStream(dir, 0);
  let failure: unknown;
  try {
    for (let i = 0; i < 20; i++) await s.add({ type: 'events', from: i });
    await s.parts();
  } catch (err) {
    failure = err;
    await s.abort(); // what an import does when it fails: the writer is stopped
  }
  assert.match(String(failure), /store: writing the snapshot in .*missing: ENOENT/);
});

stream('abort() stops the writer and removes the parts written so far', async () => {
  const dir = tmp();
  fs.writeFileSync(path.join(dir, 'snapshot.0.00000000.0.jsonl'), 'another snapshot\n');
  const s = new SnapshotStream(dir, 0, 64);
  for (let i = 0; i < 10; i++) await s.add({ type: 'events', from: i, pad: 'x'.repeat(100) });
  await s.abort();
  assert.equal(fs.readdirSync(dir), ['snapshot.0.00000000.0.jsonl']);
});

stream.run();
