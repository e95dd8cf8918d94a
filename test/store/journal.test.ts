import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Write } from '../../src/engine/records.ts';
import { scanJournal } from '../../src/store/journal-read.ts';
import { Journal } from '../../src/store/journal.ts';

function tmpDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'journal-test-'));
}

function line(seq: number): string {
  return JSON.stringify({ seq, ops: [{ t: 'term', a: 'delete', id: seq }] }) + '\n';
}

async function scan(
  file: string,
): Promise<{ seqs: number[]; lines: number[]; warnings: string[]; bytes: number | undefined }> {
  const seqs: number[] = [];
  const lines: number[] = [];
  const warnings: string[] = [];
  const res = await scanJournal(
    file,
    (w: Write, l) => {
      seqs.push(w.seq);
      lines.push(l);
    },
    (m) => warnings.push(m),
  );
  return { seqs, lines, warnings, bytes: res?.bytes };
}

// ---

const Scan = suite('scanJournal');

Scan('scan :: missing file is undefined', async () => {
  const dir = tmpDir();
  assert.is(
    await scanJournal(
      path.join(dir, 'journal.jsonl'),
      () => {},
      () => {},
    ),
    undefined,
  );
});

Scan('scan :: reads every line in order with line numbers', async () => {
  const file = path.join(tmpDir(), 'journal.jsonl');
  fs.writeFileSync(file, line(4) + line(5) + line(6));
  const r = await scan(file);
  assert.equal(r.seqs, [4, 5, 6]);
  assert.equal(r.lines, [1, 2, 3]);
  assert.equal(r.warnings, []);
});

Scan('scan :: torn last line without newline is dropped, warned and truncated away', async () => {
  const file = path.join(tmpDir(), 'journal.jsonl');
  const good = line(1) + line(2);
  fs.writeFileSync(file, good + line(3).slice(0, 10));
  const r = await scan(file);
  assert.equal(r.seqs, [1, 2]);
  assert.is(r.warnings.length, 1);
  assert.match(r.warnings[0]!, 'torn last line 3');
  assert.match(r.warnings[0]!, file);
  assert.is(fs.readFileSync(file, 'utf8'), good);
  assert.is(r.bytes, Buffer.byteLength(good));
});

Scan('scan :: unparseable final line (zero-filled tail) is dropped too', async () => {
  const file = path.join(tmpDir(), 'journal.jsonl');
  fs.writeFileSync(file, line(1) + '\0\0\0\0\n');
  const r = await scan(file);
  assert.equal(r.seqs, [1]);
  assert.is(r.warnings.length, 1);
  assert.is(fs.readFileSync(file, 'utf8'), line(1));
});

Scan('scan :: corrupt middle line stops with the file and line number', async () => {
  const file = path.join(tmpDir(), 'journal.jsonl');
  fs.writeFileSync(file, line(1) + '{"seq":2,"ops":[\n' + line(3));
  try {
    await scan(file);
    assert.unreachable('should have thrown');
  } catch (err) {
    assert.instance(err, Error);
    assert.match((err as Error).message, `${file} line 2`);
  }
  assert.is(fs.readFileSync(file, 'utf8'), line(1) + '{"seq":2,"ops":[\n' + line(3), '~> nothing is truncated');
});

Scan('scan :: a bad line followed by a torn tail is a middle line', async () => {
  const file = path.join(tmpDir(), 'journal.jsonl');
  fs.writeFileSync(file, line(1) + 'garbage\n' + '{"seq":3');
  await scan(file).then(
    () => assert.unreachable('should have thrown'),
    (err: Error) => assert.match(err.message, 'line 2'),
  );
});

Scan('scan :: a seq gap is corruption', async () => {
  const file = path.join(tmpDir(), 'journal.jsonl');
  fs.writeFileSync(file, line(1) + line(2) + line(4));
  await scan(file).then(
    () => assert.unreachable('should have thrown'),
    (err: Error) => assert.match(err.message, 'line 3: seq 4 follows seq 2'),
  );
});

Scan('scan :: a line that is JSON but not a write is corruption', async () => {
  const file = path.join(tmpDir(), 'journal.jsonl');
  fs.writeFileSync(file, line(1) + '{"seq":"2"}\n' + line(3));
  await scan(file).then(
    () => assert.unreachable('should have thrown'),
    (err: Error) => assert.match(err.message, 'line 2: not a {seq, ops} write'),
  );
});

Scan.run();

// ---

const Append = suite('Journal');

Append('append :: lines land in order and each promise resolves with its seq', async () => {
  const file = path.join(tmpDir(), 'journal.jsonl');
  const j = await Journal.open(file, 0);
  const seqs = await Promise.all([1, 2, 3, 4, 5].map((s) => j.append(line(s), s)));
  assert.equal(seqs, [1, 2, 3, 4, 5]);
  await j.close();
  assert.is(fs.readFileSync(file, 'utf8'), [1, 2, 3, 4, 5].map(line).join(''));
});

Append('append :: group commit — 200 concurrent appends need far fewer flushes', async () => {
  const file = path.join(tmpDir(), 'journal.jsonl');
  const j = await Journal.open(file, 0);
  const all: Promise<number>[] = [];
  for (let s = 1; s <= 200; s++) all.push(j.append(line(s), s));
  await Promise.all(all);
  assert.is(j.stats.commits, 200);
  assert.ok(j.stats.flushes < 200, `~> ${j.stats.flushes} flushes for 200 commits`);
  assert.ok(j.stats.flushes >= 1);
  await j.close();
  const r = await scan(file);
  assert.is(r.seqs.length, 200);
});

Append('append :: a promise resolves only after its batch flushed', async () => {
  const file = path.join(tmpDir(), 'journal.jsonl');
  const j = await Journal.open(file, 0);
  let sizeAtResolve = -1;
  await j.append(line(1), 1).then(() => (sizeAtResolve = fs.statSync(file).size));
  assert.is(sizeAtResolve, line(1).length);
  assert.is(j.stats.flushes, 1);
  await j.close();
});

Append('append :: open refuses a size that does not match the file', async () => {
  const file = path.join(tmpDir(), 'journal.jsonl');
  fs.writeFileSync(file, line(1));
  await Journal.open(file, 0).then(
    () => assert.unreachable('should have thrown'),
    (err: Error) => assert.match(err.message, 'expected 0'),
  );
});

Append('append :: a failed write rejects its batch and every later append', async () => {
  if (!fs.existsSync('/dev/full')) return; // Linux only: writes to /dev/full fail with ENOSPC
  const j = await Journal.open('/dev/full', 0);
  await j.append(line(1), 1).then(
    () => assert.unreachable('should have rejected'),
    (err: Error) => assert.match(err.message, 'no space left on device (ENOSPC) writing /dev/full'),
  );
  assert.ok(j.failed);
  await j.append(line(2), 2).then(
    () => assert.unreachable('should have rejected'),
    (err: Error) => assert.is(err, j.failed),
  );
  await j.close();
});

Append('rewriteFrom :: keeps the tail after the cut, including lines appended meanwhile', async () => {
  const file = path.join(tmpDir(), 'journal.jsonl');
  const j = await Journal.open(file, 0);
  await Promise.all([1, 2, 3].map((s) => j.append(line(s), s)));
  const cut = j.queuedBytes;
  await Promise.all([4, 5].map((s) => j.append(line(s), s)));
  const rewrite = j.rewriteFrom(cut);
  const during = [6, 7].map((s) => j.append(line(s), s));
  await rewrite;
  await Promise.all(during);
  await j.append(line(8), 8);
  await j.close();
  assert.is(fs.readFileSync(file, 'utf8'), [4, 5, 6, 7, 8].map(line).join(''));
  assert.is(j.writtenBytes, fs.statSync(file).size);
  assert.equal(fs.readdirSync(path.dirname(file)), ['journal.jsonl'], '~> no temp file left');
});

Append('rewriteFrom :: waits for lines before the cut that are still queued', async () => {
  const file = path.join(tmpDir(), 'journal.jsonl');
  const j = await Journal.open(file, 0);
  const first = [1, 2, 3].map((s) => j.append(line(s), s)); // queued, maybe not written yet
  const cut = j.queuedBytes;
  const later = j.append(line(4), 4);
  await j.rewriteFrom(cut);
  await Promise.all([...first, later]);
  await j.close();
  assert.is(fs.readFileSync(file, 'utf8'), line(4));
});

Append.run();
