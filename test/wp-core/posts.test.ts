// /wp/v2 post lists through cal.rest(): the page the bounded heap keeps is exactly the slice of
// the full order (every orderby, both directions, deep pages, equal keys), and totals agree.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { makeCalendar } from '../helpers/calendar.ts';
import type { Actor, Params } from '../../src/api/wordpress/types.ts';
import type { Calendar } from '../../src/calendar.ts';

const posts = suite('wp-core :: posts');

type Obj = Record<string, any>;

async function list(cal: Calendar, params: Params, actor: Actor = null): Promise<{ items: Obj[]; total: number }> {
  const r = await cal.rest({ resource: 'wp-events', action: 'list', params, actor });
  return { items: JSON.parse(r.body) as Obj[], total: Number(r.headers['X-WP-Total']) };
}

/** 60 events: publication dates on 20 distinct days (so many ties), authors and statuses mixed. */
async function seeded(): Promise<{ cal: Calendar; editor: Actor }> {
  const { cal, users } = await makeCalendar();
  let x = 7;
  const rnd = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0; i < 60; i++) {
    const day = String(1 + Math.floor(rnd() * 20)).padStart(2, '0');
    const as = rnd() < 0.5 ? users.editor : users.author;
    await cal.rest({
      resource: 'events',
      action: 'create',
      actor: as,
      params: {
        title: `Event ${String.fromCharCode(65 + Math.floor(rnd() * 26))} ${i}`,
        date: `2026-01-${day} 10:00:00`,
        start_date: '2026-05-01 10:00',
        end_date: '2026-05-01 11:00',
        status: rnd() < 0.2 ? 'draft' : 'publish',
      },
    });
  }
  return { cal, editor: users.editor };
}

posts('the page of every numeric order equals the same slice of a full sort (ties by id)', async () => {
  const { cal, editor } = await seeded();
  const all = (await list(cal, { per_page: 100, status: 'any' }, editor)).items;
  assert.is(all.length, 60);
  for (const orderby of ['date', 'id', 'author', 'modified']) {
    for (const order of ['asc', 'desc']) {
      const key = (e: Obj): number | string =>
        orderby === 'id' ? e.id : orderby === 'author' ? e.author : orderby === 'modified' ? e.modified : e.date;
      const dir = order === 'asc' ? 1 : -1;
      const expected = [...all]
        .sort((a, b) => {
          const x = key(a),
            y = key(b);
          return (x < y ? -dir : x > y ? dir : 0) || dir * (a.id - b.id);
        })
        .map((e) => e.id);
      for (const [page, perPage] of [
        [1, 7],
        [3, 7],
        [9, 7],
        [2, 25],
        [1, 100],
      ]) {
        const got = await list(cal, { per_page: perPage, page, orderby, order, status: 'any' }, editor);
        assert.equal(
          got.items.map((e) => e.id),
          expected.slice((page - 1) * perPage, page * perPage),
          `~> ${orderby} ${order} page ${page}/${perPage}`,
        );
        assert.is(got.total, 60);
      }
      const offset = await list(cal, { per_page: 5, offset: 11, orderby, order, status: 'any' }, editor);
      assert.equal(
        offset.items.map((e) => e.id),
        expected.slice(11, 16),
        `~> ${orderby} ${order} offset`,
      );
    }
  }
  await cal.close();
});

posts('published only by default; the published-only path and the filtered path agree', async () => {
  const { cal, editor } = await seeded();
  const anon = await list(cal, { per_page: 100 });
  const statusPublish = await list(cal, { per_page: 100, status: 'publish', exclude: '999999' }, editor);
  assert.ok(anon.items.every((e) => e.status === 'publish'));
  assert.equal(
    anon.items.map((e) => e.id),
    statusPublish.items.map((e) => e.id),
  );
  assert.is(anon.total, anon.items.length);
  await cal.close();
});

posts.run();
