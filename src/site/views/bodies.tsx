// The main content of each kind of page, from data pages.ts has prepared (text, URLs, cards).

import { EventList, PagerNav, SearchBar, Section, type Card, type Pager } from './parts.tsx';

export function ListBody(p: {
  heading: string;
  intro?: string;
  cards: Card[];
  pager: Pager;
  search?: { action: string; search: string; date: string };
  views?: Array<{ href: string; label: string }>;
  empty: string;
}) {
  return (
    <>
      <h1>{p.heading}</h1>
      {p.intro ? <p class="intro">{p.intro}</p> : null}
      {p.search ? <SearchBar {...p.search} /> : null}
      {p.views ? (
        <p class="views">
          {p.views.map((v, i) => (
            <>
              {i > 0 ? ' · ' : ''}
              <a href={v.href}>{v.label}</a>
            </>
          ))}
        </p>
      ) : null}
      <EventList cards={p.cards} empty={p.empty} />
      <PagerNav p={p.pager} label="More events" />
    </>
  );
}

export interface MonthCell {
  inMonth: boolean;
  today: boolean;
  label: string;
  number: string;
  /** the short weekday, shown where the grid becomes a list */
  weekday: string;
  /** month and year, for screen readers after the day's number */
  month: string;
  dayUrl: string;
  events: Array<{ url: string; title: string; time: string }>;
  more: number;
}

export function MonthBody(p: {
  heading: string;
  weekdays: Array<{ short: string; long: string }>;
  weeks: MonthCell[][];
  pager: Pager;
  search: { action: string; search: string; date: string };
}) {
  return (
    <>
      <h1>{p.heading}</h1>
      <PagerNav p={p.pager} label="Months" />
      <table class="month">
        <caption class="visually-hidden">Events in {p.heading}</caption>
        <thead>
          <tr>
            {p.weekdays.map((w) => (
              <th scope="col">
                <abbr title={w.long}>{w.short}</abbr>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {p.weeks.map((week) => (
            <tr>
              {week.map((c) => (
                <td
                  class={[c.inMonth ? '' : 'other', c.today ? 'today' : '', c.events.length ? 'busy' : 'free']
                    .filter(Boolean)
                    .join(' ')}
                >
                  <a class="num" href={c.dayUrl}>
                    <span class="wd">{c.weekday} </span>
                    {c.number}
                    <span class="visually-hidden"> {c.month}</span>
                  </a>
                  {c.events.length ? (
                    <ul>
                      {c.events.map((e) => (
                        <li>
                          <a href={e.url}>
                            {e.time ? <span class="t">{e.time}</span> : null}
                            {e.title}
                          </a>
                        </li>
                      ))}
                      {c.more > 0 ? (
                        <li class="more">
                          <a href={c.dayUrl}>
                            +{c.more} more<span class="visually-hidden"> on {c.label}</span>
                          </a>
                        </li>
                      ) : null}
                    </ul>
                  ) : null}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <PagerNav p={p.pager} label="Months, again" />
    </>
  );
}

export interface Detail {
  label: string;
  items: Array<{ text: string; href?: string }>;
}

export interface Linked {
  kind: 'Venue' | 'Organizer';
  name: string;
  url: string;
  lines: string[];
  phone: string;
  email: string;
  website: string;
  map?: string;
}

export function LinkedBlock({ l }: { l: Linked }) {
  return (
    <div class="linked">
      <p class="name">
        <a href={l.url}>{l.name}</a>
      </p>
      {l.lines.length ? (
        <address>
          {l.lines.map((x, i) => (
            <>
              {i > 0 ? <br /> : null}
              {x}
            </>
          ))}
        </address>
      ) : null}
      <ul class="contact">
        {l.map ? (
          <li>
            <a href={l.map}>
              Map<span class="visually-hidden"> of {l.name}</span>
            </a>
          </li>
        ) : null}
        {l.phone ? (
          <li>
            <a href={`tel:${l.phone.replace(/[^+\d]/g, '')}`}>{l.phone}</a>
          </li>
        ) : null}
        {l.email ? (
          <li>
            <a href={`mailto:${l.email}`}>{l.email}</a>
          </li>
        ) : null}
        {l.website ? (
          <li>
            <a href={l.website} rel="external">
              Website<span class="visually-hidden"> of {l.name}</span>
            </a>
          </li>
        ) : null}
      </ul>
    </div>
  );
}

export function EventBody(p: {
  title: string;
  when: string;
  status?: string;
  image?: { url: string; alt: string };
  description: string;
  details: Detail[];
  venues: Linked[];
  organizers: Linked[];
  google: string;
  ical: string;
  pager: Pager;
}) {
  return (
    <article class="single">
      <h1>{p.title}</h1>
      {p.status ? (
        <p class="status" role="note">
          Preview: this event is {p.status}; the public does not see it.
        </p>
      ) : null}
      <p class="when">{p.when}</p>
      {p.image ? <img class="hero" src={p.image.url} alt={p.image.alt} /> : null}
      {p.description ? <div class="description" dangerouslySetInnerHTML={{ __html: p.description }} /> : null}
      <Section title="Details" id="details">
        <dl class="details">
          {p.details.map((d) => (
            <div>
              <dt>{d.label}</dt>
              <dd>
                {d.items.map((x, i) => (
                  <>
                    {i > 0 ? ', ' : ''}
                    {x.href ? <a href={x.href}>{x.text}</a> : x.text}
                  </>
                ))}
              </dd>
            </div>
          ))}
        </dl>
      </Section>
      {p.venues.length ? (
        <Section title={p.venues.length > 1 ? 'Venues' : 'Venue'} id="venue">
          {p.venues.map((l) => (
            <LinkedBlock l={l} />
          ))}
        </Section>
      ) : null}
      {p.organizers.length ? (
        <Section title={p.organizers.length > 1 ? 'Organizers' : 'Organizer'} id="organizer">
          {p.organizers.map((l) => (
            <LinkedBlock l={l} />
          ))}
        </Section>
      ) : null}
      <Section title="Add to calendar" id="add">
        <ul class="add">
          <li>
            <a href={p.google} rel="external">
              Google Calendar
            </a>
          </li>
          <li>
            <a href={p.ical}>iCalendar (.ics)</a>
          </li>
        </ul>
      </Section>
      <PagerNav p={p.pager} label="Other events" />
    </article>
  );
}

export function LinkedBody(p: {
  l: Linked;
  status?: string;
  image?: { url: string; alt: string };
  description: string;
  cards: Card[];
  pager: Pager;
}) {
  return (
    <>
      <h1>{p.l.name}</h1>
      {p.status ? (
        <p class="status" role="note">
          Preview: this {p.l.kind.toLowerCase()} is {p.status}; the public does not see it.
        </p>
      ) : null}
      {p.image ? <img class="hero" src={p.image.url} alt={p.image.alt} /> : null}
      <LinkedBlock l={p.l} />
      {p.description ? <div class="description" dangerouslySetInnerHTML={{ __html: p.description }} /> : null}
      <Section title="Upcoming events" id="upcoming">
        <EventList cards={p.cards} empty="No upcoming events." level={3} />
        <PagerNav p={p.pager} label="More events" />
      </Section>
    </>
  );
}

export function HomeBody(p: {
  heading: string;
  cards: Card[];
  views: Array<{ href: string; label: string }>;
  categories: Array<{ name: string; href: string; count: number }>;
  search: { action: string; search: string; date: string };
}) {
  return (
    <>
      <h1>{p.heading}</h1>
      <SearchBar {...p.search} />
      <Section title="Upcoming events" id="upcoming">
        <EventList cards={p.cards} empty="No upcoming events." level={3} />
        <p class="views">
          {p.views.map((v, i) => (
            <>
              {i > 0 ? ' · ' : ''}
              <a href={v.href}>{v.label}</a>
            </>
          ))}
        </p>
      </Section>
      {p.categories.length ? (
        <Section title="Categories" id="categories">
          <ul class="terms">
            {p.categories.map((c) => (
              <li>
                <a href={c.href}>{c.name}</a> <span class="count">({c.count})</span>
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
    </>
  );
}

export function ErrorBody(p: { heading: string; message: string; links: Array<{ href: string; label: string }> }) {
  return (
    <>
      <h1>{p.heading}</h1>
      <p>{p.message}</p>
      <ul>
        {p.links.map((l) => (
          <li>
            <a href={l.href}>{l.label}</a>
          </li>
        ))}
      </ul>
    </>
  );
}
