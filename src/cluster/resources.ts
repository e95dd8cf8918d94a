// What a cluster node works with on NATS, made sure of before it starts: the connection, the
// log stream (R3 by default, a two-minute window for duplicate message ids), the writer lease's
// KV bucket, the snapshots' object store and the users' KV bucket. Each is created when missing,
// retried until the connect timeout (JetStream answers only once its cluster has elected a meta
// leader).
import type { NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { type KV, Kvm } from '@nats-io/kv';
import { type ObjectStore, Objm, setSha256Backend } from '@nats-io/obj';
import { connectNats, natsNames, retry } from './connect.ts';
import type { ClusterOptions } from './replica.ts';
import { type KvUsers, usersBucket } from './users.ts';

export interface ClusterResources {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
  /** the writer lease's bucket */
  kv: KV;
  /** the snapshots */
  os: ObjectStore;
  users: KvUsers;
}

/** Connects and makes sure the stream, the lease bucket, the snapshot store and the users'
 *  bucket exist; the connection is closed again when one of them cannot be had. */
export async function openResources(opts: ClusterOptions): Promise<ClusterResources> {
  const replicas = opts.replicas ?? 3;
  // the object store checks every snapshot's SHA-256: node:crypto, not the pure-JS default
  setSha256Backend('native');
  const until = Date.now() + (opts.connectTimeoutMs ?? 30_000);
  const nc = await connectNats(opts, until);
  try {
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
    return { nc, js: jetstream(nc, { timeout: 5_000 }), jsm, kv, os, users };
  } catch (err) {
    await nc.close().catch(() => {});
    throw err;
  }
}
