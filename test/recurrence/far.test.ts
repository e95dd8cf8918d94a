// Far occurrences (past the rows' horizon) through the embedding API: a window a century out
// lists unbounded series' instances among the rows in start order, counted and paged exactly,
// matched by every filter; their computed ids answer GET and take writes (an exception, an
// exclusion, a split); a query over many series stays within the stated memory bound.
import * as assert from 'uvu/assert';
import v8 from 'node:v8';
import vm from 'node:vm';
import { calendarSuite, rejects } from '../helpers/calendar.ts';
import { FAR_ID_MIN, decodeFarId } from '../../src/recurrence/far-ids.ts';

type Obj = Record<string, unknown>;
const S = calendarSuite('recurrence :: far occurrences through the embedding API', { timezone: 'Europe/Paris' });

const standup = {
  title: 'Standup',
  start_date: '2026-03-09 09:00:00',
  end_date: '2026-03-09 09:15:00',
  timezone: 'Europe/Paris',
  recurrence: 'RRULE:FREQ=WEEKLY;BYDAY=MO,WE',
  categories: ['Team'],
  status: 'publish',
};
const jan2125 = { start_date: '2125-01-01', end_date: '2125-01-31', per_page: 50 };

/** The days of a 31-day month (January 2125 by default) on the given weekdays (0 = Sunday), by
 *  the calendar alone. */
function daysOf(weekdays: number[], year = 2125, month = 0): string[] {
  const out: string[] = [];
  for (let d = 1; d <= 31; d++) {
    const t = new Date(Date.UTC(year, month, d));
    if (weekdays.includes(t.getUTCDay())) out.push(t.toISOString().slice(0, 10));
  }
  return out;
}

const starts = (items: Obj[]) => items.map((e) => e.start_date);
const isFar = (id: unknown) => (id as number) >= FAR_ID_MIN;

S('a century out: every instance, in start order among rows, counted and paged exactly', async ({ cal, users }) => {
  const series = await cal.events.create(standup, users.editor);
  const monthly = await cal.events.create(
    {
      title: 'Board',
      start_date: '2026-03-02 14:00:00',
      end_date: '2026-03-02 16:00:00',
      recurrence: 'RRULE:FREQ=MONTHLY;BYMONTHDAY=2,20',
      status: 'publish',
    },
    users.editor,
  );
  const single = await cal.events.create(
    { title: 'Gala', start_date: '2125-01-13 08:00:00', end_date: '2125-01-13 23:00:00', status: 'publish' },
    users.editor,
  );
  const all = await cal.events.list(jan2125);
  const want = [
    ...daysOf([1, 3]).map((d) => `${d} 09:00:00`),
    '2125-01-02 14:00:00',
    '2125-01-20 14:00:00',
    '2125-01-13 08:00:00',
  ].sort();
  assert.equal(starts(all.items), want);
  assert.is(all.total, want.length);
  assert.is(all.totalPages, 1);
  const gala = all.items.find((e) => e.id === single.id)!;
  assert.is(gala.title, 'Gala', 'the row among the far occurrences');
  for (const e of all.items) {
    if (e.id === single.id) continue;
    assert.ok(isFar(e.id), `${e.start_date} has a far id`);
    const { seriesId } = decodeFarId(e.id as number);
    assert.is(seriesId, e.post_parent, 'the id names its series');
    assert.is(e.recurrence_id, e.start_date);
    assert.is(e.is_exception, false);
    assert.ok(!('recurrence' in e));
  }
  const board = all.items.find((e) => e.post_parent === monthly.id)!;
  assert.equal(
    [board.title, board.end_date, board.utc_start_date],
    ['Board', '2125-01-02 16:00:00', '2125-01-02 13:00:00'],
  );
  assert.is(board.slug, 'board-2125-01-02');
  // pages of 4 give the same list, in the same order
  const paged: Obj[] = [];
  for (let page = 1; ; page++) {
    const p = await cal.events.list({ ...jan2125, per_page: 4, page });
    assert.is(p.total, want.length);
    assert.is(p.totalPages, Math.ceil(want.length / 4));
    paged.push(...p.items);
    if (page === p.totalPages) break;
  }
  assert.equal(
    paged.map((e) => e.id),
    all.items.map((e) => e.id),
  );
  await rejects(
    cal.events.list({ ...jan2125, per_page: 4, page: Math.ceil(want.length / 4) + 1 }),
    'event-archive-page-not-found',
    404,
  );
  // strict bounds on the start and the end
  // (without strict_dates a relative bound is the end of its day)
  const some = await cal.events.list({ starts_after: '2125-01-05 09:00:00', starts_before: '2125-01-12 09:00:00' });
  assert.equal(
    starts(some.items),
    want.filter((s) => s > '2125-01-05 23:59:59' && s < '2125-01-12 23:59:59'),
  );
  const ends = await cal.events.list({ ends_after: '2125-01-19', ends_before: '2125-01-20' });
  assert.equal(starts(ends.items), ['2125-01-20 14:00:00']);
  // post_parent lists one series' far occurrences
  const kids = await cal.events.list({ ...jan2125, post_parent: series.id as number });
  assert.equal(
    starts(kids.items),
    daysOf([1, 3]).map((d) => `${d} 09:00:00`),
  );
});

S('far occurrences match the filters their series matches', async ({ cal, users }) => {
  const venue = await cal.venues.create(
    { venue: 'Hall', city: 'Paris', geo_lat: 48.8566, geo_lng: 2.3522 },
    users.editor,
  );
  const a = await cal.events.create({ ...standup, venue: venue.id, featured: true }, users.editor);
  const b = await cal.events.create(
    { ...standup, title: 'Yoga', categories: ['Sport'], tags: ['calm'], recurrence: 'RRULE:FREQ=WEEKLY;BYDAY=TU' },
    users.editor,
  );
  await cal.events.create({ ...standup, title: 'Draft class', status: 'draft' }, users.editor);
  const parents = async (q: Obj) => [
    ...new Set((await cal.events.list({ ...jan2125, status: 'publish', ...q })).items.map((e) => e.post_parent)),
  ];
  assert.equal(await parents({ categories: ['team'] }), [a.id]);
  assert.equal(await parents({ categories: ['sport'] }), [b.id]);
  assert.equal(await parents({ tags: ['calm'] }), [b.id]);
  assert.equal(await parents({ venue: venue.id }), [a.id]);
  assert.equal(await parents({ featured: true }), [a.id]);
  assert.equal(await parents({ search: 'yoga' }), [b.id]);
  assert.equal(await parents({ geoloc: false }), [b.id]);
  assert.equal(await parents({ geoloc_lat: 48.85, geoloc_lng: 2.35, geoloc_radius: 5, geoloc_unit: 'km' }), [a.id]);
  const everyone = await cal.events.list({ ...jan2125, status: 'publish' });
  assert.is(everyone.total, daysOf([1, 3]).length + daysOf([2]).length, 'the draft is not published');
  const editor = await cal.events.list({ ...jan2125, status: 'draft' });
  assert.is(editor.total, daysOf([1, 3]).length);
  assert.ok(editor.items.every((e) => e.title === 'Draft class' && e.status === 'draft'));
});

S('GET answers a far id with the list representation and json_ld; unknown far ids are 404', async ({ cal, users }) => {
  await cal.events.create(standup, users.editor);
  const item = (await cal.events.list(jan2125)).items[3];
  const one = await cal.events.get(item.id as number);
  const { json_ld, ...rest } = one;
  assert.equal(rest, { ...item, venue: [], organizer: [] });
  assert.is((json_ld as Obj).startDate, `${String(item.start_date).replace(' ', 'T')}+01:00`);
  await rejects(cal.events.get((item.id as number) + 1), 'rest-event-not-found', 404);
  await rejects(cal.events.get(FAR_ID_MIN + 999_999 * 2 ** 21), 'rest-event-not-found', 404);
});

S('writes to far occurrences: an exception, an exclusion, a split, a whole-series edit', async ({ cal, users }) => {
  const series = await cal.events.create(standup, users.editor);
  const before = await cal.events.list(jan2125);
  const [first, second, third, fourth] = before.items;
  // this one: an exception, a row with an id of its own; the far id keeps naming it
  const ex = await cal.events.update(second.id as number, { title: 'Standup (moved)' }, users.editor);
  assert.ok((ex.id as number) < 2 ** 31);
  assert.equal([ex.is_exception, ex.post_parent, ex.recurrence_id], [true, series.id, second.start_date]);
  assert.is((await cal.events.get(second.id as number)).id, ex.id);
  let now = await cal.events.list(jan2125);
  assert.is(now.total, before.total);
  assert.equal(now.items[1].id, ex.id);
  assert.equal(starts(now.items), starts(before.items));
  // a whole-series edit keeps the far exception's own title
  await cal.events.update(series.id as number, { title: 'Daily meeting' }, users.editor);
  now = await cal.events.list(jan2125);
  assert.equal(
    now.items.slice(0, 3).map((e) => e.title),
    ['Daily meeting', 'Standup (moved)', 'Daily meeting'],
  );
  // delete this one: an exclusion
  const gone = await cal.events.delete(third.id as number, users.editor);
  assert.is(gone.status, 'trash');
  now = await cal.events.list(jan2125);
  assert.is(now.total, before.total - 1);
  assert.ok(!now.items.some((e) => e.start_date === third.start_date));
  assert.ok(((await cal.events.get(series.id as number)).recurrence as Obj).exdates !== undefined);
  await rejects(cal.events.get(third.id as number, users.editor), 'event-no-longer-available', 403);
  // restore it: an exception again, the exclusion gone
  await cal.events.update(gone.id as number, { status: 'publish' }, users.editor);
  assert.is((await cal.events.list(jan2125)).total, before.total);
  // this and following: the series ends before it, the rest is a new series starting there
  const split = await cal.events.update(
    fourth.id as number,
    { title: 'New standup', recurrence_scope: 'following' },
    users.editor,
  );
  assert.equal([split.start_date, split.post_parent ?? 0], [fourth.start_date, 0]);
  assert.ok((split.recurrence as Obj).rules !== undefined);
  now = await cal.events.list(jan2125);
  assert.is(now.total, before.total);
  assert.equal(starts(now.items), starts(before.items));
  assert.equal(
    now.items.slice(3).map((e) => e.title),
    now.items.slice(3).map(() => 'New standup'),
  );
  assert.is(first.title, 'Standup');
  const old = await cal.events.list({
    start_date: '2124-12-01',
    end_date: '2125-12-31',
    post_parent: series.id as number,
  });
  assert.equal(
    old.items.map((e) => e.start_date),
    [...daysOf([1, 3], 2124, 11).map((d) => `${d} 09:00:00`), first.start_date, ex.start_date, third.start_date],
    'the first series ends before the split',
  );
});

S('bounded memory: a century-out year over 300 unbounded series', async ({ cal, users }) => {
  for (let i = 0; i < 300; i++) {
    await cal.events.create(
      {
        title: `Series ${i}`,
        start_date: '2026-03-09 09:00:00',
        end_date: '2026-03-09 10:00:00',
        recurrence: i % 3 === 0 ? 'RRULE:FREQ=DAILY' : 'RRULE:FREQ=WEEKLY;BYDAY=MO,TH',
        status: 'publish',
      },
      users.editor,
    );
  }
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  const year = { start_date: '2125-01-01', end_date: '2125-12-31', per_page: 50 };
  await cal.events.list(year); // the far index, built once
  gc();
  const base = process.memoryUsage().heapUsed;
  const page = await cal.events.list({ ...year, page: 40 });
  // what the query left on the heap before any collection: its garbage and anything it kept
  const grown = process.memoryUsage().heapUsed - base;
  let weekly = 0;
  for (let d = Date.UTC(2125, 0, 1); d < Date.UTC(2126, 0, 1); d += 86_400_000) {
    const day = new Date(d).getUTCDay();
    if (day === 1 || day === 4) weekly++;
  }
  assert.is(page.total, 100 * 365 + 200 * weekly);
  assert.is(page.items.length, 50);
  assert.ok(grown < 24 * 1024 * 1024, `the heap grew by ${grown} bytes`);
  gc();
  const retained = process.memoryUsage().heapUsed - base;
  assert.ok(retained < 2 * 1024 * 1024, `nothing kept: ${retained} bytes`);
});

S('many rows and a few far occurrences: pages deep in the list, in order', async ({ cal, users }) => {
  await cal.events.create(standup, users.editor);
  // 60 single events in January 2125 among the standup's far instances (Mondays, Wednesdays)
  const want = daysOf([1, 3]).map((d) => `${d} 09:00:00`);
  for (let i = 0; i < 60; i++) {
    const day = `2125-01-${String(1 + (i % 30)).padStart(2, '0')}`,
      hour = String(6 + Math.floor(i / 30) * 4).padStart(2, '0');
    want.push(`${day} ${hour}:30:00`);
    await cal.events.create(
      { title: `Single ${i}`, start_date: `${day} ${hour}:30:00`, end_date: `${day} 22:00:00`, status: 'publish' },
      users.editor,
    );
  }
  want.sort();
  for (const per of [3, 7, 50]) {
    const paged: Obj[] = [];
    for (let page = 1; ; page++) {
      const p = await cal.events.list({ ...jan2125, per_page: per, page });
      assert.is(p.total, want.length);
      paged.push(...p.items);
      if (page === p.totalPages) break;
    }
    assert.equal(starts(paged), want, `pages of ${per}`);
    assert.is(paged.filter((e) => isFar(e.id)).length, want.length - 60);
    assert.is(new Set(paged.map((e) => e.id)).size, want.length);
  }
  // the same without an upper bound on the starts (starts_after)
  const open: Obj[] = [];
  for (let page = 1; page <= Math.ceil(want.length / 3); page++) {
    open.push(...(await cal.events.list({ starts_after: '2124-12-31', per_page: 3, page })).items);
  }
  assert.equal(starts(open).slice(0, want.length), want);
});

S.run();
