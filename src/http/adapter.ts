// node:http ⇄ router. The listener turns an IncomingMessage into a plain `{method, url}` for
// itty (rewriting `?rest_route=` and applying `_method`), reads a capped body for writes,
// authenticates, and writes the Reply with one writeHead + end. WordPress core's response
// helpers (`_fields`, `_envelope`, `_jsonp`) are applied here, and only when asked for.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { type CalendarError, fail, isCalendarError } from '../api/wordpress/errors.ts';
import { toJson } from '../api/representation/represent.ts';
import { Authenticator, type AuthOptions } from './auth.ts';
import { DEFAULT_BODY_LIMIT, hasBody, readBody } from './body.ts';
import { BodyBuffers } from './body-buffers.ts';
import { createRoutes, JSON_TYPE, type Reply, type RestService, type Routes } from './routes.ts';
import { changePageText, changeQuery, streamChanges, wantsEventStream, type ChangeSource } from './changes.ts';
import { finishParams, parseUrlEncoded } from './body.ts';
import { MULTIPART_ALLOWANCE, serveUpload } from '../media/http.ts';
import { tooBig } from '../media/library.ts';
import { UPLOADS_PATH } from '../media/represent.ts';
import { SitePages, type PageSource, type SiteOptions } from '../site/pages.ts';

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

/** itty needs an absolute URL; links are built from cal.site, never from this. */
const ORIGIN = 'http://calendar.invalid';

const LIST_KEYS = ['events', 'venues', 'organizers', 'categories', 'tags'];
const ENVELOPE_KEYS = new Set(['rest_url', 'next_rest_url', 'previous_rest_url', 'total', 'total_pages', ...LIST_KEYS]);
const META_RE = /[?&](?:_fields|_envelope|_jsonp)(?:[=&]|$)/;
const METHOD_RE = /[?&]_method=/;

export interface ParsedTarget {
  /** path + query as the router sees it (rest_route rewritten to the pretty form) */
  url: string;
  /** raw query string (without '?') */
  query: string;
}

/**
 * `/?rest_route=/tribe/events/v1/events&page=2` (also `/index.php?rest_route=`) →
 * `{restPrefix}/tribe/events/v1/events?page=2`; any other target is kept as is.
 */
export function rewriteTarget(target: string, restPrefix: string): ParsedTarget {
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  const query = q < 0 ? '' : target.slice(q + 1);
  if (query !== '' && (path === '/' || path === '/index.php') && /(?:^|&)rest_route=/.test(query)) {
    const sp = new URLSearchParams(query);
    const route = sp.get('rest_route') ?? '/';
    sp.delete('rest_route');
    const rest = sp.toString();
    const encoded = route
      .split('/')
      .map((s) => encodeURIComponent(s))
      .join('/');
    const prefix = restPrefix.replace(/\/+$/, '');
    const url = `${prefix}${encoded.startsWith('/') ? '' : '/'}${encoded}${rest ? `?${rest}` : ''}`;
    return { url, query: rest };
  }
  return { url: target, query };
}

/** The length of the parts' concatenation. */
function partsLength(parts: readonly string[]): number {
  let n = 0;
  for (let i = 0; i < parts.length; i++) n += parts[i].length;
  return n;
}

/** The method after WordPress's overrides: `?_method=` first, then X-HTTP-Method-Override. */
export function effectiveMethod(method: string, query: string, override: string | string[] | undefined): string {
  if (METHOD_RE.test(`?${query}`)) {
    const m = new URLSearchParams(query).get('_method');
    if (m) return m.toUpperCase();
  }
  if (typeof override === 'string' && override !== '') return override.toUpperCase();
  return method;
}

type Mask = { [key: string]: true | Mask };

const newMask = (): Mask => Object.create(null) as Mask;

function addPath(mask: Mask, path: string[]): void {
  let cur = mask;
  for (let i = 0; i < path.length; i++) {
    const k = path[i];
    if (cur[k] === true) return;
    if (i === path.length - 1) {
      cur[k] = true;
      return;
    }
    cur = (cur[k] ??= newMask()) as Mask;
  }
}

function applyMask(value: unknown, mask: Mask): unknown {
  if (Array.isArray(value)) return value.map((v) => applyMask(v, mask));
  if (value === null || typeof value !== 'object') return value;
  const src = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(src)) {
    const m = mask[k];
    if (m === undefined || !Object.hasOwn(mask, k)) continue;
    out[k] = m === true ? src[k] : applyMask(src[k], m);
  }
  return out;
}

/**
 * `_fields=a,b.c`: keeps only the named top-level keys (nested with dots). For a list answer,
 * names of the page envelope (`events`, `total`, `rest_url`…) select envelope keys and every
 * other name selects keys of each listed record.
 */
export function filterFields(data: unknown, fields: string): unknown {
  const names = fields
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (names.length === 0 || data === null || typeof data !== 'object') return data;
  const obj = data as Record<string, unknown>;
  const listKey = Array.isArray(obj) ? undefined : LIST_KEYS.find((k) => Array.isArray(obj[k]) && 'rest_url' in obj);
  const mask = newMask();
  if (listKey === undefined) {
    for (const n of names) addPath(mask, n.split('.'));
    return applyMask(data, mask);
  }
  const itemMask = newMask();
  let itemNames = 0;
  for (const n of names) {
    const path = n.split('.');
    if (ENVELOPE_KEYS.has(path[0])) addPath(mask, path);
    else {
      addPath(itemMask, path);
      itemNames++;
    }
  }
  if (itemNames > 0 && mask[listKey] !== true) {
    const existing = mask[listKey];
    mask[listKey] = existing === undefined ? itemMask : Object.assign(existing, itemMask);
  }
  return applyMask(data, mask);
}

/** Turns a thrown value into an error Reply; logs anything that is not a CalendarError. */
export function errorReply(err: unknown, what: string, log: (line: string) => void): Reply {
  let e: CalendarError;
  if (isCalendarError(err)) e = err;
  else {
    const name = err instanceof Error ? err.name : typeof err;
    const message = err instanceof Error ? err.message : String(err);
    log(`internal error on ${what}: ${name}: ${message.split('\n')[0]}`);
    e = fail('internal_error');
  }
  const status = Number.isInteger(e.status) && e.status >= 400 && e.status <= 599 ? e.status : 500;
  // a write refused while the store's disk fails: worth trying again shortly (the store probes it)
  const headers: Record<string, string> = e.code.startsWith('storage_') ? { 'Retry-After': '5' } : {};
  if (typeof e.data.retry_after === 'number') headers['Retry-After'] = String(e.data.retry_after);
  return { status, headers, body: toJson(e.toJSON()) };
}

interface Extras {
  fields: string | null;
  envelope: boolean;
  jsonp: string | null;
}

function readExtras(query: string): Extras | null {
  if (!META_RE.test(`?${query}`)) return null;
  const sp = new URLSearchParams(query);
  return { fields: sp.get('_fields'), envelope: sp.has('_envelope'), jsonp: sp.get('_jsonp') };
}

/** Applies _fields, _envelope and _jsonp (WordPress core order: fields, then envelope). */
function decorate(reply: Reply, x: Extras): { reply: Reply; contentType: string } {
  let { status, body, ascii } = reply;
  let headers = reply.headers;
  if (x.fields !== null && status < 300) body = toJson(filterFields(JSON.parse(body), x.fields));
  if (x.envelope) {
    body = `{"body":${body},"status":${status},"headers":${JSON.stringify(headers)}}`;
    status = 200;
    headers = {};
    ascii = false; // a header value may hold any character
  }
  if (x.jsonp !== null) {
    if (!/^[\w.]+$/.test(x.jsonp)) {
      const err = fail('rest_callback_invalid');
      return { reply: { status: 400, headers: {}, body: toJson(err.toJSON()) }, contentType: JSON_TYPE };
    }
    return {
      reply: { status, headers, body: `/**/${x.jsonp}(${body})`, ascii },
      contentType: 'application/javascript; charset=UTF-8',
    };
  }
  return { reply: { status, headers, body, ascii }, contentType: JSON_TYPE };
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

/** How long, and how many bytes, the rest of a refused body is read after the answer, at most. */
const LINGER_MS = 2_000;
const LINGER_BYTES = 8 * 1024 * 1024;

/**
 * A body too large is answered 413 at once (with Connection: close), unread: its Content-Length
 * said so, or its chunks reached the limit. Closing a socket with the client's data unread makes
 * the kernel reset the connection, which can destroy the answer on its way to a client still
 * sending; so once the answer is written, the connection's sending side is shut and what still
 * comes is read and dropped, for at most LINGER_MS and LINGER_BYTES (a lingering close, as
 * nginx's), then the connection is closed.
 */
function lingerAfterAnswer(req: IncomingMessage): void {
  const socket = req.socket;
  if (req.complete || socket.destroyed) return;
  // node:http ends a Connection: close answer with socket.destroySoon() (end, then destroy)
  socket.destroySoon = function lingeringClose(this: typeof socket) {
    // the parser goes on reading (and dropping) the body; watch how much of it came
    const start = this.bytesRead;
    const t0 = Date.now();
    const watch = setInterval(() => {
      if (req.complete || this.bytesRead - start > LINGER_BYTES || Date.now() - t0 >= LINGER_MS) this.destroy();
    }, 20);
    watch.unref();
    this.once('close', () => clearInterval(watch));
    // a body cut off at the limit was paused by readBody: drop the rest as it comes
    req.on('data', () => {});
    req.resume();
    this.end();
  };
}

/**
 * X-Calendar-Min-Seq: N — answer only once the calendar reflects write N (a client reading its
 * own writes on another node of a cluster); 503 rest_cluster_behind after `ms`.
 */
async function awaitMinSeq(cal: RestService, header: string | string[] | undefined, ms: number): Promise<void> {
  if (header === undefined || !cal.waitForSeq) return;
  const value = Array.isArray(header) ? header[0] : header;
  if (!/^\d{1,15}$/.test(value.trim())) {
    throw fail(
      'rest_invalid_param',
      [],
      {},
      { message: `X-Calendar-Min-Seq: expected a write's seq (a whole number), got '${value}'.` },
    );
  }
  if (!(await cal.waitForSeq(Number(value), ms))) {
    throw fail('rest_cluster_behind', [value, ms / 1000, cal.seq ?? 0], { seq: cal.seq ?? 0 });
  }
}

/** The request listener for one calendar. Never throws and never leaves a request unanswered. */
export function createListener(cal: RestService, opts: ListenerOptions = {}): Listener {
  const routes = createRoutes(cal);
  const auth = new Authenticator(cal.users, Date.now, { loginLimits: opts.loginLimits, loginErrors: opts.loginErrors });
  const limit = opts.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const site = cal.site;
  const link = `<${site.siteUrl}${site.restPrefix}/>; rel="https://api.w.org/"`;
  const changesPath = `${site.restPrefix}/tribe/events/v1/changes`;
  // the site's own pages that serve iCalendar feeds, below the site URL's path
  const sitePath = new URL(site.siteUrl).pathname.replace(/\/+$/, '');
  const icalTarget = (path: string, query: string): { slug?: string } | undefined => {
    if (!/(?:^|&)ical=1(?:&|$)/.test(query) || !path.startsWith(sitePath + '/')) return undefined;
    const rest = path.slice(sitePath.length);
    if (rest === '/events/' || rest === '/events') return {};
    const m = /^\/event\/([^/]+)\/?$/.exec(rest);
    return m ? { slug: decodeURIComponent(m[1]) } : undefined;
  };
  // uploaded files, below the site URL's path; an upload's body may be larger than other bodies
  const uploadsPath = sitePath + UPLOADS_PATH;
  const mediaPath = new RegExp(`^${site.restPrefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/wp/v2/media/*$`, 'i');
  // the public pages (one dispatch point below: every GET/HEAD outside the REST prefix)
  const pages =
    opts.site !== false && typeof cal.read === 'function'
      ? new SitePages(cal as PageSource, opts.site ?? {})
      : undefined;
  const restPath = site.restPrefix === '' ? undefined : site.restPrefix + '/';
  /** what list bodies are copied into on their way to the socket (body-buffers.ts) */
  const bodies = new BodyBuffers();
  /** open Server-Sent Events streams: ended when the server closes */
  const streams = new Set<{ stop(): void }>();

  const send = (
    req: IncomingMessage,
    res: ServerResponse,
    reply: Reply,
    head: boolean,
    extras: Extras | null,
    close: boolean,
  ) => {
    let contentType = JSON_TYPE;
    if (extras !== null) ({ reply, contentType } = decorate(reply, extras));
    // (a list given as its parts is measured by them: its body is joined only if it is read)
    const bytes =
      reply.ascii !== true
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
    if (head) res.end();
    else if (
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

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const { url, query } = rewriteTarget(req.url ?? '/', site.restPrefix);
    const method = effectiveMethod(req.method ?? 'GET', query, req.headers['x-http-method-override']);
    const head = method === 'HEAD';
    let extras: Extras | null = null;
    try {
      extras = readExtras(query);
      const path = url.split('?')[0];
      if (cal.media && (method === 'GET' || head) && path.startsWith(uploadsPath)) {
        await serveUpload(cal.media, path.slice(uploadsPath.length), req, res, head, listener.closing);
        return;
      }
      let body: Buffer | null = null;
      if (WRITE_METHODS.has(method) && hasBody(req)) {
        if (cal.media && method === 'POST' && mediaPath.test(path)) {
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
      const feed = icalTarget(url.split('?')[0], query);
      if (feed && cal.ical && cal.icalEvent && (method === 'GET' || head)) {
        const params = finishParams(parseUrlEncoded(query)) as Record<string, unknown>;
        delete params.ical;
        const text = feed.slug === undefined ? cal.ical(params, actor) : cal.icalEvent(feed.slug, actor);
        const bytes = Buffer.byteLength(text);
        res.writeHead(200, {
          'Content-Type': 'text/calendar; charset=UTF-8',
          'Content-Length': bytes,
          'Content-Disposition': `attachment; filename="${feed.slug ?? 'events'}.ics"`,
          ...(listener.closing ? { Connection: 'close' } : {}),
        });
        if (head) res.end();
        else res.end(text);
        return;
      }
      if (url.split('?')[0] === changesPath && cal.changeWindow && cal.subscribeWrites && (method === 'GET' || head)) {
        const lastEventId = req.headers['last-event-id'];
        const q = changeQuery(query, typeof lastEventId === 'string' ? lastEventId : undefined);
        if (wantsEventStream(req) && !head) {
          const stream = streamChanges(req, res, cal as ChangeSource, q, actor, opts.heartbeatMs ?? 15_000);
          streams.add(stream);
          res.on('close', () => streams.delete(stream));
          return;
        }
        const page = cal.changeWindow({ since: q.since, types: q.types, limit: q.limit, actor });
        send(req, res, { status: 200, headers: {}, body: changePageText(page), ascii: true }, head, extras, false);
        return;
      }
      if (pages && (method === 'GET' || head)) {
        const path = url.split('?')[0];
        if (restPath === undefined || !(path + '/').startsWith(restPath)) {
          const page = pages.answer(path, query, actor, req.headers.accept);
          if (page !== undefined) {
            sendPage(res, page, head);
            return;
          }
        }
      }
      const reply = await routes.fetch(
        { method: head ? 'GET' : method, url: ORIGIN + url },
        { actor, body, contentType: req.headers['content-type'], headers: req.headers },
      );
      if (reply === undefined) throw fail('rest_no_route');
      // the site's root is the home page for browsers and this index for the others
      if (pages && (url.split('?')[0] === sitePath + '/' || url.split('?')[0] === (sitePath || '/')))
        reply.headers = { ...reply.headers, Vary: 'Accept' };
      send(req, res, reply, head, extras, false);
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
    handle(req, res).catch((err) => {
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
