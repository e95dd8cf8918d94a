// The options table drives serve's flags and variables, openCalendar's checks and defaults,
// `serve --help` and the options table of docs/operating.md.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEFAULT_CACHE_BYTES } from '../../src/options/defaults.ts';
import { docsTable, embeddedOptions } from '../../src/options/options.ts';
import { OPTIONS } from '../../src/options/table.ts';
import { SERVE_USAGE } from '../../src/cli/serve.ts';
import { openCalendar } from '../../src/calendar.ts';
import { CalendarError } from '../../src/api/wordpress/errors.ts';

const options = suite('options :: one table');

options('docs/operating.md lists every option as the table says', () => {
  const doc = fs.readFileSync(fileURLToPath(new URL('../../docs/operating.md', import.meta.url)), 'utf8');
  const at = doc.indexOf('| option | env | default | meaning |');
  assert.ok(at >= 0, 'the table is in docs/operating.md');
  const end = doc.indexOf('\n\n', at);
  assert.fixture(doc.slice(at, end) + '\n', docsTable());
});

options('serve --help names every flag and variable once', () => {
  for (const o of OPTIONS) {
    if (o.flag) assert.is(SERVE_USAGE.match(new RegExp(`^  --${o.flag}( |$)`, 'gm'))?.length, 1, `--${o.flag}`);
    if (o.env) assert.ok(new RegExp(`\\b${o.env}\\b`).test(SERVE_USAGE), o.env);
  }
  assert.ok(
    SERVE_USAGE.split('\n').every((line) => line.length <= 100),
    'lines of 100 columns at most',
  );
});

options('openCalendar: each embedded option defaulted and checked by its row', async () => {
  const { options: filled, problem } = embeddedOptions({});
  assert.is(problem, undefined);
  assert.equal(filled, {
    timezone: 'UTC',
    perPage: 12,
    restPrefix: '/wp-json',
    cacheBytes: DEFAULT_CACHE_BYTES,
    changesRetainMs: 7 * 86_400_000,
    changesRetainCount: 100_000,
    changesRetainBytes: 128 * 1024 * 1024,
    uploadLimit: 20 * 1024 * 1024,
    readOnly: false,
    faultProbeMs: 2000,
  });
  const bad: Record<string, unknown> = {
    timezone: 'Mars/Olympus',
    perPage: 0,
    cacheBytes: -1,
    changesRetainMs: 0,
    changesRetainCount: -5,
    changesRetainBytes: Number.NaN,
    uploadLimit: 1.5,
    readOnly: 'yes',
    faultProbeMs: -1,
  };
  for (const [key, value] of Object.entries(bad)) {
    try {
      await openCalendar({ [key]: value });
      assert.unreachable(`${key} ${String(value)} accepted`);
    } catch (e) {
      assert.instance(e, CalendarError);
      assert.is((e as CalendarError).code, 'invalid_option');
      assert.is((e as CalendarError).status, 400);
      assert.ok((e as Error).message.startsWith(`${key} `), (e as Error).message);
    }
  }
  const cal = await openCalendar({ perPage: 3, cacheBytes: 1024 });
  try {
    assert.is(cal.site.perPage, 3);
    assert.is(cal.render.stats().budget, 1024);
    assert.is(cal.feed.retainCount, 100_000);
  } finally {
    await cal.close();
  }
});

options('every row is usable: a flag or a variable or an openCalendar name; parsers where text comes in', () => {
  for (const o of OPTIONS) {
    assert.ok(o.flag || o.env || o.embed, JSON.stringify(o));
    if (o.env) assert.match(o.env, /^(HOST|PORT|CALENDAR_[A-Z_]+)$/);
    if (o.embed && o.value === undefined)
      assert.ok(o.embed === 'dir' || o.embed === 'siteUrl', `${o.embed} has a default`);
  }
});

options.run();
