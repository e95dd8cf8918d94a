// What every page view stands on: the REST reads behind the pages (in process, through the
// calendar's read path: the same filters, visibility and representation as the REST answers), a
// page that cannot be shown (PageError), what a view returns (Rendered), and the helpers the
// views share (pagers, API links, a day's query). The views: date-views.ts and record-views.ts.

import type { VNode } from 'preact';
import { nowIn } from '../api/wordpress/dates.ts';
import { isCalendarError } from '../api/wordpress/errors.ts';
import type { Actor, Page, RestCall, SiteConfig } from '../api/wordpress/types.ts';
import { DAY_MS, type Dates, dayKey, parseDay, type Naive } from './dates.ts';
import type { Links } from './links.ts';
import type { Frame } from './views/layout.tsx';
import type { Pager } from './views/parts.tsx';

type Item = Record<string, any>;

/** What the pages read from a calendar (src/calendar.ts's Calendar has all of it). */
export interface PageSource {
  read(call: RestCall): Page<Item> | Item;
  /** the iCalendar feed of a list query (`?ical=1` on a listing page) */
  ical?(query: Record<string, unknown>, as?: Actor): string;
  readonly site: SiteConfig;
}

/** a page that cannot be shown: its status and the message the error page says */
export class PageError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export const notFound = (what = 'page') => new PageError(404, `There is no such ${what} here, or it is not public.`);

/** a view: the frame's fields, the body, and what the HTML answer around it needs */
export interface Rendered {
  status?: number;
  frame: Partial<Frame> & { title: string; canonical: string };
  body: VNode<any>;
  /** X-TEC-API-ROOT of the page */
  apiRoot?: string;
  /** the REST list query behind a listing page (its ?ical=1 feed is this query's) */
  listQuery?: Record<string, unknown>;
  /** a record the public does not see, shown to a signed-in editor */
  preview?: boolean;
}

/** the reads and helpers of the views (date-views.ts, record-views.ts extend it) */
export class PageReads {
  constructor(
    protected readonly src: PageSource,
    protected readonly links: Links,
    protected readonly dates: Dates,
    /** the site's name */
    protected readonly title: string,
    /** the tribe/events/v1 root URL */
    protected readonly root: string,
    /** the locale's first day of the week (0 = Sunday) */
    protected readonly weekStart: number,
  ) {}

  // ---- reads ------------------------------------------------------------------------------

  protected events(params: Record<string, unknown>): Page<Item> {
    return this.src.read({ resource: 'events', action: 'list', params, actor: null }) as Page<Item>;
  }

  /** one record; one that does not exist or that this visitor may not see is a 404 page */
  protected get(resource: RestCall['resource'], target: { id: number } | { slug: string }, actor: Actor): Item {
    try {
      return this.src.read({ resource, action: 'get', target, params: {}, actor }) as Item;
    } catch (err) {
      if (isCalendarError(err) && err.status >= 400 && err.status < 500) throw notFound();
      throw err;
    }
  }

  /** a category or tag by slug (the term routes have no by-slug read: the list's slug filter) */
  protected termBySlug(resource: 'categories' | 'tags', slug: string): Item {
    const page = this.src.read({
      resource,
      action: 'list',
      params: { slug, hide_empty: 'false', per_page: 1 },
      actor: null,
    }) as Page<Item>;
    if (page.items.length === 0) throw notFound('category or tag');
    return page.items[0];
  }

  today(): Naive {
    const n = nowIn(this.src.site.timezone, this.src.site.now());
    return n - (((n % DAY_MS) + DAY_MS) % DAY_MS);
  }

  dayOf(s: string): Naive {
    const d = parseDay(s);
    if (d === undefined) throw new PageError(404, `${s} is not a date.`);
    return d;
  }

  // ---- pages ------------------------------------------------------------------------------

  protected pager(
    base: string,
    page: number,
    totalPages: number,
    labels = ['Previous events', 'Next events'],
    query = '',
  ): Pager {
    const qs = query ? `?${query}` : '';
    return {
      previous: page > 1 ? { href: this.links.paged(base, page - 1) + qs, label: labels[0] } : undefined,
      next: page < totalPages ? { href: this.links.paged(base, page + 1) + qs, label: labels[1] } : undefined,
    };
  }

  protected apiUrl(path: string, params: Record<string, unknown>): string {
    const qs = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
    return `${this.root}${path}${qs ? `?${qs}` : ''}`;
  }

  protected dayQuery(day: Naive): Record<string, unknown> {
    return { starts_before: dayKey(day), ends_after: dayKey(day - DAY_MS) };
  }
}

/** a path segment decoded; one that is not valid percent-encoding stays as it is */
export function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
