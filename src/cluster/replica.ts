// The following side of a cluster node (docs/cluster.md): every node applies the log, a
// JetStream stream (R3), in order to its own engine and serves reads; a node whose state ever
// differs from the log (an append of its own rejected, a gap) rebuilds from the newest snapshot
// (snapshots.ts) plus the stream after it. The writer's side (appends, imports, snapshots) is
// node.ts, which extends this class.
import type { NatsConnection } from '@nats-io/transport-node';
import { DeliverPolicy, type ConsumerMessages, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import type { KV } from '@nats-io/kv';
import type { ObjectStore } from '@nats-io/obj';
import { randomBytes } from 'node:crypto';
import { Engine } from '../engine/engine.ts';
import type { Op } from '../engine/records.ts';
import type { LogHost } from '../write-log/log.ts';
import { Forwarder, sleep } from './forward.ts';
import type { Lease } from './lease.ts';
import { listSnapshots, readSnapshot, snapshotInfos } from './snapshots.ts';
import type { KvUsers } from './users.ts';
import { natsNames, retry, type ClusterConnection } from './connect.ts';

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

/** One message of the stream: a write's ops, or (`load`) "the state is now snapshot snap-<seq>" (an import) */
export interface LogEntry {
  ops: Op[];
  time?: string;
  author?: number;
  load?: number;
}

/** A node following the stream: what every node of the cluster does (the writer too). */
export abstract class Replica {
  readonly node: string;
  readonly stream: string;
  protected readonly subject: string;
  protected readonly restSubject: string;
  /** seq of the last write in this node's engine (on the writer: assigned, maybe not yet stored) */
  applied = 0;
  /** seq of the newest snapshot this node loaded or wrote */
  snapshotSeq = 0;
  role: 'follower' | 'writer' | 'stopped' = 'follower';
  protected host!: LogHost;
  protected lease!: Lease;
  protected messages: ConsumerMessages | undefined;
  protected generation = 0;
  /** the loop that follows the stream (follow()), ended once its generation is over */
  protected following: Promise<void> = Promise.resolve();
  protected watchdog: NodeJS.Timeout | undefined;
  /** the stream's last seq, as last seen (every 2 s) */
  streamLast = 0;
  /** writes reaching this node while another is the writer, sent there */
  protected readonly forwarder: Forwarder;
  /** the message ids of this node's appends not yet seen back in the stream, by seq */
  protected readonly own = new Map<number, string>();
  protected resyncing: Promise<void> | undefined;
  /** an import's snapshot being loaded (loadMarker) */
  protected loadingMarker: Promise<void> | undefined;
  protected writesSinceSnapshot = 0;
  readonly stats = { appends: 0, applied: 0, resyncs: 0, snapshots: 0, electedAt: 0 };
  /** hear another node take the lease (writes forwarded to the old one may never be answered) */
  readonly holderListeners = new Set<() => void>();
  protected readonly warn: (message: string) => void;

  protected constructor(
    readonly opts: ClusterOptions,
    protected readonly nc: NatsConnection,
    protected readonly js: JetStreamClient,
    protected readonly jsm: JetStreamManager,
    protected readonly kv: KV,
    protected readonly os: ObjectStore,
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

  /** Steps down from writer (the writer's side: node.ts). */
  protected abstract stepDown(reason: string): void;

  /** Resolves once no append of this node is in flight (the writer's side: node.ts). */
  protected abstract whenIdle(): Promise<void>;

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

  protected follow(): void {
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
  protected watch(): void {
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

  protected isStopped(): boolean {
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
}
