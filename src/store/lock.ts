// One writer per store directory: DIR/lock holds the owner's pid. It is created atomically
// complete (written to a temp file, then link()ed into place, which fails with EEXIST like
// O_EXCL), so a reader never sees an empty lock from a half-finished acquire.
// A lock whose pid is not alive is stale (the owner crashed): it is removed with a warning.
import fs from 'node:fs';
import path from 'node:path';
import { fsyncDirSync, tempPathFor } from './atomic-file.ts';

export const LOCK_FILE = 'lock';

/** true when a process with this pid exists (EPERM: exists but belongs to another user). */
export function isPidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function readLockPid(lockPath: string): number | undefined {
  let text: string;
  try {
    text = fs.readFileSync(lockPath, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const pid = Number(text.trim());
  return Number.isInteger(pid) && pid > 0 ? pid : NaN;
}

/** link() the complete temp file into place; where hard links are unsupported, O_EXCL create. */
function createExclusive(tmp: string, lockPath: string): void {
  try {
    fs.linkSync(tmp, lockPath);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw err;
    fs.writeFileSync(lockPath, `${process.pid}\n`, { flag: 'wx' });
  }
}

export interface StoreLock {
  readonly path: string;
  release(): void;
}

/**
 * Takes DIR/lock for this process or throws `store DIR is in use by pid N`.
 * Note: the pid is checked on this machine only (the store is a local directory).
 */
export function acquireLock(dir: string, warn: (message: string) => void): StoreLock {
  const lockPath = path.join(dir, LOCK_FILE);
  const tmp = tempPathFor(lockPath);
  fs.writeFileSync(tmp, `${process.pid}\n`, { flag: 'wx' });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        createExclusive(tmp, lockPath);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 3) throw err;
      }
      const pid = readLockPid(lockPath);
      if (pid === undefined) continue; // released meanwhile: try again
      if (!Number.isNaN(pid) && isPidAlive(pid)) {
        throw new Error(`store ${dir} is in use by pid ${pid} (lock file ${lockPath})`);
      }
      warn(
        `store: removing stale lock ${lockPath} (${Number.isNaN(pid) ? 'unreadable' : `pid ${pid} is not running`})`,
      );
      try {
        fs.unlinkSync(lockPath);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }
  } finally {
    fs.unlinkSync(tmp);
  }
  fsyncDirSync(dir);
  let held = true;
  return {
    path: lockPath,
    release() {
      if (!held) return;
      held = false;
      // only remove it if it is still ours
      if (readLockPid(lockPath) === process.pid) fs.unlinkSync(lockPath);
    },
  };
}
