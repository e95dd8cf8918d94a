// A small tmpfs mounted for one test (Linux, as root): the data folder on a file system the
// test can fill, or remount read-only. Tests skip, saying why, where mounting is not allowed.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Mounted {
  dir: string;
  /** remount read-only (fails while a file is open for writing) or read-write again */
  remount(mode: 'ro' | 'rw'): void;
  /** bytes free for an ordinary file */
  free(): number;
}

/** Runs `fn` with a tmpfs of `kib` KiB mounted; unmounts in a finally. Returns false (after
 *  printing the reason) when it cannot mount one here. */
export async function withTmpfs(kib: number, fn: (m: Mounted) => Promise<void>): Promise<boolean> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${kib}k`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (err) {
    const why = ((err as { stderr?: Buffer }).stderr?.toString() || (err as Error).message).trim().split('\n')[0];
    console.log(`  (skipped: cannot mount a tmpfs here: ${why})`);
    fs.rmSync(dir, { recursive: true, force: true });
    return false;
  }
  const m: Mounted = {
    dir,
    remount: (mode) => execFileSync('mount', ['-o', `remount,${mode}`, dir], { stdio: 'pipe' }),
    free: () => {
      const s = fs.statfsSync(dir);
      return s.bavail * s.bsize;
    },
  };
  try {
    await fn(m);
  } finally {
    try {
      execFileSync('umount', [dir], { stdio: 'pipe' });
    } catch {
      execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return true;
}

/** Fills the file system of `dir` up to `leave` free bytes with DIR/filler; returns its path. */
export function fill(m: Mounted, leave: number): string {
  const file = path.join(m.dir, 'filler');
  const want = Math.max(0, m.free() - leave);
  fs.writeFileSync(file, Buffer.alloc(want));
  return file;
}
