import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { main } from '../../src/cli/main.ts';
import { openCalendar } from '../../src/calendar.ts';
import { memoryIo } from './io.ts';

function tmpDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'ce-cli-import-'));
}

function writeJson(dir: string, name: string, data: unknown): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, typeof data === 'string' ? data : JSON.stringify(data));
  return file;
}

const calendar = {
  categories: [
    { id: 3, name: 'Music', slug: 'music', description: '', parent: 0 },
    { id: 4, name: 'Jazz', slug: 'jazz', description: '', parent: 3 },
  ],
  tags: [{ id: 9, name: 'Free', slug: 'free', description: '' }],
  venues: [
    {
      id: 20,
      author: 1,
      status: 'publish',
      date: '2030-01-01 10:00:00',
      venue: 'Hall',
      slug: 'hall',
      description: '',
      address: '1 Main St',
      city: 'Springfield',
      country: 'United States',
      province: '',
      state: 'IL',
      zip: '62701',
      phone: '',
      website: '',
      show_map: true,
      show_map_link: true,
      geo_lat: 39.8,
      geo_lng: -89.65,
    },
  ],
  organizers: [
    {
      id: 21,
      author: 1,
      status: 'publish',
      date: '2030-01-01 10:00:00',
      organizer: 'Jazz Club',
      slug: 'jazz-club',
      description: '',
      phone: '',
      email: 'a@example.com',
      website: '',
    },
  ],
  events: [100, 101, 102].map((id, i) => ({
    id,
    author: 1,
    status: 'publish',
    date: '2030-01-01 10:00:00',
    title: `Gig ${i}`,
    slug: `gig-${i}`,
    description: '',
    excerpt: '',
    timezone: 'America/Chicago',
    all_day: false,
    start_date: `2030-02-0${i + 1} 20:00:00`,
    end_date: `2030-02-0${i + 1} 22:00:00`,
    cost: '10',
    website: '',
    show_map: true,
    show_map_link: true,
    hide_from_listings: false,
    sticky: false,
    featured: i === 0,
    ticketed: false,
    categories: [4],
    tags: [9],
    venue: 20,
    organizer: [21],
  })),
};

const imp = suite('cli :: import');

imp('imports with ids kept; one summary line when stderr is not a terminal', async () => {
  const dir = tmpDir();
  const file = writeJson(dir, 'cal.json', calendar);
  const store = path.join(dir, 'store');
  const io = memoryIo({}, dir);
  assert.is(await main(['import', 'cal.json', '--data', 'store'], io), 0, io.err());
  assert.match(io.out(), /^imported 3 events, 1 venues, 1 organizers, 2 categories, 1 tags into store in \d+\.\d s\n$/);
  assert.is(io.err(), '');
  const cal = await openCalendar({ dir: store });
  try {
    const ev = await cal.events.get(101);
    assert.is(ev.title, 'Gig 1');
    assert.is((ev.venue as { id: number }).id, 20);
    assert.is((await cal.categories.get(4)).parent, 3);
  } finally {
    await cal.close();
  }
  assert.ok(fs.existsSync(file));
});

imp('a terminal gets a progress bar on stderr, then the summary on stdout', async () => {
  const dir = tmpDir();
  const many = {
    ...calendar,
    events: Array.from({ length: 12000 }, (_, i) => ({
      ...calendar.events[0],
      id: 1000 + i,
      slug: `gig-x-${i}`,
      title: `Gig x${i}`,
    })),
  };
  writeJson(dir, 'cal.json', many);
  const io = memoryIo({}, dir, true);
  assert.is(await main(['import', 'cal.json', '--data', 'store'], io), 0, io.err());
  assert.match(io.err(), /\r\[[#.]+\]\s+\d+% \d+\/\d+ KiB read/);
  assert.match(io.out(), /^imported 12000 events/);
});

imp('a validation failure names the record, exits 1, imports nothing', async () => {
  const dir = tmpDir();
  const broken = structuredClone(calendar);
  (broken.events[1] as Record<string, unknown>).start_date = 'someday';
  writeJson(dir, 'bad.json', broken);
  const io = memoryIo({}, dir);
  assert.is(await main(['import', 'bad.json', '--data', 'store'], io), 1);
  assert.is(io.out(), '');
  assert.match(io.err(), /^calendar-engine import: .*events\[1\].*101/);
  assert.not.match(io.err(), /\n\s+at /);
  const cal = await openCalendar({ dir: path.join(dir, 'store') });
  try {
    assert.ok(cal.isEmpty());
  } finally {
    await cal.close();
  }
});

imp('file problems are one-line errors', async () => {
  const dir = tmpDir();
  const cases: Array<[string, RegExp]> = [
    ['{"events": [', /line 1: the file ends before the import object does: is it truncated\?/],
    ['{"events": [{"id": 1, "title": "x"', /line 1: .*inside events\[0\].*truncated/],
    ['[1, 2]', /expected the import shape: one JSON object/],
    ['{"posts": []}', /none of categories, tags, media, venues, organizers, events is present/],
    ['{"events": {}}', /"events" must be an array/],
    ['{"events": [\n{"id": 1},\n{"id": 2,,}\n]}', /line 3: events\[1\] is not valid JSON/],
    ['', /expected the import shape|ends before/],
    ['not json at all', /expected the import shape/],
    ['{"events": []} trailing', /unexpected text after the end of the object/],
  ];
  for (const [text, message] of cases) {
    writeJson(dir, 'f.json', text);
    const io = memoryIo({}, dir);
    assert.is(await main(['import', 'f.json', '--data', 'store'], io), 1, `${JSON.stringify(text)}: ${io.err()}`);
    assert.match(io.err(), message, JSON.stringify(text));
    assert.not.match(io.err(), /\n\s+at /);
  }
  const missing = memoryIo({}, dir);
  assert.is(await main(['import', 'nope.json', '--data', 'store'], missing), 1);
  assert.match(missing.err(), /nope\.json: no such file/);
  const badFormat = memoryIo({}, dir);
  assert.is(await main(['import', 'f.json', '--format', 'xml', '--data', 'store'], badFormat), 2);
  assert.match(badFormat.err(), /--format: expected json or jsonl, got 'xml'/);
  const io = memoryIo({}, dir);
  assert.is(await main(['import', '--data', 'store'], io), 2);
  assert.match(io.err(), /^calendar-engine import: missing FILE/);
});

imp.run();
