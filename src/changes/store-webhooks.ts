// Where a single process keeps its webhooks: the store directory's webhooks.json (the registry
// that `calendar-engine webhook add/list/remove` edits) and webhooks-state.json (each webhook's
// position). The delivery itself is webhooks.ts's; a cluster keeps the same in its KV bucket
// (src/cluster/webhooks.ts).

import path from 'node:path';
import { writeFileAtomic, writeFileAtomicSync } from '../store/atomic-file.ts';
import { FileStamp } from '../shared-file/edit.ts';
import { isStorageError, nameFile } from '../store/faults.ts';
import type { ChangeFeed } from './feed.ts';
import { WebhookDispatcher, type DispatchOptions, type WebhookBackend } from './webhooks.ts';
import {
  REGISTRY,
  STATE,
  readWebhookState,
  readWebhooks,
  type Webhook,
  type WebhookState,
} from './webhook-registry.ts';

/** The store directory's webhooks.json (re-read when its mtime or size changes) and webhooks-state.json. */
export class StoreWebhooks implements WebhookBackend {
  private readonly stamp: FileStamp;
  constructor(private readonly dir: string) {
    this.stamp = new FileStamp(path.join(dir, REGISTRY));
  }

  /** What is stored now (synchronously: the feed is pinned before it is filled at start-up). */
  initial(): { hooks: Webhook[]; states: Record<string, WebhookState> } {
    this.stamp.changed();
    return { hooks: readWebhooks(this.dir), states: readWebhookState(this.dir) };
  }

  reload(): Promise<{ hooks: Webhook[]; states: Record<string, WebhookState> } | undefined> {
    if (!this.stamp.changed()) return Promise.resolve(undefined);
    return Promise.resolve({ hooks: readWebhooks(this.dir), states: {} });
  }

  /** (a failed save is logged by the dispatcher and made again at the next change: the file's
   *  name is in the error, a full disk's own message says only `write`) */
  save(states: Record<string, WebhookState>): Promise<void> {
    const file = path.join(this.dir, STATE);
    return writeFileAtomic(file, stateText(states)).catch((err: unknown) => {
      throw nameFile(err, file);
    });
  }

  /** At stop: a disk that refuses it costs deliveries made again after the restart, not the stop. */
  saveFinal(states: Record<string, WebhookState>): void {
    const file = path.join(this.dir, STATE);
    try {
      writeFileAtomicSync(file, stateText(states));
    } catch (err) {
      if (!isStorageError(err)) throw err;
      console.error(
        `calendar-engine: webhooks: positions not saved at stop (${(nameFile(err, file) as Error).message}); deliveries since the last save come again`,
      );
    }
  }

  active(): boolean {
    return true;
  }
}

const stateText = (states: Record<string, WebhookState>) => JSON.stringify(states, null, 2) + '\n';

/** The dispatcher of a store directory's webhooks, `feed` pinned at their positions (call start()
 *  once the feed is filled). An unreadable registry is logged, and read again once it changes. */
export function storeDispatcher(dir: string, feed: ChangeFeed, opts: DispatchOptions): WebhookDispatcher {
  const backend = new StoreWebhooks(dir);
  let initial: ReturnType<StoreWebhooks['initial']> = { hooks: [], states: {} };
  try {
    initial = backend.initial();
  } catch (err) {
    (opts.log ?? console.error)(`calendar-engine: webhooks: ${(err as Error).message}`);
  }
  return new WebhookDispatcher(feed, backend, initial, opts);
}
