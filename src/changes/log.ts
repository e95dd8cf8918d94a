// The change feed on disk: DIR/changes.jsonl, one line per write ({seq, held: [...]}, the change
// records with what permission checks need), so that a restart keeps the whole retention window
// and not only the writes since the last snapshot. Lines are appended once per tick (the writes
// the journal acknowledges together); a crash before an append loses nothing, since the journal
// still holds those writes and they are added back at the next open. The file is rewritten
// without the lines the feed no longer retains once enough of them have gone.

import fs from 'node:fs';
import path from 'node:path';
import { appendAll } from '../store/atomic-file.ts';
import { holdChange, type Change, type ChangeFeed, type HeldChange } from './feed.ts';

const CHANGE_LOG = 'changes.jsonl';

export interface LoggedWrite {
  seq: number;
  held: HeldChange[];
}

/** The logged writes, in order; a torn last line (a crash while appending) is left out. */
export function readChangeLog(dir: string): LoggedWrite[] {
  let text: string;
  try {
    text = fs.readFileSync(path.join(dir, CHANGE_LOG), 'utf8');
  } catch {
    return [];
  }
  const out: LoggedWrite[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      const w = JSON.parse(line) as { seq: number; held: Array<{ change: Change; owner: number; before?: string; after?: string }> };
      if (Number.isSafeInteger(w.seq) && Array.isArray(w.held) && (out.length === 0 || w.seq > out[out.length - 1].seq)) {
        out.push({ seq: w.seq, held: w.held.map((h) => holdChange(h.change, h.owner, h.before, h.after)) });
      }
    } catch {
      // torn
    }
  }
  return out;
}

/**
 * The writes the feed starts with: the logged ones, then those replayed from the journal after
 * them. When the two do not meet (the log lost its tail in a crash, and a compaction since
 * dropped those writes from the journal), the log is only used from the journal's first write:
 * a gap would be worse than a shorter window.
 */
export function startingWrites(logged: LoggedWrite[], replayed: LoggedWrite[], snapshotSeq: number): LoggedWrite[] {
  const tail = logged.length > 0 ? logged[logged.length - 1].seq : -1;
  const fromJournal = replayed.filter((w) => w.seq > tail);
  const meets = logged.length > 0 && tail >= snapshotSeq;
  return meets ? [...logged, ...fromJournal] : replayed;
}

/** A logged write's line: {"seq":N,"held":[{"change":{...},"owner":A,"before":S,"after":S}]} and
 *  a newline, each change written as the text the feed holds. */
export function logLine(seq: number, held: readonly HeldChange[]): string {
  let line = `{"seq":${seq},"held":[`;
  for (let i = 0; i < held.length; i++) {
    const h = held[i];
    line += `${i > 0 ? ',' : ''}{"change":${h.text},"owner":${JSON.stringify(h.owner)}`;
    if (h.before !== undefined) line += `,"before":${JSON.stringify(h.before)}`;
    if (h.after !== undefined) line += `,"after":${JSON.stringify(h.after)}`;
    line += '}';
  }
  return line + ']}\n';
}

export class ChangeLog {
  private pending = '';
  /** the file, kept open for appends between rewrites (one system call a flush, not three) */
  private fd: number | undefined;
  private readonly off: () => void;
  private lines: number;

  constructor(private readonly dir: string, private readonly feed: ChangeFeed, start: LoggedWrite[]) {
    // the file holds exactly `start` from now on (the writes replayed from the journal included)
    this.rewrite(start);
    this.lines = start.length;
    this.off = feed.on((held) => {
      if (this.pending === '') setImmediate(() => this.flush());
      this.pending += logLine(held[0].seq, held);
      this.lines++;
    });
  }

  private rewrite(writes: LoggedWrite[]): void {
    this.close();
    const file = path.join(this.dir, CHANGE_LOG), tmp = `${file}.tmp-${process.pid}`;
    fs.writeFileSync(tmp, writes.map((w) => logLine(w.seq, w.held)).join(''));
    fs.renameSync(tmp, file);
  }

  flush(): void {
    if (this.pending === '') return;
    appendAll((this.fd ??= fs.openSync(path.join(this.dir, CHANGE_LOG), 'a')), this.pending);
    this.pending = '';
    // once the feed retains much less than the file holds, the file follows (the count of
    // retained changes, at least that of retained writes, is had without walking them)
    if (this.lines > 4096 && this.lines > 2 * this.feed.retainedChangeCount()) {
      const retained = this.feed.retainedWrites();
      this.rewrite(retained);
      this.lines = retained.length;
    }
  }

  private close(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }

  stop(): void {
    this.off();
    this.flush();
    this.close();
  }
}
