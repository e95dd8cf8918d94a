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

store('a compaction after a fault and its recovery snapshots the rebuilt state', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'write-log-store-'));
  const { error, warn } = console;
  console.error = console.warn = () => {};
  try {
    let cal = await openCalendar({ dir, now: () => NOW, faultProbeMs: 0 });
    const a = await cal.events.create(event('A'));
    const log = handleOf(cal).log as StoreLog;
    // the disk refuses a journal write: the state is rebuilt from the disk into a new engine
    const journal = path.join(dir, 'journal.jsonl');
    log.guard.failed(
      new StoreFaultError({ kind: 'io', errno: 'EIO', file: journal, since: NOW.toISOString(), message: 'EIO' }),
    );
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
  } finally {
    console.error = error;
    console.warn = warn;
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

store('a shutdown snapshot: written after writes, not again, not read-only, not while the disk fails', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'write-log-store-'));
  const { error, warn } = console;
  console.error = console.warn = () => {};
  const manifest = () => fs.readFileSync(path.join(dir, 'snapshot.json'), 'utf8');
  try {
    let cal = await openCalendar({ dir, now: () => NOW, faultProbeMs: 0 });
    const a = await cal.events.create(event('A'));
    let log = handleOf(cal).log as StoreLog;
    await log.shutdownSnapshot();
    const first = manifest();
    await log.shutdownSnapshot();
    assert.is(manifest(), first, 'no write since: the snapshot is kept');
    const b = await cal.events.create(event('B'));
    log.guard.failed(
      new StoreFaultError({ kind: 'io', errno: 'EIO', file: dir, since: NOW.toISOString(), message: 'EIO' }),
    );
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
  } finally {
    console.error = error;
    console.warn = warn;
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

store.run();
