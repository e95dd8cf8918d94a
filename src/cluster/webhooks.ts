// Webhooks in a cluster (docs/cluster.md, docs/changes.md). The registrations and each webhook's
// position live in the KV bucket CAL_<name>_webhooks (keys `hook.<id>`: the webhook, its secret
// included; `state.<id>`: its position and last status), so every node and the CLI see the same.
// Only the writer delivers, from its own change feed (src/changes/webhooks.ts), saving positions
// with a revision check; every other node reads the positions each second and keeps in its feed
// what the furthest-behind webhook still lacks, so that a new writer resumes from the stored
// positions. A position is saved up to 100 ms after the 2xx that moved it: a writer that dies
// may leave the deliveries of those last 100 ms (and one in flight) to be sent again by the next
// (at least once across a failover; never twice within one writer's tenure).
import { jetstreamManager } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import type { ChangeFeed } from '../changes/feed.ts';
import { WebhookError, type Webhook, type WebhookState } from '../changes/webhook-registry.ts';
import { WebhookDispatcher, pinAtPositions, type DispatchOptions, type WebhookBackend } from '../changes/webhooks.ts';
import type { ClusterNode } from './node.ts';
import { natsNames, retry } from './connect.ts';

const webhookBucket = (name: string) => natsNames(name).webhooks;
const HOOK = 'hook.',
  STATE = 'state.';

/** The bucket, made if it is missing (a node at start). */
export function createWebhookBucket(nc: NatsConnection, name: string, replicas: number): Promise<KV> {
  return new Kvm(nc).create(webhookBucket(name), { replicas, history: 1 });
}

/** The bucket of a cluster that has run (the CLI); WebhookError when there is none. */
export async function openWebhookBucket(nc: NatsConnection, name: string): Promise<KV> {
  const jsm = await jetstreamManager(nc, { timeout: 5_000 });
  try {
    await jsm.streams.info(`KV_${webhookBucket(name)}`);
  } catch {
    throw new WebhookError(
      `cluster '${name}' has no webhook bucket (${webhookBucket(name)}): start a node of it first (serve --cluster ... --cluster-name ${name})`,
    );
  }
  return new Kvm(nc).open(webhookBucket(name));
}

/** The stream's last seq: where a new webhook starts (0 for a cluster without writes). */
export async function streamHead(nc: NatsConnection, name: string): Promise<number> {
  const jsm = await jetstreamManager(nc, { timeout: 5_000 });
  try {
    return (await jsm.streams.info(natsNames(name).stream)).state.last_seq;
  } catch {
    return 0;
  }
}

/** The bucket's last sequence: it moves with every put and delete, so an unchanged one spares
 *  listing the keys (each listing is a consumer made on the NATS servers). */
async function bucketSeq(kv: KV): Promise<number> {
  return (await kv.status()).streamInfo.state.last_seq;
}

async function values<T>(kv: KV, prefix: string, revisions?: Map<string, number>): Promise<Map<string, T>> {
  const out = new Map<string, T>();
  const keys: string[] = [];
  for await (const k of await kv.keys(`${prefix}>`)) keys.push(k);
  for (const k of keys) {
    const e = await kv.get(k);
    if (!e || e.operation !== 'PUT') continue;
    out.set(k.slice(prefix.length), e.json<T>());
    revisions?.set(k, e.revision);
  }
  return out;
}

const byCreated = (a: Webhook, b: Webhook) => a.created.localeCompare(b.created) || a.id.localeCompare(b.id);

/** The registered webhooks, oldest first. */
async function readHooks(kv: KV): Promise<Webhook[]> {
  return [...(await values<Webhook>(kv, HOOK)).values()].sort(byCreated);
}

/** The registered webhooks, oldest first, and the stored positions. */
export async function readClusterWebhooks(
  kv: KV,
  revisions?: Map<string, number>,
): Promise<{ hooks: Webhook[]; states: Record<string, WebhookState> }> {
  return { hooks: await readHooks(kv), states: Object.fromEntries(await values<WebhookState>(kv, STATE, revisions)) };
}

/** Registers a webhook; it starts with the writes after the stream's last seq now. */
export async function addClusterWebhook(kv: KV, hook: Webhook, head: number): Promise<void> {
  await kv.put(
    `${STATE}${hook.id}`,
    JSON.stringify({ delivered: head, lastStatus: 'new', lastAttempt: '', failures: 0 } satisfies WebhookState),
  );
  await kv.put(`${HOOK}${hook.id}`, JSON.stringify(hook));
}

export async function removeClusterWebhook(kv: KV, id: string): Promise<void> {
  await kv.delete(`${HOOK}${id}`);
  await kv.delete(`${STATE}${id}`);
}

/** The writer's backend: registrations re-read every reloadMs, positions saved with a revision check. */
class KvWebhooks implements WebhookBackend {
  private readonly revisions = new Map<string, number>();
  private readonly saved = new Map<string, string>();
  private registry = '';

  constructor(
    private readonly kv: KV,
    private readonly writer: () => boolean,
  ) {}

  async initial(): Promise<{ hooks: Webhook[]; states: Record<string, WebhookState> }> {
    const got = await readClusterWebhooks(this.kv, this.revisions);
    this.registry = JSON.stringify(got.hooks);
    for (const [id, st] of Object.entries(got.states)) this.saved.set(id, JSON.stringify(st));
    return got;
  }

  private seenSeq = -1;

  async reload(): Promise<{ hooks: Webhook[]; states: Record<string, WebhookState> } | undefined> {
    const seq = await bucketSeq(this.kv);
    if (seq === this.seenSeq) return undefined;
    const got = await this.read();
    this.seenSeq = seq;
    return got;
  }

  private async read(): Promise<{ hooks: Webhook[]; states: Record<string, WebhookState> } | undefined> {
    const hooks = await readHooks(this.kv);
    const text = JSON.stringify(hooks);
    if (text === this.registry) return undefined;
    this.registry = text;
    const states: Record<string, WebhookState> = {};
    for (const h of hooks) {
      if (this.revisions.has(`${STATE}${h.id}`)) continue;
      const e = await this.kv.get(`${STATE}${h.id}`);
      if (e?.operation !== 'PUT') continue;
      states[h.id] = e.json<WebhookState>();
      this.revisions.set(`${STATE}${h.id}`, e.revision);
      this.saved.set(h.id, JSON.stringify(states[h.id]));
    }
    return { hooks, states };
  }

  /**
   * Each changed position, as an update of the revision this node last saw. When it finds
   * another (a writer before it saved late), the furthest position wins: positions only ever
   * move forward, and any writer's says what a receiver acknowledged. A removed webhook's
   * position (deleted key) is not written back.
   */
  async save(states: Record<string, WebhookState>): Promise<void> {
    for (const [id, st] of Object.entries(states)) {
      const key = `${STATE}${id}`;
      let text = JSON.stringify(st);
      if (this.saved.get(id) === text) continue;
      const rev = this.revisions.get(key);
      try {
        this.revisions.set(
          key,
          rev === undefined ? await this.kv.create(key, text) : await this.kv.update(key, text, rev),
        );
      } catch {
        const e = await this.kv.get(key);
        if (!e || e.operation !== 'PUT') continue; // removed
        const stored = e.json<WebhookState>();
        if (stored.delivered > st.delivered) st.delivered = stored.delivered;
        text = JSON.stringify(st);
        this.revisions.set(key, await this.kv.update(key, text, e.revision));
      }
      this.saved.set(id, text);
    }
  }

  saveFinal(states: Record<string, WebhookState>): Promise<void> {
    return this.save(states).catch(() => {});
  }

  active(): boolean {
    return this.writer();
  }
}

/**
 * A node's part in delivering the cluster's webhooks: a dispatcher while it is the writer (made
 * afresh from the stored positions each time it becomes the writer, stopped when it no longer
 * is); otherwise its feed pinned at the stored positions.
 */
export class ClusterWebhooks {
  private dispatcher: WebhookDispatcher | undefined;
  private readonly timer: NodeJS.Timeout;
  private busy = false;
  private stopped = false;
  private pinnedAt = 0;
  /** the bucket's last sequence when the positions were last read (followers) */
  private seenSeq = -1;
  private readonly reloadMs: number;
  private readonly log: (line: string) => void;

  private readonly opts: DispatchOptions;

  private constructor(
    private readonly node: ClusterNode,
    private readonly feed: ChangeFeed,
    private readonly kv: KV,
    opts: DispatchOptions,
  ) {
    this.reloadMs = opts.reloadMs ?? 1_000;
    // the node's warnings (quiet where the node is)
    this.log = opts.log ?? node.opts.warn ?? ((line) => console.error(line));
    this.opts = { ...opts, log: this.log };
    this.timer = setInterval(() => void this.tick(), Math.min(250, this.reloadMs));
    this.timer.unref();
  }

  static async start(node: ClusterNode, feed: ChangeFeed, opts: DispatchOptions = {}): Promise<ClusterWebhooks> {
    // retried as the node's other buckets are when it connects (node.ts): on a busy machine
    // JetStream may not answer in time (in a CI run a node exited at start with a bare "timeout";
    // this was the one NATS call of the start not retried)
    const until = Date.now() + (node.opts.connectTimeoutMs ?? 30_000);
    const kv = await retry(until, () => createWebhookBucket(node.connection, node.opts.name, node.opts.replicas ?? 3));
    const w = new ClusterWebhooks(node, feed, kv, opts);
    await w.tick();
    return w;
  }

  private async tick(): Promise<void> {
    if (this.busy || this.stopped) return;
    this.busy = true;
    try {
      if (this.dispatcher && !this.node.isWriter) {
        await this.dispatcher.stop();
        this.dispatcher = undefined;
      }
      if (!this.dispatcher && this.node.isWriter) {
        const backend = new KvWebhooks(this.kv, () => this.node.isWriter && !this.stopped);
        const initial = await backend.initial();
        if (!this.node.isWriter || this.stopped) return;
        this.dispatcher = new WebhookDispatcher(this.feed, backend, initial, this.opts);
        this.dispatcher.start();
      } else if (!this.dispatcher && performance.now() - this.pinnedAt >= this.reloadMs) {
        this.pinnedAt = performance.now();
        const seq = await bucketSeq(this.kv);
        if (seq === this.seenSeq) return;
        const { hooks, states } = await readClusterWebhooks(this.kv);
        this.seenSeq = seq;
        pinAtPositions(this.feed, hooks, states, this.opts.maxBacklog);
      }
    } catch (err) {
      if (!this.stopped) this.log(`calendar-engine: cluster webhooks: ${(err as Error).message}`);
    } finally {
      this.busy = false;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    while (this.busy) await new Promise((r) => setTimeout(r, 10));
    await this.dispatcher?.stop();
    this.dispatcher = undefined;
  }
}
