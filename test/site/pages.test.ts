// The public pages over HTTP: status codes, headers, escaping, visibility, feeds, --no-site.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from '../http/request.ts';
import { HOSTILE_VENUE, siteFixture, type Fixture } from './fixture.ts';

const HTML = { accept: 'text/html,application/xhtml+xml' };
const get = (f: Fixture, p: string, opts: Parameters<typeof request>[2] = {}) =>
  request(f.url, p, { ...opts, headers: { ...HTML, ...opts.headers } });

/** the JSON-LD blocks of a page */
function jsonLd(html: string): unknown[] {
  return [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map((m) => JSON.parse(m[1]));
}

/** every element's tag name in the page, lower case */
const tags = (html: string) => [...html.matchAll(/<([a-zA-Z][a-zA-Z0-9]*)/g)].map((m) => m[1].toLowerCase());

const S = suite<{ f: Fixture }>('site :: pages over HTTP');
S.before(async (ctx) => {
  ctx.f = await siteFixture();
});
S.after(async ({ f }) => f.close());

S('every kind of page answers 200 HTML with the plugin discovery headers and a CSP', async ({ f }) => {
  const root = `${f.url}/wp-json/tribe/events/v1/`;
  const pages: Array<[string, string]> = [
    ['/', root],
    ['/events/', root],
    ['/events/list/', root],
    ['/events/list/page/2/', root],
    ['/events/month/', root],
    ['/events/month/2026-03/', root],
    ['/events/today/', root],
    ['/events/2026-03-18/', root],
    ['/event/spring-concert/', `${root}events/${f.ids.concert}`],
    ['/venue/hall-script-alertv-script-co/', `${root}events/?venue=${f.ids.venue}`],
    ['/organizer/obrien-productions/', root],
    ['/events/category/music/jazz/', `${root}events/?categories=jazz`],
    ['/tag/free/', `${root}events/?tags=free`],
    ['/events/tag/free/', `${root}events/?tags=free`],
  ];
  const venue = await f.cal.venues.get(f.ids.venue);
  pages[9][0] = new URL(String(venue.url)).pathname;
  for (const [p, apiRoot] of pages) {
    const r = await get(f, p);
    assert.is(r.status, 200, p);
    assert.is(r.headers['content-type'], 'text/html; charset=UTF-8', p);
    assert.is(r.headers['content-length'], String(Buffer.byteLength(r.text)), p);
    assert.match(String(r.headers['content-security-policy']), /^default-src 'self'; script-src 'none';/, p);
    assert.is(r.headers['x-tec-api-version'], 'v1', p);
    assert.is(r.headers['x-tec-api-root'], apiRoot, p);
    assert.is(r.headers['x-tec-api-origin'], f.url, p);
    assert.is(r.headers.link, `<${f.url}/wp-json/>; rel="https://api.w.org/"`, p);
    assert.is(r.headers['x-content-type-options'], 'nosniff', p);
    assert.ok(r.text.startsWith('<!DOCTYPE html><html lang="en-US">'), p);
    assert.is(tags(r.text).filter((t) => t === 'h1').length, 1, `~> one h1 on ${p}`);
    assert.ok(tags(r.text).includes('main'), p);
    assert.match(r.text, `<link rel="alternate" type="text/calendar"`, p);
    assert.match(r.text, `<meta name="tec-api-origin" content="${f.url}"/>`, p);
    const head = await get(f, p, { method: 'HEAD' });
    assert.equal(
      [head.status, head.text, head.headers['content-length']],
      [200, '', r.headers['content-length']],
      `~> HEAD ${p}`,
    );
  }
});

S('hostile titles, descriptions and venue names never become markup', async ({ f }) => {
  const venue = await f.cal.venues.get(f.ids.venue);
  for (const p of [
    '/event/hostile/',
    '/event/spring-concert/',
    new URL(String(venue.url)).pathname,
    '/events/month/2026-03/',
    '/events/list/',
    '/events/2026-03-05/',
  ]) {
    const r = await get(f, p);
    assert.is(r.status, 200, p);
    const scripts = [...r.text.matchAll(/<script\b[^>]*>/gi)].map((m) => m[0]);
    assert.ok(
      scripts.every((s) => s === '<script type="application/ld+json">'),
      `~> only JSON-LD scripts on ${p}: ${scripts}`,
    );
    // outside the JSON-LD data, no handler and no script URL survives
    const markup = r.text.replace(/<script type="application\/ld\+json">.*?<\/script>/gs, '');
    assert.not.match(markup, /onerror/i, p);
    assert.not.match(markup, /javascript:/i, p);
    assert.not.match(r.text, /<\/title><script/i, p);
    for (const block of jsonLd(r.text)) assert.ok(block !== null, p);
  }
  const r = await get(f, '/event/hostile/');
  assert.match(r.text, '<h1>“Quotes” &amp; alert(2)</h1>');
  // the description keeps its safe markup
  assert.match(r.text, '<p>Great <strong>music</strong>');
  const v = await get(f, new URL(String(venue.url)).pathname);
  assert.match(v.text, '<h1>Hall alert(&quot;v&quot;) &amp; Co</h1>');
  assert.ok(HOSTILE_VENUE.includes('</title>'));
});

S('a single event page carries its REST json_ld, its details and links', async ({ f }) => {
  const r = await get(f, '/event/spring-concert/');
  const rest = await f.cal.events.get(f.ids.concert);
  const [ld] = jsonLd(r.text) as Array<Record<string, unknown>>;
  assert.equal(ld, JSON.parse(JSON.stringify(rest.json_ld)));
  assert.is(ld['@type'], 'Event');
  assert.equal((ld.location as Record<string, unknown>)['@type'], 'Place');
  assert.match(r.text, '<p class="when">Tuesday, March 10, 2026, 7:00 PM – 9:00 PM EDT</p>');
  assert.match(r.text, `href="${f.url}/events/category/music/jazz/">Jazz &amp; Blues</a>`);
  assert.match(r.text, `href="${f.url}/tag/free/">Free</a>`);
  assert.match(r.text, 'href="mailto:hello@obrien.example.org"');
  assert.match(r.text, 'https://maps.google.com/maps?');
  assert.match(
    r.text,
    'https://www.google.com/calendar/render?action=TEMPLATE&amp;text=Spring+Concert&amp;dates=20260310T230000Z%2F20260311T010000Z',
  );
  assert.match(r.text, `href="${f.url}/event/spring-concert/?ical=1"`);
  assert.match(r.text, '<meta property="og:type" content="article"/>');
  assert.match(r.text, '<dt>Cost</dt><dd>$15</dd>'.replace('$15', String(rest.cost)));
});

S('lists, days and months: the same events as the REST list queries', async ({ f }) => {
  const month = await get(f, '/events/month/2026-03/');
  // a busy day shows three events and "+2 more", linked to its day page
  assert.match(month.text, `<a href="${f.url}/events/2026-03-18/">+2 more`);
  // a multi-day event shows on each of its days
  const cells = month.text
    .split('<td ')
    .slice(1)
    .filter((c) => c.includes('Three-Day Festival'));
  assert.is(cells.length, 3);
  const day = await get(f, '/events/2026-03-18/');
  assert.is([...day.text.matchAll(/class="event-title"/g)].length, 5);
  const rest = await f.cal.events.list({ starts_before: '2026-03-18', ends_after: '2026-03-17', per_page: 5 });
  for (const e of rest.items) assert.match(day.text, `<a href="${e.url}">`);
  const list = await get(f, '/events/list/');
  assert.not.match(list.text, 'Winter Market');
  assert.not.match(list.text, 'Secret Draft');
  assert.not.match(list.text, 'Trashed Gig');
  const past = await get(f, '/events/list/?eventDisplay=past');
  assert.match(past.text, 'Winter Market');
  const search = await get(f, '/events/list/?tribe-bar-search=festival');
  assert.match(search.text, 'Three-Day Festival');
  assert.not.match(search.text, 'Spring Concert</a>');
  const from = await get(f, '/events/list/?tribe-bar-date=2026-03-19');
  assert.match(from.text, 'Three-Day Festival');
  assert.not.match(from.text, 'Busy Day Talk');
  const bad = await get(f, '/events/list/?tribe-bar-date=yesterday');
  assert.is(bad.status, 400);
  assert.match(bad.headers['content-type'] ?? '', 'text/html');
  assert.match(bad.text, 'tribe-bar-date: expected a date as YYYY-MM-DD');
  // JSON-LD on list pages: one Event per listed event
  const lds = jsonLd(list.text)[0] as Array<Record<string, unknown>>;
  assert.ok(
    Array.isArray(lds) &&
      lds.length > 0 &&
      lds.every((x) => x['@type'] === 'Event' && /T\d\d:\d\d:\d\d[-+]\d\d:\d\d$/.test(String(x.startDate))),
  );
});

S('drafts, private and trashed records: a 404 page for the public, a preview for an editor', async ({ f }) => {
  for (const p of [
    '/event/secret-draft/',
    `/?post_type=tribe_events&p=${f.ids.draft}`,
    '/event/private-meeting/',
    '/event/trashed-gig/',
    `/?post_type=tribe_events&p=${f.ids.trashed}`,
    '/event/no-such-event/',
    '/venue/nowhere/',
    '/events/category/jazz/',
    '/events/month/2026-13/',
    '/events/2026-02-30/',
    '/nope/',
  ]) {
    const r = await get(f, p);
    assert.is(r.status, 404, p);
    assert.is(r.headers['content-type'], 'text/html; charset=UTF-8', p);
    assert.match(r.text, '<h1>Page not found</h1>', p);
    assert.match(r.text, '<meta name="robots" content="noindex"/>', p);
    assert.not.match(r.text, 'Secret Draft', p);
  }
  const draft = await get(f, `/?post_type=tribe_events&p=${f.ids.draft}`, { auth: f.editor });
  assert.is(draft.status, 200);
  assert.match(draft.text, '<h1>Secret Draft</h1>');
  assert.match(draft.text, 'Preview: this event is draft');
  assert.is(draft.headers['cache-control'], 'private, no-store');
  const priv = await get(f, '/event/private-meeting/', { auth: f.editor });
  assert.is(priv.status, 200);
  const ask = await get(f, `/?post_type=tribe_events&p=${f.ids.draft}&preview=true`);
  assert.is(ask.status, 401);
  assert.is(ask.headers['www-authenticate'], 'Basic realm="calendar"');
});

S('feeds keep their paths (?ical=1), and listing pages have their own', async ({ f }) => {
  for (const p of [
    '/events/?ical=1',
    '/event/spring-concert/?ical=1',
    '/events/category/music/jazz/?ical=1',
    '/events/month/2026-03/?ical=1',
  ]) {
    const r = await get(f, p);
    assert.is(r.status, 200, p);
    assert.is(r.headers['content-type'], 'text/calendar; charset=UTF-8', p);
    assert.match(r.text, /^BEGIN:VCALENDAR/, p);
  }
  const cat = await get(f, '/events/category/music/jazz/?ical=1');
  assert.match(cat.text, 'SUMMARY:Spring Concert');
  assert.not.match(cat.text, 'Festival');
  const hidden = await get(f, '/event/secret-draft/?ical=1');
  assert.ok(hidden.status >= 400 && hidden.status < 500 && !hidden.text.includes('Secret Draft'));
});

S('the REST routes and the JSON site index are untouched', async ({ f }) => {
  const list = await request(f.url, '/wp-json/tribe/events/v1/events');
  assert.is(list.headers['content-type'], 'application/json; charset=UTF-8');
  const index = await request(f.url, '/', { headers: { accept: 'application/json' } });
  assert.is(index.headers['content-type'], 'application/json; charset=UTF-8');
  assert.ok(index.json.namespaces);
  assert.is(index.headers.vary, 'Accept');
  // the same index below the REST prefix is not the site's root: nothing varies
  assert.is((await request(f.url, '/wp-json/')).headers.vary, undefined);
  const home = await get(f, '/');
  assert.is(home.headers.vary, 'Accept');
  assert.match(home.text, '<h1>Events</h1>');
  // a client that is not a browser gets the REST 404 below the site, as before
  const other = await request(f.url, '/nope/');
  assert.is(other.json.code, 'rest_no_route');
});

S('the stylesheet, and its replacement by a file', async ({ f }) => {
  const css = await get(f, '/calendar.css');
  assert.is(css.status, 200);
  assert.is(css.headers['content-type'], 'text/css; charset=utf-8');
  assert.match(css.text, 'prefers-color-scheme:dark');
});

S.run();

const O = suite('site :: options');

O('--no-site: no pages, the feeds stay', async () => {
  const f = await siteFixture({ site: false });
  try {
    const r = await get(f, '/events/');
    assert.is(r.status, 404);
    assert.is(r.json.code, 'rest_no_route');
    const e = await get(f, '/event/spring-concert/');
    assert.is(e.json.code, 'rest_no_route');
    assert.is((await get(f, '/')).headers['content-type'], 'application/json; charset=UTF-8');
    const feed = await get(f, '/event/spring-concert/?ical=1');
    assert.is(feed.headers['content-type'], 'text/calendar; charset=UTF-8');
  } finally {
    await f.close();
  }
});

O('site title, locale, a stylesheet file, a site URL with a path and another REST prefix', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'site-css-'));
  const file = path.join(dir, 'site.css');
  const f = await siteFixture({
    site: { title: 'Town <Hall>', locale: 'fr-FR', stylesheetFile: file },
    sitePath: '/cal',
    restPrefix: '/api',
  });
  try {
    assert.ok(f.url.endsWith('/cal'));
    const r = await get(f, '/event/spring-concert/');
    assert.is(r.status, 200);
    assert.match(r.text, '<html lang="fr-FR">');
    assert.match(r.text, '<title>Spring Concert – Town &lt;Hall></title>');
    assert.match(r.text, 'mardi 10 mars 2026');
    assert.is(r.headers['x-tec-api-root'], `${f.url}/api/tribe/events/v1/events/${f.ids.concert}`);
    assert.is(r.headers.link, `<${f.url}/api/>; rel="https://api.w.org/"`);
    // not below the site URL's path: not a page
    assert.is((await request(new URL(f.url).origin, '/event/spring-concert/', { headers: HTML })).status, 404);
    const builtIn = /calendar\.css\?v=(\w+)/.exec(r.text)![1];
    writeFileSync(file, 'body{color:teal}');
    const again = await get(f, '/events/');
    const mine = /calendar\.css\?v=(\w+)/.exec(again.text)![1];
    assert.is.not(mine, builtIn);
    assert.is((await get(f, '/calendar.css')).text, 'body{color:teal}');
    rmSync(file);
    assert.match((await get(f, '/calendar.css')).text, 'prefers-color-scheme');
  } finally {
    await f.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

O.run();
