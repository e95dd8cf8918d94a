// Representation details that the write/list tests do not cover: wire format and cache epochs.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { baseEvent, makeCalendar } from '../../helpers/calendar.ts';

const represent = suite('represent');

represent('bodies are ASCII JSON: non-ASCII escaped as \\uXXXX like wp_json_encode', async () => {
  const { cal } = await makeCalendar();
  await cal.events.create({ ...baseEvent, title: 'Café – Zürich', cost: '5€' });
  const res = await cal.rest({ resource: 'events', action: 'list', params: {}, actor: null });
  assert.ok(/^[\x00-\x7f]*$/.test(res.body), 'only ASCII on the wire');
  assert.ok(res.body.includes('Caf\\u00e9'));
  const ev = JSON.parse(res.body).events[0];
  assert.is(ev.title, 'Café – Zürich');
  assert.is(ev.cost, '5€');
});

represent('a term count change shows inside events rendered before it', async () => {
  const { cal } = await makeCalendar();
  await cal.events.create({ ...baseEvent, categories: 'jazz' });
  const count = async () =>
    ((await cal.events.list({}, null)).items[0].categories as Array<{ count: number }>)[0].count;
  assert.is(await count(), 1);
  await cal.events.create({ ...baseEvent, categories: 'jazz' });
  assert.is(await count(), 2);
  const other = (await cal.events.list({}, null)).items[1];
  await cal.events.update(other.id as number, { status: 'draft' });
  assert.is(await count(), 1);
});

represent.run();
