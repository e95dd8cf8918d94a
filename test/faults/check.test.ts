// calendar-engine check and repair, run in-process: a sound store exits 0 with a summary; a
// deleted snapshot.json or a damaged journal line is refused at start, reported by check (exit
// 1) and repaired without deleting anything, after which the calendar opens with its data.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openCalendar } from '../../src/calendar.ts';
import { main } from '../../src/cli/main.ts';
import { memoryIo } from '../cli/io.ts';

const Check = suite('check and repair');
const NOW = new Date('2030-01-15T12:00:00Z');

async function makeStore(events: number, opts: { snapshot?: boolean; after?: number } = {}): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'check-'));
  const cal = await openCalendar({ dir, now: () => NOW, webhooks: false });
  const create = (i: number) =>
    cal.events.create({
      title: `Event ${i}`,
      start_date: '2030-02-01 10:00:00',
      end_date: '2030-02-01 11:00:00',
      status: 'publish',
    });
  for (let i = 0; i < events; i++) await create(i);
  if (opts.snapshot) await cal.snapshot();
  for (let i = 0; i < (opts.after ?? 0); i++) await create(events + i);
  await cal.close();
  return dir;
}

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIo();
  const code = await main(argv, io);
  return { code, out: io.out(), err: io.err() };
}

const total = async (dir: string): Promise<number> => {
  const cal = await openCalendar({ dir, now: () => NOW, webhooks: false });
  try {
    return (await cal.events.list({ per_page: 1 })).total;
  } finally {
    await cal.close();
  }
};

Check('check: a sound store exits 0 with what it holds, and writes nothing', async () => {
  const dir = await makeStore(4, { snapshot: true, after: 2 });
  const before = fs.readdirSync(dir).map((f) => [f, fs.statSync(path.join(dir, f)).mtimeMs]);
  const r = await run('check', '--data', dir);
  assert.is(r.code, 0, r.err);
  assert.match(r.out, 'records: 6 events');
  assert.match(r.out, /snapshot: seq \d+/);
  assert.match(r.out, 'is sound');
  assert.equal(
    fs.readdirSync(dir).map((f) => [f, fs.statSync(path.join(dir, f)).mtimeMs]),
    before,
  );
});

Check(
  'a deleted snapshot.json: start refuses naming the part and the repair; check exits 1; repair rebuilds it; nothing was deleted',
  async () => {
    const dir = await makeStore(5, { snapshot: true, after: 1 });
    fs.unlinkSync(path.join(dir, 'snapshot.json'));
    const part = fs.readdirSync(dir).find((f) => f.startsWith('snapshot.') && f.endsWith('.jsonl'))!;
    await openCalendar({ dir, now: () => NOW }).then(
      () => assert.unreachable('must not start an empty calendar'),
      (err: Error) => {
        assert.match(err.message, `${path.join(dir, 'snapshot.json')} is missing`);
        assert.match(err.message, part);
        assert.match(err.message, `calendar-engine repair --data ${dir}`);
      },
    );
    assert.ok(fs.existsSync(path.join(dir, part)), 'the part is still there');
    const c = await run('check', '--data', dir);
    assert.is(c.code, 1);
    assert.match(c.err, 'problem: ');
    assert.match(c.err, 'snapshot.json is missing');
    const r = await run('repair', '--data', dir);
    assert.is(r.code, 0, r.err);
    assert.match(r.out, `repaired: rebuilt ${path.join(dir, 'snapshot.json')} from ${part}`);
    assert.match(r.out, 'is sound');
    assert.is(await total(dir), 6);
  },
);

Check(
  'a damaged journal line: start refuses naming file and line; repair keeps a copy and cuts before it',
  async () => {
    const dir = await makeStore(5);
    const file = path.join(dir, 'journal.jsonl');
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    lines[2] = lines[2]!.replace('Event 2', 'Event X'); // still JSON, still a write: only the checksum tells
    fs.writeFileSync(file, lines.join('\n'));
    const damaged = fs.readFileSync(file);
    await openCalendar({ dir, now: () => NOW }).then(
      () => assert.unreachable('must refuse a damaged line'),
      (err: Error) => assert.match(err.message, `corrupt journal ${file} line 3: its checksum does not match`),
    );
    const c = await run('check', '--data', dir);
    assert.is(c.code, 1);
    assert.match(c.err, `${file} line 3`);
    const r = await run('repair', '--data', dir);
    assert.is(r.code, 0, r.err);
    assert.match(r.out, 'damaged at line 3');
    const copy = fs.readdirSync(dir).find((f) => f.startsWith('journal.jsonl.damaged-'))!;
    assert.ok(copy, 'the damaged journal is kept');
    assert.equal(fs.readFileSync(path.join(dir, copy)), damaged, 'byte for byte');
    assert.is(await total(dir), 2, 'the writes before the damaged line');
  },
);

Check('check on a folder that is not there exits 1', async () => {
  const r = await run('check', '--data', path.join(os.tmpdir(), 'no-such-store-here'));
  assert.is(r.code, 1);
  assert.match(r.err, 'no store at');
});

Check.run();
