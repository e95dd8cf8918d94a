// The README's screenshots of the public pages: the demo calendar (as `serve` seeds it) at a fixed
// date, its month and list views in headless Chromium, written to docs/images/ as small PNGs
// (ImageMagick's `convert`, when present, reduces them to 64 colours).
//
//   node --import tsx scripts/site-screenshots.ts [--chromium /usr/bin/chromium]

import { statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { openCalendar } from '../src/calendar.ts';
import { demoCalendar } from '../src/cli/seed.ts';
import { startServer } from '../src/http/server.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const i = process.argv.indexOf('--chromium');
const executablePath = i > 0 ? process.argv[i + 1] : '/usr/bin/chromium';
const NOW = new Date('2026-11-03T15:00:00Z');

const port = 18_000 + Math.floor(Math.random() * 2000);
const cal = await openCalendar({ now: () => NOW, timezone: 'America/New_York', siteUrl: `http://127.0.0.1:${port}` });
await cal.import(demoCalendar(NOW));
const srv = await startServer(cal, { port, site: { title: 'Riverside Events' } });
const browser = await chromium.launch({
  executablePath,
  headless: true,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  const page = await browser.newPage({ viewport: { width: 960, height: 600 }, deviceScaleFactor: 0.7 });
  for (const [name, p] of [
    ['site-month', '/events/month/2026-11/'],
    ['site-list', '/events/list/'],
  ]) {
    await page.goto(srv.url + p);
    const file = path.join(root, 'docs/images', `${name}.png`);
    await page.screenshot({ path: file });
    console.log(`${path.relative(root, file)}: ${Math.round(statSync(file).size / 1024)} KB`);
  }
} finally {
  await browser.close();
  await srv.close();
  await cal.close();
}
