// openCalendar's options (the embedding API): their types and meaning. Each option that `serve`
// also takes is defaulted and checked by its row of the options table (src/options/options.ts).
import type { UserRegistry } from './users/registry.ts';
import type { DispatchOptions } from './changes/webhooks.ts';
import type { ClusterOptions } from './cluster/node.ts';

export interface CalendarOptions {
  /** store directory (snapshot + journal); omitted = memory only */
  dir?: string;
  /** site time zone: IANA id or 'UTC+2' style; default 'UTC' */
  timezone?: string;
  /** default per_page of every list; default 12 */
  perPage?: number;
  /** the clock behind every default ("today", "upcoming"); default the real clock */
  now?: () => Date;
  /** base of every link; default 'http://127.0.0.1:8080' */
  siteUrl?: string;
  /** REST prefix before /tribe/events/v1; default '/wp-json' */
  restPrefix?: string;
  /** users (default: DIR/users.json, or memory-only without a dir) */
  users?: UserRegistry;
  /** journal size that triggers an automatic compaction (bytes) */
  compactBytes?: number;
  /**
   * byte budget of the cache of rendered representations (JSON texts and object templates of
   * events, venues, organizers, terms), least recently used evicted first; default 64 MiB, 0 = none
   */
  cacheBytes?: number;
  /** the change feed keeps at most this many changes (default 100,000) ... */
  changesRetainCount?: number;
  /** ... no older than this, ms (default 7 days) ... */
  changesRetainMs?: number;
  /** ... and at most about this many bytes of them, even those a webhook still lacks (default
   *  128 MiB; a change costs its JSON text's length and 160 bytes) */
  changesRetainBytes?: number;
  /** deliver the change feed to the webhooks of DIR/webhooks.json (default true with a dir);
   *  an object tunes the retries (src/changes/webhooks.ts) */
  webhooks?: boolean | DispatchOptions;
  /** run as one node of a replicated calendar on NATS JetStream (docs/cluster.md) instead of a
   *  local store: the state comes from the cluster's snapshot and log; `dir` then holds users only */
  cluster?: ClusterOptions;
  /** open the store without writing anything to it (no lock, no change log, no webhooks): reads
   *  work, writes are refused with 503 calendar_read_only (docs/faults.md) */
  readOnly?: boolean;
  /** how often a store whose disk failed is probed, ms (default 2000; it is also probed at each write) */
  faultProbeMs?: number;
  /** largest file the media library accepts, in bytes (default 20 MiB) */
  uploadLimit?: number;
}
