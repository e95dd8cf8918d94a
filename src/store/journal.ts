// The journal: DIR/journal.jsonl, one JSON line `{"seq":N,"ops":[...]}` per acknowledged write.
//
// Appending is a group commit (steno's Writer coalescing + nedb's fsync): one flush is in
// flight at a time (`write` of the whole batch, then `datasync`); lines queued meanwhile ride
// the next flush together, and every waiter resolves when its own batch is durable.
//
// Each line ends with its checksum, `"sum":"<crc32 of the line without it, 8 hex digits>"`, the
// line's last member; journal-read.ts reads the lines back (replay, a torn last line).
//
// A failed write or datasync (disk full, I/O error, read-only file system) is a state, not a
// crash: every line not yet durable is refused, the journal remembers where its durable part ends
// (durableBytes, durableSeq) and recover() probes the disk, cuts the file back to that point and
// reopens it, so that appends resume where the durable lines end. The file operations under
// these (the probe, the cut, the copy of a tail) are journal-file.ts's.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { fsyncDir, tempPathFor } from './atomic-file.ts';
import { StoreFaultError, nameFile, writeFault, type StoreFault } from './faults.ts';
import { copyRange, cutAndReopen, probeDisk, writeAll } from './journal-file.ts';

export const JOURNAL_FILE = 'journal.jsonl';

/** Named points where a test can stop the process (see test/fixtures/crash-writer.ts). */
export type StoreTestPoint =
  | 'journal:write' //          a batch is about to be written (detail: path + bytes)
  | 'journal:written' //        written, not yet datasync'ed
  | 'snapshot:part-write' //    a snapshot part is about to be written (detail: path + bytes)
  | 'snapshot:part-written' //  a part is durable, the manifest is not written yet
  | 'snapshot:manifest' //      the new manifest is renamed into place and durable; journal still old
  | 'journal:copied' //         the new journal (tail after the snapshot) is durable under its temp name
  | 'journal:renamed'; //       the new journal replaced the old one; old snapshot parts still present

export type TestPointHook = (point: StoreTestPoint, detail?: { path: string; data?: Uint8Array }) => void;

export interface JournalStats {
  /** writes appended (one line each) */
  commits: number;
  /** write+datasync rounds; with concurrency this is far below `commits` */
  flushes: number;
  /** bytes appended since open */
  bytes: number;
}

// ---
/** One journal line: the write's JSON with its checksum as the last member, and a newline. */
export function journalLine(body: string): string {
  const sum = crc32(body).toString(16).padStart(8, '0');
  return `${body.slice(0, -1)},"sum":"${sum}"}\n`;
}

interface Waiter {
  seq: number;
  resolve: (seq: number) => void;
  reject: (err: Error) => void;
}

/**
 * The append side of the journal. Offsets are logical positions in the current journal file:
 * `queuedBytes` counts every line handed to `append` (written or not), `writtenBytes` only
 * those that have reached the file. Lines reach the file in `append` order, so the line queued
 * when `queuedBytes` was X starts at byte X.
 */
export class Journal {
  readonly file: string;
  readonly stats: JournalStats = { commits: 0, flushes: 0, bytes: 0 };
  queuedBytes: number;
  writtenBytes: number;
  /** the file's length up to its last datasync'ed line, and that line's seq */
  durableBytes: number;
  durableSeq: number;
  /** counts failures: a position taken before one (a compaction's cut) means nothing after it */
  epoch = 0;
  /** set while a write or datasync has failed: the file's state past durableBytes is unknown, so
   *  further writes are refused until recover() has cut it back and reopened it */
  failed: StoreFaultError | undefined;

  private fh: fsp.FileHandle;
  private pendingLines: string[] = [];
  private pendingWaiters: Waiter[] = [];
  private flushing: Promise<void> | undefined;
  private recovering: Promise<boolean> | undefined;
  /** bytes of the batch that failed: a probe asks for at least that much room */
  private failedBatch = 0;
  private holds = 0;
  private readonly testPoint: TestPointHook | undefined;
  private readonly onFlushed: () => void;
  private readonly onFailed: (fault: StoreFault) => void;

  private constructor(
    file: string,
    fh: fsp.FileHandle,
    size: number,
    seq: number,
    testPoint: TestPointHook | undefined,
    onFlushed: () => void,
    onFailed: (fault: StoreFault) => void,
  ) {
    this.file = file;
    this.fh = fh;
    this.queuedBytes = size;
    this.writtenBytes = size;
    this.durableBytes = size;
    this.durableSeq = seq;
    this.testPoint = testPoint;
    this.onFlushed = onFlushed;
    this.onFailed = onFailed;
  }

  /** Opens (creating if needed) the journal for appending; `size` is its current valid length,
   *  `seq` the seq of its last line (or of the snapshot before it). */
  static async open(
    file: string,
    size: number,
    options: {
      seq?: number;
      testPoint?: TestPointHook;
      onFlushed?: () => void;
      onFailed?: (fault: StoreFault) => void;
    } = {},
  ): Promise<Journal> {
    let fh: fsp.FileHandle;
    try {
      fh = await fsp.open(file, 'a');
    } catch (err) {
      throw new StoreFaultError(writeFault(err, file), err);
    }
    try {
      const { size: actual } = await fh.stat();
      if (actual !== size) throw new Error(`store: journal ${file} is ${actual} bytes, expected ${size}`);
      // a newly created journal's directory entry must be durable before the first ack
      await fsyncDir(path.dirname(file)).catch((err: unknown) => {
        throw new StoreFaultError(writeFault(err, path.dirname(file)), err);
      });
    } catch (err) {
      await fh.close();
      throw err;
    }
    return new Journal(
      file,
      fh,
      size,
      options.seq ?? 0,
      options.testPoint,
      options.onFlushed ?? (() => {}),
      options.onFailed ?? (() => {}),
    );
  }

  /** Queues one line (must end in '\n'); resolves with `seq` once it is written and datasync'ed. */
  append(line: string, seq: number): Promise<number> {
    if (this.failed) return Promise.reject(this.failed);
    this.stats.commits++;
    this.queuedBytes += Buffer.byteLength(line);
    this.pendingLines.push(line);
    const done = new Promise<number>((resolve, reject) => this.pendingWaiters.push({ seq, resolve, reject }));
    this.kick();
    return done;
  }

  /** Starts a flush unless one is in flight or the journal is held. */
  private kick(): void {
    if (this.flushing || this.holds > 0 || this.pendingLines.length === 0) return;
    this.flushing = this.flushLoop().finally(() => {
      this.flushing = undefined;
      this.kick(); // lines may have arrived after the loop's last check (e.g. on release)
    });
  }

  private async flushLoop(): Promise<void> {
    while (this.pendingLines.length > 0 && this.holds === 0 && !this.failed) {
      const lines = this.pendingLines;
      const waiters = this.pendingWaiters;
      this.pendingLines = [];
      this.pendingWaiters = [];
      const data = Buffer.from(lines.length === 1 ? lines[0]! : lines.join(''));
      try {
        this.testPoint?.('journal:write', { path: this.file, data });
        await writeAll(this.fh, data);
        this.writtenBytes += data.length;
        this.testPoint?.('journal:written', { path: this.file });
        await this.fh.datasync();
      } catch (err) {
        // After a failed write or fsync the kernel's view of the file is unknown (fsyncgate):
        // fail this batch and everything queued after it; nothing of them was acknowledged.
        // recover() cuts the file back to durableBytes before anything is appended again.
        this.failedBatch = data.length;
        this.fail(err, waiters);
        return;
      }
      this.durableBytes = this.writtenBytes;
      this.durableSeq = waiters[waiters.length - 1]!.seq;
      this.stats.flushes++;
      this.stats.bytes += data.length;
      for (const w of waiters) w.resolve(w.seq);
      this.onFlushed();
    }
  }

  /** Enters the failed state: `waiters` (a batch in flight) and everything queued are refused. */
  private fail(err: unknown, waiters: Waiter[]): void {
    const failed = new StoreFaultError(writeFault(err, this.file), err);
    this.failed = failed;
    this.epoch++;
    for (const w of waiters) w.reject(failed);
    for (const w of this.pendingWaiters) w.reject(failed);
    this.pendingLines = [];
    this.pendingWaiters = [];
    this.queuedBytes = this.writtenBytes = this.durableBytes;
    this.onFailed(failed.fault);
  }

  /**
   * After a failure: probes the disk (a temp file of at least the failed batch's size, written
   * and datasync'ed, then removed), cuts the journal back to its durable length (any part of the
   * failed batch that reached it goes) and reopens it. True when appends may resume; false (and
   * `failed` names what failed now) when the disk still refuses.
   */
  recover(): Promise<boolean> {
    if (!this.failed) return Promise.resolve(true);
    this.recovering ??= this.recoverNow().finally(() => (this.recovering = undefined));
    return this.recovering;
  }

  private async recoverNow(): Promise<boolean> {
    await this.flushing;
    const previous = this.failed!;
    try {
      // the probe stands for the journal's next appends: a fault it meets is reported as the journal's
      await probeDisk(this.file, this.failedBatch, this.testPoint);
      const reopened = await cutAndReopen(this.file, this.durableBytes);
      const old = this.fh;
      this.fh = reopened;
      await old.close().catch(() => {}); // its last write failed: closing may report it again
    } catch (err) {
      const fault = writeFault(err, this.file);
      // the same fault goes on since it was first seen
      if (fault.errno === previous.fault.errno) fault.since = previous.fault.since;
      this.failed = new StoreFaultError(fault, err);
      return false;
    }
    this.failed = undefined;
    this.failedBatch = 0;
    return true;
  }

  /** Resolves once every line queued before byte `cut` (taken at `epoch`) is durable; throws if
   *  the journal failed since (those lines may never be). */
  async durableTo(cut: number, epoch: number): Promise<void> {
    for (;;) {
      if (this.epoch !== epoch || this.failed)
        throw this.failed ?? new Error(`store: journal ${this.file} failed meanwhile`);
      if (this.durableBytes >= cut) return;
      this.kick();
      if (!this.flushing)
        throw new Error(`store: journal ${this.file} holds ${this.durableBytes} durable bytes, expected ${cut}`);
      await this.flushing;
    }
  }

  /** Resolves when every line queued so far is durable (or has failed). */
  async drain(): Promise<void> {
    while (this.flushing || (this.pendingLines.length > 0 && this.holds === 0 && !this.failed)) {
      this.kick();
      await this.flushing;
    }
  }

  /** Stops new flushes and waits for the one in flight: afterwards the file holds `writtenBytes`. */
  async hold(): Promise<void> {
    this.holds++;
    await this.flushing;
  }

  release(): void {
    this.holds--;
    this.kick();
  }

  /**
   * Compaction's last step: replaces the journal with its tail from byte `cut` on (the lines
   * with seq > the snapshot's seq). Most of the tail is copied while writers keep appending;
   * flushes are held only for the last few bytes, the datasync and the rename.
   */
  async rewriteFrom(cut: number): Promise<void> {
    // every line before `cut` must be in the file first (normally long done by now)
    while (this.writtenBytes < cut) {
      if (this.failed) throw this.failed;
      if (this.holds > 0) throw new Error('store: journal rewrite while held');
      this.kick();
      await this.flushing;
    }
    const tmp = tempPathFor(this.file);
    const out = await fsp.open(tmp, 'wx').catch((err: unknown) => {
      throw nameFile(err, tmp);
    });
    const src = await fsp.open(this.file, 'r');
    let held = false;
    let outClosed = false;
    try {
      let copied = cut;
      copied = await copyRange(src, out, copied, this.writtenBytes, cut);
      await this.hold();
      held = true;
      if (this.failed) throw this.failed;
      copied = await copyRange(src, out, copied, this.writtenBytes, cut);
      await out.datasync();
      await out.close();
      outClosed = true;
      this.testPoint?.('journal:copied', { path: tmp });
      await fsp.rename(tmp, this.file);
    } catch (err) {
      if (!outClosed) await out.close().catch(() => {});
      await fsp.unlink(tmp).catch(() => {});
      await src.close();
      if (held) this.release();
      throw nameFile(err, tmp);
    }
    await src.close();
    // the file at this.file is now the tail: positions follow it (recover() cuts and reopens it by name)
    this.writtenBytes -= cut;
    this.queuedBytes -= cut;
    this.durableBytes -= cut;
    try {
      await fsyncDir(path.dirname(this.file));
      const old = this.fh;
      this.fh = await fsp.open(this.file, 'a');
      await old.close();
      this.testPoint?.('journal:renamed', { path: this.file });
    } catch (err) {
      if (!this.failed) this.fail(err, []);
      throw this.failed;
    } finally {
      this.release();
    }
  }

  /** Flushes what is queued and closes the file. */
  async close(): Promise<void> {
    await this.drain();
    await this.recovering;
    if (this.failed) await this.fh.close().catch(() => {});
    else await this.fh.close();
  }
}

/** Sync existence check used by open-time cleanup. */
export function journalExists(dir: string): boolean {
  return fs.existsSync(path.join(dir, JOURNAL_FILE));
}
