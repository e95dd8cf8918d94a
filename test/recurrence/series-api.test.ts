// Series through the embedding API: occurrences as rows of every list and filter, their ids and
// representation, each kind of edit (exception, exclusion, split, whole series, delete, trash,
// restore), the limits, and what the change feed says.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { makeCalendar, rejects, type TestCalendar } from '../helpers/calendar.ts';
import type { Change } from '../../src/changes/feed.ts';

type Obj = Record<string, unknown>;
const S = suite<TestCalendar>('recurrence :: series through the embedding API');
const weekly = {
  title: 'Standup',
  start_date: '2026-03-09 09:00:00',
  end_date: '2026-03-09 09:15:00',
  timezone: 'Europe/Paris',
  recurrence: 'RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=6',
  categories: ['Team'],
};
const wide = { start_date: '2026-03-01', end_date: '2026-12-31', per_page: 50 };

S.before.each(async (ctx) => {
  Object.assign(ctx, await makeCalendar({ timezone: 'Europe/Paris' }));
});
S.after.each(async ({ cal }) => {
  await cal.close();
});

const starts = (items: Obj[]) => items.map((e) => e.start_date);

S(
  'a series and its occurrences: rows of every list, at their own times, counted, filtered, with their series',
  async ({ cal, users }) => {
    const series = await cal.events.create(weekly, users.editor);
    assert.equal(series.recurrence, {
      rules: ['FREQ=WEEKLY;COUNT=6;BYDAY=MO'],
      rdates: [],
      exdates: [],
      text: 'RRULE:FREQ=WEEKLY;COUNT=6;BYDAY=MO',
    });
    const page = await cal.events.list(wide);
    assert.is(page.total, 6);
    assert.equal(starts(page.items), [
      '2026-03-09 09:00:00',
      '2026-03-16 09:00:00',
      '2026-03-23 09:00:00',
      '2026-03-30 09:00:00',
      '2026-04-06 09:00:00',
      '2026-04-13 09:00:00',
    ]);
    assert.equal(
      page.items.map((e) => e.utc_start_date).slice(2, 4),
      ['2026-03-23 08:00:00', '2026-03-30 07:00:00'],
      '09:00 wall clock across DST',
    );
    const occ = page.items[1];
    assert.equal(
      [occ.post_parent, occ.recurrence_id, occ.is_exception, occ.title, occ.end_date],
      [series.id, '2026-03-16 09:00:00', false, 'Standup', '2026-03-16 09:15:00'],
    );
    assert.is(occ.slug, 'standup-2026-03-16');
    assert.equal(
      (occ.categories as Obj[]).map((c) => c.name),
      ['Team'],
    );
    assert.is(page.items[0].id, series.id, 'the series is its first instance');
    // every filter sees the occurrences
    assert.is((await cal.events.list({ ...wide, categories: 'team' })).total, 6);
    assert.is((await cal.events.list({ ...wide, search: 'standup' })).total, 6);
    assert.is((await cal.events.list({ start_date: '2026-03-20', end_date: '2026-04-01' })).total, 2);
    assert.equal(starts((await cal.events.list({ ...wide, per_page: 2, page: 2 })).items), [
      '2026-03-23 09:00:00',
      '2026-03-30 09:00:00',
    ]);
    const children = await cal.events.list({ ...wide, post_parent: series.id as number });
    assert.is(children.total, 5, 'post_parent lists the occurrences after the first');
    const got = await cal.events.get(occ.id as number);
    assert.equal([got.id, got.post_parent, got.recurrence_id], [occ.id, series.id, '2026-03-16 09:00:00']);
  },
);

S(
  'an edited occurrence becomes an exception with its id; a deleted one an exclusion; brought back, not one',
  async ({ cal, users }) => {
    const series = await cal.events.create(weekly, users.editor);
    const items = (await cal.events.list(wide)).items;
    const ex = await cal.events.update(
      items[2].id as number,
      { title: 'Retro', start_date: '2026-03-23 15:00:00', end_date: '2026-03-23 16:00:00' },
      users.editor,
    );
    assert.equal(
      [ex.id, ex.title, ex.is_exception, ex.recurrence_id, ex.start_date],
      [items[2].id, 'Retro', true, '2026-03-23 09:00:00', '2026-03-23 15:00:00'],
    );
    const gone = await cal.events.delete(items[3].id as number, users.editor);
    assert.is(gone.status, 'trash');
    assert.equal((await cal.events.get(series.id as number)).recurrence, {
      rules: ['FREQ=WEEKLY;COUNT=6;BYDAY=MO'],
      rdates: [],
      exdates: ['2026-03-30 09:00:00'],
      text: 'RRULE:FREQ=WEEKLY;COUNT=6;BYDAY=MO\nEXDATE;TZID=Europe/Paris:20260330T090000',
    });
    const after = await cal.events.list(wide);
    assert.equal(
      after.items.map((e) => e.title),
      ['Standup', 'Standup', 'Retro', 'Standup', 'Standup'],
    );
    await rejects(cal.events.get(items[3].id as number, users.editor), 'event-no-longer-available', 403);
    // a change to the whole series: the others follow, the exception keeps its own fields
    await cal.events.update(
      series.id as number,
      {
        title: 'Daily sync',
        start_date: '2026-03-09 09:00:00',
        end_date: '2026-03-09 09:15:00',
        timezone: 'Europe/Paris',
      },
      users.editor,
    );
    assert.equal(
      (await cal.events.list(wide)).items.map((e) => e.title),
      ['Daily sync', 'Daily sync', 'Retro', 'Daily sync', 'Daily sync'],
    );
    assert.equal(
      (await cal.events.list(wide)).items.map((e) => e.id),
      after.items.map((e) => e.id),
      'ids kept',
    );
    // the deleted occurrence restored: no longer excluded, an exception
    const back = await cal.events.update(items[3].id as number, { status: 'publish' }, users.editor);
    assert.equal([back.status, back.is_exception], ['publish', true]);
    assert.equal(((await cal.events.get(series.id as number)).recurrence as Obj).exdates, []);
    assert.is((await cal.events.list(wide)).total, 6);
    // the whole series through an exception: its edit, not its own fields or times, goes to the series
    await cal.events.update(items[2].id as number, { excerpt: 'Weekly', recurrence_scope: 'all' }, users.editor);
    const s2 = await cal.events.get(series.id as number);
    assert.equal([s2.title, s2.start_date, s2.excerpt], ['Daily sync', '2026-03-09 09:00:00', '<p>Weekly</p>']);
    assert.equal(
      (await cal.events.list(wide)).items.map((e) => e.title),
      ['Daily sync', 'Daily sync', 'Retro', 'Standup', 'Daily sync', 'Daily sync'],
      'the restored one an exception of its own',
    );
  },
);

S('a new rule: occurrences at unchanged starts keep their ids, the others go (404)', async ({ cal, users }) => {
  const series = await cal.events.create(weekly, users.editor);
  const before = (await cal.events.list(wide)).items;
  await cal.events.update(series.id as number, { recurrence: 'RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=3' }, users.editor);
  const after = (await cal.events.list(wide)).items;
  assert.equal(
    after.map((e) => e.id),
    before.slice(0, 3).map((e) => e.id),
  );
  await rejects(cal.events.get(before[4].id as number), 'rest-event-not-found', 404);
  assert.is((await cal.events.list({ ...wide, status: 'inherit,publish' }, users.editor)).total, 3, 'never listed');
  await cal.events.update(series.id as number, { recurrence: null }, users.editor);
  const single = await cal.events.list(wide);
  assert.equal([single.total, single.items[0].recurrence], [1, undefined], 'no recurrence: a single event again');
});

S(
  'this and following: the series ends before the occurrence, which becomes a new series with the later ones',
  async ({ cal, users }) => {
    const series = await cal.events.create(weekly, users.editor);
    const items = (await cal.events.list(wide)).items;
    const next = await cal.events.update(
      items[3].id as number,
      { title: 'Standup v2', recurrence_scope: 'following' },
      users.editor,
    );
    assert.equal([next.id, next.post_parent, next.recurrence_id], [items[3].id, undefined, undefined]);
    assert.equal((next.recurrence as Obj).rules, ['FREQ=WEEKLY;COUNT=3;BYDAY=MO']);
    assert.equal(((await cal.events.get(series.id as number)).recurrence as Obj).rules, [
      'FREQ=WEEKLY;COUNT=3;BYDAY=MO',
    ]);
    const after = (await cal.events.list(wide)).items;
    assert.equal(
      after.map((e) => e.title),
      ['Standup', 'Standup', 'Standup', 'Standup v2', 'Standup v2', 'Standup v2'],
    );
    assert.equal(
      after.map((e) => e.id),
      items.map((e) => e.id),
      'the later occurrences keep their ids in the new series',
    );
    assert.equal(
      after.slice(4).map((e) => e.post_parent),
      [next.id, next.id],
    );
    // the whole series through an occurrence: moved by the same amount
    await cal.events.update(
      after[1].id as number,
      { start_date: '2026-03-16 10:00:00', end_date: '2026-03-16 10:15:00', recurrence_scope: 'all' },
      users.editor,
    );
    assert.equal(starts((await cal.events.list({ ...wide, end_date: '2026-03-28' })).items), [
      '2026-03-09 10:00:00',
      '2026-03-16 10:00:00',
      '2026-03-23 10:00:00',
    ]);
    // delete this and following
    const v2 = (await cal.events.list({ ...wide, post_parent: next.id as number })).items;
    await cal.events.delete(v2[0].id as number, users.editor, { recurrence_scope: 'following' });
    assert.equal(
      (await cal.events.list(wide)).items.map((e) => e.title),
      ['Standup', 'Standup', 'Standup', 'Standup v2'],
    );
  },
);

S('delete, trash and restore a series with its occurrences and exceptions', async ({ cal, users }) => {
  const series = await cal.events.create(weekly, users.editor);
  const items = (await cal.events.list(wide)).items;
  await cal.events.update(items[1].id as number, { title: 'Special' }, users.editor);
  await cal.events.delete(series.id as number, users.editor);
  assert.is((await cal.events.list(wide)).total, 0);
  assert.is((await cal.events.list({ ...wide, status: 'trash' }, users.editor)).total, 6);
  await cal.events.update(series.id as number, { status: 'publish' }, users.editor);
  const back = (await cal.events.list(wide)).items;
  assert.equal(
    back.map((e) => e.title),
    ['Standup', 'Special', 'Standup', 'Standup', 'Standup', 'Standup'],
  );
  assert.equal(
    back.slice(1).map((e) => e.slug),
    ['standup-2026-03-16', 'standup-2026-03-23', 'standup-2026-03-30', 'standup-2026-04-06', 'standup-2026-04-13'],
  );
  // deleting an occurrence's series through it (recurrence_scope=all)
  await cal.events.delete(back[2].id as number, users.editor, { recurrence_scope: 'all' });
  assert.is((await cal.events.list(wide)).total, 0);
});

S("permissions are the series': an author edits an occurrence of their own series only", async ({ cal, users }) => {
  const series = await cal.events.create({ ...weekly, status: 'publish' }, users.author);
  const occ = (await cal.events.list(wide)).items[1];
  const ex = await cal.events.update(occ.id as number, { title: 'Mine' }, users.author);
  assert.is(ex.title, 'Mine');
  const other = await cal.events.create({ ...weekly, title: 'Theirs' }, users.editor);
  const theirs = (await cal.events.list({ ...wide, post_parent: other.id as number })).items[0];
  await rejects(cal.events.update(theirs.id as number, { title: 'Not mine' }, users.author), 'rest_forbidden', 403);
  await rejects(cal.events.delete(theirs.id as number, users.contributor), 'rest_forbidden', 403);
  assert.is(Number((await cal.events.get(series.id as number)).author), users.author.id);
});

S('limits and bad input: 400 naming the field, nothing stored', async ({ cal, users }) => {
  for (const recurrence of [
    'RRULE:FREQ=SECONDLY',
    'RRULE:FREQ=DAILY;COUNT=1000000000',
    'RRULE:FREQ=FORTNIGHTLY',
    'RRULE:FREQ=HOURLY',
  ]) {
    const err = await rejects(cal.events.create({ ...weekly, recurrence }, users.editor), 'rest_invalid_param', 400);
    assert.ok((err.data.params as Obj).recurrence, recurrence);
  }
  assert.ok(cal.isEmpty());
  const series = await cal.events.create(weekly, users.editor);
  const occ = (await cal.events.list(wide)).items[1];
  await rejects(
    cal.events.update(occ.id as number, { recurrence: 'RRULE:FREQ=DAILY' }, users.editor),
    'rest_invalid_param',
    400,
  );
  await rejects(
    cal.events.update(occ.id as number, { title: 'x', recurrence_scope: 'some' }, users.editor),
    'rest_invalid_param',
    400,
  );
  await rejects(cal.events.update(occ.id as number, { post_parent: 0 }, users.editor), 'rest_invalid_param', 400);
  assert.is((await cal.events.list(wide)).total, 6);
  assert.is((await cal.events.get(series.id as number)).title, 'Standup');
});

S(
  'unbounded series: rows two years ahead; multi-day occurrences keep the duration; all-day series',
  async ({ cal, users }) => {
    const monthly = await cal.events.create(
      {
        title: 'Retreat',
        start_date: '2026-03-27 18:00:00',
        end_date: '2026-03-29 12:00:00',
        recurrence: 'RRULE:FREQ=MONTHLY;BYDAY=-1FR',
      },
      users.editor,
    );
    const rows = await cal.events.list({
      start_date: '2026-03-01',
      end_date: '2030-01-01',
      per_page: 50,
      post_parent: monthly.id as number,
    });
    assert.is(rows.total, 45, 'the last Fridays to 2030, after the first');
    const stored = rows.items.filter((e) => (e.id as number) < 2 ** 31);
    assert.is(stored.length, 24, 'rows to 735 days after the start; far occurrences after them');
    assert.ok(rows.items.slice(24).every((e) => (e.id as number) > 2 ** 52));
    assert.equal([rows.items[0].start_date, rows.items[0].end_date], ['2026-04-24 18:00:00', '2026-04-26 12:00:00']);
    assert.equal(
      [rows.items[44].start_date, rows.items[44].end_date],
      ['2029-12-28 18:00:00', '2029-12-30 12:00:00'],
      'a far occurrence keeps the duration too',
    );
    const allDay = await cal.events.create(
      {
        title: 'Holiday',
        start_date: '2026-12-25',
        end_date: '2026-12-25',
        all_day: true,
        recurrence: { rules: ['FREQ=YEARLY;COUNT=3'] },
      },
      users.editor,
    );
    const days = await cal.events.list({ start_date: '2026-12-01', end_date: '2029-01-01', search: 'holiday' });
    assert.equal(
      days.items.map((e) => [e.start_date, e.end_date, e.all_day]),
      [
        ['2026-12-25 00:00:00', '2026-12-25 23:59:59', true],
        ['2027-12-25 00:00:00', '2027-12-25 23:59:59', true],
        ['2028-12-25 00:00:00', '2028-12-25 23:59:59', true],
      ],
    );
    assert.is(allDay.id, days.items[0].id);
  },
);

S('the change feed carries series, occurrence, exception and exclusion changes', async ({ cal, users }) => {
  const seen: Change[] = [];
  cal.on('change', (c) => {
    if (c.type === 'event') seen.push(c);
  });
  const series = await cal.events.create({ ...weekly, recurrence: 'RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=3' }, users.editor);
  await new Promise((r) => setImmediate(r));
  assert.equal(
    seen.map((c) => [c.action, c.id]),
    [
      ['created', series.id],
      ['created', (series.id as number) + 1],
      ['created', (series.id as number) + 2],
    ],
  );
  assert.equal([seen[1].fields!.post_parent, seen[1].fields!.recurrence_id], [series.id, '2026-03-16 09:00:00']);
  assert.equal(seen[0].fields!.recurrence, { rules: ['FREQ=WEEKLY;COUNT=3;BYDAY=MO'], rdates: [], exdates: [] });
  seen.length = 0;
  await cal.events.update((series.id as number) + 1, { title: 'Moved' }, users.editor);
  await cal.events.delete((series.id as number) + 2, users.editor);
  await new Promise((r) => setImmediate(r));
  assert.equal(
    seen.map((c) => [c.action, c.id]),
    [
      ['updated', (series.id as number) + 1],
      ['updated', series.id],
      ['trashed', (series.id as number) + 2],
    ],
  );
  assert.equal([seen[0].fields!.title, seen[0].fields!.is_exception], ['Moved', true]);
  assert.equal(seen[1].fields!.recurrence, {
    rules: ['FREQ=WEEKLY;COUNT=3;BYDAY=MO'],
    rdates: [],
    exdates: ['2026-03-23 09:00:00'],
  });
});

S(
  'this and following on a COUNT series keeps every instance: COUNT counts what the rule makes',
  async ({ cal, users }) => {
    // a Tuesday start with a Mondays rule: the start, then five Mondays (the start is not one of the COUNT)
    for (const start of ['2026-03-10 09:00:00', '2026-03-09 09:00:00']) {
      const series = await cal.events.create(
        {
          ...weekly,
          title: `Count ${start.slice(8, 10)}`,
          start_date: start,
          end_date: start.replace('09:00', '09:15'),
        },
        users.editor,
      );
      const q = { ...wide, search: `Count ${start.slice(8, 10)}` };
      const before = starts((await cal.events.list(q)).items);
      const kids = (await cal.events.list({ ...wide, post_parent: series.id as number })).items;
      const split = await cal.events.update(
        kids[2].id as number,
        { title: `Count ${start.slice(8, 10)} b`, recurrence_scope: 'following' },
        users.editor,
      );
      const first = await cal.events.get(series.id as number);
      const n = start === '2026-03-10 09:00:00' ? [2, 4] : [3, 3];
      assert.equal(
        [(first.recurrence as Obj).rules, (split.recurrence as Obj).rules],
        [[`FREQ=WEEKLY;COUNT=${n[0]};BYDAY=MO`], [`FREQ=WEEKLY;COUNT=${n[1]};BYDAY=MO`]],
        start,
      );
      assert.equal(starts((await cal.events.list(q)).items), before, 'the same instances in the two halves');
    }
  },
);

S.run();
