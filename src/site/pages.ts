// The calendar's public pages: which path is which page, the REST reads behind each (in
// process, through the calendar's read path: the same filters, visibility and representation as
// the REST answers), and the HTML rendered from them. The HTTP adapter asks `answer()` first for
// every GET or HEAD outside the REST prefix; undefined means "not a page".

import { DEFAULT_SITE_LOCALE, DEFAULT_SITE_TITLE } from '../options/options.ts';
import { h, type VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { nowIn } from '../api/wordpress/dates.ts';
import { isCalendarError } from '../api/wordpress/errors.ts';
import type { Actor, Page, RestCall, SiteConfig } from '../api/wordpress/types.ts';
import { DAY_MS, Dates, dayKey, eventWhen, naiveOf, parseDay, parseMonth, type Naive } from './dates.ts';
import { eventLd } from './jsonld.ts';
import { card, clip, firstDayOfWeek, icalOf, linkedOf } from './cards.ts';
import { googleCalendarUrl, Links } from './links.ts';
import { Stylesheet } from './style.ts';
import { plainText, safeHtml, summaryText } from './text.ts';
import {
  EventBody,
  ErrorBody,
  HomeBody,
  LinkedBody,
  ListBody,
  MonthBody,
  type Detail,
  type MonthCell,
} from './views/bodies.tsx';
import { Layout, type Frame } from './views/layout.tsx';
import type { Pager } from './views/parts.tsx';

type Item = Record<string, any>;

/** What the pages read from a calendar (src/calendar.ts's Calendar has all of it). */
export interface PageSource {
  read(call: RestCall): Page<Item> | Item;
  /** the iCalendar feed of a list query (`?ical=1` on a listing page) */
  ical?(query: Record<string, unknown>, as?: Actor): string;
  readonly site: SiteConfig;
}

export interface SiteOptions {
  /** the site's name in every page's header and title (default 'Events') */
  title?: string;
  /** BCP 47 locale of dates and times (default en-US) */
  locale?: string;
  /** a stylesheet that replaces the built-in one when the file exists (read again when it changes) */
  stylesheetFile?: string;
}

export interface PageAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** No scripts at all; the JSON-LD block is data, not script. Images may come from anywhere https. */
export const CSP =
  "default-src 'self'; script-src 'none'; style-src 'self'; img-src 'self' https: data:; " +
  "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'self'";

/** the lower bound of the past events' list */
const PAST_START = '1970-01-01';

/** the events of a month grid's day shown before "+N more" */
const DAY_CELL_EVENTS = 3;

class PageError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const notFound = (what = 'page') => new PageError(404, `There is no such ${what} here, or it is not public.`);

interface Route {
  re: RegExp;
  /** the page, given the path's groups, the query and the visitor */
  run(m: RegExpExecArray, q: URLSearchParams, actor: Actor): Rendered;
}

interface Rendered {
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

export class SitePages {
  readonly links: Links;
  private readonly dates: Dates;
  private readonly title: string;
  private readonly sitePath: string;
  private readonly restIndex: string;
  private readonly root: string;
  private readonly routes: Route[];
  private readonly css: Stylesheet;
  private weekStart: number;

  constructor(
    private readonly src: PageSource,
    opts: SiteOptions = {},
  ) {
    const site = src.site;
    this.links = new Links(site.siteUrl);
    this.dates = new Dates(opts.locale ?? DEFAULT_SITE_LOCALE);
    this.title = opts.title ?? DEFAULT_SITE_TITLE;
    this.sitePath = new URL(site.siteUrl).pathname.replace(/\/+$/, '');
    this.restIndex = `${site.siteUrl}${site.restPrefix}/`;
    this.root = `${site.siteUrl}${site.restPrefix}/tribe/events/v1/`;
    this.weekStart = firstDayOfWeek(this.dates.locale);
    this.css = new Stylesheet(opts.stylesheetFile);
    const paged = '(?:page/(\\d{1,6})/)?';
    this.routes = [
      { re: new RegExp(`^/events/(?:list/)?${paged}$`), run: (m, q) => this.list(pageOf(m[1]), q) },
      { re: /^\/events\/month\/(?:(\d{4}-\d{2})\/)?$/, run: (m, q) => this.month(m[1], q) },
      { re: /^\/events\/today\/$/, run: () => this.day(this.today(), 1) },
      {
        re: new RegExp(`^/events/(\\d{4}-\\d{2}-\\d{2})/${paged}$`),
        run: (m) => this.day(this.dayOf(m[1]), pageOf(m[2])),
      },
      { re: /^\/event\/([^/]+)\/$/, run: (m, _q, a) => this.event({ slug: decode(m[1]) }, a) },
      {
        re: new RegExp(`^/venue/([^/]+)/${paged}$`),
        run: (m, _q, a) => this.linked('venues', { slug: decode(m[1]) }, pageOf(m[2]), a),
      },
      {
        re: new RegExp(`^/organizer/([^/]+)/${paged}$`),
        run: (m, _q, a) => this.linked('organizers', { slug: decode(m[1]) }, pageOf(m[2]), a),
      },
      {
        re: new RegExp(`^/events/category/((?:[^/]+/)*?[^/]+)/${paged}$`),
        run: (m) => this.term('categories', m[1], pageOf(m[2])),
      },
      { re: new RegExp(`^/(?:events/)?tag/([^/]+)/${paged}$`), run: (m) => this.term('tags', m[1], pageOf(m[2])) },
    ];
  }

  /**
   * The page at this request path (with the site URL's path) and query, or undefined when the
   * path is not one of the pages (the REST routes and their 404 take it). `accept`: the home page
   * at `/` is for browsers (text/html); other clients keep getting the REST site index there.
   */
  answer(path: string, query: string, actor: Actor, accept: string | undefined): PageAnswer | undefined {
    if (this.sitePath !== '' && path !== this.sitePath && !path.startsWith(this.sitePath + '/')) return undefined;
    let rest = path.slice(this.sitePath.length) || '/';
    if (rest === '/calendar.css') return this.stylesheetAnswer();
    const q = new URLSearchParams(query);
    const html = accept !== undefined && /\btext\/html\b/i.test(accept);
    if (rest === '/') {
      const type = q.get('post_type'),
        p = q.get('p');
      if (type !== null && p !== null && /^\d{1,15}$/.test(p)) {
        const resource =
          type === 'tribe_events'
            ? 'events'
            : type === 'tribe_venue'
              ? 'venues'
              : type === 'tribe_organizer'
                ? 'organizers'
                : undefined;
        if (resource === undefined)
          return this.render(
            () => {
              throw notFound();
            },
            q,
            actor,
          );
        return this.render(
          () =>
            resource === 'events'
              ? this.event({ id: Number(p) }, actor)
              : this.linked(resource, { id: Number(p) }, 1, actor),
          q,
          actor,
        );
      }
      return html ? this.render(() => this.home(), q, actor, true) : undefined;
    }
    if (!rest.endsWith('/')) rest += '/';
    let decoded: string;
    try {
      decoded = decodeURI(rest);
    } catch {
      decoded = rest;
    }
    for (const r of this.routes) {
      const m = r.re.exec(rest) ?? (decoded !== rest ? r.re.exec(decoded) : null);
      if (m) return this.render(() => r.run(m, q, actor), q, actor);
    }
    // anything else a browser asks for below the site gets an HTML 404
    return html
      ? this.render(
          () => {
            throw notFound();
          },
          q,
          actor,
        )
      : undefined;
  }

  private stylesheetAnswer(): PageAnswer {
    const css = this.css.current();
    return {
      status: 200,
      body: css.text,
      headers: {
        'Content-Type': 'text/css; charset=utf-8',
        'Cache-Control': 'public, max-age=300',
        ETag: `"${css.version}"`,
      },
    };
  }

  private render(run: () => Rendered, q: URLSearchParams, actor: Actor, home = false): PageAnswer {
    let r: Rendered;
    try {
      r = run();
      if (q.get('ical') === '1' && r.listQuery !== undefined && this.src.ical) {
        const text = this.src.ical({ ...r.listQuery, per_page: 50, page: 1 }, undefined);
        return {
          status: 200,
          body: text,
          headers: {
            'Content-Type': 'text/calendar; charset=UTF-8',
            'Content-Disposition': 'attachment; filename="events.ics"',
          },
        };
      }
    } catch (err) {
      r = this.failure(err, q, actor);
    }
    const f = this.frame(r.frame);
    const html = '<!DOCTYPE html>' + renderToString(h(Layout, { f, children: r.body }));
    const headers: Record<string, string> = {
      'Content-Type': 'text/html; charset=UTF-8',
      'Content-Security-Policy': CSP,
      'Referrer-Policy': 'strict-origin-when-cross-origin',
      'X-TEC-API-VERSION': 'v1',
      'X-TEC-API-ROOT': r.apiRoot ?? this.root,
      'X-TEC-API-ORIGIN': this.src.site.siteUrl,
      'Cache-Control': r.preview ? 'private, no-store' : 'no-cache',
    };
    if (home) headers.Vary = 'Accept';
    if (r.status === 401) headers['WWW-Authenticate'] = 'Basic realm="calendar"';
    return { status: r.status ?? 200, headers, body: html };
  }

  private failure(err: unknown, q: URLSearchParams, actor: Actor): Rendered {
    let status: number, message: string;
    if (err instanceof PageError) ({ status, message } = err);
    else if (isCalendarError(err) && err.status >= 400 && err.status < 500) {
      status = err.status === 401 || err.status === 403 ? 404 : err.status;
      message = status === 404 ? notFound().message : err.message;
    } else throw err;
    // a preview link (…&preview=true) asks an anonymous visitor to sign in instead
    if (status === 404 && actor === null && q.get('preview') === 'true') {
      status = 401;
      message = 'Sign in to preview this page.';
    }
    const heading =
      status === 404 ? 'Page not found' : status === 401 ? 'Sign-in required' : 'This page cannot be shown';
    return {
      status,
      frame: { title: heading, canonical: this.links.home(), noindex: true },
      body: h(ErrorBody, {
        heading,
        message,
        links: [
          { href: this.links.list(), label: 'Upcoming events' },
          { href: this.links.month(), label: 'This month' },
        ],
      }),
    };
  }

  private frame(p: Rendered['frame']): Frame {
    const css = this.css.current();
    const kind = p.canonical.startsWith(this.links.month())
      ? 'month'
      : p.canonical.startsWith(this.links.list())
        ? 'list'
        : p.canonical === this.links.today()
          ? 'today'
          : '';
    return {
      siteTitle: this.title,
      lang: this.dates.locale,
      description: '',
      stylesheet: this.links.stylesheet(css.version),
      home: this.links.home(),
      restIndex: this.restIndex,
      apiRoot: this.root,
      origin: this.src.site.siteUrl,
      og: { type: 'website' },
      feeds: [{ title: `${this.title} » iCal feed`, href: `${this.src.site.siteUrl}/events/?ical=1` }],
      nav: [
        { href: this.links.list(), label: 'List', current: kind === 'list' },
        { href: this.links.month(), label: 'Month', current: kind === 'month' },
        { href: this.links.today(), label: 'Today', current: kind === 'today' },
      ],
      ...p,
    };
  }

  // ---- reads ------------------------------------------------------------------------------

  private events(params: Record<string, unknown>): Page<Item> {
    return this.src.read({ resource: 'events', action: 'list', params, actor: null }) as Page<Item>;
  }

  /** one record; one that does not exist or that this visitor may not see is a 404 page */
  private get(resource: RestCall['resource'], target: { id: number } | { slug: string }, actor: Actor): Item {
    try {
      return this.src.read({ resource, action: 'get', target, params: {}, actor }) as Item;
    } catch (err) {
      if (isCalendarError(err) && err.status >= 400 && err.status < 500) throw notFound();
      throw err;
    }
  }

  /** a category or tag by slug (the term routes have no by-slug read: the list's slug filter) */
  private termBySlug(resource: 'categories' | 'tags', slug: string): Item {
    const page = this.src.read({
      resource,
      action: 'list',
      params: { slug, hide_empty: 'false', per_page: 1 },
      actor: null,
    }) as Page<Item>;
    if (page.items.length === 0) throw notFound('category or tag');
    return page.items[0];
  }

  private today(): Naive {
    const n = nowIn(this.src.site.timezone, this.src.site.now());
    return n - (((n % DAY_MS) + DAY_MS) % DAY_MS);
  }

  private dayOf(s: string): Naive {
    const d = parseDay(s);
    if (d === undefined) throw new PageError(404, `${s} is not a date.`);
    return d;
  }

  // ---- pages ------------------------------------------------------------------------------

  private pager(
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

  private apiUrl(path: string, params: Record<string, unknown>): string {
    const qs = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
    return `${this.root}${path}${qs ? `?${qs}` : ''}`;
  }

  private list(page: number, q: URLSearchParams): Rendered {
    const search = (q.get('tribe-bar-search') ?? '').trim();
    const date = (q.get('tribe-bar-date') ?? '').trim();
    const past = q.get('eventDisplay') === 'past';
    if (date !== '' && parseDay(date) === undefined)
      throw new PageError(400, `tribe-bar-date: expected a date as YYYY-MM-DD, got '${date}'.`);
    const perPage = this.src.site.perPage;
    // the REST list's own window: whole days in the site's zone, from today (or the date asked)
    // on; past events: up to the day before, newest first
    const from = date !== '' ? parseDay(date)! : this.today();
    const params: Record<string, unknown> = past
      ? { start_date: PAST_START, end_date: dayKey(from - DAY_MS), per_page: perPage }
      : { start_date: dayKey(from), per_page: perPage };
    if (search !== '') params.search = search;
    let items: Item[], totalPages: number;
    if (past) {
      // the REST list runs oldest first: its pages are read from the end
      const count = this.events({ ...params, per_page: 1 });
      totalPages = Math.max(1, Math.ceil(count.total / perPage));
      if (page > totalPages) throw notFound();
      const restPage = totalPages - page + 1;
      const offsetEnd = count.total - (page - 1) * perPage;
      const wanted = Math.min(perPage, offsetEnd);
      const got = count.total === 0 ? [] : this.events({ ...params, page: restPage }).items;
      const lastPage = restPage > 1 && got.length < wanted ? this.events({ ...params, page: restPage - 1 }).items : [];
      items = [...lastPage, ...got].slice(-wanted).reverse();
    } else {
      const pageData = this.events({ ...params, page });
      if (page > 1 && page > pageData.totalPages) throw notFound();
      items = pageData.items;
      totalPages = pageData.totalPages;
    }
    const keep = new URLSearchParams();
    if (search) keep.set('tribe-bar-search', search);
    if (date) keep.set('tribe-bar-date', date);
    if (past) keep.set('eventDisplay', 'past');
    const qs = keep.toString();
    const heading = past
      ? 'Past events'
      : search
        ? `Events matching “${search}”`
        : date
          ? `Events from ${this.dates.longDay(parseDay(date)!)}`
          : 'Upcoming events';
    const base = this.links.list();
    const pager = this.pager(
      base,
      page,
      totalPages,
      past ? ['Newer events', 'Older events'] : ['Previous events', 'Next events'],
      qs,
    );
    if (!past && page === 1) {
      const pastQ = new URLSearchParams(keep);
      pastQ.set('eventDisplay', 'past');
      pager.previous = { href: `${base}?${pastQ.toString()}`, label: 'Past events' };
    }
    return {
      frame: {
        title: page > 1 ? `${heading} – page ${page}` : heading,
        canonical: this.links.paged(base, page) + (qs ? `?${qs}` : ''),
        description: `${heading} – ${this.title}`,
        ld: items.map(eventLd),
        api: this.apiUrl('events', { ...params, page }),
      },
      body: h(ListBody, {
        heading,
        cards: items.map((e) => card(this.dates, e)),
        pager,
        empty: past ? 'No past events.' : 'No upcoming events.',
        search: { action: base, search, date },
        views: [
          { href: this.links.month(), label: 'Month view' },
          { href: this.links.today(), label: 'Today' },
        ],
      }),
      listQuery: params,
    };
  }

  /** the REST query of the events overlapping one day (whole days in the site's zone) */
  private dayQuery(day: Naive): Record<string, unknown> {
    return { starts_before: dayKey(day), ends_after: dayKey(day - DAY_MS) };
  }

  private month(ym: string | undefined, q: URLSearchParams): Rendered {
    const today = this.today();
    const first =
      ym === undefined ? Date.UTC(new Date(today).getUTCFullYear(), new Date(today).getUTCMonth(), 1) : parseMonth(ym);
    if (first === undefined) throw new PageError(404, `${ym} is not a month.`);
    const d = new Date(first);
    const next = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    const prev = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1);
    const lead = (d.getUTCDay() - this.weekStart + 7) % 7;
    const gridStart = first - lead * DAY_MS;
    const weeks: MonthCell[][] = [];
    const ld: Item[] = [];
    for (let w = 0, day = gridStart; day < next || w === 0; w++) {
      const row: MonthCell[] = [];
      for (let i = 0; i < 7; i++, day += DAY_MS) {
        const inMonth = day >= first && day < next;
        const cell: MonthCell = {
          inMonth,
          today: day === today,
          label: this.dates.longDay(day),
          number: this.dates.dayOfMonth(day),
          weekday: this.dates.weekday(day),
          month: this.dates.monthYear(day),
          dayUrl: this.links.day(day),
          events: [],
          more: 0,
        };
        if (inMonth) {
          const page = this.events({ ...this.dayQuery(day), per_page: DAY_CELL_EVENTS });
          cell.events = page.items.map((ev) => ({
            url: ev.url,
            title: plainText(ev.title) || '(no title)',
            time:
              ev.all_day === true || dayKey(naiveOf(ev.start_date)) !== dayKey(day)
                ? ''
                : this.dates.time(naiveOf(ev.start_date)),
          }));
          cell.more = page.total - page.items.length;
          for (const ev of page.items) if (dayKey(naiveOf(ev.start_date)) === dayKey(day)) ld.push(eventLd(ev));
        }
        row.push(cell);
      }
      weeks.push(row);
    }
    const heading = this.dates.monthYear(first);
    const weekdays = Array.from({ length: 7 }, (_, i) => gridStart + i * DAY_MS).map((x) => ({
      short: this.dates.weekday(x),
      long: this.dates.weekdayLong(x),
    }));
    const last = next - DAY_MS;
    return {
      frame: {
        title: heading,
        canonical: this.links.month(first),
        description: `Events in ${heading} – ${this.title}`,
        ld,
        api: this.apiUrl('events', { starts_before: dayKey(last), ends_after: dayKey(first - DAY_MS) }),
      },
      body: h(MonthBody, {
        heading,
        weekdays,
        weeks,
        pager: {
          previous: { href: this.links.month(prev), label: this.dates.monthYear(prev) },
          next: { href: this.links.month(next), label: this.dates.monthYear(next) },
        },
        search: { action: this.links.list(), search: q.get('tribe-bar-search') ?? '', date: '' },
      }),
      listQuery: { starts_before: dayKey(last), ends_after: dayKey(first - DAY_MS) },
    };
  }

  private day(day: Naive, page: number): Rendered {
    const params = { ...this.dayQuery(day), per_page: this.src.site.perPage };
    const data = this.events({ ...params, page });
    if (page > 1 && page > data.totalPages) throw notFound();
    const heading = this.dates.longDay(day);
    const base = this.links.day(day);
    const pager = this.pager(base, page, data.totalPages);
    if (page === 1) pager.previous = { href: this.links.day(day - DAY_MS), label: this.dates.shortDay(day - DAY_MS) };
    if (page >= data.totalPages)
      pager.next = { href: this.links.day(day + DAY_MS), label: this.dates.shortDay(day + DAY_MS) };
    const isToday = day === this.today();
    return {
      frame: {
        title: heading,
        canonical: isToday && page === 1 ? this.links.today() : this.links.paged(base, page),
        description: `Events on ${heading} – ${this.title}`,
        ld: data.items.map(eventLd),
        api: this.apiUrl('events', { ...params, page }),
      },
      body: h(ListBody, {
        heading,
        cards: data.items.map((e) => card(this.dates, e)),
        pager,
        empty: 'No events on this day.',
        views: [
          { href: this.links.month(day), label: `Month of ${this.dates.monthYear(day)}` },
          { href: this.links.list(), label: 'Upcoming events' },
        ],
      }),
      listQuery: params,
    };
  }

  private event(target: { id: number } | { slug: string }, actor: Actor): Rendered {
    const ev = this.get('events', target, actor);
    const title = plainText(ev.title) || '(no title)';
    const preview = ev.status !== 'publish';
    const venues = (
      Array.isArray(ev.venue) ? ev.venue : ev.venue && ev.venue.id !== undefined ? [ev.venue] : []
    ) as Item[];
    const organizers = (Array.isArray(ev.organizer) ? ev.organizer : []) as Item[];
    const details: Detail[] = [{ label: 'When', items: [{ text: eventWhen(this.dates, ev) }] }];
    if (plainText(ev.cost)) details.push({ label: 'Cost', items: [{ text: plainText(ev.cost) }] });
    const terms = (list: Item[], resource: 'categories' | 'tags') =>
      list.map((t) => ({ text: plainText(t.name), href: this.termUrl(resource, t.id) }));
    if (Array.isArray(ev.categories) && ev.categories.length)
      details.push({ label: 'Categories', items: terms(ev.categories, 'categories') });
    if (Array.isArray(ev.tags) && ev.tags.length) details.push({ label: 'Tags', items: terms(ev.tags, 'tags') });
    if (typeof ev.website === 'string' && /^https?:\/\//i.test(ev.website) && ev.website !== ev.url)
      details.push({ label: 'Website', items: [{ text: ev.website, href: ev.website }] });
    const place = venues[0] ? linkedOf('Venue', venues[0]).lines.join(', ') : '';
    const description = safeHtml(ev.description);
    const text = summaryText(ev.excerpt) || clip(summaryText(ev.description), 300);
    const google = googleCalendarUrl(
      { ...ev, titleText: title },
      [venues[0] ? plainText(venues[0].venue) : '', place].filter(Boolean).join(', '),
      text,
    );
    const pager: Pager = {};
    if (!preview) {
      const at = { strict_dates: 'true', per_page: 1 };
      const before = this.events({ ...at, starts_before: ev.utc_start_date });
      if (before.total > 0) {
        const p = this.events({ ...at, starts_before: ev.utc_start_date, page: before.total }).items[0];
        if (p) pager.previous = { href: p.url, label: plainText(p.title) };
      }
      const n = this.events({ ...at, starts_after: ev.utc_start_date }).items[0];
      if (n) pager.next = { href: n.url, label: plainText(n.title) };
    }
    const image =
      ev.image && typeof ev.image.url === 'string'
        ? { url: ev.image.url as string, alt: typeof ev.image.alt === 'string' ? ev.image.alt : '' }
        : undefined;
    return {
      preview,
      apiRoot: `${this.root}events/${ev.id}`,
      frame: {
        title,
        canonical: ev.url,
        description: text,
        noindex: preview,
        og: { type: 'article', image: image?.url },
        ld: ev.json_ld ?? eventLd(ev),
        feeds: [{ title: `${title} (iCalendar)`, href: icalOf(ev.url) }],
        api: `${this.root}events/${ev.id}`,
      },
      body: h(EventBody, {
        title,
        when: eventWhen(this.dates, ev),
        status: preview ? String(ev.status) : undefined,
        image,
        description,
        details,
        venues: venues.map((v) => linkedOf('Venue', v)),
        organizers: organizers.map((o) => linkedOf('Organizer', o)),
        google,
        ical: icalOf(ev.url),
        pager,
      }),
    };
  }

  private termUrl(resource: 'categories' | 'tags', id: unknown): string | undefined {
    try {
      return (this.get(resource, { id: Number(id) }, null).url as string) ?? undefined;
    } catch {
      return undefined;
    }
  }

  private linked(
    resource: 'venues' | 'organizers',
    target: { id: number } | { slug: string },
    page: number,
    actor: Actor,
  ): Rendered {
    const r = this.get(resource, target, actor);
    const kind = resource === 'venues' ? 'Venue' : 'Organizer';
    const l = linkedOf(kind, r);
    const preview = r.status !== 'publish';
    const params = {
      [resource === 'venues' ? 'venue' : 'organizer']: r.id,
      start_date: dayKey(this.today()),
      per_page: this.src.site.perPage,
    };
    const data = preview ? { items: [], total: 0, totalPages: 0 } : this.events({ ...params, page });
    if (page > 1 && page > data.totalPages) throw notFound();
    const image =
      r.image && typeof r.image.url === 'string'
        ? { url: r.image.url as string, alt: typeof r.image.alt === 'string' ? r.image.alt : '' }
        : undefined;
    const base = typeof r.url === 'string' && r.url.endsWith('/') ? r.url : this.links.home();
    return {
      preview,
      apiRoot: resource === 'venues' ? `${this.root}events/?venue=${r.id}` : this.root,
      frame: {
        title: l.name,
        canonical: this.links.paged(base, page),
        description: clip(summaryText(r.description), 300) || `${kind}: ${l.name}`,
        noindex: preview,
        og: { type: kind === 'Venue' ? 'place' : 'profile', image: image?.url },
        ld: data.items.map(eventLd),
        feeds: [
          {
            title: `${l.name} (iCalendar)`,
            href: `${this.src.site.siteUrl}/events/?ical=1&${resource === 'venues' ? 'venue' : 'organizer'}=${r.id}`,
          },
        ],
        api: `${this.root}${resource}/${r.id}`,
      },
      body: h(LinkedBody, {
        l,
        status: preview ? String(r.status) : undefined,
        image,
        description: safeHtml(r.description),
        cards: data.items.map((e) => card(this.dates, e)),
        pager: this.pager(base, page, data.totalPages),
      }),
      listQuery: preview ? undefined : params,
    };
  }

  private term(resource: 'categories' | 'tags', path: string, page: number): Rendered {
    const segments = path.split('/');
    const slug = decode(segments[segments.length - 1]);
    const t = this.termBySlug(resource, slug);
    // a category's URL names its ancestors: only its own URL is its page
    const own = `${this.src.site.siteUrl}${resource === 'tags' ? '/tag' : '/events/category'}/${path}/`;
    if (resource === 'categories' && t.url !== own && decodeURI(String(t.url)) !== decodeURI(own)) throw notFound();
    const name = plainText(t.name);
    const params = { [resource]: t.id, start_date: dayKey(this.today()), per_page: this.src.site.perPage };
    const data = this.events({ ...params, page });
    if (page > 1 && page > data.totalPages) throw notFound();
    const heading = resource === 'tags' ? `Events tagged “${name}”` : `${name} events`;
    const base = String(t.url);
    return {
      apiRoot: `${this.root}events/?${resource}=${encodeURIComponent(String(t.slug))}`,
      frame: {
        title: heading,
        canonical: this.links.paged(base, page),
        description: plainText(t.description) || heading,
        ld: data.items.map(eventLd),
        feeds: [{ title: `${heading} (iCalendar)`, href: `${base}?ical=1` }],
        api: this.apiUrl('events', { ...params, page }),
      },
      body: h(ListBody, {
        heading,
        intro: plainText(t.description),
        cards: data.items.map((e) => card(this.dates, e)),
        pager: this.pager(base, page, data.totalPages),
        empty: 'No upcoming events.',
        views: [{ href: this.links.list(), label: 'All upcoming events' }],
      }),
      listQuery: params,
    };
  }

  private home(): Rendered {
    const data = this.events({ start_date: dayKey(this.today()), per_page: 6 });
    const cats = this.src.read({
      resource: 'categories',
      action: 'list',
      params: { per_page: 50, hide_empty: 'true' },
      actor: null,
    }) as Page<Item>;
    return {
      frame: {
        title: '',
        canonical: this.links.home(),
        description: `Upcoming events – ${this.title}`,
        ld: data.items.map(eventLd),
      },
      body: h(HomeBody, {
        heading: this.title,
        cards: data.items.map((e) => card(this.dates, e)),
        views: [
          { href: this.links.list(), label: 'All upcoming events' },
          { href: this.links.month(), label: 'Month view' },
          { href: this.links.today(), label: 'Today' },
        ],
        categories: cats.items.map((c) => ({ name: plainText(c.name), href: String(c.url), count: Number(c.count) })),
        search: { action: this.links.list(), search: '', date: '' },
      }),
    };
  }
}

function pageOf(s: string | undefined): number {
  return s === undefined ? 1 : Math.max(1, Number(s));
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
