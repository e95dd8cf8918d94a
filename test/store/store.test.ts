import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore, type Store, type StoreOptions } from '../../src/store/store.ts';
import { ToyState, opsFor } from '../fixtures/toy-state.ts';
import { readManifest } from '../../src/store/snapshot.ts';
import { readSnapshotChunks } from '../../src/store/snapshot-read.ts';

function tmpDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'store-test-'));
}

/** applies to memory and commits in the same tick, as the calendar does */
function write(store: Store, state: ToyState, seed = 1): Promise<number> {
  const seq = store.seq + 1;
  const ops = opsFor(seed, seq);
  state.apply({ seq, ops });
  return store.commit(ops);
}

async function writeMany(store: Store, state: ToyState, n: number): Promise<number[]> {
  const all: Promise<number>[] = [];
  for (let i = 0; i < n; i++) all.push(write(store, state));
  return Promise.all(all);
}

async function reopen(
  dir: string,
  options?: StoreOptions,
): Promise<{ store: Store; state: ToyState; warnings: string[] }> {
  const state = new ToyState();
  const warnings: string[] = [];
  const store = await openStore(dir, state.hooks(warnings, options?.detachedChunks === true), options);
  return { store, state, warnings };
}

/** the state the writes 1..n of opsFor(seed) fold into */
function expectedState(n: number, seed = 1): ToyState {
  const s = new ToyState();
  for (let seq = 1; seq <= n; seq++) s.apply({ seq, ops: opsFor(seed, seq) });
  return s;
}

async function expectOpenError(dir: string, ...texts: string[]): Promise<void> {
  try {
    const { store } = await reopen(dir);
    await store.close();
  } catch (err) {
    for (const text of texts) assert.match((err as Error).message, text);
    assert.not.ok(fs.existsSync(path.join(dir, 'lock')), '~> a failed open releases the lock');
    return;
  }
  assert.unreachable(`~> open should fail mentioning ${texts.join(', ')}`);
}

function journalLines(dir: string): number[] {
  return fs
    .readFileSync(path.join(dir, 'journal.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l).seq);
}

// ---

const Store_ = suite('store');

Store_('open :: empty dir starts at seq 0, creates journal and lock', async () => {
  const dir = path.join(tmpDir(), 'nested', 'store');
  const { store } = await reopen(dir);
  assert.is(store.seq, 0);
  assert.is(store.dir, dir);
  assert.equal(fs.readdirSync(dir).sort(), ['journal.jsonl', 'lock']);
  await store.close();
  assert.equal(fs.readdirSync(dir), ['journal.jsonl']);
});

Store_('commit :: seqs increase by one; a restart replays everything', async () => {
  const dir = tmpDir();
  const a = await reopen(dir);
  assert.equal(
    await writeMany(a.store, a.state, 50),
    Array.from({ length: 50 }, (_, i) => i + 1),
  );
  await a.store.close();
  const b = await reopen(dir);
  assert.is(b.store.seq, 50);
  assert.ok(b.state.equals(expectedState(50)));
  assert.equal(b.warnings, []);
  await b.store.close();
});

Store_('commit :: group commit — many concurrent commits, fewer datasyncs', async () => {
  const dir = tmpDir();
  const { store, state } = await reopen(dir);
  await writeMany(store, state, 500);
  assert.is(store.stats.commits, 500);
  assert.ok(store.stats.flushes < 250, `~> ${store.stats.flushes} flushes for 500 concurrent commits`);
  // sequential commits cannot share a flush
  const before = store.stats.flushes;
  for (let i = 0; i < 5; i++) await write(store, state);
  assert.is(store.stats.flushes - before, 5);
  await store.close();
});

Store_('commit :: after close rejects', async () => {
  const { store, state } = await reopen(tmpDir());
  await store.close();
  await write(store, state).then(
    () => assert.unreachable('should have rejected'),
    (err: Error) => assert.match(err.message, 'closed'),
  );
});

Store_('close :: flushes commits still queued', async () => {
  const dir = tmpDir();
  const a = await reopen(dir);
  const pending = writeMany(a.store, a.state, 20);
  await a.store.close();
  assert.is((await pending).length, 20);
  const b = await reopen(dir);
  assert.is(b.store.seq, 20);
  await b.store.close();
});

Store_('compact :: snapshot + empty journal; seq continues after compaction and restart', async () => {
  const dir = tmpDir();
  const a = await reopen(dir);
  await writeMany(a.store, a.state, 30);
  await a.store.compact();
  assert.is(fs.statSync(path.join(dir, 'journal.jsonl')).size, 0);
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'snapshot.json'), 'utf8'));
  assert.is(manifest.seq, 30);
  assert.is(await write(a.store, a.state), 31);
  await a.store.close();

  const b = await reopen(dir);
  assert.is(b.store.seq, 31);
  assert.ok(b.state.equals(expectedState(31)));
  assert.is(await write(b.store, b.state), 32);
  await b.store.compact();
  await b.store.compact(); // nothing new: still a valid snapshot, old parts removed
  assert.is(fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl') && f.startsWith('snapshot.')).length, 1);
  await b.store.close();

  const c = await reopen(dir);
  assert.is(c.store.seq, 32);
  assert.is(await write(c.store, c.state), 33);
  await c.store.close();
  const d = await reopen(dir);
  assert.ok(d.state.equals(expectedState(33)));
  await d.store.close();
});

for (const mode of [{}, { stableChunks: true }, { detachedChunks: true }] as StoreOptions[]) {
  Store_(
    `compact :: writers keep committing during a compaction; the journal keeps exactly the later lines (${JSON.stringify(mode)})`,
    async () => {
      const dir = tmpDir();
      const a = await reopen(dir, mode);
      await writeMany(a.store, a.state, 100);
      const compaction = a.store.compact(); // captures at seq 100 synchronously
      const during = writeMany(a.store, a.state, 100);
      await compaction;
      await during;
      const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'snapshot.json'), 'utf8'));
      assert.is(manifest.seq, 100);
      assert.equal(
        journalLines(dir),
        Array.from({ length: 100 }, (_, i) => 101 + i),
      );
      // the snapshot alone holds exactly writes 1..100, though 101..200 were applied while it was encoded
      const alone = new ToyState();
      alone.load(readSnapshotChunks(dir, (await readManifest(dir))!));
      assert.ok(alone.equals(expectedState(100)), 'snapshot = state at the consistent point');
      await a.store.close();
      const b = await reopen(dir);
      assert.ok(b.state.equals(expectedState(200)));
      await b.store.close();
    },
  );
}

Store_('compact :: automatic once the journal passes compactBytes', async () => {
  const dir = tmpDir();
  const a = await reopen(dir, { compactBytes: 4096 });
  for (let i = 0; i < 40; i++) await writeMany(a.store, a.state, 5);
  await a.store.close(); // waits for a compaction in flight
  assert.ok(a.store.stats.compactions >= 1, `~> ${a.store.stats.compactions} compactions`);
  assert.ok(fs.existsSync(path.join(dir, 'snapshot.json')));
  // the journal holds exactly the writes after the last snapshot (how many depends on when the
  // last compaction started: writes go on while one runs, so no count is asserted; a bound of
  // 50 lines once failed under load with 50)
  const left = journalLines(dir);
  const snap = JSON.parse(fs.readFileSync(path.join(dir, 'snapshot.json'), 'utf8')).seq as number;
  assert.ok(snap > 0 && left.length < 200, `~> snapshot at seq ${snap}, journal of ${left.length} lines`);
  assert.equal(
    left,
    Array.from({ length: 200 - snap }, (_, i) => snap + 1 + i),
    `~> journal from seq ${left[0]}, snapshot at ${snap}`,
  );
  const b = await reopen(dir);
  assert.ok(b.state.equals(expectedState(200)));
  await b.store.close();
});

Store_(
  'recovery :: snapshot renamed but journal not yet rewritten — replay skips what the snapshot holds',
  async () => {
    const dir = tmpDir();
    const a = await reopen(dir);
    await writeMany(a.store, a.state, 10);
    await a.store.close();
    const oldJournal = fs.readFileSync(path.join(dir, 'journal.jsonl'));
    const b = await reopen(dir);
    await b.store.compact();
    await b.store.close();
    // put back the old journal: lines 1..10, all held by the snapshot at seq 10
    fs.writeFileSync(path.join(dir, 'journal.jsonl'), oldJournal);
    const c = await reopen(dir);
    assert.is(c.store.seq, 10);
    assert.ok(c.state.equals(expectedState(10)));
    assert.is(fs.statSync(path.join(dir, 'journal.jsonl')).size, 0, '~> covered lines are dropped at open');
    assert.is(await write(c.store, c.state), 11);
    await c.store.close();
    const d = await reopen(dir);
    assert.ok(d.state.equals(expectedState(11)));
    await d.store.close();
  },
);

Store_('recovery :: snapshot holding writes whose journal lines never landed', async () => {
  const dir = tmpDir();
  const a = await reopen(dir);
  await writeMany(a.store, a.state, 10);
  await a.store.compact();
  await a.store.close();
  // an old journal ending before the snapshot's seq (lines 1..6)
  fs.writeFileSync(
    path.join(dir, 'journal.jsonl'),
    Array.from({ length: 6 }, (_, i) => JSON.stringify({ seq: i + 1, ops: opsFor(1, i + 1) }) + '\n').join(''),
  );
  const b = await reopen(dir);
  assert.is(b.store.seq, 10);
  assert.is(await write(b.store, b.state), 11);
  await b.store.close();
  const c = await reopen(dir);
  assert.ok(c.state.equals(expectedState(11)));
  await c.store.close();
});

Store_('recovery :: missing snapshot with a journal replays from the start', async () => {
  const dir = tmpDir();
  const a = await reopen(dir);
  await writeMany(a.store, a.state, 25);
  await a.store.close();
  assert.not.ok(fs.existsSync(path.join(dir, 'snapshot.json')));
  const b = await reopen(dir);
  assert.is(b.store.seq, 25);
  assert.ok(b.state.equals(expectedState(25)));
  await b.store.close();
});

Store_('recovery :: torn tail is dropped with a warning; seq continues from the last whole line', async () => {
  const dir = tmpDir();
  const a = await reopen(dir);
  await writeMany(a.store, a.state, 5);
  await a.store.close();
  fs.appendFileSync(path.join(dir, 'journal.jsonl'), '{"seq":6,"ops":[{"t":"term","a":"del');
  const b = await reopen(dir);
  assert.is(b.warnings.length, 1);
  assert.match(b.warnings[0]!, 'torn last line 6');
  assert.is(b.store.seq, 5);
  assert.is(await write(b.store, b.state), 6);
  await b.store.close();
  const c = await reopen(dir);
  assert.ok(c.state.equals(expectedState(6)));
  await c.store.close();
});

Store_('recovery :: leftovers of an interrupted snapshot are removed with a warning', async () => {
  const dir = tmpDir();
  const a = await reopen(dir);
  await writeMany(a.store, a.state, 5);
  await a.store.compact();
  await a.store.close();
  // an older snapshot's part (the store holds every write it holds): it goes
  fs.writeFileSync(path.join(dir, 'snapshot.3.0badf00d.0.jsonl'), '{}\n');
  fs.writeFileSync(path.join(dir, 'journal.jsonl.tmp-1-0badf00d'), '');
  fs.writeFileSync(path.join(dir, 'lock.tmp-999999999-0badf00d'), '999999999\n'); // its owner is gone
  const b = await reopen(dir);
  assert.is(b.warnings.length, 1);
  assert.match(b.warnings[0]!, 'snapshot.3.0badf00d.0.jsonl');
  assert.equal(
    fs.readdirSync(dir).filter((f) => f.includes('0badf00d')),
    [],
  );
  await b.store.close();
});

Store_('errors :: corrupt middle journal line stops start-up naming file and line', async () => {
  const dir = tmpDir();
  const a = await reopen(dir);
  await writeMany(a.store, a.state, 5);
  await a.store.close();
  const file = path.join(dir, 'journal.jsonl');
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  lines[2] = lines[2]!.slice(0, 20);
  fs.writeFileSync(file, lines.join('\n'));
  await expectOpenError(dir, `${file} line 3`);
});

Store_('errors :: corrupt snapshot part stops start-up naming the file', async () => {
  const dir = tmpDir();
  const a = await reopen(dir);
  await writeMany(a.store, a.state, 5);
  await a.store.compact();
  await a.store.close();
  const part = fs.readdirSync(dir).find((f) => f.startsWith('snapshot.') && f.endsWith('.jsonl'))!;
  fs.appendFileSync(path.join(dir, part), 'x');
  await expectOpenError(dir, path.join(dir, part));
});

Store_('errors :: unparseable snapshot.json stops start-up', async () => {
  const dir = tmpDir();
  const a = await reopen(dir);
  await writeMany(a.store, a.state, 5);
  await a.store.compact();
  await a.store.close();
  fs.writeFileSync(path.join(dir, 'snapshot.json'), '{"version":1,');
  await expectOpenError(dir, path.join(dir, 'snapshot.json'));
});

Store_('errors :: journal starting past the snapshot (lost writes) stops start-up', async () => {
  const dir = tmpDir();
  const a = await reopen(dir);
  await writeMany(a.store, a.state, 5);
  await a.store.compact();
  await writeMany(a.store, a.state, 5);
  await a.store.close();
  // the whole snapshot gone (manifest and part): the journal's writes alone do not start at 1
  for (const f of fs.readdirSync(dir)) if (f.startsWith('snapshot.')) fs.unlinkSync(path.join(dir, f));
  await expectOpenError(dir, 'line 1 has seq 6', 'writes 1..5 are missing');
});

Store_(
  'errors :: a missing snapshot.json with its part there stops start-up naming both; nothing is removed',
  async () => {
    const dir = tmpDir();
    const a = await reopen(dir);
    await writeMany(a.store, a.state, 5);
    await a.store.compact(); // the journal is empty now: the part holds writes 1..5 alone
    await a.store.close();
    fs.unlinkSync(path.join(dir, 'snapshot.json'));
    const part = fs.readdirSync(dir).find((f) => f.startsWith('snapshot.5.'))!;
    await expectOpenError(
      dir,
      `${path.join(dir, 'snapshot.json')} is missing`,
      part,
      `calendar-engine repair --data ${dir}`,
    );
    assert.ok(fs.existsSync(path.join(dir, part)), 'the part is still there');
  },
);

Store_(
  'recovery :: an unlisted part past what the store holds, no journal line: moved to unplaced/, not deleted',
  async () => {
    const dir = tmpDir();
    const a = await reopen(dir);
    await writeMany(a.store, a.state, 5);
    await a.store.compact();
    await a.store.close();
    fs.writeFileSync(path.join(dir, 'snapshot.9.0badf00d.0.jsonl'), '{}\n');
    const b = await reopen(dir);
    assert.ok(b.state.equals(expectedState(5)));
    assert.match(b.warnings.join('\n'), 'snapshot.9.0badf00d.0.jsonl');
    assert.match(b.warnings.join('\n'), 'calendar-engine repair');
    assert.ok(fs.existsSync(path.join(dir, 'unplaced', 'snapshot.9.0badf00d.0.jsonl')), 'kept aside');
    await b.store.close();
  },
);

Store_(
  "recovery :: an unlisted part past the journal's last durable line (a snapshot never committed) is a leftover",
  async () => {
    const dir = tmpDir();
    const a = await reopen(dir);
    await writeMany(a.store, a.state, 5);
    await a.store.close();
    fs.writeFileSync(path.join(dir, 'snapshot.9.0badf00d.0.jsonl'), '{}\n');
    const b = await reopen(dir);
    assert.ok(b.state.equals(expectedState(5)));
    assert.not.ok(fs.existsSync(path.join(dir, 'snapshot.9.0badf00d.0.jsonl')));
    await b.store.close();
  },
);

Store_(
  'recovery :: an interrupted first snapshot (no manifest yet, the journal from seq 1 covers it) is a leftover',
  async () => {
    const dir = tmpDir();
    const a = await reopen(dir);
    await writeMany(a.store, a.state, 5);
    await a.store.close();
    fs.writeFileSync(path.join(dir, 'snapshot.4.0badf00d.0.jsonl'), '{}\n');
    const b = await reopen(dir);
    assert.ok(b.state.equals(expectedState(5)));
    assert.match(b.warnings.join('\n'), 'snapshot.4.0badf00d.0.jsonl');
    assert.not.ok(fs.existsSync(path.join(dir, 'snapshot.4.0badf00d.0.jsonl')));
    await b.store.close();
  },
);

Store_('lock :: a second open of the same dir throws; after close it opens', async () => {
  const dir = tmpDir();
  const a = await reopen(dir);
  await reopen(dir).then(
    () => assert.unreachable('second open should fail'),
    (err: Error) => assert.match(err.message, `store ${dir} is in use by pid ${process.pid}`),
  );
  await a.store.close();
  const b = await reopen(dir);
  await b.store.close();
});

Store_('lock :: a stale lock from a dead process is taken over with a warning', async () => {
  const dir = tmpDir();
  fs.writeFileSync(path.join(dir, 'lock'), '999999999\n'); // above Linux's pid_max
  const a = await reopen(dir);
  assert.match(a.warnings.join('\n'), 'stale lock');
  await a.store.close();
});

Store_.run();
