// The public pages in a real browser: Debian's headless Chromium driven by playwright-core, one
// launch for the file. Follows links list → event → venue → organizer → category → back, checks
// the visible text against the REST answers, JSON-LD and headers, runs axe-core in each kind of
// page (no serious or critical violations), checks keyboard order, 375 px width, dark mode and
// pages with JavaScript off, and takes screenshots at 1280 and 375 px into a folder out of git
// (SITE_SCREENSHOTS, default a folder under the system's temporary folder).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { siteFixture, type Fixture } from './fixture.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const SHOTS = process.env.SITE_SCREENSHOTS ?? path.join(os.tmpdir(), 'calendar-site-screenshots');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Ctx {
  f: Fixture;
  browser?: Browser;
  context: BrowserContext;
  page: Page;
  /** Content-Security-Policy reports and page errors seen in the console */
  problems: string[];
}

const B = suite<Ctx>('site :: in Chromium');

B.before(async (ctx) => {
  if (!existsSync(CHROMIUM)) {
    console.log(
      `${CHROMIUM} not found (Debian: apt-get install chromium; or set CHROMIUM_PATH): browser tests skipped`,
    );
    return;
  }
  ctx.f = await siteFixture();
  // playwright starts Chromium with a fresh user data folder of its own (and removes it on close)
  ctx.browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true, timeout: 60_000 });
  ctx.context = await ctx.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  ctx.page = await ctx.context.newPage();
  ctx.problems = [];
  ctx.page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource'))
      ctx.problems.push(`${ctx.page.url()}: ${m.text()}`);
  });
  // a stylesheet, icon or image that fails (but the hostile descriptions' own <img src="x">)
  ctx.page.on('response', (r) => {
    if (r.status() >= 400 && r.request().resourceType() !== 'document' && !r.url().endsWith('/x'))
      ctx.problems.push(`${r.url()}: ${r.status()}`);
  });
  ctx.page.on('pageerror', (e) => ctx.problems.push(e.message));
  mkdirSync(SHOTS, { recursive: true });
});

B.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.f?.close();
});

/** the text a browser shows for an HTML fragment (a REST title or name), read in a blank page of
 *  its own (the pages' CSP reports the handler attributes of a hostile title parsed in them) */
let blank: Page | undefined;
const shown = async (page: Page, html: string) =>
  (blank ??= await page.context().newPage()).evaluate((h) => {
    // a template's content is inert: nothing in it loads or runs
    const t = document.createElement('template');
    t.innerHTML = h;
    return (t.content.textContent ?? '').replace(/\s+/g, ' ').trim();
  }, html);

const h1 = (page: Page) => page.locator('h1').innerText();

async function axe(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  const result = await page.evaluate(() =>
    (
      window as unknown as {
        axe: { run(o: unknown): Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }> };
      }
    ).axe.run({ resultTypes: ['violations'] }),
  );
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}, ${v.nodes.length} nodes)`);
}

async function ldBlocks(page: Page): Promise<unknown[]> {
  const texts = await page.locator('script[type="application/ld+json"]').allTextContents();
  return texts.map((t) => JSON.parse(t));
}

B(
  'list → event → venue → organizer → category → back, against the REST answers',
  async ({ browser, f, page, problems }) => {
    if (!browser) return;
    const list = await page.goto(`${f.url}/events/list/`);
    assert.is(list!.status(), 200);
    assert.is(await h1(page), 'Upcoming events');
    // the listed events are the REST answer's, in its order, with its titles as a browser shows them
    const api = await page.locator('link[rel="alternate"][type="application/json"]').getAttribute('href');
    const rest = (await (await fetch(api!)).json()) as { events: Array<{ title: string; url: string }> };
    const titles = await page.locator('.event-title a').allInnerTexts();
    assert.equal(titles, await Promise.all(rest.events.map((e) => shown(page, e.title))));
    assert.equal(
      await page.locator('.event-title a').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href)),
      rest.events.map((e) => e.url),
    );

    const concert = await f.cal.events.get(f.ids.concert);
    const [toEvent] = await Promise.all([
      page.waitForNavigation(),
      page.getByRole('link', { name: 'Spring Concert' }).first().click(),
    ]);
    assert.is(page.url(), concert.url);
    assert.is(toEvent!.headers()['x-tec-api-root'], `${f.url}/wp-json/tribe/events/v1/events/${f.ids.concert}`);
    assert.is(toEvent!.headers()['x-tec-api-version'], 'v1');
    assert.is(await h1(page), await shown(page, String(concert.title)));
    assert.is(await page.locator('p.when').innerText(), 'Tuesday, March 10, 2026, 7:00 PM – 9:00 PM EDT');
    assert.equal(await ldBlocks(page), [JSON.parse(JSON.stringify(concert.json_ld))]);
    assert.is(await page.locator('.description strong').innerText(), 'music');
    assert.is(await page.locator('meta[property="og:title"]').getAttribute('content'), 'Spring Concert');

    const venue = concert.venue as Record<string, string>;
    await Promise.all([page.waitForNavigation(), page.locator('#venue + .linked .name a').click()]);
    assert.is(page.url(), venue.url);
    assert.is(await h1(page), await shown(page, venue.venue));
    assert.ok((await page.locator('address').innerText()).includes('1 Main St'));
    await page.goBack();
    assert.is(page.url(), concert.url);

    const organizer = (concert.organizer as Array<Record<string, string>>)[0];
    await Promise.all([page.waitForNavigation(), page.locator('#organizer + .linked .name a').click()]);
    assert.is(page.url(), organizer.url);
    assert.is(await h1(page), await shown(page, organizer.organizer));
    assert.is(await page.locator('a[href^="mailto:"]').innerText(), organizer.email);
    await page.goBack();

    const jazz = await f.cal.categories.get(f.ids.jazz);
    const [toCategory] = await Promise.all([
      page.waitForNavigation(),
      page.getByRole('link', { name: 'Jazz & Blues' }).click(),
    ]);
    assert.is(page.url(), jazz.url);
    assert.is(toCategory!.headers()['x-tec-api-root'], `${f.url}/wp-json/tribe/events/v1/events/?categories=jazz`);
    assert.is(await h1(page), 'Jazz & Blues events');
    assert.equal(await page.locator('.event-title a').allInnerTexts(), ['Spring Concert']);
    await page.goBack();
    await page.goBack();
    assert.is(page.url(), `${f.url}/events/list/`);
    assert.equal(problems, [], '~> no CSP reports or page errors');
  },
);

B(
  'every kind of page: no serious or critical axe violations; screenshots at 1280 and 375 px',
  async ({ browser, f, page, problems }) => {
    if (!browser) return;
    const venue = await f.cal.venues.get(f.ids.venue);
    const pages: Array<[string, string]> = [
      ['home', '/'],
      ['list', '/events/list/'],
      ['month', '/events/month/2026-03/'],
      ['day', '/events/2026-03-18/'],
      ['today', '/events/today/'],
      ['event', '/event/spring-concert/'],
      ['hostile', '/event/hostile/'],
      ['venue', new URL(String(venue.url)).pathname],
      ['organizer', '/organizer/obrien-productions/'],
      ['category', '/events/category/music/jazz/'],
      ['tag', '/tag/free/'],
      ['not-found', '/event/secret-draft/'],
    ];
    // every kind at 1280 px; the views whose layout changes most at 375 px
    const narrow = new Set(['home', 'list', 'month', 'event', 'venue']);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 800 : 900 });
      for (const [name, p] of pages) {
        if (width === 375 && !narrow.has(name)) continue;
        const res = await page.goto(f.url + p);
        assert.is(res!.status(), name === 'not-found' ? 404 : 200, p);
        assert.equal(await axe(page), [], `~> axe on ${p} at ${width} px`);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        assert.ok(overflow <= 0, `~> ${p} fits ${width} px (${overflow} px too wide)`);
        await page.screenshot({
          path: path.join(SHOTS, `${name}-${width}.png`),
          fullPage: name === 'month' || name === 'list',
        });
      }
    }
    // the hostile event's title is text, and nothing of it ran
    await page.goto(`${f.url}/event/hostile/`);
    assert.is(await h1(page), '“Quotes” & alert(2)');
    assert.is(await page.locator('main img[onerror]').count(), 0);
    assert.equal(problems, [], '~> no CSP reports or page errors');
    console.log(`screenshots in ${SHOTS}`);
  },
);

B('month grid: busy days show three events and "+N more" to the day page', async ({ browser, f, page }) => {
  if (!browser) return;
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${f.url}/events/month/2026-03/`);
  assert.is(await h1(page), 'March 2026');
  const busy = page.locator('td', { has: page.locator(`a.num[href$="/events/2026-03-18/"]`) });
  assert.is(await busy.locator('li:not(.more)').count(), 3);
  await Promise.all([page.waitForNavigation(), busy.getByRole('link', { name: /\+2 more/ }).click()]);
  assert.is(await h1(page), 'Wednesday, March 18, 2026');
  assert.is(await page.locator('.event-title').count(), 5);
  await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: /Month of March 2026/ }).click()]);
  await Promise.all([page.waitForNavigation(), page.locator('nav.pager a[rel="next"]').first().click()]);
  assert.is(await h1(page), 'April 2026');
});

B(
  'keyboard: the skip link comes first and leads to the content; the search form works without scripts',
  async ({ browser, f, page }) => {
    if (!browser) return;
    await page.goto(`${f.url}/events/list/`);
    await page.keyboard.press('Tab');
    assert.is(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content');
    await page.keyboard.press('Enter');
    assert.is(await page.evaluate(() => document.activeElement?.id), 'main');
    await page.getByLabel('Search events').fill('festival');
    await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Find events' }).click()]);
    assert.ok(page.url().includes('tribe-bar-search=festival'));
    assert.equal(await page.locator('.event-title a').allInnerTexts(), ['Three-Day Festival']);
  },
);

B('dark mode from prefers-color-scheme; JavaScript off changes nothing', async ({ browser, f, page }) => {
  if (!browser) return;
  await page.goto(`${f.url}/events/month/2026-03/`);
  const light = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.emulateMedia({ colorScheme: 'dark' });
  const dark = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.is.not(dark, light);
  assert.equal(await axe(page), [], '~> axe in dark mode');
  await page.screenshot({ path: path.join(SHOTS, 'month-dark-1280.png') });
  await page.emulateMedia({ colorScheme: 'light' });
  const noJs = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 375, height: 800 } });
  try {
    const p = await noJs.newPage();
    await p.goto(`${f.url}/events/list/`);
    await Promise.all([p.waitForNavigation(), p.getByRole('link', { name: 'Spring Concert' }).first().click()]);
    assert.is(await p.locator('h1').innerText(), 'Spring Concert');
    await Promise.all([p.waitForNavigation(), p.getByRole('link', { name: 'Month', exact: true }).click()]);
    assert.is(await p.locator('h1').innerText(), 'March 2026');
  } finally {
    await noJs.close();
  }
});

B.run();
