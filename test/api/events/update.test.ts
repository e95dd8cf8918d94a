// Event updates through the embedding API (docs/behaviour.md), with every update case of the
// plugin's own tests and who may update what. Clock: Wednesday 2026-03-04 15:00 UTC (10:00 New
// York, EST; New York switches to EDT on 2026-03-08).
import * as assert from 'uvu/assert';
import { suite } from 'uvu';
import { baseEvent, makeCalendar, rejects } from '../../helpers/calendar.ts';
import type { Params } from '../../../src/api/wordpress/types.ts';
import {
  JPG_URL,
  BAD_IMAGES,
  addAttachment,
  ids,
  names,
  imageOf,
  GENERATED,
  assertGenerated,
  INLINE_VENUES,
  assertInlineVenue,
  fixture,
  type Obj,
} from './fixtures.ts';

const update = suite('events :: update');

update('dates change only when both are sent; timezone re-interprets', async () => {
  const { cal } = await makeCalendar({ timezone: 'America/New_York' });
  const ev = await cal.events.create({ title: 'u', start_date: 'tomorrow 9am', end_date: 'tomorrow 11am' });
  const one = await cal.events.update(ev.id as number, { start_date: 'tomorrow 1pm' });
  assert.is(one.start_date, '2026-03-05 09:00:00');
  const both = await cal.events.update(ev.id as number, { start_date: 'tomorrow 11am', end_date: 'tomorrow 1pm' });
  assert.is(both.start_date, '2026-03-05 11:00:00');
  assert.is(both.utc_start_date, '2026-03-05 16:00:00');
  const paris = await cal.events.update(ev.id as number, {
    start_date: 'tomorrow 9am',
    end_date: 'tomorrow 11am',
    timezone: 'Europe/Paris',
  });
  assert.is(paris.timezone, 'Europe/Paris');
  assert.is(paris.start_date, '2026-03-05 09:00:00');
  assert.is(paris.utc_start_date, '2026-03-05 08:00:00');
  assert.is(paris.timezone_abbr, 'CET');
});

update('update resets: flags, website, organizers; all-day turned off by dates without all_day', async () => {
  const { cal } = await makeCalendar();
  const o = await cal.organizers.create({ organizer: 'O' });
  const ev = await cal.events.create({
    ...baseEvent,
    featured: true,
    sticky: true,
    show_map: true,
    website: 'http://a.example.org',
    organizer: o.id,
    all_day: true,
  });
  const up = await cal.events.update(ev.id as number, { title: 'renamed' });
  assert.is(up.title, 'renamed');
  assert.is(up.featured, false);
  assert.is(up.sticky, false);
  assert.is(up.show_map, false);
  assert.is(up.website, '');
  assert.equal(up.organizer, []);
  assert.is(up.all_day, true);
  const timed = await cal.events.update(ev.id as number, baseEvent);
  assert.is(timed.all_day, false);
  assert.is(timed.start_date, baseEvent.start_date);
});

update('slug renames and by-slug resolution', async () => {
  const { cal } = await makeCalendar();
  const ev = await cal.events.create(baseEvent);
  const up = await cal.events.update(ev.id as number, { slug: 'an-interesting-event' });
  assert.is(up.slug, 'an-interesting-event');
  assert.is((await cal.events.get('an-interesting-event')).id, ev.id);
  const again = await cal.events.update('an-interesting-event', { title: 'Via slug' });
  assert.is(again.title, 'Via slug');
  await rejects(cal.events.get('an-event'), 'rest_invalid_param', 400);
});

update('not found, bad values, permissions per role and ownership', async () => {
  const { cal, users } = await makeCalendar();
  await rejects(cal.events.update(2389, { title: 'x' }), 'rest-event-not-found', 404);
  const adminEvent = await cal.events.create(baseEvent);
  for (const bad of [{ author: 23 }, { date: 'foo' }, { website: 'foo' }]) {
    await rejects(cal.events.update(adminEvent.id as number, bad), 'rest_invalid_param', 400);
  }
  await rejects(cal.events.update(adminEvent.id as number, { title: 'x' }, null), 'rest_forbidden', 401);
  await rejects(
    cal.events.update(adminEvent.id as number, { title: 'x' }, users.contributor.login),
    'rest_forbidden',
    403,
  );
  assert.is((await cal.events.update(adminEvent.id as number, { title: 'ed' }, users.editor.login)).title, 'ed');
  const draft = await cal.events.create(baseEvent, users.contributor.login);
  assert.is((await cal.events.update(draft.id as number, { title: 'mine' }, users.contributor.login)).title, 'mine');
  const published = await cal.events.create({ ...baseEvent, status: 'publish', author: users.contributor.id });
  await rejects(
    cal.events.update(published.id as number, { title: 'x' }, users.contributor.login),
    'rest_forbidden',
    403,
  );
  await rejects(cal.events.delete(published.id as number, users.contributor.login), 'rest_forbidden', 403);
  const own = await cal.events.create({ ...baseEvent, status: 'publish' }, users.author.login);
  assert.is(
    (await cal.events.update(own.id as number, { title: 'author edits own' }, users.author.login)).title,
    'author edits own',
  );
});

update(
  'unauthenticated_cannot_edit_draft_event: anonymous update of a contributor draft → 401, draft unchanged',
  async () => {
    const { cal, users } = await makeCalendar();
    const draft = await cal.events.create({ ...baseEvent, title: 'Contributor draft' }, users.contributor.login);
    assert.is(draft.status, 'draft');
    await rejects(cal.events.update(draft.id as number, { title: 'Hijacked' }, null), 'rest_forbidden', 401);
    const after = await cal.events.get(draft.id as number, users.contributor.login);
    assert.is(after.title, 'Contributor draft');
    assert.is(after.status, 'draft');
  },
);

update('author on update → echoed as a string; date / date_utc on update (site New York)', async () => {
  const { cal, users } = await makeCalendar({ timezone: 'America/New_York' });
  const id = await fixture(cal);
  assert.is((await cal.events.update(id, { author: users.author.id })).author, String(users.author.id));
  const d = await cal.events.update(id, { date: '2026-03-05 09:00:00' });
  assert.equal([d.date, d.date_utc], ['2026-03-05 09:00:00', '2026-03-05 14:00:00']);
  const g = await cal.events.update(id, { date_utc: 'tomorrow 9am' });
  assert.equal([g.date_utc, g.date], ['2026-03-05 09:00:00', '2026-03-05 04:00:00']);
  // the author survives the later updates that did not send one
  assert.is(g.author, String(users.author.id));
});

update(
  'bad optional values on update (author 23 / "", date foo, date_utc foo, website foo) → 400, event unchanged',
  async () => {
    const { cal } = await makeCalendar();
    const id = await fixture(cal, { website: 'http://kept.example.org' });
    const before = await cal.events.get(id);
    for (const bad of [
      { author: 23 },
      { author: '' },
      { date: 'foo' },
      { date_utc: 'foo' },
      { website: 'foo' },
    ] as Params[]) {
      const err = await rejects(cal.events.update(id, bad), 'rest_invalid_param', 400);
      assert.equal(Object.keys(err.data.params as Obj), Object.keys(bad));
    }
    assert.equal(await cal.events.get(id), before);
  },
);

update('it_should_not_allow_overriding_generated_fields on update → 200 with computed values', async () => {
  const { cal } = await makeCalendar();
  const id = await fixture(cal);
  const ev = await cal.events.update(id, { title: 'An event', ...GENERATED });
  assert.is(ev.id, id);
  assertGenerated(ev);
});

update('all_day on update (New York): single day 9am–11am → 00:00:00–23:59:59', async () => {
  const { cal } = await makeCalendar({ timezone: 'America/New_York' });
  const id = await fixture(cal, { start_date: 'tomorrow 2pm', end_date: 'tomorrow 3pm' });
  const ev = await cal.events.update(id, { all_day: true, start_date: 'tomorrow 9am', end_date: 'tomorrow 11am' });
  assert.equal(
    [ev.all_day, ev.start_date, ev.end_date, ev.utc_start_date, ev.utc_end_date],
    [true, '2026-03-05 00:00:00', '2026-03-05 23:59:59', '2026-03-05 05:00:00', '2026-03-06 04:59:59'],
  );
});

update(
  'all_day on update (New York): multi-day tomorrow 9am → +5 days 11am → tomorrow 00:00:00 → +5 days 23:59:59',
  async () => {
    const { cal } = await makeCalendar({ timezone: 'America/New_York' });
    const id = await fixture(cal);
    const ev = await cal.events.update(id, { all_day: 'true', start_date: 'tomorrow 9am', end_date: '+5 days 11am' });
    // New York is on EDT from 2026-03-08
    assert.equal(
      [ev.all_day, ev.start_date, ev.end_date, ev.utc_start_date, ev.utc_end_date],
      [true, '2026-03-05 00:00:00', '2026-03-09 23:59:59', '2026-03-05 05:00:00', '2026-03-10 03:59:59'],
    );
  },
);

update(
  'image on update: bad values, .raw attachment, non-attachment id → 400; attachment id and URL → 200',
  async () => {
    const { cal } = await makeCalendar();
    const id = await fixture(cal);
    const raw = addAttachment(cal, 'http://example.com/wp-content/uploads/photo.raw', 'raw');
    const venue = await cal.venues.create({ venue: 'Not an image' });
    for (const image of [...BAD_IMAGES, raw, venue.id]) {
      await rejects(cal.events.update(id, { image }), 'rest_invalid_param', 400);
    }
    assert.is((await cal.events.get(id)).image, false);
    const att = addAttachment(cal, JPG_URL, 'jpg');
    assert.equal(imageOf(await cal.events.update(id, { image: att })), { url: JPG_URL, id: att, extension: 'jpg' });
    const other = await fixture(cal);
    const byUrl = imageOf(await cal.events.update(other, { image: JPG_URL })) as { id: number };
    assert.is(byUrl.id, att);
    // not sending an image leaves it in place
    assert.is((imageOf(await cal.events.update(other, { title: 'still with image' })) as { id: number }).id, att);
  },
);

update('cost on update: "20$" and ["0$","20$","30$"]', async () => {
  const { cal } = await makeCalendar();
  const id = await fixture(cal);
  const one = await cal.events.update(id, { cost: '20$' });
  assert.is(one.cost, '20$');
  assert.equal(one.cost_details, {
    currency_symbol: '$',
    currency_code: '',
    currency_position: 'postfix',
    values: ['20'],
  });
  const many = await cal.events.update(id, { cost: ['0$', '20$', '30$'] });
  assert.is(many.cost, 'Free – 30$');
  assert.equal(many.cost_details, {
    currency_symbol: '$',
    currency_code: '',
    currency_position: 'postfix',
    values: ['0', '20', '30'],
  });
});

update('website http://example.com on update → echoed', async () => {
  const { cal } = await makeCalendar();
  const id = await fixture(cal);
  assert.is((await cal.events.update(id, { website: 'http://example.com' })).website, 'http://example.com');
});

update('presentation flags: editor on an administrator event, author on own event → each true', async () => {
  const { cal, users } = await makeCalendar();
  const adminEvent = await fixture(cal, {}, users.administrator.login);
  const ownEvent = await fixture(cal, {}, users.author.login);
  for (const [who, id] of [
    [users.editor.login, adminEvent],
    [users.author.login, ownEvent],
  ] as const) {
    for (const flag of ['show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured']) {
      const ev = await cal.events.update(id, { [flag]: true }, who);
      assert.is(ev[flag], true, `${who} ${flag}`);
      assert.is((await cal.events.get(id, who))[flag], true, `${who} ${flag} stored`);
    }
  }
});

update('status=publish on update by administrator, editor, author on their own draft → publish', async () => {
  const { cal, users } = await makeCalendar();
  for (const role of ['administrator', 'editor', 'author'] as const) {
    const who = users[role].login;
    const id = await fixture(cal, { status: 'draft' }, who);
    assert.is((await cal.events.get(id, who)).status, 'draft');
    const ev = await cal.events.update(id, { status: 'publish' }, who);
    assert.is(ev.status, 'publish', role);
    assert.is((await cal.events.get(id, null)).status, 'publish', `${role} stored`);
  }
});

update('existing venue id on update → venue.id; inline venues (4) on update → fields echoed', async () => {
  const { cal } = await makeCalendar();
  const id = await fixture(cal);
  const v = await cal.venues.create({ venue: 'Existing hall' });
  assert.is(((await cal.events.update(id, { venue: v.id })).venue as Obj).id, v.id);
  for (const inline of INLINE_VENUES) {
    const ev = await cal.events.update(id, { venue: inline });
    assertInlineVenue(ev.venue, inline);
    assert.is.not((ev.venue as Obj).id, v.id);
  }
});

update('organizers on update: one id, several in order, inline, inline + existing mixed', async () => {
  const { cal } = await makeCalendar();
  const id = await fixture(cal);
  const o1 = (await cal.organizers.create({ organizer: 'Organizer 1' })).id as number;
  const o2 = (await cal.organizers.create({ organizer: 'Organizer 2' })).id as number;
  assert.equal(ids((await cal.events.update(id, { organizer: o1 })).organizer), [o1]);
  assert.equal(ids((await cal.events.update(id, { organizer: [o2, o1] })).organizer), [o2, o1]);
  const inline = (await cal.events.update(id, { organizer: [{ organizer: 'Organizer A' }] })).organizer as Obj[];
  assert.is(inline.length, 1);
  assert.type(inline[0].id, 'number');
  assert.is(inline[0].organizer, 'Organizer A');
  const three = await cal.events.update(id, {
    organizer: [{ organizer: 'Organizer A' }, { organizer: 'Organizer B' }, { organizer: 'Organizer C' }],
  });
  assert.equal(names((three.organizer as Obj[]).map((o) => ({ name: o.organizer }))), [
    'Organizer A',
    'Organizer B',
    'Organizer C',
  ]);
  const mixed = ids(
    (
      await cal.events.update(id, {
        organizer: [{ organizer: 'Organizer A' }, { id: o1 }, { id: o2 }, { organizer: 'Organizer D' }],
      })
    ).organizer,
  );
  assert.is(mixed.length, 4);
  assert.ok(mixed.includes(o1) && mixed.includes(o2));
  // Organizer A was found again (duplicate detection), not created twice
  assert.is(mixed[0], inline[0].id);
});

update('images of inline venue and organizers on update → echoed', async () => {
  const { cal } = await makeCalendar();
  const id = await fixture(cal);
  const venueImg = 'http://example.com/wp-content/uploads/venue.jpg';
  const orgImgs = [
    'http://example.com/wp-content/uploads/organizer-1.jpg',
    'http://example.com/wp-content/uploads/organizer-2.jpg',
  ];
  const ev = await cal.events.update(id, {
    venue: { venue: 'Venue with image', image: venueImg },
    organizer: [
      { organizer: 'Organizer one', image: orgImgs[0] },
      { organizer: 'Organizer two', image: orgImgs[1] },
    ],
  });
  assert.is((ev.venue as { image: { url: string } }).image.url, venueImg);
  assert.equal(
    (ev.organizer as Array<{ image: { url: string } }>).map((o) => o.image.url),
    orgImgs,
  );
});

update(
  'should_allow_removing_the_organizer_from_an_event: organizer=[] (with venue=[]) → organizer [], venue kept',
  async () => {
    const { cal } = await makeCalendar();
    const o = (await cal.organizers.create({ organizer: 'Organizer' })).id as number;
    const v = (await cal.venues.create({ venue: 'Venue' })).id as number;
    const id = await fixture(cal, { venue: v });
    const linked = await cal.events.update(id, { organizer: o, venue: v });
    assert.equal(ids(linked.organizer), [o]);
    const removed = await cal.events.update(id, { venue: [], organizer: [] });
    assert.equal(removed.organizer, []);
    // writes.md: an empty venue leaves the venue as it is
    assert.is((removed.venue as Obj).id, v);
    assert.equal((await cal.events.get(id)).organizer, []);
  },
);

update(
  'venue=0 / [] / "" on update leaves the venue linked (writes.md); once the venue is gone, venue=0 → []',
  async () => {
    const { cal } = await makeCalendar();
    const id = await fixture(cal);
    const v = (await cal.venues.create({ venue: 'Sticky venue' })).id as number;
    assert.is(((await cal.events.update(id, { venue: v })).venue as Obj).id, v);
    for (const empty of [0, '0', [], '']) {
      assert.is(((await cal.events.update(id, { venue: empty })).venue as Obj).id, v, JSON.stringify(empty));
    }
    // the plugin's test clears the stored link directly; the API's way is deleting the venue, which unlinks it
    await cal.venues.delete(v);
    const ev = await cal.events.update(id, { venue: 0 });
    assert.equal(ev.venue, []);
  },
);

update('categories on update: ids (name order), names created, mixed; "" clears, absent keeps', async () => {
  const { cal } = await makeCalendar();
  const cat1 = await cal.categories.create({ name: 'cat1' });
  const cat2 = await cal.categories.create({ name: 'cat2' });
  const id = await fixture(cal);
  assert.equal(ids((await cal.events.update(id, { categories: [cat2.id, cat1.id] })).categories), [cat1.id, cat2.id]);
  assert.equal(ids((await cal.events.update(id, { title: 'no terms sent' })).categories), [cat1.id, cat2.id]);
  const named = await cal.events.update(id, { categories: 'cat3,cat4' });
  assert.equal(names(named.categories), ['cat3', 'cat4']);
  const mixed = (await cal.events.update(id, { categories: [cat1.id, 'cat5'] })).categories as Obj[];
  assert.equal([mixed.length, mixed[0].id, mixed[1].name], [2, cat1.id, 'cat5']);
  const cleared = await cal.events.update(id, { categories: '' });
  assert.equal(cleared.categories, []);
  assert.equal((await cal.events.get(id)).categories, []);
});

update('tags on update: ids (name order), names created, mixed; "" clears, absent keeps', async () => {
  const { cal } = await makeCalendar();
  const tag1 = await cal.tags.create({ name: 'tag1' });
  const tag2 = await cal.tags.create({ name: 'tag2' });
  const id = await fixture(cal);
  assert.equal(ids((await cal.events.update(id, { tags: [tag2.id, tag1.id] })).tags), [tag1.id, tag2.id]);
  assert.equal(ids((await cal.events.update(id, { title: 'no terms sent' })).tags), [tag1.id, tag2.id]);
  assert.equal(names((await cal.events.update(id, { tags: 'tag3,tag4' })).tags), ['tag3', 'tag4']);
  const mixed = (await cal.events.update(id, { tags: [tag1.id, 'tag5'] })).tags as Obj[];
  assert.equal([mixed.length, mixed[0].id, mixed[1].name], [2, tag1.id, 'tag5']);
  const cleared = await cal.events.update(id, { tags: '' });
  assert.equal(cleared.tags, []);
  assert.equal((await cal.events.get(id)).tags, []);
});

update(
  'timezone on update (site Australia/Darwin): the plugin examples, then the same phrases in Europe/Paris',
  async () => {
    const { cal } = await makeCalendar({ timezone: 'Australia/Darwin' });
    const id = await fixture(cal);
    // start, end, zone → local start, local end, utc start, utc end, abbr (Paris: the same phrases re-read in CET)
    const cases: Array<[string, string, string, string, string, string, string, string, string, string, string]> = [
      [
        'tomorrow 9am',
        'tomorrow 11am',
        'Australia/Sydney',
        '2026-03-06 09:00:00',
        '2026-03-06 11:00:00',
        '2026-03-05 22:00:00',
        '2026-03-06 00:00:00',
        'AEDT',
        '2026-03-05 09:00:00',
        '2026-03-05 08:00:00',
        '2026-03-05 10:00:00',
      ],
      [
        'tomorrow 9am',
        'tomorrow 11am',
        'America/New_York',
        '2026-03-05 09:00:00',
        '2026-03-05 11:00:00',
        '2026-03-05 14:00:00',
        '2026-03-05 16:00:00',
        'EST',
        '2026-03-05 09:00:00',
        '2026-03-05 08:00:00',
        '2026-03-05 10:00:00',
      ],
      [
        'tomorrow 11am',
        'tomorrow 1pm',
        'UTC',
        '2026-03-05 11:00:00',
        '2026-03-05 13:00:00',
        '2026-03-05 11:00:00',
        '2026-03-05 13:00:00',
        'UTC',
        '2026-03-05 11:00:00',
        '2026-03-05 10:00:00',
        '2026-03-05 12:00:00',
      ],
      [
        '2018-01-01 4pm',
        '2018-01-01 5pm',
        'Asia/Hong_Kong',
        '2018-01-01 16:00:00',
        '2018-01-01 17:00:00',
        '2018-01-01 08:00:00',
        '2018-01-01 09:00:00',
        'HKT',
        '2018-01-01 16:00:00',
        '2018-01-01 15:00:00',
        '2018-01-01 16:00:00',
      ],
      [
        'next wednesday 4pm',
        'next wednesday 5pm',
        'Europe/Rome',
        '2026-03-11 16:00:00',
        '2026-03-11 17:00:00',
        '2026-03-11 15:00:00',
        '2026-03-11 16:00:00',
        'CET',
        '2026-03-11 16:00:00',
        '2026-03-11 15:00:00',
        '2026-03-11 16:00:00',
      ],
    ];
    for (const [start, end, zone, ls, le, us, ue, abbr, parisStart, parisUs, parisUe] of cases) {
      const ev = await cal.events.update(id, { start_date: start, end_date: end, timezone: zone });
      assert.equal(
        [ev.timezone, ev.start_date, ev.end_date, ev.utc_start_date, ev.utc_end_date, ev.timezone_abbr],
        [zone, ls, le, us, ue, abbr],
        zone,
      );
      const paris = await cal.events.update(id, { start_date: start, end_date: end, timezone: 'Europe/Paris' });
      assert.equal(
        [paris.timezone, paris.start_date, paris.utc_start_date, paris.utc_end_date, paris.timezone_abbr],
        ['Europe/Paris', parisStart, parisUs, parisUe, 'CET'],
        `${zone} → Paris`,
      );
    }
  },
);

update.run();
