import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isTempPath, tempPathFor, writeFileAtomic, writeFileAtomicSync } from '../../src/store/atomic-file.ts';

function tmpDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'atomic-test-'));
}

// ---

const Atomic = suite('writeFileAtomic');

for (const [name, write] of [
  ['async', writeFileAtomic],
  ['sync', async (p: string, d: string, o?: { mode?: number }) => writeFileAtomicSync(p, d, o)],
] as const) {
  Atomic(`${name} :: creates, then replaces, leaving no temp file`, async () => {
    const dir = tmpDir();
    const file = path.join(dir, 'users.json');
    await write(file, '{"a":1}');
    assert.is(fs.readFileSync(file, 'utf8'), '{"a":1}');
    await write(file, '{"a":2}');
    assert.is(fs.readFileSync(file, 'utf8'), '{"a":2}');
    assert.equal(fs.readdirSync(dir), ['users.json']);
  });

  Atomic(`${name} :: keeps the mode of an existing file; mode option for a new one`, async () => {
    const dir = tmpDir();
    const file = path.join(dir, 'users.json');
    await write(file, 'x', { mode: 0o600 });
    assert.is(fs.statSync(file).mode & 0o777, 0o600);
    fs.chmodSync(file, 0o640);
    await write(file, 'y');
    assert.is(fs.statSync(file).mode & 0o777, 0o640);
  });

  Atomic(`${name} :: a failed rename leaves the target and no temp`, async () => {
    const dir = tmpDir();
    const target = path.join(dir, 'target');
    fs.mkdirSync(target);
    fs.writeFileSync(path.join(target, 'keep'), 'k'); // renaming a file over a non-empty dir fails
    try {
      await write(target, 'new');
      assert.unreachable('should have thrown');
    } catch (err) {
      assert.ok((err as NodeJS.ErrnoException).code, `~> ${String(err)}`);
    }
    assert.equal(fs.readdirSync(dir), ['target']);
    assert.equal(fs.readdirSync(target), ['keep']);
  });

  Atomic(`${name} :: a missing directory throws`, async () => {
    const dir = tmpDir();
    try {
      await write(path.join(dir, 'nope', 'file'), 'x');
      assert.unreachable('should have thrown');
    } catch (err) {
      assert.is((err as NodeJS.ErrnoException).code, 'ENOENT');
    }
  });
}

Atomic('tempPathFor :: unique, recognised by isTempPath', () => {
  const a = tempPathFor('/x/journal.jsonl');
  const b = tempPathFor('/x/journal.jsonl');
  assert.is.not(a, b);
  assert.ok(isTempPath(path.basename(a)));
  assert.not.ok(isTempPath('journal.jsonl'));
});

Atomic.run();
