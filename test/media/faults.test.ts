// Uploads under storage faults: an error of the disk injected at each step of a file's durable
// write (through DiskFiles' test hook, as the disk would fail: an error with the system's code)
// answers the store's storage errors, leaves no temp or half file, keeps the server up and works
// again once the disk does; a calendar opened read-only refuses media writes and serves the files.
// (test/faults/disk.test.ts fills a real small file system with uploads.)
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { handleOf, openCalendar } from '../../src/calendar.ts';
import type { StoreLog } from '../../src/write-log/store.ts';
import type { DiskFiles, WriteStep } from '../../src/media/files.ts';
import { StoreFaultError } from '../../src/store/faults.ts';
import { makeImage, NOW, startMediaServer, filesBelow } from './helper.ts';

const F = suite('media :: faults');

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'media-faults-'));

const CASES: Array<[errno: string, step: WriteStep, status: number, code: string]> = [
  ['ENOSPC', 'write', 507, 'storage_full'],
  ['ENOSPC', 'mkdir', 507, 'storage_full'],
  ['EDQUOT', 'sync', 507, 'storage_quota_exceeded'],
  ['EIO', 'sync', 503, 'storage_io_error'],
  ['EIO', 'sync-dir', 503, 'storage_io_error'],
  ['EROFS', 'open', 503, 'storage_read_only'],
  ['EACCES', 'rename', 503, 'storage_read_only'],
  ['EPERM', 'write', 503, 'storage_read_only'],
];

for (const [errno, step, status, code] of CASES) {
  F(`${errno} at the file's ${step}: ${status} ${code}, nothing left, the server up, uploads work after`, async () => {
    const dir = tmp();
    const lines: string[] = [];
    const { error } = console;
    console.error = (line: string) => void lines.push(line);
    const s = await startMediaServer({ dir });
    try {
      const files = s.cal.media.files as DiskFiles;
      let failures = 0;
      files.beforeStep = (at, file) => {
        if (at === step) {
          failures++;
          throw Object.assign(new Error(`${errno}: injected, ${at} '${file}'`), { code: errno });
        }
      };
      const image = await makeImage(400, 300);
      const r = await s.upload(image, 'poster.jpg');
      assert.ok(failures > 0, 'the hook ran');
      assert.is(r.status, status, r.text);
      assert.is(r.json.code, code);
      assert.is(r.json.data.status, status);
      assert.is(r.json.data.cause, errno);
      assert.ok(typeof r.json.data.file === 'string' && r.json.data.file !== '', r.text);
      if (step !== 'mkdir' && step !== 'sync-dir') assert.match(r.json.data.file, /^poster(-\d+x\d+)?\.jpg$/);
      assert.is(r.headers['retry-after'], '5');
      assert.equal(filesBelow(path.join(dir, 'uploads')), [], 'no temp file, no half file, no renamed file');
      assert.match(lines.join('\n'), `(${errno}) writing ${dir}`, 'the log names the full path');
      // the server is up: reads answer, the refused upload has no record
      const list = await s.call('/wp-json/wp/v2/media', { as: 'editor' });
      assert.is(list.status, 200);
      assert.equal(list.json, []);
      const health = await s.call('/wp-json/tribe/events/v1/health');
      assert.is(health.json.status, 'ok', 'the store itself is not degraded');
      assert.match(health.json.warnings.join('\n'), `(${errno})`);
      assert.not.match(health.json.warnings.join('\n'), dir, 'the public health route names no full path');
      // the disk works again: the same upload goes through, under the same name
      files.beforeStep = undefined;
      const ok = await s.upload(image, 'poster.jpg');
      assert.is(ok.status, 201, ok.text);
      assert.is(ok.json.media_details.file, '2030/01/poster.jpg');
      assert.equal((await s.call('/wp-json/tribe/events/v1/health')).json.warnings, []);
      const served = await s.call('/wp-content/uploads/2030/01/poster.jpg');
      assert.is(served.status, 200);
      assert.is(served.headers['content-length'], String(image.length));
    } finally {
      console.error = error;
      await s.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}

F('the embedding API answers the same storage error', async () => {
  const dir = tmp();
  const { error } = console;
  console.error = () => {};
  const cal = await openCalendar({ dir, now: () => NOW });
  try {
    (cal.media.files as DiskFiles).beforeStep = (at) => {
      if (at === 'write') throw Object.assign(new Error('ENOSPC: injected'), { code: 'ENOSPC' });
    };
    await cal.media.create({ data: await makeImage(200, 200), filename: 'a.jpg' }).then(
      () => assert.unreachable('the upload must be refused'),
      (err: { status: number; code: string; data: Record<string, unknown> }) => {
        assert.is(err.status, 507);
        assert.is(err.code, 'storage_full');
        assert.is(err.data.cause, 'ENOSPC');
      },
    );
    assert.equal(filesBelow(path.join(dir, 'uploads')), []);
  } finally {
    console.error = error;
    await cal.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

F('a store fault between the durable files and the commit: the files go, the fault answers', async () => {
  const dir = tmp();
  const { error, warn } = console;
  console.error = console.warn = () => {};
  const cal = await openCalendar({ dir, now: () => NOW, faultProbeMs: 0 });
  try {
    const journal = path.join(dir, 'journal.jsonl');
    // the journal fails while the files are written: the guard holds the fault when the record is committed
    cal.media.afterFilesWritten = () => {
      assert.ok(filesBelow(path.join(dir, 'uploads')).includes('2030/01/late.jpg'), 'the files are in place');
      (handleOf(cal).log as StoreLog).guard.failed(
        new StoreFaultError({
          kind: 'io',
          errno: 'EIO',
          file: journal,
          since: NOW.toISOString(),
          message: `input/output error (EIO) writing ${journal}`,
        }),
      );
    };
    await cal.media.create({ data: await makeImage(200, 200), filename: 'late.jpg' }).then(
      () => assert.unreachable('the commit must be refused'),
      (err: { status: number; code: string; data: Record<string, unknown> }) => {
        assert.is(err.status, 503);
        assert.is(err.code, 'storage_io_error');
        assert.is(err.data.file, 'journal.jsonl');
      },
    );
    assert.equal(filesBelow(path.join(dir, 'uploads')), [], 'no file that no record names');
    cal.media.afterFilesWritten = undefined;
    // the disk is fine: the next write probes it, the state is rebuilt, the upload goes through
    const ok = await cal.media.create({ data: await makeImage(200, 200), filename: 'late.jpg' });
    assert.is((ok.media_details as { file: string }).file, '2030/01/late.jpg');
    assert.is((await cal.media.list()).total, 1);
  } finally {
    Object.assign(console, { error, warn });
    await cal.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

F('a delete whose files the disk refuses to remove: the item is deleted (200), the files stay', async () => {
  const dir = tmp();
  const lines: string[] = [];
  const s = await startMediaServer({ dir });
  const { error } = console;
  try {
    const up = await s.upload(await makeImage(200, 200), 'keep.jpg');
    assert.is(up.status, 201, up.text);
    console.error = (line: string) => void lines.push(line);
    (s.cal.media.files as DiskFiles).beforeStep = (at) => {
      if (at === 'remove') throw Object.assign(new Error('EROFS: injected'), { code: 'EROFS' });
    };
    const del = await s.call(`/wp-json/wp/v2/media/${up.json.id}?force=true`, { method: 'DELETE', as: 'author' });
    assert.is(del.status, 200, del.text);
    assert.is(del.json.deleted, true);
    assert.is((await s.call(`/wp-json/wp/v2/media/${up.json.id}`, { as: 'editor' })).status, 404);
    assert.match(lines.join('\n'), '(EROFS)');
    assert.ok(filesBelow(path.join(dir, 'uploads')).includes('2030/01/keep.jpg'));
  } finally {
    console.error = error;
    await s.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

F('read-only: uploads, edits and deletes answer 503 calendar_read_only; the files are served', async () => {
  const dir = tmp();
  try {
    const first = await startMediaServer({ dir });
    const image = await makeImage(400, 300);
    const up = await first.upload(image, 'kept.jpg');
    assert.is(up.status, 201, up.text);
    await first.close();
    const before = filesBelow(path.join(dir, 'uploads'));
    // (the helper resets passwords, which writes users.json: done while writable, then read-only)
    const passwords = await (async () => {
      const w = await startMediaServer({ dir });
      const p = w.passwords;
      await w.close();
      return p;
    })();
    const cal = await openCalendar({ dir, now: () => NOW, readOnly: true });
    const { startServer } = await import('../../src/http/server.ts');
    const { request } = await import('../http/request.ts');
    const net = await import('node:net');
    const port = await new Promise<number>((resolve) => {
      const t = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (t.address() as import('node:net').AddressInfo).port;
        t.close(() => resolve(p));
      });
    });
    const srv = await startServer(cal, { port, log: () => {} });
    const url = `http://127.0.0.1:${port}`;
    const auth: [string, string] = ['author', passwords.author];
    try {
      const raw = { 'content-type': 'image/jpeg', 'content-disposition': 'attachment; filename="new.jpg"' };
      const refusedUpload = await request(url, '/wp-json/wp/v2/media', {
        method: 'POST',
        auth,
        body: image,
        headers: raw,
      });
      const edit = await request(url, `/wp-json/wp/v2/media/${up.json.id}`, {
        method: 'POST',
        auth,
        body: JSON.stringify({ alt_text: 'changed' }),
        headers: { 'content-type': 'application/json' },
      });
      const del = await request(url, `/wp-json/wp/v2/media/${up.json.id}?force=true`, { method: 'DELETE', auth });
      for (const r of [refusedUpload, edit, del]) {
        assert.is(r.status, 503, r.text);
        assert.is(r.json.code, 'calendar_read_only');
        assert.is(r.json.data.status, 503);
      }
      // permissions still come first
      const anon = await request(url, '/wp-json/wp/v2/media', { method: 'POST', body: image, headers: raw });
      assert.is(anon.status, 401, anon.text);
      await cal.media.create({ data: image, filename: 'embedded.jpg' }).then(
        () => assert.unreachable('a read-only calendar must refuse uploads'),
        (err: { status: number; code: string }) => assert.is(err.code, 'calendar_read_only'),
      );
      assert.equal(filesBelow(path.join(dir, 'uploads')), before, 'nothing written');
      const item = await request(url, `/wp-json/wp/v2/media/${up.json.id}`);
      assert.is(item.status, 200);
      assert.is(item.json.alt_text, '');
      const served = await request(url, '/wp-content/uploads/2030/01/kept.jpg');
      assert.is(served.status, 200);
      assert.is(served.headers['content-length'], String(image.length));
      assert.is(served.headers['content-type'], 'image/jpeg');
    } finally {
      await srv.close();
      await cal.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

F.run();
