// A calendar as one node of a cluster (docs/cluster.md): the newest snapshot from the object
// store into the engine, then the calendar built on it follows the stream and stands for writer.
import type { Engine } from '../engine/engine.ts';
import type { Write } from '../engine/records.ts';
import type { RestCall, RestResult } from '../api/wordpress/types.ts';
import type { ChangeFeed } from '../changes/feed.ts';
import type { DispatchOptions } from '../changes/webhooks.ts';
import type { UserRegistry } from '../users/registry.ts';
import { ClusterNode, type ClusterOptions } from './node.ts';
import { ClusterWebhooks } from './webhooks.ts';

/** What the node needs of the calendar built on it (src/calendar.ts). */
export interface NodeCalendar {
  cluster: ClusterNode | undefined;
  webhooks: { stop(): Promise<void> } | undefined;
  readonly feed: ChangeFeed;
  readonly engine: Engine;
  readonly users: UserRegistry;
  applyWrite(write: Write): void;
  replaceEngine(engine: Engine, seq: number): void;
  restHere(call: RestCall): Promise<RestResult>;
}

/** Connects, loads the newest snapshot into `engine` (empty), builds the calendar at that seq with
 *  `make`; the writer delivers the cluster's webhooks (webhooks.ts) unless `webhooks` is false. */
export async function openNode<C extends NodeCalendar>(
  options: ClusterOptions,
  engine: Engine,
  make: (seq: number) => C,
  webhooks?: boolean | DispatchOptions,
): Promise<C> {
  const node = await ClusterNode.connect(options);
  try {
    const seq = await node.load(engine);
    engine.warmInBackground();
    const cal = make(seq);
    // the users are the cluster's (users.ts), not DIR/users.json (which seeds them once, if none yet)
    await cal.users.attach(node.users, (err) =>
      (options.warn ?? console.warn)(`cluster ${options.name}: users not reloaded: ${err.message}`),
    );
    cal.cluster = node;
    node.start({
      get engine() {
        return cal.engine;
      },
      applyWrite: (write) => cal.applyWrite(write),
      replaceEngine: (e, at) => cal.replaceEngine(e, at),
      rest: (call) => cal.restHere(call),
    });
    if (webhooks !== false)
      cal.webhooks = await ClusterWebhooks.start(node, cal.feed, typeof webhooks === 'object' ? webhooks : {});
    return cal;
  } catch (err) {
    await node.close();
    throw err;
  }
}
