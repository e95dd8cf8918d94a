import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { generateCalendar, type ImportData } from '../../bench/generate.ts';
import { buildQueries, EDITOR, NOW } from '../../bench/queries.ts';
import { ArraysBaseline } from '../../bench/baselines/arrays.ts';
import { loadSqlite, SqliteBaseline } from '../../bench/baselines/sqlite.ts';
import { haversineKm, parseSearch, type QueryParams, type SiteContext } from '../../bench/baselines/semantics.ts';

const SITE: SiteContext = { now: NOW, perPage: 12, siteUrl: 'http://127.0.0.1:8080', restPrefix: '/wp-json' };
const small = (seed = 7): ImportData => generateCalendar({ events: 400, seed, now: NOW });
const YMD_HIS = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

// ---

const Generate = suite('generate');

Generate('generate :: same seed, same calendar; other seed, other calendar', () => {
  assert.equal(JSON.stringify(small(7)), JSON.stringify(small(7)));
  assert.not.equal(JSON.stringify(small(7).events), JSON.stringify(small(8).events));
});

Generate('generate :: sizes and id spaces', () => {
  const d = small();
  assert.is(d.events.length, 400);
  assert.ok(d.venues.length >= 50);
  assert.ok(d.categories.length >= 35 && d.categories.length <= 45);
  assert.is(d.tags.length, 100);
  const postIds = [...d.venues, ...d.organizers, ...d.events].map((p) => p.id);
  assert.is(new Set(postIds).size, postIds.length, 'post ids unique across venues, organizers, events');
  const termIds = [...d.categories, ...d.tags].map((t) => t.id);
  assert.is(new Set(termIds).size, termIds.length, 'term ids unique across categories and tags');
  const slugs = d.events.map((e) => e.slug);
  assert.is(new Set(slugs).size, slugs.length, 'event slugs unique');
});

Generate('generate :: references point at existing records', () => {
  const d = small();
  const cats = new Set(d.categories.map((c) => c.id));
  const tags = new Set(d.tags.map((t) => t.id));
  const venues = new Set(d.venues.map((v) => v.id));
  const orgs = new Set(d.organizers.map((o) => o.id));
  const events = new Set(d.events.map((e) => e.id));
  for (const c of d.categories) assert.ok(c.parent === 0 || cats.has(c.parent), `category ${c.id} parent`);
  for (const e of d.events) {
    for (const c of e.categories) assert.ok(cats.has(c), `~> event ${e.id} category ${c}`);
    for (const t of e.tags) assert.ok(tags.has(t), `~> event ${e.id} tag ${t}`);
    for (const o of e.organizer) assert.ok(orgs.has(o), `~> event ${e.id} organizer ${o}`);
    assert.ok(e.venue === 0 || venues.has(e.venue), `~> event ${e.id} venue ${e.venue}`);
    if (e.post_parent !== undefined)
      assert.ok(events.has(e.post_parent) && e.post_parent < e.id, `~> event ${e.id} parent`);
    assert.match(e.start_date, YMD_HIS);
    assert.match(e.end_date, YMD_HIS);
    assert.ok(e.start_date <= e.end_date, `~> event ${e.id} ends before it starts`);
    if (e.all_day) assert.ok(e.start_date.endsWith('00:00:00') && e.end_date.endsWith('23:59:59'));
    assert.ok(e.timezone.length > 0);
  }
});

Generate('generate :: realistic mix', () => {
  const d = generateCalendar({ events: 5000, seed: 3, now: NOW });
  const share = (f: (e: ImportData['events'][number]) => boolean) => d.events.filter(f).length / d.events.length;
  assert.ok(share((e) => e.status === 'publish') > 0.8);
  assert.ok(share((e) => e.status === 'draft') > 0.01);
  assert.ok(share((e) => e.featured) > 0.03 && share((e) => e.featured) < 0.08);
  assert.ok(share((e) => e.ticketed) > 0.07 && share((e) => e.ticketed) < 0.13);
  assert.ok(share((e) => e.hide_from_listings) > 0.005 && share((e) => e.hide_from_listings) < 0.04);
  assert.ok(share((e) => e.all_day) > 0.05);
  assert.ok(
    share((e) => e.start_date < '2025-06-15') > 0.3 && share((e) => e.start_date > '2025-06-16') > 0.3,
    'past and future',
  );
  assert.ok(new Set(d.events.map((e) => e.timezone)).size >= 18, 'about 20 zones');
  assert.ok(
    d.venues.some((v) => v.geo_lat === undefined),
    'a few venues without coordinates',
  );
});

// ---

const Semantics = suite('semantics');

Semantics('search :: terms, stopwords, quotes, exclusion, folding', () => {
  assert.equal(parseSearch('Crème  brûlée'), { include: ['creme', 'brulee'], exclude: [] });
  assert.equal(parseSearch('the jazz of a night'), { include: ['jazz', 'night'], exclude: [] });
  assert.equal(parseSearch('"open mic" -rock'), { include: ['open mic'], exclude: ['rock'] });
  assert.equal(parseSearch('the'), { include: ['the'], exclude: [] });
});

Semantics('geo :: haversine on the 6371.0088 km sphere', () => {
  // Paris → London, ~343.5 km
  const d = haversineKm(48.8566, 2.3522, 51.5074, -0.1278);
  assert.ok(Math.abs(d - 343.56) < 0.5, String(d));
  assert.is(haversineKm(10, 10, 10, 10), 0);
});

// ---

const Agree = suite('baselines agree');

Agree('arrays :: default window, ordering and paging', () => {
  const d = small();
  const a = new ArraysBaseline(d, SITE);
  const r = a.list({}, null);
  assert.is(r.status, 200);
  const byId = new Map(d.events.map((e) => [e.id, e]));
  const starts = r.ids.map((id) => byId.get(id)!.start_date);
  assert.equal([...starts].sort(), starts, 'ordered by local start');
  for (const id of r.ids) {
    const e = byId.get(id)!;
    assert.ok(
      e.status === 'publish' &&
        !e.hide_from_listings &&
        e.start_date >= '2025-06-14 00:00:00' &&
        e.end_date <= '2027-06-15 23:59:59',
    );
  }
  const body = JSON.parse(r.body);
  assert.is(body.total, r.total);
  assert.is(body.events.length, Math.min(12, r.total));
  const page2 = a.list({ page: '2' }, null);
  assert.not.equal(page2.ids, r.ids);
  assert.is(a.list({ status: 'draft' }, null).status, 400, 'anonymous may only ask for publish');
});

Agree('arrays :: editor sees drafts; hidden events never listed', () => {
  const d = small();
  const a = new ArraysBaseline(d, SITE);
  const anon = a.list({ per_page: '50' }, null).total;
  const editor = a.list({ per_page: '50' }, EDITOR).total;
  assert.ok(editor > anon);
  const hidden = d.events.find((e) => e.hide_from_listings);
  if (hidden) assert.is(a.list({ include: String(hidden.id) }, EDITOR).total, 0);
});

Agree('arrays and sqlite :: same totals, ids and bodies for the whole query mix', async () => {
  const Ctor = await loadSqlite();
  if (typeof Ctor === 'string') {
    console.log(`  (sqlite baseline skipped: ${Ctor})`);
    return;
  }
  const d = generateCalendar({ events: 1500, seed: 11, now: NOW });
  const a = new ArraysBaseline(d, SITE);
  const s = new SqliteBaseline(Ctor, d, SITE);
  try {
    for (const q of buildQueries(d, 11)) {
      const ra = a.list(q.params, q.actor),
        rs = s.list(q.params, q.actor);
      assert.is(rs.status, ra.status, `~> ${q.name} status`);
      assert.is(rs.total, ra.total, `~> ${q.name} total`);
      assert.equal(rs.ids, ra.ids, `~> ${q.name} ids`);
      assert.is(rs.body, ra.body, `~> ${q.name} body`);
    }
    // a few more shapes than the mix has
    const extra: QueryParams[] = [
      { per_page: '50', page: '2' },
      { ends_before: '2025-07-01', starts_after: '2025-06-01' },
      { geoloc: 'false' },
      { search: 'jazz -night' },
    ];
    for (const params of extra) {
      const ra = a.list(params, EDITOR),
        rs = s.list(params, EDITOR);
      assert.is(rs.total, ra.total, `~> ${JSON.stringify(params)} total`);
      assert.equal(rs.ids, ra.ids, `~> ${JSON.stringify(params)} ids`);
    }
  } finally {
    s.close();
  }
});

Generate.run();
Semantics.run();
Agree.run();
