// A short-lived exclusive lock around one read-modify-write of a small file that several
// processes share (users.json, webhooks.json): FILE.lock created exclusively ('wx') holding the
// holder's pid. A waiter sleeps and tries again; a lock whose pid is dead is taken over, and so is
// one that stays unreadable (its writer died between creating and writing it) for over a second.
import fs from 'node:fs';
import { isPidAlive } from '../store/lock.ts';

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Removes the lock at `lockPath` if it still holds `text` (what was judged stale). */
function removeIfStill(lockPath: string, text: string): void {
  try {
    if (fs.readFileSync(lockPath, 'utf8').trim() === text) fs.unlinkSync(lockPath);
  } catch {
    /* someone else removed it */
  }
}

/** Takes the lock at `lockPath` (waits up to ~5 s); returns its release. */
export function lockFile(lockPath: string): () => void {
  for (let attempt = 0; ; attempt++) {
    try {
      fs.writeFileSync(lockPath, `${process.pid}\n`, { flag: 'wx' });
      return () => {
        try {
          fs.unlinkSync(lockPath);
        } catch {
          /* already gone */
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let text: string;
    let age: number;
    try {
      text = fs.readFileSync(lockPath, 'utf8').trim();
      age = Date.now() - fs.statSync(lockPath).mtimeMs;
    } catch {
      continue; // released meanwhile
    }
    const pid = /^\d+$/.test(text) ? Number(text) : NaN;
    // a crashed holder's lock goes at once; an unreadable one (being written just now, as a rule)
    // only once it is old
    if ((pid > 0 && !isPidAlive(pid)) || (Number.isNaN(pid) && age > 1_000)) {
      removeIfStill(lockPath, text);
      continue;
    }
    if (attempt > 250) throw new Error(`${lockPath} is held by pid ${pid}; remove it if that process is gone`);
    sleepSync(20);
  }
}
