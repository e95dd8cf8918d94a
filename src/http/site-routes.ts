// The site's own pages in the route table, beside the REST routes: the iCalendar feeds
// (`{site}/events/?ical=1`, `{site}/event/{slug}/?ical=1`) and the public pages of src/site/
// (every GET outside the REST prefix that SitePages answers). Their answers are written with
// their own headers (Reply.site), not as REST JSON.

import type { Actor } from '../api/wordpress/types.ts';
import type { SitePages } from '../site/pages.ts';
import { finishParams, parseUrlEncoded } from './body.ts';
import type { Handler, Router } from './router.ts';
import type { Reply, RestService, RouteContext } from './routes.ts';

const ICAL = /(?:^|&)ical=1(?:&|$)/;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Adds the feeds (when the calendar serves them) and, with `pages`, the public pages to `router`.
 * A feed's path without `?ical=1` is handed on to the pages; a path SitePages does not know is
 * handed on to the REST routes after it (the site index at `/`).
 */
export function addSiteRoutes(router: Router<RouteContext, Reply>, cal: RestService, pages?: SitePages): void {
  const site = cal.site;
  const sitePath = new URL(site.siteUrl).pathname.replace(/\/+$/, '');
  const base = escapeRegExp(sitePath);
  if (cal.ical && cal.icalEvent) {
    const ical = cal.ical.bind(cal);
    const icalEvent = cal.icalEvent.bind(cal);
    const feed = (slug: string | undefined, search: string, actor: Actor): Reply | undefined => {
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
    const list: Handler<RouteContext, Reply> = (req, ctx) => feed(undefined, req.search, ctx.actor);
    const one: Handler<RouteContext, Reply> = (req, ctx) =>
      feed(decodeURIComponent(req.params.slug), req.search, ctx.actor);
    router.add('GET', new RegExp(`^${base}/events/?$`), list, `${sitePath}/events/`);
    router.add('GET', new RegExp(`^${base}/event/(?<slug>[^/]+)/?$`), one, `${sitePath}/event/:slug/`);
  }
  if (pages !== undefined) {
    const restPath = site.restPrefix === '' ? undefined : `${site.restPrefix}/`;
    const page: Handler<RouteContext, Reply> = (req, ctx) => {
      if (restPath !== undefined && `${req.path}/`.startsWith(restPath)) return undefined;
      const answer = pages.answer(req.path, req.search, ctx.actor, ctx.headers?.accept);
      return answer === undefined ? undefined : { ...answer, site: 'page' };
    };
    router.add('GET', /^\//, page, `${sitePath}/*`);
  }
}
