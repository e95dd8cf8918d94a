// Uploads on a real small file system (tmpfs): an upload that does not fit answers 507
// storage_full and leaves no file, the server goes on serving; a store whose journal filled the
// disk refuses uploads and edits with its fault; once space returns, uploads work again without
// a restart, and a restart finds every acknowledged upload. Skipped, with the reason, where a
// tmpfs cannot be mounted.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { openCalendar } from '../../src/calendar.ts';
import { fill, withTmpfs } from '../faults/mount.ts';
import type { Res } from '../http/request.ts';
import { makeImage, NOW, startMediaServer, filesBelow } from './helper.ts';

const D = suite('media :: a real full disk');

const quiet = <T>(fn: () => Promise<T>): Promise<T> => {
  // the store's and the library's lines (which file failed) go to the console: kept out of the output
  const { warn, error } = console;
  console.warn = console.error = () => {};
  return fn().finally(() => Object.assign(console, { warn, error }));
};

const event = JSON.stringify({
  title: 'Fills the disk',
  start_date: '2030-02-01 10:00:00',
  end_date: '2030-02-01 11:00:00',
  status: 'publish',
  description: `<p>${'A long description that fills the disk. '.repeat(200)}</p>`,
});

D('a full tmpfs: 507 storage_full, no file left; a full journal refuses uploads; uploads resume', async () => {
  (await withTmpfs(4096, (m) =>
    quiet(async () => {
      const dir = path.join(m.dir, 'store');
      const uploads = path.join(dir, 'uploads');
      const s = await startMediaServer({ dir, faultProbeMs: 100 });
      let big = Buffer.alloc(0);
      try {
        const small = await makeImage(200, 160);
        const first = await s.upload(small, 'small.jpg');
        assert.is(first.status, 201, first.text);
        // noise does not compress: a PNG of about 1.5 MB, with sizes
        big = await sharp(randomBytes(700 * 700 * 3), { raw: { width: 700, height: 700, channels: 3 } })
          .png()
          .toBuffer();
        assert.ok(big.length > 1_000_000, `${big.length} bytes`);
        const before = filesBelow(uploads);

        // 1. the upload does not fit (the journal still does)
        const filler = fill(m, 400 * 1024);
        const r = await s.upload(big, 'big.png', 'author', 'image/png');
        assert.is(r.status, 507, r.text);
        assert.is(r.json.code, 'storage_full');
        assert.is(r.json.data.cause, 'ENOSPC');
        assert.match(r.json.data.file, /^big(-\d+x\d+)?\.png$/);
        assert.is(r.headers['retry-after'], '5');
        assert.equal(filesBelow(uploads), before, 'no temp file, no half file');
        // the server goes on: reads, the served file, and a write the journal has room for
        assert.is((await s.call('/wp-json/wp/v2/media', { as: 'editor' })).json.length, 1);
        assert.is((await s.call('/wp-content/uploads/2030/01/small.jpg')).status, 200);
        const events = '/wp-json/tribe/events/v1/events';
        const post = () => s.call(events, { method: 'POST', as: 'editor', json: JSON.parse(event) });
        const ev = await post();
        assert.is(ev.status, 201, ev.text);

        // 2. the journal fills the disk: the store is degraded, and media writes get its fault
        fs.unlinkSync(filler);
        const filler2 = fill(m, 0);
        let refused: Res | undefined;
        for (let i = 0; i < 20 && !refused; i++) {
          const w = await post();
          if (w.status !== 201) refused = w;
        }
        assert.ok(refused, 'the journal filled the disk');
        assert.is(refused!.status, 507, refused!.text);
        assert.is((await s.call('/wp-json/tribe/events/v1/health')).json.status, 'degraded');
        const up = await s.upload(small, 'during.jpg');
        assert.is(up.status, 507, up.text);
        assert.is(up.json.code, 'storage_full');
        assert.is(up.json.data.file, refused!.json.data.file, "the store's fault, not a media file's");
        const item = `/wp-json/wp/v2/media/${first.json.id}`;
        const edit = await s.call(item, { method: 'POST', as: 'author', json: { alt_text: 'x' } });
        assert.is(edit.status, 507, edit.text);
        const del = await s.call(`/wp-json/wp/v2/media/${first.json.id}?force=true`, {
          method: 'DELETE',
          as: 'author',
        });
        assert.is(del.status, 507, del.text);
        assert.equal(filesBelow(uploads), before);

        // 3. space returns: the next upload finds it (probe, reopen), no restart
        fs.unlinkSync(filler2);
        let after: Res | undefined;
        for (let t = 0; t < 40; t++) {
          after = await s.upload(big, 'big.png', 'author', 'image/png');
          if (after.status === 201) break;
          await new Promise((res) => setTimeout(res, 100));
        }
        assert.is(after!.status, 201, after!.text);
        assert.is(after!.json.media_details.file, '2030/01/big.png', 'the refused upload took no name');
        assert.is((await s.call('/wp-json/tribe/events/v1/health')).json.status, 'ok');
        const served = await s.call('/wp-content/uploads/2030/01/big.png');
        assert.is(served.headers['content-length'], String(big.length));
      } finally {
        await s.close();
      }
      // a restart: both acknowledged uploads, whole
      const again = await openCalendar({ dir, now: () => NOW });
      const items = (await again.media.list()).items.map((i) => (i.media_details as { file: string }).file).sort();
      assert.equal(items, ['2030/01/big.png', '2030/01/small.jpg']);
      assert.ok(fs.readFileSync(path.join(uploads, '2030/01/big.png')).equals(big), 'the file is whole');
      assert.not.ok(filesBelow(uploads).some((f) => path.basename(f).startsWith('.tmp-')));
      await again.close();
    }),
  )) || assert.ok(true);
});

D.run();
