// The media library in the change feed: uploads, edits and deletes are `media` changes (with the
// records that showed a deleted upload updated), seen by whoever may see the item, filtered by
// `types`, over HTTP and to webhooks.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { openCalendar } from '../../src/calendar.ts';
import type { Change } from '../../src/changes/change.ts';
import { addWebhook } from '../../src/changes/webhook-registry.ts';
import { makeImage, NOW, startMediaServer } from './helper.ts';

const S = suite('media :: change feed');

async function until(what: string, ok: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

S('an upload, an edit and a delete are media changes; posts that showed it are updated', async () => {
  const cal = await openCalendar({ now: () => NOW });
  const seen: Change[] = [];
  cal.on('change', (c) => seen.push(c));
  const item = await cal.media.create({
    data: await makeImage(400, 300),
    filename: 'p.jpg',
    params: { alt_text: 'A' },
  });
  const id = item.id as number;
  const venue = await cal.venues.create({ venue: 'Hall', image: String(id) });
  const event = await cal.events.create({
    title: 'Show',
    start_date: '2030-02-01 10:00:00',
    end_date: '2030-02-01 11:00:00',
    image: String(id),
  });
  await cal.media.update(id, { caption: 'Opening night' });
  await cal.media.delete(id);

  const media = seen.filter((c) => c.type === 'media');
  assert.equal(
    media.map((c) => [c.action, c.id]),
    [
      ['created', id],
      ['updated', id],
      ['deleted', id],
    ],
  );
  const created = media[0].fields!;
  assert.is(created.file, '2030/01/p.jpg');
  assert.is(created.mime_type, 'image/jpeg');
  assert.is(created.alt_text, 'A');
  assert.equal(Object.keys(created.sizes as object), ['thumbnail', 'medium']);
  assert.is(created.filesize, (item.media_details as { filesize: number }).filesize);
  // an edit carries what changed (the clock stands still: its modified stamps did not)
  assert.equal(media[1].fields, { caption: 'Opening night' });
  assert.is(media[2].fields, undefined);
  // the delete's write: the item, then the event and the venue that showed it
  const last = seen.filter((c) => c.seq === media[2].seq);
  assert.equal(
    last.map((c) => [c.type, c.action, c.id, c.fields]),
    [
      ['media', 'deleted', id, undefined],
      ['event', 'updated', event.id, { image: 0 }],
      ['venue', 'updated', venue.id, { image: 0 }],
    ],
  );
  // types: media only
  const page = cal.changePage({ since: 0, types: ['media'], limit: 100, actor: null });
  assert.equal(
    page.changes.map((c) => c.action),
    ['created', 'updated', 'deleted'],
  );
  await cal.close();
});

S('a media change is seen by whoever may see the item; HTTP ?types=media', async () => {
  const s = await startMediaServer();
  try {
    const draft = await s.call('/wp-json/tribe/events/v1/events', {
      method: 'POST',
      as: 'author',
      json: { title: 'Draft', status: 'draft', start_date: '2030-02-01 10:00:00', end_date: '2030-02-01 11:00:00' },
    });
    assert.is(draft.status, 201, draft.text);
    const draftId = (draft.json as { id: number }).id;
    const hidden = await s.upload(await makeImage(200, 200), 'hidden.jpg', 'author', 'image/jpeg', `?post=${draftId}`);
    assert.is(hidden.status, 201, hidden.text);
    const open = await s.upload(await makeImage(200, 200), 'open.jpg', 'author');
    const ids = (res: { json: { changes: Change[] } }) => res.json.changes.map((c) => c.id);
    const anonymous = await s.call('/wp-json/tribe/events/v1/changes?since=0&types=media');
    assert.is(anonymous.status, 200, anonymous.text);
    assert.equal(ids(anonymous), [(open.json as { id: number }).id], 'anonymous: the unattached upload only');
    const editor = await s.call('/wp-json/tribe/events/v1/changes?since=0&types=media', { as: 'editor' });
    assert.equal(ids(editor), [(hidden.json as { id: number }).id, (open.json as { id: number }).id]);
    assert.ok(
      (editor.json as { changes: Change[] }).changes.every((c) => c.type === 'media' && c.action === 'created'),
    );
    const both = await s.call('/wp-json/tribe/events/v1/changes?since=0&types=event,media', { as: 'editor' });
    assert.equal(
      (both.json as { changes: Change[] }).changes.map((c) => c.type),
      ['event', 'media', 'media'],
    );
    const bad = await s.call('/wp-json/tribe/events/v1/changes?types=attachment');
    assert.is(bad.status, 400);
    assert.match(bad.text, /media/);
  } finally {
    await s.close();
  }
});

S('webhooks for media receive uploads and deletes', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-hooks-'));
  const got: Change[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      got.push(...(JSON.parse(body) as { changes: Change[] }).changes);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  addWebhook(dir, url, ['media'], undefined, { allowPrivate: true });
  const cal = await openCalendar({
    dir,
    now: () => NOW,
    webhooks: { retryBaseMs: 20, retryMaxMs: 200, reloadMs: 50, log: () => {} },
  });
  try {
    const item = await cal.media.create({ data: await makeImage(300, 200, 'png'), filename: 'w.png' });
    await cal.tags.create({ name: 'not for this hook' });
    await cal.media.delete(item.id as number);
    await until('two deliveries', () => got.length >= 2);
    assert.equal(
      got.map((c) => [c.type, c.action, c.id]),
      [
        ['media', 'created', item.id],
        ['media', 'deleted', item.id],
      ],
    );
    assert.is(got[0].fields!.mime_type, 'image/png');
  } finally {
    await cal.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

S('the feed of a store keeps media changes across a restart', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-feed-'));
  let cal = await openCalendar({ dir, now: () => NOW });
  const item = await cal.media.create({ data: await makeImage(300, 200), filename: 'r.jpg' });
  await cal.close();
  cal = await openCalendar({ dir, now: () => NOW });
  const page = cal.changePage({ since: 0, types: ['media'], limit: 100, actor: null });
  assert.equal(
    page.changes.map((c) => [c.type, c.action, c.id]),
    [['media', 'created', item.id]],
  );
  await cal.close();
});

S.run();
