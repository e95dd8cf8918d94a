// One node of a clustered calendar (docs/cluster.md). The log is a JetStream stream (R3): every
// node applies it in order to its own engine and serves reads; the one node holding the writer
// lease (lease.ts) validates writes, applies them at once (as the single process does) and
// appends them with the expected last sequence, acknowledging a client only once JetStream has
// stored the append on a quorum. A deposed writer's late append is rejected by the server; a node
// whose state ever differs from the log (an append of its own rejected, a gap) rebuilds from the
// newest snapshot (snapshots.ts) plus the stream after it.
//
// This file is the writer's side; the following and rebuilding every node does is replica.ts.
import type { Subscription } from '@nats-io/transport-node';
import { randomBytes } from 'node:crypto';
import type { Op } from '../engine/records.ts';
import { fail } from '../api/wordpress/errors.ts';
import type { RestCall, RestResult } from '../api/wordpress/types.ts';
import { answerForwarded, notWriter, sleep } from './forward.ts';
import { Lease } from './lease.ts';
import { pruneSnapshots, putSnapshot } from './snapshots.ts';
import { openResources } from './resources.ts';
import type { BulkLoadOptions, Forwarded, LogHealth, LogHost, WriteLog } from '../write-log/log.ts';
import { type ClusterOptions, type LogEntry, Replica } from './replica.ts';

export type { ClusterOptions } from './replica.ts';

const WRONG_LAST_SEQ = 10071;
/** the queue group of the writer's subscription to forwarded writes */
const WRITER_QUEUE = 'writer';

export class ClusterNode extends Replica implements WriteLog {
  private writeSub: Subscription | undefined;
  private inFlight = 0;
  /** appends of this node that failed: until it has rebuilt, its engine may hold writes the log lacks */
  private appendFailures = 0;
  /** random, new each time this node becomes the writer: part of its appends' message ids */
  private term = '';
  private idle: Array<() => void> = [];
  private snapshotting: Promise<void> | undefined;
  /** set while the writer pauses new writes (the capture of a snapshot) */
  gate: Promise<void> | undefined;
  /** hear this node become the writer (true) and stop being it (false): the media library's
   *  forwarded uploads (src/cluster/media.ts) */
  readonly roleListeners = new Set<(writer: boolean) => void>();
  /** run when the node closes, before its connection drains */
  readonly closers: Array<() => Promise<void>> = [];

  /** Connects and makes sure the stream and the buckets exist (resources.ts). */
  static async connect(opts: ClusterOptions): Promise<ClusterNode> {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(opts.name ?? '')) {
      throw fail('invalid_option', [
        `cluster.name must be 1-64 letters, digits, '_' or '-', got ${JSON.stringify(opts.name)}`,
      ]);
    }
    const r = await openResources(opts);
    return new ClusterNode(opts, r.nc, r.js, r.jsm, r.kv, r.os, r.users);
  }

  /** Starts following the stream and standing for writer. */
  start(host: LogHost): void {
    this.host = host;
    this.lease = new Lease(
      this.kv,
      this.node,
      this.opts.leaseMs ?? 3_000,
      {
        acquired: () => void this.becomeWriter(),
        lost: (reason) => this.stepDown(reason),
        holderChanged: () => {
          this.forwarder.writerChanged();
          for (const fn of this.holderListeners) fn();
        },
      },
      () => this.opts.writer !== false && !this.resyncing && this.role !== 'stopped',
    );
    this.follow();
    this.watch();
    this.lease.start();
  }

  /**
   * An import on the writer: with new writes paused and none in flight, `load` bulk-loads the
   * engine; the result is written as snapshot snap-<seq> and a marker appended at seq, from
   * which every node loads it. Resolves once the marker is stored.
   */
  async bulkLoad(load: () => void, _opts?: BulkLoadOptions): Promise<number> {
    if (!this.isWriter) {
      throw fail(
        'rest_cluster_not_writer',
        [],
        {},
        {
          status: 409,
          message: `Imports into a cluster run on the writer node (${this.writer ?? 'none right now'}), not on node ${this.node}.`,
        },
      );
    }
    let open!: () => void;
    while (this.gate) await this.gate;
    this.gate = new Promise((resolve) => (open = resolve));
    try {
      while (this.inFlight > 0) await this.whenIdle();
      load();
      const seq = this.nextSeq();
      await putSnapshot(this.os, seq, this.host.engine.snapshotChunks());
      try {
        const ack = await this.js.publish(this.subject, JSON.stringify({ ops: [], load: seq } satisfies LogEntry), {
          expect: { lastSequence: seq - 1 },
          msgID: this.msgId(seq),
        });
        if (ack.seq !== seq) throw new Error(`stored as seq ${ack.seq}`);
      } catch (err) {
        void this.resync(`the import's marker at seq ${seq} was not stored: ${(err as Error).message}`);
        throw fail(
          'rest_cluster_write_failed',
          [],
          {},
          { message: 'The import was not stored: this node is no longer the writer or the log is unreachable.' },
        );
      }
      this.snapshotSeq = seq;
      this.writesSinceSnapshot = 0;
      await this.prune(seq);
      return seq;
    } finally {
      this.gate = undefined;
      open();
    }
  }

  /** The id of this node's append of `seq` (JetStream drops a message whose id it has seen within
   *  2 minutes, answering with the first one's seq: a timed-out append is sent again under it).
   *  Unique to this term: a node writer again may append another write at a seq it once tried (a
   *  timed-out append); a late-stored copy of that attempt must not make the new one look stored. */
  private msgId(seq: number): string {
    const id = `${this.node}.${this.term}.${seq}`;
    this.own.set(seq, id);
    return id;
  }

  // ---- the writer -------------------------------------------------------------------------

  private async becomeWriter(): Promise<void> {
    try {
      const info = await this.jsm.streams.info(this.stream);
      const last = info.state.last_seq;
      const until = Date.now() + (this.opts.leaseMs ?? 3_000);
      while (this.applied < last && Date.now() < until && this.lease.held) await sleep(5);
      if (!this.lease.held || this.applied !== last || this.resyncing) {
        await this.lease.release(`could not catch up to seq ${last} (at ${this.applied})`);
        return;
      }
      this.term = randomBytes(4).toString('hex');
      this.role = 'writer';
      this.stats.electedAt = Date.now();
      // a queue group: a request reaches one subscriber only (a writer that just lost its lease,
      // still subscribed, answers "not the writer" and the follower sends it again: with plain
      // subscriptions the new writer got the first copy too, and ran the write twice)
      this.writeSub = this.nc.subscribe(this.restSubject, {
        queue: WRITER_QUEUE,
        callback: (_err, msg) => {
          void answerForwarded(
            msg.data,
            (call) => (this.isWriter ? this.whenOpenRun(() => this.host.runHere(call)) : Promise.reject(notWriter())),
            () => this.applied,
          ).then((reply) => msg.respond(reply));
        },
      });
      for (const fn of this.roleListeners) fn(true);
      this.warn(`cluster ${this.opts.name}: node ${this.node} is the writer from seq ${last + 1}`);
    } catch (err) {
      await this.lease.release(`could not take over: ${(err as Error).message}`);
    }
  }

  protected stepDown(reason: string): void {
    if (this.role !== 'writer') return;
    this.role = 'follower';
    this.writeSub?.unsubscribe();
    this.writeSub = undefined;
    for (const fn of this.roleListeners) fn(false);
    this.warn(`cluster ${this.opts.name}: node ${this.node} is no longer the writer: ${reason}`);
  }

  // ---- the write log (src/write-log/log.ts) -------------------------------------------------

  get seq(): number {
    return this.applied;
  }

  get makesWrites(): boolean {
    return this.isWriter;
  }

  get nodeInfo(): string {
    return `${this.node}; role=${this.isWriter ? 'writer' : 'follower'}`;
  }

  /** A node refuses no write by itself: one that is not the writer forwards it (run) or throws
   *  rest_cluster_not_writer (nextSeq, bulkLoad). */
  refusal(): undefined {
    return undefined;
  }

  /** A write runs on the writer: here, after any pause for a snapshot's capture, or sent there. */
  run<T>(call: RestCall, here: () => Promise<T>, there: (done: Forwarded) => Promise<T>): Promise<T> {
    if (!this.isWriter) return this.forward(call).then(there);
    return this.whenOpenRun(here);
  }

  private async whenOpenRun<T>(here: () => Promise<T>): Promise<T> {
    while (this.gate) await this.gate;
    return here();
  }

  whenOpen(): Promise<void> | undefined {
    if (!this.gate) return undefined;
    return (async () => {
      while (this.gate) await this.gate;
    })();
  }

  health(seq: number): LogHealth {
    return { status: 'ok', seq };
  }

  /** The seq for the next write (the caller applies it in this tick, then calls append). */
  nextSeq(): number {
    if (!this.isWriter) throw notWriter();
    return ++this.applied;
  }

  /** Appends the write made as `seq`; resolves once JetStream stored it on a quorum. */
  async append(seq: number, ops: Op[], meta: { time: string; author: number }): Promise<void> {
    const data = JSON.stringify({ ops, time: meta.time, author: meta.author } satisfies LogEntry);
    const msgID = this.msgId(seq); // the same for every attempt
    this.inFlight++;
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          const ack = await this.js.publish(this.subject, data, { expect: { lastSequence: seq - 1 }, msgID });
          if (ack.seq !== seq) throw new Error(`stored as seq ${ack.seq}, expected ${seq}`);
          this.stats.appends++;
          this.writesSinceSnapshot++;
          this.maybeSnapshot();
          return;
        } catch (err) {
          const code =
            (err as { api_error?: { err_code?: number } }).api_error?.err_code ?? (err as { code?: unknown }).code;
          const rejected =
            code === WRONG_LAST_SEQ ||
            code === String(WRONG_LAST_SEQ) ||
            /wrong last sequence/i.test((err as Error).message);
          // a timeout may or may not have stored it: the same msg id again is deduplicated
          if (!rejected && attempt < 2 && this.isWriter) continue;
          this.appendFailures++;
          void this.resync(`append of seq ${seq} failed: ${(err as Error).message}`);
          // rejected: certainly not in the log; anything else (a timeout while NATS lost its
          // quorum...) may still be committed once the quorum is back
          if (rejected) throw fail('rest_cluster_write_failed', [], { seq });
          throw fail(
            'rest_cluster_write_unknown',
            [],
            { seq },
            {
              message:
                'The log did not acknowledge the write in time (NATS unreachable or without quorum): it may or may not be made. Check before retrying.',
            },
          );
        }
      }
    } finally {
      if (--this.inFlight === 0) for (const fn of this.idle.splice(0)) fn();
    }
  }

  protected whenIdle(): Promise<void> {
    return this.inFlight === 0 ? Promise.resolve() : new Promise((resolve) => this.idle.push(resolve));
  }

  /**
   * A write that reached this node while another is the writer, run there over NATS
   * request/reply (forward.ts). Resolves with the result and the seq it reflects.
   */
  forward(call: RestCall): Promise<{ result: RestResult; seq: number }> {
    return this.forwarder.forward(call);
  }

  // ---- snapshots ----------------------------------------------------------------------------

  private maybeSnapshot(): void {
    const every = this.opts.snapshotEvery ?? 100_000;
    if (every > 0 && this.writesSinceSnapshot >= every && !this.snapshotting) {
      this.snapshot().catch((err: Error) => this.warn(`cluster ${this.opts.name}: snapshot failed: ${err.message}`));
    }
  }

  /** None at a server's shutdown: the writer snapshots on its own schedule (maybeSnapshot), and a
   *  node leaving needs none. */
  async shutdownSnapshot(): Promise<void> {}

  /**
   * A snapshot of this node's state into the object store, then the old ones pruned and the
   * stream purged below the oldest kept. On the writer, new writes wait while the state is
   * captured (after the appends in flight are stored): a snapshot never holds a write the log
   * does not. When one of those appends failed (rejected: another node wrote that seq; or
   * unanswered), or the node is rebuilding its state, nothing is written: its engine holds writes
   * the log may lack until it has rebuilt (such a snapshot, loaded by a node starting or
   * rebuilding, would replace acknowledged writes of the next writer with the rejected ones).
   */
  snapshot(): Promise<void> {
    this.snapshotting ??= (async () => {
      const failures = this.appendFailures;
      let seq: number;
      let chunks: Iterable<unknown>;
      if (this.role === 'writer') {
        let open!: () => void;
        this.gate = new Promise((resolve) => (open = resolve));
        try {
          while (this.inFlight > 0) await this.whenIdle();
          seq = this.applied; // in the same tick as the check: nothing in flight
          chunks = this.host.engine.snapshotChunks();
        } finally {
          this.gate = undefined;
          open();
        }
      } else {
        seq = this.applied;
        chunks = this.host.engine.snapshotChunks();
      }
      this.writesSinceSnapshot = 0;
      if (this.resyncing || this.appendFailures !== failures) {
        this.warn(
          `cluster ${this.opts.name}: node ${this.node}: no snapshot at seq ${seq}: an append failed, the state is being rebuilt from the log`,
        );
        return;
      }
      if (seq === 0 || seq <= this.snapshotSeq) return;
      await putSnapshot(this.os, seq, chunks);
      this.snapshotSeq = seq;
      this.stats.snapshots++;
      await this.prune(seq);
    })().finally(() => {
      this.snapshotting = undefined;
    });
    return this.snapshotting;
  }

  /** Old snapshots deleted (pruneSnapshots), the stream purged below the oldest kept. */
  private async prune(stored: number): Promise<void> {
    const oldest = await pruneSnapshots(this.os, Math.max(1, this.opts.keepSnapshots ?? 2), stored);
    await this.jsm.streams.purge(this.stream, { seq: oldest + 1 });
  }

  async close(): Promise<void> {
    if (this.role === 'stopped') return;
    this.stepDown('closing');
    await this.whenIdle();
    await this.lease?.stop();
    this.role = 'stopped';
    clearInterval(this.watchdog);
    this.generation++;
    this.messages?.stop();
    this.users.stop();
    // what still reads or writes the object store and the buckets ends before the connection
    // drains: nats.js starts a consumer's idle-heartbeat timer (a ref'd 30 s interval for the
    // object store's) before it subscribes, and a subscription refused by a draining connection
    // leaves that timer running for ever: the process never exits (uvu lingered after its summary)
    await Promise.allSettled([
      this.snapshotting,
      this.resyncing,
      this.loadingMarker,
      this.following,
      this.users.settled(),
      ...this.closers.map((fn) => fn()),
    ]);
    await this.nc.drain().catch(() => {});
  }
}
