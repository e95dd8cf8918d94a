// The site's own pages in the route table, beside the REST routes: the uploaded files
// (`{site}/wp-content/uploads/…`, served as a web server serves them: before the body is read
// and the caller authenticated), the iCalendar feeds (`{site}/events/?ical=1`,
// `{site}/event/{slug}/?ical=1`) and the public pages of src/site/ (every GET outside the REST
// prefix that SitePages answers). Their answers are written with their own headers
// (Reply.site), not as REST JSON.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Actor, SiteConfig } from '../api/wordpress/types.ts';
import { serveUpload } from '../media/http.ts';
import type { MediaLibrary } from '../media/library.ts';
import { UPLOADS_PATH } from '../media/represent.ts';
import type { SitePages } from '../site/pages.ts';
import { finishParams, parseUrlEncoded } from './body.ts';
import type { Handler, RouteEntry } from './router.ts';

/** What a site route reads of the request's context (routes.ts's RouteContext has it). */
interface SiteContext {
  actor: Actor;
  headers?: { accept?: string };
  head?: boolean;
  respond?(write: (req: IncomingMessage, res: ServerResponse, close: boolean) => Promise<void>): Promise<void>;
}

/** A site route's answer: written with its own headers (routes.ts's Reply.site). */
interface SiteReply {
  status: number;
  headers: Record<string, string>;
  body: string;
  site: 'page' | 'feed' | 'file';
}

/** What the site routes need of the calendar (routes.ts's RestService has it). */
interface SiteSource {
  readonly site: SiteConfig;
  ical?(query: Record<string, unknown>, as: Actor): string;
  icalEvent?(idOrSlug: string, as: Actor): string;
  readonly media?: MediaLibrary;
}

type SiteHandler = Handler<SiteContext, SiteReply>;

const ICAL = /(?:^|&)ical=1(?:&|$)/;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The router entries of the uploaded files (when the calendar has a media library), the feeds
 * (when the calendar serves them) and, with `pages`, of the public pages. A feed's path without
 * `?ical=1` is handed on to the pages; a path SitePages does not know is handed on to the
 * entries after them (the site index at `/`).
 */
export function siteRoutes(cal: SiteSource, pages?: SitePages): RouteEntry<SiteContext, SiteReply>[] {
  const entries: RouteEntry<SiteContext, SiteReply>[] = [];
  const add = (method: string, match: RegExp, handler: SiteHandler, path: string, kind?: 'file') =>
    entries.push(kind === undefined ? { method, match, handler, path } : { method, match, handler, path, kind });
  const site = cal.site;
  const sitePath = new URL(site.siteUrl).pathname.replace(/\/+$/, '');
  const base = escapeRegExp(sitePath);
  // uploaded files, below the site URL's path (GET and HEAD): every answer, a 404 too, is
  // serveUpload's; without a media library the path is handed on
  const uploadsPath = sitePath + UPLOADS_PATH;
  const file: SiteHandler = async (req, ctx) => {
    const media = cal.media;
    if (!media || ctx.respond === undefined) return undefined;
    const rel = req.path.slice(uploadsPath.length);
    await ctx.respond((nodeReq, res, close) => serveUpload(media, rel, nodeReq, res, ctx.head === true, close));
    return { status: 200, headers: {}, body: '', site: 'file' };
  };
  add('GET', new RegExp(`^${escapeRegExp(uploadsPath)}`), file, `${uploadsPath}*`, 'file');
  if (cal.ical && cal.icalEvent) {
    const ical = cal.ical.bind(cal);
    const icalEvent = cal.icalEvent.bind(cal);
    const feed = (slug: string | undefined, search: string, actor: Actor): SiteReply | undefined => {
      if (!ICAL.test(search)) return undefined;
      let text: string;
      if (slug === undefined) {
        const params = finishParams(parseUrlEncoded(search)) as Record<string, unknown>;
        delete params.ical;
        text = ical(params, actor);
      } else text = icalEvent(slug, actor);
      return {
        status: 200,
        headers: {
          'Content-Type': 'text/calendar; charset=UTF-8',
          'Content-Disposition': `attachment; filename="${slug ?? 'events'}.ics"`,
        },
        body: text,
        site: 'feed',
      };
    };
    const list: SiteHandler = (req, ctx) => feed(undefined, req.search, ctx.actor);
    const one: SiteHandler = (req, ctx) => feed(decodeURIComponent(req.params.slug), req.search, ctx.actor);
    add('GET', new RegExp(`^${base}/events/?$`), list, `${sitePath}/events/`);
    add('GET', new RegExp(`^${base}/event/(?<slug>[^/]+)/?$`), one, `${sitePath}/event/:slug/`);
  }
  if (pages !== undefined) {
    const restPath = site.restPrefix === '' ? undefined : `${site.restPrefix}/`;
    const page: SiteHandler = (req, ctx) => {
      if (restPath !== undefined && `${req.path}/`.startsWith(restPath)) return undefined;
      const answer = pages.answer(req.path, req.search, ctx.actor, ctx.headers?.accept);
      return answer === undefined ? undefined : { ...answer, site: 'page' };
    };
    add('GET', /^\//, page, `${sitePath}/*`);
  }
  return entries;
}
