// Whole list pages kept for the HTTP shell (src/api/representation/page-cache.ts): a kept page
// is byte for byte the answer made now, through writes, a moving clock, actors and the budget.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { makeCalendar, NOW } from '../../helpers/calendar.ts';
import type { Calendar } from '../../../src/calendar.ts';
import type { Actor, Params, RestResult } from '../../../src/api/wordpress/types.ts';

const pages = suite('page cache: kept list pages');

const DAY = 86_400_000;

async function calendar(opts: { cacheBytes?: number; now?: () => Date } = {}): Promise<Calendar> {
  const { cal } = await makeCalendar(opts);
  const events = [];
  for (let i = 0; i < 40; i++) {
    const day = new Date(NOW.getTime() + (i - 5) * DAY).toISOString().slice(0, 10);
    events.push({
      id: 1000 + i,
      title: `Event ${i}`,
      start_date: `${day} 10:00:00`,
      end_date: `${day} 12:00:00`,
      categories: i % 2 === 0 ? [10] : [11],
      status: i % 7 === 0 ? 'draft' : 'publish',
    });
  }
  await cal.import({
    categories: [
      { id: 10, name: 'Music' },
      { id: 11, name: 'Art' },
    ],
    events,
  });
  return cal;
}

const socket = (cal: Calendar, params: Params, actor: Actor = null): Promise<RestResult> =>
  cal.rest({ resource: 'events', action: 'list', params, actor, forSocket: true });

/** The answer made afresh, as the embedding API's rest() gives it (never kept). */
const fresh = (cal: Calendar, params: Params, actor: Actor = null): Promise<RestResult> =>
  cal.rest({ resource: 'events', action: 'list', params, actor });

const bodyOf = (r: RestResult): string => (r.bytes !== undefined ? Buffer.from(r.bytes).toString('latin1') : r.body);

pages('a page is kept on its second sight and is then the very answer', async () => {
  const cal = await calendar();
  const params = { categories: '10', per_page: '5' };
  const first = await socket(cal, params);
  const second = await socket(cal, params);
  const third = await socket(cal, params);
  assert.is(first.bytes, undefined);
  assert.is(second.bytes, undefined);
  assert.ok(third.bytes, 'the third sight is answered from the kept page');
  const truth = await fresh(cal, params);
  assert.is(bodyOf(third), truth.body);
  assert.is(third.body, truth.body);
  assert.equal(third.headers, truth.headers);
  assert.is(third.status, 200);
  await cal.close();
});

pages('a write drops the kept pages', async () => {
  const cal = await calendar();
  const params = { per_page: '50' };
  for (let i = 0; i < 3; i++) await socket(cal, params);
  assert.ok((await socket(cal, params)).bytes);
  await cal.events.update(1010, { title: 'Renamed' });
  const after = await socket(cal, params);
  assert.is(after.bytes, undefined, 'not answered from a page of the old state');
  assert.match(after.body, 'Renamed');
  assert.is(after.body, (await fresh(cal, params)).body);
  await cal.close();
});

pages('the default window moves with the clock: a page of yesterday is not served', async () => {
  let now = NOW;
  const cal = await calendar({ now: () => now });
  for (let i = 0; i < 3; i++) await socket(cal, {});
  const before = await socket(cal, {});
  assert.ok(before.bytes);
  now = new Date(NOW.getTime() + 3 * DAY);
  const later = await socket(cal, {});
  assert.is(bodyOf(later), (await fresh(cal, {})).body);
  assert.is.not(bodyOf(later), bodyOf(before), 'the window moved, and the answer with it');
  await cal.close();
});

pages('a page is kept per actor: an editor sees drafts, a visitor never does', async () => {
  const { users } = await makeCalendar();
  const cal = await calendar();
  const params = { status: 'publish,draft', per_page: '50' };
  const editor = users.editor;
  for (let i = 0; i < 4; i++) {
    const seen = await socket(cal, params, editor);
    assert.is(bodyOf(seen), (await fresh(cal, params, editor)).body);
    assert.match(bodyOf(seen), '"status":"draft"');
    const anonymous = await socket(cal, { per_page: '50' });
    assert.not.match(bodyOf(anonymous), '"status":"draft"');
    assert.is(bodyOf(anonymous), (await fresh(cal, { per_page: '50' })).body);
  }
  await cal.close();
});

pages('a budget of 0 keeps no page', async () => {
  const cal = await calendar({ cacheBytes: 0 });
  for (let i = 0; i < 4; i++) assert.is((await socket(cal, {})).bytes, undefined);
  await cal.close();
});

pages('pages count in the budget: a small budget keeps few, never more than it holds', async () => {
  const cal = await calendar({ cacheBytes: 40_000 });
  for (let p = 1; p <= 5; p++) {
    const params = { per_page: '5', page: String(p) };
    for (let i = 0; i < 3; i++) await socket(cal, params);
    assert.is(bodyOf(await socket(cal, params)), (await fresh(cal, params)).body);
  }
  const stats = cal.render.stats();
  assert.ok(stats.bytes <= stats.budget, `${stats.bytes} bytes kept of ${stats.budget}`);
  assert.ok(cal.render.cache.pages >= 1 && cal.render.cache.pages < 5, `${cal.render.cache.pages} pages kept`);
  await cal.close();
});

pages.run();
