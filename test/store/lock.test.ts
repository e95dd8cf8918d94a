import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { acquireLock, isPidAlive } from '../../src/store/lock.ts';

function tmpDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'lock-test-'));
}

/** pid of a process that has exited */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  const pid = Number(r.stdout);
  assert.ok(pid > 0 && !isPidAlive(pid), '~> could not get a dead pid');
  return pid;
}

// ---

const Lock = suite('lock');

Lock('lock :: acquire writes our pid; release removes it', () => {
  const dir = tmpDir();
  const lock = acquireLock(dir, () => {});
  assert.is(fs.readFileSync(path.join(dir, 'lock'), 'utf8').trim(), String(process.pid));
  assert.equal(fs.readdirSync(dir), ['lock'], '~> no temp file left');
  lock.release();
  assert.equal(fs.readdirSync(dir), []);
});

Lock('lock :: a second acquire while held throws naming the dir and pid', () => {
  const dir = tmpDir();
  const lock = acquireLock(dir, () => {});
  assert.throws(
    () => acquireLock(dir, () => {}),
    (err: Error) => err.message.includes(`store ${dir} is in use by pid ${process.pid}`),
  );
  assert.equal(fs.readdirSync(dir), ['lock']);
  lock.release();
});

Lock('lock :: a lock held by another live process is refused', async () => {
  const dir = tmpDir();
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
  try {
    fs.writeFileSync(path.join(dir, 'lock'), `${child.pid}\n`);
    assert.throws(
      () => acquireLock(dir, () => {}),
      (err: Error) => err.message.includes(`in use by pid ${child.pid}`),
    );
  } finally {
    child.kill('SIGKILL');
  }
});

Lock('lock :: a stale lock from a dead pid is taken over with a warning', () => {
  const dir = tmpDir();
  const pid = deadPid();
  fs.writeFileSync(path.join(dir, 'lock'), `${pid}\n`);
  const warnings: string[] = [];
  const lock = acquireLock(dir, (m) => warnings.push(m));
  assert.is(warnings.length, 1);
  assert.match(warnings[0]!, `pid ${pid} is not running`);
  assert.is(fs.readFileSync(path.join(dir, 'lock'), 'utf8').trim(), String(process.pid));
  lock.release();
});

Lock('lock :: an unreadable (empty) lock is stale', () => {
  const dir = tmpDir();
  fs.writeFileSync(path.join(dir, 'lock'), '');
  const warnings: string[] = [];
  acquireLock(dir, (m) => warnings.push(m)).release();
  assert.match(warnings[0]!, 'unreadable');
});

Lock('lock :: release leaves a lock that is no longer ours alone', () => {
  const dir = tmpDir();
  const lock = acquireLock(dir, () => {});
  fs.writeFileSync(path.join(dir, 'lock'), '1\n');
  lock.release();
  assert.is(fs.readFileSync(path.join(dir, 'lock'), 'utf8'), '1\n');
});

Lock.run();
