// The WordPress core routes (wp/v2) over HTTP, for every role: tags and event categories
// (list, get, create, update, delete), the events, venues and organizers (list and get), the
// users (me, list, get), and their place in the discovery index, OPTIONS and /doc.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { request, type Res } from '../http/request.ts';
import { ROLES, type Role } from '../../src/api/wordpress/types.ts';

type Obj = Record<string, any>;

function wp(t: TestServer, path: string, o: { method?: string; as?: Role; json?: unknown } = {}): Promise<Res> {
  const headers: Record<string, string> = {};
  let body: string | undefined;
  if (o.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(o.json);
  }
  return request(t.url, `/wp-json/wp/v2${path}`, {
    method: o.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body,
    auth: o.as ? [o.as, t.passwords[o.as]] : undefined,
  });
}

const ANYONE: Array<Role | undefined> = [undefined, ...ROLES];
const label = (r: Role | undefined): string => r ?? 'anonymous';

// ---

const T = suite<{ t: TestServer }>('e2e :: wp/v2 terms', {} as { t: TestServer });
T.before(async (ctx) => {
  ctx.t = await startTestServer();
});
T.after(async ({ t }) => t.close());

T(
  'GET /wp/v2/tags: a plain array, core representation, X-WP-Total, [] past the last page, for every role',
  async ({ t }) => {
    for (let i = 0; i < 7; i++)
      assert.is(
        (await t.call('/tags', { as: 'editor', json: { name: `Tag ${String.fromCharCode(97 + i)}` } })).status,
        201,
      );
    const used = await t.call('/tags', { as: 'editor', json: { name: 'Used tag' } });
    const ev = await t.call('/events', {
      as: 'editor',
      json: { title: 'Tagged', start_date: '2030-03-01 10:00', end_date: '2030-03-01 11:00', tags: [used.json.id] },
    });
    assert.is(ev.status, 201);
    for (const as of ANYONE) {
      const r = await wp(t, '/tags?hide_empty=0&per_page=50&page=1', { as });
      assert.is(r.status, 200, label(as));
      assert.ok(Array.isArray(r.json), 'a plain array');
      assert.is(r.json.length, 8);
      assert.is(r.headers['x-wp-total'], '8');
      assert.is(r.headers['x-wp-totalpages'], '1');
      const past = await wp(t, '/tags?hide_empty=0&per_page=50&page=2', { as });
      assert.is(past.status, 200, 'past the last page');
      assert.equal(past.json, []);
    }
    const r = await wp(t, '/tags?per_page=50');
    const tag = (r.json as Obj[]).find((x) => x.id === used.json.id)!;
    assert.equal(Object.keys(tag), [
      'id',
      'count',
      'description',
      'link',
      'name',
      'slug',
      'taxonomy',
      'meta',
      '_links',
    ]);
    assert.is(tag.count, 1);
    assert.is(tag.link, `${t.url}/tag/used-tag/`);
    assert.is(tag.taxonomy, 'post_tag');
    assert.equal(tag.meta, []);
    assert.equal(tag._links.self, [{ href: `${t.url}/wp-json/wp/v2/tags/${tag.id}` }]);
    assert.equal(tag._links['wp:post_type'], [{ href: `${t.url}/wp-json/wp/v2/tribe_events?tags=${tag.id}` }]);
    assert.equal(tag._links.curies, [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }]);
    // hide_empty, name order, search, slug, include, exclude, orderby/order, paging headers
    const nonEmpty = await wp(t, '/tags?hide_empty=1');
    assert.equal(
      (nonEmpty.json as Obj[]).map((x) => x.name),
      ['Used tag'],
    );
    const paged = await wp(t, '/tags?per_page=3&page=2');
    assert.equal(
      (paged.json as Obj[]).map((x) => x.name),
      ['Tag d', 'Tag e', 'Tag f'],
    );
    assert.is(paged.headers['x-wp-totalpages'], '3');
    assert.match(String(paged.headers.link), /<[^>]*[?&]page=1>; rel="prev", <[^>]*[?&]page=3>; rel="next"/);
    assert.equal(
      ((await wp(t, '/tags?search=used')).json as Obj[]).map((x) => x.name),
      ['Used tag'],
    );
    assert.equal(
      (await wp(t, '/tags?search=used&_fields=id,name')).json,
      [{ id: used.json.id, name: 'Used tag' }],
      '_fields on each item',
    );
    assert.equal(
      ((await wp(t, '/tags?slug=tag-b,tag-c')).json as Obj[]).map((x) => x.slug),
      ['tag-b', 'tag-c'],
    );
    const a = (r.json as Obj[])[0].id,
      b = (r.json as Obj[])[1].id;
    assert.equal(
      ((await wp(t, `/tags?include=${b},${a}&orderby=include`)).json as Obj[]).map((x) => x.id),
      [b, a],
    );
    assert.is(((await wp(t, `/tags?exclude=${a}&per_page=50`)).json as Obj[]).length, 7);
    assert.equal(
      ((await wp(t, '/tags?orderby=name&order=desc&per_page=2')).json as Obj[]).map((x) => x.name),
      ['Used tag', 'Tag g'],
    );
    assert.equal(
      ((await wp(t, `/tags?post=${ev.json.id}`)).json as Obj[]).map((x) => x.id),
      [used.json.id],
    );
    assert.equal(
      ((await wp(t, '/tags?offset=6&per_page=50')).json as Obj[]).map((x) => x.name),
      ['Tag g', 'Used tag'],
    );
    // bad parameters: 400 rest_invalid_param
    for (const q of [
      'per_page=101',
      'per_page=0',
      'page=0',
      'hide_empty=maybe',
      'orderby=nope',
      'order=up',
      'include=a',
      'context=full',
    ]) {
      const bad = await wp(t, `/tags?${q}`);
      assert.is(bad.status, 400, q);
      assert.is(bad.json.code, 'rest_invalid_param', q);
    }
  },
);

T('GET /wp/v2/tribe_events_cat: parent, hierarchy links, single GET, 404 rest_term_invalid', async ({ t }) => {
  const parent = await wp(t, '/tribe_events_cat', { as: 'author', json: { name: 'Music' } });
  assert.is(parent.status, 201);
  assert.is(parent.headers.location, `${t.url}/wp-json/wp/v2/tribe_events_cat/${parent.json.id}`);
  const child = await wp(t, '/tribe_events_cat', {
    as: 'author',
    json: { name: 'Jazz', parent: parent.json.id, description: 'Swing' },
  });
  assert.is(child.status, 201);
  assert.equal(Object.keys(child.json), [
    'id',
    'count',
    'description',
    'link',
    'name',
    'slug',
    'taxonomy',
    'parent',
    'meta',
    '_links',
  ]);
  assert.is(child.json.link, `${t.url}/events/category/music/jazz/`);
  assert.is(child.json.parent, parent.json.id);
  assert.equal(child.json._links.up, [
    { embeddable: true, href: `${t.url}/wp-json/wp/v2/tribe_events_cat/${parent.json.id}` },
  ]);
  const kids = await wp(t, `/tribe_events_cat?parent=${parent.json.id}`);
  assert.equal(
    (kids.json as Obj[]).map((x) => x.name),
    ['Jazz'],
  );
  const top = await wp(t, '/tribe_events_cat?parent=0');
  assert.equal(
    (top.json as Obj[]).map((x) => x.name),
    ['Music'],
  );
  // the same term through tribe/events/v1
  const tribe = await t.call(`/categories/${child.json.id}`);
  assert.is(tribe.json.name, 'Jazz');
  for (const as of ANYONE) {
    const one = await wp(t, `/tribe_events_cat/${child.json.id}`, { as });
    assert.is(one.status, 200, label(as));
    assert.is(one.json.description, 'Swing');
  }
  const missing = await wp(t, '/tribe_events_cat/999999');
  assert.is(missing.status, 404);
  assert.is(missing.json.code, 'rest_term_invalid');
  const tagAsCat = await t.call('/tags', { as: 'editor', json: { name: 'Not a category' } });
  assert.is((await wp(t, `/tribe_events_cat/${tagAsCat.json.id}`)).json.code, 'rest_term_invalid');
  // context=edit: the capability to edit the terms
  const anonEdit = await wp(t, '/tribe_events_cat?context=edit');
  assert.is(anonEdit.status, 401);
  assert.is(anonEdit.json.code, 'rest_forbidden_context');
  assert.is((await wp(t, '/tribe_events_cat?context=edit', { as: 'contributor' })).status, 403);
  assert.is((await wp(t, '/tribe_events_cat?context=edit', { as: 'author' })).status, 200);
  assert.is((await wp(t, '/tags?context=edit', { as: 'author' })).status, 403, 'tags: manage_categories');
  assert.is((await wp(t, '/tags?context=edit', { as: 'editor' })).status, 200);
});

T('term writes: who may create, update and delete, and core errors', async ({ t }) => {
  // create: categories need publish_tribe_events (author+), tags assign_terms (contributor+)
  const expectCreate: Record<string, [number, number]> = {
    anonymous: [401, 401],
    subscriber: [403, 403],
    contributor: [403, 201],
    author: [201, 201],
    editor: [201, 201],
    administrator: [201, 201],
  };
  for (const as of ANYONE) {
    const [cat, tag] = expectCreate[label(as)];
    const c = await wp(t, '/tribe_events_cat', { as, json: { name: `Cat by ${label(as)}` } });
    assert.is(c.status, cat, `category by ${label(as)}`);
    if (cat !== 201) assert.is(c.json.code, 'rest_cannot_create');
    const g = await wp(t, '/tags', { as, json: { name: `Tag by ${label(as)}` } });
    assert.is(g.status, tag, `tag by ${label(as)}`);
  }
  const tag = await wp(t, '/tags', { as: 'editor', json: { name: 'Editable' } });
  const cat = await wp(t, '/tribe_events_cat', { as: 'editor', json: { name: 'Editable cat' } });
  // update: tags need manage_categories (editor+), categories publish_tribe_events (author+)
  const expectUpdate: Record<string, [number, number]> = {
    anonymous: [401, 401],
    subscriber: [403, 403],
    contributor: [403, 403],
    author: [200, 403],
    editor: [200, 200],
    administrator: [200, 200],
  };
  for (const as of ANYONE) {
    const [c, g] = expectUpdate[label(as)];
    const u1 = await wp(t, `/tribe_events_cat/${cat.json.id}`, {
      as,
      method: 'PUT',
      json: { description: `by ${label(as)}` },
    });
    assert.is(u1.status, c, `category update by ${label(as)}`);
    const u2 = await wp(t, `/tags/${tag.json.id}`, { as, method: 'PATCH', json: { description: `by ${label(as)}` } });
    assert.is(u2.status, g, `tag update by ${label(as)}`);
    if (g !== 200) assert.is(u2.json.code, 'rest_cannot_update');
  }
  const renamed = await wp(t, `/tags/${tag.json.id}`, {
    as: 'editor',
    json: { name: 'Renamed', slug: 'renamed', description: '' },
  });
  assert.is(renamed.status, 200);
  assert.is(renamed.json.slug, 'renamed');
  assert.is(renamed.json.description, '', 'an empty description clears it');
  assert.is((await t.call(`/tags/${tag.json.id}`)).json.name, 'Renamed', 'the tribe route sees the change');
  // errors
  const missing = await wp(t, '/tags', { as: 'editor', json: { description: 'no name' } });
  assert.is(missing.json.code, 'rest_missing_callback_param');
  const dup = await wp(t, '/tags', { as: 'editor', json: { name: 'Renamed' } });
  assert.is(dup.status, 400);
  assert.is(dup.json.code, 'term_exists');
  assert.is(dup.json.data.term_id, tag.json.id);
  const flat = await wp(t, '/tags', { as: 'editor', json: { name: 'With parent', parent: cat.json.id } });
  assert.is(flat.json.code, 'rest_taxonomy_not_hierarchical');
  const orphan = await wp(t, '/tribe_events_cat', { as: 'editor', json: { name: 'Orphan', parent: 999999 } });
  assert.is(orphan.status, 400);
  assert.is(orphan.json.code, 'rest_term_invalid');
  assert.is(
    (await wp(t, '/tags/999999', { as: 'editor', method: 'PUT', json: { name: 'x' } })).json.code,
    'rest_term_invalid',
  );
  // delete: force=true required (501); tags need manage_categories
  const noForce = await wp(t, `/tags/${tag.json.id}`, { as: 'editor', method: 'DELETE' });
  assert.is(noForce.status, 501);
  assert.is(noForce.json.code, 'rest_trash_not_supported');
  for (const as of [undefined, 'subscriber', 'contributor', 'author'] as const) {
    const d = await wp(t, `/tags/${tag.json.id}?force=true`, { as, method: 'DELETE' });
    assert.is(d.status, as === undefined ? 401 : 403, label(as));
    assert.is(d.json.code, 'rest_cannot_delete');
  }
  const deleted = await wp(t, `/tags/${tag.json.id}?force=true`, { as: 'editor', method: 'DELETE' });
  assert.is(deleted.status, 200);
  assert.is(deleted.json.deleted, true);
  assert.is(deleted.json.previous.name, 'Renamed');
  assert.is((await wp(t, `/tags/${tag.json.id}`)).status, 404);
  assert.is((await t.call(`/tags/${tag.json.id}`)).status, 400, 'gone from the tribe route too');
  const catDeleted = await wp(t, `/tribe_events_cat/${cat.json.id}?force=1`, { as: 'author', method: 'DELETE' });
  assert.is(catDeleted.status, 200);
});

T.run();

// ---

const P = suite<{ t: TestServer; ids: Obj }>('e2e :: wp/v2 posts', {} as { t: TestServer; ids: Obj });
P.before(async (ctx) => {
  const t = (ctx.t = await startTestServer());
  const cat = await t.call('/categories', { as: 'editor', json: { name: 'Concerts' } });
  const sub = await t.call('/categories', { as: 'editor', json: { name: 'Jazz', parent: cat.json.id } });
  const tag = await t.call('/tags', { as: 'editor', json: { name: 'Free' } });
  const make = async (as: Role, json: Obj) => {
    const r = await t.call('/events', {
      as,
      json: { start_date: '2030-04-01 19:00', end_date: '2030-04-01 22:00', ...json },
    });
    assert.is(r.status, 201, JSON.stringify(r.json));
    return r.json;
  };
  const published = await make('editor', {
    title: 'Big "show"',
    description: 'Doors at seven.',
    date: '2030-01-10 09:00:00',
    categories: [sub.json.id],
    tags: [tag.json.id],
    venue: { venue: 'Hall A', city: 'Paris' },
    organizer: [{ organizer: 'Org A' }],
    cost: '15',
    website: 'https://example.com/show',
  });
  const older = await make('author', { title: 'Older gig', date: '2030-01-05 09:00:00', categories: [cat.json.id] });
  const draft = await make('contributor', { title: 'Contributor draft' });
  const otherDraft = await make('editor', { title: 'Editor draft', status: 'draft' });
  ctx.ids = { cat: cat.json.id, sub: sub.json.id, tag: tag.json.id, published, older, draft, otherDraft };
});
P.after(async ({ t }) => t.close());

P(
  'GET /wp/v2/tribe_events: published only for anonymous and subscribers, newest publication first, core representation',
  async ({ t, ids }) => {
    for (const as of [undefined, 'subscriber', 'contributor', 'author', 'editor', 'administrator'] as const) {
      const r = await wp(t, '/tribe_events', { as });
      assert.is(r.status, 200, label(as));
      assert.equal(
        (r.json as Obj[]).map((e) => e.id),
        [ids.published.id, ids.older.id],
        `${label(as)}: default status publish`,
      );
      assert.is(r.headers['x-wp-total'], '2');
      assert.is(r.headers['x-wp-totalpages'], '1');
    }
    const [e] = (await wp(t, '/tribe_events')).json as Obj[];
    assert.equal(Object.keys(e), [
      'id',
      'date',
      'date_gmt',
      'guid',
      'modified',
      'modified_gmt',
      'slug',
      'status',
      'type',
      'link',
      'title',
      'content',
      'excerpt',
      'author',
      'featured_media',
      'template',
      'meta',
      'tribe_events_cat',
      'tags',
      '_links',
    ]);
    assert.is(e.date, '2030-01-10T09:00:00');
    assert.is(e.date_gmt, '2030-01-10T09:00:00');
    assert.equal(e.guid, { rendered: `${t.url}/?post_type=tribe_events&#038;p=${e.id}` });
    assert.is(e.type, 'tribe_events');
    assert.is(e.link, `${t.url}/event/big-show/`);
    assert.equal(e.title, { rendered: 'Big &#8220;show&#8221;' });
    assert.equal(e.content, { rendered: '<p>Doors at seven.</p>', protected: false });
    assert.equal(e.excerpt, { rendered: '<p>Doors at seven.</p>', protected: false });
    assert.is(e.author, t.ids.editor);
    assert.is(e.featured_media, 0);
    assert.equal(e.tribe_events_cat, [ids.sub]);
    assert.equal(e.tags, [ids.tag]);
    assert.is(e.meta._EventStartDate, '2030-04-01 19:00:00');
    assert.is(e.meta._EventEndDateUTC, '2030-04-01 22:00:00');
    assert.is(e.meta._EventAllDay, false);
    assert.is(e.meta._EventCost, '15');
    assert.is(e.meta._EventURL, 'https://example.com/show');
    assert.equal(e.meta._EventVenueID, [ids.published.venue.id]);
    assert.equal(e.meta._EventOrganizerID, [ids.published.organizer[0].id]);
    assert.is(e.meta._tribe_events_status, '');
    assert.equal(e._links.author, [{ embeddable: true, href: `${t.url}/wp-json/wp/v2/users/${t.ids.editor}` }]);
    assert.equal(e._links['wp:term'][0], {
      taxonomy: 'tribe_events_cat',
      embeddable: true,
      href: `${t.url}/wp-json/wp/v2/tribe_events_cat?post=${e.id}`,
    });
    // every link the item gives to a wp/v2 route of this service answers
    for (const href of [
      e._links.self[0].href,
      e._links.collection[0].href,
      e._links.author[0].href,
      e._links['wp:term'][0].href,
      e._links['wp:term'][1].href,
    ]) {
      const res = await request(t.url, href.slice(t.url.length));
      assert.is(res.status, 200, href);
    }
  },
);

P(
  'statuses: contributors see their own drafts, editors all; anonymous asking for drafts → 401 rest_forbidden_status',
  async ({ t, ids }) => {
    const anon = await wp(t, '/tribe_events?status=draft');
    assert.is(anon.status, 401);
    assert.is(anon.json.code, 'rest_forbidden_status');
    assert.is((await wp(t, '/tribe_events?status=draft', { as: 'subscriber' })).status, 403);
    // a contributor's event is pending (it cannot publish): its own, not the editor's draft
    const mine = await wp(t, '/tribe_events?status=draft,pending', { as: 'contributor' });
    assert.equal(
      (mine.json as Obj[]).map((e) => e.id),
      [ids.draft.id],
    );
    const author = await wp(t, '/tribe_events?status=any', { as: 'author' });
    assert.equal(
      (author.json as Obj[]).map((e) => e.id).sort(),
      [ids.published.id, ids.older.id].sort(),
      "an author sees no one else's drafts",
    );
    const editor = await wp(t, '/tribe_events?status=any', { as: 'editor' });
    assert.is((editor.json as Obj[]).length, 4);
    assert.is((await wp(t, '/tribe_events?status=nope', { as: 'editor' })).json.code, 'rest_invalid_param');
    // single reads follow the same rule
    assert.is((await wp(t, `/tribe_events/${ids.draft.id}`)).status, 401);
    assert.is((await wp(t, `/tribe_events/${ids.draft.id}`, { as: 'author' })).status, 403);
    assert.is((await wp(t, `/tribe_events/${ids.draft.id}`, { as: 'contributor' })).status, 200);
    const draft = await wp(t, `/tribe_events/${ids.otherDraft.id}`, { as: 'editor' });
    assert.is(draft.json.status, 'draft');
    assert.is(draft.json.link, `${t.url}/?post_type=tribe_events&p=${ids.otherDraft.id}`);
    const edit = await wp(t, `/tribe_events/${ids.published.id}?context=edit`, { as: 'editor' });
    assert.is(edit.json.title.raw, 'Big "show"');
    assert.is(
      (await wp(t, `/tribe_events/${ids.published.id}?context=edit`, { as: 'contributor' })).json.code,
      'rest_forbidden_context',
    );
    assert.is((await wp(t, '/tribe_events?context=edit')).status, 401);
    assert.is(
      (await wp(t, `/tribe_events/${ids.published.venue.id}`)).json.code,
      'rest_post_invalid_id',
      'a venue id is not an event',
    );
    assert.is((await wp(t, '/tribe_events/999999')).status, 404);
  },
);

P(
  'event filters: terms (with child categories), search, include/exclude, slug, author, dates, order, paging',
  async ({ t, ids }) => {
    const list = async (q: string, as?: Role) =>
      ((await wp(t, `/tribe_events?${q}`, { as })).json as Obj[]).map((e) => e.id);
    assert.equal(
      await list(`tribe_events_cat=${ids.cat}`),
      [ids.published.id, ids.older.id],
      'a category takes its children',
    );
    assert.equal(await list(`tribe_events_cat=${ids.sub}`), [ids.published.id]);
    assert.equal(await list(`tags=${ids.tag}`), [ids.published.id]);
    assert.equal(await list(`tribe_events_cat_exclude=${ids.sub}`), [ids.older.id]);
    assert.equal(await list('search=doors'), [ids.published.id]);
    assert.equal(await list(`include=${ids.older.id},${ids.published.id}&orderby=include`), [
      ids.older.id,
      ids.published.id,
    ]);
    assert.equal(await list(`exclude=${ids.published.id}`), [ids.older.id]);
    assert.equal(await list('slug=older-gig'), [ids.older.id]);
    assert.equal(await list(`author=${t.ids.author}`), [ids.older.id]);
    assert.equal(await list('after=2030-01-06T00:00:00'), [ids.published.id]);
    assert.equal(await list('before=2030-01-06T00:00:00'), [ids.older.id]);
    assert.equal(await list('order=asc'), [ids.older.id, ids.published.id]);
    assert.equal(await list('orderby=title&order=asc'), [ids.published.id, ids.older.id]);
    const p1 = await wp(t, '/tribe_events?per_page=1');
    assert.is(p1.headers['x-wp-totalpages'], '2');
    assert.match(String(p1.headers.link), /rel="next"/);
    const past = await wp(t, '/tribe_events?per_page=1&page=3');
    assert.is(past.status, 400);
    assert.is(past.json.code, 'rest_post_invalid_page_number');
    const none = await wp(t, '/tribe_events?search=nothing-matches&page=2');
    assert.is(none.status, 200, 'page 2 of nothing is an empty page');
    assert.equal(none.json, []);
    for (const q of ['after=yesterday', 'per_page=500', 'orderby=relevance', 'include=x', 'tags=x']) {
      assert.is((await wp(t, `/tribe_events?${q}`)).json.code, 'rest_invalid_param', q);
    }
  },
);

P('GET /wp/v2/tribe_venue and /wp/v2/tribe_organizer: title and editor only, for every role', async ({ t, ids }) => {
  const venueId = ids.published.venue.id,
    orgId = ids.published.organizer[0].id;
  for (const as of ANYONE) {
    const v = await wp(t, '/tribe_venue', { as });
    assert.is(v.status, 200, label(as));
    assert.ok((v.json as Obj[]).some((x) => x.id === venueId));
    const o = await wp(t, `/tribe_organizer/${orgId}`, { as });
    assert.is(o.status, 200, label(as));
  }
  const v = await wp(t, `/tribe_venue/${venueId}`);
  assert.equal(Object.keys(v.json), [
    'id',
    'date',
    'date_gmt',
    'guid',
    'modified',
    'modified_gmt',
    'slug',
    'status',
    'type',
    'link',
    'title',
    'content',
    'template',
    '_links',
  ]);
  assert.is(v.json.type, 'tribe_venue');
  assert.is(v.json.link, `${t.url}/venue/hall-a/`);
  assert.equal(v.json.title, { rendered: 'Hall A' });
  const o = await wp(t, `/tribe_organizer/${orgId}`);
  assert.is(o.json.link, `${t.url}/organizer/org-a/`);
  assert.is((await wp(t, `/tribe_organizer/${venueId}`)).json.code, 'rest_post_invalid_id');
  const search = await wp(t, '/tribe_venue?search=hall');
  assert.equal(
    (search.json as Obj[]).map((x) => x.id),
    [venueId],
  );
  const draftVenue = await t.call('/venues', { as: 'editor', json: { venue: 'Secret Hall', status: 'draft' } });
  assert.not.ok(((await wp(t, '/tribe_venue')).json as Obj[]).some((x) => x.id === draftVenue.json.id));
  assert.ok(
    ((await wp(t, '/tribe_venue?status=draft', { as: 'editor' })).json as Obj[]).some(
      (x) => x.id === draftVenue.json.id,
    ),
  );
  assert.is((await wp(t, `/tribe_venue/${draftVenue.json.id}`)).status, 401);
  // a trashed venue shows its plain permalink here too
  await t.call(`/venues/${draftVenue.json.id}`, { as: 'editor', method: 'DELETE' });
  const trashed = await wp(t, `/tribe_venue/${draftVenue.json.id}`, { as: 'editor' });
  assert.is(trashed.json.link, `${t.url}/?post_type=tribe_venue&p=${draftVenue.json.id}`);
  // read only: no write route
  assert.is((await wp(t, '/tribe_events', { as: 'editor', json: { title: 'x' } })).status, 404);
});

P.run();

// ---

const U = suite<{ t: TestServer }>('e2e :: wp/v2 users and discovery', {} as { t: TestServer });
U.before(async (ctx) => {
  ctx.t = await startTestServer();
});
U.after(async ({ t }) => t.close());

U(
  'GET /wp/v2/users/me: 401 rest_not_logged_in anonymous; the acting user for every role, view and edit',
  async ({ t }) => {
    const anon = await wp(t, '/users/me');
    assert.is(anon.status, 401);
    assert.is(anon.json.code, 'rest_not_logged_in');
    for (const role of ROLES) {
      const me = await wp(t, '/users/me', { as: role });
      assert.is(me.status, 200, role);
      assert.is(me.json.id, t.ids[role]);
      assert.is(me.json.name, role);
      assert.is(me.json.slug, role);
      assert.is(me.json.link, `${t.url}/author/${role}/`);
      assert.equal(Object.keys(me.json.avatar_urls), ['24', '48', '96']);
      assert.not.ok('roles' in me.json, 'view context');
      const edit = await wp(t, '/users/me?context=edit', { as: role });
      assert.equal(edit.json.roles, [role]);
      assert.is(edit.json.username, role);
      assert.is(edit.json.capabilities[role], true);
    }
    const caps = (await wp(t, '/users/me?context=edit', { as: 'editor' })).json.capabilities;
    assert.ok(caps.manage_categories && caps.edit_posts && !caps.manage_options);
  },
);

U(
  'GET /wp/v2/users and /users/{id}: authors of published posts for the public, everyone for administrators',
  async ({ t }) => {
    const ev = await t.call('/events', {
      as: 'author',
      json: { title: 'By author', start_date: '2030-05-01 10:00', end_date: '2030-05-01 11:00' },
    });
    assert.is(ev.status, 201);
    for (const as of [undefined, 'subscriber', 'contributor', 'author', 'editor'] as const) {
      const r = await wp(t, '/users', { as });
      assert.is(r.status, 200, label(as));
      assert.equal(
        (r.json as Obj[]).map((u) => u.name),
        ['author'],
        label(as),
      );
    }
    const all = await wp(t, '/users?per_page=100', { as: 'administrator' });
    assert.is(all.headers['x-wp-total'], '5');
    assert.equal(
      (all.json as Obj[]).map((u) => u.name),
      ['administrator', 'author', 'contributor', 'editor', 'subscriber'],
    );
    assert.is((await wp(t, `/users/${t.ids.author}`)).status, 200);
    const hidden = await wp(t, `/users/${t.ids.subscriber}`);
    assert.is(hidden.status, 401);
    assert.is(hidden.json.code, 'rest_user_cannot_view');
    assert.is((await wp(t, `/users/${t.ids.subscriber}`, { as: 'editor' })).status, 403);
    assert.is((await wp(t, `/users/${t.ids.subscriber}`, { as: 'subscriber' })).status, 200, 'oneself');
    assert.is(
      (await wp(t, `/users/${t.ids.subscriber}?context=edit`, { as: 'administrator' })).json.roles[0],
      'subscriber',
    );
    assert.is((await wp(t, '/users?context=edit', { as: 'editor' })).json.code, 'rest_forbidden_context');
    assert.is((await wp(t, '/users/999999')).json.code, 'rest_user_invalid_id');
  },
);

U('discovery: wp/v2 in the site index, its namespace index, OPTIONS and /doc', async ({ t }) => {
  const site = await request(t.url, '/wp-json/');
  assert.ok(site.json.namespaces.includes('wp/v2'));
  assert.ok(site.json.namespaces.includes('tribe/events/v1'));
  for (const key of [
    '/wp/v2/tags',
    '/wp/v2/tags/(?P<id>[\\d]+)',
    '/wp/v2/tribe_events_cat',
    '/wp/v2/tribe_events',
    '/wp/v2/tribe_venue/(?P<id>[\\d]+)',
    '/wp/v2/tribe_organizer',
    '/wp/v2/users/me',
  ]) {
    assert.ok(site.json.routes[key], key);
    assert.is(site.json.routes[key].namespace, 'wp/v2');
  }
  assert.equal(site.json.routes['/wp/v2/tags'].methods, ['GET', 'POST']);
  const ns = await wp(t, '');
  assert.is(ns.json.namespace, 'wp/v2');
  assert.ok(ns.json.routes['/wp/v2/tribe_events/(?P<id>[\\d]+)']);
  assert.not.ok(ns.json.routes['/tribe/events/v1/events'], 'only its own routes');
  const options = await wp(t, '/tags', { method: 'OPTIONS' });
  assert.is(options.headers.allow, 'GET, POST');
  assert.ok(options.json.endpoints[0].args.hide_empty);
  const doc = await t.call('/doc');
  const paths = doc.json.paths as Obj;
  assert.ok(paths['/wp/v2/tags'].get && paths['/wp/v2/tags'].post);
  assert.ok(paths['/wp/v2/tags/{id}'].delete);
  assert.ok(paths['/wp/v2/users/me'].get);
  assert.equal(paths['/wp/v2/tribe_events'].servers, [{ url: `${t.url}/wp-json` }]);
  assert.ok(paths['/wp/v2/tribe_events'].get.parameters.some((p: Obj) => p.name === 'tribe_events_cat'));
  // the ?rest_route= form reaches them too
  const viaQuery = await request(t.url, '/?rest_route=/wp/v2/tags');
  assert.is(viaQuery.status, 200);
  assert.ok(Array.isArray(viaQuery.json));
});

U.run();
