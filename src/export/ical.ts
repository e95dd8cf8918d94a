// iCalendar (RFC 5545) feeds of events, as The Events Calendar serves them (`?ical=1` on its
// event archive and on each event's page): a VCALENDAR named after the site, a VTIMEZONE for
// every zone its events use (from timezones-ical-library's IANA data), and a VEVENT per event
// with UID, DTSTART/DTEND in the event's zone (VALUE=DATE when all day), DTSTAMP, CREATED,
// LAST-MODIFIED, SUMMARY, DESCRIPTION (plain text), URL, LOCATION, GEO, CATEGORIES and ORGANIZER.
// ical.js writes the text: escaping, lines folded at 75 octets, CRLF.

import ICAL from 'ical.js';
import { tzlib_get_ical_block } from 'timezones-ical-library';

type Obj = Record<string, unknown>;

// ical.js folds lines into chunks of foldLength octets and then prefixes each continuation with
// a space: 74 keeps every line, the space included, within RFC 5545's 75 octets
ICAL.foldLength = 74;

/** 'Y-m-d H:i:s' → ICAL.Time (floating: its zone is given by TZID). */
function localTime(ymdHis: string, dateOnly = false): ICAL.Time {
  const [d, t = '00:00:00'] = ymdHis.split(' ');
  const [year, month, day] = d.split('-').map(Number);
  const [hour, minute, second] = t.split(':').map(Number);
  return ICAL.Time.fromData({
    year,
    month,
    day,
    hour: dateOnly ? 0 : hour,
    minute: dateOnly ? 0 : minute,
    second: dateOnly ? 0 : second,
    isDate: dateOnly,
  });
}

function utcTime(ymdHis: string): ICAL.Time {
  const t = localTime(ymdHis);
  return ICAL.Time.fromData(
    { year: t.year, month: t.month, day: t.day, hour: t.hour, minute: t.minute, second: t.second },
    ICAL.Timezone.utcTimezone,
  );
}

/** HTML → plain text, as the plugin writes DESCRIPTION (tags dropped, entities decoded, blank lines collapsed). */
export function plainText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/p>\s*/gi, '\n\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCodePoint(parseInt(n, 16)))
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#039;/g, "'")
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** A VTIMEZONE for an IANA zone; undefined for a zone the library does not know (then UTC times are written). */
function vtimezone(zone: string): ICAL.Component | undefined {
  try {
    const block = tzlib_get_ical_block(zone) as unknown;
    const text = Array.isArray(block) ? String(block[0]) : '';
    if (!text.startsWith('BEGIN:VTIMEZONE')) return undefined;
    return new ICAL.Component(ICAL.parse(text) as unknown[]);
  } catch {
    return undefined;
  }
}

export interface FeedSite {
  /** the site's name (X-WR-CALNAME) and home URL (X-ORIGINAL-URL) */
  name: string;
  url: string;
  host: string;
  now: Date;
}

/**
 * Series first: a list's occurrences stand for their series (one VEVENT with its RRULE, RDATE and
 * EXDATE lines, in place of the first of them), its exceptions for themselves (a VEVENT with the
 * series' UID and their RECURRENCE-ID, after the series). `seriesOf` gives a series' REST
 * representation when the list does not have it.
 */
function seriesOrder(events: Obj[], seriesOf: (id: number) => Obj | undefined): { e: Obj; series?: Obj }[] {
  const byId = new Map<number, Obj>();
  for (const e of events) if (e.recurrence) byId.set(e.id as number, e);
  const done = new Set<number>();
  const out: { e: Obj; series?: Obj }[] = [];
  const addSeries = (id: number): Obj | undefined => {
    const s = byId.get(id) ?? seriesOf(id);
    if (s && !done.has(id)) {
      done.add(id);
      out.push({ e: s });
    }
    return s;
  };
  for (const e of events) {
    if (e.recurrence) addSeries(e.id as number);
    else if (typeof e.recurrence_id === 'string') {
      const s = addSeries(e.post_parent as number);
      if (e.is_exception === true || !s) out.push({ e, series: s });
    } else out.push({ e });
  }
  return out;
}

/** The feed of `events` (REST representations, as list() returns them) as iCalendar text. */
export function icalFeed(
  eventList: Obj[],
  site: FeedSite,
  seriesOf: (id: number) => Obj | undefined = () => undefined,
): string {
  const ordered = seriesOrder(eventList, seriesOf);
  const events = ordered.map((o) => o.e);
  const cal = new ICAL.Component(['vcalendar', [], []]);
  cal.addPropertyWithValue('version', '2.0');
  cal.addPropertyWithValue('prodid', `-//${site.name} - calendar-engine//NONSGML v1.0//EN`);
  cal.addPropertyWithValue('calscale', 'GREGORIAN');
  cal.addPropertyWithValue('method', 'PUBLISH');
  cal.addPropertyWithValue('x-wr-calname', site.name);
  cal.addPropertyWithValue('x-original-url', site.url);
  cal.addPropertyWithValue('x-wr-caldesc', `Events for ${site.name}`);
  const zones = new Map<string, boolean>();
  for (const e of events) {
    const zone = String(e.timezone);
    if (!e.all_day && !zones.has(zone)) {
      const tz = vtimezone(zone);
      zones.set(zone, tz !== undefined);
      if (tz) cal.addSubcomponent(tz);
    }
  }
  const stamp = ICAL.Time.fromJSDate(site.now, true);
  const uidOf = (e: Obj): string => {
    const startUnix = Date.parse(String(e.utc_start_date).replace(' ', 'T') + 'Z') / 1000;
    const endUnix = Date.parse(String(e.utc_end_date).replace(' ', 'T') + 'Z') / 1000;
    return `${e.id as number}-${startUnix}-${endUnix}@${site.host}`;
  };
  for (const { e, series } of ordered) {
    const v = new ICAL.Component('vevent');
    const allDay = e.all_day === true;
    const zone = String(e.timezone);
    const start = String(e.start_date),
      end = String(e.end_date);
    const setTime = (name: 'dtstart' | 'dtend', local: string, utc: string, endOfAllDay: boolean) => {
      let p: ICAL.Property;
      if (allDay) {
        const t = localTime(local, true);
        if (endOfAllDay) t.adjust(1, 0, 0, 0); // an all-day DTEND is the day after (exclusive)
        p = v.addPropertyWithValue(name, t);
      } else if (zones.get(zone)) {
        p = v.addPropertyWithValue(name, localTime(local));
        p.setParameter('tzid', zone);
      } else {
        p = v.addPropertyWithValue(name, utcTime(utc));
      }
      return p;
    };
    setTime('dtstart', start, String(e.utc_start_date), false);
    setTime('dtend', end, String(e.utc_end_date), true);
    v.addPropertyWithValue('dtstamp', stamp);
    if (e.date_utc && e.date_utc !== '0000-00-00 00:00:00')
      v.addPropertyWithValue('created', utcTime(String(e.date_utc)));
    if (e.modified_utc && e.modified_utc !== '0000-00-00 00:00:00')
      v.addPropertyWithValue('last-modified', utcTime(String(e.modified_utc)));
    v.addPropertyWithValue('uid', uidOf(series ?? e));
    const recurrence = e.recurrence as { text: string } | undefined;
    if (recurrence && recurrence.text !== '') {
      for (const line of recurrence.text.split('\n')) v.addProperty(ICAL.Property.fromString(line));
    }
    if (series) {
      // the occurrence's original start, in the series' zone
      const rid = String(e.recurrence_id);
      if (series.all_day === true) v.addPropertyWithValue('recurrence-id', localTime(rid, true));
      else if (zones.get(String(series.timezone)))
        v.addPropertyWithValue('recurrence-id', localTime(rid)).setParameter('tzid', String(series.timezone));
      else {
        const shift =
          Date.parse(String(series.utc_start_date).replace(' ', 'T') + 'Z') -
          Date.parse(String(series.start_date).replace(' ', 'T') + 'Z');
        const utc = new Date(Date.parse(rid.replace(' ', 'T') + 'Z') + shift)
          .toISOString()
          .slice(0, 19)
          .replace('T', ' ');
        v.addPropertyWithValue('recurrence-id', utcTime(utc));
      }
    }
    v.addPropertyWithValue('summary', plainText(String(e.title)));
    const description = plainText(String(e.description ?? ''));
    if (description) v.addPropertyWithValue('description', description);
    v.addPropertyWithValue('url', String(e.url));
    const venue = (Array.isArray(e.venue) ? e.venue[0] : e.venue) as Obj | undefined;
    if (venue && typeof venue === 'object' && venue.venue) {
      const parts = [venue.venue, venue.address, venue.city, venue.stateprovince, venue.zip, venue.country].filter(
        (x) => typeof x === 'string' && x !== '',
      );
      v.addPropertyWithValue('location', plainText(parts.join(', ')));
      if (typeof venue.geo_lat === 'number' && typeof venue.geo_lng === 'number') {
        v.addPropertyWithValue('geo', [venue.geo_lat, venue.geo_lng]);
      }
    }
    const cats = ((e.categories as Obj[] | undefined) ?? []).map((c) => plainText(String(c.name)));
    if (cats.length > 0) {
      const p = new ICAL.Property('categories');
      p.setValues(cats);
      v.addProperty(p);
    }
    for (const o of (e.organizer as Obj[] | undefined) ?? []) {
      const p = v.addPropertyWithValue(
        'organizer',
        o.email ? `MAILTO:${String(o.email)}` : 'MAILTO:noreply@' + site.host,
      );
      p.setParameter('cn', plainText(String(o.organizer)));
    }
    cal.addSubcomponent(v);
  }
  return cal.toString() + '\r\n';
}
