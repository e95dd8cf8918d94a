// The users of a clustered calendar, cluster-wide: the users file (the same JSON as a single
// server's DIR/users.json: logins, roles, salted password hashes) is the key `users` of the
// JetStream key-value bucket CAL_<name>_users (R3). A change is a compare-and-set on its revision
// (UserRegistry.apply), so two changes made at once on different nodes never lose one another;
// every node watches the key and installs each new version as soon as it is written.
import type { NatsConnection } from '@nats-io/transport-node';
import { Kvm, type KV, type KvEntry } from '@nats-io/kv';
import type { QueuedIterator } from '@nats-io/nats-core';
import { UserRegistry, type RemoteUsers } from '../users/registry.ts';
import { connectNats, natsNames, retry, type ClusterConnection } from './connect.ts';
import { sleep } from './forward.ts';

const KEY = 'users';
/** how long a read or a write of the users waits out JetStream not answering */
const PATIENCE_MS = 15_000;

/** JetStream did not answer in time (an election, a stream just made): worth asking again. */
function isTransient(err: unknown): boolean {
  const e = err as Error;
  return e?.name === 'TimeoutError' || /timeout|timed out|no responders|503/i.test(e?.message ?? '');
}

/** The bucket of calendar `name`'s users (made when missing, as the node makes its others). */
export async function usersBucket(nc: NatsConnection, name: string, replicas: number): Promise<KvUsers> {
  return new KvUsers(await new Kvm(nc).create(natsNames(name).users, { replicas, history: 5 }), name);
}

export class KvUsers implements RemoteUsers {
  readonly where: string;
  private watcher: QueuedIterator<KvEntry> | undefined;
  private poll: NodeJS.Timeout | undefined;
  private stopped = false;
  /** the watch loop (settled(): it has ended) */
  private loop: Promise<void> = Promise.resolve();

  constructor(
    private readonly kv: KV,
    name: string,
  ) {
    this.where = `the users of cluster ${name} (bucket ${natsNames(name).users})`;
  }

  /** The current version; retried for a while when JetStream does not answer (a bucket just made, an election). */
  async read(): Promise<{ text: string; revision: number }> {
    for (const until = Date.now() + PATIENCE_MS; ; ) {
      try {
        const e = await this.kv.get(KEY);
        return { text: e?.operation === 'PUT' ? e.string() : '', revision: e?.revision ?? 0 };
      } catch (err) {
        if (!isTransient(err) || Date.now() > until) throw err;
        await sleep(250);
      }
    }
  }

  /**
   * `text` as the version after `revision`, or false when another change came first. A write
   * that times out may have been stored: the key is read again to tell (the text holds a freshly
   * salted hash or a new id, so finding it means this write made it).
   */
  async write(text: string, revision: number): Promise<boolean> {
    for (const until = Date.now() + PATIENCE_MS; ; ) {
      try {
        if (revision === 0) await this.kv.create(KEY, text);
        else await this.kv.update(KEY, text, revision);
        return true;
      } catch (err) {
        if (/wrong last sequence|key exists/i.test((err as Error).message)) return false; // another change came first
        if (!isTransient(err) || Date.now() > until) throw err;
        const now = await this.read();
        if (now.text === text) return true;
        if (now.revision !== revision) return false;
      }
    }
  }

  /**
   * Every newer version, pushed by a KV watch; also read every 5 s, in case the watch stalls
   * while NATS recovers from an outage (as a consumer may, see node.ts).
   */
  watch(onText: (text: string) => void): void {
    let seen = 0;
    const take = (e: KvEntry | null) => {
      if (!e || e.revision <= seen || this.stopped) return;
      seen = e.revision;
      onText(e.operation === 'PUT' ? e.string() : '');
    };
    this.loop = (async () => {
      while (!this.stopped) {
        try {
          this.watcher = await this.kv.watch({ key: KEY });
          if (this.stopped) this.watcher.stop();
          for await (const e of this.watcher) take(e);
        } catch (err) {
          if (this.stopped || (err as Error).name === 'ClosedConnectionError') return; // the node is closing
          await new Promise((r) => setTimeout(r, 1_000).unref());
        }
      }
    })();
    this.poll = setInterval(() => this.kv.get(KEY).then(take, () => {}), 5_000);
    this.poll.unref?.();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.poll);
    this.watcher?.stop();
  }

  /**
   * Resolves once the watch has ended (after stop()): close the connection only then. A watch
   * still being made when the connection starts to drain leaves nats.js's idle-heartbeat timer of
   * its consumer running (a ref'd 5 s interval: the process never exits), as the consumer's
   * subscription then throws after that timer started.
   */
  settled(): Promise<void> {
    return this.loop;
  }
}

/**
 * The users of cluster `opts.name` for the command line (`calendar-engine user ... --cluster`):
 * its own connection, closed by `close()`.
 */
export async function openClusterUsers(
  opts: ClusterConnection,
): Promise<{ users: UserRegistry; close(): Promise<void> }> {
  const until = Date.now() + (opts.connectTimeoutMs ?? 10_000);
  const nc = await connectNats(opts, until);
  try {
    const remote = await retry(until, () => usersBucket(nc, opts.name, opts.replicas ?? 3));
    const users = UserRegistry.open();
    await users.attach(remote);
    return {
      users,
      async close() {
        users.close();
        await remote.settled();
        await nc.close();
      },
    };
  } catch (err) {
    await nc.close().catch(() => {});
    throw err;
  }
}
