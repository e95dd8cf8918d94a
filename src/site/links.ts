// The public URLs of the pages, under the site URL (with its path, if it has one), in the
// plugin's scheme; and the outside links an event page offers (Google Calendar, a map).

import { DAY_MS, dayKey, type Naive } from './dates.ts';

export class Links {
  constructor(readonly site: string) {}

  home(): string {
    return `${this.site}/`;
  }

  list(page = 1, query = ''): string {
    return `${this.site}/events/list/${page > 1 ? `page/${page}/` : ''}${query ? `?${query}` : ''}`;
  }

  month(ms?: Naive): string {
    return ms === undefined ? `${this.site}/events/month/` : `${this.site}/events/month/${dayKey(ms).slice(0, 7)}/`;
  }

  day(ms: Naive): string {
    return `${this.site}/events/${dayKey(ms)}/`;
  }

  today(): string {
    return `${this.site}/events/today/`;
  }

  stylesheet(version: string): string {
    return `${this.site}/calendar.css?v=${version}`;
  }

  /** `base` with `/page/N/` for page N > 1 */
  paged(base: string, page: number): string {
    return page > 1 ? `${base}page/${page}/` : base;
  }
}

const compact = (s: string): string => s.replace(/[-:]/g, '').replace(' ', 'T');

/** "Add to Google Calendar": the event's UTC times (its dates for an all-day event). */
export function googleCalendarUrl(ev: Record<string, unknown>, location: string, details: string): string {
  const start = String(ev.utc_start_date ?? '');
  const end = String(ev.utc_end_date ?? '');
  let dates: string;
  if (ev.all_day === true) {
    const a = String(ev.start_date ?? '').slice(0, 10);
    const b = Date.parse(`${String(ev.end_date ?? '').slice(0, 10)}T00:00:00Z`) + DAY_MS;
    dates = `${compact(a)}/${compact(Number.isNaN(b) ? a : dayKey(b))}`;
  } else dates = `${compact(start)}Z/${compact(end)}Z`;
  const q = new URLSearchParams({
    action: 'TEMPLATE',
    text: String(ev.titleText ?? ''),
    dates,
    details: details.slice(0, 1000),
    location,
  });
  if (typeof ev.timezone === 'string' && /\//.test(ev.timezone)) q.set('ctz', ev.timezone);
  return `https://www.google.com/calendar/render?${q.toString()}`;
}

/** A map search for an address, as the plugin's "Google Map" link. */
export function mapUrl(address: string): string {
  return `https://maps.google.com/maps?${new URLSearchParams({ f: 'q', source: 's_q', hl: 'en', geocode: '', q: address }).toString()}`;
}
