// Far occurrences where a list has no upper bound on its starts (only starts_after/ends_after),
// in lists by `include`, and by slug, through the embedding API: an open-ended list pages lazily
// through an unbounded series for ever, in start order among the rows, its total counting what
// starts within 735 days of its lower bound (exact when nothing starts later); `include` takes far
// ids; `get(slug)` answers a far occurrence's slug.
import * as assert from 'uvu/assert';
import { calendarSuite, rejects } from '../helpers/calendar.ts';
import { FAR_ID_MIN } from '../../src/recurrence/far-ids.ts';

type Obj = Record<string, unknown>;
const S = calendarSuite('recurrence :: far occurrences in open-ended lists, include and slugs', {
  timezone: 'Europe/Paris',
});

const standup = {
  title: 'Standup',
  start_date: '2026-03-09 09:00:00',
  end_date: '2026-03-09 09:15:00',
  timezone: 'Europe/Paris',
  recurrence: 'RRULE:FREQ=WEEKLY;BYDAY=MO,WE',
  status: 'publish',
};
const DAY = 86_400_000;
const starts = (items: Obj[]) => items.map((e) => e.start_date);
const isFar = (id: unknown) => (id as number) >= FAR_ID_MIN;

/** 'Y-m-d 09:00:00' of each day in [from, to] (UTC dates) on the given weekdays, by the calendar alone. */
function nineOClock(from: string, to: string, weekdays: number[]): string[] {
  const out: string[] = [];
  for (let d = Date.parse(`${from}T00:00:00Z`); d <= Date.parse(`${to}T00:00:00Z`); d += DAY)
    if (weekdays.includes(new Date(d).getUTCDay())) out.push(`${new Date(d).toISOString().slice(0, 10)} 09:00:00`);
  return out;
}

S('starts_after alone: every page in order, for ever; the total counts 735 days on', async ({ cal, users }) => {
  const series = await cal.events.create(standup, users.editor);
  const gala = await cal.events.create(
    { title: 'Gala', start_date: '2125-01-13 08:00:00', end_date: '2125-01-13 23:00:00', status: 'publish' },
    users.editor,
  );
  // starts_after is the end of its day: 2125-01-01 23:59:59; 735 days on is 2127-01-06 23:59:59
  const counted = [...nineOClock('2125-01-02', '2127-01-06', [1, 3]), '2125-01-13 08:00:00'].sort();
  const q = { starts_after: '2125-01-01', per_page: 10 };
  const first = await cal.events.list(q);
  assert.equal(starts(first.items), counted.slice(0, 10));
  assert.is(first.total, counted.length);
  assert.is(first.totalPages, Math.ceil(counted.length / 10));
  assert.ok(
    first.items.some((e) => e.id === gala.id),
    'the row among the far occurrences',
  );
  assert.ok(first.items.filter((e) => e.id !== gala.id).every((e) => isFar(e.id) && e.post_parent === series.id));
  // page 2 goes on where page 1 ended
  const second = await cal.events.list({ ...q, page: 2 });
  assert.equal(starts(second.items), counted.slice(10, 20));
  // past the counted events the series goes on, and so do the pages
  const lastCounted = first.totalPages;
  const later = nineOClock('2127-01-07', '2140-01-01', [1, 3]);
  const last = await cal.events.list({ ...q, page: lastCounted });
  const rest = counted.slice(10 * (lastCounted - 1));
  assert.equal(starts(last.items), [...rest, ...later.slice(0, 10 - rest.length)]);
  assert.is(last.total, 10 * lastCounted + 1, 'its later events counted, and one more');
  const past = await cal.events.list({ ...q, page: lastCounted + 30 });
  const at = 10 * (lastCounted + 29) - counted.length;
  assert.equal(starts(past.items), later.slice(at, at + 10));
  assert.is(past.total, 10 * (lastCounted + 30) + 1, 'counted to the page and one more: the next page is linked');
  assert.is(past.totalPages, lastCounted + 31);
  // ends_after alone, the same way (the standup lasts 15 minutes)
  const ends = await cal.events.list({ ends_after: '2125-01-01', per_page: 3 });
  assert.equal(starts(ends.items), counted.slice(0, 3));
});

S('open-ended lists: exact totals when nothing is endless, filters, post_parent', async ({ cal, users }) => {
  const course = await cal.events.create(
    { ...standup, title: 'Course', recurrence: 'RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=300', categories: ['Study'] },
    users.editor,
  );
  const endless = await cal.events.create(standup, users.editor);
  // 300 Tuesdays from 2026-03-10: the last on 2031-12-02, rows to the horizon (2028), far after
  const tuesdays = nineOClock('2026-03-10', '2040-01-01', [2]).slice(0, 300);
  assert.is(tuesdays[299], '2031-12-02 09:00:00');
  const after2030 = tuesdays.filter((s) => s > '2030-01-01 23:59:59');
  const kids = { starts_after: '2030-01-01', post_parent: course.id as number, per_page: 20 };
  const first = await cal.events.list(kids);
  assert.is(first.total, after2030.length, 'a bounded series: every instance counted');
  assert.equal(starts(first.items), after2030.slice(0, 20));
  const lastPage = Math.ceil(after2030.length / 20);
  const last = await cal.events.list({ ...kids, page: lastPage });
  assert.equal(starts(last.items), after2030.slice(20 * (lastPage - 1)));
  await rejects(cal.events.list({ ...kids, page: lastPage + 1 }), 'event-archive-page-not-found', 404);
  // filters choose the series: the course's category leaves the endless standup out
  const study = await cal.events.list({ starts_after: '2030-01-01', categories: ['study'], per_page: 5 });
  assert.is(study.total, after2030.length);
  // both: the course's Tuesdays among the standup's Mondays and Wednesdays
  const both = await cal.events.list({ starts_after: '2031-11-30', per_page: 6 });
  assert.equal(starts(both.items), [
    '2031-12-01 09:00:00',
    '2031-12-02 09:00:00',
    '2031-12-03 09:00:00',
    '2031-12-08 09:00:00',
    '2031-12-10 09:00:00',
    '2031-12-15 09:00:00',
  ]);
  assert.equal(
    both.items.map((e) => e.post_parent),
    [endless.id, course.id, endless.id, endless.id, endless.id, endless.id],
  );
});

S('include takes far ids: the occurrence, or its row once it has one; filtered as rows', async ({ cal, users }) => {
  const series = await cal.events.create(standup, users.editor);
  const draft = await cal.events.create({ ...standup, title: 'Draft', status: 'draft' }, users.editor);
  const single = await cal.events.create(
    { title: 'Gala', start_date: '2027-01-13 08:00:00', end_date: '2027-01-13 23:00:00', status: 'publish' },
    users.editor,
  );
  const year = await cal.events.list({ start_date: '2125-01-01', end_date: '2125-01-31', per_page: 50 });
  const [a, b, c] = year.items.filter((e) => e.post_parent === series.id);
  const hidden = (
    await cal.events.list({ start_date: '2125-01-01', end_date: '2125-01-31', status: 'draft' }, users.editor)
  ).items[0];
  assert.ok(isFar(a.id) && isFar(hidden.id));
  const list = await cal.events.list({ include: [c.id, single.id, a.id, a.id, (b.id as number) + 1] });
  // one publication date (the clock stood still): by id, the gala's post id first
  assert.equal(
    list.items.map((e) => e.id),
    [single.id, a.id, c.id],
  );
  assert.is(list.total, 3, 'an id given twice is listed once; a far id naming nothing is left out');
  assert.equal(list.items[1], a, 'the list representation');
  // filtered as the rows are: by status (include lists any status, as for the draft's own row)
  const drafts = await cal.events.list({ include: [hidden.id, b.id, draft.id], status: 'draft' }, users.editor);
  assert.equal(
    drafts.items.map((e) => e.id),
    [draft.id, hidden.id],
  );
  assert.is(drafts.items[1].post_parent, draft.id);
  const published = await cal.events.list({ include: [hidden.id, b.id], status: 'publish' }, users.editor);
  assert.equal(
    published.items.map((e) => e.id),
    [b.id],
  );
  // an exception made from a far occurrence: include of its far id lists the row
  const exception = await cal.events.update(b.id as number, { title: 'Standup (moved)' }, users.editor);
  const again = await cal.events.list({ include: [b.id, a.id] });
  assert.equal(
    again.items.map((e) => [e.id, e.title]),
    [
      [exception.id, 'Standup (moved)'],
      [a.id, 'Standup'],
    ],
  );
  // paged
  const paged = await cal.events.list({ include: [a.id, c.id, single.id], per_page: 2, page: 2 });
  assert.equal(
    paged.items.map((e) => e.id),
    [c.id],
  );
  assert.is(paged.total, 3);
  // a far id naming nothing is left out as an unknown post id is
  assert.is((await cal.events.list({ include: [(c.id as number) + 1] })).total, 0);
});

S('a far occurrence by slug: the series slug and the day, -2 for a later one that day', async ({ cal, users }) => {
  const series = await cal.events.create(standup, users.editor);
  const twice = await cal.events.create(
    {
      ...standup,
      title: 'Clinic',
      recurrence: 'RRULE:FREQ=WEEKLY;BYDAY=FR;BYHOUR=9,15',
    },
    users.editor,
  );
  const jan = await cal.events.list({ start_date: '2125-01-01', end_date: '2125-01-31', per_page: 50 });
  const one = jan.items.find((e) => e.post_parent === series.id)!;
  assert.is(one.slug, `standup-${String(one.start_date).slice(0, 10)}`);
  const bySlug = await cal.events.get(one.slug as string);
  assert.equal([bySlug.id, bySlug.start_date, bySlug.title], [one.id, one.start_date, 'Standup']);
  const afternoon = jan.items.find((e) => e.post_parent === twice.id && String(e.start_date).endsWith('15:00:00'))!;
  assert.match(afternoon.slug as string, /^clinic-2125-01-\d\d-2$/);
  assert.is((await cal.events.get(afternoon.slug as string)).id, afternoon.id);
  // a day without an instance, a place the day does not have, a slug of no series
  await rejects(cal.events.get('standup-2125-01-07'), 'rest_invalid_param', 400); // a Sunday
  await rejects(cal.events.get(`${one.slug}-2`), 'rest_invalid_param', 400);
  await rejects(cal.events.get(`${one.slug}-1`), 'rest_invalid_param', 400);
  await rejects(cal.events.get('nothing-2125-01-05'), 'rest_invalid_param', 400);
  // a row's slug is the row's: an occurrence within the horizon
  const near = (await cal.events.list({ post_parent: series.id as number, per_page: 1 })).items[0];
  assert.ok(!isFar(near.id));
  assert.is((await cal.events.get(near.slug as string)).id, near.id);
});

S.run();
