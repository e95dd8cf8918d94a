// A search while the word index is built on a worker thread: the REST and embedding lists wait for
// the build; a synchronous read is answered by a scan, with the same events.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveActor } from '../src/api/wordpress/auth.ts';
import { existingSearchIndex, scheduleSearchIndexBuild } from '../src/engine/search-index.ts';
import { searchWorkerSettings } from '../src/engine/search-workers.ts';
import { openCalendar } from '../src/index.ts';
import { makeEvent } from './engine/build.ts';
import { NOW } from './helpers/calendar.ts';

const handle = suite('calendar handle');

const WORDS = ['pottery', 'yoga', 'crème', 'brûlée', 'jazz', 'hands-on', 'market', 'walk'];

handle('a search list waits for the worker build of the word index; a read meanwhile scans', async () => {
  const saved = searchWorkerSettings.minRows;
  searchWorkerSettings.minRows = 0;
  const c = await openCalendar({ now: () => NOW });
  try {
    const events = [];
    for (let id = 1; id <= 2000; id++) {
      const w = (k: number) => WORDS[(id * (k + 3) + k) % WORDS.length];
      const day = String(1 + (id % 28)).padStart(2, '0');
      events.push(
        makeEvent(id, {
          title: `${w(0)} ${w(1)} ${id}`,
          description: `<p>${w(2)} class, ${w(3)} ${w(4)}</p>`,
          startLocal: `2026-04-${day} 10:00:00`,
          endLocal: `2026-04-${day} 12:00:00`,
          startUtc: `2026-04-${day} 14:00:00`,
          endUtc: `2026-04-${day} 16:00:00`,
        }),
      );
    }
    c.engine.bulkLoad({ attachments: [], terms: [], venues: [], organizers: [], events });
    const st = c.engine.state;
    const params = { search: 'pottery', per_page: '50', page: '2' };
    const actor = resolveActor(undefined, c.users);
    const call = { resource: 'events' as const, action: 'list' as const, params, actor };
    const si = existingSearchIndex(st)!;
    assert.ok(si.waiting, 'the worker builds the index');
    const scanned = c.read(call) as { total: number; items: { id: number }[] };
    assert.ok(si.waiting, 'a read does not build the index');
    assert.ok(scanned.total > 50, `a search with two pages (${scanned.total})`);
    const listed = await c.events.list(params, null);
    assert.not.ok(si.building, 'the list waited for the worker');
    assert.is(listed.total, scanned.total);
    assert.equal(
      listed.items.map((e) => e.id),
      scanned.items.map((e) => e.id),
    );
    // Calendar.rest (the HTTP shell's path) the same way
    scheduleSearchIndexBuild(st);
    const next = existingSearchIndex(st)!;
    assert.ok(next.waiting);
    const res = await c.rest(call);
    assert.not.ok(next.building, 'rest waited for the worker');
    const body = JSON.parse(res.body) as { total: number; events: { id: number }[] };
    assert.is(body.total, scanned.total);
    assert.equal(
      body.events.map((e) => e.id),
      scanned.items.map((e) => e.id),
    );
  } finally {
    searchWorkerSettings.minRows = saved;
    await c.close();
  }
});

handle.run();
