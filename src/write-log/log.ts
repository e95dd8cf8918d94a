// The write-log seam: where a calendar's writes go once they are applied to its engine. A
// calendar runs every write the same way whatever holds it: the log says where and when the write
// runs (run), gives it its seq (nextSeq), the ops are applied to the engine in that tick, then the
// log makes them durable (append) and the write is acknowledged. Three logs implement it:
// memory.ts (a calendar without a store numbers its writes itself), store.ts (the journal and the
// snapshots of a store directory, src/store/) and the cluster node (a JetStream stream,
// src/cluster/node.ts).
import type { Engine } from '../engine/engine.ts';
import type { Op, Write } from '../engine/records.ts';
import type { CalendarError } from '../api/wordpress/errors.ts';
import type { RestCall, RestResult } from '../api/wordpress/types.ts';
import type { SnapshotStream } from '../store/snapshot-stream.ts';
import type { StoreHealth } from '../faults/guard.ts';

/** When and by whom a write was made (kept with its ops: the change feed reads them back). */
export interface WriteMeta {
  time: string;
  author: number;
}

/** A write another node ran (a cluster follower's writes run on the writer): its answer, and the
 *  seq this calendar reflects it at. */
export interface Forwarded {
  result: RestResult;
  seq: number;
}

export interface BulkLoadOptions {
  /** nothing else uses the calendar meanwhile (the import command): the snapshot does not pause
   *  for concurrent writers */
  alone?: boolean;
  /** the snapshot goes to a stream begun by beginSnapshot(); `head`, called once the load is
   *  done: hands the stream its chunks (the events and what follows them), then gives the chunks
   *  that go before them */
  streamed?: { stream: SnapshotStream; head: () => Iterable<unknown> | Promise<Iterable<unknown>> };
}

/** What the health route says of the log: a store's state in full, anything else just ok. */
export type LogHealth = StoreHealth | { status: 'ok'; seq: number };

export interface WriteLog {
  /** the seq of the newest write in the engine (assigned when applied: it may not be durable yet) */
  readonly seq: number;
  /** false while this calendar makes no writes of its own: a cluster node that is not the
   *  writer, a store whose journal failed for good */
  readonly makesWrites: boolean;
  /** a cluster node's id and role (`ID; role=writer` or `ID; role=follower`); undefined elsewhere */
  readonly nodeInfo: string | undefined;
  /** The error a write must be refused with right now, before anything is applied: the store is
   *  read-only, or its disk fails (src/faults/). */
  refusal(): CalendarError | undefined;
  /** Runs a write call: `here` on this calendar, once writes may run (a store with a fault probes
   *  its disk first; a cluster writer waits while it captures a snapshot) and in that same tick;
   *  or, on a cluster node that is not the writer, on the writer: `there` gets its answer. */
  run<T>(call: RestCall, here: () => Promise<T>, there: (done: Forwarded) => Promise<T>): Promise<T>;
  /** Resolves once new writes may start (a cluster writer pauses them to capture a snapshot);
   *  undefined when they may now. */
  whenOpen(): Promise<void> | undefined;
  /** The seq of the next write, which the caller applies in this tick and then appends; throws
   *  the error the write is refused with (see refusal(), makesWrites). */
  nextSeq(): number;
  /** Appends the write applied as `seq`; resolves once it is durable (undefined: it is already, as
   *  in memory). Rejects with a CalendarError when it is not; the engine then holds a write the log
   *  lacks, and the log takes it back (rebuilds the engine through its host) or refuses further
   *  writes. */
  append(seq: number, ops: Op[], meta: WriteMeta): Promise<void> | undefined;
  /** An import: `load` bulk-loads the engine (on a cluster's writer, with writes paused), then the
   *  log makes the result durable as a snapshot. Resolves with the seq the import took in the log
   *  (a cluster's marker, which every node loads) or undefined (it took none). */
  bulkLoad(load: () => void, opts?: BulkLoadOptions): Promise<number | undefined>;
  /** A snapshot an import into an empty calendar streams its events to as it reads them (a store
   *  only; see BulkLoadOptions.streamed). */
  beginSnapshot?(): SnapshotStream;
  /** A snapshot of the engine as the log keeps them (a store compacts its journal); no-op in memory. */
  snapshot(): Promise<void>;
  /** The snapshot a server writes at shutdown: a store's, with the indexes as they are (none built
   *  for it), unless the one on disk holds every write, the store is read-only or its disk failed
   *  (the journal holds every write); none in memory, nor from a cluster's node (its writer
   *  snapshots on its own schedule, and a node leaving needs none). */
  shutdownSnapshot(): Promise<void>;
  /** The log's state for the health route, at the calendar's `seq`; `warnings`: faults of the
   *  files kept beside it, which refuse no write. */
  health(seq: number, warnings: string[]): LogHealth;
  /** Stops taking writes and releases what the log holds (the store's lock, the NATS connection). */
  close(): Promise<void>;
}

/** What a log reaches of the calendar whose writes it carries (the calendar's internal handle). */
export interface LogHost {
  readonly engine: Engine;
  /** a write from the log that this calendar did not make (a cluster node following the stream) */
  applyWrite(write: Write): void;
  /** Serve from `engine` from now on: the state rebuilt from the log; `seq`: the snapshot it was
   *  rebuilt from (a cluster node), left out when the seq does not move (a store's fault). */
  replaceEngine(engine: Engine, seq?: number): void;
  /** a write call run on this calendar (the writer runs those forwarded by other nodes) */
  runHere(call: RestCall): Promise<RestResult>;
}
