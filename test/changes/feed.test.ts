// The change feed through the embedding API: what a write produces, in what order, who sees it,
// following from any seq, and what survives a restart.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { CalendarError, openCalendar } from '../../src/index.ts';
import type { Change } from '../../src/changes/change.ts';
import { logLine, readChangeLog, startingWrites } from '../../src/changes/log.ts';
import { ChangeFeed, HELD_OVERHEAD } from '../../src/changes/feed.ts';
import { holdChange, type HeldChange } from '../../src/changes/change.ts';
import { checkSince } from '../../src/changes/follow.ts';
import { NOW, baseEvent, makeCalendar } from '../helpers/calendar.ts';

const feed = suite('changes');

async function take(it: AsyncIterator<Change>, n: number): Promise<Change[]> {
  const out: Change[] = [];
  while (out.length < n) {
    const r = await Promise.race([
      it.next(),
      new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 2000)),
    ]);
    if (r === 'timeout') throw new Error(`only ${out.length} of ${n} changes arrived`);
    if (r.done) break;
    out.push(r.value);
  }
  return out;
}

feed(
  'a write makes change records: created with its fields, updated with what changed, trashed; an inline venue is part of the same write',
  async () => {
    const { cal, users } = await makeCalendar();
    const heard: Change[] = [];
    cal.on('change', (c) => heard.push(c));
    const ev = await cal.events.create({ ...baseEvent, venue: { venue: 'Hall' } }, users.editor.login);
    await cal.events.update(ev.id as number, { title: 'Renamed' }, users.editor.login);
    await cal.events.delete(ev.id as number, users.editor.login);
    assert.equal(
      heard.map((c) => [c.seq, c.type, c.action]),
      [
        [1, 'venue', 'created'],
        [1, 'event', 'created'],
        [2, 'event', 'updated'],
        [3, 'event', 'trashed'],
      ],
    );
    assert.is(heard[1].id, ev.id);
    assert.is(heard[1].author, users.editor.id);
    assert.is(heard[1].fields!.title, 'An event');
    assert.equal(heard[1].fields!.venue, [heard[0].id]);
    assert.is(heard[2].fields!.title, 'Renamed', 'what changed');
    assert.not.ok('start_date' in heard[2].fields!, 'what did not change is left out');
    assert.is(heard[3].fields, undefined, 'a trash carries no fields');
    assert.match(heard[2].time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.is(cal.feed.head, 3);
    await cal.close();
  },
);

feed('logLine :: the same text as JSON.stringify of the logged write, every optional field present or not', () => {
  const change = (seq: number, extra: Partial<Change> = {}): Change => ({
    seq,
    time: '2030-01-01T00:00:00.000Z',
    type: 'event',
    action: 'updated',
    id: 7,
    author: 2,
    ...extra,
  });
  type Logged = { change: Change; owner: number; before: string | undefined; after: string | undefined };
  const cases: Logged[][] = [
    [{ change: change(1), owner: 2, before: undefined, after: undefined }],
    [
      {
        change: change(2, { fields: { title: 'Café "x"\n', cost: '€5' } }),
        owner: 0,
        before: 'draft',
        after: 'publish',
      },
    ],
    [
      { change: change(3, { action: 'created' }), owner: 5, before: undefined, after: 'publish' },
      { change: change(3, { type: 'venue', id: 9 }), owner: 5, before: 'publish', after: undefined },
    ],
  ];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-log-'));
  try {
    for (const logged of cases) {
      const held: HeldChange[] = logged.map((l) => holdChange(l.change, l.owner, l.before, l.after));
      const line = logLine(held[0].seq, held);
      assert.is(line, JSON.stringify({ seq: logged[0].change.seq, held: logged }) + '\n');
      // read back: the same held changes
      fs.writeFileSync(path.join(dir, 'changes.jsonl'), line);
      assert.equal(readChangeLog(dir), [{ seq: held[0].seq, held }]);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

feed("the window keeps at most about retainBytes of changes, whole writes only, even against a webhook's pin", () => {
  const write = (seq: number, n: number, size: number): HeldChange[] =>
    Array.from({ length: n }, (_, k) =>
      holdChange(
        {
          seq,
          time: new Date(0).toISOString(),
          type: 'event',
          action: 'updated',
          id: k,
          author: 0,
          fields: { description: 'x'.repeat(size) },
        },
        0,
        'publish',
        'publish',
      ),
    );
  const one = write(1, 1, 1000)[0].text.length + HELD_OVERHEAD;
  const f = new ChangeFeed(0, { retainBytes: 10 * one, retainMs: Number.POSITIVE_INFINITY, now: () => 0 });
  f.pin(0); // a webhook that has had nothing: the count and age bounds would keep everything for it
  for (let seq = 1; seq <= 30; seq++) f.add(write(seq, seq % 3 === 0 ? 2 : 1, 1000), seq);
  assert.ok(f.retainedBytes() <= 10 * one, `${f.retainedBytes()} bytes retained`);
  assert.ok(f.retainedBytes() >= 8 * one, 'no more goes than the bound needs');
  assert.is(
    f.retainedBytes(),
    f.retainedWrites().reduce((n, w) => n + w.held.reduce((m, h) => m + h.text.length + HELD_OVERHEAD, 0), 0),
  );
  // whole writes: the oldest retained write has all its changes, and the floor is the seq before it
  const writes = f.retainedWrites();
  assert.is(writes[0].held.length, writes[0].seq % 3 === 0 ? 2 : 1);
  assert.is(f.floor, writes[0].seq - 1);
  assert.is(writes[writes.length - 1].seq, 30);
  try {
    checkSince(f, f.floor - 1);
    assert.unreachable('a since before the window');
  } catch (err) {
    assert.is((err as CalendarError).status, 410);
  }
  checkSince(f, f.floor);
  // a write larger than the bound is not retained; the next ones are
  f.add(write(31, 1, 20 * 1000), 31);
  assert.is(f.floor, 31);
  assert.is(f.retainedChangeCount(), 0);
  f.add(write(32, 1, 1000), 32);
  assert.equal(
    f.retainedWrites().map((w) => w.seq),
    [32],
  );
});

feed(
  'every reader gets fresh change objects: what one listener, iterator or page reader changes, no other sees',
  async () => {
    const { cal, users } = await makeCalendar();
    const it = cal.changes({ since: 0 });
    const heard: Change[] = [];
    cal.on('change', (c) => {
      heard.push(c);
      c.fields!.title = 'scribbled';
      c.type = 'tag';
    });
    cal.on('change', (c) => heard.push(c));
    await cal.events.create({ ...baseEvent, title: 'Mine' }, users.editor.login);
    assert.is(heard.length, 2);
    assert.is.not(heard[0], heard[1]);
    assert.is(heard[1].fields!.title, 'Mine');
    assert.is(heard[1].type, 'event');
    const [fromIterator] = await take(it, 1);
    await it.return!();
    assert.is(fromIterator.fields!.title, 'Mine');
    fromIterator.fields!.title = 'scribbled again';
    const page = cal.changePage({ since: 0, limit: 10, actor: null });
    assert.is(page.changes[0].fields!.title, 'Mine');
    assert.is(page.changes[0].type, 'event');
    await cal.close();
  },
);

feed('a listener that throws never breaks a write, nor the other listeners', async () => {
  const { cal } = await makeCalendar();
  let heard = 0;
  cal.on('change', () => {
    throw new Error('boom');
  });
  cal.on('change', () => heard++);
  const error = console.error;
  console.error = () => {};
  try {
    const ev = await cal.events.create(baseEvent);
    assert.ok(ev.id);
  } finally {
    console.error = error;
  }
  assert.is(heard, 1);
  await cal.close();
});

feed(
  'changes({since}) gives every later change exactly once and in order: the retained ones, then live ones, whatever the since',
  async () => {
    for (const since of [0, 2, 5]) {
      const { cal } = await makeCalendar();
      for (let i = 0; i < 5; i++) await cal.tags.create({ name: `t${i}` });
      const it = cal.changes({ since });
      const writes = (async () => {
        for (let i = 0; i < 5; i++) await cal.categories.create({ name: `c${i}` });
      })();
      const got = await take(it, 10 - since);
      await writes;
      await it.return!();
      assert.equal(
        got.map((c) => c.seq),
        Array.from({ length: 10 - since }, (_, k) => since + k + 1),
        `since ${since}`,
      );
      assert.equal((await it.next()).done, true, 'ended by return()');
      await cal.close();
    }
  },
);

feed('types narrow the feed; an anonymous reader sees public records only, an editor sees drafts', async () => {
  const { cal, users } = await makeCalendar();
  const draft = await cal.events.create({ ...baseEvent, status: 'draft' }, users.editor.login);
  const pub = await cal.events.create(baseEvent, users.editor.login);
  const tag = await cal.tags.create({ name: 'free' });
  await cal.events.delete(pub.id as number, users.editor.login);
  const read = async (opts: Parameters<typeof cal.changes>[0]) => {
    const it = cal.changes({ since: 0, ...opts });
    const out: Change[] = [];
    for (;;) {
      const r = await Promise.race([
        it.next(),
        new Promise<'idle'>((resolve) => setTimeout(() => resolve('idle'), 50)),
      ]);
      if (r === 'idle' || r.done) break;
      out.push(r.value);
    }
    await it.return!();
    return out.map((c) => `${c.type}:${c.action}:${c.id}`);
  };
  assert.equal(await read({ as: null }), [
    `event:created:${pub.id}`,
    `tag:created:${tag.id}`,
    `event:trashed:${pub.id}`,
  ]);
  assert.equal((await read({ as: users.editor.login })).length, 4);
  assert.ok((await read({ as: users.editor.login })).includes(`event:created:${draft.id}`));
  assert.equal(await read({ types: ['tag'] }), [`tag:created:${tag.id}`]);
  await cal.close();
});

feed(
  'seqs and retained changes survive a restart and a compaction; a since older than what is retained is 410 rest_changes_expired',
  async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-changes-'));
    const a = await openCalendar({ dir, now: () => NOW });
    for (let i = 0; i < 3; i++) await a.tags.create({ name: `t${i}` });
    await a.snapshot();
    await a.tags.create({ name: 'after the snapshot' });
    await a.close(); // close writes a snapshot too
    const b = await openCalendar({ dir, now: () => NOW });
    assert.is(b.feed.head, 4, 'the head is the store seq');
    const tag = await b.tags.create({ name: 'next' });
    const it = b.changes({ since: 0 });
    const got = await take(it, 5);
    await it.return!();
    assert.equal(
      got.map((c) => c.seq),
      [1, 2, 3, 4, 5],
      'the changes from before the snapshots are still there',
    );
    assert.is(got[4].id, tag.id);
    await b.close();
    // a smaller retention at the next start: the oldest go, and asking for them is 410
    const c = await openCalendar({ dir, now: () => NOW, changesRetainCount: 2 });
    try {
      c.changes({ since: 1 });
      assert.unreachable('since 1 is no longer retained');
    } catch (e) {
      assert.instance(e, CalendarError);
      assert.equal([(e as CalendarError).code, (e as CalendarError).status], ['rest_changes_expired', 410]);
    }
    const last = c.changes({ since: 3 });
    assert.equal(
      (await take(last, 2)).map((x) => x.seq),
      [4, 5],
    );
    await last.return!();
    await c.close();
  },
);

feed(
  'after a kill -9 the changes since the last snapshot are rebuilt from the journal, with their time and author',
  async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-changes-'));
    const child = `
    import { openCalendar } from ${JSON.stringify(new URL('../../src/index.ts', import.meta.url).href)};
    const cal = await openCalendar({ dir: ${JSON.stringify(dir)} });
    const { user } = cal.users.add('ed', 'editor');
    await cal.snapshot();
    await cal.tags.create({ name: 'x' }, 'ed');
    await cal.tags.create({ name: 'y' }, 'ed');
    (await import('node:fs')).writeFileSync(${JSON.stringify(path.join('DIR', 'editor-id'))}.replace('DIR', ${JSON.stringify(dir)}), String(user.id));
    process.kill(process.pid, 'SIGKILL');
  `;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', child], {
      encoding: 'utf8',
    });
    assert.is(r.signal, 'SIGKILL', r.stderr);
    const editorId = Number(fs.readFileSync(path.join(dir, 'editor-id'), 'utf8'));
    assert.ok(editorId > 0);
    const b = await openCalendar({ dir, now: () => NOW });
    const it = b.changes({ since: 0 });
    const got = await take(it, 2);
    await it.return!();
    assert.equal(
      got.map((c) => [c.seq, c.type, c.action, c.author]),
      [
        [1, 'tag', 'created', editorId],
        [2, 'tag', 'created', editorId],
      ],
    );
    assert.match(got[0].time, /Z$/);
    assert.is(b.feed.head, 2);
    await b.close();
  },
);

feed('skipTo: a state that jumped past the head starts the window there (410 before it); never backwards', async () => {
  const cal = await openCalendar({ now: () => NOW });
  await cal.tags.create({ name: 'one' });
  await cal.tags.create({ name: 'two' });
  cal.feed.skipTo(1); // behind the head: nothing
  assert.equal([cal.feed.floor, cal.feed.head, cal.feed.after(0, 10, () => true).changes.length], [0, 2, 2]);
  cal.feed.skipTo(10);
  assert.equal([cal.feed.floor, cal.feed.head, cal.feed.retainedChangeCount()], [10, 10, 0]);
  assert.throws(
    () => cal.changePage({ since: 2, limit: 10, actor: null }),
    (e: unknown) => e instanceof CalendarError && e.status === 410,
  );
  await cal.close();
});

feed('the window keeps changes younger than retainMs: older ones go as time passes and writes come', () => {
  let now = Date.UTC(2030, 0, 1);
  const f = new ChangeFeed(0, { retainMs: 60_000, retainCount: 1000, now: () => now });
  const write = (seq: number) => [
    holdChange(
      { seq, time: new Date(now).toISOString(), type: 'tag', action: 'created', id: seq, author: 0 },
      0,
      undefined,
      'publish',
    ),
  ];
  for (let seq = 1; seq <= 5; seq++) {
    f.add(write(seq), seq);
    now += 20_000; // writes 20 s apart
  }
  // now = 100 s after the first: those written at 0 s and 20 s are older than 60 s (40 s is not)
  f.add(write(6), 6);
  assert.equal([f.floor, f.retainedChangeCount()], [2, 4]);
  now += 45_000; // 145 s: those at 40, 60 and 80 s are past the window now
  f.add(write(7), 7);
  assert.equal([f.floor, f.retainedChangeCount()], [5, 2]);
  now += 10 * 60_000;
  f.add([], 8); // a write without changes still moves the window
  assert.equal([f.floor, f.retainedChangeCount()], [7, 0]);
});

feed('the log and the journal: joined where they meet; a log that ends before the snapshot is not used', () => {
  const w = (seq: number) => ({ seq, held: [] });
  assert.equal(
    startingWrites([w(1), w(2), w(3)], [w(3), w(4)], 2).map((x) => x.seq),
    [1, 2, 3, 4],
  );
  assert.equal(
    startingWrites([w(1), w(2)], [], 2).map((x) => x.seq),
    [1, 2],
    'nothing replayed: the log is whole',
  );
  assert.equal(
    startingWrites([w(1), w(2)], [w(6), w(7)], 5).map((x) => x.seq),
    [6, 7],
    'writes 3..5 are missing from both: no gap, a shorter window',
  );
  assert.equal(
    startingWrites([], [w(6)], 5).map((x) => x.seq),
    [6],
  );
});

feed.run();
