// Series in a store: the same occurrence ids and representations after a restart (journal
// replay), after a snapshot, after an export imported into another store (export → import →
// export byte-identical); the horizon moving on adds occurrences in a write of their own.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openCalendar, type Calendar } from '../../src/calendar.ts';
import { UserRegistry } from '../../src/users/registry.ts';
import { NOW, ids } from '../helpers/calendar.ts';
import type { User } from '../../src/api/wordpress/types.ts';

type Obj = Record<string, unknown>;
const S = suite('recurrence :: series in a store');
const wide = { start_date: '2026-03-01', end_date: '2029-12-31', per_page: 50 };
const registry = UserRegistry.open();
const editor: User = registry.add('rec-editor', 'editor').user;

function tmp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'ce-recur-'));
}

async function open(dir: string, now = NOW): Promise<Calendar> {
  return openCalendar({
    dir,
    now: () => now,
    siteUrl: 'http://example.com',
    users: registry,
    timezone: 'America/New_York',
  });
}

/** Every event row a list reaches (every status an editor sees), as JSON. */
async function everything(cal: Calendar): Promise<string> {
  const out: Obj[] = [];
  for (let page = 1; ; page++) {
    const p = await cal.events.list({ ...wide, page, status: 'publish,draft,trash' }, editor);
    out.push(...p.items);
    if (page >= p.totalPages) break;
  }
  return JSON.stringify(out);
}

/** A window a century out: far occurrences (computed ids) and the rows written to some of them. */
async function century(cal: Calendar): Promise<string> {
  const p = await cal.events.list({ start_date: '2125-01-01', end_date: '2125-01-31', per_page: 50 }, editor);
  const single = await cal.events.get(p.items[4].id as number, editor);
  return JSON.stringify([p.total, p.items, single]);
}

async function exportText(cal: Calendar): Promise<string> {
  let text = '';
  await cal.exportTo({ write: (s: string) => (text += s) }, 'json');
  return text;
}

async function build(cal: Calendar): Promise<void> {
  const weekly = await cal.events.create(
    {
      title: 'Class',
      start_date: '2026-03-10 18:00:00',
      end_date: '2026-03-10 19:30:00',
      recurrence: 'RRULE:FREQ=WEEKLY;BYDAY=TU,TH',
      status: 'publish',
    },
    editor,
  );
  const monthly = await cal.events.create(
    {
      title: 'Meeting',
      start_date: '2026-03-31 12:00:00',
      end_date: '2026-03-31 13:00:00',
      recurrence: 'RRULE:FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=12',
      status: 'publish',
      venue: { venue: 'Hall' },
    },
    editor,
  );
  const kids = (await cal.events.list({ ...wide, post_parent: weekly.id as number })).items;
  await cal.events.update(kids[0].id as number, { title: 'Class (guest)' }, editor);
  await cal.events.delete(kids[1].id as number, editor);
  await cal.events.update(kids[5].id as number, { title: 'Class B', recurrence_scope: 'following' }, editor);
  const far = (await cal.events.list({ start_date: '2125-01-01', end_date: '2125-01-31' }, editor)).items;
  await cal.events.update(far[1].id as number, { title: 'Class (far guest)' }, editor);
  await cal.events.delete(far[2].id as number, editor);
  const m = (await cal.events.list({ ...wide, post_parent: monthly.id as number })).items;
  await cal.events.update(
    m[2].id as number,
    { start_date: '2026-06-29 12:00:00', end_date: '2026-06-29 13:00:00' },
    editor,
  );
}

S(
  'a restart (journal), a snapshot, and an export imported elsewhere give the same rows, ids and representations',
  async () => {
    const dir = tmp();
    let cal = await open(dir);
    await build(cal);
    const before = await everything(cal);
    assert.ok(JSON.parse(before).length > 150);
    const far = await century(cal);
    assert.ok(JSON.parse(far)[1].some((e: Obj) => (e.id as number) > 2 ** 52));
    assert.ok(JSON.parse(far)[1].some((e: Obj) => e.title === 'Class (far guest)'));
    await cal.close();
    cal = await open(dir);
    assert.is(await everything(cal), before, 'after journal replay');
    assert.is(await century(cal), far, 'far occurrences after journal replay');
    await cal.snapshot();
    await cal.close();
    cal = await open(dir);
    assert.is(await everything(cal), before, 'after a snapshot');
    assert.is(await century(cal), far, 'far occurrences after a snapshot');
    const exported = await exportText(cal);
    await cal.close();
    const file = path.join(tmp(), 'export.json');
    fs.writeFileSync(file, exported);
    const other = await open(tmp());
    await other.importFile(file);
    assert.is(await exportText(other), exported, 'export → import → export byte-identical');
    assert.is(await everything(other), before, 'the same ids and representations');
    assert.is(await century(other), far, 'the same far occurrences, ids included');
    await other.close();
  },
);

S(
  'the horizon moves on: a later start adds the occurrences two years from the new now, ids from the writer',
  async () => {
    const dir = tmp();
    let cal = await open(dir);
    const s = await cal.events.create(
      {
        title: 'Daily',
        start_date: '2026-03-05 08:00:00',
        end_date: '2026-03-05 08:10:00',
        recurrence: 'RRULE:FREQ=DAILY',
        status: 'publish',
      },
      editor,
    );
    // rows (post ids below 2^31) and far occurrences (computed ids) of a window past the horizon
    const split = async (c: Calendar) => {
      const page = await c.events.list({
        start_date: '2028-03-01',
        end_date: '2028-03-31',
        per_page: 50,
        post_parent: s.id as number,
      });
      const rows = page.items.filter((e) => (e.id as number) < 2 ** 31);
      return { total: page.total, rows: rows.length, last: rows.at(-1)?.start_date, ids: ids(page), items: page.items };
    };
    const count = async (c: Calendar) =>
      (await c.events.list({ start_date: '2026-01-01', end_date: '2031-01-01', post_parent: s.id as number })).total;
    assert.is(await count(cal), 1763, 'every day to 2031: rows, then far occurrences');
    const before = await split(cal);
    assert.equal(
      [before.total, before.rows, before.last],
      [31, 8, '2028-03-08 08:00:00'],
      'rows to 735 days after the start',
    );
    await cal.close();
    const later = new Date(NOW.getTime() + 10 * 86_400_000);
    cal = await open(dir, later);
    const after = await split(cal);
    assert.equal([after.total, after.rows, after.last], [31, 18, '2028-03-18 08:00:00'], 'ten more days of rows');
    assert.equal(after.ids.slice(0, 8), before.ids.slice(0, 8), 'rows keep their ids');
    assert.equal(after.ids.slice(18), before.ids.slice(18), 'far occurrences past the new horizon keep theirs');
    assert.ok(
      after.ids.slice(8, 18).every((id, i) => id < 2 ** 31 && before.ids[8 + i] > 2 ** 52),
      'the horizon made rows of ten far occurrences',
    );
    assert.is(await count(cal), 1763, 'the same occurrences');
    // a far occurrence shows what its row shows once the horizon made it, but the id
    const own = ['id', 'global_id', 'global_id_lineage', 'rest_url'];
    const strip = (e: Obj) => Object.fromEntries(Object.entries(e).filter(([k]) => !own.includes(k)));
    for (let i = 8; i < 18; i++) assert.equal(strip(after.items[i]), strip(before.items[i]));
    assert.is(JSON.stringify(Object.keys(after.items[8])), JSON.stringify(Object.keys(before.items[8])), 'key order');
    await cal.close();
    cal = await open(dir, later);
    assert.equal(await split(cal), after, 'nothing more at the same time');
    await cal.close();
  },
);

S('a read-only open keeps the horizon it has: it opens, and adds nothing', async () => {
  const dir = tmp();
  const cal = await open(dir);
  const s = await cal.events.create(
    {
      title: 'Weekly',
      start_date: '2026-03-05 08:00:00',
      end_date: '2026-03-05 09:00:00',
      recurrence: 'RRULE:FREQ=WEEKLY',
      status: 'publish',
    },
    editor,
  );
  const all = { start_date: '2026-01-01', end_date: '2031-01-01', post_parent: s.id as number };
  const before = (await cal.events.list(all)).total;
  await cal.close();
  const later = new Date(NOW.getTime() + 60 * 86_400_000);
  const ro = await openCalendar({
    dir,
    now: () => later,
    siteUrl: 'http://example.com',
    users: registry,
    timezone: 'America/New_York',
    readOnly: true,
  });
  try {
    assert.is((await ro.events.list(all)).total, before, 'nothing was written');
  } finally {
    await ro.close();
  }
});

S.run();
