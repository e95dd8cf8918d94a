// Venues and organizers through the embedding API (docs/behaviour.md, the plugin's HTTP tests Venue*/Organizer*).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { baseEvent, makeCalendar, rejects } from '../helpers/calendar.ts';

const venues = suite('venues');

venues('create: 201 shape, empty values dropped, flags default true, key order', async () => {
  const { cal } = await makeCalendar();
  const v = await cal.venues.create({ venue: 'A venue' });
  assert.is(v.venue, 'A venue');
  assert.is(v.slug, 'a-venue');
  assert.is(v.url, 'http://example.com/venue/a-venue/');
  assert.not.ok('phone' in v);
  assert.not.ok('image' in v);
  assert.not.ok('json_ld' in v);
  assert.equal(Object.keys(v).slice(-4), ['show_map', 'show_map_link', 'global_id', 'global_id_lineage']);
  assert.is(v.show_map, true);
});

venues('post fields: author, timestamps as dates, description, draft status, unknown fields ignored', async () => {
  const { cal, users } = await makeCalendar({ timezone: 'America/New_York' });
  const ts = Date.UTC(2026, 2, 5, 14, 0, 0) / 1000; // tomorrow 9am New York
  const v = await cal.venues.create({
    venue: 'Post fields',
    author: users.editor.id,
    date: ts,
    date_utc: ts,
    description: 'About',
    status: 'draft',
    timezone: 'Europe/Paris',
  });
  assert.is(v.author, String(users.editor.id));
  assert.is(v.date, '2026-03-05 09:00:00');
  assert.is(v.date_utc, '2026-03-05 14:00:00');
  assert.is(v.description, '<p>About</p>');
  assert.is(v.status, 'draft');
});

venues(
  'bad values → 400: empty name, author 23/foo, date foo, unknown status, bad website, geo out of range',
  async () => {
    const { cal } = await makeCalendar();
    await rejects(cal.venues.create({}), 'rest_missing_callback_param', 400);
    for (const bad of [
      { venue: '' },
      { venue: 'x', author: 23 },
      { venue: 'x', author: 'foo' },
      { venue: 'x', date: 'foo' },
      { venue: 'x', date_utc: 'foo' },
      { venue: 'x', status: 'kinda_thinking_about_it' },
      { venue: 'x', website: 'foo' },
      { venue: 'x', geo_lat: 91, geo_lng: 0 },
      { venue: 'x', geo_lat: 10 },
    ]) {
      await rejects(cal.venues.create(bad), 'rest_invalid_param', 400);
    }
    await rejects(cal.venues.create({ venue: 'x' }, null), 'rest_forbidden', 401);
  },
);

venues('meta: flags "false", address fields echoed, stateprovince derived', async () => {
  const { cal } = await makeCalendar();
  const fields = {
    address: 'Baker St 1',
    city: 'London',
    country: 'United Kingdom',
    province: 'Greater London',
    state: '',
    zip: 'NW1',
    phone: '123',
    website: 'http://example.org',
  };
  const v = await cal.venues.create({
    venue: 'Meta',
    show_map: 'false',
    show_map_link: 'false',
    ...fields,
    geo_lat: 51.52,
    geo_lng: -0.158,
  });
  assert.is(v.show_map, false);
  assert.is(v.show_map_link, false);
  for (const [k, val] of Object.entries(fields)) if (val) assert.is(v[k], val, k);
  assert.is(v.stateprovince, 'Greater London');
  assert.is(v.geo_lat, 51.52);
  const us = await cal.venues.create({ venue: 'US', country: 'US', state: 'NY', province: 'ignored' });
  assert.is(us.stateprovince, 'NY');
});

venues('duplicates: same name (any case) or name+description returns the first id, meta written onto it', async () => {
  const { cal } = await makeCalendar();
  const first = await cal.venues.create({ venue: 'A venue', description: 'desc' });
  assert.is((await cal.venues.create({ venue: 'A venue', description: 'desc' })).id, first.id);
  assert.is((await cal.venues.create({ venue: 'A venue' })).id, first.id);
  const again = await cal.venues.create({ venue: 'a VENUE', city: 'Paris' });
  assert.is(again.id, first.id);
  assert.is(again.city, 'Paris');
  assert.not.equal((await cal.venues.create({ venue: 'A venue', description: 'other' })).id, first.id);
});

venues(
  'update: empty strings clear keys, flags reset to true when omitted, renaming onto another name allowed',
  async () => {
    const { cal } = await makeCalendar();
    const v = await cal.venues.create({
      venue: 'Venue 2',
      address: 'a',
      city: 'c',
      phone: 'p',
      website: 'http://w.example.org',
      show_map: false,
    });
    const cleared = await cal.venues.update(v.id as number, {
      show_map: 'false',
      show_map_link: 'false',
      address: '',
      city: '',
      phone: '',
      website: '',
    });
    for (const k of ['address', 'city', 'phone', 'website']) assert.not.ok(k in cleared, k);
    assert.is(cleared.show_map, false);
    const reset = await cal.venues.update(v.id as number, { venue: 'Venue 2' });
    assert.is(reset.show_map, true);
    await cal.venues.create({ venue: 'Venue 1' });
    assert.is((await cal.venues.update(v.id as number, { venue: 'Venue 1' })).venue, 'Venue 1');
    await rejects(cal.venues.update(v.id as number, { venue: '' }), 'rest_invalid_param', 400);
    await rejects(cal.venues.update(23, { venue: 'x' }), 'rest_invalid_param', 400);
  },
);

venues('get: 400 unknown id/slug, 403 draft for anonymous, 200 for editors, json_ld', async () => {
  const { cal, users } = await makeCalendar();
  await rejects(cal.venues.get(23), 'rest_invalid_param', 400);
  await rejects(cal.venues.get('nope'), 'rest_invalid_param', 400);
  const d = await cal.venues.create({ venue: 'Draft hall', status: 'draft', slug: 'draft-hall' });
  await rejects(cal.venues.get(d.id as number, null), 'venue-not-accessible', 403);
  await rejects(cal.venues.get('draft-hall', null), 'venue-not-accessible', 403);
  const seen = await cal.venues.get(d.id as number, users.editor.login);
  assert.is((seen.json_ld as Record<string, unknown>)['@type'], 'Place');
});

venues('delete: trash, 410 again, unlinked from events, permissions', async () => {
  const { cal, users } = await makeCalendar();
  const v = await cal.venues.create({ venue: 'Gone' });
  const ev = await cal.events.create({ ...baseEvent, venue: v.id });
  await rejects(cal.venues.delete(v.id as number, null), 'rest_forbidden', 401);
  await rejects(cal.venues.delete(v.id as number, users.contributor.login), 'rest_forbidden', 403);
  await rejects(cal.venues.update(v.id as number, { venue: 'x' }, users.contributor.login), 'rest_forbidden', 403);
  assert.is((await cal.venues.delete(v.id as number)).status, 'trash');
  await rejects(cal.venues.delete(v.id as number), 'venue-is-in-trash', 410);
  assert.equal((await cal.events.get(ev.id as number)).venue, []);
  await rejects(cal.venues.delete(23, null), 'rest_invalid_param', 400);
});

venues(
  'list: newest publication date first, then the higher id, after every create, update and trash (the engine keeps the order between writes)',
  async () => {
    const { cal } = await makeCalendar();
    const ids = async () => (await cal.venues.list({ per_page: 50 })).items.map((v) => v.id as number);
    const a = await cal.venues.create({ venue: 'Older', date: '2024-01-01 10:00:00' });
    const b = await cal.venues.create({ venue: 'Newer', date: '2025-01-01 10:00:00' });
    const c = await cal.venues.create({ venue: 'Same date', date: '2025-01-01 10:00:00' });
    assert.equal(await ids(), [c.id, b.id, a.id]);
    const d = await cal.venues.create({ venue: 'Newest', date: '2026-01-01 10:00:00' });
    assert.equal(await ids(), [d.id, c.id, b.id, a.id]);
    await cal.venues.update(a.id as number, { venue: 'Older', date: '2027-01-01 10:00:00' });
    assert.equal(await ids(), [a.id, d.id, c.id, b.id]);
    await cal.venues.delete(c.id as number);
    assert.equal(await ids(), [a.id, d.id, b.id]);
    const o1 = await cal.organizers.create({ organizer: 'First', date: '2024-05-01 10:00:00' });
    const o2 = await cal.organizers.create({ organizer: 'Second', date: '2024-06-01 10:00:00' });
    assert.equal(
      (await cal.organizers.list({})).items.map((o) => o.id),
      [o2.id, o1.id],
    );
  },
);

venues.run();

// ---

const organizers = suite('organizers');

organizers('create, meta, duplicates, update clears and keeps', async () => {
  const { cal } = await makeCalendar();
  const o = await cal.organizers.create({
    organizer: 'A organizer',
    email: 'one@common.com',
    phone: '111',
    website: 'http://one.com',
  });
  assert.equal([o.organizer, o.email, o.phone, o.website], ['A organizer', 'one@common.com', '111', 'http://one.com']);
  assert.is((await cal.organizers.create({ organizer: 'A organizer', phone: '222' })).id, o.id);
  const kept = await cal.organizers.update(o.id as number, { organizer: 'A organizer' });
  assert.equal([kept.email, kept.phone], ['one@common.com', '222']);
  const cleared = await cal.organizers.update(o.id as number, { email: '', phone: '', website: '' });
  assert.is(cleared.organizer, 'A organizer');
  for (const k of ['email', 'phone', 'website']) assert.not.ok(k in cleared, k);
  await rejects(cal.organizers.create({ organizer: '' }), 'rest_invalid_param', 400);
  await rejects(
    cal.organizers.create({ organizer: 'x', status: 'kinda_thinking_about_it' }),
    'rest_invalid_param',
    400,
  );
});

organizers('delete unlinks from events; 410 on a second delete', async () => {
  const { cal } = await makeCalendar();
  const o = await cal.organizers.create({ organizer: 'Leaving' });
  const ev = await cal.events.create({ ...baseEvent, organizer: [o.id] });
  await cal.organizers.delete(o.id as number);
  assert.equal((await cal.events.get(ev.id as number)).organizer, []);
  await rejects(cal.organizers.delete(o.id as number), 'organizer-is-in-trash', 410);
});

organizers.run();
