// One far occurrence (far.ts): what its far id names, its record and representations, and the
// writes that make it a row of its own (an exception or an exclusion) with an allocated id.

import type { Core, Tx } from '../api/context.ts';
import { zonedToEpoch } from '../api/wordpress/dates.ts';
import { details } from '../api/events/head.ts';
import { eventSingleObject, eventUrl, isoWithOffset } from '../api/representation/represent.ts';
import { trashedSlug } from '../engine/apply.ts';
import { naiveFromString } from '../engine/naive-time.ts';
import type { EventRecord } from '../engine/records.ts';
import { type FarItem, excluded, withoutExclusions } from './far-index.ts';
import { FAR_ORDINALS, decodeFarId, farIdOf, isFarId, slotsPerDay } from './far-ids.ts';
import { type Occurrence, occurrences } from './index.ts';
import { childrenOf, occurrenceRecord } from './series.ts';
import { DAY_MS, SLACK_MS } from './set.ts';
import { seriesTimeAt, setAt } from './stored.ts';

/** The occurrence's slug: the series' slug and its day, `-2`… for a day's later instances. */
function farSlug(series: EventRecord, local: string, nth: number): string {
  const base = series.slug.endsWith('__trashed') ? series.slug.slice(0, -'__trashed'.length) : series.slug;
  if (base === '') return '';
  const slug = `${base}-${local.slice(0, 10)}${nth > 0 ? `-${nth + 1}` : ''}`;
  return series.status === 'trash' ? trashedSlug(slug) : slug;
}

/** The record of the far instance `local` of series row `row`, with id `id`. */
function farRecord(core: Core, row: number, local: string, id: number, nth: number): EventRecord {
  const series = core.engine.eventRecord(row);
  return occurrenceRecord(series, local, id, farSlug(series, local, nth), core.site.config.timezone);
}

/** The record a list's far item stands for. */
export function farItemRecord(core: Core, item: FarItem): EventRecord {
  return farRecord(core, item.row, item.local, item.id, item.nth);
}

/** A far occurrence's list representation as a fresh object: its series' with the fields an
 *  occurrence has of its own (id, urls, slug, dates, zone abbreviation, recurrence fields). */
export function farObject(core: Core, rec: EventRecord): Record<string, unknown> {
  const { engine, site } = core;
  const obj = core.render.eventObject(engine.eventRow(rec.parentId));
  const url = eventUrl(site, rec);
  const globalId = site.origin + '?id=' + rec.id;
  obj.id = rec.id;
  obj.global_id = globalId;
  obj.global_id_lineage = [globalId];
  obj.url = url;
  obj.rest_url = site.root + 'events/' + rec.id;
  obj.slug = rec.slug;
  obj.start_date = rec.startLocal;
  obj.start_date_details = details(rec.startLocal);
  obj.end_date = rec.endLocal;
  obj.end_date_details = details(rec.endLocal);
  obj.utc_start_date = rec.startUtc;
  obj.utc_start_date_details = details(rec.startUtc);
  obj.utc_end_date = rec.endUtc;
  obj.utc_end_date_details = details(rec.endUtc);
  obj.timezone_abbr = rec.timezoneAbbr;
  if (rec.website === null) obj.website = url;
  delete obj.recurrence;
  obj.post_parent = rec.parentId;
  obj.recurrence_id = rec.recurrenceId;
  obj.is_exception = false;
  return obj;
}

/** A far occurrence's single-GET representation (with json_ld). */
export function farSingleObject(core: Core, rec: EventRecord): Record<string, unknown> {
  const { engine, site } = core;
  const obj = eventSingleObject(site, engine, engine.eventRow(rec.parentId), farObject(core, rec));
  const ld = obj.json_ld as Record<string, unknown>;
  ld.startDate = isoWithOffset(rec.startLocal, rec.startUtc);
  ld.endDate = isoWithOffset(rec.endLocal, rec.endUtc);
  return obj;
}

/** What a far id names: the row of that occurrence (by its record) or a far instance. */
export type FarTarget = { rec: EventRecord; item?: undefined } | { rec?: undefined; item: FarItem };

/**
 * What a far id names: the row of that occurrence when it has one (an exception or exclusion made
 * from it, or the horizon's row once the horizon reached it), else the far instance;
 * undefined when the series has no such instance (or no longer has it).
 */
export function resolveFarTarget(core: Core, id: number): FarTarget | undefined {
  if (!isFarId(id)) return undefined;
  const engine = core.engine,
    siteZone = core.site.config.timezone;
  const { seriesId, ordinal } = decodeFarId(id);
  const row = engine.eventRow(seriesId);
  if (row < 0 || engine.eventStatus(row) === 'inherit') return undefined;
  const set = setAt(engine, row, siteZone);
  if (!set) return undefined;
  const st = seriesTimeAt(engine, row, siteZone);
  const perDay = slotsPerDay(set);
  const idx = ordinal % perDay;
  const day = Math.floor(naiveFromString(st.start) / DAY_MS) + (ordinal - idx) / perDay;
  const dayStart = day * DAY_MS;
  let found: Occurrence | undefined;
  let n = 0;
  const from = zonedToEpoch(dayStart, st.timezone) - SLACK_MS;
  for (const o of occurrences(withoutExclusions(set), st, from, from + 2 * SLACK_MS + 2 * DAY_MS)) {
    const d = Math.floor(naiveFromString(o.local) / DAY_MS);
    if (d < day) continue;
    if (d > day) break;
    if (n++ === idx) {
      found = o;
      break;
    }
  }
  if (found === undefined) return undefined;
  const local = found.local;
  if (local === st.start) return { rec: engine.eventRecord(row) };
  const children = childrenOf(engine, seriesId);
  const own = children.get(local);
  if (own !== undefined && own.status !== 'inherit') return { rec: own };
  if (excluded(set, st, found)) return undefined;
  // an instance the rows should hold (up to the last generated row) and do not: not generated
  let after = st.start;
  for (const [rid, rec] of children) if (!rec.exception && rec.status !== 'inherit' && rid > after) after = rid;
  if (local <= after) return undefined;
  return { item: { row, local, id, nth: idx, start: naiveFromString(local) } };
}

/** What a far id names as a record (resolveFarTarget): a row's, or a far instance's. */
export function resolveFarId(core: Core, id: number): EventRecord | undefined {
  const target = resolveFarTarget(core, id);
  return target === undefined ? undefined : (target.rec ?? farItemRecord(core, target.item));
}

const FAR_SLUG = /^(.+)-(\d{4})-(\d{2})-(\d{2})(?:-(\d{1,7}))?$/;

/**
 * The far occurrence a slug names (`{series slug}-{Y-m-d}`, `-2`… for a day's later instances),
 * when no row has that slug; undefined when it names none.
 */
export function resolveFarSlug(core: Core, slug: string): EventRecord | undefined {
  const m = FAR_SLUG.exec(slug);
  if (m === null) return undefined;
  const engine = core.engine,
    siteZone = core.site.config.timezone;
  const row = engine.eventRowBySlug(m[1]);
  if (row < 0) return undefined;
  const set = setAt(engine, row, siteZone);
  if (!set) return undefined;
  const st = seriesTimeAt(engine, row, siteZone);
  const day = Date.UTC(Number(m[2]), Number(m[3]) - 1, Number(m[4])) / DAY_MS;
  const nth = m[5] === undefined ? 0 : Number(m[5]) - 1;
  const perDay = slotsPerDay(set);
  if (!Number.isInteger(day) || nth < 0 || nth >= perDay || (m[5] !== undefined && nth === 0)) return undefined;
  const ordinal = (day - Math.floor(naiveFromString(st.start) / DAY_MS)) * perDay + nth;
  if (ordinal < 0 || ordinal >= FAR_ORDINALS) return undefined;
  const target = resolveFarTarget(core, farIdOf(engine.eventId(row), ordinal));
  if (target?.item === undefined) return undefined;
  const rec = farItemRecord(core, target.item);
  return rec.slug === slug ? rec : undefined;
}

// ---- writes to far occurrences ------------------------------------------------------------

function scopeParam(params: Record<string, unknown>): string {
  const s = params.recurrence_scope;
  return typeof s === 'string' ? s.trim() : '';
}

/** A far occurrence made a row of its own for a write (an allocated id, its own slug). */
function materialise(tx: Tx, rec: EventRecord, exception: boolean): EventRecord {
  const id = tx.engine.allocPostId();
  const base = rec.slug.replace(/__trashed$/, '');
  const slug = base === '' ? '' : tx.uniqueSlug('event', base, id);
  const row: EventRecord = { ...rec, id, slug: rec.status === 'trash' && slug !== '' ? trashedSlug(slug) : slug };
  if (exception) row.exception = true;
  tx.ops.push({ t: 'event', a: 'put', rec: row });
  return row;
}

/**
 * The record an update of `existing` works on: itself, or for a far occurrence edited on its own
 * (recurrence_scope=this) a new row that the edit makes an exception; for `following` a record
 * with an allocated id (it becomes the new series of the split); for `all` the far record (the
 * edit goes to the series).
 */
export function farUpdateTarget(tx: Tx, existing: EventRecord, params: Record<string, unknown>): EventRecord {
  if (!isFarId(existing.id)) return existing;
  const scope = scopeParam(params);
  if (scope === 'all') return existing;
  if (scope === 'following') return { ...existing, id: tx.engine.allocPostId() };
  return materialise(tx, existing, false);
}

/**
 * A delete of a far occurrence: `this` and `following` make it a row in the trash (an exception
 * of its series, so the restore of a deleted occurrence applies to it), `all` deletes the series.
 * `stageDelete` is the ordinary delete; returns the id the answer shows.
 */
export function stageFarDelete(
  tx: Tx,
  existing: EventRecord,
  params: Record<string, unknown>,
  stageDelete: (tx: Tx, rec: EventRecord, params: Record<string, unknown>) => void,
): number {
  if (scopeParam(params) === 'all') {
    stageDelete(tx, existing, params);
    return existing.parentId;
  }
  const row = materialise(tx, existing, true);
  stageDelete(tx, row, params);
  // `following` trashes the series' later rows; this one is not in the engine yet
  if (scopeParam(params) === 'following')
    tx.ops.push({ t: 'event', a: 'delete', id: row.id, modified: tx.stamps.local, modifiedUtc: tx.stamps.utc });
  return row.id;
}
