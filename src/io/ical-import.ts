// .ics files into records of the import shape, as the plugin's aggregator imports them: each
// VEVENT an event (a recurring one, RRULE/RDATE/EXDATE with RECURRENCE-ID overrides, becomes its
// occurrences up to a horizon), LOCATION a venue (GEO its coordinates; reused by name),
// ORGANIZER an organizer (reused by name), CATEGORIES categories (reused by name). Times keep the
// zone of their TZID (the file's VTIMEZONEs are registered with ical.js first); UTC times are
// written in the site's zone. Parsing and recurrence expansion are ical.js's.

import fs from 'node:fs';
import ICAL from 'ical.js';
import type { EngineApi } from '../engine/engine-api.ts';
import { epochToZoned, isValidTimezone } from '../api/wordpress/dates.ts';
import { naiveToString } from '../engine/naive-time.ts';
import { ImportFileError } from './read-records.ts';
import type { CsvRecord } from './csv.ts';

const pad = (n: number) => String(n).padStart(2, '0');
const ymdHis = (t: ICAL.Time) => `${t.year}-${pad(t.month)}-${pad(t.day)} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`;

/** The records of an .ics file; recurring events are expanded until `horizon` (a Date). */
export function readIcsRecords(file: string, engine: EngineApi, siteZone: string, horizon: Date): CsvRecord[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  } catch (err) {
    throw new ImportFileError((err as NodeJS.ErrnoException).code === 'ENOENT' ? `${file}: no such file` : `${file}: ${(err as Error).message}`);
  }
  let root: ICAL.Component;
  try {
    root = new ICAL.Component(ICAL.parse(text) as unknown[]);
  } catch (err) {
    throw new ImportFileError(`${file}: not an iCalendar file: ${(err as Error).message}`);
  }
  if (root.name !== 'vcalendar') throw new ImportFileError(`${file}: expected a VCALENDAR, got ${root.name.toUpperCase()}`);
  for (const vtz of root.getAllSubcomponents('vtimezone')) {
    const tz = new ICAL.Timezone(vtz);
    if (!ICAL.TimezoneService.has(tz.tzid)) ICAL.TimezoneService.register(tz);
  }
  const out: CsvRecord[] = [];
  const made = { venues: new Map<string, number>(), organizers: new Map<string, number>(), categories: new Map<string, number>() };
  const vevents = root.getAllSubcomponents('vevent');
  // overrides of single occurrences (RECURRENCE-ID), by UID
  const overrides = new Map<string, ICAL.Event[]>();
  for (const c of vevents) {
    if (c.hasProperty('recurrence-id')) {
      const e = new ICAL.Event(c);
      overrides.set(e.uid, [...(overrides.get(e.uid) ?? []), e]);
    }
  }
  const until = ICAL.Time.fromJSDate(horizon, true);
  let n = 0;
  for (const c of vevents) {
    n++;
    if (c.hasProperty('recurrence-id')) continue;
    const event = new ICAL.Event(c);
    for (const o of overrides.get(event.uid) ?? []) event.relateException(o);
    const fail = (message: string): never => {
      throw new ImportFileError(`${file}: VEVENT ${n}${event.uid ? ` (UID ${event.uid})` : ''}: ${message}`);
    };
    if (!c.hasProperty('dtstart')) fail('no DTSTART');
    if (event.isRecurring()) {
      const it = event.iterator();
      let count = 0;
      for (let next = it.next(); next && next.compare(until) <= 0; next = it.next()) {
        const occ = event.getOccurrenceDetails(next);
        add(occ.item, occ.startDate, occ.endDate, fail);
        if (++count > 10_000) fail('more than 10,000 occurrences before the horizon');
      }
    } else add(event, event.startDate, event.endDate ?? event.startDate, fail);
  }
  return out;

  function zoneOf(t: ICAL.Time): string {
    const id = t.zone?.tzid;
    if (!id || id === 'floating' || id === 'UTC' || id === 'Z') return siteZone;
    return isValidTimezone(id) ? id : siteZone;
  }

  function add(e: ICAL.Event, start: ICAL.Time, end: ICAL.Time, fail: (m: string) => never): void {
    const allDay = start.isDate;
    const zone = zoneOf(start);
    // a time in an IANA zone keeps its wall time; UTC and other zones (Outlook's Windows names)
    // are converted to the site's zone
    const wall = (t: ICAL.Time): string => {
      const id = t.zone?.tzid;
      if (t.isDate || !id || id === 'floating' || (id !== 'UTC' && id !== 'Z' && isValidTimezone(id))) return ymdHis(t);
      return naiveToString(epochToZoned(t.toUnixTime() * 1000, zone));
    };
    let f = end;
    if (allDay) {
      f = end.clone();
      f.adjust(-1, 0, 0, 0); // DTEND of an all-day event is exclusive
      if (f.compare(start) < 0) f = start.clone();
    }
    const rec: Record<string, unknown> = {
      title: e.summary || '(no title)', description: (e.description ?? '').replace(/\n/g, '<br />\n'),
      timezone: zone, all_day: allDay, start_date: allDay ? `${ymdHis(start).slice(0, 10)} 00:00:00` : wall(start),
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
    out.push({ kind: 'events', rec, row: n });
  }

  function linked(kind: 'venues' | 'organizers', name: string, geo: number[] | null, address?: string, email = ''): number {
    const key = name.toLowerCase();
    const known = made[kind].get(key);
    if (known !== undefined) return known;
    for (const r of kind === 'venues' ? engine.venues() : engine.organizers()) if (r.status !== 'trash' && r.title.trim().toLowerCase() === key) return r.id;
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
