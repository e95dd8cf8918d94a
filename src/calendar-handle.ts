// A calendar's internal handle: its engine and what serves from it (the cache of rendered pieces,
// the five collections), the write path through its write log (src/write-log/), the change feed
// the acknowledged writes join, and the imports' one bulk load. Calendar (calendar.ts) is the
// public face over it; the cluster node, the media library and the tests reach the handle
// (handleOf in calendar.ts), never the Calendar's public members, for their wiring.
import type { Engine } from './engine/engine.ts';
import type { Op, Write } from './engine/records.ts';
import { Collections } from './api/collections.ts';
import type { Core } from './api/context.ts';
import { createSite } from './api/representation/represent.ts';
import { Renderer } from './api/representation/render.ts';
import { fail } from './api/wordpress/errors.ts';
import type { Actor, Page, RestCall, RestResult, SiteConfig } from './api/wordpress/types.ts';
import { horizonOps } from './recurrence/series.ts';
import { type ChangeFeed, describeWrite, type HeldChange } from './changes/feed.ts';
import type { ChangeLog } from './changes/log.ts';
import type { UserRegistry } from './users/registry.ts';
import { MediaLibrary } from './media/library.ts';
import { MemoryFiles } from './media/files.ts';
import type { LogHost, WriteLog } from './write-log/log.ts';
import type { ClusterNode } from './cluster/node.ts';
import { hasSearch } from './resource-api.ts';

type Item = Record<string, unknown>;

export class CalendarHandle implements LogHost {
  private current: Engine;
  /** the cache of rendered representations */
  render!: Renderer;
  /** the five collections (the media library reaches the calendar's core through them) */
  collections!: Collections;
  /** the media library (/wp/v2/media): uploads in memory until openCalendar gives it its files */
  media: MediaLibrary;
  /** this calendar's node of a cluster (its write log), for the cluster's own wiring and tests */
  cluster: ClusterNode | undefined;
  /** keeps the feed on disk (a store-backed calendar; its fault is a warning of the health route) */
  changeLog: ChangeLog | undefined;
  /** run in order at close, before the log closes: webhook delivery, the change log on disk */
  readonly stoppers: Array<() => unknown> = [];
  closed = false;
  private horizonTimer: ReturnType<typeof setInterval> | undefined;
  private seqWaiters: Array<{ seq: number; resolve: (reached: boolean) => void }> = [];
  /** acknowledged writes waiting for an earlier one before they join the feed (acks in seq order) */
  private readonly acked = new Map<number, HeldChange[]>();

  constructor(
    engine: Engine,
    readonly site: SiteConfig,
    readonly users: UserRegistry,
    /** where the writes go: memory, a store or a cluster (src/write-log/) */
    readonly log: WriteLog,
    private readonly cacheBytes: number,
    /** every acknowledged write as change records (src/changes/feed.ts) */
    readonly feed: ChangeFeed,
  ) {
    this.current = engine;
    this.wire(engine, createSite(site));
    this.media = new MediaLibrary(() => this.collections.core, new MemoryFiles());
  }

  /** the engine (replaced as a whole only when the log rebuilds the state) */
  get engine(): Engine {
    return this.current;
  }

  private wire(engine: Engine, siteInfo: Core['site']): void {
    this.render = new Renderer(siteInfo, engine, this.cacheBytes);
    const core: Core = {
      engine,
      site: siteInfo,
      render: this.render,
      users: this.users,
      commit: (ops, actor) => this.commit(ops, actor),
    };
    this.collections = new Collections(core);
  }

  /** The seq of the newest write this calendar reflects (acknowledged and applied; a cluster node
   *  rebuilding its state goes back to its snapshot's seq until it has caught up). */
  get seq(): number {
    return Math.min(this.feed.head, this.log.seq);
  }

  /** Resolves true once this calendar reflects write `seq` (at once if it does), false after `ms`. */
  waitForSeq(seq: number, ms = 5_000): Promise<boolean> {
    if (seq <= this.seq) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter = { seq, resolve };
      this.seqWaiters.push(waiter);
      setTimeout(() => {
        const i = this.seqWaiters.indexOf(waiter);
        if (i >= 0) this.seqWaiters.splice(i, 1);
        resolve(seq <= this.seq);
      }, ms).unref?.();
    });
  }

  private seqReached(): void {
    if (this.seqWaiters.length === 0) return;
    const head = this.seq;
    this.seqWaiters = this.seqWaiters.filter((w) => (w.seq <= head ? (w.resolve(true), false) : true));
  }

  /** One REST operation; a write runs where and when its log says (Calendar.rest). */
  async rest(call: RestCall): Promise<RestResult> {
    if (this.closed) throw fail('calendar_closed');
    if (call.action === 'list' || call.action === 'get') {
      // a search while the word index is built on a worker thread waits for it (other requests
      // go on meanwhile) rather than scanning every row's text on this thread
      if (call.action === 'list' && call.resource === 'events' && hasSearch(call.params)) await this.searchReady();
      return this.collections.rest(call);
    }
    return this.log.run(
      call,
      () => this.collections.rest(call),
      async ({ result, seq }) => {
        await this.waitForSeq(seq);
        return result;
      },
    );
  }

  /** Resolves once the word index is no longer being built on a worker thread (Engine.searchReady). */
  searchReady(): Promise<void> {
    return this.engine.searchReady();
  }

  /** A create, update or delete of the embedding API (cal.events...): the answer as a fresh object,
   *  never through JSON text; on a cluster node that is not the writer, the writer's answer came
   *  as text over NATS and is read once. */
  async write(call: RestCall): Promise<Item> {
    if (this.closed) throw fail('calendar_closed');
    return this.log.run(
      call,
      () => this.collections.writeObject(call),
      async ({ result, seq }) => {
        await this.waitForSeq(seq);
        return JSON.parse(result.body) as Item;
      },
    );
  }

  /** A write call run on this calendar (the cluster's writer runs those its followers forward). */
  runHere(call: RestCall): Promise<RestResult> {
    return this.collections.rest(call);
  }

  /** list/get as fresh objects (the embedding API's read path); throws CalendarError. */
  read(call: RestCall): Page<Item> | Item {
    if (this.closed) throw fail('calendar_closed');
    return this.collections.read(call);
  }

  /** A write from the log that this calendar did not make (a cluster node following the stream). */
  applyWrite(write: Write): void {
    const fresh = write.seq > this.feed.head; // (a node rebuilding its state applies some again)
    const held = fresh ? describeWrite(this.engine, write.ops, write.seq, write.time ?? '', write.author ?? 0) : [];
    this.engine.apply(write.ops);
    if (fresh) this.feed.add(held, write.seq);
    this.seqReached();
  }

  /** Serve from `engine` from now on. `seq`: it was rebuilt from a cluster's snapshot at `seq`. */
  replaceEngine(engine: Engine, seq?: number): void {
    this.current = engine;
    this.wire(engine, this.collections.core.site);
    if (seq === undefined) return;
    // a snapshot more than one write past the feed (this node was far behind) skips the changes
    // between: the feed's window starts at it (at head + 1 it is an import's marker, not a change)
    if (seq > this.feed.head + 1) this.feed.skipTo(seq);
    else this.feed.add([], seq);
    engine.warmInBackground();
    this.seqReached();
  }

  /** Apply in one tick, then wait for the log to make the write durable. */
  private commit(ops: Op[], actor?: Actor): Promise<void> {
    const seq = this.log.nextSeq(); // throws the refusal, if any, before anything is applied
    const time = new Date().toISOString();
    const author = actor?.id ?? 0;
    const held = describeWrite(this.engine, ops, seq, time, author);
    this.engine.apply(ops);
    const durable = this.log.append(seq, ops, { time, author });
    if (durable === undefined) {
      this.acknowledged(seq, held);
      return Promise.resolve();
    }
    return durable.then(() => this.acknowledged(seq, held));
  }

  /** A write is durable: its changes join the feed, in seq order. */
  private acknowledged(seq: number, held: HeldChange[]): void {
    this.acked.set(seq, held);
    for (let next = this.feed.head + 1; this.acked.has(next); next++) {
      const changes = this.acked.get(next)!;
      this.acked.delete(next);
      this.feed.add(changes, next);
    }
    this.seqReached();
  }

  /** An import the log took as write `seq` (a cluster's marker, which every node loads). */
  loaded(seq: number): void {
    this.feed.add([], seq);
    this.seqReached();
  }

  /** The occurrences series gain as the rolling horizon moves on, in one write (docs/recurrence.md):
   *  on the writer (followers get the write), at open and then hourly (startHorizon, unref'd). */
  async extendHorizon(): Promise<void> {
    if (this.closed || !this.log.makesWrites) return;
    const paused = this.log.whenOpen();
    if (paused) await paused;
    // a read-only store, or one whose disk fails, keeps the horizon it has until writes are back
    if (this.log.refusal()) return;
    const ops = horizonOps(this.collections.core);
    if (ops.length > 0) await this.commit(ops, null);
  }

  /** Stops the writes: the horizon's timer, then `stoppers`, then the log; the users last. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.horizonTimer) clearInterval(this.horizonTimer);
    for (const stop of this.stoppers) await stop();
    await this.log.close();
    this.users.close();
  }

  startHorizon(): void {
    const run = () =>
      this.extendHorizon().catch((err: Error) => console.error(`calendar-engine: recurrence horizon: ${err.message}`));
    (this.horizonTimer ??= setInterval(run, 3_600_000)).unref?.();
  }
}
