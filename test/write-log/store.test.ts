// The store's write log: what a store-backed calendar writes survives a storage fault, its
// recovery and a compaction (the snapshot is taken of the state the calendar serves).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { handleOf, openCalendar } from '../../src/calendar.ts';
import { StoreFaultError } from '../../src/store/faults.ts';
import type { StoreLog } from '../../src/write-log/store.ts';
import { NOW } from '../helpers/calendar.ts';

const store = suite('write-log/store');

const event = (title: string) => ({ title, start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00' });

/** A disk that refuses `file` (EIO), as the guard is told of it. */
const eio = (file: string) =>
  new StoreFaultError({ kind: 'io', errno: 'EIO', file, since: NOW.toISOString(), message: 'EIO' });

/** fn in a fresh store folder, the fault warnings silenced; the folder removed afterwards. */
async function inStoreDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'write-log-store-'));
  const { error, warn } = console;
  console.error = console.warn = () => {};
  try {
    await fn(dir);
  } finally {
    console.error = error;
    console.warn = warn;
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

store('a compaction after a fault and its recovery snapshots the rebuilt state', () =>
  inStoreDir(async (dir) => {
    let cal = await openCalendar({ dir, now: () => NOW, faultProbeMs: 0 });
    const a = await cal.events.create(event('A'));
    const log = handleOf(cal).log as StoreLog;
    // the disk refuses a journal write: the state is rebuilt from the disk into a new engine
    const journal = path.join(dir, 'journal.jsonl');
    log.guard.failed(eio(journal));
    const before = cal.engine;
    let recovered = false;
    for (let i = 0; i < 100 && !recovered; i++) recovered = await log.guard.probe();
    assert.ok(recovered, 'the guard recovers');
    assert.is.not(cal.engine, before, 'the calendar serves a rebuilt engine');
    const b = await cal.events.create(event('B'));
    await cal.snapshot();
    await cal.close();
    cal = await openCalendar({ dir, now: () => NOW });
    assert.is((await cal.events.get(a.id as number)).title, 'A');
    assert.is((await cal.events.get(b.id as number)).title, 'B', 'the write after the recovery is in the snapshot');
    await cal.close();
  }),
);

store('a shutdown snapshot: written after writes, not again, not read-only, not while the disk fails', () =>
  inStoreDir(async (dir) => {
    const manifest = () => fs.readFileSync(path.join(dir, 'snapshot.json'), 'utf8');
    let cal = await openCalendar({ dir, now: () => NOW, faultProbeMs: 0 });
    const a = await cal.events.create(event('A'));
    let log = handleOf(cal).log as StoreLog;
    await log.shutdownSnapshot();
    const first = manifest();
    await log.shutdownSnapshot();
    assert.is(manifest(), first, 'no write since: the snapshot is kept');
    const b = await cal.events.create(event('B'));
    log.guard.failed(eio(dir));
    await log.shutdownSnapshot();
    assert.is(manifest(), first, 'the disk failed: the journal keeps the write');
    await cal.close();
    cal = await openCalendar({ dir, now: () => NOW, readOnly: true });
    log = handleOf(cal).log as StoreLog;
    await log.shutdownSnapshot();
    assert.is(manifest(), first, 'read-only: nothing written');
    await cal.close();
    cal = await openCalendar({ dir, now: () => NOW });
    await handleOf(cal).log.shutdownSnapshot();
    assert.is.not(manifest(), first, 'the write since: a new snapshot');
    await cal.close();
    cal = await openCalendar({ dir, now: () => NOW, readOnly: true });
    assert.is((await cal.events.get(a.id as number)).title, 'A');
    assert.is((await cal.events.get(b.id as number)).title, 'B', 'both writes kept');
    await cal.close();
  }),
);

store.run();
