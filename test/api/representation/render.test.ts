// The representation cache's invalidation by dependency, seen from the embedding API: a write
// changes what it must (and every representation that embeds it) and leaves the rest cached.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { makeCalendar } from '../../helpers/calendar.ts';
import type { Calendar } from '../../../src/calendar.ts';

const render = suite('render: invalidation by dependency');

type Obj = Record<string, unknown>;

async function calendar(cacheBytes?: number): Promise<Calendar> {
  const { cal } = await makeCalendar(cacheBytes === undefined ? {} : { cacheBytes });
  const events = [];
  for (let i = 0; i < 30; i++) {
    events.push({
      id: 1000 + i,
      title: `Event ${i}`,
      start_date: `2026-04-${String(1 + (i % 28)).padStart(2, '0')} 10:00:00`,
      end_date: `2026-04-${String(1 + (i % 28)).padStart(2, '0')} 12:00:00`,
      venue: i < 10 ? 100 : 101,
      organizer: [200],
      categories: i % 2 === 0 ? [10, 11] : [11],
      tags: [20],
    });
  }
  await cal.import({
    categories: [
      { id: 10, name: 'Music' },
      { id: 11, name: 'Art' },
    ],
    tags: [{ id: 20, name: 'outdoor' }],
    venues: [
      { id: 100, venue: 'Hall' },
      { id: 101, venue: 'Park' },
    ],
    organizers: [{ id: 200, organizer: 'Org' }],
    events,
  });
  return cal;
}

const all = { start_date: '2026-01-01', per_page: 50 };
const rest = async (cal: Calendar, params: Obj): Promise<Obj[]> =>
  (JSON.parse((await cal.rest({ resource: 'events', action: 'list', params, actor: null })).body) as { events: Obj[] })
    .events;

render('renaming a venue shows in the events at it, and only their texts are joined again', async () => {
  const cal = await calendar();
  await rest(cal, all);
  (await cal.events.list(all)).items;
  await cal.venues.update(100, { venue: 'Grand Hall' });
  const before = cal.render.stats();
  const events = await rest(cal, all);
  const objects = (await cal.events.list(all)).items;
  for (const list of [events, objects]) {
    for (const e of list) {
      const want = (e.id as number) < 1010 ? 'Grand Hall' : 'Park';
      assert.is((e.venue as Obj).venue, want, `event ${e.id as number}`);
    }
  }
  // every event stayed cached (the rename re-joined ten texts from their cached heads), and the
  // venue's new piece was rendered by the update's own answer: no miss at all
  const after = cal.render.stats();
  assert.is(after.misses - before.misses, 0, 'misses');
  assert.ok(after.hits - before.hits >= 60, 'every event was a hit, for the text and the objects');
  assert.is((await cal.venues.get(100)).venue, 'Grand Hall');
  await cal.close();
});

render("a new event in a category changes that category's count everywhere it shows", async () => {
  const cal = await calendar();
  const count = (e: Obj, id: number) => (e.categories as Obj[]).find((c) => c.id === id)?.count;
  const first = await rest(cal, all);
  assert.is(count(first[0], 10), 15);
  await cal.events.create({
    title: 'New',
    start_date: '2026-05-01 10:00:00',
    end_date: '2026-05-01 11:00:00',
    categories: [10],
  });
  const events = await rest(cal, all);
  const objects = (await cal.events.list(all)).items;
  assert.is(count(events[0], 10), 16, 'JSON text');
  assert.is(count(objects[0], 10), 16, 'objects');
  assert.is(count(events[1], 11), 30, 'the other category is unchanged');
  assert.is((await cal.categories.get(10)).count, 16, 'the standalone term');
  await cal.close();
});

render('renaming a term re-orders the terms of the events that carry it', async () => {
  const cal = await calendar();
  const names = (e: Obj) => (e.categories as Obj[]).map((c) => c.name);
  assert.equal(names((await rest(cal, all))[0]), ['Art', 'Music']);
  await cal.categories.update(10, { name: 'Acoustic' });
  assert.equal(names((await rest(cal, all))[0]), ['Acoustic', 'Art']);
  assert.equal(names((await cal.events.list(all)).items[0]), ['Acoustic', 'Art']);
  await cal.close();
});

render('an update of one event drops that event only', async () => {
  const cal = await calendar();
  await rest(cal, all);
  await rest(cal, all); // events are kept from their second read on
  const warm = cal.render.stats();
  await cal.events.update(1003, { title: 'Changed' });
  const events = await rest(cal, all);
  assert.is(events.find((e) => e.id === 1003)?.title, 'Changed');
  const after = cal.render.stats();
  // the update's answer rendered event 1003 again (one miss); the list missed nothing else
  assert.ok(after.misses - warm.misses <= 2, `misses grew by ${after.misses - warm.misses}`);
  await cal.close();
});

render(
  'a cached head is settled (copied to one byte a character, its tail flattened) once it is read again (a two-byte slug would widen every page)',
  async () => {
    const { cal } = await makeCalendar({});
    // an ASCII slug held as a two-byte string, as String.normalize or a slice of a wider string makes
    const wide = ('\u0113' + 'autumn-fair-7').slice(1);
    await cal.import({
      events: [
        { id: 7, title: 'Autumn fair', slug: wide, start_date: '2026-04-01 10:00:00', end_date: '2026-04-01 12:00:00' },
      ],
    });
    const row = cal.engine.eventRow(7);
    const entry = () => cal.render.cache.peekRow(row) as { head: string; settled: boolean } | undefined;
    const bodies: string[] = [];
    for (let i = 0; i < 3; i++)
      bodies.push((await cal.rest({ resource: 'events', action: 'list', params: all, actor: null })).body);
    assert.is(entry()?.settled, true, 'copied on its first read from the cache');
    assert.ok(entry()!.head.includes('"slug":"autumn-fair-7"'));
    assert.is(bodies[1], bodies[0]);
    assert.is(bodies[2], bodies[0]);
    // a change makes it again, not yet settled
    await cal.events.update(7, { title: 'Autumn fair!' });
    await cal.rest({ resource: 'events', action: 'list', params: all, actor: null });
    assert.is(entry()?.settled, false);
    await cal.close();
  },
);

render('the cache stays within its budget however much is read', async () => {
  const cal = await calendar(20_000);
  for (let page = 1; page <= 3; page++) {
    await rest(cal, { ...all, per_page: 10, page });
    await cal.events.list({ ...all, per_page: 10, page });
    await rest(cal, { ...all, per_page: 10, page });
  }
  const s = cal.render.stats();
  assert.ok(s.bytes <= 20_000, `${s.bytes} bytes cached`);
  assert.ok(s.evictions > 0, 'pieces were evicted');
  await cal.close();
});

render('objects are fresh: changing one changes neither the cache nor the next answer', async () => {
  const cal = await calendar();
  const a = (await cal.events.get(1000)) as Obj;
  (a.venue as Obj).venue = 'mine';
  (a.categories as Obj[])[0].name = 'mine';
  (a.cost_details as Obj).values = ['mine'];
  const b = (await cal.events.get(1000)) as Obj;
  assert.is((b.venue as Obj).venue, 'Hall');
  assert.is((b.categories as Obj[])[0].name, 'Art');
  assert.equal((b.cost_details as Obj).values, []);
  await cal.close();
});

render.run();
