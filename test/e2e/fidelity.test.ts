// Details of the real service, over HTTP: global ids without the port, and /doc documenting the
// namespace index with every operation of the interface.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const S = suite<{ t: TestServer }>('e2e :: fidelity', {} as { t: TestServer });
S.before(async (ctx) => {
  ctx.t = await startTestServer();
});
S.after(async ({ t }) => t.close());

S('global_id and global_id_lineage: the host name without the port the server listens on', async ({ t }) => {
  assert.match(t.url, /:\d+$/, 'the site URL has a port');
  const c = await t.call('/events', {
    as: 'editor',
    json: {
      title: 'Id check',
      start_date: '2030-02-01 10:00:00',
      end_date: '2030-02-01 11:00:00',
      venue: { venue: 'Port Hall' },
    },
  });
  assert.is(c.status, 201);
  assert.is(c.json.global_id, `127.0.0.1?id=${c.json.id as number}`);
  assert.equal(c.json.global_id_lineage, [c.json.global_id]);
  assert.is((c.json.venue as Record<string, unknown>).global_id, `127.0.0.1?id=${(c.json.venue as { id: number }).id}`);
  const list = await t.call('/events?start_date=2030-01-01');
  assert.ok((list.json.events as Array<Record<string, unknown>>).some((e) => e.global_id === c.json.global_id));
});

S(
  '/doc documents the namespace index (GET /wp-json/tribe/events/v1), all 52 operations and the 24 of wp/v2',
  async ({ t }) => {
    const doc = await t.call('/doc');
    assert.is(doc.status, 200);
    const paths = doc.json.paths as Record<string, Record<string, unknown>>;
    assert.ok(paths['/']?.get, 'the namespace index');
    const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
    const count = (wp: boolean): number => {
      let operations = 0;
      for (const [p, item] of Object.entries(paths)) {
        if (p !== '/changes' && p !== '/health' && p.startsWith('/wp/v2') === wp)
          operations += Object.keys(item).filter((k) => METHODS.includes(k)).length;
      }
      return operations;
    };
    assert.is(count(false), 52, 'the interface');
    assert.is(count(true), 31, 'and the WordPress core routes (wp/v2: 24, and /wp/v2/media 7)');
    assert.ok(paths['/changes']?.get, 'and the change feed');
    assert.ok(paths['/health']?.get, 'and the health route');
    const index = await t.call('');
    assert.is(index.status, 200);
    const tribePaths = Object.keys(paths).filter((p) => !p.startsWith('/wp/v2'));
    assert.equal(
      Object.keys(index.json.routes as object).length,
      tribePaths.length,
      'the index lists the routes of the namespace, the change feed among them',
    );
  },
);

S.run();

// ---

type Obj = Record<string, unknown>;
const R = suite<{ t: TestServer }>('e2e :: fidelity, observed on the plugin', {} as { t: TestServer });
R.before(async (ctx) => {
  ctx.t = await startTestServer();
});
R.after(async ({ t }) => t.close());

const window2031 = { start_date: '2031-03-01 10:00:00', end_date: '2031-03-01 11:00:00' };

R(
  'organizer as one object (not a list) → 400 could-not-create-organizer, nothing created; a venue object is accepted',
  async ({ t }) => {
    const before = await t.call('/organizers?per_page=50', { as: 'editor' });
    const eventsBefore = await t.call('/events?start_date=2031-01-01&per_page=50', { as: 'editor' });
    const r = await t.call('/events', {
      as: 'editor',
      json: { title: 'One organizer object', ...window2031, organizer: { organizer: 'Solo Org' } },
    });
    assert.is(r.status, 400);
    assert.is(r.json.code, 'could-not-create-organizer');
    assert.is((r.json.data as Obj).status, 400);
    const after = await t.call('/organizers?per_page=50', { as: 'editor' });
    assert.is(after.json.total, before.json.total, 'no organizer made');
    const eventsAfter = await t.call('/events?start_date=2031-01-01&per_page=50', { as: 'editor' });
    assert.is(eventsAfter.json.total, eventsBefore.json.total, 'no event made');
    // the same organizer in a list works, and an {id} object alone still links
    const ok = await t.call('/events', {
      as: 'editor',
      json: { title: 'Organizer list', ...window2031, organizer: [{ organizer: 'Solo Org' }] },
    });
    assert.is(ok.status, 201);
    const orgId = ((ok.json.organizer as Obj[])[0] as { id: number }).id;
    const byId = await t.call('/events', {
      as: 'editor',
      json: { title: 'Organizer id object', ...window2031, organizer: { id: orgId } },
    });
    assert.is(byId.status, 201);
    assert.is(((byId.json.organizer as Obj[])[0] as { id: number }).id, orgId);
    const venue = await t.call('/events', {
      as: 'editor',
      json: { title: 'Venue object', ...window2031, venue: { venue: 'Object Hall' } },
    });
    assert.is(venue.status, 201);
    assert.is((venue.json.venue as Obj).venue, 'Object Hall');
  },
);

R(
  'next_rest_url / previous_rest_url URL-encoded with page last; every URL carries status (publish / any)',
  async ({ t }) => {
    for (let i = 0; i < 8; i++) {
      const c = await t.call('/events', {
        as: 'editor',
        json: { title: `Paged ${i}`, start_date: `2031-05-0${i + 1} 10:00:00`, end_date: `2031-05-0${i + 1} 11:00:00` },
      });
      assert.is(c.status, 201);
    }
    const q = '/events?per_page=3&page=2&start_date=2031-05-01&end_date=2031-05-31';
    const anon = await t.call(q);
    assert.is(anon.status, 200);
    const base = `${t.root}/events/`;
    const args = 'per_page=3&start_date=2031-05-01+00%3A00%3A00&end_date=2031-05-31+23%3A59%3A59';
    assert.is(
      anon.json.rest_url,
      `${base}?page=2&per_page=3&start_date=2031-05-01 00:00:00&end_date=2031-05-31 23:59:59&status=publish`,
    );
    assert.is(anon.json.next_rest_url, `${base}?${args}&status=publish&page=3`);
    assert.is(anon.json.previous_rest_url, `${base}?${args}&status=publish`);
    const editor = await t.call(q, { as: 'editor' });
    assert.match(editor.json.rest_url as string, /&status=any$/);
    assert.is(editor.json.next_rest_url, `${base}?${args}&status=any&page=3`);
    // featured comes after status, as the plugin adds it
    const featured = await t.call('/events?per_page=3&start_date=2031-05-01&end_date=2031-05-31&featured=false');
    assert.match(featured.json.rest_url as string, /&status=publish&featured=0$/);
    // the next link is followable as it stands
    const next = await t.call((anon.json.next_rest_url as string).slice(t.root.length));
    assert.is(next.status, 200);
    assert.is((next.json.events as Obj[]).length, 2);
    assert.is(next.json.previous_rest_url, `${base}?${args}&status=publish&page=2`);
    // venues: status last in rest_url, and in the neighbours' URLs before page
    for (let i = 0; i < 4; i++)
      assert.is((await t.call('/venues', { as: 'editor', json: { venue: `Enc Venue ${i}` } })).status, 201);
    const v = await t.call('/venues?per_page=2&search=Enc Venue');
    assert.is(v.json.rest_url, `${t.root}/venues/?page=1&per_page=2&search=Enc Venue&status=publish`);
    assert.is(v.json.next_rest_url, `${t.root}/venues/?per_page=2&search=Enc+Venue&status=publish&page=2`);
  },
);

R('a trashed event, venue or organizer shows its plain permalink', async ({ t }) => {
  const e = await t.call('/events', {
    as: 'editor',
    json: { title: 'To trash', ...window2031, venue: { venue: 'Trash Hall' }, organizer: [{ organizer: 'Trash Org' }] },
  });
  assert.is(e.status, 201);
  const id = e.json.id as number;
  assert.is(e.json.url, `${t.url}/event/to-trash/`);
  const d = await t.call(`/events/${id}`, { as: 'editor', method: 'DELETE' });
  assert.is(d.status, 200);
  assert.is(d.json.status, 'trash');
  assert.is(d.json.url, `${t.url}/?post_type=tribe_events&p=${id}`);
  const listed = await t.call('/events?status=trash&start_date=2031-01-01', { as: 'editor' });
  const shown = (listed.json.events as Obj[]).find((x) => x.id === id);
  assert.is(shown?.url, `${t.url}/?post_type=tribe_events&p=${id}`);
  const venueId = (e.json.venue as { id: number }).id;
  const vd = await t.call(`/venues/${venueId}`, { as: 'editor', method: 'DELETE' });
  assert.is(vd.status, 200);
  assert.is(vd.json.url, `${t.url}/?post_type=tribe_venue&p=${venueId}`);
  const orgId = (e.json.organizer as Array<{ id: number }>)[0].id;
  const od = await t.call(`/organizers/${orgId}`, { as: 'editor', method: 'DELETE' });
  assert.is(od.status, 200);
  assert.is(od.json.url, `${t.url}/?post_type=tribe_organizer&p=${orgId}`);
});

R('status future with a publication date not in the future is published', async ({ t }) => {
  const past = await t.call('/events', {
    as: 'editor',
    json: { title: 'Future now', ...window2031, status: 'future', date: '2029-06-01 10:00:00' },
  });
  assert.is(past.status, 201);
  assert.is(past.json.status, 'publish');
  assert.is(past.json.url, `${t.url}/event/future-now/`);
  const anon = await t.call(`/events/${past.json.id as number}`);
  assert.is(anon.status, 200, 'readable by anyone');
  const ahead = await t.call('/events', {
    as: 'editor',
    json: { title: 'Future later', ...window2031, status: 'future', date: '2030-06-01 10:00:00' },
  });
  assert.is(ahead.status, 201);
  assert.is(ahead.json.status, 'future');
  const venue = await t.call('/venues', {
    as: 'editor',
    json: { venue: 'Future Hall', status: 'future', date: '2029-06-01 10:00:00' },
  });
  assert.is(venue.json.status, 'publish');
});

R.run();
