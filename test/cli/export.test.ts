// calendar-engine export, end to end: a store exported (stdout and --out, json and jsonl) and
// imported into another store gives the same calendar.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { main } from '../../src/cli/main.ts';
import { openCalendar } from '../../src/calendar.ts';
import { memoryIo } from './io.ts';

const exp = suite('cli :: export');

const calendar = {
  categories: [
    { id: 3, name: 'Music' },
    { id: 4, name: 'Jazz', parent: 3 },
  ],
  tags: [{ id: 9, name: 'Free' }],
  venues: [{ id: 20, venue: 'Hall', city: 'Springfield', geo_lat: 39.8, geo_lng: -89.65 }],
  organizers: [{ id: 21, organizer: 'Jazz Club', email: 'a@example.com' }],
  events: [
    {
      id: 100,
      title: 'Gig',
      start_date: '2030-02-01 20:00:00',
      end_date: '2030-02-01 22:00:00',
      timezone: 'America/Chicago',
      cost: '10$',
      categories: [4],
      tags: [9],
      venue: 20,
      organizer: [21],
    },
    {
      id: 101,
      title: 'Draft gig',
      status: 'draft',
      start_date: '2030-02-02 20:00:00',
      end_date: '2030-02-02 22:00:00',
      post_parent: 100,
    },
  ],
};

exp(
  'export to stdout and to a file, json and jsonl; each imports into an empty store as the same calendar',
  async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-cli-export-'));
    fs.writeFileSync(path.join(dir, 'cal.json'), JSON.stringify(calendar));
    assert.is(await main(['import', 'cal.json', '--data', 'a'], memoryIo({}, dir)), 0);
    const stdout = memoryIo({}, dir);
    assert.is(await main(['export', '--data', 'a'], stdout), 0, stdout.err());
    const exported = JSON.parse(stdout.out()) as Record<string, unknown[]>;
    assert.equal(Object.keys(exported), ['categories', 'tags', 'media', 'venues', 'organizers', 'events']);
    assert.equal(
      exported.events.map((e) => (e as { id: number }).id),
      [100, 101],
    );
    const toFile = memoryIo({}, dir);
    assert.is(
      await main(['export', '--data', 'a', '--format', 'jsonl', '--out', 'cal.jsonl'], toFile),
      0,
      toFile.err(),
    );
    assert.match(
      toFile.err(),
      /^exported 2 events, 1 venues, 1 organizers, 2 categories, 1 tags from a to cal\.jsonl in \d/,
    );
    assert.is(fs.readFileSync(path.join(dir, 'cal.jsonl'), 'utf8').trim().split('\n').length, 7);
    assert.is(await main(['import', 'cal.jsonl', '--data', 'b'], memoryIo({}, dir)), 0);
    fs.writeFileSync(path.join(dir, 'out.json'), stdout.out());
    assert.is(await main(['import', 'out.json', '--data', 'c'], memoryIo({}, dir)), 0);
    const again = memoryIo({}, dir);
    for (const store of ['b', 'c']) {
      assert.is(await main(['export', '--data', store], again), 0);
    }
    assert.is(again.out(), stdout.out() + stdout.out(), 'both imports export exactly as the original');
    const cal = await openCalendar({ dir: path.join(dir, 'b') });
    const draft = await cal.events.get(101);
    assert.is(draft.status, 'draft');
    assert.is(draft.slug, '', 'a draft without a slug stays without one');
    await cal.close();
  },
);

exp('export is byte-identical before and after a snapshot and a restart (snapshot version 3)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-cli-export-'));
  const odd = {
    ...calendar,
    events: [
      ...calendar.events,
      {
        id: 102,
        title: 'Ωmega 🎉 naïve',
        description: '<p>wide \u4e2d\u6587 and é</p>',
        excerpt: 'short',
        website: 'https://example.com/x',
        start_date: '2030-03-01 20:00:00',
        end_date: '2030-03-01 22:00:00',
        cost: '5, free',
        venue: 20,
      },
    ],
  };
  fs.writeFileSync(path.join(dir, 'cal.json'), JSON.stringify(odd));
  assert.is(await main(['import', 'cal.json', '--data', 'a'], memoryIo({}, dir)), 0);
  const exportOf = async () => {
    const io = memoryIo({}, dir);
    assert.is(await main(['export', '--data', 'a', '--format', 'jsonl'], io), 0, io.err());
    return io.out();
  };
  const first = await exportOf();
  // writes through the journal, then a snapshot (compaction) and a fresh open of it
  const cal = await openCalendar({ dir: path.join(dir, 'a') });
  await cal.events.update(100, {
    title: 'Gig, moved',
    start_date: '2030-01-15 19:00:00',
    end_date: '2030-01-15 23:00:00',
  });
  await cal.close();
  const journaled = await exportOf();
  assert.not.equal(journaled, first);
  const snap = memoryIo({}, dir);
  assert.is(await main(['snapshot', '--data', 'a'], snap), 0, snap.err());
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'a', 'snapshot.json'), 'utf8')) as {
    parts: { file: string }[];
  };
  const head = fs.readFileSync(path.join(dir, 'a', manifest.parts[0].file), 'latin1').split('\n')[0];
  assert.is((JSON.parse(head) as { version: number }).version, 3);
  assert.is(await exportOf(), journaled, 'the same bytes after the snapshot and a restart');
});

exp('bad command lines and unwritable outputs are one-line errors', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-cli-export-'));
  const io = memoryIo({}, dir);
  assert.is(await main(['export', '--data', 'a', '--format', 'csv'], io), 2);
  assert.match(io.err(), /--format: expected json or jsonl, got 'csv'/);
  const io2 = memoryIo({}, dir);
  assert.is(await main(['export', '--data', 'a', '--out', 'no/such/dir/x.json'], io2), 1);
  assert.match(io2.err(), /no\/such\/dir\/x\.json: .*ENOENT/);
  assert.is(fs.readdirSync(dir).filter((f) => f.includes('partial')).length, 0, 'no partial file left');
});

exp.run();
