// The texts of a streamed snapshot's events chunks made on a worker thread (src/engine/
// snapshot-workers.ts): each chunk's texts as the main thread makes them, in the order taken, and
// a whole import's snapshot the same with the worker as without it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openCalendar } from '../../src/calendar.ts';
import { Engine } from '../../src/engine/engine.ts';
import type { EventRecord } from '../../src/engine/records.ts';
import { chunkTexts } from '../../src/engine/snapshot-bytes.ts';
import { ChunkTextsWorker, snapshotWorkerSettings, snapshotWorkerStats } from '../../src/engine/snapshot-workers.ts';
import { makeEvent } from './build.ts';
import { Generator, Rng, mulberry32 } from './random-calendar.ts';

const Workers = suite('snapshot texts on a worker thread');
const saved = { ...snapshotWorkerSettings };
Workers.after.each(() => {
  Object.assign(snapshotWorkerSettings, saved);
});

/** Events whose texts differ from row to row (one-byte, two-byte, empty), in no start order. */
function events(n: number): EventRecord[] {
  return Array.from({ length: n }, (_, i) => {
    const id = i + 1,
      day = 1 + ((i * 7919) % 28);
    return makeEvent(id, {
      title: `Talk ${id % 50}`,
      description: id % 3 === 0 ? `<p>Caf\u00e9 ${id} \u65e5\u672c ${'x'.repeat(id % 40)}</p>` : `About ${id}`,
      excerpt: id % 4 === 0 ? '' : `Excerpt ${id}`,
      startLocal: `2024-02-${String(day).padStart(2, '0')} 10:00:00`,
      endLocal: `2024-02-${String(day).padStart(2, '0')} 12:00:00`,
    });
  });
}

Workers('each chunk taken is the texts this thread makes of those rows, a few chunks ahead', async () => {
  const engine = new Engine();
  engine.bulkLoad({ attachments: [], terms: [], venues: [], organizers: [], events: events(5_300) }, undefined, {
    searchIndex: false,
  });
  const st = engine.state;
  const n = st.table.count;
  const order = st.main.rows.slice(0, n);
  assert.ok(
    order.some((r, i) => r !== i),
    'rows not in table order',
  );
  Object.assign(snapshotWorkerSettings, { minRows: 1, ahead: 2 });
  const before = snapshotWorkerStats.chunks;
  const worker = ChunkTextsWorker.start(st.table.texts, order, 500);
  assert.ok(worker, 'a worker starts from source');
  const expected: string[] = [];
  const got: string[] = [];
  try {
    for (let from = 0; from < n; from += 500) {
      const to = Math.min(n, from + 500);
      expected.push(JSON.stringify(chunkTexts(st.table.texts, order.subarray(from, to))));
      got.push(JSON.stringify(await worker!.take(from, to)));
    }
  } finally {
    worker!.close();
  }
  assert.is(got.length, 11);
  assert.equal(got, expected);
  assert.is(snapshotWorkerStats.chunks - before, 11, 'every chunk made by the worker');
  // a chunk asked out of turn is not the worker's: the caller makes it
  assert.is(await worker!.take(0, 500), undefined);
});

Workers('below minRows, or when workers are off, no worker starts', () => {
  const engine = new Engine();
  engine.bulkLoad({ attachments: [], terms: [], venues: [], organizers: [], events: events(50) }, undefined, {
    searchIndex: false,
  });
  const st = engine.state;
  const order = st.main.rows.slice(0, st.table.count);
  Object.assign(snapshotWorkerSettings, { minRows: 51 });
  assert.is(ChunkTextsWorker.start(st.table.texts, order, 10), undefined);
  Object.assign(snapshotWorkerSettings, { minRows: 1, enabled: false });
  assert.is(ChunkTextsWorker.start(st.table.texts, order, 10), undefined);
});

/** Every chunk of an async body, in order, as JSON text. */
async function textOf(body: AsyncIterable<unknown>): Promise<string[]> {
  const out: string[] = [];
  for await (const c of body) out.push(JSON.stringify(c));
  return out;
}

Workers("a deferred load's streamed snapshot: the same chunks with its texts and lists made on workers", async () => {
  // several venues a row, parents, categories under categories, rows out of table order
  const set = new Generator(new Rng(mulberry32(41))).initial(2_500);
  assert.ok(set.events.some((ev) => ev.venueIds.length > 1) && set.events.some((ev) => ev.parentId !== 0));
  assert.ok(set.terms.some((t) => t.parent !== 0));
  const streamed: string[][] = [];
  for (const settings of [{ enabled: false }, { enabled: true, minRows: 1, ahead: 0 }]) {
    Object.assign(snapshotWorkerSettings, settings);
    const e = new Engine();
    e.bulkLoad(structuredClone(set), undefined, { deferIndexes: true });
    const before = { ...snapshotWorkerStats };
    const { head, body } = e.streamedSnapshot();
    streamed.push([...head.map((c) => JSON.stringify(c)), ...(await textOf(body))]);
    const made = settings.enabled ? 1 : 0;
    assert.is(snapshotWorkerStats.chunks - before.chunks, made, "the events chunk's texts by a worker");
    assert.is(snapshotWorkerStats.postings - before.postings, made, 'the lists by a worker');
  }
  const [here, workers] = streamed;
  assert.is(here.filter((c) => c.startsWith('{"type":"postings"')).length, 6, 'every kind of list');
  assert.equal(workers, here);
});

/** A store's snapshot lines, in the manifest's order. */
function snapshotText(store: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(store, 'snapshot.json'), 'utf8')) as {
    parts: { file: string }[];
  };
  return manifest.parts.map((p) => fs.readFileSync(path.join(store, p.file), 'latin1')).join('');
}

Workers('an import alone streams the same snapshot with the worker as without it', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-snapworker-'));
  try {
    // three events chunks (10,000 rows each), rows written in (start, id) order, not the file's
    const recs = events(20_500).map((e) => ({
      id: e.id,
      author: 1,
      status: 'publish',
      date: '2030-01-01 10:00:00',
      title: e.title,
      slug: `event-${e.id}`,
      description: e.description,
      excerpt: e.excerpt,
      timezone: 'Europe/Paris',
      start_date: e.startLocal,
      end_date: e.endLocal,
      cost: e.id % 3 ? '10' : '',
      website: '',
    }));
    const file = path.join(dir, 'cal.json');
    fs.writeFileSync(file, `{\n"events":[\n${recs.map((r) => JSON.stringify(r)).join(',\n')}\n]\n}\n`);
    const stores: string[] = [];
    for (const settings of [{ enabled: false }, { enabled: true, minRows: 1, ahead: 1 }]) {
      Object.assign(snapshotWorkerSettings, settings);
      const store = path.join(dir, `s${stores.length}`);
      const before = { ...snapshotWorkerStats };
      const cal = await openCalendar({ dir: store, timezone: 'Europe/Paris' });
      await cal.importFile(file, { alone: true });
      await cal.close();
      assert.is(snapshotWorkerStats.chunks - before.chunks, settings.enabled ? 3 : 0, 'chunks made by the worker');
      assert.is(snapshotWorkerStats.postings - before.postings, settings.enabled ? 1 : 0, 'lists made by a worker');
      stores.push(store);
    }
    const [alone, withWorker] = stores.map(snapshotText);
    assert.ok(alone.split('\n').filter((l) => l.startsWith('{"type":"events"')).length === 3);
    assert.ok(alone === withWorker, 'the same snapshot lines');
    // loaded: the same calendar
    const views: string[] = [];
    for (const store of stores) {
      const cal = await openCalendar({ dir: store, timezone: 'Europe/Paris' });
      assert.is(cal.engine.eventRowCount, 20_500);
      const rows = Array.from({ length: 20_500 }, (_, row) => cal.engine.eventRecord(row));
      views.push(JSON.stringify(rows));
      await cal.close();
    }
    assert.ok(views[0] === views[1], 'the same rows loaded');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

Workers.run();
