// The writer lease: one key in a JetStream key-value bucket (replicated like the stream). The
// holder renews it every ttl/3 with update(key, value, revision) — a renewal that finds another
// revision means the lease was taken, and the holder steps down at once. Expiry is judged on
// each node's own clock, never by comparing clocks:
//   - the holder counts its lease valid until (start of its last successful renewal) + ttl - margin;
//   - a candidate takes the lease only after it has seen the same revision for a whole ttl (or
//     the key deleted), with update(key, me, thatRevision), so exactly one candidate wins.
// The holder's validity ends before any candidate can take over (the candidate first saw that
// revision after the renewal started), so two writers never both think they hold it — and if
// clocks misbehave, the expected-last-sequence check on every append still keeps the log whole.
import type { KV } from '@nats-io/kv';

export const LEASE_KEY = 'writer';

export interface LeaseHolder {
  node: string;
  /** when it took the lease (the holder's clock, informative only) */
  since: string;
}

export interface LeaseEvents {
  acquired(): void;
  lost(reason: string): void;
  /** the lease passed from one node to another: writes sent to the one before may be lost */
  holderChanged(from: string, to: string | undefined): void;
}

export class Lease {
  private revision = 0;
  private validUntil = 0;
  private seenRevision = -1;
  private seenAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private stopped = false;
  /** bumped whenever the lease is dropped (lost, released, stopped): a renewal or takeover that
   *  was on its way meanwhile must not bring it back */
  private epoch = 0;
  holder: string | undefined;

  constructor(
    private readonly kv: KV,
    private readonly node: string,
    private readonly ttlMs: number,
    private readonly events: LeaseEvents,
    private readonly candidate: () => boolean,
  ) {}

  /** True while this node holds an unexpired lease (by its own clock). */
  get held(): boolean {
    return this.revision > 0 && performance.now() < this.validUntil;
  }

  start(): void {
    this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.tick(), ms);
    this.timer.unref?.();
  }

  private async tick(): Promise<void> {
    if (this.running || this.stopped) return;
    this.running = true;
    try {
      if (this.revision > 0) await this.renew();
      else await this.tryAcquire();
    } catch {
      // a server unreachable for a moment: the next tick tries again (and expiry still applies)
    } finally {
      this.running = false;
      if (this.revision > 0 && !this.held) this.drop('lease expired before it could be renewed (NATS unreachable?)');
      this.schedule(this.revision > 0 ? Math.max(50, this.ttlMs / 3) : Math.max(50, this.ttlMs / 6));
    }
  }

  private value(): string {
    return JSON.stringify({ node: this.node, since: new Date().toISOString() } satisfies LeaseHolder);
  }

  private async renew(): Promise<void> {
    const started = performance.now();
    const epoch = this.epoch;
    try {
      const revision = await this.kv.update(LEASE_KEY, this.value(), this.revision, Math.max(100, this.ttlMs / 3));
      if (epoch !== this.epoch) {
        // released (or lost) while this renewal was on its way: the release's delete found the
        // key renewed, so the key is given up here. Taking the revision would leave this node
        // holding a lease it no longer acts on, and no other node could take it.
        await this.giveUp(revision);
        return;
      }
      this.revision = revision;
      if (this.revision > 0) this.validUntil = started + this.ttlMs - this.margin();
    } catch (err) {
      if (epoch !== this.epoch) return;
      if (/wrong last sequence/i.test((err as Error).message)) this.drop('another node took the lease');
      else throw err;
    }
  }

  /** Deletes the key if it still holds `revision` (ours). */
  private async giveUp(revision: number): Promise<void> {
    if (revision > 0) await this.kv.delete(LEASE_KEY, { previousSeq: revision }).catch(() => {});
  }

  /** the holder stops a little before a candidate could start (timers fire late under load) */
  private margin(): number {
    return Math.max(100, this.ttlMs / 5);
  }

  private async tryAcquire(): Promise<void> {
    if (!this.candidate()) return;
    const entry = await this.kv.get(LEASE_KEY);
    const now = performance.now();
    const free = !entry || entry.operation !== 'PUT';
    let holder: string | undefined;
    if (!free) {
      try {
        holder = (JSON.parse(entry.string()) as LeaseHolder).node;
      } catch {
        holder = undefined;
      }
    }
    if (holder !== this.holder) {
      const from = this.holder;
      this.holder = holder;
      // (a node that released the lease still answers what it received: only a takeover counts)
      if (from !== undefined && holder !== undefined) this.events.holderChanged(from, holder);
    }
    if (!free) {
      if (entry.revision !== this.seenRevision) {
        this.seenRevision = entry.revision;
        this.seenAt = now;
        return;
      }
      if (now - this.seenAt < this.ttlMs) return;
    }
    const started = performance.now();
    const epoch = this.epoch;
    let revision: number;
    try {
      revision = entry
        ? await this.kv.update(LEASE_KEY, this.value(), entry.revision)
        : await this.kv.create(LEASE_KEY, this.value());
    } catch (err) {
      if (/wrong last sequence|key exists/i.test((err as Error).message)) return; // someone else won
      throw err;
    }
    if (epoch !== this.epoch || !this.candidate()) {
      // dropped (stop() too drops it), or no longer standing, while the takeover was on its way
      await this.giveUp(revision);
      return;
    }
    this.revision = revision;
    this.validUntil = started + this.ttlMs - this.margin();
    const from = this.holder;
    this.holder = this.node;
    if (from !== undefined && from !== this.node) this.events.holderChanged(from, this.node);
    this.events.acquired();
  }

  private drop(reason: string): void {
    this.epoch++;
    if (this.revision === 0) return;
    this.revision = 0;
    this.validUntil = 0;
    this.seenRevision = -1;
    this.holder = undefined;
    this.events.lost(reason);
  }

  /** Gives the lease up (deletes the key if we hold it), so another node need not wait a ttl. */
  async release(reason: string): Promise<void> {
    const rev = this.revision;
    this.drop(reason);
    await this.giveUp(rev);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.release('closing');
  }
}
