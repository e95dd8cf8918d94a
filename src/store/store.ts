// The durable store: a snapshot (snapshot.ts) plus a journal of every acknowledged write since
// (journal.ts), one writer at a time (lock.ts). It deals in opaque JSON: it never looks inside
// ops or chunks. See docs/readme-store.md for the layout, the guarantees and the crash analysis.
// Reading the state back at start-up and its clean-up are in store-load.ts; compaction (a
// snapshot written while commits go on, then the journal cut back) in compaction.ts.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Op } from '../engine/records.ts';
import { JOURNAL_FILE, Journal, journalLine, type JournalStats, type TestPointHook } from './journal.ts';
import { LOCK_FILE, acquireLock } from './lock.ts';
import { readManifest, type SnapshotManifest } from './snapshot.ts';
import { nameFile, type StoreFault } from './faults.ts';
import { SnapshotStream } from './snapshot-stream.ts';
import { loadState, placeUnlistedParts, removeLeftovers, startError, type LoadHooks } from './store-load.ts';
import { type CompactionHost, type CompactOptions, Compactor } from './compaction.ts';

export type { StoreTestPoint, JournalStats } from './journal.ts';
export { type CompactOptions, DEFAULT_COMPACT_BYTES } from './compaction.ts';

export interface StoreHooks extends LoadHooks {
  /** produces the current state as JSON-able chunks; called synchronously at a consistent point when compacting */
  snapshotChunks(): Iterable<unknown>;
  /** optional warning sink (torn tail dropped, stale lock removed...) — default console.warn */
  warn?(message: string): void;
}

export interface StoreOptions {
  /** journal size in bytes past which a compaction starts by itself (default 64 MiB; 0 or Infinity = never) */
  compactBytes?: number;
  /** snapshot part size (default 256 MiB); parts split between chunks only */
  partBytes?: number;
  /**
   * Set when every value hooks.snapshotChunks() yields is a fresh copy that later writes never
   * mutate (e.g. arrays built per chunk, records replaced rather than edited). The store then
   * only iterates the chunks at the consistent point and runs JSON.stringify afterwards, chunk
   * by chunk between other work, so writers wait for the iteration alone (about a quarter of
   * the capture cost for the engine's columnar chunks). Default false: stringify at the point.
   */
  stableChunks?: boolean;
  /**
   * Set when hooks.snapshotChunks() captures the state when it is called and returns an iterable
   * that later writes cannot change (the engine copies its columns and builds its chunks from
   * the copies). The store then calls it at the consistent point and builds + stringifies the
   * chunks afterwards, one at a time between other work: writers wait for the capture alone.
   * Takes precedence over stableChunks.
   */
  detachedChunks?: boolean;
  /** snapshot parts at least this large are hashed by a worker thread while they are parsed (default 16 MiB) */
  hashWorkerMinBytes?: number;
  /** test-only: called at named points of the write paths, so a crash test can stop right there */
  testPoint?: TestPointHook;
  /** open without writing anything (no lock, no clean-up); commits and compactions are refused */
  readOnly?: boolean;
}

export interface StoreStats extends JournalStats {
  /** completed compactions since open */
  compactions: number;
}

export interface Store {
  /** Assigns the next seq, queues one JSON line {seq, ops}, resolves when that line is written AND fdatasync'ed.
   *  Group commit: while one flush is in flight later commits queue and are flushed together in one write+datasync;
   *  each promise resolves when its own batch is durable. The caller has already applied the ops to memory in the same tick. */
  commit(ops: Op[], meta?: { time?: string; author?: number }): Promise<number>;
  /** Compaction: snapshot of the current state (hooks.snapshotChunks) with the last seq, written crash-safely, then the journal is truncated to the lines after that seq. Must not block writers for long. */
  compact(opts?: CompactOptions): Promise<void>;
  /** A snapshot whose chunks are written as they come (by a worker thread), committed by
   *  compact({ streamed }); for a process that writes nothing else meanwhile (the import command). */
  beginSnapshot(): SnapshotStream;
  readonly seq: number;
  readonly dir: string;
  /** counters: commits, flushes (= datasyncs of the journal), bytes, compactions */
  readonly stats: Readonly<StoreStats>;
  /** flush pending commits, release the lock. */
  close(): Promise<void>;
  /** opened read-only: commits are refused */
  readonly readOnly: boolean;
  /** set while writes are refused because the disk failed (full, I/O error, read-only); the
   *  store's seq is then that of the last durable write */
  readonly fault: StoreFault | undefined;
  /** after a fault: probes the disk and, when it takes writes again, cuts the journal back to its
   *  durable lines and reopens it; true when commits may resume */
  recover(): Promise<boolean>;
  /** feeds the durable state (snapshot + the journal's durable lines) to `hooks`, writing nothing:
   *  what a restart would load; the calendar rebuilds its state from it after a fault */
  reload(hooks: Pick<StoreHooks, 'loadSnapshot' | 'replay'>): Promise<void>;
  /** what the health route shows */
  info(): StoreInfo;
}

export interface StoreInfo {
  journalBytes: number;
  snapshot: { seq: number; createdAt: string; bytes: number } | undefined;
  /** the last compaction's failure, until one succeeds */
  compactError: string | undefined;
}

/**
 * Opens (creating if needed) the store in `dir`: takes the lock, loads the newest snapshot,
 * replays the journal after it, and returns the store ready for commits.
 * Throws (and releases the lock) when anything on disk is damaged beyond a torn last journal line,
 * or when snapshot parts are there that no manifest lists and the journal does not cover (a
 * deleted snapshot.json): those hold data, so the store refuses to start rather than lose them.
 * `readOnly`: nothing is written (no lock, no clean-up, a torn tail left as it is); commits are refused.
 */
export async function openStore(dir: string, hooks: StoreHooks, options: StoreOptions = {}): Promise<Store> {
  const warn = hooks.warn?.bind(hooks) ?? ((message: string) => console.warn(message));
  const readOnly = options.readOnly === true;
  if (readOnly) {
    if (!fs.existsSync(dir)) throw new Error(`store: no store at ${dir} (a read-only start needs one)`);
  } else {
    await fsp.mkdir(dir, { recursive: true }).catch((err: unknown) => {
      throw startError(nameFile(err, dir));
    });
  }
  let lock: { release(): void } = { release() {} };
  if (!readOnly) {
    try {
      lock = acquireLock(dir, warn);
    } catch (err) {
      throw startError(nameFile(err, path.join(dir, LOCK_FILE)));
    }
  }
  let journal: Journal | undefined;
  try {
    const manifest = await readManifest(dir);
    const journalPath = path.join(dir, JOURNAL_FILE);
    const { scan, snapshotSeq, cut } = await loadState(dir, manifest, hooks, warn, {
      readOnly,
      hashWorkerMinBytes: options.hashWorkerMinBytes,
    });
    const journalLines = (scan?.lines ?? 0) > 0;
    await placeUnlistedParts(dir, manifest, scan?.lastSeq ?? 0, journalLines, readOnly, warn);

    const store = new DurableStore(
      dir,
      hooks,
      options,
      warn,
      lock.release,
      manifest,
      Math.max(snapshotSeq, scan?.lastSeq ?? 0),
    );
    if (readOnly) return store;
    journal = await Journal.open(journalPath, scan?.bytes ?? 0, {
      seq: store.seq,
      testPoint: options.testPoint,
      onFlushed: () => store.maybeAutoCompact(),
      onFailed: (fault) => store.failed(fault),
    });
    store.journal = journal;
    // A crash between a snapshot's manifest and its journal rewrite leaves lines the snapshot
    // holds: drop them now, so new lines continue right after the snapshot's seq.
    if (scan && scan.lines > 0 && scan.firstSeq <= snapshotSeq) await journal.rewriteFrom(cut < 0 ? scan.bytes : cut);
    await removeLeftovers(dir, manifest, journalLines ? Infinity : Math.max(snapshotSeq, scan?.lastSeq ?? 0), warn);
    return store;
  } catch (err) {
    await journal?.close().catch(() => {});
    lock.release();
    throw startError(err);
  }
}

class DurableStore implements Store, CompactionHost {
  readonly dir: string;
  /** (undefined in a read-only store) */
  journal!: Journal;
  private seqValue: number;
  manifest: SnapshotManifest | undefined;
  private readonly hooks: StoreHooks;
  private readonly options: StoreOptions;
  readonly warn: (message: string) => void;
  private readonly releaseLock: () => void;
  private readonly compactor: Compactor;
  private closed: Promise<void> | undefined;
  readonly readOnly: boolean;

  constructor(
    dir: string,
    hooks: StoreHooks,
    options: StoreOptions,
    warn: (message: string) => void,
    releaseLock: () => void,
    manifest: SnapshotManifest | undefined,
    seq: number,
  ) {
    this.dir = dir;
    this.hooks = hooks;
    this.options = options;
    this.warn = warn;
    this.releaseLock = releaseLock;
    this.manifest = manifest;
    this.seqValue = seq;
    this.compactor = new Compactor(this, options);
    this.readOnly = options.readOnly === true;
  }

  get seq(): number {
    return this.seqValue;
  }

  get stats(): StoreStats {
    return {
      ...(this.journal?.stats ?? { commits: 0, flushes: 0, bytes: 0 }),
      compactions: this.compactor.compactions,
    };
  }

  get fault(): StoreFault | undefined {
    return this.journal?.failed?.fault;
  }

  snapshotChunks(): Iterable<unknown> {
    return this.hooks.snapshotChunks();
  }

  /** The journal failed: the writes it refused were never durable, so the seq goes back. */
  failed(fault: StoreFault): void {
    this.seqValue = this.journal.durableSeq;
    this.warn(
      `store: ${fault.message}; writes are refused until the disk takes them again (checked every few seconds)`,
    );
  }

  recover(): Promise<boolean> {
    if (this.readOnly || this.closed) return Promise.resolve(false);
    const was = this.journal.failed;
    return this.journal.recover().then((ok) => {
      if (ok && was)
        this.warn(`store: ${this.journal.file} takes writes again (after ${was.fault.message}); writes resume`);
      return ok;
    });
  }

  async reload(hooks: Pick<StoreHooks, 'loadSnapshot' | 'replay'>): Promise<void> {
    // (a failure during the reload makes the journal's positions move back further: read again)
    for (;;) {
      const epoch = this.journal.epoch;
      await loadState(this.dir, this.manifest, hooks, this.warn, { readOnly: true, limit: this.journal.durableBytes });
      if (epoch === this.journal.epoch) return;
    }
  }

  info(): StoreInfo {
    const m = this.manifest;
    return {
      journalBytes: this.journal?.durableBytes ?? fileSize(path.join(this.dir, JOURNAL_FILE)),
      snapshot: m && { seq: m.seq, createdAt: m.createdAt, bytes: m.parts.reduce((n, p) => n + p.bytes, 0) },
      compactError: this.compactor.error,
    };
  }

  commit(ops: Op[], meta: { time?: string; author?: number } = {}): Promise<number> {
    if (this.closed) return Promise.reject(new Error(`store: ${this.dir} is closed`));
    if (this.readOnly) return Promise.reject(new Error(`store: ${this.dir} is open read-only`));
    if (this.journal.failed) return Promise.reject(this.journal.failed);
    const seq = this.seqValue + 1;
    // time and author (for the change feed) follow seq and ops: lines without them still read
    const line = journalLine(JSON.stringify({ seq, ops, ...meta })); // before taking the seq: a throw here leaves no gap
    this.seqValue = seq;
    return this.journal.append(line, seq);
  }

  compact(opts: CompactOptions = {}): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`store: ${this.dir} is closed`));
    if (this.readOnly) return Promise.reject(new Error(`store: ${this.dir} is open read-only`));
    return this.compactor.run(opts);
  }

  /** Called after every flush: start a compaction once the journal passes compactBytes. */
  maybeAutoCompact(): void {
    if (!this.closed) this.compactor.maybeAuto();
  }

  beginSnapshot(): SnapshotStream {
    return new SnapshotStream(this.dir, this.seqValue, this.options.partBytes);
  }

  close(): Promise<void> {
    this.closed ??= (async () => {
      try {
        await this.compactor.settled;
        await this.journal?.close();
      } finally {
        this.releaseLock();
      }
    })();
    return this.closed;
  }
}

function fileSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}
