// The write log of a store directory, over the store's public methods (src/store/store.ts): each
// write one journal line made durable (group commit + fdatasync), an import and a compaction a
// snapshot. A disk that refuses writes is a fault the guard handles (src/faults/guard.ts): writes
// refused meanwhile, the refused ones taken back by rebuilding the state from the disk; any other
// journal failure stops the writes for good.
import type { Engine } from '../engine/engine.ts';
import type { Op } from '../engine/records.ts';
import { type CalendarError, fail } from '../api/wordpress/errors.ts';
import type { RestCall } from '../api/wordpress/types.ts';
import { describeWrite, type HeldChange } from '../changes/feed.ts';
import { storeGuard, type StoreGuard } from '../faults/guard.ts';
import type { SnapshotStream } from '../store/snapshot-stream.ts';
import { openStore, type Store } from '../store/store.ts';
import type { BulkLoadOptions, Forwarded, LogHealth, LogHost, WriteLog, WriteMeta } from './log.ts';

export class StoreLog implements WriteLog {
  readonly nodeInfo = undefined;
  /** refuses writes while the store's disk fails, and takes back what it refused (src/faults/) */
  readonly guard: StoreGuard;
  private host: LogHost | undefined;
  /** the engine the calendar serves from, which a compaction snapshots (a fault's rebuild
   *  replaces it) */
  engine: Engine;
  /** a journal write failed with no fault the guard knows: writes are refused from then on */
  private broken: Error | undefined;

  constructor(
    readonly store: Store,
    engine: Engine,
    probeMs?: number,
  ) {
    this.engine = engine;
    this.guard = storeGuard(
      store,
      (fresh) => {
        this.engine = fresh;
        this.host?.replaceEngine(fresh);
      },
      probeMs,
    );
  }

  /** The calendar whose engine a fault's rebuilt state replaces. */
  start(host: LogHost): void {
    this.host = host;
  }

  get seq(): number {
    return this.store.seq;
  }

  get makesWrites(): boolean {
    return this.broken === undefined;
  }

  refusal(): CalendarError | undefined {
    return this.guard.refusal();
  }

  async run<T>(_call: RestCall, here: () => Promise<T>, _there: (done: Forwarded) => Promise<T>): Promise<T> {
    await this.guard.ready();
    return here();
  }

  whenOpen(): undefined {
    return undefined;
  }

  nextSeq(): number {
    if (this.broken) throw fail('internal_error');
    const refusal = this.guard.refusal(); // before anything is applied
    if (refusal) throw refusal;
    return this.store.seq + 1;
  }

  /** A failed journal write stops further writes; one the disk refused is a fault, taken back. */
  append(_seq: number, ops: Op[], meta: WriteMeta): Promise<void> {
    return this.store.commit(ops, meta).then(
      () => undefined,
      (err: Error) => {
        const fault = this.guard.failed(err); // the disk refused it: taken back from memory, writes refused meanwhile
        if (fault) throw fault;
        this.broken = err;
        console.error(`calendar-engine: journal write failed, refusing further writes: ${err.message}`);
        throw fail('internal_error');
      },
    );
  }

  /** An import is durable once its snapshot is: one the disk refuses is taken back. */
  async bulkLoad(load: () => void, opts: BulkLoadOptions = {}): Promise<undefined> {
    const refusal = this.guard.refusal();
    if (refusal) throw refusal;
    load();
    const { alone, streamed } = opts;
    await this.store
      .compact({ alone, ...(streamed && { streamed: { stream: streamed.stream, head: await streamed.head() } }) })
      .catch((err) => {
        throw this.guard.failed(err) ?? err;
      });
    return undefined;
  }

  beginSnapshot(): SnapshotStream {
    return this.store.beginSnapshot();
  }

  snapshot(): Promise<void> {
    // an explicit snapshot holds the search index and block statistics: finished first if need be
    this.engine.finishIndexes();
    return this.store.compact();
  }

  async shutdownSnapshot(): Promise<void> {
    // a store opened read-only, or whose disk fails, refuses writes (refusal) and keeps its journal,
    // which holds every write
    if (this.refusal()) return;
    // the snapshot on disk is the calendar when no write came after it: not written again (at
    // ten million events a snapshot takes about a minute, and finishing a word index first
    // another 40 s, past a service manager's stop timeout)
    const on = this.store.info().snapshot;
    if (on !== undefined && on.seq === this.store.seq) return;
    await this.store.compact();
  }

  health(seq: number, warnings: string[]): LogHealth {
    return this.guard.health(seq, warnings);
  }

  async close(): Promise<void> {
    this.guard.stop();
    await this.store.close();
  }
}

/** A store directory opened into `engine` (empty): its snapshot loaded, then its journal replayed
 *  through the same engine.apply as live writes. `replayed`: the changes of the replayed writes
 *  (those since the snapshot), for the change feed. */
export async function openStoreLog(
  dir: string,
  engine: Engine,
  opts: { readOnly?: boolean; compactBytes?: number; faultProbeMs?: number },
): Promise<{ log: StoreLog; replayed: Array<{ seq: number; held: HeldChange[] }> }> {
  const replayed: Array<{ seq: number; held: HeldChange[] }> = [];
  let log: StoreLog | undefined;
  const store = await openStore(
    dir,
    {
      loadSnapshot: (chunks) => engine.loadSnapshotChunks(chunks),
      replay: (write) => {
        replayed.push({
          seq: write.seq,
          held: describeWrite(engine, write.ops, write.seq, write.time ?? '', write.author ?? 0),
        });
        engine.apply(write.ops);
      },
      // the engine served now: after a fault the state is rebuilt into a new one
      snapshotChunks: () => (log?.engine ?? engine).snapshotChunks(),
      // the engine's snapshotChunks() copies its columns when called and builds chunks from the
      // copies: compaction pauses writers for that copy only
    },
    {
      detachedChunks: true,
      readOnly: opts.readOnly,
      ...(opts.compactBytes ? { compactBytes: opts.compactBytes } : {}),
    },
  );
  // the snapshot load left the block statistics and the search index to be built: now, between requests
  engine.warmInBackground();
  log = new StoreLog(store, engine, opts.faultProbeMs);
  return { log, replayed };
}
