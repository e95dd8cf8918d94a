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
import { NOW } from '../helpers/calendar.ts';
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
    await cal.close();
    cal = await open(dir);
    assert.is(await everything(cal), before, 'after journal replay');
    await cal.snapshot();
    await cal.close();
    cal = await open(dir);
    assert.is(await everything(cal), before, 'after a snapshot');
    const exported = await exportText(cal);
    await cal.close();
    const file = path.join(tmp(), 'export.json');
    fs.writeFileSync(file, exported);
    const other = await open(tmp());
    await other.importFile(file);
    assert.is(await exportText(other), exported, 'export → import → export byte-identical');
    assert.is(await everything(other), before, 'the same ids and representations');
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
    const count = async (c: Calendar) =>
      (await c.events.list({ start_date: '2026-01-01', end_date: '2031-01-01', post_parent: s.id as number })).total;
    assert.is(await count(cal), 729);
    await cal.close();
    const later = new Date(NOW.getTime() + 10 * 86_400_000);
    cal = await open(dir, later);
    assert.is(await count(cal), 739, 'ten more days');
    const last = (
      await cal.events.list({
        start_date: '2028-03-01',
        end_date: '2031-01-01',
        per_page: 50,
        post_parent: s.id as number,
      })
    ).items.at(-1)!;
    assert.is(last.start_date, '2028-03-13 08:00:00');
    await cal.close();
    cal = await open(dir, later);
    assert.is(await count(cal), 739, 'nothing more at the same time');
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
