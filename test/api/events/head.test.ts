// An uncached event's head written straight from the columns (headText) against the reference
// (JSON text of the head object, headJson(eventHead)), on random calendars with the texts,
// dates and values that take every branch: display filters, JSON escapes, non-ASCII and lone
// surrogates, drafts' '0000-00-00 00:00:00', years outside 1000-9999, lineage, images, costs.
// Also the pieces it is made of: escapeJsonText and the day/time tables of date-text.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { escapeJsonText, escapeNonAscii } from '../../../src/ascii-json.ts';
import { eventHead, type EventHead } from '../../../src/api/events/head.ts';
import { headText, textFlags } from '../../../src/api/events/head-text.ts';
import { toJson } from '../../../src/api/representation/represent.ts';
import { dateAndDetailsText, dateKey, dateString } from '../../../src/api/representation/date-text.ts';
import type { EventRecord } from '../../../src/engine/records.ts';
import { naiveToString } from '../../../src/engine/naive-time.ts';
import { Generator, Rng, mulberry32 } from '../../engine/random-calendar.ts';
import { makeCalendar } from '../../helpers/calendar.ts';

const head = suite('head text from the columns');

/** The reference: the head object's JSON text (as the REST body holds it) without its closing brace. */
const headJson = (h: EventHead): string => toJson(h).slice(0, -1);

const TEXTS = [
  '',
  ' ',
  'Plain words',
  '  padded title  ',
  'Jazz & friends',
  '"quoted"',
  "l'été",
  'résumé café',
  'a -- b',
  'tab\there',
  'line\nbreak',
  'back\\slash',
  'ctrl\u0001\u001f',
  'del\u007f',
  'emoji 😀 party',
  'lone \ud800 high',
  'lone \udc00 low',
  '<b>bold</b>',
  'Wait...',
  '3x4',
  '(tm)',
  'naïve\u00a0-dash',
  '\u2028sep\u2029',
];
const DATES = [
  '2024-03-01 10:00:00',
  '0000-00-00 00:00:00',
  '0999-12-31 23:59:59',
  '1000-01-01 00:00:00',
  '9999-12-31 23:59:59',
  '2024-02-29 12:34:56',
];

function spice(rng: Rng, rec: EventRecord): EventRecord {
  rec.title = rng.pick(TEXTS) + (rng.bool(0.5) ? ` ${rec.title}` : '');
  rec.description = rng.pick(TEXTS) + (rng.bool(0.3) ? rng.pick(TEXTS) : '');
  rec.excerpt = rng.pick(TEXTS);
  if (rng.bool(0.3)) rec.dateUtc = rng.pick(DATES);
  if (rng.bool(0.3)) rec.modifiedUtc = rng.pick(DATES);
  if (rng.bool(0.1)) {
    rec.startLocal = rec.startUtc = rng.pick(DATES.filter((d) => d >= '1000'));
    rec.endLocal = rec.endUtc = '9999-12-31 23:59:59';
  }
  if (rng.bool(0.2))
    rec.website = rng.pick(['https://example.com/a?b=1&c=2', 'example.org/ü', 'javascript:alert(1)', '']);
  if (rng.bool(0.2)) rec.costs = rng.pick([['10'], ['0'], ['5', '15'], ['Free'], ['€5']]);
  if (rng.bool(0.1)) rec.currencySymbol = rng.pick(['€', '"$"', '']);
  if (rng.bool(0.1)) rec.lineage = ['other.example?id=7', 'ü\u0001?id=2'];
  if (rng.bool(0.2)) rec.imageId = 9_000;
  if (rng.bool(0.1)) rec.timezone = 'Europe/Zürich';
  if (rng.bool(0.05)) rec.slug = ''; // a plain permalink (?post_type=…&p=ID) whatever the status
  if (rng.bool(0.2)) rec.website = null;
  return rec;
}

head('equals the JSON text of the head object, with and without known text flags', async () => {
  for (const seed of [1, 2, 3, 4]) {
    const rng = new Rng(mulberry32(seed * 104_729));
    const gen = new Generator(rng);
    const set = gen.initial(120);
    set.attachments.push({
      id: 9_000,
      authorId: 1,
      url: 'https://img.example/ü "x".jpg',
      extension: 'jpg',
      date: DATES[0],
      dateUtc: DATES[0],
    });
    set.events = set.events.map((e) => spice(rng, e));
    const { cal } = await makeCalendar({ cacheBytes: 0 });
    cal.engine.bulkLoad(set);
    const site = cal.render.site,
      engine = cal.engine;
    let rows = 0;
    for (let row = 0; row < engine.eventRowCount; row++, rows++) {
      const expected = headJson(eventHead(site, engine, row)) + ',"categories":[';
      assert.is(headText(site, engine, row, 0), expected, `row ${row}, no flags`);
      const flags = textFlags(engine, row);
      assert.is(headText(site, engine, row, flags), expected, `row ${row}, flags ${flags}`);
      assert.ok(/^[\x00-\x7f]*$/.test(expected), 'ASCII only');
    }
    assert.ok(rows >= 120);
    await cal.close();
  }
});

head(
  'two calendars in one process (other sites, zones, currencies) each get their own texts, rendered in turn',
  async () => {
    // the head's memos are per site (texts around ids and URLs) and per calendar (zone and cost
    // texts by pool index): a memo shared by index would show one calendar's zone in the other's
    const made = [];
    for (const [i, site] of [
      ['http://one.example', 'Europe/Paris'],
      ['https://two.example/sub', 'America/Juneau'],
    ].entries()) {
      const rng = new Rng(mulberry32(31 + i));
      const gen = new Generator(rng);
      const set = gen.initial(60);
      set.events = set.events.map((e, k) => ({
        ...spice(rng, e),
        timezone: k % 2 ? site[1] : 'UTC',
        currencySymbol: i ? '€' : '$',
      }));
      const { cal } = await makeCalendar({ cacheBytes: 0, siteUrl: site[0] });
      cal.engine.bulkLoad(set);
      made.push(cal);
    }
    for (let row = 0; row < 60; row++) {
      for (const cal of made) {
        const site = cal.render.site,
          engine = cal.engine;
        if (row >= engine.eventRowCount) continue;
        assert.is(
          headText(site, engine, row, textFlags(engine, row)),
          headJson(eventHead(site, engine, row)) + ',"categories":[',
          `row ${row} of ${site.config.siteUrl}`,
        );
      }
    }
    for (const cal of made) await cal.close();
  },
);

head(
  'zone and cost texts: packed memo keys below 64 of each pool, string keys beyond (70 zones and currencies)',
  async () => {
    // zoneCostText keys its memo by the five pool indexes packed together while each is below 64,
    // by a string of them past that: both must give the reference text, made and from the memo
    const zones = [
      'UTC',
      'Europe/Paris',
      'America/Juneau',
      'Asia/Tokyo',
      'Australia/Adelaide',
      'Pacific/Chatham',
      'America/St_Johns',
    ];
    const rng = new Rng(mulberry32(64));
    const gen = new Generator(rng);
    const set = gen.initial(150);
    set.events = set.events.map((e, k) => ({
      ...e,
      timezone: zones[k % zones.length],
      currencySymbol: `C${k % 70}`,
      currencyCode: `X${k % 67}`,
      currencyPosition: k % 2 ? 'prefix' : 'suffix',
      costs: [String(k % 5)],
    }));
    const { cal } = await makeCalendar({ cacheBytes: 0 });
    cal.engine.bulkLoad(set);
    const site = cal.render.site,
      engine = cal.engine,
      pool = engine.eventTable.pool;
    assert.ok(pool.currencySymbol.get(69) !== undefined, 'the pool holds symbols past index 63');
    for (let pass = 0; pass < 2; pass++) {
      for (let row = 0; row < engine.eventRowCount; row++) {
        assert.is(
          headText(site, engine, row, textFlags(engine, row)),
          headJson(eventHead(site, engine, row)) + ',"categories":[',
          `row ${row}, pass ${pass}`,
        );
      }
    }
    await cal.close();
  },
);

head('escapeJsonText :: what escapeNonAscii(JSON.stringify(s)) holds between its quotes', () => {
  const rng = new Rng(mulberry32(77));
  const units = [
    0, 1, 8, 9, 10, 12, 13, 0x1f, 0x20, 0x22, 0x2f, 0x5c, 0x7e, 0x7f, 0x80, 0xa0, 0xe9, 0x2028, 0xd800, 0xdbff, 0xdc00,
    0xdfff, 0xfeff, 0xffff,
  ];
  for (let i = 0; i < 3000; i++) {
    let s = '';
    for (let n = rng.int(0, 12); n > 0; n--)
      s += String.fromCharCode(rng.bool(0.5) ? rng.pick(units) : rng.int(0, 0xffff));
    assert.is(escapeJsonText(s), escapeNonAscii(JSON.stringify(s)).slice(1, -1), JSON.stringify(s));
  }
  for (let c = 0; c < 0x10000; c++) {
    const s = String.fromCharCode(c);
    assert.is(escapeJsonText(s), escapeNonAscii(JSON.stringify(s)).slice(1, -1));
  }
});

head(
  'date-text :: the same strings as naiveToString, through slot collisions, and nothing outside years 1000-9999',
  () => {
    const rng = new Rng(mulberry32(5));
    const day = 86_400_000;
    // one key for the whole run, so that its own table of days sees its slots collide too
    const start = dateKey('start_date'),
      end = dateKey('end_date', ',');
    for (let i = 0; i < 20_000; i++) {
      // days 2,048 and 4,096 apart and seconds 4,096 apart share a slot: the tables must answer
      // each key, not the last
      const base = Date.UTC(1000, 0, 1) + rng.int(0, 3_000_000) * day;
      const ms = base + rng.pick([0, 4096, 8192, rng.int(0, 86_399)]) * 1000 + rng.pick([0, 0, 2048, 4096]) * day;
      if (ms >= Date.UTC(10000, 0, 1)) continue;
      const s = naiveToString(ms);
      assert.is(dateString(ms), s);
      const d = {
        year: s.slice(0, 4),
        month: s.slice(5, 7),
        day: s.slice(8, 10),
        hour: s.slice(11, 13),
        minutes: s.slice(14, 16),
        seconds: s.slice(17, 19),
      };
      assert.is(dateAndDetailsText(ms, start), `"start_date":"${s}","start_date_details":${JSON.stringify(d)}`);
      assert.is(dateAndDetailsText(ms, end), `,"end_date":"${s}","end_date_details":${JSON.stringify(d)}`);
    }
    for (const ms of [
      NaN,
      Date.UTC(999, 11, 31, 23, 59, 59),
      Date.UTC(10000, 0, 1),
      Date.UTC(2024, 0, 1) + 500,
      -Infinity,
    ]) {
      assert.is(dateString(ms), undefined, String(ms));
      assert.is(dateAndDetailsText(ms, dateKey('k')), undefined, String(ms));
    }
  },
);

head.run();
