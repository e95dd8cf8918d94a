// Reading the change feed: who may see which change, and following it (the retained changes
// after a seq, then live ones) as an async iterator, for the embedding API and the HTTP route.

import { canReadPost } from '../api/wordpress/auth.ts';
import { type CalendarError, fail } from '../api/wordpress/errors.ts';
import type { Actor } from '../api/wordpress/types.ts';
import type { ChangeFeed } from './feed.ts';
import { CHANGE_TYPES, changeOf, type Change, type ChangeType, type HeldChange } from './change.ts';

/**
 * Which changes a reader sees: those of the given types, and (for an actor; undefined = every
 * change) those about records it may read, before or after the change: anonymous readers see
 * changes to published records (a published event being trashed included), a draft's changes
 * reach only those who may read the draft. Terms are public.
 */
export function changeFilter(
  types: readonly ChangeType[] | undefined,
  actor: Actor | undefined,
): (c: HeldChange) => boolean {
  const wanted = new Set(types ?? CHANGE_TYPES);
  return (c) => {
    if (!wanted.has(c.type)) return false;
    if (actor === undefined || c.type === 'category' || c.type === 'tag') return true;
    const readable = (status: string | undefined) =>
      status !== undefined && status !== 'trash' && canReadPost(actor, { authorId: c.owner, status });
    return readable(c.before) || readable(c.after);
  };
}

/** 410: the changes after `since` are no longer all retained. */
export function expired(since: number, floor: number): CalendarError {
  return fail('rest_changes_expired', [since, floor], { oldest: floor });
}

export function checkSince(feed: ChangeFeed, since: number): void {
  if (!Number.isSafeInteger(since) || since < 0) {
    throw fail('rest_invalid_param', ['since'], {
      params: { since: 'since must be a non-negative integer (a change seq)' },
    });
  }
  if (since < feed.floor) throw expired(since, feed.floor);
}

/** What a page of the feed is asked for: changes after `since` (default: the oldest retained), of
 *  `types`, that `actor` may read, whole writes up to at least `limit` changes. */
export interface ChangePageQuery {
  since?: number;
  types?: ChangeType[];
  limit: number;
  actor: Actor;
}

/** A page of the feed as held: `next` is the `since` of the next page, `head` the last write's
 *  seq, `oldest` the lowest `since` still answerable. */
export interface ChangeWindow {
  held: readonly HeldChange[];
  next: number;
  head: number;
  oldest: number;
}

/**
 * The feed a write at a time, pushed instead of pulled: `onWrite` is called at once for each
 * retained write after `since`, then synchronously for each new one, until the returned function
 * is called. No promise per write and reader: what a server with many streams wants.
 */
export function subscribeWrites(
  feed: ChangeFeed,
  since: number,
  visible: (c: HeldChange) => boolean,
  onWrite: (changes: readonly HeldChange[]) => void,
): () => void {
  checkSince(feed, since);
  const first = feed.after(since, Number.POSITIVE_INFINITY, visible);
  let cursor = first.last;
  const off = feed.on((changes) => {
    const out: HeldChange[] = [];
    for (const c of changes) if (c.seq > cursor && visible(c)) out.push(c);
    cursor = Math.max(cursor, changes[changes.length - 1].seq);
    // a subscriber that sees all of a write gets the feed's own array, which every such
    // subscriber gets, so that what they make of it (an SSE event's text) can be made once
    if (out.length === changes.length) onWrite(changes);
    else if (out.length > 0) onWrite(out);
  });
  for (let i = 0; i < first.changes.length; ) {
    let j = i + 1;
    while (j < first.changes.length && first.changes[j].seq === first.changes[i].seq) j++;
    onWrite(first.changes.slice(i, j));
    i = j;
  }
  return off;
}

/** The retained changes after `since`, then the live ones, until return() is called: each a
 *  fresh object. A queue filled by subscribeWrites, emptied by next(). */
export function followChanges(
  feed: ChangeFeed,
  since: number,
  visible: (c: HeldChange) => boolean,
): AsyncIterableIterator<Change> {
  const queue: HeldChange[] = [];
  let wake: (() => void) | undefined;
  let done = false;
  const wakeUp = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  // the retained writes are queued before this returns; a write's changes come in one call, so
  // the queue never holds part of a write
  const off = subscribeWrites(feed, since, visible, (changes) => {
    for (let i = 0; i < changes.length; i++) queue.push(changes[i]);
    wakeUp();
  });
  const it: AsyncIterableIterator<Change> = {
    async next(): Promise<IteratorResult<Change>> {
      for (;;) {
        if (queue.length > 0) return { value: changeOf(queue.shift()!), done: false };
        if (done) return { value: undefined, done: true };
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
    async return(): Promise<IteratorResult<Change>> {
      done = true;
      off();
      wakeUp();
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]() {
      return it;
    },
  };
  return it;
}
