// Uploads in a store directory: files and records survive a restart and a compaction, a delete
// survives too, and a crash during an upload (SIGKILL between the durable files and the journaled
// record, or halfway through a file) loses no acknowledged upload and leaves no half file.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { openCalendar } from '../../src/calendar.ts';
import { makeImage, NOW, filesBelow } from './helper.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CHILD = path.join(root, 'test/fixtures/media-crash-child.ts');

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'media-store-'));

const S = suite('media :: store');

S('uploads survive a restart and a compaction; a delete does too', async () => {
  const dir = tmp();
  try {
    let cal = await openCalendar({ dir, now: () => NOW });
    const a = await cal.media.create({
      data: await makeImage(500, 400),
      filename: 'a.jpg',
      params: { alt_text: 'first' },
    });
    const b = await cal.media.create({ data: await makeImage(300, 300, 'png'), filename: 'b.png' });
    await cal.close();
    assert.equal(filesBelow(path.join(dir, 'uploads')), [
      '2030/01/a-150x150.jpg',
      '2030/01/a-300x240.jpg',
      '2030/01/a.jpg',
      '2030/01/b-150x150.png',
      '2030/01/b.png',
    ]);
    cal = await openCalendar({ dir, now: () => NOW });
    assert.equal(await cal.media.get(a.id as number), a, '~> replayed from the journal');
    await cal.snapshot();
    await cal.close();
    cal = await openCalendar({ dir, now: () => NOW });
    assert.equal(await cal.media.get(a.id as number), a, '~> loaded from the snapshot');
    assert.is((await cal.media.list()).total, 2);
    await cal.media.delete(b.id as number);
    await cal.close();
    cal = await openCalendar({ dir, now: () => NOW });
    assert.is((await cal.media.list()).total, 1);
    assert.equal(filesBelow(path.join(dir, 'uploads')), [
      '2030/01/a-150x150.jpg',
      '2030/01/a-300x240.jpg',
      '2030/01/a.jpg',
    ]);
    await cal.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

function runChild(dir: string, stage: string): Promise<{ acked?: number; unexpected?: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dir, stage], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '',
      err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('exit', (code, signal) => {
      const seen = Object.assign(
        {},
        ...out
          .split('\n')
          .filter((l) => l !== '')
          .map((l) => JSON.parse(l)),
      );
      return signal === 'SIGKILL' ? resolve(seen) : reject(new Error(`child exited with ${code}: ${err}`));
    });
  });
}

for (const stage of ['files', 'temp']) {
  S(
    `a crash during an upload (${stage === 'files' ? 'files durable, record not journaled' : 'halfway through a file'}): nothing acknowledged lost, no half file`,
    async () => {
      const dir = tmp();
      try {
        const seen = await runChild(dir, stage);
        assert.ok(seen.acked, JSON.stringify(seen));
        assert.not.ok(seen.unexpected);
        const cal = await openCalendar({ dir, now: () => NOW });
        const page = await cal.media.list();
        assert.equal(
          page.items.map((m) => m.id),
          [seen.acked],
          '~> the acknowledged upload, and only it',
        );
        const files = filesBelow(path.join(dir, 'uploads'));
        assert.not.ok(
          files.some((f) => path.basename(f).startsWith('.tmp-')),
          `~> no temp file left: ${files}`,
        );
        // every file there is a whole image
        for (const f of files) {
          const meta = await sharp(fs.readFileSync(path.join(dir, 'uploads', f)))
            .stats()
            .catch((e: Error) => e);
          assert.not.instance(meta, Error, `~> ${f} is whole`);
        }
        // the crashed upload's name stays taken by its (whole, unrecorded) file: a new one moves on
        const again = await cal.media.create({ data: await makeImage(200, 200), filename: 'crash.jpg' });
        const want = stage === 'files' ? '2030/01/crash-1.jpg' : '2030/01/crash.jpg';
        assert.is((again.media_details as { file: string }).file, want);
        await cal.close();
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
}

S('a memory-only calendar keeps its uploads in memory', async () => {
  const cal = await openCalendar({ now: () => NOW });
  const m = await cal.media.create({ data: await makeImage(160, 160), filename: 'mem.jpg' });
  assert.is((await cal.media.list()).total, 1);
  assert.is(cal.media.files.root, undefined);
  assert.ok(cal.media.files.exists('2030/01/mem.jpg'));
  await cal.media.delete(m.id as number);
  assert.not.ok(cal.media.files.exists('2030/01/mem.jpg'));
  await cal.close();
});

S.run();
