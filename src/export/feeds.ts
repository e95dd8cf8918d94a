// The iCalendar feeds of the site's pages, as the plugin serves `{site}/events/?ical=1` and
// `{site}/event/{slug}/?ical=1`: what the acting caller may read through the REST list and get,
// written as RFC 5545 text by ical.ts (a series as one VEVENT with its rules, each exception with
// its RECURRENCE-ID).
import { CalendarError, fail } from '../api/wordpress/errors.ts';
import type { Actor, Page, Params, RestCall, SiteConfig } from '../api/wordpress/types.ts';
import { icalFeed, type FeedSite } from './ical.ts';

type Item = Record<string, unknown>;

/** What a feed reads: the calendar's REST reads and its site. */
export interface FeedSource {
  readonly site: SiteConfig;
  read(call: RestCall): Page<Item> | Item;
}

/** The feed of the events a list call gives (`per_page` up to 50, default 30). */
export function listFeed(src: FeedSource, query: Params, actor: Actor): string {
  const page = src.read({
    resource: 'events',
    action: 'list',
    params: { per_page: 30, ...query },
    actor,
  }) as Page<Item>;
  return icalFeed(page.items, feedSite(src.site), (id) => seriesItem(src, id, actor));
}

/** The feed of one event; an event that does not exist is a 404 (the REST route says 400 for an unknown id). */
export function eventFeed(src: FeedSource, target: { id: number } | { slug: string }, actor: Actor): string {
  let ev: Item;
  try {
    ev = src.read({ resource: 'events', action: 'get', target, params: {}, actor }) as Item;
  } catch (err) {
    if (err instanceof CalendarError && (err.status === 400 || err.status === 404)) {
      throw fail('rest_post_invalid_id', [], {}, { message: 'Invalid event ID.' });
    }
    throw err;
  }
  return icalFeed([ev], feedSite(src.site), (id) => seriesItem(src, id, actor));
}

/** A series' representation for a feed of its occurrences (undefined when the caller cannot read it). */
function seriesItem(src: FeedSource, id: number, actor: Actor): Item | undefined {
  try {
    return src.read({ resource: 'events', action: 'get', target: { id }, params: {}, actor }) as Item;
  } catch (err) {
    if (!(err instanceof CalendarError)) throw err;
  }
}

function feedSite(site: SiteConfig): FeedSite {
  const url = new URL(site.siteUrl);
  return { name: url.hostname, url: site.siteUrl, host: url.hostname, now: site.now() };
}
