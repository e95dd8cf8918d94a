// A parallel import (worker threads read the events array's lines, src/import/pack.ts; the
// importing thread checks them against the calendar in file order, ImportBuilder.addPacked) must
// give exactly the calendar, the summary and the errors of the sequential one: on random files
// with what makes events differ (missing ids, colliding slugs, drafts, odd dates, images, costs
// that are not text, several venues, relative dates), in blocks of any size, with layouts the
// workers do not take (pretty-printed records in between, a record split over lines, several on a
// line), and when a record fails early, late, in the workers' part or in the checks that need the
// calendar.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openCalendar } from '../../src/calendar.ts';
import { CalendarError } from '../../src/api/wordpress/errors.ts';
import { decodeUtf8 } from '../../src/import/pack.ts';

const par = suite('import :: parallel');
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'ce-import-par-'));
const NOW = new Date('2030-01-15T12:00:00Z');

/** a small deterministic generator (mulberry32) */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomCalendar(seed: number, n: number): Record<string, unknown[]> {
  const r = rng(seed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)];
  const zones = ['Europe/Paris', 'America/New_York', 'Asia/Kolkata', 'UTC', '', 'Australia/Lord_Howe'];
  const events: unknown[] = [];
  for (let i = 0; i < n; i++) {
    const day = 1 + Math.floor(r() * 27),
      h = Math.floor(r() * 20);
    const e: Record<string, unknown> = {
      title: pick(['Jazz night', 'Caf\u00e9 cr\u00e8me', 'Open mic', 'Jazz night', '\u65e5\u672c\u8a9e', 'Run 5k']),
      // some lines ASCII, some Latin-1 only (decoded through Latin-1 bytes), some wider
      description: `About ${i} ${pick(['\u2014', '-', '\u00e9\u00ff'])} <b>bold</b>`,
      timezone: pick(zones),
      all_day: r() < 0.2,
      start_date: `2030-03-${String(day).padStart(2, '0')} ${String(h).padStart(2, '0')}:00:00`,
      end_date: `2030-03-${String(day + 1).padStart(2, '0')} 10:30:00`,
      cost: pick(['10', '5 - 15', '$20', 'Free', 12, null, undefined, '\u20ac8,50']),
      website: pick(['', 'https://example.com/e', 'http://xn--caf-dma.example/x', undefined]),
      categories: pick([[1], [1, 4], [], 4, '1,4']),
      tags: pick([[2], [2, 3], [], [{ id: 3 }]]),
      venue: pick([9010, 0, [9010, 9011], undefined]),
      organizer: pick([[9020], [], 9020]),
      featured: r() < 0.1,
      sticky: pick([true, false, 'yes', 0]),
      status: pick(['publish', 'publish', 'draft', 'pending', 'private']),
    };
    if (r() < 0.9) e.id = 1000 + i;
    if (r() < 0.5) e.slug = pick(['jazz-night', 'same', '', 'Caf\u00e9 Cr\u00e8me']);
    if (r() < 0.3) e.date = '2029-12-01 09:00:00';
    if (r() < 0.1) e.modified_utc = '2029-12-02 09:00:00';
    if (r() < 0.05) e.image = pick(['https://img.example.com/a.jpg', 'https://img.example.com/b.png']);
    if (r() < 0.05) e.global_id_lineage = ['a', 'b', 'c'];
    if (r() < 0.05) e.start_date = '2030-03-05 10:00'; // not 'Y-m-d H:i:s': parsed the long way
    if (r() < 0.03) e.currency_symbol = '\u00a3';
    if (r() < 0.02) e.post_parent = 1000;
    events.push(e);
  }
  return {
    categories: [
      { id: 1, name: 'Music', slug: 'music', parent: 0 },
      { id: 4, name: 'Jazz', slug: 'jazz', parent: 1 },
    ],
    tags: [
      { id: 2, name: 'Free', slug: 'free' },
      { id: 3, name: 'Kids', slug: 'kids' },
    ],
    venues: [
      { id: 9010, venue: 'Hall', city: 'Paris' },
      { id: 9011, venue: 'Club', city: 'Lyon' },
    ],
    organizers: [{ id: 9020, organizer: 'Org' }],
    events,
  };
}

/** The export layout (one record a line), events first or last; `odd`: a few events laid out otherwise. */
function fileOf(dir: string, data: Record<string, unknown[]>, odd = false, eventsFirst = false): string {
  const file = path.join(dir, `cal-${Math.random().toString(36).slice(2)}.json`);
  const line = (rec: unknown, i: number) => {
    if (!odd || i % 97 !== 5) return JSON.stringify(rec);
    return i % 3 === 0
      ? JSON.stringify(rec, null, 2)
      : i % 3 === 1
        ? `${JSON.stringify(rec)}, ${JSON.stringify(rec).replace(/,"id":\d+/, '')}`
        : `\n  ${JSON.stringify(rec)}  `;
  };
  const names = eventsFirst ? ['events', 'categories', 'tags', 'venues', 'organizers'] : Object.keys(data);
  const lists = names.map((k) => `"${k}":[\n${data[k].map(line).join(',\n')}\n]`);
  fs.writeFileSync(file, `{\n${lists.join(',\n')}\n}\n`);
  return file;
}

/**
 * The same calendar as JSON Lines (`{"type": ..., ...}` a line, as `export` writes it). Layouts:
 * 'export' (kinds in export's order), 'split' (half the events first, the rest after the other
 * records), 'odd' (BOM, CRLF, blank lines, a few event lines written otherwise: spaced, padded),
 * 'mixed' (a venue after every third event: the workers stop in their first block, and the
 * rest is read on one thread).
 */
function jsonlOf(dir: string, data: Record<string, unknown[]>, layout: 'export' | 'split' | 'odd' | 'mixed'): string {
  const file = path.join(dir, `cal-${Math.random().toString(36).slice(2)}.jsonl`);
  const TYPE: Record<string, string> = {
    categories: 'category',
    tags: 'tag',
    venues: 'venue',
    organizers: 'organizer',
    events: 'event',
  };
  const rec = (kind: string) => (r: unknown) => JSON.stringify({ type: TYPE[kind], ...(r as object) });
  const others = ['categories', 'tags', 'venues', 'organizers'].flatMap((k) => data[k].map(rec(k)));
  let events = data.events.map(rec('events'));
  let lines: string[];
  if (layout === 'split') {
    const half = events.length >> 1;
    lines = [...events.slice(0, half), ...others, ...events.slice(half)];
  } else if (layout === 'mixed') {
    lines = [
      ...others,
      ...events.flatMap((e, i) => (i % 3 === 2 ? [e, rec('venues')({ id: 30000 + i, venue: `V${i}` })] : [e])),
    ];
  } else {
    if (layout === 'odd') {
      events = events.map((e, i) =>
        i % 89 === 7
          ? e.replace('{"type":"event"', '{ "type": "event"')
          : i % 89 === 8
            ? `  ${e}  `
            : i % 89 === 9
              ? `${e}\n`
              : e,
      );
    }
    lines = [...others, ...events];
  }
  const text = lines.join(layout === 'odd' ? '\r\n' : '\n') + '\n';
  fs.writeFileSync(file, layout === 'odd' ? `\ufeff${text}` : text);
  return file;
}

/** The calendar after importing `file` (into one that has imported `before` first, on one thread):
 *  its export, and its event rows' texts byte for byte as the text store holds them. */
async function importOf(
  file: string,
  opts: { workers: number; blockBytes?: number },
  before?: string,
): Promise<{ summary?: unknown; error?: string; data?: unknown; line?: unknown; calendar?: string; texts?: string }> {
  const cal = await openCalendar({ timezone: 'Europe/Paris', now: () => NOW });
  try {
    if (before !== undefined) await cal.importFile(before, { workers: 0 });
    const summary = await cal.importFile(file, opts);
    const t = cal.engine.state.table.texts;
    const texts = crypto.createHash('sha256').update(t.raw.subarray(0, t.used)).digest('hex');
    return { summary, calendar: [...cal.export()].map((r) => JSON.stringify(r)).join('\n'), texts };
  } catch (e) {
    if (!(e instanceof CalendarError)) throw e;
    return { error: e.message, data: e.data };
  } finally {
    await cal.close();
  }
}

par(
  "decodeUtf8 is buf.toString('utf8') (ASCII, Latin-1 through its bytes, wider text, bad UTF-8, '?' in any of them)",
  () => {
    const r = rng(5);
    const bytes = [
      0x61, 0x3f, 0x0a, 0xc3, 0xa9, 0xc2, 0x80, 0xbf, 0xc4, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x8e, 0x89, 0xff, 0xc0,
    ];
    for (let round = 0; round < 5000; round++) {
      const n = Math.floor(r() * 24),
        spread = round % 4 === 0 ? bytes.length : 8;
      const buf = Buffer.from(Array.from({ length: n }, () => bytes[Math.floor(r() * spread)]));
      assert.is(decodeUtf8(buf), buf.toString('utf8'), `bytes ${[...buf]}`);
    }
    for (const text of ['caf\u00e9?', 'a\u20acb?', 'x\u0100', '\u{1f389}?', '\u00ff\u0080', '?', '']) {
      const buf = Buffer.from(text);
      assert.is(decodeUtf8(buf), text);
      // a view into a larger buffer, as a worker's block is
      const at = Buffer.concat([Buffer.from('\u00e9??'), buf, Buffer.from('\u0101')]).subarray(4, 4 + buf.length);
      assert.is(decodeUtf8(at), text);
    }
  },
);

par("a parallel import gives the sequential one's calendar on random files, blocks of any size", async () => {
  const dir = tmp();
  for (const seed of [1, 2]) {
    const file = fileOf(dir, randomCalendar(seed, 700), false, seed === 2);
    const seq = await importOf(file, { workers: 0 });
    assert.ok(seq.calendar, `seed ${seed}: ${seq.error}`);
    for (const [workers, blockBytes] of [
      [2, 1 << 20],
      [2, 3000],
      [1, 200],
    ]) {
      const p = await importOf(file, { workers, blockBytes });
      assert.equal(p, seq, `seed ${seed}, ${workers} workers, blocks of ${blockBytes}`);
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

par('texts past the size at which the store codes them: the workers code them, the calendar is the same', async () => {
  // ~1.5 MiB of descriptions: the store learns its table part way, then the workers code the
  // texts of the blocks they take next (blocks already taken come back as strings)
  const dir = tmp();
  const data = randomCalendar(3, 1500);
  const r = rng(11);
  const words = ['concert', 'caf\u00e9', 'tickets', 'evening', '\u2014', 'the', 'and', 'music', 'doors open'];
  data.events.forEach((e, i) => {
    const ev = e as Record<string, unknown>;
    const n = 60 + Math.floor(r() * 200);
    ev.description = `${ev.description} ${Array.from({ length: n }, () => words[Math.floor(r() * words.length)]).join(' ')}`;
    if (i % 5 === 0) ev.excerpt = `Excerpt ${i} ${words[i % words.length]}`;
  });
  const file = fileOf(dir, data, false, false);
  const seq = await importOf(file, { workers: 0 });
  assert.ok(seq.calendar, seq.error);
  for (const blockBytes of [20_000, 1 << 20]) {
    assert.equal(await importOf(file, { workers: 2, blockBytes }), seq, `blocks of ${blockBytes}`);
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

par('slugs taken by the calendar or by the import itself: the same unique slugs, in the same order', async () => {
  // past the size at which texts are coded, so that the workers code the slugs as wanted too
  const dir = tmp();
  const data = randomCalendar(13, 2500);
  const r = rng(17);
  data.events.forEach((e, i) => {
    const ev = e as Record<string, unknown>;
    ev.description = `${ev.description} ${'doors open at the hall '.repeat(40 + Math.floor(r() * 40))}`;
    // most slugs new; some wanted again and again (suffixed -2, -3 ...), one that a suffix makes, empty ones
    ev.slug = i % 4 === 0 ? ['same', 'same-2', 'jazz-night', '', 'Fête 東京'][i % 5] : `event-${i}`;
    if (i % 9 === 1) ev.id = undefined;
  });
  const first = randomCalendar(14, 300);
  // events of their own (no links), some with the slugs the import wants
  for (const [i, e] of first.events.entries())
    Object.assign(e as object, { id: 50_000 + i, categories: [], tags: [], venue: 0, organizer: [], post_parent: 0 });
  (first.events[0] as Record<string, unknown>).slug = 'same';
  (first.events[1] as Record<string, unknown>).slug = 'jazz-night-2';
  const file = fileOf(dir, data),
    before = fileOf(dir, { ...first, categories: [], tags: [], venues: [], organizers: [] });
  for (const prior of [undefined, before]) {
    const seq = await importOf(file, { workers: 0 }, prior);
    assert.ok(seq.calendar, seq.error);
    assert.match(seq.calendar!, /"slug":"same-3"/);
    for (const blockBytes of [30_000, 1 << 20])
      assert.equal(await importOf(file, { workers: 2, blockBytes }, prior), seq, `blocks of ${blockBytes}`);
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

par(
  'lines the workers do not take (pretty-printed, two records a line, blank lines) are read as before, and the workers go on after them',
  async () => {
    const dir = tmp();
    const file = fileOf(dir, randomCalendar(7, 600), true);
    const seq = await importOf(file, { workers: 0 });
    assert.ok(seq.calendar, seq.error);
    assert.equal(await importOf(file, { workers: 2, blockBytes: 2500 }), seq);
    fs.rmSync(dir, { recursive: true, force: true });
  },
);

par('errors: the first bad record, whichever part finds it, named as the sequential import names it', async () => {
  const dir = tmp();
  const base = randomCalendar(11, 500);
  const cases: [string, (events: Record<string, unknown>[]) => void][] = [
    [
      'a bad date in the second half',
      (ev) => {
        ev[400].start_date = 'not a date';
      },
    ],
    [
      'a bad zone early, a bad date later',
      (ev) => {
        ev[3].timezone = 'Mars/Base';
        ev[450].start_date = 'x';
      },
    ],
    [
      "an id used twice (the calendar's check) before a record-local problem",
      (ev) => {
        ev[300].id = 1000 + 10;
        ev[10].id = 1010;
        ev[350].title = '';
      },
    ],
    [
      'an id used twice and a missing title on the same record',
      (ev) => {
        ev[200].id = ev[100].id ?? 5000;
        ev[100].id = ev[200].id;
        ev[200].title = '';
      },
    ],
    [
      'an image that is not an attachment',
      (ev) => {
        ev[250].image = 999999;
      },
    ],
    [
      'a venue that does not exist (found by the checks at the end)',
      (ev) => {
        ev[420].venue = 77;
      },
    ],
    [
      'not an object',
      (ev) => {
        (ev as unknown[])[260] = [1, 2];
      },
    ],
  ];
  for (const [name, spoil] of cases) {
    const data = structuredClone(base);
    spoil(data.events as Record<string, unknown>[]);
    const file = fileOf(dir, data);
    const seq = await importOf(file, { workers: 0 });
    assert.ok(seq.error, `${name}: the sequential import failed`);
    assert.equal(await importOf(file, { workers: 2, blockBytes: 4000 }), seq, name);
  }
  // bad JSON in the events' lines: the scanner names it, as ever
  const text = fs.readFileSync(fileOf(dir, base), 'utf8').split('\n');
  const at = text.findIndex((l) => l.includes('"id":1420'));
  text[at] = text[at].replace('"title"', 'title');
  const broken = path.join(dir, 'broken.json');
  fs.writeFileSync(broken, text.join('\n'));
  const seq = await importOf(broken, { workers: 0 });
  assert.match(String(seq.error), new RegExp(`line ${at + 1}: events\\[\\d+\\] is not valid JSON`));
  assert.equal(await importOf(broken, { workers: 2, blockBytes: 3000 }), seq);
  fs.rmSync(dir, { recursive: true, force: true });
});

par("JSON Lines: a parallel import gives the sequential one's calendar, and its errors, in any layout", async () => {
  const dir = tmp();
  // events[0] has id 1000, the parent some events name (randomCalendar leaves 10% without an id)
  const calendarOf = (seed: number, n: number) => {
    const data = randomCalendar(seed, n);
    (data.events[0] as Record<string, unknown>).id = 1000;
    return data;
  };
  for (const [seed, layout] of [
    [21, 'export'],
    [22, 'split'],
    [23, 'odd'],
    [24, 'mixed'],
  ] as const) {
    const file = jsonlOf(dir, calendarOf(seed, 600), layout);
    const seq = await importOf(file, { workers: 0 });
    assert.ok(seq.calendar, `${layout}: ${seq.error}`);
    for (const [workers, blockBytes] of [
      [2, 1 << 20],
      [2, 2500],
      [1, 300],
    ]) {
      assert.equal(
        await importOf(file, { workers, blockBytes }),
        seq,
        `${layout}, ${workers} workers, blocks of ${blockBytes}`,
      );
    }
  }
  const base = calendarOf(25, 500);
  const cases: [string, (events: Record<string, unknown>[]) => void][] = [
    [
      'a bad date late',
      (ev) => {
        ev[430].start_date = 'not a date';
      },
    ],
    [
      'a missing title (handed back by a worker)',
      (ev) => {
        ev[200].title = '';
      },
    ],
    [
      'an id used twice',
      (ev) => {
        ev[300].id = 1000 + 10;
        ev[10].id = 1010;
      },
    ],
    [
      'a venue that does not exist',
      (ev) => {
        ev[420].venue = 77;
      },
    ],
  ];
  for (const [name, spoil] of cases) {
    const data = structuredClone(base);
    spoil(data.events as Record<string, unknown>[]);
    const file = jsonlOf(dir, data, 'split');
    const seq = await importOf(file, { workers: 0 });
    assert.ok(seq.error, `${name}: the sequential import failed`);
    assert.equal(await importOf(file, { workers: 2, blockBytes: 3000 }), seq, name);
  }
  // lines the scanner names: bad JSON, an unknown type, among the events
  const lines = fs.readFileSync(jsonlOf(dir, base, 'export'), 'utf8').split('\n');
  for (const [name, spoil] of [
    ['bad JSON', (l: string) => l.replace('"title"', 'title')],
    ['an unknown type', (l: string) => l.replace('"type":"event"', '"type":"party"')],
  ] as const) {
    const at = lines.length - 100; // an event's line
    const broken = path.join(dir, `broken-${name.replace(/ /g, '-')}.jsonl`);
    fs.writeFileSync(broken, lines.map((l, i) => (i === at ? spoil(l) : l)).join('\n'));
    const seq = await importOf(broken, { workers: 0 });
    assert.match(String(seq.error), new RegExp(`line ${at + 1}: `), name);
    assert.equal(await importOf(broken, { workers: 2, blockBytes: 3000 }), seq, name);
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

par('all or nothing: a store is left as it was when a parallel import fails late', async () => {
  const dir = tmp(),
    store = path.join(dir, 'store');
  const data = randomCalendar(5, 400);
  (data.events[390] as Record<string, unknown>).end_date = 'never';
  const cal = await openCalendar({ dir: store, timezone: 'Europe/Paris' });
  try {
    await cal.importFile(fileOf(dir, data), { workers: 2, blockBytes: 2000, alone: true });
    assert.unreachable('the import succeeded');
  } catch (e) {
    assert.instance(e, CalendarError);
    assert.match((e as Error).message, /events\[390\]/);
  }
  assert.is(cal.engine.eventRowCount, 0);
  await cal.close();
  // no part of the snapshot the import began, and nothing when the store is opened again
  assert.equal(
    fs.readdirSync(store).filter((f) => f.startsWith('snapshot')),
    [],
  );
  const again = await openCalendar({ dir: store, timezone: 'Europe/Paris' });
  assert.is(again.engine.eventRowCount, 0);
  assert.is([...again.export()].length, 0);
  await again.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

par.run();
