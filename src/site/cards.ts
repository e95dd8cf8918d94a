// Records of the REST representation as the pages' views take them: an event as a card in a
// list, a venue or organizer as a block of contact lines; and small helpers the pages share.

import { type Dates, eventWhen, naiveOf } from './dates.ts';
import { mapUrl } from './links.ts';
import { plainText, summaryText } from './text.ts';
import type { Linked } from './views/bodies.tsx';
import type { Card } from './views/parts.tsx';

type Item = Record<string, any>;

export function card(dates: Dates, ev: Item): Card {
  const start = naiveOf(ev.start_date);
  const v = ev.venue as Item | undefined;
  const venue =
    v && !Array.isArray(v) && typeof v.url === 'string'
      ? {
          name: plainText(v.venue),
          url: v.url as string,
          place: [v.city, v.stateprovince || v.country].filter((x) => typeof x === 'string' && x !== '').join(', '),
        }
      : undefined;
  const summary = summaryText(ev.excerpt) || clip(summaryText(ev.description), 180);
  // a thumbnail beside its linked title is decorative
  const image = ev.image && typeof ev.image.url === 'string' ? { url: ev.image.url as string, alt: '' } : undefined;
  return {
    id: ev.id,
    url: ev.url,
    title: plainText(ev.title) || '(no title)',
    when: eventWhen(dates, ev),
    badge: Number.isNaN(start)
      ? { month: '', day: '', label: '' }
      : { month: dates.monthShort(start), day: dates.dayOfMonth(start), label: dates.longDay(start) },
    venue,
    summary,
    cost: plainText(ev.cost),
    image,
    featured: ev.featured === true,
  };
}

export function linkedOf(kind: 'Venue' | 'Organizer', r: Item): Linked {
  const str = (x: unknown) => (typeof x === 'string' ? x : '');
  const lines =
    kind === 'Venue'
      ? [
          str(r.address),
          [str(r.city), str(r.stateprovince), str(r.zip)].filter(Boolean).join(' '),
          str(r.country),
        ].filter(Boolean)
      : [];
  const map =
    kind === 'Venue' && r.show_map_link !== false && lines.length
      ? mapUrl([plainText(r.venue), ...lines].join(', '))
      : undefined;
  return {
    kind,
    name: plainText(kind === 'Venue' ? r.venue : r.organizer) || '(no name)',
    url: r.url,
    lines,
    phone: str(r.phone),
    email: str(r.email),
    website: /^https?:\/\//i.test(str(r.website)) ? str(r.website) : '',
    map,
  };
}

/** at most n characters, cut at a word, with an ellipsis */
export function clip(s: string, n: number): string {
  return s.length <= n ? s : `${s.slice(0, n - 1).replace(/\s+\S*$/, '')}…`;
}

/** an event's own feed: its URL with ical=1 */
export function icalOf(url: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}ical=1`;
}

/** 0 = Sunday … 6 = Saturday: the locale's first day of the week (Intl.Locale week info where known). */
export function firstDayOfWeek(locale: string): number {
  try {
    const loc = new Intl.Locale(locale) as Intl.Locale & {
      getWeekInfo?: () => { firstDay: number };
      weekInfo?: { firstDay: number };
    };
    const info = loc.getWeekInfo?.() ?? loc.weekInfo;
    if (info && Number.isInteger(info.firstDay)) return info.firstDay % 7;
  } catch {
    // an unknown locale: the default below
  }
  return /^en-(US|CA)|^ja|^zh|^ko|^he|^pt-BR/i.test(locale) ? 0 : 1;
}
