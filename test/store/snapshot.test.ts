import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  SNAPSHOT_FILE,
  encodeChunks,
  encodeChunksSliced,
  readManifest,
  removeUnlistedParts,
  writeSnapshot,
} from '../../src/store/snapshot.ts';
import { SnapshotReader, readSnapshotChunks } from '../../src/store/snapshot-read.ts';

function tmpDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'snapshot-test-'));
}

const CHUNKS: unknown[] = [
  { kind: 'header', nextId: 42 },
  { starts: [1, 2, 3], title: ['a\nb', 'ü', '"quoted"'] },
  [],
  'x'.repeat(5000),
  null,
];

async function expectError(p: Promise<unknown> | (() => unknown), text: string): Promise<void> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (err) {
    assert.instance(err, Error);
    assert.match((err as Error).message, text);
    return;
  }
  assert.unreachable(`~> expected an error mentioning ${text}`);
}

// ---

const Snapshot = suite('snapshot');

Snapshot('snapshot :: round trip keeps every chunk, in order', async () => {
  const dir = tmpDir();
  const m = await writeSnapshot(dir, 17, encodeChunks(CHUNKS));
  assert.is(m.seq, 17);
  assert.is(m.parts.length, 1);
  const read = await readManifest(dir);
  assert.equal(read, m);
  assert.equal([...readSnapshotChunks(dir, read!)], CHUNKS);
});

Snapshot(
  'snapshot :: parts are ASCII (non-ASCII escaped as \\uXXXX) and read back exactly; UTF-8 parts of older snapshots still load',
  async () => {
    const texts = [
      'Crème Brûlée',
      'Soirée à Paris',
      '東京',
      'emoji \u{1F389} pair',
      'lone \ud800 surrogate',
      'line\u2028sep',
      'Zoë "q" \\ back',
      '\u0080\u00ff\uffff',
    ];
    const chunks: unknown[] = [{ type: 'h' }, { titles: texts, n: [1, 2.5, -3] }, texts.join('|')];
    const dir = tmpDir();
    const m = await writeSnapshot(dir, 5, encodeChunks(chunks));
    for (const part of m.parts) {
      const bytes = fs.readFileSync(path.join(dir, part.file));
      assert.ok(
        bytes.every((b) => b < 0x80),
        `${part.file} is ASCII`,
      );
      assert.ok(bytes.includes('Cr\\u00e8me'), 'escaped as \\uXXXX');
    }
    assert.equal([...readSnapshotChunks(dir, (await readManifest(dir))!)], chunks);
    // a part written as raw UTF-8 (before the escaping) is read as UTF-8
    const old = tmpDir();
    const utf8Lines = chunks.map((c) => JSON.stringify(c) + '\n');
    const m2 = await writeSnapshot(old, 6, utf8Lines);
    assert.ok(
      fs.readFileSync(path.join(old, m2.parts[0].file)).some((b) => b >= 0x80),
      'the old-style part holds UTF-8 bytes',
    );
    assert.equal([...readSnapshotChunks(old, (await readManifest(old))!)], chunks);
  },
);

Snapshot('snapshot :: small partBytes splits into several verified parts', async () => {
  const dir = tmpDir();
  const chunks = Array.from({ length: 40 }, (_, i) => ({ i, pad: 'p'.repeat(100) }));
  const m = await writeSnapshot(dir, 3, encodeChunks(chunks), { partBytes: 1000 });
  assert.ok(m.parts.length > 3, `~> ${m.parts.length} parts`);
  assert.is(
    m.parts.reduce((n, p) => n + p.chunks, 0),
    40,
  );
  for (const p of m.parts) assert.is(fs.statSync(path.join(dir, p.file)).size, p.bytes);
  assert.equal([...readSnapshotChunks(dir, (await readManifest(dir))!)], chunks);
});

Snapshot('snapshot :: the same seq twice gets new part names (the live snapshot is never overwritten)', async () => {
  const dir = tmpDir();
  const a = await writeSnapshot(dir, 5, encodeChunks([1]));
  const b = await writeSnapshot(dir, 5, encodeChunks([2]));
  assert.is.not(a.parts[0]!.file, b.parts[0]!.file);
  assert.equal(await removeUnlistedParts(dir, b), [a.parts[0]!.file]);
  assert.equal([...readSnapshotChunks(dir, (await readManifest(dir))!)], [2]);
});

Snapshot('snapshot :: encodeChunksSliced encodes like encodeChunks and lets go of the chunks', async () => {
  const chunks = [...CHUNKS];
  assert.equal(await encodeChunksSliced(chunks), encodeChunks(CHUNKS));
  assert.ok(chunks.every((c) => c === undefined));
  await encodeChunksSliced([undefined]).then(
    () => assert.unreachable('should have thrown'),
    (err: Error) => assert.match(err.message, 'chunk 0 is not JSON-able'),
  );
});

Snapshot('snapshot :: no manifest reads as undefined', async () => {
  assert.is(await readManifest(tmpDir()), undefined);
});

Snapshot('snapshot :: a chunk that is not JSON-able is refused at capture', () => {
  assert.throws(() => encodeChunks([1, undefined]), /chunk 1 is not JSON-able/);
});

Snapshot('corrupt :: unparseable manifest names snapshot.json', async () => {
  const dir = tmpDir();
  await writeSnapshot(dir, 1, encodeChunks(CHUNKS));
  fs.writeFileSync(path.join(dir, SNAPSHOT_FILE), '{"version":1,"seq":');
  await expectError(readManifest(dir), path.join(dir, SNAPSHOT_FILE));
});

Snapshot('corrupt :: manifest with a wrong shape is refused', async () => {
  const dir = tmpDir();
  fs.writeFileSync(
    path.join(dir, SNAPSHOT_FILE),
    JSON.stringify({
      version: 1,
      seq: 3,
      createdAt: '',
      parts: [{ file: '../etc/passwd', bytes: 1, chunks: 1, sha256: '0'.repeat(64) }],
    }),
  );
  await expectError(readManifest(dir), 'parts[0].file');
});

Snapshot('corrupt :: a flipped byte in a part fails the checksum, naming the part', async () => {
  const dir = tmpDir();
  const m = await writeSnapshot(dir, 9, encodeChunks(CHUNKS));
  const file = path.join(dir, m.parts[0]!.file);
  const buf = fs.readFileSync(file);
  buf[20] = buf[20]! ^ 1;
  fs.writeFileSync(file, buf);
  await expectError(() => [...readSnapshotChunks(dir, m)], `${file}: sha256`);
});

Snapshot('corrupt :: a truncated part fails the length check', async () => {
  const dir = tmpDir();
  const m = await writeSnapshot(dir, 9, encodeChunks(CHUNKS));
  const file = path.join(dir, m.parts[0]!.file);
  fs.truncateSync(file, m.parts[0]!.bytes - 3);
  await expectError(() => [...readSnapshotChunks(dir, m)], `${file}: ${m.parts[0]!.bytes - 3} bytes`);
});

Snapshot('corrupt :: a missing part is named', async () => {
  const dir = tmpDir();
  const m = await writeSnapshot(dir, 9, encodeChunks(CHUNKS));
  fs.unlinkSync(path.join(dir, m.parts[0]!.file));
  await expectError(() => [...readSnapshotChunks(dir, m)], m.parts[0]!.file);
});

Snapshot(
  'worker hash :: parts hashed by the worker thread read back the same; a flipped byte is still named',
  async () => {
    const dir = tmpDir();
    const chunks = Array.from({ length: 30 }, (_, i) => ({ i, pad: 'ü'.repeat(200) }));
    const m = await writeSnapshot(dir, 4, encodeChunks(chunks), { partBytes: 2000 });
    assert.ok(m.parts.length > 2);
    assert.equal([...readSnapshotChunks(dir, m, { hashWorkerMinBytes: 0 })], chunks);
    // a flip inside a string still parses: caught by the digest after the part's chunks
    const file = path.join(dir, m.parts[1]!.file);
    const buf = fs.readFileSync(file);
    const at = buf.indexOf('pad') + 8;
    buf[at] = buf[at]! ^ 2;
    fs.writeFileSync(file, buf);
    const seen: unknown[] = [];
    await expectError(() => {
      for (const c of readSnapshotChunks(dir, m, { hashWorkerMinBytes: 0 })) seen.push(c);
    }, `${file}: sha256`);
    assert.is(
      seen.length,
      m.parts[0]!.chunks + m.parts[1]!.chunks,
      'the damaged part is refused right after its own chunks',
    );
    // a flip that breaks the JSON is reported as the checksum failure, not as a parse error
    buf[buf.indexOf('{')] = 0x5b;
    fs.writeFileSync(file, buf);
    await expectError(() => [...readSnapshotChunks(dir, m, { hashWorkerMinBytes: 0 })], `${file}: sha256`);
  },
);

Snapshot('read in pieces :: lines across pieces and longer than one read back the same', async () => {
  const dir = tmpDir();
  // lines of about 10 to 2,000 bytes (non-ASCII characters are written as escapes)
  const chunks = Array.from({ length: 40 }, (_, i) => ({ i, pad: (i % 3 === 0 ? 'ü' : 'a').repeat((i * 37) % 340) }));
  const m = await writeSnapshot(dir, 4, encodeChunks(chunks), { partBytes: 3000 });
  for (const readBytes of [1, 7, 64, 1000, 1 << 20])
    assert.equal([...readSnapshotChunks(dir, m, { hashWorkerMinBytes: 0, readBytes })], chunks, `by ${readBytes}`);
  // a part cut short of its last newline: its length no longer matches the manifest
  const file = path.join(dir, m.parts[0]!.file);
  const buf = fs.readFileSync(file);
  fs.writeFileSync(file, buf.subarray(0, buf.length - 1));
  await expectError(() => [...readSnapshotChunks(dir, m, { hashWorkerMinBytes: 0, readBytes: 64 })], `${file}: `);
  // the same length, the last newline replaced: no trailing newline (after the checksum)
  const torn = Buffer.from(buf);
  torn[torn.length - 1] = 0x20;
  fs.writeFileSync(file, torn);
  await expectError(() => [...readSnapshotChunks(dir, m, { hashWorkerMinBytes: 0, readBytes: 64 })], `${file}: sha256`);
});

Snapshot(
  'worker hash :: a consumer that fails on damaged chunks gets the checksum error from verifyStarted',
  async () => {
    const dir = tmpDir();
    const m = await writeSnapshot(dir, 4, encodeChunks([{ n: 1 }, { n: 2 }]));
    const file = path.join(dir, m.parts[0]!.file);
    fs.writeFileSync(file, fs.readFileSync(file).toString().replace('"n":2', '"n":3'));
    const reader = new SnapshotReader(dir, m, { hashWorkerMinBytes: 0 });
    try {
      for (const c of reader.chunks()) if ((c as { n: number }).n === 3) throw new Error('consumer: bad value');
      assert.unreachable('~> the consumer throws');
    } catch (err) {
      assert.match((err as Error).message, 'consumer: bad value');
    }
    await expectError(() => reader.verifyStarted(), `${file}: sha256`);
    reader.close();
  },
);

Snapshot('cleanup :: removeUnlistedParts keeps the listed parts and other files', async () => {
  const dir = tmpDir();
  const m = await writeSnapshot(dir, 2, encodeChunks(CHUNKS));
  fs.writeFileSync(path.join(dir, 'snapshot.1.abcdef01.0.jsonl'), 'old');
  fs.writeFileSync(path.join(dir, 'users.json'), '{}');
  assert.equal(await removeUnlistedParts(dir, m), ['snapshot.1.abcdef01.0.jsonl']);
  assert.equal(fs.readdirSync(dir).sort(), [m.parts[0]!.file, SNAPSHOT_FILE, 'users.json'].sort());
});

Snapshot.run();
