// GET {prefix}/tribe/events/v1/changes: the change feed over HTTP. JSON by default (a page of
// changes, `next` to pass as `since` for the next page, the current `head` and the `oldest`
// seq still answerable); with `Accept: text/event-stream`, Server-Sent Events: one event per
// write (`id:` its seq, `event: changes`, `data:` the JSON array of its change records), resumed
// from `Last-Event-ID`, a heartbeat comment every 15 s. Readers see what they may read.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { CalendarError } from '../api/wordpress/errors.ts';
import type { Actor } from '../api/wordpress/types.ts';
import { CHANGE_TYPES, type Change, type ChangeType } from '../changes/feed.ts';
import { parseUrlEncoded } from './body.ts';

/** What the HTTP shell needs from a calendar to serve its change feed. */
export interface ChangeSource {
  changePage(opts: { since?: number; types?: ChangeType[]; limit: number; actor: Actor }): { changes: Change[]; next: number; head: number; oldest: number };
  /** a write at a time (the changes of one seq), pushed: the retained ones at once, then live; returns the unsubscribe */
  subscribeWrites(opts: { since?: number; types?: ChangeType[]; actor: Actor }, onWrite: (changes: Change[]) => void): () => void;
}

export const DEFAULT_LIMIT = 100;

/** Each change's JSON text, made once however many streams send it (the change objects are shared). */
const texts = new WeakMap<Change, string>();
function changeText(c: Change): string {
  let t = texts.get(c);
  if (t === undefined) texts.set(c, (t = JSON.stringify(c)));
  return t;
}
export const MAX_LIMIT = 1000;

function bad(name: string, message: string): CalendarError {
  return new CalendarError('rest_invalid_param', 400, `Invalid parameter(s): ${name}`, { params: { [name]: message } });
}

function one(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[v.length - 1] : v;
}

export interface ChangeQuery {
  since: number | undefined;
  types: ChangeType[] | undefined;
  limit: number;
}

/** since, types and limit from the query string (and Last-Event-ID), checked: 400 when wrong. */
export function changeQuery(query: string, lastEventId: string | undefined): ChangeQuery {
  const q = parseUrlEncoded(query) as Record<string, string | string[] | undefined>;
  const sinceText = one(q.since) ?? lastEventId;
  let since: number | undefined;
  if (sinceText !== undefined && sinceText !== '') {
    if (!/^\d+$/.test(sinceText)) throw bad('since', 'since must be a non-negative integer (a change seq)');
    since = Number(sinceText);
  }
  let types: ChangeType[] | undefined;
  const typesText = q.types === undefined ? undefined : (Array.isArray(q.types) ? q.types.join(',') : q.types);
  if (typesText !== undefined && typesText !== '') {
    types = [];
    for (const t of typesText.split(',').map((s) => s.trim()).filter(Boolean)) {
      if (!(CHANGE_TYPES as readonly string[]).includes(t)) throw bad('types', `types must be among ${CHANGE_TYPES.join(', ')}`);
      types.push(t as ChangeType);
    }
  }
  const limitText = one(q.limit);
  let limit = DEFAULT_LIMIT;
  if (limitText !== undefined) {
    if (!/^\d+$/.test(limitText) || Number(limitText) < 1) throw bad('limit', `limit must be an integer from 1 to ${MAX_LIMIT}`);
    limit = Math.min(MAX_LIMIT, Number(limitText));
  }
  return { since, types, limit };
}

/** True when the client asks for Server-Sent Events. */
export function wantsEventStream(req: IncomingMessage): boolean {
  return (req.headers.accept ?? '').includes('text/event-stream');
}

/**
 * Stream the feed as Server-Sent Events until the client goes away or `stop` is called. The
 * subscription is made (and `since` checked: 400, 410) before anything is written, so errors
 * are still ordinary JSON answers.
 */
export function streamChanges(
  req: IncomingMessage, res: ServerResponse, source: ChangeSource, q: ChangeQuery, actor: Actor, heartbeatMs: number,
): { stop(): void } {
  // writes acknowledged together (the journal commits them in groups) go out in one socket write
  let pending = '';
  let scheduled = false;
  let stopped = false;
  const flush = () => {
    scheduled = false;
    if (pending === '' || stopped) return;
    res.write(pending);
    pending = '';
  };
  const onWrite = (changes: Change[]) => {
    pending += `id: ${changes[0].seq}\nevent: changes\ndata: [${changes.map(changeText).join(',')}]\n\n`;
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
  // subscribing checks `since` (400, 410) before anything is written: errors stay JSON answers
  let unsubscribe: (() => void) | undefined;
  const head = () => {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=UTF-8',
      'Cache-Control': 'no-cache',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.write(': calendar-engine change feed\n\n');
  };
  unsubscribe = source.subscribeWrites({ since: q.since, types: q.types, actor }, onWrite);
  head();
  const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), heartbeatMs);
  const stop = () => {
    if (stopped) return;
    stopped = true;
    clearInterval(heartbeat);
    unsubscribe?.();
    unsubscribe = undefined;
    res.end();
  };
  req.on('close', stop);
  res.on('close', stop);
  return { stop };
}
