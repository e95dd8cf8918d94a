// The pages over a span of dates: the list (upcoming, past, searched, from a date), a month's
// grid, a day, and the home page. The reads they stand on: page-reads.ts.

import { h } from 'preact';
import type { Page } from '../api/wordpress/types.ts';
import { DAY_MS, dayKey, naiveOf, parseDay, parseMonth, type Naive } from './dates.ts';
import { eventLd } from './jsonld.ts';
import { card } from './cards.ts';
import { plainText } from './text.ts';
import { HomeBody, ListBody, MonthBody, type MonthCell } from './views/bodies.tsx';
import { notFound, PageError, PageReads, type Rendered } from './page-reads.ts';

type Item = Record<string, any>;

/** the lower bound of the past events' list */
const PAST_START = '1970-01-01';

/** the events of a month grid's day shown before "+N more" */
const DAY_CELL_EVENTS = 3;

export class DateViews extends PageReads {
  list(page: number, q: URLSearchParams): Rendered {
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

  month(ym: string | undefined, q: URLSearchParams): Rendered {
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

  day(day: Naive, page: number): Rendered {
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

  home(): Rendered {
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
