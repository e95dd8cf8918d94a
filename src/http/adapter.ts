// node:http ⇄ router. The listener turns an IncomingMessage into a plain `{method, url}` for
// the router (request.ts: `?rest_route=` rewritten, `_method` applied), reads a capped body for writes,
// authenticates, and writes the Reply with one writeHead + end. WordPress core's response
// options (`_fields`, `_envelope`, `_jsonp`: wp-response.ts) are applied only when asked for; a
// refused body ends in a lingering close (linger.ts).

import { noteRequest } from '../engine/background.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fail, isCalendarError } from '../api/wordpress/errors.ts';
import { Authenticator, type AuthOptions } from './auth.ts';
import { DEFAULT_BODY_LIMIT, hasBody, readBody } from './body.ts';
import { BodyBuffers } from './body-buffers.ts';
import {
  createRoutes,
  JSON_TYPE,
  type Reply,
  type RestService,
  type RouteContext,
  type Routes,
  STREAMED,
} from './routes.ts';
import { MULTIPART_ALLOWANCE } from '../media/http.ts';
import { tooBig } from '../media/library.ts';
import type { PageSource } from '../site/page-reads.ts';
import { SitePages, type SiteOptions } from '../site/pages.ts';
import { lingerAfterAnswer } from './linger.ts';
import { RepeatAnswers } from './repeat-answers.ts';
import { awaitMinSeq, effectiveMethod, rewriteTarget } from './request.ts';
import { decorate, errorReply, type Extras, readExtras } from './wp-response.ts';

export interface ListenerOptions extends AuthOptions {
  /** largest accepted request body in bytes (default 1 MiB); larger → 413 */
  bodyLimit?: number;
  /** one line per internal error (never credentials or bodies) */
  log?: (line: string) => void;
  /** Server-Sent Events of the change feed: a comment this often (default 15 s) */
  heartbeatMs?: number;
  /** how long a request with X-Calendar-Min-Seq waits for this node to reach that seq (default 5 s) */
  minSeqWaitMs?: number;
  /** the calendar's public pages (src/site/): their options, or false for an API-only service;
   *  served by default when the calendar can read in process (has `read`) */
  site?: SiteOptions | false;
}

/** The length of the parts' concatenation. */
function partsLength(parts: readonly string[]): number {
  let n = 0;
  for (let i = 0; i < parts.length; i++) n += parts[i].length;
  return n;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface Listener {
  (req: IncomingMessage, res: ServerResponse): void;
  routes: Routes;
  auth: Authenticator;
  /** while true, every answer says Connection: close (graceful shutdown) */
  closing: boolean;
  /** end every open change stream (Server-Sent Events), so that a shutdown is not held up */
  endStreams(): void;
}

/** The request listener for one calendar. Never throws and never leaves a request unanswered. */
export function createListener(cal: RestService, opts: ListenerOptions = {}): Listener {
  const auth = new Authenticator(cal.users, Date.now, { loginLimits: opts.loginLimits, loginErrors: opts.loginErrors });
  const limit = opts.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const site = cal.site;
  const link = `<${site.siteUrl}${site.restPrefix}/>; rel="https://api.w.org/"`;
  // the public pages: routes of the table (site-routes.ts), every GET/HEAD outside the REST prefix
  const pages =
    opts.site !== false && typeof cal.read === 'function'
      ? new SitePages(cal as PageSource, opts.site ?? {})
      : undefined;
  const routes = createRoutes(cal, { pages });
  /** what list bodies are copied into on their way to the socket (body-buffers.ts) */
  const bodies = new BodyBuffers();
  /** open Server-Sent Events streams: ended when the server closes */
  const streams = new Set<{ stop(): void }>();
  /** kept list pages sent again to anonymous GETs of the same target (repeat-answers.ts) */
  const repeat =
    cal.nodeInfo === undefined
      ? new RepeatAnswers(
          () => site.now(),
          () => cal.seq,
        )
      : undefined;

  const send = (
    req: IncomingMessage,
    res: ServerResponse,
    reply: Reply,
    head: boolean,
    extras: Extras | null,
    close: boolean,
    /** the second an anonymous GET's answer was planned in (RepeatAnswers.second), else -1 */
    second = -1,
  ) => {
    let contentType = JSON_TYPE;
    if (extras !== null) ({ reply, contentType } = decorate(reply, extras));
    // (a list given as its parts is measured by them: its body is joined only if it is read)
    const ready = reply.ascii === true && extras === null ? reply.bytes : undefined;
    const bytes =
      ready !== undefined
        ? ready.length
        : reply.ascii !== true
          ? Buffer.byteLength(reply.body)
          : reply.parts !== undefined
            ? partsLength(reply.parts)
            : reply.body.length;
    const headers: Record<string, string | number> = {
      'Content-Type': contentType,
      'Content-Length': bytes,
      Link: link,
      'X-Content-Type-Options': 'nosniff',
      ...reply.headers,
    };
    if (cal.seq !== undefined) headers['X-Calendar-Seq'] = cal.seq;
    if (cal.nodeInfo !== undefined) headers['X-Calendar-Node'] = cal.nodeInfo;
    const origin = req.headers.origin;
    if (origin !== undefined) {
      headers['Access-Control-Allow-Origin'] = origin;
      headers['Access-Control-Allow-Methods'] = 'OPTIONS, GET, POST, PUT, PATCH, DELETE';
      headers['Access-Control-Allow-Credentials'] = 'true';
      headers['Access-Control-Allow-Headers'] =
        'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type';
      headers['Access-Control-Expose-Headers'] =
        'X-WP-Total, X-WP-TotalPages, Link, X-TEC-Total, X-TEC-TotalPages, X-Calendar-Seq, X-Calendar-Node';
      headers.Vary = 'Origin';
    }
    if (close || listener.closing) headers.Connection = 'close';
    res.writeHead(reply.status, headers);
    // A body whose UTF-8 length equals its length is ASCII: latin1 writes it as a plain copy,
    // where the UTF-8 encoder walks it character by character (JSON here is ASCII-escaped).
    // A list's pieces go straight into a reused buffer (body-buffers.ts); other bodies as text.
    // A page kept whole (page-cache.ts) is written as its bytes, as they are.
    if (head) res.end();
    else if (ready !== undefined) {
      res.end(ready);
      if (second >= 0 && reply.current !== undefined && !listener.closing)
        repeat?.remember(req.url ?? '', second, reply as { status: number; current(): boolean }, headers, ready);
    } else if (
      reply.parts === undefined ||
      reply.ascii !== true ||
      extras !== null ||
      !bodies.end(res, reply.parts, bytes)
    ) {
      res.end(reply.body, bytes === reply.body.length ? 'latin1' : 'utf8');
    }
  };

  const sendPage = (
    res: ServerResponse,
    page: { status: number; headers: Record<string, string>; body: string },
    head: boolean,
  ) => {
    const headers: Record<string, string | number> = {
      ...page.headers,
      'Content-Length': Buffer.byteLength(page.body),
      Link: link,
      'X-Content-Type-Options': 'nosniff',
    };
    if (cal.seq !== undefined) headers['X-Calendar-Seq'] = cal.seq;
    if (listener.closing) headers.Connection = 'close';
    res.writeHead(page.status, headers);
    if (head) res.end();
    else res.end(page.body);
  };

  const sendFeed = (res: ServerResponse, feed: Reply, head: boolean) => {
    res.writeHead(200, {
      ...feed.headers,
      'Content-Length': Buffer.byteLength(feed.body),
      ...(listener.closing ? { Connection: 'close' } : {}),
    });
    if (head) res.end();
    else res.end(feed.body);
  };

  /** `second`: for an anonymous plain GET, the second its answer is planned in (the listener's
   *  RepeatAnswers.second()), else -1 */
  const handle = async (req: IncomingMessage, res: ServerResponse, second: number) => {
    // a route that streams (the change feed's Server-Sent Events) opens its stream on `res`
    const openStream: RouteContext['stream'] = (open) => {
      const stream = open(req, res, opts.heartbeatMs ?? 15_000);
      streams.add(stream);
      res.on('close', () => streams.delete(stream));
      return STREAMED;
    };
    const { url, query } = rewriteTarget(req.url ?? '/', site.restPrefix);
    const method = effectiveMethod(req.method ?? 'GET', query, req.headers['x-http-method-override']);
    const head = method === 'HEAD';
    let extras: Extras | null = null;
    try {
      extras = readExtras(query);
      // a file (the uploads) is served before the body is read and the caller authenticated
      if (method === 'GET' || head) {
        const respond: RouteContext['respond'] = (write) => write(req, res, listener.closing);
        const ctx = { actor: null, body: null, contentType: undefined, headers: req.headers, head, respond };
        if ((await routes.fetch({ method: 'GET', url }, ctx, true)) !== undefined) return;
      }
      let body: Buffer | null = null;
      if (WRITE_METHODS.has(method) && hasBody(req)) {
        if (cal.media && routes.kindOf({ method, url }) === 'upload') {
          // an upload: the file may be up to the upload limit (a form's other fields on top);
          // a Content-Length past it is refused before a byte of the body is read
          const media = cal.media;
          const form = /^\s*multipart\//i.test(req.headers['content-type'] ?? '');
          body = await readBody(req, media.limit + (form ? MULTIPART_ALLOWANCE : 0)).catch((err: unknown) => {
            throw isCalendarError(err) && err.status === 413 ? tooBig(media.limit) : err;
          });
        } else body = await readBody(req, limit);
      }
      const actor = await auth.authenticate(req.headers.authorization, req.socket.remoteAddress);
      await awaitMinSeq(cal, req.headers['x-calendar-min-seq'], opts.minSeqWaitMs ?? 5_000);
      const reply = await routes.fetch(
        { method: head ? 'GET' : method, url },
        { actor, body, contentType: req.headers['content-type'], headers: req.headers, head, stream: openStream },
      );
      if (reply === STREAMED) return;
      if (reply === undefined) throw fail('rest_no_route');
      if (reply.site === 'page') return sendPage(res, reply, head);
      if (reply.site === 'feed') return sendFeed(res, reply, head);
      send(req, res, reply, head, extras, false, second);
    } catch (err) {
      const tooLarge = isCalendarError(err) && err.status === 413;
      if (tooLarge) lingerAfterAnswer(req);
      const path = url.split('?')[0];
      send(
        req,
        res,
        errorReply(err, `${method} ${path}`, log),
        head,
        extras?.envelope || extras?.jsonp ? { ...extras, fields: null } : null,
        tooLarge,
      );
    }
  };

  const listener = ((req: IncomingMessage, res: ServerResponse) => {
    // background work keeps its slices short while requests come (engine/background.ts)
    noteRequest();
    let second = -1;
    if (repeat !== undefined && !listener.closing && RepeatAnswers.eligible(req)) {
      const again = repeat.get(req.url ?? '');
      if (again !== undefined) {
        res.writeHead(again.page.status, again.headers);
        res.end(again.body);
        return;
      }
      second = repeat.second();
    }
    handle(req, res, second).catch((err) => {
      // only a failure while writing the answer gets here
      log(`internal error while answering: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) {
        res.writeHead(500, { 'Content-Type': JSON_TYPE });
        res.end(JSON.stringify(fail('internal_error').toJSON()));
      } else res.destroy();
    });
  }) as Listener;
  listener.routes = routes;
  listener.endStreams = () => {
    for (const s of streams) s.stop();
    streams.clear();
  };
  listener.auth = auth;
  listener.closing = false;
  return listener;
}
