// The calendar's public pages: which path is which page (the views behind them are
// date-views.ts's and record-views.ts's, their reads page-reads.ts's), and the HTML answer around
// a view: the frame, the headers, the error pages, the stylesheet and a listing's ?ical=1 feed. The HTTP adapter asks `answer()` first
// for every GET or HEAD outside the REST prefix; undefined means "not a page".

import { DEFAULT_SITE_LOCALE, DEFAULT_SITE_TITLE } from '../options/defaults.ts';
import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { isCalendarError } from '../api/wordpress/errors.ts';
import type { Actor } from '../api/wordpress/types.ts';
import { Dates } from './dates.ts';
import { firstDayOfWeek } from './cards.ts';
import { Links } from './links.ts';
import { DateViews } from './date-views.ts';
import { decode, notFound, PageError, type PageSource, type Rendered } from './page-reads.ts';
import { RecordViews } from './record-views.ts';
import { Stylesheet } from './style.ts';
import { ErrorBody } from './views/bodies.tsx';
import { Layout, type Frame } from './views/layout.tsx';

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

interface Route {
  re: RegExp;
  /** the page, given the path's groups, the query and the visitor */
  run(m: RegExpExecArray, q: URLSearchParams, actor: Actor): Rendered;
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
  private readonly dateViews: DateViews;
  private readonly recordViews: RecordViews;

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
    this.css = new Stylesheet(opts.stylesheetFile);
    const weekStart = firstDayOfWeek(this.dates.locale);
    const v = (this.dateViews = new DateViews(src, this.links, this.dates, this.title, this.root, weekStart));
    const r = (this.recordViews = new RecordViews(src, this.links, this.dates, this.title, this.root, weekStart));
    const paged = '(?:page/(\\d{1,6})/)?';
    this.routes = [
      { re: new RegExp(`^/events/(?:list/)?${paged}$`), run: (m, q) => v.list(pageOf(m[1]), q) },
      { re: /^\/events\/month\/(?:(\d{4}-\d{2})\/)?$/, run: (m, q) => v.month(m[1], q) },
      { re: /^\/events\/today\/$/, run: () => v.day(v.today(), 1) },
      {
        re: new RegExp(`^/events/(\\d{4}-\\d{2}-\\d{2})/${paged}$`),
        run: (m) => v.day(v.dayOf(m[1]), pageOf(m[2])),
      },
      { re: /^\/event\/([^/]+)\/$/, run: (m, _q, a) => r.event({ slug: decode(m[1]) }, a) },
      {
        re: new RegExp(`^/venue/([^/]+)/${paged}$`),
        run: (m, _q, a) => r.linked('venues', { slug: decode(m[1]) }, pageOf(m[2]), a),
      },
      {
        re: new RegExp(`^/organizer/([^/]+)/${paged}$`),
        run: (m, _q, a) => r.linked('organizers', { slug: decode(m[1]) }, pageOf(m[2]), a),
      },
      {
        re: new RegExp(`^/events/category/((?:[^/]+/)*?[^/]+)/${paged}$`),
        run: (m) => r.term('categories', m[1], pageOf(m[2])),
      },
      { re: new RegExp(`^/(?:events/)?tag/([^/]+)/${paged}$`), run: (m) => r.term('tags', m[1], pageOf(m[2])) },
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
              ? this.recordViews.event({ id: Number(p) }, actor)
              : this.recordViews.linked(resource, { id: Number(p) }, 1, actor),
          q,
          actor,
        );
      }
      return html ? this.render(() => this.dateViews.home(), q, actor, true) : undefined;
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
}

function pageOf(s: string | undefined): number {
  return s === undefined ? 1 : Math.max(1, Number(s));
}
