// What the sizing reads from the machine and a store directory (src/memory/machine.ts).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cgroupLimit, storeFacts } from '../../src/memory/machine.ts';
import { openCalendar } from '../../src/calendar.ts';
import { GIB } from '../../src/memory/sizing.ts';

const machine = suite('memory :: machine');
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'ce-memory-'));

machine('cgroup v2: the smallest memory.max of the cgroup and its parents', () => {
  const root = tmp();
  fs.mkdirSync(path.join(root, 'a/b'), { recursive: true });
  fs.writeFileSync(path.join(root, 'memory.max'), 'max\n');
  fs.writeFileSync(path.join(root, 'a/memory.max'), `${2 * GIB}\n`);
  fs.writeFileSync(path.join(root, 'a/b/memory.max'), 'max\n');
  assert.is(cgroupLimit(root, '0::/a/b\n'), 2 * GIB);
  assert.is(cgroupLimit(root, '0::/\n'), undefined);
});

machine("cgroup v1: the memory controller's limit_in_bytes; no cgroup file, no limit", () => {
  const root = tmp();
  fs.mkdirSync(path.join(root, 'memory/box'), { recursive: true });
  fs.writeFileSync(path.join(root, 'memory/memory.limit_in_bytes'), '9223372036854771712\n');
  fs.writeFileSync(path.join(root, 'memory/box/memory.limit_in_bytes'), `${GIB}\n`);
  assert.is(cgroupLimit(root, '5:cpu:/box\n4:memory:/box\n'), GIB);
  assert.is(cgroupLimit(root, '4:cpu:/box\n'), undefined);
  assert.is(cgroupLimit(tmp(), '0::/nowhere\n'), undefined);
});

machine("a store's facts: the header's event count, the parts' and the journal's sizes", async () => {
  const dir = tmp();
  assert.equal(storeFacts(dir), { events: undefined, snapshotBytes: 0, journalBytes: 0 });
  const cal = await openCalendar({ dir });
  const events = Array.from({ length: 30 }, (_, i) => ({
    id: 100 + i,
    title: `Event ${i}`,
    status: 'publish',
    start_date: '2030-01-01 10:00:00',
    end_date: '2030-01-01 11:00:00',
  }));
  await cal.import({ events } as never);
  await cal.close();
  const facts = storeFacts(dir);
  assert.is(facts.events, 30);
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'snapshot.json'), 'utf8')) as {
    parts: { bytes: number }[];
  };
  assert.is(
    facts.snapshotBytes,
    manifest.parts.reduce((n, p) => n + p.bytes, 0),
  );
  assert.is(facts.journalBytes, fs.statSync(path.join(dir, 'journal.jsonl')).size);
});

machine.run();
