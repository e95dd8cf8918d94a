// Unpublished posts over HTTP, as The Events Calendar 6.17.2 shows them: no UTC dates until
// published ("0000-00-00 00:00:00", WordPress's floating dates), draft venues and organizers
// with a slug from their name (readable by slug by those who may read drafts), draft events
// without a slug until published. The same through the embedding API.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const ZERO = '0000-00-00 00:00:00';
const S = suite<{ t: TestServer }>('e2e :: unpublished posts', {} as { t: TestServer });
S.before(async (ctx) => {
  ctx.t = await startTestServer({ timezone: 'America/New_York' });
});
S.after(async ({ t }) => t.close());

S('a draft or pending event has no UTC dates until published; publishing sets real ones', async ({ t }) => {
  for (const status of ['draft', 'pending']) {
    const c = await t.call('/events', {
      as: 'editor',
      json: { title: `A ${status}`, status, start_date: '2030-02-01 10:00:00', end_date: '2030-02-01 11:00:00' },
    });
    assert.is(c.status, 201, JSON.stringify(c.json));
    assert.equal([c.json.status, c.json.date_utc, c.json.modified_utc, c.json.slug], [status, ZERO, ZERO, '']);
    assert.is(c.json.date, '2030-01-15 07:00:00', 'the local dates stay');
    assert.is(c.json.modified, '2030-01-15 07:00:00');
    const id = c.json.id as number;
    const got = await t.call(`/events/${id}`, { as: 'editor' });
    assert.equal([got.json.date_utc, got.json.modified_utc], [ZERO, ZERO], 'single GET');
    const list = await t.call(`/events?status=${status}&start_date=2030-01-01`, { as: 'editor' });
    const item = (list.json.events as Array<Record<string, unknown>>).find((e) => e.id === id)!;
    assert.equal([item.date_utc, item.modified_utc], [ZERO, ZERO], 'list');
    const obj = await t.cal.events.get(id, 'editor');
    assert.equal([obj.date_utc, obj.modified_utc], [ZERO, ZERO], 'embedding API');
    // saved again as a draft: still none
    const again = await t.call(`/events/${id}`, { method: 'PATCH', as: 'editor', json: { title: 'Renamed' } });
    assert.equal([again.json.date_utc, again.json.modified_utc], [ZERO, ZERO]);
    const pub = await t.call(`/events/${id}`, { method: 'PATCH', as: 'editor', json: { status: 'publish' } });
    assert.equal(
      [pub.json.status, pub.json.date_utc, pub.json.modified_utc],
      ['publish', '2030-01-15 12:00:00', '2030-01-15 12:00:00'],
    );
    assert.match(pub.json.slug as string, /^a-(draft|pending)$|^renamed/);
  }
});

S('a draft with an explicit date_utc keeps it; a published post moved back to draft keeps its dates', async ({ t }) => {
  const c = await t.call('/events', {
    as: 'editor',
    json: {
      title: 'Dated draft',
      status: 'draft',
      date_utc: '2030-01-10 08:00:00',
      start_date: '2030-02-01 10:00:00',
      end_date: '2030-02-01 11:00:00',
    },
  });
  assert.is(c.json.date_utc, '2030-01-10 08:00:00');
  const p = await t.call('/events', {
    as: 'editor',
    json: { title: 'Was published', start_date: '2030-02-01 10:00:00', end_date: '2030-02-01 11:00:00' },
  });
  const back = await t.call(`/events/${p.json.id as number}`, {
    method: 'PATCH',
    as: 'editor',
    json: { status: 'draft' },
  });
  assert.equal([back.json.status, back.json.date_utc], ['draft', '2030-01-15 12:00:00']);
});

for (const [resource, field] of [
  ['venues', 'venue'],
  ['organizers', 'organizer'],
] as const) {
  S(
    `a draft ${field} has no UTC dates, a slug from its name, and is read by slug by those who may read drafts`,
    async ({ t }) => {
      const a = await t.call(`/${resource}`, { as: 'editor', json: { [field]: 'Draft Hall', status: 'draft' } });
      assert.is(a.status, 201);
      assert.equal(
        [a.json.status, a.json.slug, a.json.date_utc, a.json.modified_utc],
        ['draft', 'draft-hall', ZERO, ZERO],
      );
      const b = await t.call(`/${resource}`, {
        as: 'editor',
        json: { [field]: 'Draft Hall', status: 'draft', description: 'another one' },
      });
      assert.is(b.json.slug, 'draft-hall-2', 'unique as usual');
      const bySlug = await t.call(`/${resource}/by-slug/draft-hall`, { as: 'editor' });
      assert.equal([bySlug.status, bySlug.json.id], [200, a.json.id]);
      const anonymous = await t.call(`/${resource}/by-slug/draft-hall`);
      assert.ok(
        anonymous.status === 401 || anonymous.status === 403 || anonymous.status === 404,
        `anonymous: ${anonymous.status}`,
      );
      assert.is((await t.cal[resource].get('draft-hall', 'editor')).id, a.json.id, 'embedding API by slug');
      const pub = await t.call(`/${resource}/${a.json.id as number}`, {
        method: 'PATCH',
        as: 'editor',
        json: { status: 'publish' },
      });
      assert.equal([pub.json.slug, pub.json.date_utc], ['draft-hall', '2030-01-15 12:00:00']);
    },
  );
}

S.run();
