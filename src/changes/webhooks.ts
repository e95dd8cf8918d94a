// Webhooks: the change feed POSTed to receivers, in order per webhook, signed, retried.
//
// Deliveries are read from the change feed by position: each webhook's position is the last seq
// its receiver acknowledged with a 2xx, and the feed keeps every change after the lowest
// position past its retention window (ChangeFeed.pin), up to `maxBacklog` changes. A store-backed
// calendar keeps that window on disk in the change log (src/changes/log.ts) and the positions in
// webhooks-state.json, so a restart loses no pending delivery; a cluster keeps the positions in
// its KV bucket (src/cluster/webhooks.ts). Where the webhooks and positions are kept is the
// backend's business; this file only delivers.
// A delivery is one POST of `{"changes": [...]}` (up to 500 writes' changes) with
// `X-Calendar-Signature: t=UNIX,v1=HEX`, HEX = HMAC-SHA256(secret, `${t}.${body}`) (as Stripe
// signs its webhooks). Anything but a 2xx within the timeout is retried with exponential backoff
// and jitter, for ever (the backoff is capped at `retryMaxMs`). A slow or dead receiver delays
// only itself.

import type { ChangeFeed } from './feed.ts';
import { joinTexts, type HeldChange } from './change.ts';
import { PostConnection } from './http-post.ts';
import { signature, type Webhook, type WebhookState } from './webhook-registry.ts';

export interface DispatchOptions {
  /** first retry after about this long, doubling up to retryMaxMs (defaults 1 s and 1 h) */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** a receiver must answer within this long (default 10 s) */
  timeoutMs?: number;
  /** stop() waits this long for the POSTs in flight, whose answers are then recorded (default
   *  5 s, at most timeoutMs); those still unanswered then are aborted and count as not delivered */
  stopWaitMs?: number;
  /** how often the registry is checked for changes (default 1 s) */
  reloadMs?: number;
  /** after a delivery, wait about this long for more writes before the next one, unless a full
   *  batch is waiting (default 200 ms; webhooks that finish a delivery meanwhile wake with the
   *  first, so that those that keep up deliver the same batches): under a steady stream of writes, fewer and larger
   *  POSTs (a write after a quiet spell still goes at once) */
  lingerMs?: number;
  /** the feed keeps at most this many changes for a webhook that lags (default 1,000,000); past
   *  it the oldest go, and the webhook skips them (its state says so) */
  maxBacklog?: number;
  log?: (line: string) => void;
}

/** Where the webhooks and their positions are kept. */
export interface WebhookBackend {
  /** The webhooks, with the stored positions of those it has (undefined: unchanged since the
   *  last call). Throws on an unreadable registry. */
  reload(): Promise<{ hooks: Webhook[]; states: Record<string, WebhookState> } | undefined>;
  /** Saves the positions (never two calls at once). */
  save(states: Record<string, WebhookState>): Promise<void>;
  /** The last save, at stop. */
  saveFinal(states: Record<string, WebhookState>): Promise<void> | void;
  /** false: stop delivering (a cluster node that is no longer the writer) */
  active(): boolean;
}

/** changes kept for a lagging webhook, at most (DispatchOptions.maxBacklog) */
const MAX_BACKLOG = 1_000_000;

/** Pins `feed` at the lowest position of `hooks` (a webhook without one starts at the head), up
 *  to `maxBacklog` changes; unpinned without webhooks. */
export function pinAtPositions(
  feed: ChangeFeed,
  hooks: readonly Webhook[],
  states: Record<string, WebhookState>,
  maxBacklog = MAX_BACKLOG,
): void {
  let low = Number.POSITIVE_INFINITY;
  for (const h of hooks) low = Math.min(low, states[h.id]?.delivered ?? feed.head);
  feed.pin(low === Number.POSITIVE_INFINITY ? undefined : low, maxBacklog);
}

const BATCH_WRITES = 500;
/** what post() answers when stop() aborted it */
const ABORTED = 'aborted';

export class WebhookDispatcher {
  private hooks: Webhook[];
  private state: Record<string, WebhookState> = {};
  private readonly running = new Map<string, { wake(stopping?: boolean): void }>();
  /** the loops' promises (stop() waits for them: a POST in flight has its answer recorded) */
  private readonly loops = new Set<Promise<void>>();
  /** each webhook's keep-alive connection to its receiver (a POST at a time), by id and URL */
  private readonly connections = new Map<string, { url: string; conn: PostConnection }>();
  private started = false;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private off: () => void = () => {};
  private readonly retryBaseMs: number;
  private readonly retryMaxMs: number;
  private readonly timeoutMs: number;
  private readonly stopWaitMs: number;
  private readonly lingerMs: number;
  private readonly reloadMs: number;
  private readonly maxBacklog: number;
  private readonly log: (line: string) => void;

  /** Pins `feed` at the webhooks' positions at once; delivers from start(). */
  constructor(
    private readonly feed: ChangeFeed,
    private readonly backend: WebhookBackend,
    initial: { hooks: Webhook[]; states: Record<string, WebhookState> },
    opts: DispatchOptions = {},
  ) {
    this.retryBaseMs = opts.retryBaseMs ?? 1_000;
    this.retryMaxMs = opts.retryMaxMs ?? 3_600_000;
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.stopWaitMs = Math.min(this.timeoutMs, opts.stopWaitMs ?? 5_000);
    this.lingerMs = opts.lingerMs ?? 200;
    this.reloadMs = opts.reloadMs ?? 1_000;
    this.maxBacklog = opts.maxBacklog ?? MAX_BACKLOG;
    this.log = opts.log ?? ((line) => console.error(line));
    this.hooks = initial.hooks;
    for (const h of this.hooks) if (initial.states[h.id]) this.state[h.id] = initial.states[h.id];
    this.pin();
  }

  /** Starts delivering; a webhook without a stored position starts with the next write. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.adopt(this.hooks, {});
    // a write wakes the loops waiting for writes once the writes acknowledged with it have been
    // answered (setImmediate): a delivery is never made inside a write's acknowledgement
    let waking = false;
    this.off = this.feed.on(() => {
      if (waking) return;
      waking = true;
      setImmediate(() => {
        waking = false;
        for (const r of this.running.values()) r.wake();
      });
    });
    this.timer = setInterval(() => void this.reload(), this.reloadMs);
    this.timer.unref();
  }

  /** The feed keeps what the furthest-behind webhook still needs. */
  private pin(): void {
    pinAtPositions(this.feed, this.hooks, this.state, this.maxBacklog);
  }

  private reloading = false;
  private async reload(): Promise<void> {
    if (this.reloading || this.stopped) return;
    this.reloading = true;
    try {
      const got = await this.backend.reload();
      if (got && !this.stopped) this.adopt(got.hooks, got.states);
    } catch (err) {
      this.log(`calendar-engine: webhooks: ${(err as Error).message}`);
    } finally {
      this.reloading = false;
    }
  }

  /** The registry as it now is: loops for new webhooks, positions of removed ones dropped. */
  private adopt(hooks: Webhook[], states: Record<string, WebhookState>): void {
    this.hooks = hooks;
    for (const h of hooks) {
      this.state[h.id] ??= states[h.id] ?? {
        delivered: this.feed.head,
        lastStatus: 'new',
        lastAttempt: '',
        failures: 0,
      };
      if (!this.running.has(h.id)) this.loop(h);
    }
    for (const id of Object.keys(this.state)) if (!hooks.some((h) => h.id === id)) delete this.state[id];
    this.pin();
    this.saveState();
  }

  private saveTimer: NodeJS.Timeout | undefined;
  /** the save being written (off the event loop), and whether the state changed since it began */
  private saving: Promise<void> | undefined;
  private dirty = false;

  /** Positions are saved at most every 100 ms (and at stop), written off the event loop so that
   *  deliveries never hold up writes: after a crash, the deliveries of those last 100 ms may
   *  come again (receivers can tell by seq). */
  private saveState(): void {
    if (this.saveTimer || this.stopped) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      void this.writeState();
    }, 100);
    this.saveTimer.unref();
  }

  /** One save at a time, each of the state as it is when it begins; again if it changed meanwhile. */
  private async writeState(): Promise<void> {
    if (this.saving) {
      this.dirty = true;
      return;
    }
    do {
      this.dirty = false;
      this.saving = this.backend.save(this.state).catch((err: Error) => {
        this.log(`calendar-engine: webhooks: saving positions: ${err.message}`);
      });
      await this.saving;
      this.saving = undefined;
    } while (this.dirty && !this.stopped);
  }

  private loop(hook: Webhook): void {
    let wake: ((stopping: boolean) => void) | undefined;
    const handle = { wake: (stopping = false) => wake?.(stopping) };
    this.running.set(hook.id, handle);
    // A write wakes the loop only while it waits for writes (not while it posts, lingers, or
    // backs off after a failure: a failing receiver is not retried at every write); stop() wakes
    // it from any wait.
    const sleep = (ms: number, forWrites: boolean) =>
      new Promise<void>((resolve) => {
        const t = setTimeout(() => {
          wake = undefined;
          resolve();
        }, ms);
        t.unref();
        wake = (stopping) => {
          if (!stopping && !forWrites) return;
          wake = undefined;
          clearTimeout(t);
          resolve();
        };
      });
    // after a delivery: until the dispatcher's linger gate opens (or stop())
    const linger = () =>
      new Promise<void>((resolve) => {
        const leave = this.lingerGate(() => {
          wake = undefined;
          resolve();
        });
        wake = (stopping) => {
          if (!stopping) return;
          wake = undefined;
          leave();
          resolve();
        };
      });
    const live = () => !this.stopped && this.hooks.some((h) => h.id === hook.id) && this.backend.active();
    const done = (async () => {
      while (live()) {
        const st = this.state[hook.id];
        if (st.delivered < this.feed.floor) this.skip(hook, st);
        const { held, last } = this.feed.writesAfter(st.delivered, BATCH_WRITES);
        if (last === st.delivered) {
          await sleep(this.retryMaxMs, true);
          continue;
        }
        const body = this.body(held, hook.types);
        if (body === undefined) {
          st.delivered = last; // nothing it wants in these writes
          this.delivered();
          continue;
        }
        const status = await this.post(hook, body);
        if (status === ABORTED) break; // by stop(): no answer, nothing recorded (it comes again)
        st.lastAttempt = new Date().toISOString();
        st.lastStatus = status;
        if (/^2\d\d$/.test(status)) {
          st.delivered = last;
          st.failures = 0;
          this.delivered();
          if (this.stopped) break; // its answer came while stop() waited: recorded, then no more
          if (this.lingerMs > 0 && this.feed.head - last < BATCH_WRITES) await linger();
        } else {
          st.failures++;
          this.saveState();
          if (this.stopped) break;
          const backoff = Math.min(this.retryMaxMs, this.retryBaseMs * 2 ** Math.min(st.failures - 1, 30));
          await sleep(backoff / 2 + Math.random() * (backoff / 2), false); // jitter: between half and all of it
        }
      }
      this.running.delete(hook.id);
      if (!this.stopped) {
        // removed (or no longer this node's to deliver): its connection goes too
        this.connections.get(hook.id)?.conn.destroy();
        this.connections.delete(hook.id);
      }
    })();
    this.loops.add(done);
    void done.finally(() => this.loops.delete(done));
  }

  /** the loops lingering after a delivery, woken together by one timer (lingerGate) */
  private readonly lingering = new Set<() => void>();
  private lingerTimer: NodeJS.Timeout | undefined;

  /**
   * Calls `fn` when the lingering of the webhooks now lingering ends: the first to linger starts a
   * timer of lingerMs, and those that finish their deliveries meanwhile join it. Webhooks that
   * keep up thus wake together and ask for the same batch, whose body is made once for all of
   * them (body()), where each lingering on its own clock would drift apart and have it made once
   * each. Returns a function that leaves the gate.
   */
  private lingerGate(fn: () => void): () => void {
    this.lingering.add(fn);
    this.lingerTimer ??= setTimeout(() => {
      this.lingerTimer = undefined;
      const all = [...this.lingering];
      this.lingering.clear();
      for (const f of all) f();
    }, this.lingerMs);
    this.lingerTimer.unref();
    return () => this.lingering.delete(fn);
  }

  private delivered(): void {
    this.pin();
    this.saveState();
  }

  /** The feed no longer holds what this webhook still lacks (more than maxBacklog changes behind,
   *  or a calendar that started from a newer snapshot): say so in its state, and go on. */
  private skip(hook: Webhook, st: WebhookState): void {
    const lost = `writes ${st.delivered + 1}..${this.feed.floor}`;
    this.log(
      `calendar-engine: webhook ${hook.id}: ${lost} are no longer retained and are skipped (at most ${this.maxBacklog} changes are kept for a lagging webhook)`,
    );
    st.skipped = (st.skipped ?? 0) + (this.feed.floor - st.delivered);
    st.lastStatus = `skipped ${lost}`;
    st.delivered = this.feed.floor;
    this.saveState();
  }

  /** The last body made, for the webhooks that take the same writes with the same types next
   *  (webhooks that keep up wake together and ask for the same batch). */
  private lastBody: { first: HeldChange; end: HeldChange; types: string; body: Buffer | undefined } | undefined;

  /** `{"changes":[...]}` (UTF-8) of the changes that `types` wants; undefined: none. */
  private body(held: HeldChange[], types: readonly string[]): Buffer | undefined {
    const key = types.join(','),
      a = held[0],
      b = held[held.length - 1];
    const memo = this.lastBody;
    if (memo !== undefined && memo.first === a && memo.end === b && memo.types === key) return memo.body;
    const text = joinTexts(held, types.length === 0 ? undefined : (h) => types.includes(h.type));
    const body = text === '' ? undefined : Buffer.from(`{"changes":[${text}]}`, 'utf8');
    this.lastBody = { first: a, end: b, types: key, body };
    return body;
  }

  /** The webhook's connection (a new one when its URL changed). Throws on a URL it cannot POST to. */
  private connection(hook: Webhook): PostConnection {
    const had = this.connections.get(hook.id);
    const key = `${hook.allowPrivate ? 'private ' : ''}${hook.url}`;
    if (had !== undefined && had.url === key) return had.conn;
    had?.conn.destroy();
    const headers = { 'Content-Type': 'application/json', 'X-Calendar-Webhook': hook.id };
    const conn = new PostConnection(hook.url, headers, { allowPrivate: hook.allowPrivate === true });
    this.connections.set(hook.id, { url: key, conn });
    return conn;
  }

  /** One delivery: the answer's status ('204'), 'timeout', 'error: ...', or ABORTED by stop(). */
  private async post(hook: Webhook, body: Buffer): Promise<string> {
    let conn: PostConnection;
    try {
      conn = this.connection(hook);
    } catch (err) {
      return `error: ${(err as Error).message}`;
    }
    const t = Math.floor(Date.now() / 1000);
    return conn.post({ 'X-Calendar-Signature': signature(hook.secret, t, body) }, body, this.timeoutMs);
  }

  /**
   * Stop delivering (pending deliveries wait in the feed for the next start). No new POST starts;
   * the POSTs in flight are waited for, up to stopWaitMs, and their answers recorded as any other
   * (a 2xx moves the position: that delivery is not made again); those still unanswered then are
   * aborted and recorded as nothing (the receiver may have had it: it comes again, as after a
   * crash). The positions are saved last, after any save still being written.
   */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.lingerTimer);
    this.lingerTimer = undefined;
    const wanted = this.saveTimer !== undefined || this.saving !== undefined || this.hooks.length > 0;
    this.off();
    for (const r of this.running.values()) r.wake(true);
    if (this.loops.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.stopWaitMs)));
      await Promise.race([Promise.all(this.loops), waited]);
      clearTimeout(timer);
    }
    // the POSTs still unanswered end as ABORTED; every connection closes
    for (const { conn } of this.connections.values()) conn.destroy(ABORTED);
    this.connections.clear();
    await Promise.all(this.loops);
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    while (this.saving) await this.saving;
    if (wanted) await this.backend.saveFinal(this.state);
  }
}
