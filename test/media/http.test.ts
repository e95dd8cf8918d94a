// /wp/v2/media through HTTP: uploads as each role, the sizes made and served, WordPress's errors,
// list parameters, edits and deletes, the files at /wp-content/uploads (ETag, 304, ranges), and
// the routes in discovery, OPTIONS and /doc. Images are made by sharp in the test.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import sharp from 'sharp';
import { makeImage, multipart, startMediaServer, type MediaServer } from './helper.ts';
import { request } from '../http/request.ts';

const MEDIA = '/wp-json/wp/v2/media';

interface Ctx {
  s: MediaServer;
  photo: Buffer;
}

const U = suite<Ctx>('media :: upload', {} as Ctx);

U.before(async (ctx) => {
  ctx.s = await startMediaServer({ uploadLimit: 400_000 });
  ctx.photo = await makeImage(1200, 800);
});
U.after(async ({ s }) => s.close());

U("an author uploads a JPEG: 201, Location, WordPress's object and the four sizes", async ({ s, photo }) => {
  const r = await s.upload(photo, 'poster.jpg');
  assert.is(r.status, 201, r.text);
  const m = r.json;
  assert.is(r.headers.location, `${s.url}${MEDIA}/${m.id}`);
  assert.is(m.type, 'attachment');
  assert.is(m.status, 'inherit');
  assert.is(m.media_type, 'image');
  assert.is(m.mime_type, 'image/jpeg');
  assert.is(m.author, s.ids.author);
  assert.is(m.title.rendered, 'poster');
  assert.is(m.slug, 'poster');
  assert.is(m.date, '2030-01-15T12:00:00');
  assert.is(m.source_url, `${s.url}/wp-content/uploads/2030/01/poster.jpg`);
  assert.is(m.link, m.source_url);
  assert.is(m.post, null);
  const d = m.media_details;
  assert.equal([d.width, d.height, d.file, d.filesize], [1200, 800, '2030/01/poster.jpg', photo.length]);
  const dims = Object.fromEntries(
    Object.entries(d.sizes as Record<string, { width: number; height: number; file: string }>).map(([k, v]) => [
      k,
      `${v.width}x${v.height} ${v.file}`,
    ]),
  );
  assert.equal(dims, {
    thumbnail: '150x150 poster-150x150.jpg',
    medium: '300x200 poster-300x200.jpg',
    medium_large: '768x512 poster-768x512.jpg',
    large: '1024x683 poster-1024x683.jpg',
    full: '1200x800 poster.jpg',
  });
  assert.is(d.sizes.medium.source_url, `${s.url}/wp-content/uploads/2030/01/poster-300x200.jpg`);
  assert.is(d.sizes.medium.mime_type, 'image/jpeg');
  assert.ok(d.sizes.thumbnail.filesize > 0);
  assert.equal(m._links.self, [{ href: `${s.url}${MEDIA}/${m.id}` }]);
});

U('the sizes are real images of their dimensions, served with their type', async ({ s, photo }) => {
  const m = (await s.upload(photo, 'sizes.jpg')).json;
  for (const size of Object.values(
    m.media_details.sizes as Record<string, { width: number; height: number; source_url: string; filesize?: number }>,
  )) {
    const r = await fetch(size.source_url);
    assert.is(r.status, 200, size.source_url);
    assert.is(r.headers.get('content-type'), 'image/jpeg');
    const bytes = Buffer.from(await r.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    assert.equal([meta.format, meta.width, meta.height], ['jpeg', size.width, size.height], size.source_url);
    if (size.filesize !== undefined) assert.is(bytes.length, size.filesize);
  }
  const full = Buffer.from(await (await fetch(m.source_url)).arrayBuffer());
  assert.ok(full.equals(photo), '~> the original is kept byte for byte');
});

U('the same name again is made unique: -1, -2, and the sizes follow it', async ({ s }) => {
  const img = await makeImage(400, 300);
  const a = (await s.upload(img, 'twice.jpg')).json;
  const b = (await s.upload(img, 'twice.jpg')).json;
  const c = (await s.upload(img, 'twice.jpg')).json;
  assert.is(a.media_details.file, '2030/01/twice.jpg');
  assert.is(b.media_details.file, '2030/01/twice-1.jpg');
  assert.is(c.media_details.file, '2030/01/twice-2.jpg');
  assert.is(b.media_details.sizes.thumbnail.file, 'twice-1-150x150.jpg');
  assert.equal([a.slug, b.slug, c.slug], ['twice', 'twice-1', 'twice-2'], '~> titled by the stored names');
});

U('uploads running at once never take the same name', async ({ s }) => {
  const img = await makeImage(300, 200);
  const all = await Promise.all([1, 2, 3, 4].map(() => s.upload(img, 'race.jpg')));
  const files = all.map((r) => r.json.media_details.file).sort();
  assert.equal(files, ['2030/01/race-1.jpg', '2030/01/race-2.jpg', '2030/01/race-3.jpg', '2030/01/race.jpg']);
});

U('names are sanitised as WordPress does; the real type decides the extension', async ({ s }) => {
  const r = await s.upload(await makeImage(200, 100), 'My Photo (1)&more.JPG');
  assert.is(r.json.media_details.file, '2030/01/My-Photo-1more.jpg');
  const png = await s.upload(await makeImage(200, 100, 'png'), 'really-a-png.jpg');
  assert.is(png.status, 201, png.text);
  assert.is(png.json.mime_type, 'image/png');
  assert.is(png.json.media_details.file, '2030/01/really-a-png.png');
});

U('PNG, GIF and WebP keep their format in every size', async ({ s }) => {
  for (const [format, mime] of [
    ['png', 'image/png'],
    ['gif', 'image/gif'],
    ['webp', 'image/webp'],
  ] as const) {
    const r = await s.upload(await makeImage(320, 240, format), `pic.${format}`, 'editor', mime);
    assert.is(r.status, 201, r.text);
    assert.is(r.json.mime_type, mime);
    const thumb = r.json.media_details.sizes.thumbnail;
    const bytes = Buffer.from(await (await fetch(thumb.source_url)).arrayBuffer());
    const meta = await sharp(bytes).metadata();
    assert.equal([meta.format, meta.width, meta.height], [format, 150, 150]);
  }
});

U('an image smaller than a size gets no copy of that size (none is enlarged)', async ({ s }) => {
  const r = await s.upload(await makeImage(200, 120), 'small.jpg');
  assert.equal(Object.keys(r.json.media_details.sizes), ['thumbnail', 'full']);
  assert.equal([r.json.media_details.sizes.thumbnail.width, r.json.media_details.sizes.thumbnail.height], [150, 120]);
  const tiny = await s.upload(await makeImage(100, 80), 'tiny.jpg');
  assert.equal(Object.keys(tiny.json.media_details.sizes), ['full']);
});

U('roles: editors and administrators upload; contributors and subscribers 403, anonymous 401', async ({ s }) => {
  const img = await makeImage(160, 160);
  assert.is((await s.upload(img, 'e.jpg', 'editor')).status, 201);
  assert.is((await s.upload(img, 'a.jpg', 'administrator')).status, 201);
  for (const role of ['contributor', 'subscriber'] as const) {
    const r = await s.upload(img, 'c.jpg', role);
    assert.is(r.status, 403, role);
    assert.is(r.json.code, 'rest_cannot_create');
    assert.is(r.json.message, 'Sorry, you are not allowed to upload media on this site.');
  }
  const anon = await request(s.url, MEDIA, {
    method: 'POST',
    body: img,
    headers: { 'content-type': 'image/jpeg', 'content-disposition': 'attachment; filename=x.jpg' },
  });
  assert.is(anon.status, 401);
  assert.is(anon.json.code, 'rest_cannot_create');
});

U('multipart/form-data: the file field with title, caption, alt_text and description', async ({ s }) => {
  const { body, type } = multipart(
    { title: 'Festival poster', caption: 'The <em>big</em> day', alt_text: 'A poster', description: 'Printed in May' },
    { name: 'festival.jpg', type: 'image/jpeg', data: await makeImage(640, 480) },
  );
  const r = await s.call(MEDIA, { method: 'POST', as: 'author', body, headers: { 'content-type': type } });
  assert.is(r.status, 201, r.text);
  assert.is(r.json.title.rendered, 'Festival poster');
  assert.is(r.json.slug, 'festival-poster');
  assert.is(r.json.caption.rendered, '<p>The <em>big</em> day</p>\n');
  assert.is(r.json.alt_text, 'A poster');
  assert.match(r.json.description.rendered, /<p>Printed in May<\/p>/);
  assert.is(r.json.media_details.file, '2030/01/festival.jpg');
  const untitled = multipart({}, { name: 'Summer Fair.jpg', type: 'image/jpeg', data: await makeImage(200, 200) });
  const u = await s.call(MEDIA, {
    method: 'POST',
    as: 'author',
    body: untitled.body,
    headers: { 'content-type': untitled.type },
  });
  assert.is(u.json.title.rendered, 'Summer Fair', '~> a form upload is titled by its original name');
  const none = multipart({ title: 'no file' });
  const n = await s.call(MEDIA, {
    method: 'POST',
    as: 'author',
    body: none.body,
    headers: { 'content-type': none.type },
  });
  assert.is(n.status, 400);
  assert.is(n.json.code, 'rest_upload_no_data');
});

U("WordPress's upload errors: no data, no Content-Type, no or bad Content-Disposition, hash", async ({ s, photo }) => {
  const post = (headers: Record<string, string>, body?: Buffer) =>
    s.call(MEDIA, { method: 'POST', as: 'author', body, headers });
  let r = await post({ 'content-type': 'image/jpeg', 'content-disposition': 'attachment; filename=a.jpg' });
  assert.equal([r.status, r.json.code], [400, 'rest_upload_no_data']);
  r = await post({ 'content-disposition': 'attachment; filename=a.jpg' }, photo);
  assert.equal([r.status, r.json.code], [400, 'rest_upload_no_content_type']);
  r = await post({ 'content-type': 'image/jpeg' }, photo);
  assert.equal([r.status, r.json.code], [400, 'rest_upload_no_content_disposition']);
  r = await post({ 'content-type': 'image/jpeg', 'content-disposition': 'attachment' }, photo);
  assert.equal([r.status, r.json.code], [400, 'rest_upload_invalid_disposition']);
  r = await post(
    {
      'content-type': 'image/jpeg',
      'content-disposition': 'attachment; filename=a.jpg',
      'content-md5': '0'.repeat(32),
    },
    photo,
  );
  assert.equal([r.status, r.json.code], [412, 'rest_upload_hash_mismatch']);
  r = await post(
    { 'content-type': 'image/jpeg', 'content-disposition': "attachment; filename*=UTF-8''caf%C3%A9.jpg" },
    photo,
  );
  assert.equal([r.status, r.json.media_details?.file], [201, '2030/01/cafe.jpg']);
});

U('a file that is not the image it claims: 400 with a clear message, nothing stored', async ({ s }) => {
  const before = Number((await s.call(`${MEDIA}?per_page=1`)).headers['x-wp-total']);
  const text = await s.upload(Buffer.from('just some text, not a picture'), 'fake.jpg');
  assert.equal([text.status, text.json.code], [400, 'rest_upload_sideload_error']);
  assert.match(text.json.message, /not a valid image/);
  const jpeg = await makeImage(600, 400);
  const cut = await s.upload(jpeg.subarray(0, 400), 'cut.jpg');
  assert.equal([cut.status, cut.json.code], [400, 'rest_upload_sideload_error'], cut.text);
  const txt = await s.upload(Buffer.from('hello'), 'notes.txt', 'author', 'text/plain');
  assert.equal([txt.status, txt.json.code], [400, 'rest_upload_sideload_error']);
  assert.match(txt.json.message, /not allowed to upload this file type/);
  const pdf = await s.upload(Buffer.from('%PDF-1.4\n'), 'doc.pdf', 'author', 'application/pdf');
  assert.is(pdf.status, 400);
  const after = Number((await s.call(`${MEDIA}?per_page=1`)).headers['x-wp-total']);
  assert.is(after, before);
  assert.is((await fetch(`${s.url}/wp-content/uploads/2030/01/fake.jpg`)).status, 404);
});

U('over the upload limit: 413 rest_upload_file_too_big, also when only Content-Length says so', async ({ s }) => {
  const big = Buffer.alloc(500_000, 1);
  const r = await s.upload(big, 'big.jpg');
  assert.equal([r.status, r.json.code], [413, 'rest_upload_file_too_big']);
  assert.match(r.json.message, /less than 390 KB/);
  // a declared 50 MB body: the answer comes before the body is sent
  const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(
      `${s.url}${MEDIA}`,
      {
        method: 'POST',
        agent: false,
        headers: {
          authorization: 'Basic ' + Buffer.from(`author:${s.passwords.author}`).toString('base64'),
          'content-type': 'image/jpeg',
          'content-disposition': 'attachment; filename=huge.jpg',
          'content-length': String(50 * 1024 * 1024),
        },
      },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      },
    );
    req.on('error', reject);
    req.write(Buffer.alloc(1000));
    // never sends the rest
  });
  assert.is(answer.status, 413);
  assert.is(JSON.parse(answer.body).code, 'rest_upload_file_too_big');
});

U.run();

// ---

const L = suite<Ctx & { items: Record<string, number> }>(
  'media :: list, get, update, delete',
  {} as Ctx & { items: Record<string, number> },
);

L.before(async (ctx) => {
  ctx.s = await startMediaServer();
  const s = ctx.s;
  const event = await s.call('/wp-json/tribe/events/v1/events', {
    method: 'POST',
    as: 'editor',
    json: { title: 'Fair', start_date: '2030-02-01 10:00:00', end_date: '2030-02-01 12:00:00', status: 'publish' },
  });
  ctx.items = { event: event.json.id };
  ctx.items.a = (await s.upload(await makeImage(300, 300), 'alpha.jpg', 'author')).json.id;
  ctx.items.b = (
    await s.upload(
      await makeImage(300, 300, 'png'),
      'bravo.png',
      'editor',
      'image/png',
      `?post=${ctx.items.event}&title=Bravo%20night`,
    )
  ).json.id;
  ctx.items.c = (
    await s.upload(await makeImage(300, 300), 'charlie.jpg', 'author', 'image/jpeg', '?alt_text=third')
  ).json.id;
});
L.after(async ({ s }) => s.close());

L('list: newest first, X-WP-Total and X-WP-TotalPages, pages and Link', async ({ s, items }) => {
  const r = await s.call(MEDIA);
  assert.is(r.status, 200);
  assert.is(r.headers['x-wp-total'], '3');
  assert.is(r.headers['x-wp-totalpages'], '1');
  assert.equal(
    r.json.map((m: { id: number }) => m.id),
    [items.c, items.b, items.a],
  );
  const p1 = await s.call(`${MEDIA}?per_page=2`);
  assert.is(p1.headers['x-wp-totalpages'], '2');
  assert.match(String(p1.headers.link), /rel="next"/);
  const p2 = await s.call(`${MEDIA}?per_page=2&page=2`);
  assert.equal(
    p2.json.map((m: { id: number }) => m.id),
    [items.a],
  );
  const past = await s.call(`${MEDIA}?per_page=2&page=3`);
  assert.equal([past.status, past.json.code], [400, 'rest_post_invalid_page_number']);
  const bad = await s.call(`${MEDIA}?per_page=101`);
  assert.equal([bad.status, bad.json.code], [400, 'rest_invalid_param']);
});

L('list filters: search, media_type, mime_type, parent, include, author, orderby', async ({ s, items }) => {
  const ids = async (q: string) => (await s.call(`${MEDIA}?${q}`)).json.map((m: { id: number }) => m.id);
  assert.equal(await ids('search=bravo'), [items.b]);
  assert.equal(await ids('search=charlie'), [items.c], '~> the file name is searched');
  assert.equal(await ids('media_type=video'), []);
  assert.equal((await ids('media_type=image')).length, 3);
  assert.equal(await ids('mime_type=image/png'), [items.b]);
  assert.equal(await ids(`parent=${items.event}`), [items.b]);
  assert.equal(await ids('parent=0'), [items.c, items.a]);
  assert.equal(await ids(`include=${items.a},${items.c}&orderby=include&order=asc`), [items.a, items.c]);
  assert.equal(await ids(`author=${s.ids.editor}`), [items.b]);
  assert.equal(await ids('orderby=title&order=asc'), [items.a, items.b, items.c]);
  assert.equal(await ids('orderby=id&order=asc'), [items.a, items.b, items.c]);
  const bad = await s.call(`${MEDIA}?orderby=colour`);
  assert.equal([bad.status, bad.json.code], [400, 'rest_invalid_param']);
});

L('get: the item, or 404 rest_post_invalid_id (an event id is no media item)', async ({ s, items }) => {
  const r = await s.call(`${MEDIA}/${items.c}`);
  assert.equal([r.status, r.json.alt_text], [200, 'third']);
  for (const id of [999999, items.event]) {
    const nf = await s.call(`${MEDIA}/${id}`);
    assert.equal([nf.status, nf.json.code, nf.json.message], [404, 'rest_post_invalid_id', 'Invalid post ID.']);
  }
});

L('update: title, caption, alt_text, description, post; authors only their own, editors any', async ({ s, items }) => {
  const own = await s.call(`${MEDIA}/${items.a}`, {
    method: 'POST',
    as: 'author',
    json: { title: 'Alpha poster', alt_text: 'alt <b>x</b>', caption: 'Cap', description: 'Desc' },
  });
  assert.is(own.status, 200, own.text);
  assert.equal(
    [own.json.title.rendered, own.json.alt_text, own.json.caption.rendered],
    ['Alpha poster', 'alt x', '<p>Cap</p>\n'],
  );
  const toOthers = await s.call(`${MEDIA}/${items.a}`, { method: 'POST', as: 'author', json: { post: items.event } });
  assert.equal(
    [toOthers.status, toOthers.json.code],
    [403, 'rest_cannot_edit'],
    '~> attaching to an event the author may not edit',
  );
  const attached = await s.call(`${MEDIA}/${items.a}`, { method: 'POST', as: 'editor', json: { post: items.event } });
  assert.is(attached.json.post, items.event);
  const others = await s.call(`${MEDIA}/${items.b}`, { method: 'POST', as: 'author', json: { title: 'mine now' } });
  assert.equal([others.status, others.json.code], [403, 'rest_cannot_edit']);
  const ed = await s.call(`${MEDIA}/${items.a}`, {
    method: 'PUT',
    as: 'editor',
    json: { alt_text: 'by the editor', post: 0 },
  });
  assert.equal([ed.status, ed.json.alt_text, ed.json.post], [200, 'by the editor', null]);
  const anon = await s.call(`${MEDIA}/${items.a}`, { method: 'POST', json: { title: 'x' } });
  assert.equal([anon.status, anon.json.code], [401, 'rest_cannot_edit']);
  const badPost = await s.call(`${MEDIA}/${items.a}`, { method: 'POST', as: 'editor', json: { post: 987654 } });
  assert.equal([badPost.status, badPost.json.code], [400, 'rest_invalid_param']);
  const badTitle = await s.call(`${MEDIA}/${items.a}`, { method: 'POST', as: 'editor', json: { title: [1] } });
  assert.equal([badTitle.status, badTitle.json.code], [400, 'rest_invalid_param']);
});

L("delete: force=true required (501), others' items 403, then the item and every file go", async ({ s, items }) => {
  const m = (await s.call(`${MEDIA}/${items.c}`)).json;
  const noForce = await s.call(`${MEDIA}/${items.c}`, { method: 'DELETE', as: 'author' });
  assert.equal([noForce.status, noForce.json.code], [501, 'rest_trash_not_supported']);
  const others = await s.call(`${MEDIA}/${items.b}?force=true`, { method: 'DELETE', as: 'author' });
  assert.equal([others.status, others.json.code], [403, 'rest_cannot_delete']);
  const gone = await s.call(`${MEDIA}/${items.c}?force=true`, { method: 'DELETE', as: 'author' });
  assert.is(gone.status, 200);
  assert.is(gone.json.deleted, true);
  assert.is(gone.json.previous.id, items.c);
  assert.is((await s.call(`${MEDIA}/${items.c}`)).status, 404);
  for (const size of Object.values(m.media_details.sizes as Record<string, { source_url: string }>)) {
    assert.is((await fetch(size.source_url)).status, 404, size.source_url);
  }
  assert.is((await s.call(`${MEDIA}/${items.c}?force=true`, { method: 'DELETE', as: 'editor' })).status, 404);
});

L.run();

// ---

const F = suite<Ctx & { m: Record<string, any> }>(
  'media :: /wp-content/uploads',
  {} as Ctx & { m: Record<string, any> },
);

F.before(async (ctx) => {
  ctx.s = await startMediaServer();
  ctx.photo = await makeImage(320, 240);
  ctx.m = (await ctx.s.upload(ctx.photo, 'served.jpg')).json;
});
F.after(async ({ s }) => s.close());

F('GET and HEAD: type, length, ETag, Last-Modified, Accept-Ranges', async ({ s, m, photo }) => {
  const r = await fetch(m.source_url);
  assert.is(r.status, 200);
  assert.is(r.headers.get('content-type'), 'image/jpeg');
  assert.is(r.headers.get('content-length'), String(photo.length));
  assert.ok(r.headers.get('etag'));
  assert.ok(r.headers.get('last-modified'));
  assert.is(r.headers.get('accept-ranges'), 'bytes');
  const h = await fetch(m.source_url, { method: 'HEAD' });
  assert.is(h.status, 200);
  assert.is(h.headers.get('content-length'), String(photo.length));
  assert.is((await h.arrayBuffer()).byteLength, 0);
  assert.is((await fetch(`${s.url}/wp-content/uploads/2030/01/nothing.jpg`)).status, 404);
  assert.is((await fetch(`${s.url}/wp-content/uploads/2030/01/..%2F..%2F..%2Fusers.json`)).status, 404);
});

F('304 on If-None-Match and on If-Modified-Since', async ({ m }) => {
  const first = await fetch(m.source_url);
  const etag = first.headers.get('etag')!;
  const lm = first.headers.get('last-modified')!;
  assert.is((await fetch(m.source_url, { headers: { 'if-none-match': etag } })).status, 304);
  assert.is((await fetch(m.source_url, { headers: { 'if-none-match': '"other"' } })).status, 200);
  assert.is((await fetch(m.source_url, { headers: { 'if-modified-since': lm } })).status, 304);
  assert.is(
    (await fetch(m.source_url, { headers: { 'if-modified-since': 'Mon, 01 Jan 2001 00:00:00 GMT' } })).status,
    200,
  );
});

F('ranges: 206 with Content-Range for a first, a middle and a last part; 416 past the end', async ({ m, photo }) => {
  const part = async (range: string) => {
    const r = await fetch(m.source_url, { headers: { range } });
    return { status: r.status, range: r.headers.get('content-range'), body: Buffer.from(await r.arrayBuffer()) };
  };
  const a = await part('bytes=0-99');
  assert.equal([a.status, a.range], [206, `bytes 0-99/${photo.length}`]);
  assert.ok(a.body.equals(photo.subarray(0, 100)));
  const b = await part('bytes=100-');
  assert.ok(b.body.equals(photo.subarray(100)));
  const c = await part('bytes=-10');
  assert.ok(c.body.equals(photo.subarray(photo.length - 10)));
  const past = await part(`bytes=${photo.length}-`);
  assert.equal([past.status, past.range], [416, `bytes */${photo.length}`]);
  const stale = await fetch(m.source_url, { headers: { range: 'bytes=0-9', 'if-range': '"stale"' } });
  assert.is(stale.status, 200, '~> If-Range that does not match: the whole file');
});

F('discovery, OPTIONS and /doc name /wp/v2/media', async ({ s }) => {
  const index = (await s.call('/wp-json/')).json;
  assert.ok(index.namespaces.includes('wp/v2'));
  assert.ok(index.namespaces.includes('tribe/events/v1'));
  assert.equal(index.routes['/wp/v2/media'].methods, ['GET', 'POST']);
  assert.equal(index.routes['/wp/v2/media/(?P<id>[\\d]+)'].methods, ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
  const ns = (await s.call('/wp-json/tribe/events/v1')).json;
  assert.not.ok(
    Object.keys(ns.routes).some((k) => k.startsWith('/wp/v2')),
    "~> the plugin's namespace index lists its own routes",
  );
  const opt = await s.call(MEDIA, { method: 'OPTIONS' });
  assert.is(opt.status, 200);
  assert.is(opt.headers.allow, 'GET, POST');
  assert.is(opt.json.namespace, 'wp/v2');
  const doc = (await s.call('/wp-json/tribe/events/v1/doc')).json;
  assert.ok(doc.paths['/wp/v2/media'].post.requestBody.content['multipart/form-data']);
  assert.ok(doc.components.schemas.Media);
});

F.run();
