// The site's own pages in the route table, beside the REST routes: the iCalendar feeds
// (`{site}/events/?ical=1`, `{site}/event/{slug}/?ical=1`) and the public pages of src/site/
// (every GET outside the REST prefix that SitePages answers). Their answers are written with
// their own headers (Reply.site), not as REST JSON.

import type { Actor, SiteConfig } from '../api/wordpress/types.ts';
import type { SitePages } from '../site/pages.ts';
import { finishParams, parseUrlEncoded } from './body.ts';
import type { Handler, RouteEntry } from './router.ts';

/** What a site route reads of the request's context (routes.ts's RouteContext has it). */
interface SiteContext {
  actor: Actor;
  headers?: { accept?: string };
}

/** A site route's answer: written with its own headers (routes.ts's Reply.site). */
interface SiteReply {
  status: number;
  headers: Record<string, string>;
  body: string;
  site: 'page' | 'feed';
}

/** What the site routes need of the calendar (routes.ts's RestService has it). */
interface SiteSource {
  readonly site: SiteConfig;
  ical?(query: Record<string, unknown>, as: Actor): string;
  icalEvent?(idOrSlug: string, as: Actor): string;
}

type SiteHandler = Handler<SiteContext, SiteReply>;

const ICAL = /(?:^|&)ical=1(?:&|$)/;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The router entries of the feeds (when the calendar serves them) and, with `pages`, of the
 * public pages. A feed's path without `?ical=1` is handed on to the pages; a path SitePages does
 * not know is handed on to the entries after them (the site index at `/`).
 */
export function siteRoutes(cal: SiteSource, pages?: SitePages): RouteEntry<SiteContext, SiteReply>[] {
  const entries: RouteEntry<SiteContext, SiteReply>[] = [];
  const add = (method: string, match: RegExp, handler: SiteHandler, path: string) =>
    entries.push({ method, match, handler, path });
  const site = cal.site;
  const sitePath = new URL(site.siteUrl).pathname.replace(/\/+$/, '');
  const base = escapeRegExp(sitePath);
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
