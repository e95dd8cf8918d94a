// The change feed on disk: DIR/changes.jsonl, one line per write ({seq, held: [...]}, the change
// records with what permission checks need), so that a restart keeps the whole retention window
// and not only the writes since the last snapshot. Lines are appended once per tick (the writes
// the journal acknowledges together); a crash before an append loses nothing, since the journal
// still holds those writes and they are added back at the next open. The file is rewritten
// without the lines the feed no longer retains once enough of them have gone. At the next open it
// is read (most lines without parsing their changes: readLine) and, when it holds the writes the
// feed starts with, kept: a torn last line cut off, the writes replayed after it appended.

import fs from 'node:fs';
import path from 'node:path';
import { appendAll } from '../store/atomic-file.ts';
import { writeFault } from '../store/faults.ts';
import type { ChangeFeed } from './feed.ts';
import { holdChange, type Change, type ChangeType, type HeldChange } from './change.ts';

const CHANGE_LOG = 'changes.jsonl';

export interface LoggedWrite {
  seq: number;
  held: HeldChange[];
}

/** The logged writes, in order; a torn last line (a crash while appending) is left out. */
export function readChangeLog(dir: string): LoggedWrite[] {
  return readChangeLogFile(dir).writes;
}

/** What readChangeLogFile found: the writes, and whether the file holds them and nothing else. */
export interface ChangeLogFile {
  writes: LoggedWrite[];
  /** the bytes of the file's lines read, and how many: set when every line before them was read
   *  and each ends with its newline, so that the file can be kept (cut to `bytes`, which drops a
   *  torn last line) and appended to, rather than written again */
  whole: { bytes: number; lines: number } | undefined;
}

/**
 * The logged writes, in order, and whether the file can be kept as it is. A line is read without
 * parsing its change where its shape allows (readLine): at start-up that is most of the time it
 * takes, and the feed holds each change as its text anyway.
 */
export function readChangeLogFile(dir: string): ChangeLogFile {
  let buf: Buffer;
  try {
    buf = fs.readFileSync(path.join(dir, CHANGE_LOG));
  } catch {
    return { writes: [], whole: undefined };
  }
  const out: LoggedWrite[] = [];
  let bytes = 0,
    whole = true;
  for (let s = 0; s < buf.length; ) {
    const nl = buf.indexOf(10, s),
      e = nl === -1 ? buf.length : nl,
      last = nl === -1 || nl + 1 === buf.length;
    let read = e === s; // an empty line is passed over
    if (!read) {
      // the last line may be torn: it is always parsed whole
      const w = (last ? undefined : readLine(buf, s, e)) ?? parseLine(buf, s, e);
      if (w !== undefined && (out.length === 0 || w.seq > out[out.length - 1].seq)) {
        out.push(w);
        read = true;
      }
    }
    if (read && nl !== -1) bytes = nl + 1;
    // a line left out before others, or one read without its newline (an append would run on
    // from it): the file is written again. A last line left out is cut off (a torn append).
    else if (read || !last) whole = false;
    if (nl === -1) break;
    s = nl + 1;
  }
  return { writes: out, whole: whole ? { bytes, lines: out.length } : undefined };
}

/** A logged line parsed whole; undefined for one that is not a logged write (torn, damaged). */
function parseLine(buf: Buffer, s: number, e: number): LoggedWrite | undefined {
  try {
    const w = JSON.parse(buf.toString('utf8', s, e)) as {
      seq: number;
      held: Array<{ change: Change; owner: number; before?: string; after?: string }>;
    };
    if (!Number.isSafeInteger(w.seq) || !Array.isArray(w.held)) return undefined;
    return { seq: w.seq, held: w.held.map((h) => holdChange(h.change, h.owner, h.before, h.after)) };
  } catch {
    return undefined;
  }
}

const LINE_OPEN = Buffer.from('{"seq":'),
  HELD_OPEN = Buffer.from(',"held":[{"change":'),
  OWNER = Buffer.from(',"owner":');
const CHANGE_HEAD = /^\{"seq":(\d+),"time":"([^"\\]*)","type":"([a-z]+)",/;
/** what follows a change's text: its owner and statuses (post statuses are lowercase keys) */
const LINE_REST = /^"owner":(\d+)(?:,"before":"([a-z0-9_-]*)")?(?:,"after":"([a-z0-9_-]*)")?\}$/;

/** `buf` holds `bytes` at `at` */
const holds = (buf: Buffer, at: number, bytes: Buffer): boolean =>
  at + bytes.length <= buf.length && buf.compare(bytes, 0, bytes.length, at, at + bytes.length) === 0;

/**
 * A line of one change (what most writes log), read without parsing the change: its text is the
 * bytes between `{"change":` and the last `,"owner":` (a string value cannot hold that sequence
 * unescaped), decoded on their own, as the text the feed held when it logged them (logLine writes
 * that text as it is). Undefined for any other line, which is then parsed whole: two changes
 * (the first one's `,"owner":` falls inside the text), a line an interrupted append ran into the
 * next one (a second `{"seq":`), a change whose head is not seq, time and type, statuses that
 * are not plain keys.
 */
export function readLine(buf: Buffer, s: number, e: number): LoggedWrite | undefined {
  if (e - s < 40 || buf[e - 1] !== 0x7d || buf[e - 2] !== 0x5d || buf[e - 3] !== 0x7d || !holds(buf, s, LINE_OPEN))
    return undefined; // {"seq": … }]}
  let seq = 0,
    i = s + LINE_OPEN.length;
  for (; i < e && buf[i] >= 0x30 && buf[i] <= 0x39; i++) seq = seq * 10 + buf[i] - 0x30;
  if (i === s + LINE_OPEN.length || !Number.isSafeInteger(seq) || !holds(buf, i, HELD_OPEN)) return undefined;
  const from = i + HELD_OPEN.length,
    owner = buf.lastIndexOf(OWNER, e - 1);
  if (owner <= from) return undefined;
  const text = buf.toString('utf8', from, owner);
  if (text.charCodeAt(text.length - 1) !== 0x7d || text.includes(',"owner":') || text.indexOf('{"seq":', 1) !== -1)
    return undefined;
  const c = CHANGE_HEAD.exec(text);
  const rest = c === null || Number(c[1]) !== seq ? null : LINE_REST.exec(buf.toString('latin1', owner + 1, e - 2));
  if (rest === null) return undefined;
  return {
    seq,
    held: [
      { seq, time: c![2], type: c![3] as ChangeType, text, owner: Number(rest[1]), before: rest[2], after: rest[3] },
    ],
  };
}

/** Whether startingWrites uses the logged writes (they reach the journal's first write). */
export function logMeets(logged: LoggedWrite[], snapshotSeq: number): boolean {
  return logged.length > 0 && logged[logged.length - 1].seq >= snapshotSeq;
}

/**
 * The writes the feed starts with: the logged ones, then those replayed from the journal after
 * them. When the two do not meet (the log lost its tail in a crash, and a compaction since
 * dropped those writes from the journal), the log is only used from the journal's first write:
 * a gap would be worse than a shorter window.
 */
export function startingWrites(logged: LoggedWrite[], replayed: LoggedWrite[], snapshotSeq: number): LoggedWrite[] {
  if (!logMeets(logged, snapshotSeq)) return replayed;
  const tail = logged[logged.length - 1].seq;
  return [...logged, ...replayed.filter((w) => w.seq > tail)];
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

/** The log of a feed filled from `log` and the writes replayed after it: the file kept when it holds
 *  the writes the feed starts with (logMeets), written again otherwise. */
export function openChangeLog(
  dir: string,
  feed: ChangeFeed,
  log: ChangeLogFile,
  snapshotSeq: number,
  warn?: (line: string) => void,
): ChangeLog {
  const kept =
    log.whole && logMeets(log.writes, snapshotSeq)
      ? { ...log.whole, seq: log.writes[log.writes.length - 1].seq }
      : undefined;
  return new ChangeLog(dir, feed, kept, warn);
}

/** how often a change log that could not be written tries again (ms) */
const RETRY_MS = 2_000;

/** The lines of `writes`, one after the other. */
const linesOf = (writes: LoggedWrite[]): string => writes.map((w) => logLine(w.seq, w.held)).join('');

export class ChangeLog {
  private pending = '';
  /** the file, kept open for appends between rewrites (one system call a flush, not three) */
  private fd: number | undefined;
  private readonly off: () => void;
  private lines = 0;
  /** set while the file cannot be written (disk full, I/O error...): what happened. The journal
   *  holds every write meanwhile and the feed its window: once the disk takes writes again the
   *  file is written again whole from the feed, so nothing the feed retains is missing from it. */
  fault: string | undefined;
  private retry: NodeJS.Timeout | undefined;
  private readonly warn: (line: string) => void;

  /**
   * Starts with the feed as filled. `kept`: the file as readChangeLogFile found it, when the feed
   * starts with its writes (logMeets) and it holds them whole: it is then cut after its last whole
   * line and the feed's writes after them (replayed from the journal) are appended, instead of
   * writing the window again.
   */
  constructor(
    private readonly dir: string,
    private readonly feed: ChangeFeed,
    kept?: { bytes: number; lines: number; seq: number },
    warn: (line: string) => void = (line) => console.error(line),
  ) {
    this.warn = warn;
    try {
      if (kept !== undefined && !this.tooLong(kept.lines)) {
        const file = path.join(dir, CHANGE_LOG);
        fs.truncateSync(file, kept.bytes);
        const after = feed.retainedWrites(kept.seq);
        this.fd = fs.openSync(file, 'a');
        if (after.length > 0) appendAll(this.fd, linesOf(after));
        this.lines = kept.lines + after.length;
      } else {
        // the file holds exactly the feed's window from now on (the writes replayed from the journal included)
        this.rewriteWindow();
      }
    } catch (err) {
      this.failed(err);
    }
    this.off = feed.on((held) => {
      if (this.pending === '') setImmediate(() => this.flush());
      this.pending += logLine(held[0].seq, held);
      this.lines++;
    });
  }

  private rewriteWindow(): void {
    const retained = this.feed.retainedWrites();
    this.rewrite(retained);
    this.lines = retained.length;
  }

  /** The file could not be written: drop what is pending (the feed holds it) and retry later. */
  private failed(err: unknown): void {
    const fault = writeFault(err, path.join(this.dir, CHANGE_LOG));
    if (this.fault === undefined)
      this.warn(
        `calendar-engine: change log not written: ${fault.message}; writes go on (the journal holds them), the log is written again once the disk takes it`,
      );
    this.fault = fault.message;
    this.pending = '';
    try {
      this.close();
    } catch {
      this.fd = undefined; // closing a file whose write failed may fail too
    }
    this.retry ??= setInterval(() => this.flush(true), RETRY_MS);
    this.retry.unref();
  }

  /** once the feed retains much less than the file holds, the file follows (the count of
   *  retained changes, at least that of retained writes, is had without walking them) */
  private tooLong(lines: number): boolean {
    return lines > 4096 && lines > 2 * this.feed.retainedChangeCount();
  }

  private rewrite(writes: LoggedWrite[]): void {
    this.close();
    const file = path.join(this.dir, CHANGE_LOG),
      tmp = `${file}.tmp-${process.pid}`;
    try {
      fs.writeFileSync(tmp, linesOf(writes));
      fs.renameSync(tmp, file);
    } catch (err) {
      try {
        fs.unlinkSync(tmp);
      } catch {
        /* not there */
      }
      throw err;
    }
  }

  /** Appends what is pending; never throws (a failed write is logged and retried: failed()). */
  flush(retry = false): void {
    try {
      if (this.fault !== undefined) {
        // after a failure the file may end with part of a line: written again whole from the
        // feed, by the retry timer (or at stop), not at every write while the disk is full
        this.pending = '';
        if (!retry) return;
        this.rewriteWindow();
        this.warn(
          `calendar-engine: change log ${path.join(this.dir, CHANGE_LOG)} written again; the disk takes writes again`,
        );
        this.fault = undefined;
        clearInterval(this.retry);
        this.retry = undefined;
        return;
      }
      if (this.pending === '') return;
      appendAll((this.fd ??= fs.openSync(path.join(this.dir, CHANGE_LOG), 'a')), this.pending);
      this.pending = '';
      if (this.tooLong(this.lines)) this.rewriteWindow();
    } catch (err) {
      this.failed(err);
    }
  }

  private close(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }

  stop(): void {
    this.off();
    clearInterval(this.retry);
    this.retry = undefined;
    this.flush(true);
    clearInterval(this.retry);
    try {
      this.close();
    } catch (err) {
      this.warn(`calendar-engine: change log: ${(err as Error).message}`);
    }
  }
}
