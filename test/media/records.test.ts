// Images on events, venues and organizers (and inline venues/organizers of an event write): set
// by an upload's id or URL, shown as the plugin shows them, in single and list answers alike.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { makeImage, startMediaServer, type MediaServer } from './helper.ts';

const TEC = '/wp-json/tribe/events/v1';

const R = suite<{ s: MediaServer; m: Record<string, any> }>(
  'media :: images on records',
  {} as { s: MediaServer; m: Record<string, any> },
);

R.before(async (ctx) => {
  ctx.s = await startMediaServer();
  ctx.m = (await ctx.s.upload(await makeImage(1200, 800), 'poster.jpg', 'author')).json;
});
R.after(async ({ s }) => s.close());

const event = (extra: Record<string, unknown>) => ({
  title: 'With a poster',
  start_date: '2030-03-01 10:00:00',
  end_date: '2030-03-01 12:00:00',
  status: 'publish',
  ...extra,
});

/** What the plugin shows for the upload `m`. */
function expected(m: Record<string, any>): Record<string, unknown> {
  const base = m.source_url.slice(0, m.source_url.lastIndexOf('/') + 1);
  const sizes: Record<string, unknown> = {};
  for (const name of ['thumbnail', 'medium', 'medium_large', 'large']) {
    const s = m.media_details.sizes[name];
    sizes[name] = {
      width: s.width,
      height: s.height,
      'mime-type': 'image/jpeg',
      filesize: s.filesize,
      url: base + s.file,
    };
  }
  return {
    url: m.source_url,
    id: m.id,
    extension: 'jpg',
    width: 1200,
    height: 800,
    filesize: m.media_details.filesize,
    sizes,
  };
}

R("an event with an upload's id: the plugin's image object, in the single answer and the list", async ({ s, m }) => {
  const r = await s.call(`${TEC}/events`, { method: 'POST', as: 'author', json: event({ image: String(m.id) }) });
  assert.is(r.status, 201, r.text);
  assert.equal(r.json.image, expected(m));
  assert.equal(Object.keys(r.json.image), ['url', 'id', 'extension', 'width', 'height', 'filesize', 'sizes']);
  assert.equal(Object.keys(r.json.image.sizes.thumbnail), ['width', 'height', 'mime-type', 'filesize', 'url']);
  const single = await s.call(`${TEC}/events/${r.json.id}`);
  assert.equal(single.json.image, expected(m));
  const list = await s.call(`${TEC}/events?start_date=2030-03-01`);
  const listed = list.json.events.find((e: { id: number }) => e.id === r.json.id);
  assert.equal(listed.image, expected(m));
  const embedded = s.cal.events.get(r.json.id) as Promise<Record<string, unknown>> | Record<string, unknown>;
  assert.equal((await embedded).image, expected(m), '~> the embedding API shows the same object');
});

R("a venue and an organizer by the upload's URL reuse the upload", async ({ s, m }) => {
  const v = await s.call(`${TEC}/venues`, {
    method: 'POST',
    as: 'author',
    json: { venue: 'Hall', image: m.source_url },
  });
  assert.is(v.status, 201, v.text);
  assert.equal(v.json.image, expected(m));
  const o = await s.call(`${TEC}/organizers`, {
    method: 'POST',
    as: 'author',
    json: { organizer: 'Club', image: String(m.id) },
  });
  assert.equal(o.json.image, expected(m));
  const total = (await s.call('/wp-json/wp/v2/media')).headers['x-wp-total'];
  assert.is(total, '1', '~> no new attachment was made for the URL');
});

R('inline venue and organizers of an event write take an image too', async ({ s, m }) => {
  const r = await s.call(`${TEC}/events`, {
    method: 'POST',
    as: 'editor',
    json: event({
      venue: { venue: 'Inline hall', image: m.id },
      organizer: [{ organizer: 'Inline club', image: m.source_url }],
    }),
  });
  assert.is(r.status, 201, r.text);
  assert.equal(r.json.venue.image, expected(m));
  assert.equal(r.json.organizer[0].image, expected(m));
  assert.is(r.json.image, false);
});

R('contributors set an image by id, not by URL; unknown ids are refused', async ({ s, m }) => {
  const byId = await s.call(`${TEC}/events`, {
    method: 'POST',
    as: 'contributor',
    json: event({ image: String(m.id) }),
  });
  assert.is(byId.status, 201, byId.text);
  assert.is(byId.json.image.id, m.id);
  const byUrl = await s.call(`${TEC}/events`, {
    method: 'POST',
    as: 'contributor',
    json: event({ image: m.source_url }),
  });
  assert.equal([byUrl.status, byUrl.json.code], [400, 'rest_invalid_param']);
  assert.ok(byUrl.json.data.params.image);
  const unknown = await s.call(`${TEC}/events`, { method: 'POST', as: 'author', json: event({ image: '999999' }) });
  assert.equal([unknown.status, unknown.json.code], [400, 'rest_invalid_param']);
});

R('an upload deleted for good: the records that showed it have no image any more', async ({ s }) => {
  const m = (await s.upload(await makeImage(400, 300), 'short-lived.jpg', 'editor')).json;
  const e = (await s.call(`${TEC}/events`, { method: 'POST', as: 'editor', json: event({ image: String(m.id) }) }))
    .json;
  const v = (
    await s.call(`${TEC}/venues`, { method: 'POST', as: 'editor', json: { venue: 'Annex', image: String(m.id) } })
  ).json;
  assert.is(e.image.id, m.id);
  // the event's cached list answer must be dropped as well
  await s.call(`${TEC}/events?start_date=2030-03-01`);
  assert.is((await s.call(`/wp-json/wp/v2/media/${m.id}?force=true`, { method: 'DELETE', as: 'editor' })).status, 200);
  assert.is((await s.call(`${TEC}/events/${e.id}`)).json.image, false);
  const listed = (await s.call(`${TEC}/events?start_date=2030-03-01`)).json.events.find(
    (x: { id: number }) => x.id === e.id,
  );
  assert.is(listed.image, false);
  assert.not.ok('image' in (await s.call(`${TEC}/venues/${v.id}`)).json);
});

R('export names an upload by its URL, which an import into the same site resolves to the upload', async ({ s, m }) => {
  const r = await s.call(`${TEC}/events`, {
    method: 'POST',
    as: 'author',
    json: event({ title: 'Exported', image: String(m.id) }),
  });
  const records = [...s.cal.export()];
  const rec = records.find((x) => x.type === 'event' && x.id === r.json.id)!;
  assert.is(rec.image, m.source_url);
});

R.run();
