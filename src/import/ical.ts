// .ics files into records of the import shape: each VEVENT an event (a recurring one a series
// with its RRULE/RDATE/EXDATE lines, each RECURRENCE-ID override an exception of it: the series
// stays one series), LOCATION a venue (GEO its coordinates; reused by name),
// ORGANIZER an organizer (reused by name), CATEGORIES categories (reused by name). Times keep the
// zone of their TZID (the file's VTIMEZONEs are registered with ical.js first); UTC times are
// written in the site's zone. Parsing is ical.js's; the occurrences are the calendar's.

import fs from 'node:fs';
import ICAL from 'ical.js';
import { findIana } from 'windows-iana';
import type { EngineApi } from '../engine/engine-api.ts';
import { epochToZoned, isValidTimezone } from '../api/wordpress/dates.ts';
import { naiveFromString, naiveToString } from '../engine/naive-time.ts';
import { countsFrom, occurrences, parseRecurrence, representRecurrence } from '../recurrence/index.ts';
import { ImportFileError } from './scanners.ts';
import type { CsvRecord } from './csv.ts';

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The IANA zone a TZID names: itself when it is one, or the zone CLDR's windowsZones table gives a
 * Windows zone name as Outlook and Exchange write them (`Eastern Standard Time` → America/New_York,
 * `W. Europe Standard Time` → Europe/Berlin: the table's zone for the territory "001"); undefined
 * for anything else.
 */
export function ianaZoneOf(tzid: string): string | undefined {
  if (isValidTimezone(tzid)) return tzid;
  const iana = findIana(tzid.trim())[0];
  return iana !== undefined && isValidTimezone(iana) ? iana : undefined;
}
const ymdHis = (t: ICAL.Time) =>
  `${t.year}-${pad(t.month)}-${pad(t.day)} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`;

/** The records of an .ics file: events, series and their exceptions (after all the series). */
export function readIcsRecords(file: string, engine: EngineApi, siteZone: string): CsvRecord[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  } catch (err) {
    throw new ImportFileError(
      (err as NodeJS.ErrnoException).code === 'ENOENT' ? `${file}: no such file` : `${file}: ${(err as Error).message}`,
    );
  }
  let root: ICAL.Component;
  try {
    root = new ICAL.Component(ICAL.parse(text) as unknown[]);
  } catch (err) {
    throw new ImportFileError(`${file}: not an iCalendar file: ${(err as Error).message}`);
  }
  if (root.name !== 'vcalendar')
    throw new ImportFileError(`${file}: expected a VCALENDAR, got ${root.name.toUpperCase()}`);
  for (const vtz of root.getAllSubcomponents('vtimezone')) {
    const tz = new ICAL.Timezone(vtz);
    if (!ICAL.TimezoneService.has(tz.tzid)) ICAL.TimezoneService.register(tz);
  }
  const out: CsvRecord[] = [];
  const exceptions: CsvRecord[] = [];
  const made = {
    venues: new Map<string, number>(),
    organizers: new Map<string, number>(),
    categories: new Map<string, number>(),
  };
  const vevents = root.getAllSubcomponents('vevent');
  // series by UID: their id and zone, for their exceptions
  const series = new Map<string, { id: number; zone: string }>();
  let n = 0;
  for (const c of vevents) {
    n++;
    if (c.hasProperty('recurrence-id')) continue;
    const event = new ICAL.Event(c);
    const fail = failer(n, event);
    if (!c.hasProperty('dtstart')) fail('no DTSTART');
    const rec = add(event, event.startDate, event.endDate ?? event.startDate, fail);
    if (event.isRecurring()) {
      const zone = String(rec.timezone);
      rec.recurrence = recurrenceLines(c, zone, event.startDate.isDate).join('\n');
      rec.id = engine.allocPostId();
      if (event.uid) series.set(event.uid, { id: rec.id as number, zone });
    }
    out.push({ kind: 'events', rec, row: n });
  }
  n = 0;
  for (const c of vevents) {
    n++;
    if (!c.hasProperty('recurrence-id')) continue;
    const event = new ICAL.Event(c);
    const fail = failer(n, event);
    if (!c.hasProperty('dtstart')) fail('no DTSTART');
    const rec = add(event, event.startDate, event.endDate ?? event.startDate, fail);
    let of = series.get(event.uid);
    if (of) {
      // an override of one occurrence: an exception of its series, at its original start
      const rid = event.recurrenceId;
      const master = out.find((r) => r.rec.id === of!.id)!;
      const local = rid.isDate
        ? `${ymdHis(rid).slice(0, 10)} ${String(master.rec.start_date).slice(11)}`
        : wallIn(rid, of.zone);
      if (local === master.rec.start_date) {
        // the first instance is the series' own row and cannot be an exception: the override
        // is an event of its own and the series starts at its second instance
        if (!startAtSecond(master.rec)) out.splice(out.indexOf(master), 1);
        series.delete(event.uid);
        of = undefined;
      } else {
        rec.post_parent = of.id;
        rec.recurrence_id = local;
        rec.is_exception = true;
      }
    }
    // (an override whose series the file lacks is an event of its own)
    (of ? exceptions : out).push({ kind: 'events', rec, row: n });
  }
  out.push(...exceptions);
  return out;

  /** Move a series record's start to its second instance (false when it has none): its rules'
   *  COUNTs lose the first instance when they made it, its extra and excluded dates before go. */
  function startAtSecond(rec: Record<string, unknown>): boolean {
    const st = { start: String(rec.start_date), timezone: String(rec.timezone), allDay: rec.all_day === true };
    const set = parseRecurrence(rec.recurrence, st, 'recurrence');
    if (!set) return false;
    let second: string | undefined;
    for (const o of occurrences(set, st)) {
      if (o.local !== st.start) {
        second = o.local;
        break;
      }
    }
    if (second === undefined) return false;
    const counts = countsFrom(set, second, st);
    const r = representRecurrence(set, st);
    const from = (d: string) => d >= second.slice(0, d.length);
    const duration = naiveFromString(String(rec.end_date)) - naiveFromString(st.start);
    rec.start_date = second;
    rec.end_date = naiveToString(naiveFromString(second) + duration);
    rec.recurrence = {
      rules: r.rules.map((rule, i) => (counts[i] === null ? rule : rule.replace(/COUNT=\d+/, `COUNT=${counts[i]}`))),
      rdates: r.rdates.filter(from),
      exdates: r.exdates.filter(from),
    };
    return true;
  }

  function failer(at: number, event: ICAL.Event): (message: string) => never {
    return (message: string): never => {
      throw new ImportFileError(`${file}: VEVENT ${at}${event.uid ? ` (UID ${event.uid})` : ''}: ${message}`);
    };
  }

  /** `t` as wall time in `zone` (an IANA zone: its own wall time when it is in that zone). */
  function wallIn(t: ICAL.Time, zone: string): string {
    const id = t.zone?.tzid;
    if (t.isDate || !id || id === 'floating' || id === zone || (id !== 'UTC' && id !== 'Z' && ianaZoneOf(id) === zone))
      return ymdHis(t);
    return naiveToString(epochToZoned(t.toUnixTime() * 1000, zone));
  }

  /** The RRULE, RDATE and EXDATE lines of a VEVENT, dates in the series' zone (TZID) or as dates. */
  function recurrenceLines(c: ICAL.Component, zone: string, allDay: boolean): string[] {
    const lines: string[] = [];
    for (const p of c.getAllProperties('rrule')) lines.push(`RRULE:${String(p.getFirstValue())}`);
    for (const name of ['rdate', 'exdate'] as const) {
      for (const p of c.getAllProperties(name)) {
        for (const v of p.getValues() as unknown[]) {
          const t = (v instanceof ICAL.Time ? v : (v as { start?: ICAL.Time }).start) as ICAL.Time | undefined;
          if (!t) continue;
          const upper = name.toUpperCase();
          if (allDay || t.isDate) lines.push(`${upper};VALUE=DATE:${ymdHis(t).slice(0, 10).replace(/-/g, '')}`);
          else lines.push(`${upper};TZID=${zone}:${wallIn(t, zone).replace(/[-:]/g, '').replace(' ', 'T')}`);
        }
      }
    }
    return lines;
  }

  function zoneOf(t: ICAL.Time): string {
    const id = t.zone?.tzid;
    if (!id || id === 'floating' || id === 'UTC' || id === 'Z') return siteZone;
    return ianaZoneOf(id) ?? siteZone;
  }

  function add(e: ICAL.Event, start: ICAL.Time, end: ICAL.Time, fail: (m: string) => never): Record<string, unknown> {
    const allDay = start.isDate;
    const zone = zoneOf(start);
    // a time in an IANA zone, or a Windows zone name (Outlook's), keeps its wall time; UTC and
    // zones of other names are converted to the site's zone
    const wall = (t: ICAL.Time): string => {
      const id = t.zone?.tzid;
      if (t.isDate || !id || id === 'floating' || (id !== 'UTC' && id !== 'Z' && ianaZoneOf(id) !== undefined))
        return ymdHis(t);
      return naiveToString(epochToZoned(t.toUnixTime() * 1000, zone));
    };
    let f = end;
    if (allDay) {
      f = end.clone();
      f.adjust(-1, 0, 0, 0); // DTEND of an all-day event is exclusive
      if (f.compare(start) < 0) f = start.clone();
    }
    const rec: Record<string, unknown> = {
      title: e.summary || '(no title)',
      description: (e.description ?? '').replace(/\n/g, '<br />\n'),
      timezone: zone,
      all_day: allDay,
      start_date: allDay ? `${ymdHis(start).slice(0, 10)} 00:00:00` : wall(start),
      end_date: allDay ? `${ymdHis(f).slice(0, 10)} 23:59:59` : wall(f),
    };
    if (!/^\d{4}-/.test(String(rec.start_date))) fail('a DTSTART that is not a date');
    const url = e.component.getFirstPropertyValue('url');
    if (typeof url === 'string' && /^https?:\/\//.test(url)) rec.website = url;
    if (e.location) {
      const geo = e.component.getFirstPropertyValue('geo') as number[] | null;
      rec.venue = linked('venues', e.location.split(',')[0].trim(), geo, e.location);
    }
    const orgs: number[] = [];
    for (const p of e.component.getAllProperties('organizer')) {
      const cn = p.getParameter('cn');
      const mail = String(p.getFirstValue() ?? '').replace(/^mailto:/i, '');
      const name = typeof cn === 'string' && cn ? cn : mail;
      if (name) orgs.push(linked('organizers', name, null, undefined, mail.includes('@') ? mail : ''));
    }
    if (orgs.length) rec.organizer = orgs;
    const cats: number[] = [];
    for (const p of e.component.getAllProperties('categories')) {
      for (const v of p.getValues()) {
        const name = String(v).trim();
        if (name) cats.push(category(name));
      }
    }
    if (cats.length) rec.categories = [...new Set(cats)];
    return rec;
  }

  function linked(
    kind: 'venues' | 'organizers',
    name: string,
    geo: number[] | null,
    address?: string,
    email = '',
  ): number {
    const key = name.toLowerCase();
    const known = made[kind].get(key);
    if (known !== undefined) return known;
    for (const r of kind === 'venues' ? engine.venues() : engine.organizers())
      if (r.status !== 'trash' && r.title.trim().toLowerCase() === key) return r.id;
    const id = engine.allocPostId();
    made[kind].set(key, id);
    const rec: Record<string, unknown> = kind === 'venues' ? { id, venue: name } : { id, organizer: name };
    if (kind === 'venues' && address && address !== name) rec.address = address.slice(name.length).replace(/^,\s*/, '');
    if (kind === 'venues' && Array.isArray(geo) && geo.length === 2) {
      rec.geo_lat = geo[0];
      rec.geo_lng = geo[1];
    }
    if (email) rec.email = email;
    out.push({ kind, rec, row: n });
    return id;
  }

  function category(name: string): number {
    const key = name.toLowerCase();
    const known = made.categories.get(key);
    if (known !== undefined) return known;
    for (const t of engine.terms('tribe_events_cat')) if (t.name.toLowerCase() === key) return t.id;
    const id = engine.allocTermId();
    made.categories.set(key, id);
    out.push({ kind: 'categories', rec: { id, name }, row: n });
    return id;
  }
}
