// Pieces shared by the pages: an event in a list, a list with its pager, the search bar.

import type { ComponentChildren } from 'preact';

export interface Card {
  id: number;
  url: string;
  title: string;
  when: string;
  /** date badge: short month and day of month of the start */
  badge: { month: string; day: string; label: string };
  venue?: { name: string; url: string; place: string };
  summary: string;
  cost: string;
  image?: { url: string; alt: string };
  featured: boolean;
}

export function EventCard({ c, level }: { c: Card; level: 2 | 3 }) {
  const H = level === 2 ? 'h2' : 'h3';
  return (
    <article class={c.featured ? 'event featured' : 'event'}>
      <div class="badge" aria-hidden="true">
        <span class="m">{c.badge.month}</span>
        <span class="d">{c.badge.day}</span>
      </div>
      <div class="body">
        <H class="event-title">
          <a href={c.url}>{c.title}</a>
        </H>
        <p class="when">{c.when}</p>
        {c.venue ? (
          <p class="where">
            <a href={c.venue.url}>{c.venue.name}</a>
            {c.venue.place ? `, ${c.venue.place}` : ''}
          </p>
        ) : null}
        {c.summary ? <p class="summary">{c.summary}</p> : null}
        {c.cost ? <p class="cost">{c.cost}</p> : null}
      </div>
      {c.image ? (
        <img class="thumb" src={c.image.url} alt={c.image.alt} loading="lazy" width={120} height={90} />
      ) : null}
    </article>
  );
}

export interface Pager {
  previous?: { href: string; label: string };
  next?: { href: string; label: string };
}

export function PagerNav({ p, label }: { p: Pager; label: string }) {
  if (!p.previous && !p.next) return null;
  return (
    <nav class="pager" aria-label={label}>
      {p.previous ? (
        <a rel="prev" href={p.previous.href}>
          ← {p.previous.label}
        </a>
      ) : (
        <span />
      )}
      {p.next ? (
        <a rel="next" href={p.next.href}>
          {p.next.label} →
        </a>
      ) : (
        <span />
      )}
    </nav>
  );
}

export function EventList({ cards, empty, level = 2 }: { cards: Card[]; empty: string; level?: 2 | 3 }) {
  if (cards.length === 0) return <p class="empty">{empty}</p>;
  return (
    <ol class="events">
      {cards.map((c) => (
        <li>
          <EventCard c={c} level={level} />
        </li>
      ))}
    </ol>
  );
}

export function SearchBar({ action, search, date }: { action: string; search: string; date: string }) {
  return (
    <form class="bar" role="search" method="get" action={action}>
      <div class="field">
        <label for="tribe-bar-search">Search events</label>
        <input id="tribe-bar-search" name="tribe-bar-search" type="search" value={search} placeholder="Keyword" />
      </div>
      <div class="field">
        <label for="tribe-bar-date">From date</label>
        <input id="tribe-bar-date" name="tribe-bar-date" type="date" value={date} />
      </div>
      <button type="submit">Find events</button>
    </form>
  );
}

export function Section({ title, children, id }: { title: string; children: ComponentChildren; id: string }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}
