// Far occurrences over HTTP: a window a century out lists, counts (X-TEC-Total) and pages an
// unbounded series' instances past its rows; GET, PATCH and DELETE take their computed ids; a list
// with only starts_after pages on past its count with next_rest_url; include takes far ids and
// /events/by-slug/ far slugs.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const S = suite<{ t: TestServer }>('recurrence :: far occurrences over HTTP', {} as { t: TestServer });
S.before(async (ctx) => {
  ctx.t = await startTestServer({ timezone: 'Europe/London' });
});
S.after(async ({ t }) => t.close());

type Ev = { id: number; start_date: string; title: string; post_parent: number; status: string };
const year = 'start_date=2125-01-01&end_date=2125-12-31';

S('a century out: listed, counted, paged; GET, PATCH and DELETE by far id', async ({ t }) => {
  const created = await t.call('/events', {
    json: {
      title: 'Market',
      start_date: '2026-03-07 08:00',
      end_date: '2026-03-07 13:00',
      status: 'publish',
      recurrence: 'RRULE:FREQ=WEEKLY;BYDAY=SA',
    },
    as: 'editor',
  });
  assert.is(created.status, 201, created.text);
  let saturdays = 0;
  for (let d = Date.UTC(2125, 0, 1); d < Date.UTC(2126, 0, 1); d += 86_400_000)
    if (new Date(d).getUTCDay() === 6) saturdays++;
  const first = await t.call(`/events?${year}&per_page=20`);
  assert.equal(
    [first.status, first.headers['x-tec-total'], first.headers['x-tec-totalpages'], first.json.total],
    [200, String(saturdays), String(Math.ceil(saturdays / 20)), saturdays],
  );
  assert.is(first.json.total_pages, Math.ceil(saturdays / 20));
  const events = first.json.events as Ev[];
  assert.is(events.length, 20);
  assert.ok(events.every((e) => e.id > 2 ** 52 && e.post_parent === created.json.id));
  const second = await t.call(`/events?${year}&per_page=20&page=2`);
  const next = second.json.events as Ev[];
  assert.ok(next[0].start_date > events[19].start_date, 'page 2 goes on where page 1 ended');
  const last = await t.call(`/events?${year}&per_page=20&page=${Math.ceil(saturdays / 20)}`);
  assert.is((last.json.events as Ev[]).length, saturdays - 20 * (Math.ceil(saturdays / 20) - 1));
  assert.is((await t.call(`/events?${year}&per_page=20&page=${Math.ceil(saturdays / 20) + 1}`)).status, 404);

  const one = await t.call(`/events/${events[3].id}`);
  assert.equal([one.status, one.json.id, one.json.start_date], [200, events[3].id, events[3].start_date]);
  assert.is(one.json.json_ld.startDate, `${events[3].start_date.replace(' ', 'T')}+00:00`);

  const denied = await t.call(`/events/${events[3].id}`, { method: 'PATCH', json: { title: 'x' } });
  assert.is(denied.status, 401);
  const patched = await t.call(`/events/${events[3].id}`, {
    method: 'PATCH',
    json: { title: 'Market (Easter)' },
    as: 'editor',
  });
  assert.equal([patched.status, patched.json.is_exception, patched.json.title], [200, true, 'Market (Easter)']);
  assert.ok(patched.json.id < 2 ** 31, 'the exception is a row with an id of its own');
  assert.is((await t.call(`/events/${events[3].id}`)).json.title, 'Market (Easter)');

  const deleted = await t.call(`/events/${events[5].id}`, { method: 'DELETE', as: 'editor' });
  assert.equal([deleted.status, deleted.json.status], [200, 'trash']);
  const after = await t.call(`/events?${year}&per_page=20`);
  assert.is(after.headers['x-tec-total'], String(saturdays - 1));
  const titles = (after.json.events as Ev[]).map((e) => e.title);
  assert.is(titles[3], 'Market (Easter)');
  assert.ok(!(after.json.events as Ev[]).some((e) => e.start_date === events[5].start_date));
  const series = await t.call(`/events/${created.json.id}`);
  assert.equal(series.json.recurrence.exdates, [events[5].start_date]);
});

S('starts_after alone, include of far ids, a far slug', async ({ t }) => {
  const created = await t.call('/events', {
    json: {
      title: 'Choir',
      start_date: '2030-02-06 19:00',
      end_date: '2030-02-06 21:00',
      status: 'publish',
      recurrence: 'RRULE:FREQ=WEEKLY;BYDAY=WE',
    },
    as: 'editor',
  });
  assert.is(created.status, 201, created.text);
  const choir = `post_parent=${created.json.id}`;
  // Wednesdays after 2125-01-01 (itself a Monday) through 735 days after its end of day
  let counted = 0;
  for (let d = Date.UTC(2125, 0, 2); d <= Date.UTC(2127, 0, 6); d += 86_400_000)
    if (new Date(d).getUTCDay() === 3) counted++;
  const first = await t.call(`/events?starts_after=2125-01-01&${choir}&per_page=25`);
  assert.equal(
    [first.status, first.headers['x-tec-total'], first.json.total, (first.json.events as Ev[])[0].start_date],
    [200, String(counted), counted, '2125-01-03 19:00:00'],
  );
  const pages = Math.ceil(counted / 25);
  const past = await t.call(`/events?starts_after=2125-01-01&${choir}&per_page=25&page=${pages + 2}`);
  assert.is(past.status, 200);
  assert.is((past.json.events as Ev[]).length, 25);
  assert.is(past.headers['x-tec-totalpages'], String(pages + 3));
  assert.match(String(past.json.next_rest_url), new RegExp(`page=${pages + 3}$`));

  const [a, b] = first.json.events as Ev[];
  const both = await t.call(`/events?include=${b.id},${a.id}`);
  assert.equal(
    (both.json.events as Ev[]).map((e) => e.id),
    [a.id, b.id],
  );
  assert.is(both.headers['x-tec-total'], '2');

  const slug = (first.json.events as Array<Ev & { slug: string }>)[1].slug;
  assert.is(slug, 'choir-2125-01-10');
  const bySlug = await t.call(`/events/by-slug/${slug}`);
  assert.equal([bySlug.status, bySlug.json.id, bySlug.json.start_date], [200, b.id, b.start_date]);
  assert.is((await t.call('/events/by-slug/choir-2125-01-11')).status, 400);
});

S.run();
