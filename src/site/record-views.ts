// The pages of one record: an event, a venue or organizer with its events, a category or tag
// with its events. The reads they stand on: page-reads.ts.

import { h } from 'preact';
import type { Actor } from '../api/wordpress/types.ts';
import { dayKey, eventWhen } from './dates.ts';
import { eventLd } from './jsonld.ts';
import { card, clip, icalOf, linkedOf } from './cards.ts';
import { googleCalendarUrl } from './links.ts';
import { plainText, safeHtml, summaryText } from './text.ts';
import { EventBody, LinkedBody, ListBody, type Detail } from './views/bodies.tsx';
import { decode, notFound, PageReads, type Rendered } from './page-reads.ts';
import type { Pager } from './views/parts.tsx';

type Item = Record<string, any>;

export class RecordViews extends PageReads {
  event(target: { id: number } | { slug: string }, actor: Actor): Rendered {
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

  linked(
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

  term(resource: 'categories' | 'tags', path: string, page: number): Rendered {
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
}
