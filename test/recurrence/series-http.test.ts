// Series over HTTP: RFC 5545 text in a form and JSON bodies, occurrences in lists (X-TEC-Total),
// GET of an occurrence, each kind of write with recurrence_scope in the body or the query, the
// 400s, /doc naming the parameters, and the iCalendar feed of a series.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { request } from '../http/request.ts';

const S = suite<{ t: TestServer }>('recurrence :: series over HTTP', {} as { t: TestServer });
S.before(async (ctx) => {
  ctx.t = await startTestServer({ timezone: 'Europe/London' });
});
S.after(async ({ t }) => t.close());

const window = 'start_date=2030-02-01&end_date=2030-12-31&per_page=50';

S('POST a series as RFC 5545 text; lists count its occurrences; GET answers one', async ({ t }) => {
  const form =
    'title=Choir&start_date=2030-02-05+19:00&end_date=2030-02-05+21:00&status=publish' +
    '&recurrence=' +
    encodeURIComponent(
      'RRULE:FREQ=MONTHLY;BYDAY=1TU;UNTIL=20301231T235959Z\nEXDATE;TZID=Europe/London:20300806T190000',
    );
  assert.is((await t.call('/events', { form })).status, 401);
  const created = await t.call('/events', { form, as: 'editor' });
  assert.is(created.status, 201, created.text);
  assert.equal(created.json.recurrence.exdates, ['2030-08-06 19:00:00']);
  const list = await t.call(`/events?${window}`);
  assert.equal(
    [list.status, list.headers['x-tec-total'], list.json.total],
    [200, '10', 10],
    '11 first Tuesdays, August excluded',
  );
  assert.equal(list.json.events.map((e: { start_date: string }) => e.start_date.slice(0, 10)).slice(0, 3), [
    '2030-02-05',
    '2030-03-05',
    '2030-04-02',
  ]);
  const occ = list.json.events[4];
  const one = await t.call(`/events/${occ.id}`);
  assert.equal(
    [one.status, one.json.post_parent, one.json.recurrence_id, one.json.utc_start_date],
    [200, created.json.id, '2030-06-04 19:00:00', '2030-06-04 18:00:00'],
  );
  const bySlug = await t.call(`/events/by-slug/${occ.slug}`);
  assert.is(bySlug.json.id, occ.id);
  const children = await t.call(`/events?${window}&post_parent=${created.json.id}`);
  assert.is(children.json.total, 9);
});

S(
  'PUT/PATCH an occurrence (exception), PUT following (split), DELETE one and following (query parameter)',
  async ({ t }) => {
    const list = (await t.call(`/events?${window}`)).json.events;
    const ex = await t.call(`/events/${list[1].id}`, {
      method: 'PATCH',
      json: { title: 'Choir (Easter)' },
      as: 'editor',
    });
    assert.equal([ex.status, ex.json.id, ex.json.is_exception], [200, list[1].id, true]);
    const split = await t.call(`/events/${list[6].id}`, {
      method: 'PUT',
      json: { title: 'Choir (autumn)', recurrence_scope: 'following' },
      as: 'editor',
    });
    assert.equal(
      [split.status, split.json.id, split.json.recurrence.rules],
      [200, list[6].id, ['FREQ=MONTHLY;UNTIL=20301231T235959Z;BYDAY=1TU']],
    );
    const del = await t.call(`/events/${list[2].id}`, { method: 'DELETE', as: 'editor' });
    assert.equal([del.status, del.json.status], [200, 'trash']);
    assert.is((await t.call(`/events/${list[2].id}`, { method: 'DELETE', as: 'editor' })).status, 410);
    const cut = await t.call(`/events/${list[8].id}?recurrence_scope=following`, { method: 'DELETE', as: 'editor' });
    assert.is(cut.status, 200);
    const after = (await t.call(`/events?${window}`)).json.events.map((e: { title: string }) => e.title);
    assert.equal(after, ['Choir', 'Choir (Easter)', 'Choir', 'Choir', 'Choir', 'Choir (autumn)', 'Choir (autumn)']);
  },
);

S('bad recurrence: 400 rest_invalid_param naming it; bad scope too', async ({ t }) => {
  const bad = await t.call('/events', {
    json: {
      title: 'x',
      start_date: '2030-02-05 10:00',
      end_date: '2030-02-05 11:00',
      recurrence: 'RRULE:FREQ=SECONDLY;COUNT=999999',
    },
    as: 'editor',
  });
  assert.equal([bad.status, bad.json.code, bad.json.data.status], [400, 'rest_invalid_param', 400]);
  assert.ok(bad.json.data.params.recurrence);
  const list = (await t.call(`/events?${window}`)).json.events;
  const scope = await t.call(`/events/${list[3].id}`, {
    method: 'PUT',
    json: { recurrence_scope: 'everything' },
    as: 'editor',
  });
  assert.equal([scope.status, Object.keys(scope.json.data.params)], [400, ['recurrence_scope']]);
});

S('/doc names recurrence and recurrence_scope', async ({ t }) => {
  const doc = await request(t.url, '/wp-json/tribe/events/v1/doc');
  assert.match(doc.text, /recurrence_scope/);
  assert.match(doc.text, /"recurrence"/);
  assert.match(doc.text, /"recurrence_id"/, 'the occurrence fields in the Event schema');
});

S('the iCalendar feed: one VEVENT per series and exception, not per occurrence', async ({ t }) => {
  const text = t.cal.ical({ start_date: '2030-02-01', end_date: '2030-12-31' });
  assert.is(text.match(/BEGIN:VEVENT/g)!.length, 3, 'two series and one exception');
  assert.is(text.match(/^RRULE:FREQ=MONTHLY/gm)!.length, 2, "the series' rules (the VTIMEZONE has its own)");
  assert.match(text, /RECURRENCE-ID;TZID=Europe\/London:20300305T190000/);
});

S.run();
