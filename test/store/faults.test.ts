// Storage faults injected at the journal's write (through the store's testPoint hook, as the
// disk would fail: an error with the system's code) under concurrent writers: the store refuses
// every write that is not durable, goes back to the last durable seq, names the file, and takes
// writes again once recover() finds the disk working; nothing acknowledged is lost, nothing
// refused comes back. (test/faults/disk.test.ts does the same on a real full file system.)
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore, type Store, type StoreOptions } from '../../src/store/store.ts';
import { StoreFaultError } from '../../src/store/faults.ts';
import { ToyState, opsFor } from '../fixtures/toy-state.ts';
import type { StoreTestPoint } from '../../src/store/journal.ts';

const Faults = suite('store faults');

function tmpDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'store-faults-'));
}

function sysError(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: injected, write`), { code });
}

/** A store whose journal writes fail with `code` while `failing.on` is set (at `point`). */
async function faultyStore(
  dir: string,
  failing: { on: boolean; code: string; point: StoreTestPoint },
  options: StoreOptions = {},
) {
  const state = new ToyState();
  const warnings: string[] = [];
  const store = await openStore(dir, state.hooks(warnings, false), {
    ...options,
    testPoint: (point) => {
      if (failing.on && point === failing.point) throw sysError(failing.code);
    },
  });
  return { store, state, warnings };
}

/** 8 writers, each committing `n` writes one after the other; returns the acknowledged seqs and the refusals. */
async function writers(store: Store, state: ToyState, n: number, onWrite?: (i: number) => void) {
  const acked: number[] = [];
  const refused: unknown[] = [];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let i = 0; i < n; i++) {
        onWrite?.(i);
        if (store.fault) {
          refused.push(store.fault);
          continue;
        }
        const seq = store.seq + 1;
        const ops = opsFor(1, seq);
        state.apply({ seq, ops });
        await store.commit(ops).then(
          (s) => acked.push(s),
          (err) => refused.push(err),
        );
      }
    }),
  );
  return { acked, refused };
}

for (const [code, point] of [
  ['EIO', 'journal:written'],
  ['ENOSPC', 'journal:write'],
  ['EROFS', 'journal:write'],
  ['EDQUOT', 'journal:written'],
] as const) {
  Faults(
    `${code} at ${point} under 8 writers: refused and named, seq back to the durable one, writes resume after recover()`,
    async () => {
      const dir = tmpDir();
      const failing = { on: false, code, point: point as StoreTestPoint };
      const a = await faultyStore(dir, failing);
      let writes = 0;
      const first = await writers(a.store, a.state, 20, () => {
        if (++writes === 60) failing.on = true;
      });
      assert.ok(
        first.acked.length > 0 && first.refused.length > 0,
        `some acknowledged (${first.acked.length}), some refused (${first.refused.length})`,
      );
      const err = first.refused.find((e) => e instanceof StoreFaultError) as StoreFaultError;
      assert.ok(err, 'a refusal is a StoreFaultError');
      assert.is(err.fault.errno, code);
      assert.is(err.fault.file, path.join(dir, 'journal.jsonl'));
      assert.match(err.message, `(${code}) writing ${path.join(dir, 'journal.jsonl')}`);
      assert.match(a.warnings.join('\n'), `(${code}) writing ${path.join(dir, 'journal.jsonl')}`);
      const durable = Math.max(...first.acked);
      assert.is(a.store.seq, durable, 'the seq is that of the last durable write');
      assert.equal(
        [...first.acked].sort((x, y) => x - y),
        Array.from({ length: durable }, (_, i) => i + 1),
        'acknowledged: 1..durable, no gap',
      );
      // still failing: recover() says no, and the fault stays
      assert.is(await a.store.recover(), false);
      assert.is(a.store.fault?.errno, code);
      failing.on = false;
      assert.is(await a.store.recover(), true);
      assert.is(a.store.fault, undefined);
      // the state as the disk holds it (the calendar rebuilds from store.reload)
      const b = new ToyState();
      await a.store.reload(b.hooks([], false));
      const second = await writers(a.store, b, 5);
      assert.is(second.refused.length, 0);
      assert.is(Math.min(...second.acked), durable + 1, 'the seq goes on from the durable one');
      await a.store.close();
      const c = await faultyStore(dir, { on: false, code, point: point as StoreTestPoint });
      assert.is(c.store.seq, durable + 40);
      assert.ok(c.state.equals(b), 'reopened: exactly the acknowledged writes');
      assert.equal(c.warnings, [], 'no torn line was left behind');
      await c.store.close();
    },
  );
}

Faults(
  'a compaction whose writes fail meanwhile commits no snapshot (it would hold writes the calendar takes back)',
  async () => {
    const dir = tmpDir();
    const failing = { on: false, code: 'EIO', point: 'journal:written' as StoreTestPoint };
    const a = await faultyStore(dir, failing, { compactBytes: 0 });
    await writers(a.store, a.state, 5);
    const before = fs.readdirSync(dir).sort();
    failing.on = true;
    // the write is applied to memory and queued, then the snapshot captures it, then the write fails
    const seq = a.store.seq + 1;
    a.state.apply({ seq, ops: opsFor(1, seq) });
    const pending = a.store.commit(opsFor(1, seq)).catch((e: Error) => e);
    const compaction = await a.store.compact().then(
      () => undefined,
      (e: Error) => e,
    );
    assert.instance(await pending, StoreFaultError);
    assert.ok(compaction, 'the compaction failed');
    assert.equal(fs.readdirSync(dir).sort(), before, 'no snapshot, no part left');
    failing.on = false;
    assert.is(await a.store.recover(), true);
    await a.store.close();
    const b = await faultyStore(dir, failing);
    assert.is(b.store.seq, 40);
    await b.store.close();
  },
);

Faults('open read-only: nothing is written (a torn tail stays), commits are refused', async () => {
  const dir = tmpDir();
  const a = await faultyStore(dir, { on: false, code: 'EIO', point: 'journal:write' });
  await writers(a.store, a.state, 2);
  await a.store.close();
  fs.appendFileSync(path.join(dir, 'journal.jsonl'), '{"seq":17,"op');
  const size = fs.statSync(path.join(dir, 'journal.jsonl')).size;
  const state = new ToyState();
  const warnings: string[] = [];
  const ro = await openStore(dir, state.hooks(warnings, false), { readOnly: true });
  assert.is(ro.seq, 16);
  assert.ok(state.equals(a.state));
  assert.match(warnings.join('\n'), 'torn last line');
  assert.is(fs.statSync(path.join(dir, 'journal.jsonl')).size, size, 'the torn tail is left as it is');
  assert.not.ok(fs.existsSync(path.join(dir, 'lock')), 'no lock taken');
  await ro.commit(opsFor(1, 17)).then(
    () => assert.unreachable(),
    (e: Error) => assert.match(e.message, 'read-only'),
  );
  await ro.close();
});

Faults(
  'journal lines carry a checksum: a changed letter inside a line is corruption naming file and line; old lines without one load',
  async () => {
    const dir = tmpDir();
    const a = await faultyStore(dir, { on: false, code: 'EIO', point: 'journal:write' });
    await writers(a.store, a.state, 1);
    await a.store.close();
    const file = path.join(dir, 'journal.jsonl');
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    assert.match(lines[0]!, /,"sum":"[0-9a-f]{8}"\}$/);
    // older lines (no checksum) still load
    const old = lines.map((l) => l.replace(/,"sum":"[0-9a-f]{8}"\}$/, '}'));
    fs.writeFileSync(file, old.join('\n'));
    const b = await faultyStore(dir, { on: false, code: 'EIO', point: 'journal:write' });
    assert.ok(b.state.equals(a.state));
    await b.store.close();
    // a letter changed inside line 3: still JSON, still a write, but not what was written
    const damaged = [...lines];
    const upperLast = (l: string) => l.replace(/[a-z](?=[^a-z]*,"sum")/, (m) => m.toUpperCase());
    damaged[2] = upperLast(damaged[2]!);
    assert.is.not(damaged[2], lines[2]);
    fs.writeFileSync(file, damaged.join('\n'));
    await faultyStore(dir, { on: false, code: 'EIO', point: 'journal:write' }).then(
      () => assert.unreachable('a damaged line must stop start-up'),
      (e: Error) => assert.match(e.message, `corrupt journal ${file} line 3: its checksum does not match`),
    );
    // the same damage on the last line is a torn tail (never acknowledged): dropped with a warning
    const last = [...lines];
    last[7] = upperLast(last[7]!);
    fs.writeFileSync(file, last.join('\n'));
    const c = await faultyStore(dir, { on: false, code: 'EIO', point: 'journal:write' });
    assert.is(c.store.seq, 7);
    assert.match(c.warnings.join('\n'), 'line 8');
    await c.store.close();
  },
);

Faults.run();
