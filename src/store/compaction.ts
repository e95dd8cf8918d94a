// A store's compaction: the state captured at a consistent point and written as a snapshot while
// commits keep appending, its manifest committed once every write it holds is durable, then the
// journal cut back to the lines after it. One compaction runs at a time (the next one waits for
// it); an automatic one starts once the journal passes compactBytes.
import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Journal, TestPointHook } from './journal.ts';
import {
  SNAPSHOT_FILE,
  commitParts,
  encodeChunks,
  writeParts,
  encodeChunksSliced,
  encodeDetachedChunks,
  removeUnlistedParts,
  partSeq,
  unlistedParts,
  type SnapshotManifest,
  type SnapshotPart,
} from './snapshot.ts';
import type { SnapshotStream } from './snapshot-stream.ts';

/** Journal size that triggers an automatic compaction. */
export const DEFAULT_COMPACT_BYTES = 64 * 1024 * 1024;

export interface CompactOptions {
  /** nothing else writes to the store meanwhile (the import command): the snapshot is synced once
   *  at the end of each part rather than block by block (which keeps concurrent commits from
   *  waiting behind its dirty pages); equally durable once compact() resolves */
  alone?: boolean;
  /** the snapshot's events are already written, or being written, by `stream` (begun by
   *  beginSnapshot(), with nothing written to the store since): only `head` (the chunks that go
   *  before them, made now) is written here, as part 0, then the manifest lists it and the
   *  stream's parts */
  streamed?: { stream: SnapshotStream; head: Iterable<unknown> };
}

/** The store options a compaction reads (store.ts's StoreOptions describes them). */
export interface CompactionSettings {
  compactBytes?: number;
  partBytes?: number;
  stableChunks?: boolean;
  detachedChunks?: boolean;
  testPoint?: TestPointHook;
}

/** What a compaction reads and sets of its store. */
export interface CompactionHost {
  readonly dir: string;
  readonly journal: Journal;
  /** the seq of the newest write in memory */
  readonly seq: number;
  /** the committed snapshot's manifest: a compaction replaces it */
  manifest: SnapshotManifest | undefined;
  /** the state as JSON-able chunks, captured when called (StoreHooks.snapshotChunks) */
  snapshotChunks(): Iterable<unknown>;
  warn(message: string): void;
}

export class Compactor {
  /** completed compactions */
  compactions = 0;
  /** the last compaction's failure, until one succeeds */
  error: string | undefined;
  private readonly bytes: number;
  private autoAt: number;
  private chain: Promise<void> = Promise.resolve();
  private running = 0;

  constructor(
    private readonly host: CompactionHost,
    private readonly settings: CompactionSettings,
  ) {
    this.bytes = settings.compactBytes === undefined ? DEFAULT_COMPACT_BYTES : settings.compactBytes || Infinity;
    this.autoAt = this.bytes;
  }

  /** Settles once no compaction runs or waits. */
  get settled(): Promise<void> {
    return this.chain;
  }

  run(opts: CompactOptions = {}): Promise<void> {
    // Idle: capture right now, in the caller's tick. Busy: capture when the running one is done.
    const run = (this.running === 0 ? this.now(opts) : this.chain.then(() => this.now(opts))).finally(
      () => this.running--,
    );
    this.running++;
    this.chain = run.catch(() => {});
    return run;
  }

  /** Called after every flush: start a compaction once the journal passes compactBytes. */
  maybeAuto(): void {
    if (this.running > 0 || this.host.journal.writtenBytes < this.autoAt) return;
    this.run().catch((err: Error) => {
      // retry only after another compactBytes of journal, not after every flush
      this.autoAt = this.host.journal.writtenBytes + this.bytes;
      this.host.warn(
        `store: automatic compaction of ${this.host.dir} failed (the journal still holds every write): ${err.message}`,
      );
    });
  }

  private async now(opts: CompactOptions): Promise<void> {
    try {
      await this.once(opts);
      this.error = undefined;
    } catch (err) {
      this.error = (err as Error).message;
      throw err;
    }
  }

  private async once(opts: CompactOptions): Promise<void> {
    const { host, settings } = this;
    const journal = host.journal;
    if (journal.failed) throw journal.failed;
    const epoch = journal.epoch;
    // The consistent point: seq, journal position and state are read in one synchronous block.
    // Every write with seq <= `seq` is in memory (callers apply in the commit's tick) and its
    // line lies before byte `cut` of the journal; every later write lies after it.
    const seq = host.seq;
    const cut = journal.queuedBytes;
    let lines: string[] | AsyncIterable<string>;
    if (opts.streamed) {
      const { stream, head } = opts.streamed;
      if (stream.seq !== seq)
        throw new Error(`store: a snapshot streamed from seq ${stream.seq} cannot hold the writes up to seq ${seq}`);
      // the head is one part, part 0 (a part closes only past partBytes), before the stream's 1, 2...
      const headParts = await writeParts(host.dir, seq, stream.tag, encodeChunks(head), {
        partBytes: Infinity,
        syncEachBlock: false,
      });
      await this.commitSnapshot(seq, [...headParts, ...(await stream.parts())], cut, epoch);
      return this.afterSnapshot(cut);
    }
    if (settings.detachedChunks) {
      const chunks = host.snapshotChunks(); // the capture: the state as of this tick
      lines = encodeDetachedChunks(chunks); // encoded as they are written
    } else if (settings.stableChunks) {
      const chunks = [...host.snapshotChunks()];
      lines = await encodeChunksSliced(chunks);
    } else {
      lines = encodeChunks(host.snapshotChunks());
    }
    // From here on, writers run freely: the snapshot is written while commits keep appending.
    const tag = randomBytes(4).toString('hex');
    let parts: SnapshotPart[];
    try {
      parts = await writeParts(host.dir, seq, tag, lines, {
        partBytes: settings.partBytes,
        testPoint: settings.testPoint,
        syncEachBlock: !opts.alone,
      });
    } catch (err) {
      await this.dropParts(seq, tag);
      throw err;
    }
    await this.commitSnapshot(seq, parts, cut, epoch);
    return this.afterSnapshot(cut);
  }

  /** The manifest listing `parts` (the state up to `seq`) is committed only once every write up
   *  to `seq` is durable: a snapshot must never hold a write whose journal line then failed (the
   *  calendar forgets those). Otherwise its parts are removed, and nothing else changes. */
  private async commitSnapshot(seq: number, parts: SnapshotPart[], cut: number, epoch: number): Promise<void> {
    try {
      await this.host.journal.durableTo(cut, epoch);
      this.host.manifest = await commitParts(this.host.dir, seq, parts, this.settings.testPoint);
    } catch (err) {
      await this.dropParts(seq, parts[0]?.file.split('.')[2] ?? '');
      throw err;
    }
  }

  /** Removes the parts of a snapshot that was not committed (they are listed nowhere). */
  private async dropParts(seq: number, tag: string): Promise<void> {
    const prefix = `snapshot.${seq}.${tag}.`;
    const dir = this.host.dir;
    for (const name of await unlistedParts(dir, this.host.manifest).catch(() => [] as string[])) {
      if (name.startsWith(prefix) && partSeq(name) === seq) await fsp.unlink(path.join(dir, name)).catch(() => {});
    }
  }

  /** The new snapshot is committed (host.manifest): the journal keeps only what came after `cut`. */
  private async afterSnapshot(cut: number): Promise<void> {
    const dir = this.host.dir;
    this.settings.testPoint?.('snapshot:manifest', { path: path.join(dir, SNAPSHOT_FILE) });
    // A crash from here until the rename inside rewriteFrom leaves the old journal: replay skips seq <= `seq`.
    await this.host.journal.rewriteFrom(cut);
    this.autoAt = this.bytes;
    await removeUnlistedParts(dir, this.host.manifest);
    this.compactions++;
  }
}
