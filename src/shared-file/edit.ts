// A small JSON file that `calendar-engine` commands edit while a server runs (users.json,
// webhooks.json): each edit reads, changes and replaces the file atomically under FILE.lock
// (lock.ts), so that commands run at once never lose one another's change; the server notices a
// replacement by the file's modification time and size, polled.
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../store/atomic-file.ts';
import { lockFile } from './lock.ts';

/**
 * One edit of `file` under FILE.lock (its folder made first): `edit` reads what it needs and
 * returns the new text (with anything else it wants handed back), written atomically, mode 0600.
 */
export function editLocked<R extends { text: string }>(file: string, edit: () => R): R {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const release = lockFile(`${file}.lock`);
  try {
    const out = edit();
    writeFileAtomicSync(file, out.text, { mode: 0o600 });
    return out;
  } finally {
    release();
  }
}

/** The file's modification time and size, or 'none' when it cannot be read. */
function stampOf(file: string): string {
  try {
    const st = fs.statSync(file);
    return `${st.mtimeMs}:${st.size}`;
  } catch {
    return 'none';
  }
}

/** Whether a file was replaced since the last look (its modification time or size changed). */
export class FileStamp {
  private last = '';
  constructor(readonly file: string) {}

  /** true when the file differs from the last call's (the first call: true) */
  changed(): boolean {
    const now = stampOf(this.file);
    if (now === this.last) return false;
    this.last = now;
    return true;
  }
}

/** Calls `onChange` within `intervalMs` of each replacement of `file`; the poller never keeps the
 *  process alive. Returns the stop. */
export function watchFile(file: string, onChange: () => void, intervalMs = 250): () => void {
  const stamp = new FileStamp(file);
  stamp.changed();
  const timer = setInterval(() => {
    if (stamp.changed()) onChange();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
