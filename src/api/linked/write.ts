// Venue and organizer writes (docs/behaviour.md): standalone creates/updates and the inline
// objects of an event write. Duplicate detection reuses an existing record with the same name
// (case-insensitive) and, when a description is sent, the same description.

import type { OrganizerRecord, VenueRecord } from '../../engine/records.ts';
import type { Tx } from '../context.ts';
import { resolveImage } from '../images.ts';
import { type Problems, asNumber, asString, has, isTruthy } from '../wordpress/params.ts';
import { finalSlug, floatingDates, newPostBase, publishIfDue, readPostFields } from '../post-fields.ts';
import { isValidUrl, sanitizeTextField } from '../wordpress/text.ts';
import type { Params } from '../wordpress/types.ts';

export type LinkedKind = 'venue' | 'organizer';
type LinkedRecord = VenueRecord | OrganizerRecord;

const VENUE_TEXT = ['address', 'city', 'country', 'province', 'state', 'zip', 'phone'] as const;
const ORGANIZER_TEXT = ['phone', 'email'] as const;

/** Meta fields of a venue/organizer present in params, validated. */
function readMeta(tx: Tx, kind: LinkedKind, params: Params, problems: Problems): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of kind === 'venue' ? VENUE_TEXT : ORGANIZER_TEXT) {
    if (!has(params, name)) continue;
    const s = asString(params[name]);
    if (s === undefined) problems.add(name);
    else out[name] = sanitizeTextField(s);
  }
  if (has(params, 'website')) {
    const s = asString(params.website)?.trim();
    if (s === undefined || (s !== '' && !isValidUrl(s))) problems.add('website');
    else out.website = s;
  }
  if (has(params, 'image')) {
    const id = resolveImage(tx, params.image);
    if (id === undefined) problems.add('image');
    else out.imageId = id;
  }
  if (kind === 'venue') {
    const sp = has(params, 'stateprovince') ? params.stateprovince : params.stateProvince;
    if (sp !== undefined) {
      const s = asString(sp);
      if (s === undefined) problems.add('stateprovince');
      else out.stateprovince = sanitizeTextField(s);
    }
    // show_map flags: truthy → true, anything else sent → false, not sent → true (create AND update)
    out.showMap = has(params, 'show_map') ? isTruthy(params.show_map) : true;
    out.showMapLink = has(params, 'show_map_link') ? isTruthy(params.show_map_link) : true;
    for (const name of ['geo_lat', 'geo_lng'] as const) {
      if (!has(params, name)) continue;
      const raw = params[name];
      const key = name === 'geo_lat' ? 'geoLat' : 'geoLng';
      if (raw === '' || raw === null) {
        out[key] = null;
        continue;
      }
      const n = asNumber(raw);
      const limit = name === 'geo_lat' ? 90 : 180;
      if (n === undefined || n < -limit || n > limit) problems.add(name);
      else out[key] = n;
    }
  }
  return out;
}

function deriveStateProvince(v: VenueRecord): string {
  const usa = v.country === '' || v.country === 'US' || v.country === 'United States';
  if (v.state !== '' && usa) return v.state;
  return v.province !== '' ? v.province : '';
}

function blank(tx: Tx, kind: LinkedKind, id: number): LinkedRecord {
  const base = newPostBase(tx, id);
  if (kind === 'venue') {
    return {
      ...base,
      address: '',
      city: '',
      country: '',
      province: '',
      state: '',
      zip: '',
      phone: '',
      stateprovince: '',
      website: '',
      showMap: true,
      showMapLink: true,
      geoLat: null,
      geoLng: null,
    };
  }
  return { ...base, phone: '', email: '', website: '' };
}

/** An existing, non-trashed record of that kind with the same name (and description when given), both
 *  compared case-insensitively as MySQL's default collation does (the plugin's HTTP tests: "a venue" + "a venue
 *  description" finds "A venue" + "A venue description"). */
export function findDuplicate(
  tx: Tx,
  kind: LinkedKind,
  title: string,
  description: string | undefined,
): LinkedRecord | undefined {
  const name = title.trim().toLowerCase();
  const desc = description?.trim().toLowerCase();
  const matches = (r: LinkedRecord): boolean =>
    r.status !== 'trash' &&
    r.title.trim().toLowerCase() === name &&
    (desc === undefined || r.description.trim().toLowerCase() === desc);
  const pending: LinkedRecord[] = kind === 'venue' ? tx.newVenues : tx.newOrganizers;
  for (const r of pending) if (matches(r)) return r;
  const all: Iterable<LinkedRecord> = kind === 'venue' ? tx.engine.venues() : tx.engine.organizers();
  for (const r of all) if (matches(r)) return r;
  return undefined;
}

export interface LinkedWriteResult {
  rec: LinkedRecord;
  created: boolean;
}

/**
 * Validate and stage a create (existing undefined) or an update of a venue/organizer.
 * Problems are collected; when any exist nothing is staged and undefined is returned.
 */
export function stageLinked(
  tx: Tx,
  kind: LinkedKind,
  params: Params,
  existing: LinkedRecord | undefined,
  problems: Problems,
): LinkedWriteResult | undefined {
  const fields = readPostFields(tx, params, problems, {
    titleParam: kind,
    nonEmptyText: false,
    dateZone: tx.core.site.config.timezone,
  });
  const meta = readMeta(tx, kind, params, problems);
  if (problems.any) return undefined;

  let target = existing;
  let created = false;
  if (!target && fields.title !== undefined) {
    target = findDuplicate(tx, kind, fields.title, fields.description);
    if (target) {
      // The duplicate is reused; only the submitted meta is written onto it (writes.md §2).
      const rec = { ...target, ...meta, modified: tx.stamps.local, modifiedUtc: tx.stamps.utc } as LinkedRecord;
      finishVenue(rec, params, meta);
      return stage(tx, kind, rec, false);
    }
  }
  if (!target) {
    target = blank(tx, kind, tx.engine.allocPostId());
    created = true;
  }
  const explicitSlug = fields.slug;
  delete fields.slug;
  const rec = { ...target, ...fields, ...meta, modified: tx.stamps.local, modifiedUtc: tx.stamps.utc } as LinkedRecord;
  if (created && !('date' in fields)) {
    rec.date = tx.stamps.local;
    rec.dateUtc = tx.stamps.utc;
  }
  finishVenue(rec, params, meta);
  publishIfDue(tx, rec);
  floatingDates(tx, rec, params, created ? undefined : target);
  rec.slug = finalSlug(tx, kind, rec, explicitSlug);
  return stage(tx, kind, rec, created);
}

function finishVenue(rec: LinkedRecord, params: Params, meta: Record<string, unknown>): void {
  if (!('stateprovince' in rec)) return;
  const v = rec as VenueRecord;
  const touched = ['state', 'province', 'country'].some((n) => has(params, n));
  if (!('stateprovince' in meta) && touched) v.stateprovince = deriveStateProvince(v);
  if ((v.geoLat === null) !== (v.geoLng === null)) {
    // one coordinate without the other is not a location
    v.geoLat = null;
    v.geoLng = null;
  }
}

function stage(tx: Tx, kind: LinkedKind, rec: LinkedRecord, created: boolean): LinkedWriteResult {
  if (kind === 'venue') {
    tx.ops.push({ t: 'venue', a: 'put', rec: rec as VenueRecord });
    replacePending(tx.newVenues, rec as VenueRecord);
  } else {
    tx.ops.push({ t: 'organizer', a: 'put', rec: rec as OrganizerRecord });
    replacePending(tx.newOrganizers, rec as OrganizerRecord);
  }
  return { rec, created };
}

function replacePending<T extends { id: number }>(list: T[], rec: T): void {
  const i = list.findIndex((r) => r.id === rec.id);
  if (i >= 0) list[i] = rec;
  else list.push(rec);
}

/** Geo coordinates must come in pairs: a lone coordinate in a write is an error. */
export function checkGeoPair(params: Params, existing: VenueRecord | undefined, problems: Problems): void {
  const lat = has(params, 'geo_lat'),
    lng = has(params, 'geo_lng');
  if (lat === lng) return;
  const hasOther = existing && (lat ? existing.geoLng !== null : existing.geoLat !== null);
  const clearing = (lat ? params.geo_lat : params.geo_lng) === '' || (lat ? params.geo_lat : params.geo_lng) === null;
  if (!hasOther && !clearing) problems.add(lat ? 'geo_lng' : 'geo_lat');
}
