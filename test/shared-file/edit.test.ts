// The shared edit of a JSON file the CLI and a running server both use (src/shared-file/edit.ts).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FileStamp, editLocked, watchFile } from '../../src/shared-file/edit.ts';

const edit = suite('shared file :: edit');

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'shared-file-'));
}

edit('editLocked makes the folder, writes 0600 text, hands back the rest and drops the lock', () => {
  const file = path.join(tempDir(), 'deep', 'x.json');
  const out = editLocked(file, () => ({ text: '{"a":1}\n', result: 7 }));
  assert.is(out.result, 7);
  assert.is(fs.readFileSync(file, 'utf8'), '{"a":1}\n');
  assert.is(fs.statSync(file).mode & 0o777, 0o600);
  assert.not.ok(fs.existsSync(`${file}.lock`));
});

edit('editLocked leaves the file as it was and drops the lock when the edit throws', () => {
  const file = path.join(tempDir(), 'x.json');
  fs.writeFileSync(file, 'before');
  assert.throws(
    () =>
      editLocked(file, () => {
        throw new Error('no');
      }),
    /no/,
  );
  assert.is(fs.readFileSync(file, 'utf8'), 'before');
  assert.not.ok(fs.existsSync(`${file}.lock`));
});

edit('FileStamp: true at first, false until the file is replaced, true for a missing file once', () => {
  const file = path.join(tempDir(), 'x.json');
  const stamp = new FileStamp(file);
  assert.ok(stamp.changed());
  assert.not.ok(stamp.changed());
  fs.writeFileSync(file, 'one');
  assert.ok(stamp.changed());
  assert.not.ok(stamp.changed());
  fs.writeFileSync(file, 'three');
  assert.ok(stamp.changed());
  fs.unlinkSync(file);
  assert.ok(stamp.changed());
  assert.not.ok(stamp.changed());
});

edit('watchFile calls back after a replacement, not before, and not after its stop', async () => {
  const file = path.join(tempDir(), 'x.json');
  fs.writeFileSync(file, 'one');
  let calls = 0;
  const stop = watchFile(file, () => calls++, 20);
  await new Promise((r) => setTimeout(r, 80));
  assert.is(calls, 0);
  editLocked(file, () => ({ text: 'two, longer' }));
  for (let i = 0; i < 50 && calls === 0; i++) await new Promise((r) => setTimeout(r, 20));
  assert.is(calls, 1);
  stop();
  fs.writeFileSync(file, 'three, longer still');
  await new Promise((r) => setTimeout(r, 80));
  assert.is(calls, 1);
});

edit.run();
