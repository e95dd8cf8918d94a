// The change feed's verbs of the embedding API (Calendar.on, changes, changeWindow, changePage,
// subscribeWrites), over the feed and the readers of follow.ts.
import { fail } from '../api/wordpress/errors.ts';
import type { Actor } from '../api/wordpress/types.ts';
import { changeOf, type Change, type ChangeFeed, type ChangeType, type HeldChange } from './feed.ts';
import {
  changeFilter,
  checkSince,
  followChanges,
  subscribeWrites,
  type ChangePageQuery,
  type ChangeWindow,
} from './follow.ts';

/** `fn` hears every change once its write is durable, each as a fresh object; returns the removal. */
export function onChange(feed: ChangeFeed, event: 'change', fn: (change: Change) => void): () => void {
  if (event !== 'change') throw fail('invalid_option', [`on: expected 'change', got ${String(event)}`]);
  return feed.on((changes) => {
    for (const c of changes) fn(changeOf(c)); // a fresh object for each listener
  });
}

/** The changes after `since` (default: from now on), then every later one, that `actor` may see. */
export function followFeed(
  feed: ChangeFeed,
  opts: { since?: number; types?: ChangeType[] },
  actor: Actor | undefined,
): AsyncIterableIterator<Change> {
  return followChanges(feed, opts.since ?? feed.head, changeFilter(opts.types, actor));
}

/** One page of the feed as the feed holds it: `next` is the `since` of the next page. */
export function changeWindow(feed: ChangeFeed, opts: ChangePageQuery): ChangeWindow {
  const since = opts.since ?? feed.floor;
  checkSince(feed, since);
  const page = feed.after(since, opts.limit, changeFilter(opts.types, opts.actor));
  return { held: page.changes, next: page.last, head: feed.head, oldest: feed.floor };
}

/** One page of the feed with its changes as fresh objects. */
export function changePage(
  feed: ChangeFeed,
  opts: ChangePageQuery,
): { changes: Change[]; next: number; head: number; oldest: number } {
  const { held, ...rest } = changeWindow(feed, opts);
  return { changes: held.map(changeOf), ...rest };
}

/** The feed a write at a time (default: from now on); returns the unsubscribe. */
export function subscribeFeed(
  feed: ChangeFeed,
  opts: { since?: number; types?: ChangeType[]; actor: Actor },
  onWrite: (changes: readonly HeldChange[]) => void,
): () => void {
  return subscribeWrites(feed, opts.since ?? feed.head, changeFilter(opts.types, opts.actor), onWrite);
}
