// GET {prefix}/tribe/events/v1/changes: the change feed over HTTP. JSON by default (a page of
// changes, `next` to pass as `since` for the next page, the current `head` and the `oldest`
// seq still answerable); with `Accept: text/event-stream`, Server-Sent Events: one event per
// write (`id:` its seq, `event: changes`, `data:` the JSON array of its change records), resumed
// from `Last-Event-ID`, a heartbeat comment every 15 s. Readers see what they may read. A client
// whose Accept-Encoding takes gzip (browsers' EventSource does) gets the stream gzipped: each
// batch is compressed once for all the streams that are sent it (src/http/gzip-pieces.ts).

import type { IncomingMessage, ServerResponse } from 'node:http';
import { type CalendarError, fail } from '../api/wordpress/errors.ts';
import type { Actor } from '../api/wordpress/types.ts';
import { CHANGE_TYPES, joinTexts, type ChangeType, type HeldChange } from '../changes/change.ts';
import type { ChangePageQuery, ChangeWindow } from '../changes/follow.ts';
import { escapeNonAscii } from '../ascii-json.ts';
import { oneByte } from '../api/representation/represent.ts';
import { parseUrlEncoded } from './body.ts';
import { GZIP_HEADER, GzipPiece, GzipState, acceptsGzip } from './gzip-pieces.ts';
import { READABLE, type RouteSpec } from '../api/args.ts';

/** What the HTTP shell needs from a calendar to serve its change feed. */
export interface ChangeSource {
  /** a page of changes as the feed holds them */
  changeWindow(opts: ChangePageQuery): ChangeWindow;
  /** a write at a time (the changes of one seq), pushed: the retained ones at once, then live; returns the unsubscribe */
  subscribeWrites(
    opts: { since?: number; types?: ChangeType[]; actor: Actor },
    onWrite: (changes: readonly HeldChange[]) => void,
  ): () => void;
}

export const DEFAULT_LIMIT = 100;

export const MAX_LIMIT = 1000;

/** A JSON page: `{"changes":[...],"next":N,"head":N,"oldest":N}` written from the changes' texts
 *  (what toJson of the page with its changes as objects gives: ASCII, the same keys in order). */
export function changePageText(w: ChangeWindow): string {
  return oneByte(
    escapeNonAscii(`{"changes":[${joinTexts(w.held)}],"next":${w.next},"head":${w.head},"oldest":${w.oldest}}`),
  );
}

/** One write's SSE event, made once for every stream that is sent the same changes. */
const writeTexts = new WeakMap<readonly HeldChange[], string>();
function writeText(changes: readonly HeldChange[]): string {
  let t = writeTexts.get(changes);
  if (t === undefined)
    writeTexts.set(changes, (t = `id: ${changes[0].seq}\nevent: changes\ndata: [${joinTexts(changes)}]\n\n`));
  return t;
}

function bad(name: string, message: string): CalendarError {
  return fail('rest_invalid_param', [name], { params: { [name]: message } });
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
  const typesText = q.types === undefined ? undefined : Array.isArray(q.types) ? q.types.join(',') : q.types;
  if (typesText !== undefined && typesText !== '') {
    types = [];
    for (const t of typesText
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      if (!(CHANGE_TYPES as readonly string[]).includes(t))
        throw bad('types', `types must be among ${CHANGE_TYPES.join(', ')}`);
      types.push(t as ChangeType);
    }
  }
  const limitText = one(q.limit);
  let limit = DEFAULT_LIMIT;
  if (limitText !== undefined) {
    if (!/^\d+$/.test(limitText) || Number(limitText) < 1)
      throw bad('limit', `limit must be an integer from 1 to ${MAX_LIMIT}`);
    limit = Math.min(MAX_LIMIT, Number(limitText));
  }
  return { since, types, limit };
}

/** True when the client asks for Server-Sent Events. */
export function wantsEventStream(req: { headers: { accept?: string } }): boolean {
  return (req.headers.accept ?? '').includes('text/event-stream');
}

/** The change feed's route, in the route table of the namespace (OPTIONS, discovery, /doc). */
export function changeRoutes(): RouteSpec[] {
  return [
    {
      path: '/changes',
      pattern: '/changes',
      endpoints: [
        {
          methods: READABLE,
          op: { resource: 'changes', action: 'get' },
          summary:
            'The change feed: a page of changes after `since` (JSON), or with Accept: text/event-stream ' +
            'one Server-Sent Event per write, resumed from Last-Event-ID',
          args: {
            since: { type: 'integer', description: "the seq of the last change seen (the previous page's next)" },
            types: {
              type: 'string',
              description: `only changes of these types, comma-separated: ${CHANGE_TYPES.join(', ')}`,
            },
            limit: {
              type: 'integer',
              description: `changes a page holds at most, 1 to ${MAX_LIMIT}`,
              default: DEFAULT_LIMIT,
            },
          },
          responses: {
            '200': 'a page of changes (changes, next, head, oldest), or a stream of Server-Sent Events',
            '400': 'since, types or limit is not valid',
          },
        },
      ],
    },
  ];
}

/**
 * How long a group of streams waits after its last socket writes before the next: long enough
 * that all the open streams together take at most SOCKET_WRITES_PER_SECOND socket writes a
 * second (2 ms per open stream), at least 25 ms and at most 1 s. A write that comes after a quiet
 * spell goes out at once; under a steady stream of writes a follower gets them in batches (every
 * 25 ms with up to 12 streams open, every 200 ms with 100), however fast writes come: a socket
 * write to a follower costs 20-30 microseconds of the one thread that also serves the writes
 * (on loopback, with gzip's small batches, that is most of a follower's cost: measured,
 * docs/changes.md). The price is a follower lag of up to that interval under load.
 */
const SOCKET_WRITES_PER_SECOND = 500;
/** the shortest wait: below it a few streams' batches are so small that making each one's text
 *  and its own deflate block cost more than the writes (1 follower: 83-86 % of the writes/s
 *  without one at 5 ms, 96-109 % at 25 ms, in alternating bench:changes runs) */
const MIN_INTERVAL_MS = 25;
let openStreams = 0;
const flushInterval = (): number =>
  Math.max(MIN_INTERVAL_MS, Math.min(1000, (openStreams * 1000) / SOCKET_WRITES_PER_SECOND));

interface Stream {
  res: ServerResponse;
  /** how much of its group's log it has been sent */
  pos: number;
  /** what it is sent before its group's writes: the retained writes it asked for */
  replay: string;
  /** a gzipped stream: what it has been sent, for its trailer */
  gzip: GzipState | undefined;
}

/** Texts every stream is sent, made (and compressed) once. */
const OPENING = ': calendar-engine change feed\n\n',
  HEARTBEAT = ': heartbeat\n\n';
let openingPiece: GzipPiece | undefined, heartbeatPiece: GzipPiece | undefined;

/** Writes `text` to a stream (as it is, or gzipped); `piece` is its compressed form when it is had already. */
function send(s: Stream, text: string | Buffer, piece?: GzipPiece): void {
  if (s.gzip === undefined) s.res.write(text);
  else s.res.write(s.gzip.add(piece ?? new GzipPiece(typeof text === 'string' ? Buffer.from(text, 'utf8') : text)));
}

/**
 * The live streams of one reader (the same actor and types see the same changes): each write is
 * filtered and made into its SSE event once for all of them, kept in the group's log until the
 * next flush, and written to every stream as one joined text (encoded to bytes once, and
 * compressed once for the gzipped streams).
 */
class StreamGroup {
  readonly streams = new Set<Stream>();
  /** the writes not yet sent to the streams that are up to date (made into text at the flush:
   *  nothing but this push is done inside a write's acknowledgement) */
  private log: (readonly HeldChange[])[] = [];
  private scheduled = false;
  private lastFlush = 0;
  private readonly off: () => void;

  constructor(
    source: ChangeSource,
    types: ChangeType[] | undefined,
    actor: Actor,
    private readonly onEmpty: () => void,
  ) {
    this.off = source.subscribeWrites({ types, actor }, (changes) => {
      this.log.push(changes);
      this.schedule();
    });
  }

  add(stream: Stream): void {
    stream.pos = this.log.length;
    this.streams.add(stream);
    if (stream.replay !== '') this.schedule();
  }

  remove(stream: Stream): void {
    this.streams.delete(stream);
    if (this.streams.size === 0) {
      this.off();
      this.onEmpty();
    }
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    const wait = this.lastFlush + flushInterval() - performance.now();
    if (wait <= 0) setImmediate(() => this.flush());
    else setTimeout(() => this.flush(), wait);
  }

  private flush(): void {
    this.scheduled = false;
    this.lastFlush = performance.now();
    // the group's writes encoded once, the same bytes written to every stream that is up to date
    let all: Buffer | undefined, piece: GzipPiece | undefined;
    for (const s of this.streams) {
      if (s.replay === '' && s.pos === 0) {
        if (this.log.length === 0) continue;
        all ??= Buffer.from(this.text(0), 'utf8');
        if (s.gzip !== undefined) piece ??= new GzipPiece(all);
        send(s, all, piece);
        continue;
      }
      const text = s.replay + this.text(s.pos);
      s.replay = '';
      s.pos = 0;
      if (text !== '') send(s, text);
    }
    this.log = [];
  }

  /** The SSE events of the log's writes from `from` on. */
  private text(from: number): string {
    let t = '';
    for (let i = from; i < this.log.length; i++) t += writeText(this.log[i]);
    return t;
  }
}

const groups = new WeakMap<ChangeSource, Map<string, StreamGroup>>();

function groupOf(source: ChangeSource, types: ChangeType[] | undefined, actor: Actor): StreamGroup {
  let bySource = groups.get(source);
  if (bySource === undefined) groups.set(source, (bySource = new Map()));
  const key = `${actor ? `${actor.id}:${actor.role}` : 'anonymous'}|${types ? [...types].sort().join(',') : ''}`;
  let group = bySource.get(key);
  if (group === undefined) {
    const map = bySource;
    group = new StreamGroup(source, types, actor, () => map.delete(key));
    bySource.set(key, group);
  }
  return group;
}

/**
 * Stream the feed as Server-Sent Events until the client goes away or `stop` is called. The
 * retained writes it asks for (`since`, 400 and 410 checked) are read before anything is written,
 * so errors are still ordinary JSON answers; then it joins the group of streams of the same reader.
 */
export function streamChanges(
  req: IncomingMessage,
  res: ServerResponse,
  source: ChangeSource,
  q: ChangeQuery,
  actor: Actor,
  heartbeatMs: number,
): { stop(): void } {
  // the retained writes after `since`, up to now: read in this tick, before joining the group,
  // which is sent only writes made from now on
  let replay = '';
  if (q.since !== undefined)
    source.subscribeWrites({ since: q.since, types: q.types, actor }, (changes) => (replay += writeText(changes)))();
  const gzip = acceptsGzip(req.headers['accept-encoding']);
  const stream: Stream = { res, pos: 0, replay, gzip: gzip ? new GzipState() : undefined };
  const group = groupOf(source, q.types, actor);
  group.add(stream);
  openStreams++;
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=UTF-8',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
    Vary: 'Accept-Encoding',
    ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
  });
  if (gzip) {
    res.write(GZIP_HEADER);
    openingPiece ??= new GzipPiece(Buffer.from(OPENING));
  }
  send(stream, OPENING, openingPiece);
  const heartbeat = setInterval(
    () => send(stream, HEARTBEAT, gzip ? (heartbeatPiece ??= new GzipPiece(Buffer.from(HEARTBEAT))) : undefined),
    heartbeatMs,
  );
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    openStreams--;
    clearInterval(heartbeat);
    group.remove(stream);
    // a gzipped stream ends as a whole gzip file: a final empty block, its CRC-32 and length
    if (stream.gzip && !res.destroyed) res.end(stream.gzip.trailer());
    else res.end();
  };
  req.on('close', stop);
  res.on('close', stop);
  return { stop };
}
