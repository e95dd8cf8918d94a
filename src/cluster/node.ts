// One node of a clustered calendar (docs/cluster.md). The log is a JetStream stream (R3): every
// node applies it in order to its own engine and serves reads; the one node holding the writer
// lease (lease.ts) validates writes, applies them at once (as the single process does) and
// appends them with the expected last sequence, acknowledging a client only once JetStream has
// stored the append on a quorum. A deposed writer's late append is rejected by the server; a node
// whose state ever differs from the log (an append of its own rejected, a gap) rebuilds from the
// newest snapshot (snapshots.ts) plus the stream after it.
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import {
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
} from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import { Objm, setSha256Backend, type ObjectStore } from '@nats-io/obj';
import { randomBytes } from 'node:crypto';
import { Engine } from '../engine/engine.ts';
import type { Op, Write } from '../engine/records.ts';
import { fail } from '../api/wordpress/errors.ts';
import type { RestCall, RestResult } from '../api/wordpress/types.ts';
import { Forwarder, answerForwarded, notWriter, sleep } from './forward.ts';
import { Lease } from './lease.ts';
import { listSnapshots, pruneSnapshots, putSnapshot, readSnapshot, snapshotInfos } from './snapshots.ts';
import { type KvUsers, usersBucket } from './users.ts';
import { connectNats, natsNames, retry, type ClusterConnection } from './connect.ts';

export interface ClusterOptions extends ClusterConnection {
  /** this node's id (default: random); must differ between nodes */
  node?: string;
  /** writer lease, ms: a dead writer is replaced within about 1.5x this (default 3000) */
  leaseMs?: number;
  /** false: never become the writer (a read-only node); default true */
  writer?: boolean;
  /** the writer takes a snapshot after this many writes (default 100,000; 0 = only when asked) */
  snapshotEvery?: number;
  /** snapshots kept in the object store (default 2); the stream is purged below the oldest */
  keepSnapshots?: number;
  /** warnings (default console.warn) */
  warn?: (message: string) => void;
}

/** What a node needs of its calendar. */
export interface ReplicaHost {
  /** a write from the stream that this node did not make */
  applyWrite(write: Write): void;
  /** the state was rebuilt from a snapshot at `seq`: serve from `engine` from now on */
  replaceEngine(engine: Engine, seq: number): void;
  readonly engine: Engine;
  /** runs a write forwarded by a follower (this node is the writer) */
  rest(call: RestCall): Promise<RestResult>;
}

/** One message of the stream: a write's ops, or (`load`) "the state is now snapshot snap-<seq>" (an import) */
interface LogEntry {
  ops: Op[];
  time?: string;
  author?: number;
  load?: number;
}

const WRONG_LAST_SEQ = 10071;
/** the queue group of the writer's subscription to forwarded writes */
const WRITER_QUEUE = 'writer';

export class ClusterNode {
  readonly node: string;
  readonly stream: string;
  private readonly subject: string;
  private readonly restSubject: string;
  /** seq of the last write in this node's engine (on the writer: assigned, maybe not yet stored) */
  applied = 0;
  /** seq of the newest snapshot this node loaded or wrote */
  snapshotSeq = 0;
  role: 'follower' | 'writer' | 'stopped' = 'follower';
  private host!: ReplicaHost;
  private lease!: Lease;
  private messages: ConsumerMessages | undefined;
  private generation = 0;
  /** the loop that follows the stream (follow()), ended once its generation is over */
  private following: Promise<void> = Promise.resolve();
  private writeSub: Subscription | undefined;
  private watchdog: NodeJS.Timeout | undefined;
  /** the stream's last seq, as last seen (every 2 s) */
  streamLast = 0;
  /** writes reaching this node while another is the writer, sent there */
  private readonly forwarder: Forwarder;
  private inFlight = 0;
  /** appends of this node that failed: until it has rebuilt, its engine may hold writes the log lacks */
  private appendFailures = 0;
  /** random, new each time this node becomes the writer: part of its appends' message ids */
  private term = '';
  /** the message ids of this node's appends not yet seen back in the stream, by seq */
  private readonly own = new Map<number, string>();
  private idle: Array<() => void> = [];
  private resyncing: Promise<void> | undefined;
  /** an import's snapshot being loaded (loadMarker) */
  private loadingMarker: Promise<void> | undefined;
  private writesSinceSnapshot = 0;
  private snapshotting: Promise<void> | undefined;
  /** set while the writer pauses new writes (the capture of a snapshot) */
  gate: Promise<void> | undefined;
  readonly stats = { appends: 0, applied: 0, resyncs: 0, snapshots: 0, electedAt: 0 };
  /** hear this node become the writer (true) and stop being it (false): the media library's
   *  forwarded uploads (src/cluster/media.ts) */
  readonly roleListeners = new Set<(writer: boolean) => void>();
  /** hear another node take the lease (writes forwarded to the old one may never be answered) */
  readonly holderListeners = new Set<() => void>();
  /** run when the node closes, before its connection drains */
  readonly closers: Array<() => Promise<void>> = [];
  private readonly warn: (message: string) => void;

  private constructor(
    readonly opts: ClusterOptions,
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly kv: KV,
    private readonly os: ObjectStore,
    /** the users, cluster-wide (users.ts) */
    readonly users: KvUsers,
  ) {
    this.node = opts.node ?? randomBytes(6).toString('hex');
    const names = natsNames(opts.name);
    this.stream = names.stream;
    this.subject = names.log;
    this.restSubject = names.write;
    const warn = opts.warn ?? ((m: string) => console.warn(m));
    this.forwarder = new Forwarder(nc, this.restSubject);
    this.warn = process.env.CLUSTER_DEBUG ? (m) => warn(`${new Date().toISOString()} ${m}`) : warn;
  }

  /** Connects and makes sure the stream, the lease bucket and the snapshot store exist. */
  static async connect(opts: ClusterOptions): Promise<ClusterNode> {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(opts.name ?? '')) {
      throw fail('invalid_option', [
        `cluster.name must be 1-64 letters, digits, '_' or '-', got ${JSON.stringify(opts.name)}`,
      ]);
    }
    const replicas = opts.replicas ?? 3;
    // the object store checks every snapshot's SHA-256: node:crypto, not the pure-JS default
    setSha256Backend('native');
    const until = Date.now() + (opts.connectTimeoutMs ?? 30_000);
    const nc = await connectNats(opts, until);
    try {
      // JetStream answers only once its cluster has elected a meta leader
      const jsm = await retry(until, () => jetstreamManager(nc, { timeout: 2_000 }));
      const names = natsNames(opts.name);
      await retry(until, async () => {
        try {
          await jsm.streams.info(names.stream);
        } catch {
          await jsm.streams.add({
            name: names.stream,
            subjects: [names.log],
            num_replicas: replicas,
            duplicate_window: 120_000_000_000,
          });
        }
      });
      const kv = await retry(until, () => new Kvm(nc).create(names.lease, { replicas, history: 1 }));
      const os = await retry(until, () => new Objm(nc).create(names.snapshots, { replicas }));
      const users = await retry(until, () => usersBucket(nc, opts.name, replicas));
      return new ClusterNode(opts, nc, jetstream(nc, { timeout: 5_000 }), jsm, kv, os, users);
    } catch (err) {
      await nc.close().catch(() => {});
      throw err;
    }
  }

  /** Loads the newest snapshot into `engine` (empty); returns its seq (0: none, start of the stream). */
  async load(engine: Engine): Promise<number> {
    const until = Date.now() + (this.opts.connectTimeoutMs ?? 30_000);
    const closing = () => this.role === 'stopped';
    // listed again on each try: the writer may prune the one listed (two newer ones made since)
    const { seq, chunks } = await retry(
      until,
      async () => {
        if (closing()) throw new Error('the node is closing');
        const seqs = await listSnapshots(this.os);
        const newest = seqs.length > 0 ? seqs[seqs.length - 1] : 0;
        return { seq: newest, chunks: newest > 0 ? await readSnapshot(this.os, newest) : [] };
      },
      closing,
    );
    if (seq > 0) engine.loadSnapshotChunks(chunks);
    const info = await retry(until, () => this.jsm.streams.info(this.stream));
    if (info.state.messages > 0 && info.state.first_seq > seq + 1) {
      throw new Error(
        `cluster: stream ${this.stream} starts at seq ${info.state.first_seq} but the newest snapshot is at ${seq}: writes ${seq + 1}..${info.state.first_seq - 1} are missing`,
      );
    }
    this.applied = seq;
    this.snapshotSeq = seq;
    return seq;
  }

  /** Starts following the stream and standing for writer. */
  start(host: ReplicaHost): void {
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

  /** the NATS connection (the cluster's webhooks use it too: webhooks.ts) */
  get connection(): NatsConnection {
    return this.nc;
  }

  get isWriter(): boolean {
    return this.role === 'writer' && this.lease.held;
  }

  /** The node holding the lease, as last seen (undefined: none known). */
  get writer(): string | undefined {
    return this.lease?.holder;
  }

  // ---- following the stream ----------------------------------------------------------------

  private follow(): void {
    const generation = ++this.generation;
    // a consumer from applied + 1 on: this node's appends not seen back yet never come back through it
    this.own.clear();
    const current = () => generation === this.generation && this.role !== 'stopped';
    // close() waits for this loop before the connection drains: a consume() begun on a draining
    // connection leaves nats.js's idle-heartbeat timer running for ever
    this.following = (async () => {
      while (current()) {
        try {
          const consumer = await this.js.consumers.get(this.stream, {
            deliver_policy: DeliverPolicy.StartSequence,
            opt_start_seq: this.applied + 1,
          });
          if (!current()) return;
          const messages = await consumer.consume();
          this.messages = messages;
          if (!current()) {
            messages.stop();
            return;
          }
          for await (const m of messages) {
            if (generation !== this.generation) break;
            const load = this.receive(m.seq, m.headers?.get('Nats-Msg-Id') ?? '', m.data);
            if (load) {
              this.loadingMarker = this.loadMarker(m.seq, generation);
              await this.loadingMarker.finally(() => (this.loadingMarker = undefined));
            }
          }
        } catch (err) {
          if (generation !== this.generation || this.isStopped()) return;
          this.warn(`cluster ${this.opts.name}: following the stream failed, retrying: ${(err as Error).message}`);
          await sleep(250);
        }
      }
    })();
  }

  /** Applies one message; true when it is an import's marker (the caller then loads its snapshot). */
  private receive(seq: number, msgId: string, data: Uint8Array): boolean {
    if (seq <= this.applied) {
      // only this node's own appends (applied when made) come back at or below `applied`
      const mine = this.own.get(seq);
      this.own.delete(seq);
      if (msgId !== mine)
        void this.resync(
          `seq ${seq} in the stream (message ${msgId}) is not the write this node applied as ${seq} (${mine ?? 'none'})`,
        );
      return false;
    }
    if (seq !== this.applied + 1) {
      void this.resync(
        `the stream jumped from seq ${this.applied} to ${seq} (purged below this node: it was far behind)`,
      );
      return false;
    }
    if (this.role === 'writer') {
      this.stepDown(`another node appended seq ${seq}`);
      void this.lease.release('another node appended');
    }
    const entry = JSON.parse(Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8')) as LogEntry;
    if (entry.load !== undefined) return true;
    this.applied = seq;
    this.host.applyWrite({ seq, ops: entry.ops, time: entry.time, author: entry.author });
    this.stats.applied++;
    this.writesSinceSnapshot++;
    return false;
  }

  /**
   * Every 2 s: the stream's last seq. A node that stays behind it without applying anything for
   * 3 s restarts its consumer (after a NATS outage a consumer may never resume by itself).
   */
  private watch(): void {
    let stalledAt = -1;
    let since = 0;
    this.watchdog = setInterval(() => {
      if (this.isStopped() || this.resyncing) return;
      this.jsm.streams.info(this.stream).then(
        (info) => {
          this.streamLast = info.state.last_seq;
          if (info.state.last_seq <= this.applied || this.applied !== stalledAt) {
            stalledAt = this.applied;
            since = performance.now();
            return;
          }
          if (performance.now() - since < 3_000 || this.resyncing || this.isStopped()) return;
          this.warn(
            `cluster ${this.opts.name}: node ${this.node} at seq ${this.applied} receives nothing while the stream is at ${info.state.last_seq}: following it again`,
          );
          this.messages?.stop();
          this.follow();
          since = performance.now();
        },
        () => {},
      );
    }, 2_000);
    this.watchdog.unref?.();
  }

  private isStopped(): boolean {
    return this.role === 'stopped';
  }

  /** An import at `seq`: the state is snapshot snap-<seq>, written before the marker was appended. */
  private async loadMarker(seq: number, generation: number): Promise<void> {
    const chunks = await readSnapshot(this.os, seq);
    if (generation !== this.generation) return;
    const engine = new Engine();
    engine.loadSnapshotChunks(chunks);
    this.applied = seq;
    this.host.replaceEngine(engine, seq);
    this.snapshotSeq = Math.max(this.snapshotSeq, seq);
    this.writesSinceSnapshot = 0;
  }

  /**
   * An import on the writer: with new writes paused and none in flight, `load` bulk-loads the
   * engine; the result is written as snapshot snap-<seq> and a marker appended at seq, from
   * which every node loads it. Resolves once the marker is stored.
   */
  async bulkLoad(load: () => void): Promise<number> {
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

  /** This node's state may differ from the log: rebuild it from the newest snapshot and the stream after. */
  resync(reason: string): Promise<void> {
    if (this.resyncing || this.role === 'stopped') return this.resyncing ?? Promise.resolve();
    this.warn(`cluster ${this.opts.name}: node ${this.node} rebuilds its state: ${reason}`);
    this.stats.resyncs++;
    this.resyncing = (async () => {
      this.generation++;
      this.own.clear();
      this.messages?.stop();
      if (this.role === 'writer') this.stepDown(reason);
      await this.lease.release(reason);
      await this.whenIdle();
      for (;;) {
        try {
          const engine = new Engine();
          const seq = await this.load(engine);
          this.host.replaceEngine(engine, seq);
          break;
        } catch (err) {
          if (this.role === 'stopped') return;
          this.warn(`cluster ${this.opts.name}: rebuild failed, retrying: ${(err as Error).message}`);
          await sleep(500);
        }
      }
      this.follow();
    })().finally(() => {
      this.resyncing = undefined;
    });
    return this.resyncing;
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
            (call) => (this.isWriter ? this.host.rest(call) : Promise.reject(notWriter())),
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

  private stepDown(reason: string): void {
    if (this.role !== 'writer') return;
    this.role = 'follower';
    this.writeSub?.unsubscribe();
    this.writeSub = undefined;
    for (const fn of this.roleListeners) fn(false);
    this.warn(`cluster ${this.opts.name}: node ${this.node} is no longer the writer: ${reason}`);
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

  private whenIdle(): Promise<void> {
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

  /** Where the stream stands (for status pages and tests). */
  async streamState(): Promise<{
    first: number;
    last: number;
    messages: number;
    bytes: number;
    snapshots: number[];
    snapshotBytes: number;
  }> {
    const info = await this.jsm.streams.info(this.stream);
    const snaps = await snapshotInfos(this.os);
    return {
      first: info.state.first_seq,
      last: info.state.last_seq,
      messages: info.state.messages,
      bytes: info.state.bytes,
      snapshots: snaps.map((s) => s.seq),
      snapshotBytes: snaps.length > 0 ? snaps[snaps.length - 1].bytes : 0,
    };
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
