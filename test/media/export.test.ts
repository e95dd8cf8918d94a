// The media library through export and import: uploads made over HTTP come out of one calendar
// with their files and sizes and go into another (another site URL), where the records that
// show them resolve and every file is served; bad media records are refused, naming the record,
// and leave nothing behind.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openCalendar } from '../../src/calendar.ts';
import { CalendarError } from '../../src/api/wordpress/errors.ts';
import type { DiskFiles } from '../../src/media/files.ts';
import { makeImage, NOW, startMediaServer, filesBelow } from './helper.ts';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'media-export-'));

async function exportFile(
  cal: { exportTo: (out: fs.WriteStream, f: 'json' | 'jsonl') => Promise<unknown> },
  file: string,
  format: 'json' | 'jsonl',
) {
  const out = fs.createWriteStream(file);
  await new Promise<void>((resolve) => out.once('open', () => resolve()));
  const counts = await cal.exportTo(out, format);
  await new Promise<void>((resolve) => out.end(() => resolve()));
  return counts;
}

/** a file's bytes over HTTP */
async function bytes(url: string): Promise<{ status: number; body: Buffer }> {
  const res = await fetch(url);
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
}

const S = suite('media :: export and import');

for (const format of ['json', 'jsonl'] as const) {
  S(`uploads made over HTTP travel in a ${format} export to another site, files, sizes and images`, async () => {
    const [dirA, dirB, work] = [tmp(), tmp(), tmp()];
    const a = await startMediaServer({ dir: dirA });
    let b: Awaited<ReturnType<typeof startMediaServer>> | undefined;
    try {
      const poster = await makeImage(1200, 800);
      const up = await a.upload(poster, 'poster.jpg', 'author', 'image/jpeg', '?alt_text=The%20poster');
      assert.is(up.status, 201, up.text);
      const item = up.json as { id: number; source_url: string };
      const logo = (await a.upload(await makeImage(200, 120, 'png'), 'logo.png', 'editor', 'image/png')).json as {
        id: number;
      };
      const venue = await a.call('/wp-json/tribe/events/v1/venues', {
        method: 'POST',
        as: 'editor',
        json: { venue: 'Hall', image: logo.id },
      });
      assert.is(venue.status, 201, venue.text);
      const event = await a.call('/wp-json/tribe/events/v1/events', {
        method: 'POST',
        as: 'editor',
        json: {
          title: 'Opening',
          start_date: '2030-02-01 19:00:00',
          end_date: '2030-02-01 21:00:00',
          image: item.source_url, // by URL
          venue: (venue.json as { id: number }).id,
        },
      });
      assert.is(event.status, 201, event.text);
      const eventId = (event.json as { id: number }).id;
      const edit = await a.call(`/wp-json/wp/v2/media/${item.id}`, {
        method: 'POST',
        as: 'editor',
        json: { caption: 'Opening night', post: eventId },
      });
      assert.is(edit.status, 200, edit.text);

      const file = path.join(work, `cal.${format}`);
      const counts = (await exportFile(a.cal, file, format)) as Record<string, number>;
      assert.is(counts.media, 2);
      const text = fs.readFileSync(file, 'utf8');
      // media before venues, organizers and events
      assert.ok(text.indexOf('"poster') < text.indexOf('"Hall"'), 'media come first');

      b = await startMediaServer({ dir: dirB });
      assert.is.not(b.url, a.url, 'another site URL');
      const summary = await b.cal.importFile(file);
      assert.is(summary.media, 2);
      assert.is(summary.events, 1);

      // the item, as WordPress shows it, at the new site
      const got = await b.call(`/wp-json/wp/v2/media/${item.id}`);
      assert.is(got.status, 200, got.text);
      const was = edit.json as Record<string, unknown>;
      const now = got.json as Record<string, unknown>;
      assert.equal(JSON.parse(JSON.stringify(now).split(b.url).join(a.url)), was, 'the same item, at the new URL');
      assert.is(
        (now as { caption: { rendered: string } }).caption.rendered,
        was.caption && (was.caption as { rendered: string }).rendered,
      );
      // every file served, byte for byte
      const details = now.media_details as { sizes: Record<string, { source_url: string; filesize: number }> };
      assert.equal(Object.keys(details.sizes).sort(), ['full', 'large', 'medium', 'medium_large', 'thumbnail']);
      for (const [name, size] of Object.entries(details.sizes)) {
        const res = await bytes(size.source_url);
        assert.is(res.status, 200, `${name}: ${res.status}`);
        const from = await bytes(a.url + size.source_url.slice(b.url.length));
        assert.ok(res.body.equals(from.body), `${name}: the same bytes`);
        if (name !== 'full') assert.is(res.body.length, size.filesize);
      }
      assert.ok(
        (await bytes(b.url + new URL(item.source_url).pathname)).body.equals(poster),
        'the original as uploaded',
      );
      // the event's image (given by URL at the old site) and the venue's (by id) resolve to the uploads
      const ev = (await b.call(`/wp-json/tribe/events/v1/events/${eventId}`)).json as {
        image: { id: number; url: string; sizes: Record<string, { url: string }> };
        venue: { image: { id: number } };
      };
      assert.is(ev.image.id, item.id);
      assert.is(ev.image.url, `${b.url}/wp-content/uploads/2030/01/poster.jpg`);
      assert.is(ev.image.sizes.thumbnail.url, `${b.url}/wp-content/uploads/2030/01/poster-150x150.jpg`);
      assert.is(ev.venue.image.id, logo.id);
      // in the data folder, as an upload's files are
      assert.equal(filesBelow(path.join(dirB, 'uploads')), filesBelow(path.join(dirA, 'uploads')));
      // and after a restart
      await b.close();
      const again = await openCalendar({ dir: dirB, now: () => NOW, siteUrl: b.url });
      assert.equal(await again.media.get(item.id), now);
      await again.close();
      b = undefined;
    } finally {
      await a.close();
      await b?.close();
    }
  });
}

S('an upload id in a later record resolves; new uploads after the import get new ids', async () => {
  const src = await openCalendar({ now: () => NOW });
  const up = await src.media.create({ data: await makeImage(300, 200), filename: 'a.jpg' });
  const records = [...src.export()];
  const media = records.filter((r) => r.type === 'media');
  assert.is(media.length, 1);
  assert.is(media[0].id, up.id);
  await src.close();
  const cal = await openCalendar({ now: () => NOW });
  const { type: _t, ...fields } = media[0];
  await cal.import({ media: [fields], organizers: [{ id: 90, organizer: 'Ann', image: String(up.id) }] });
  assert.is(((await cal.organizers.get(90)).image as { id: number }).id, up.id);
  const next = await cal.media.create({ data: await makeImage(300, 200), filename: 'a.jpg' });
  assert.ok((next.id as number) > (up.id as number) && (next.id as number) > 90, 'ids past the imported ones');
  assert.is((next.media_details as { file: string }).file, '2030/01/a-1.jpg', 'the imported name is taken');
  await cal.close();
});

S('imports read by worker threads take the media records too (json and jsonl)', async () => {
  const src = await openCalendar({ now: () => NOW });
  const ids: number[] = [];
  for (const [i, format] of (['jpeg', 'png', 'webp', 'gif'] as const).entries())
    ids.push(
      (await src.media.create({ data: await makeImage(320, 200, format), filename: `f${i}.${format}` })).id as number,
    );
  for (let i = 0; i < 300; i++) {
    await src.events.create({
      title: `Event ${i}`,
      start_date: `2030-03-${String(1 + (i % 28)).padStart(2, '0')} 10:00:00`,
      end_date: `2030-03-${String(1 + (i % 28)).padStart(2, '0')} 11:00:00`,
      ...(i % 7 === 0 && { image: String(ids[i % ids.length]) }),
    });
  }
  const work = tmp();
  for (const format of ['json', 'jsonl'] as const) {
    const file = path.join(work, `w.${format}`);
    await exportFile(src, file, format);
    const text = fs.readFileSync(file, 'utf8');
    for (const workers of [0, 2]) {
      const cal = await openCalendar({ now: () => NOW });
      const summary = await cal.importFile(file, { workers, blockBytes: 4096 });
      assert.is(summary.media, 4, `${format}, ${workers} workers`);
      assert.is(summary.events, 300);
      let again = '';
      await cal.exportTo({ write: (t: string) => ((again += t), true) }, format);
      assert.is(again, text, `${format}, ${workers} workers: the same export`);
      await cal.close();
    }
  }
  await src.close();
});

S('bad media records are refused, named, and leave no file and no record', async () => {
  const src = await openCalendar({ now: () => NOW });
  const up = await src.media.create({ data: await makeImage(400, 300), filename: 'p.jpg' });
  const good = (() => {
    const { type: _t, ...f } = [...src.export()].find((r) => r.type === 'media')!;
    return f as Record<string, unknown> & { sizes: Record<string, Record<string, unknown>> };
  })();
  await src.close();
  const png = (await makeImage(10, 10, 'png')).toString('base64');
  const cases: Array<[string, Record<string, unknown>, RegExp, Record<string, unknown[]>?]> = [
    ['bytes that are not base64', { data: '***' }, /media\[0\] \(id \d+\): data is not base64/],
    ['bytes of another type', { data: png }, /data is not a image\/jpeg image/],
    [
      'a size of another type',
      { sizes: { ...good.sizes, thumbnail: { ...good.sizes.thumbnail, data: png } } },
      /sizes\.thumbnail\.data is not/,
    ],
    ['a size that is not one', { sizes: { huge: good.sizes.thumbnail } }, /sizes\.huge: not an image size/],
    ['a path leaving the folder', { file: '../etc/p.jpg' }, /file must be a path below the uploads folder/],
    ['a name that is not an image', { file: '2030/01/p.txt' }, /is not named as a JPEG/],
    ['no width', { width: undefined }, /width must be a positive integer/],
    ['a post that is not a post', { post: 12345 }, /media \d+: post 12345 is not an event, venue or organizer/],
    ['the same file twice', {}, /file '2030\/01\/p.jpg' is already an upload's/, { media: [{ ...good, id: 777 }] }],
  ];
  for (const [what, change, message, extra] of cases) {
    const dir = tmp();
    const cal = await openCalendar({ dir, now: () => NOW });
    try {
      await cal.import({ media: [{ ...good, ...change }, ...(extra?.media ?? [])] });
      assert.unreachable(`${what}: accepted`);
    } catch (err) {
      assert.instance(err, CalendarError, `${what}: ${String(err)}`);
      assert.is((err as CalendarError).status, 400, what);
      assert.match((err as CalendarError).message, message, what);
    }
    assert.is((await cal.media.list()).total, 0, `${what}: no record`);
    assert.equal(filesBelow(path.join(dir, 'uploads')), [], `${what}: no file`);
    await cal.close();
  }
  // an image id no upload has
  const cal = await openCalendar({ now: () => NOW });
  try {
    await cal.import({ venues: [{ id: 5, venue: 'V', image: String((up.id as number) + 50) }] });
    assert.unreachable('accepted');
  } catch (err) {
    assert.match((err as Error).message, /is not an image attachment/);
  }
  await cal.close();
});

S('a disk that refuses an imported file: the storage error, and nothing of the import stays', async () => {
  const src = await openCalendar({ now: () => NOW });
  await src.media.create({ data: await makeImage(400, 300), filename: 'p.jpg' });
  const data = { media: [] as unknown[], venues: [{ id: 500, venue: 'V' }] };
  for (const r of src.export()) if (r.type === 'media') data.media.push({ ...r, type: undefined });
  await src.close();
  const dir = tmp();
  const cal = await openCalendar({ dir, now: () => NOW });
  (cal.media.files as DiskFiles).beforeStep = (step) => {
    if (step === 'sync') throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
  };
  try {
    await cal.import(data);
    assert.unreachable('accepted');
  } catch (err) {
    assert.is((err as CalendarError).code, 'storage_full');
    assert.is((err as CalendarError).status, 507);
  }
  assert.is((await cal.media.list()).total, 0);
  assert.is((await cal.venues.list()).total, 0);
  assert.equal(filesBelow(path.join(dir, 'uploads')), []);
  (cal.media.files as DiskFiles).beforeStep = undefined;
  assert.is((await cal.import(data)).media, 1, 'imported once the disk takes it');
  await cal.close();
  // a read-only calendar refuses before writing a file
  const ro = await openCalendar({ dir: tmp(), now: () => NOW, readOnly: true });
  try {
    await ro.import(data);
    assert.unreachable('accepted');
  } catch (err) {
    assert.is((err as CalendarError).code, 'calendar_read_only');
  }
  await ro.close();
});

S.run();
