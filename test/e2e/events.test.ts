import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, day, type TestServer } from '../helpers/server.ts';

const E = suite<{ t: TestServer }>('e2e :: events', {} as { t: TestServer });

E.before(async (ctx) => {
  ctx.t = await startTestServer({ perPage: 3 });
});
E.after(async ({ t }) => t.close());

const ev = (i: number, extra: Record<string, unknown> = {}) => ({
  title: `Event ${i}`,
  start_date: day(i + 1),
  end_date: day(i + 1, 12),
  ...extra,
});

E('list :: empty archive → 200, totals 0, headers 0, no next/previous', async ({ t }) => {
  const r = await t.call('/events');
  assert.is(r.status, 200);
  assert.equal(r.json.events, []);
  assert.equal([r.json.total, r.json.total_pages], [0, 0]);
  assert.equal([r.headers['x-tec-total'], r.headers['x-tec-totalpages']], ['0', '0']);
  assert.is(r.json.next_rest_url, undefined);
  assert.is(r.json.previous_rest_url, undefined);
});

E('create :: anonymous → 401; subscriber → 403; admin JSON → 201', async ({ t }) => {
  assert.is((await t.call('/events', { json: ev(0) })).status, 401);
  assert.is((await t.call('/events', { json: ev(0), as: 'subscriber' })).status, 403);
  const r = await t.call('/events', { json: ev(0), as: 'administrator' });
  assert.is(r.status, 201);
  assert.is(r.json.title, 'Event 0');
  assert.is(r.headers.location, undefined);
});

E('create :: validation before permission (anonymous, missing title → 400)', async ({ t }) => {
  const r = await t.call('/events', { json: { start_date: day(1) } });
  assert.equal([r.status, r.json.code], [400, 'rest_missing_callback_param']);
  const bad = await t.call('/events', { json: ev(0, { start_date: 'not a date at all' }) });
  assert.equal([bad.status, bad.json.code], [400, 'rest_invalid_param']);
});

E('create :: form body with PHP brackets (inline organizers, categories[])', async ({ t }) => {
  const form =
    `title=Form+event&start_date=${encodeURIComponent(day(2))}&end_date=${encodeURIComponent(day(2, 12))}` +
    '&organizer[0][organizer]=Org+A&organizer[1][organizer]=Org+B&categories[]=cat-one&venue[venue]=Hall';
  const r = await t.call('/events', { form, as: 'editor' });
  assert.is(r.status, 201, r.text);
  assert.equal(
    r.json.organizer.map((o: any) => o.organizer),
    ['Org A', 'Org B'],
  );
  assert.is(r.json.venue.venue, 'Hall');
  assert.equal(
    r.json.categories.map((c: any) => c.name),
    ['cat-one'],
  );
});

E('list :: pagination headers and next/previous urls (per_page default 3)', async ({ t }) => {
  for (let i = 1; i <= 5; i++)
    assert.is((await t.call('/events', { json: ev(i + 5), as: 'administrator' })).status, 201);
  const p1 = await t.call('/events');
  assert.is(p1.json.events.length, 3);
  assert.equal([p1.json.total, p1.json.total_pages], [7, 3]);
  assert.equal([p1.headers['x-tec-total'], p1.headers['x-tec-totalpages']], ['7', '3']);
  assert.match(p1.json.next_rest_url, /[?&]page=2/);
  assert.is(p1.json.previous_rest_url, undefined);
  // follow next_rest_url over the socket
  const next = new URL(p1.json.next_rest_url.replace(/ /g, '%20'));
  const p2 = await t.call(next.pathname.replace('/wp-json/tribe/events/v1', '') + next.search);
  assert.is(p2.status, 200);
  assert.not.match(p2.json.previous_rest_url, /[?&]page=/);
  const p3 = await t.call('/events?page=3');
  assert.match(p3.json.previous_rest_url, /[?&]page=2/);
  assert.is(p3.json.next_rest_url, undefined);
  const p4 = await t.call('/events?page=4');
  assert.equal([p4.status, p4.json.code], [404, 'event-archive-page-not-found']);
});

E('list :: bad page/per_page → 400; per_page over 50 is capped', async ({ t }) => {
  for (const v of ['foo', '-1', '0', 'foo%20bar']) {
    assert.is((await t.call(`/events?page=${v}`)).status, 400, `page=${v}`);
    assert.is((await t.call(`/events?per_page=${v}`)).status, 400, `per_page=${v}`);
  }
  assert.is((await t.call('/events?per_page=100')).status, 200);
});

E('list :: array parameters as brackets or CSV; _fields; HEAD', async ({ t }) => {
  const list = await t.call('/events?per_page=50', { as: 'editor' });
  const ids = list.json.events.slice(0, 2).map((e: any) => e.id);
  const a = await t.call(`/events?include[]=${ids[0]}&include[]=${ids[1]}&_fields=id`);
  const b = await t.call(`/events?include=${ids.join(',')}&_fields=id`);
  assert.equal(
    a.json.events,
    ids.map((id: number) => ({ id })),
  );
  assert.equal(b.json, a.json);
  const h = await t.call('/events', { method: 'HEAD' });
  assert.equal([h.status, h.text, h.headers['x-tec-total']], [200, '', '7']);
});

E('single :: get, by-slug, 404s for bad ids, update via POST/PUT/PATCH and _method', async ({ t }) => {
  const created = (await t.call('/events', { json: ev(20, { slug: 'slugged' }), as: 'administrator' })).json;
  assert.is((await t.call(`/events/${created.id}`)).json.title, 'Event 20');
  assert.is((await t.call('/events/by-slug/slugged')).json.id, created.id);
  assert.equal([(await t.call('/events/by-slug/nope')).status], [400]);
  assert.is((await t.call('/events/999999')).json.code, 'rest-event-not-found');
  for (const p of ['/events/foo', '/events/by-slug/', '/events/12/x']) {
    const r = await t.call(p);
    assert.equal([r.status, r.json.code], [404, 'rest_no_route'], p);
  }
  for (const method of ['POST', 'PUT', 'PATCH']) {
    const r = await t.call(`/events/${created.id}`, { method, json: { title: `via ${method}` }, as: 'editor' });
    assert.equal([r.status, r.json.title], [200, `via ${method}`]);
  }
  const slugUpd = await t.call('/events/by-slug/slugged', { method: 'PATCH', form: 'title=by+slug', as: 'editor' });
  assert.equal([slugUpd.status, slugUpd.json.title], [200, 'by slug']);
  const del = await t.call(`/events/${created.id}?_method=DELETE`, { method: 'POST', as: 'editor' });
  assert.equal([del.status, del.json.status], [200, 'trash']);
  assert.is((await t.call(`/events/${created.id}`, { method: 'DELETE', as: 'editor' })).status, 410);
  assert.equal([(await t.call(`/events/${created.id}`)).status], [403]);
});

E('writes :: 401 anonymous vs 403 contributor on others’ events; contributor own draft ok', async ({ t }) => {
  const adminEv = (await t.call('/events', { json: ev(30), as: 'administrator' })).json;
  assert.is((await t.call(`/events/${adminEv.id}`, { method: 'PUT', json: { title: 'x' } })).status, 401);
  assert.is(
    (await t.call(`/events/${adminEv.id}`, { method: 'PUT', json: { title: 'x' }, as: 'contributor' })).status,
    403,
  );
  assert.is((await t.call(`/events/${adminEv.id}`, { method: 'DELETE', as: 'contributor' })).status, 403);
  const own = await t.call('/events', { json: ev(31, { status: 'draft' }), as: 'contributor' });
  assert.is(own.status, 201);
  assert.is(
    (await t.call(`/events/${own.json.id}`, { method: 'PUT', json: { title: 'mine' }, as: 'contributor' })).status,
    200,
  );
  assert.is((await t.call(`/events/${own.json.id}`, { method: 'DELETE', as: 'contributor' })).status, 200);
});

E('errors :: wrong method on a collection → 404 rest_no_route; malformed JSON → 400', async ({ t }) => {
  const r = await t.call('/events', { method: 'DELETE', as: 'administrator' });
  assert.equal([r.status, r.json.code], [404, 'rest_no_route']);
  const j = await t.call('/events', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    as: 'administrator',
  });
  assert.is(j.status, 400);
});

E(
  'non-ASCII text :: every body is ASCII JSON with \\u escapes (lists, singles, _fields, errors), lengths exact',
  async ({ t }) => {
    const c = await t.call('/events', {
      as: 'administrator',
      json: ev(40, { title: 'Café ☕ Überfest', slug: 'cafe-uberfest' }),
    });
    assert.is(c.status, 201);
    const ascii = /^[\x00-\x7f]*$/;
    for (const path of [
      `/events/${c.json.id}`,
      '/events?search=caf%C3%A9',
      `/events?search=%C3%BCberfest&_fields=title`,
      '/events/by-slug/%C3%A9t%C3%A9-none',
    ]) {
      const r = await t.call(path);
      assert.ok(ascii.test(r.text), `${path}: ${r.text.slice(0, 120)}`);
      assert.is(r.headers['content-length'], String(r.text.length), path);
    }
    const single = await t.call(`/events/${c.json.id}`);
    assert.is(single.json.title, 'Café ☕ Überfest');
    assert.match(single.text, '"title":"Caf\\u00e9 \\u2615 \\u00dcberfest"');
    const fields = await t.call('/events?search=%C3%BCberfest&_fields=title');
    assert.equal(fields.json.events, [{ title: 'Café ☕ Überfest' }]);
    assert.match(fields.text, 'Caf\\u00e9');
    await t.call(`/events/${c.json.id}?force=true`, { method: 'DELETE', as: 'administrator' });
  },
);

E('delete by slug :: recurrence_scope as by id (the series cut there); OPTIONS lists it on both', async ({ t }) => {
  const window = 'start_date=2031-01-01&end_date=2031-12-31&per_page=50';
  const form =
    'title=Choir&start_date=2031-01-07+19:00&end_date=2031-01-07+21:00&status=publish&recurrence=' +
    encodeURIComponent('RRULE:FREQ=MONTHLY;BYDAY=1TU;UNTIL=20311231T235959Z');
  const series = await t.call('/events', { form, as: 'editor' });
  assert.is(series.status, 201, series.text);
  const before = (await t.call(`/events?${window}`)).json.events;
  assert.is(before.length, 12);
  const cut = await t.call(`/events/by-slug/${before[8].slug}?recurrence_scope=following`, {
    method: 'DELETE',
    as: 'editor',
  });
  assert.is(cut.status, 200, cut.text);
  assert.is((await t.call(`/events?${window}`)).json.events.length, 8, 'September on are gone, not one occurrence');
  const scopeOf = async (path: string) => {
    const r = await t.call(path, { method: 'OPTIONS' });
    const del = r.json.endpoints.find((e: { methods: string[] }) => e.methods.includes('DELETE'));
    return del.args.recurrence_scope;
  };
  const byId = await scopeOf(`/events/${series.json.id}`);
  assert.ok(byId, 'DELETE by id takes recurrence_scope');
  assert.equal(await scopeOf(`/events/by-slug/${series.json.slug}`), byId);
  await t.call(`/events/${series.json.id}?recurrence_scope=all&force=true`, { method: 'DELETE', as: 'administrator' });
});

E.run();
