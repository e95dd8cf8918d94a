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

const stream = suite('snapshot stream');
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'snapshot-stream-'));

stream('the parts hold chunkLine of each chunk, typed arrays as arrays; a fast producer is asked to wait', async () => {
  const dir = tmp();
  const s = new SnapshotStream(dir, 7, 4096);
  const chunks = Array.from({ length: 40 }, (_, i) => ({ type: 'events', from: i, title: `caf\u00e9 ${i} \ud83c\udf89`, ints: { ids: new Int32Array([i, -i, 2 ** 31 - 1]) }, dates: new Float64Array([i / 2, NaN, -0]) }));
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
  assert.equal(parts.map((p) => p.file), parts.map((_, i) => `snapshot.7.${s.tag}.${i + 1}.jsonl`));
  const text = parts.map((p) => fs.readFileSync(path.join(dir, p.file), 'latin1')).join('');
  const plain = (c: (typeof chunks)[number]) => ({ ...c, ints: { ids: Array.from(c.ints.ids) }, dates: Array.from(c.dates) });
  assert.is(text, chunks.map((c, i) => chunkLine(plain(c), i)).join(''));
  assert.is(parts.reduce((n, p) => n + p.chunks, 0), 40);
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
