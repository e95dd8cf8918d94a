// A calendar as one node of a cluster (docs/cluster.md): the newest snapshot from the object
// store into the engine, then the calendar built on it, with the node as its write log, follows
// the stream and stands for writer.
import type { Engine } from '../engine/engine.ts';
import type { ChangeFeed } from '../changes/feed.ts';
import type { DispatchOptions } from '../changes/webhooks.ts';
import type { UserRegistry } from '../users/registry.ts';
import type { LogHost } from '../write-log/log.ts';
import { ClusterNode, type ClusterOptions } from './node.ts';
import { ClusterWebhooks } from './webhooks.ts';

/** What the node needs of the calendar built on it: its internal handle (src/calendar-handle.ts). */
export interface NodeHandle extends LogHost {
  cluster: ClusterNode | undefined;
  readonly feed: ChangeFeed;
  readonly users: UserRegistry;
  /** run in order when the calendar closes, before its log (the node) closes */
  readonly stoppers: Array<() => unknown>;
}

/** Connects, loads the newest snapshot into `engine` (empty), builds the calendar at that seq with
 *  `make` (the node its write log); the writer delivers the cluster's webhooks (webhooks.ts)
 *  unless `webhooks` is false. */
export async function openNode<H extends NodeHandle>(
  options: ClusterOptions,
  engine: Engine,
  make: (node: ClusterNode, seq: number) => H,
  webhooks?: boolean | DispatchOptions,
): Promise<{ handle: H; node: ClusterNode }> {
  const node = await ClusterNode.connect(options);
  try {
    const seq = await node.load(engine);
    engine.warmInBackground();
    const handle = make(node, seq);
    // the users are the cluster's (users.ts), not DIR/users.json (which seeds them once, if none yet)
    await handle.users.attach(node.users, (err) =>
      (options.warn ?? console.warn)(`cluster ${options.name}: users not reloaded: ${err.message}`),
    );
    handle.cluster = node;
    node.start(handle);
    if (webhooks !== false) {
      const delivery = await ClusterWebhooks.start(node, handle.feed, typeof webhooks === 'object' ? webhooks : {});
      handle.stoppers.push(() => delivery.stop());
    }
    return { handle, node };
  } catch (err) {
    await node.close();
    throw err;
  }
}
