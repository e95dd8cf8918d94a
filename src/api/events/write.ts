// Event creates and updates (docs/behaviour.md): validation of every field, natural-language
// dates in the request or site zone, all-day bounds, the update resets of the real service,
// inline venues/organizers, terms by id or name, cost, website, image.

import { endOfNaiveDay, naiveFromString, naiveToString, startOfNaiveDay } from '../../engine/naive-time.ts';
import type { EventRecord } from '../../engine/records.ts';
import type { Tx } from '../context.ts';
import { parseCost } from '../wordpress/cost.ts';
import { isValidTimezone, parseDateInput, timezoneAbbr, zonedToEpoch } from '../wordpress/dates.ts';
import { fail } from '../wordpress/errors.ts';
import { resolveImage } from '../images.ts';
import { stageLinked } from '../linked/write.ts';
import { Problems, asId, asList, asString, has, isTruthy } from '../wordpress/params.ts';
import { finalSlug, floatingDates, newPostBase, publishIfDue, readPostFields } from '../post-fields.ts';
import { resolveEventTerms } from '../terms/write.ts';
import { isValidUrl } from '../wordpress/text.ts';
import type { Params } from '../wordpress/types.ts';

interface EventDates {
  startLocal: string;
  endLocal: string;
  startUtc: string;
  endUtc: string;
  timezoneAbbr: string;
}

/** Local bounds in `tz` → stored dates. All-day: 00:00:00 of the first day to 23:59:59 of the last. End before start → end = start. */
export function computeDates(tz: string, start: number, end: number, allDay: boolean): EventDates {
  const out = [0, 0, 0, 0];
  const abbr = computeDatesMs(tz, start, end, allDay, out);
  return {
    startLocal: naiveToString(out[0]),
    endLocal: naiveToString(out[1]),
    startUtc: naiveToString(out[2]),
    endUtc: naiveToString(out[3]),
    timezoneAbbr: abbr,
  };
}

/** computeDates as numbers: local start, local end (naive ms), UTC start, UTC end (epoch ms)
 *  into out[0..3]; returns the zone abbreviation at the start. */
export function computeDatesMs(
  tz: string,
  start: number,
  end: number,
  allDay: boolean,
  out: { [i: number]: number },
): string {
  if (allDay) {
    start = startOfNaiveDay(start);
    end = endOfNaiveDay(end);
  }
  if (end < start) end = start;
  const startEpoch = zonedToEpoch(start, tz);
  out[0] = start;
  out[1] = end;
  out[2] = startEpoch;
  out[3] = zonedToEpoch(end, tz);
  return timezoneAbbr(tz, startEpoch);
}

function isEmptyLink(v: unknown): boolean {
  if (v === '' || v === 0 || v === '0' || v === null || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && v !== null && Object.keys(v).length === 0;
}

/** `venue`: id, numeric string, {id}, or venue data; empty → unchanged (undefined). null = invalid. */
function resolveVenue(tx: Tx, value: unknown): number[] | undefined | null {
  if (isEmptyLink(value)) return undefined;
  if (Array.isArray(value)) {
    if (value.length > 1) throw fail('could-not-create-venue');
    return resolveVenue(tx, value[0]);
  }
  if (typeof value === 'object' && value !== null) {
    const obj = value as Params;
    if (has(obj, 'id') && !has(obj, 'venue')) return resolveVenue(tx, obj.id);
    const name = asString(obj.venue);
    if (name === undefined || name.trim() === '') return null;
    const staged = stageLinked(tx, 'venue', obj, undefined, new Problems());
    return staged ? [staged.rec.id] : null;
  }
  const id = asId(value);
  return id !== undefined && tx.engine.postKind(id) === 'venue' ? [id] : null;
}

/** `organizer`: id, CSV of ids, or an array of ids / {id} / organizer data. null = invalid.
 *  One object of organizer data, not in a list, is refused as the plugin refuses it (it reads
 *  the object's values as entries, and a name alone makes no organizer). */
function resolveOrganizers(tx: Tx, value: unknown): number[] | null {
  if (isEmptyLink(value)) return [];
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const obj = value as Params;
    if (!has(obj, 'id') || has(obj, 'organizer')) throw fail('could-not-create-organizer');
  }
  const entries: unknown[] = Array.isArray(value)
    ? value
    : typeof value === 'string'
      ? value
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '')
      : [value];
  const ids: number[] = [];
  for (const entry of entries) {
    let id: number | undefined;
    if (typeof entry === 'object' && entry !== null && !Array.isArray(entry)) {
      const obj = entry as Params;
      if (has(obj, 'id') && !has(obj, 'organizer')) {
        id = asId(obj.id);
        if (id === undefined || tx.engine.postKind(id) !== 'organizer') return null;
      } else {
        const name = asString(obj.organizer);
        if (name === undefined || name.trim() === '') return null;
        const staged = stageLinked(tx, 'organizer', obj, undefined, new Problems());
        if (!staged) return null;
        id = staged.rec.id;
      }
    } else {
      id = asId(entry);
      if (id === undefined || tx.engine.postKind(id) !== 'organizer') return null;
    }
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

/**
 * Validate an event create (existing undefined) or update and stage its ops (inline venues,
 * organizers, terms and images first, the event last). Problems are collected; when any exist
 * nothing usable is returned (the caller throws and the whole write is dropped).
 */
export function stageEvent(
  tx: Tx,
  params: Params,
  existing: EventRecord | undefined,
  problems: Problems,
): EventRecord | undefined {
  const site = tx.core.site.config;
  const now = site.now();

  let tzParam: string | undefined;
  if (has(params, 'timezone')) {
    const s = asString(params.timezone)?.trim();
    if (s === undefined || (s !== '' && !isValidTimezone(s))) problems.add('timezone');
    else tzParam = s;
  }
  const tz = tzParam || site.timezone;

  const fields = readPostFields(tx, params, problems, { titleParam: 'title', nonEmptyText: true, dateZone: tz });

  const parseBound = (name: 'start_date' | 'end_date'): number | undefined => {
    if (!has(params, name)) return undefined;
    const n = parseDateInput(params[name], tz, now);
    if (n === null) {
      problems.add(name);
      return undefined;
    }
    return n;
  };
  const start = parseBound('start_date');
  const end = parseBound('end_date');
  const allDayParam = has(params, 'all_day') ? isTruthy(params.all_day) : undefined;

  let cost: ReturnType<typeof parseCost> | undefined;
  if (has(params, 'cost')) {
    const v = params.cost;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) problems.add('cost');
    else cost = parseCost(v);
  }
  let website: string | undefined;
  if (has(params, 'website')) {
    const s = asString(params.website)?.trim();
    if (s === undefined || (s !== '' && !isValidUrl(s))) problems.add('website');
    else website = s;
  }
  let imageId: number | undefined;
  if (has(params, 'image')) {
    imageId = resolveImage(tx, params.image);
    if (imageId === undefined) problems.add('image');
  }
  let parentId: number | undefined;
  if (has(params, 'post_parent')) {
    const id = asId(params.post_parent);
    if (id === undefined || (id !== 0 && (tx.engine.postKind(id) !== 'event' || id === existing?.id)))
      problems.add('post_parent');
    else parentId = id;
  }
  let venueIds: number[] | undefined;
  if (has(params, 'venue')) {
    const r = resolveVenue(tx, params.venue);
    if (r === null) problems.add('venue');
    else venueIds = r;
  }
  let organizerIds: number[] | undefined;
  if (has(params, 'organizer')) {
    const r = resolveOrganizers(tx, params.organizer);
    if (r === null) problems.add('organizer');
    else organizerIds = r;
  }
  const terms: Partial<Record<'categories' | 'tags', string[]>> = {};
  for (const name of ['categories', 'tags'] as const) {
    if (!has(params, name)) continue;
    const items = asList(params[name]);
    if (items === undefined) problems.add(name);
    else terms[name] = items;
  }
  if (problems.any) return undefined;
  const categoryIds = terms.categories && resolveEventTerms(tx, 'tribe_events_cat', terms.categories);
  const tagIds = terms.tags && resolveEventTerms(tx, 'post_tag', terms.tags);

  const explicitSlug = fields.slug;
  delete fields.slug;
  const flags = {
    showMap: isTruthy(params.show_map),
    showMapLink: isTruthy(params.show_map_link),
    sticky: isTruthy(params.sticky),
    featured: isTruthy(params.featured),
    hideFromListings: isTruthy(params.hide_from_listings),
  };
  let rec: EventRecord;
  if (!existing) {
    const allDay = allDayParam ?? false;
    rec = {
      ...newPostBase(tx, tx.engine.allocPostId(), imageId ?? 0),
      timezone: tz,
      allDay,
      ...computeDates(tz, start!, end!, allDay),
      costs: cost?.costs ?? [],
      currencySymbol: cost?.currencySymbol ?? '',
      currencyPosition: cost?.currencyPosition ?? '',
      currencyCode: '',
      website: website ? website : null,
      ...flags,
      ticketed: isTruthy(params.ticketed ?? params.ticket),
      venueIds: venueIds ?? [],
      organizerIds: organizerIds ?? [],
      categoryIds: categoryIds ?? [],
      tagIds: tagIds ?? [],
      parentId: parentId ?? 0,
      ...fields,
    };
  } else {
    rec = { ...existing, ...fields, modified: tx.stamps.local, modifiedUtc: tx.stamps.utc, ...flags };
    if (start !== undefined && end !== undefined) {
      rec.timezone = tz;
      rec.allDay = allDayParam ?? false;
      Object.assign(rec, computeDates(tz, start, end, rec.allDay));
    } else if (allDayParam === true) {
      if (tzParam) rec.timezone = tzParam;
      rec.allDay = true;
      const s = start ?? naiveFromString(existing.startLocal),
        e = end ?? naiveFromString(existing.endLocal);
      Object.assign(rec, computeDates(rec.timezone || site.timezone, s, e, true));
    } else if (tzParam !== undefined) {
      // a zone change without dates changes the zone and its abbreviation, not the stored times
      rec.timezone = tz;
      rec.timezoneAbbr = timezoneAbbr(tz, zonedToEpoch(naiveFromString(existing.startLocal), tz));
    }
    if (cost) Object.assign(rec, cost);
    rec.website = website ?? '';
    if (imageId !== undefined) rec.imageId = imageId;
    if (has(params, 'ticketed') || has(params, 'ticket')) rec.ticketed = isTruthy(params.ticketed ?? params.ticket);
    if (venueIds) rec.venueIds = venueIds;
    rec.organizerIds = organizerIds ?? [];
    if (categoryIds) rec.categoryIds = categoryIds;
    if (tagIds) rec.tagIds = tagIds;
    if (parentId !== undefined) rec.parentId = parentId;
  }
  publishIfDue(tx, rec);
  floatingDates(tx, rec, params, existing);
  rec.slug = finalSlug(tx, 'event', rec, explicitSlug);
  tx.ops.push({ t: 'event', a: 'put', rec });
  return rec;
}
