// Event writes that involve recurrence: a series created, edited or deleted with its occurrences;
// one occurrence edited (an exception) or deleted (an exclusion); "this and following" (a split).
// Each is staged as ops in the write's Tx like any other event write.

import type { Tx } from '../api/context.ts';
import { stageEvent } from '../api/events/write.ts';
import { fail, invalidParams } from '../api/wordpress/errors.ts';
import { asString, has, type Problems } from '../api/wordpress/params.ts';
import type { Params } from '../api/wordpress/types.ts';
import { naiveFromString } from '../engine/naive-time.ts';
import type { EventRecord } from '../engine/records.ts';
import { addExclusion, countsFrom, parseRecurrence, untilBefore } from './index.ts';
import { computeDates } from '../api/events/write.ts';
import { childrenOf, seriesTimeOf, setOf, shiftLocal, stageOccurrences, storedOf } from './series.ts';

export const SCOPES = ['this', 'following', 'all'] as const;
export type Scope = (typeof SCOPES)[number];

function scopeOf(params: Params): Scope {
  if (!has(params, 'recurrence_scope')) return 'this';
  const s = asString(params.recurrence_scope)?.trim() ?? '';
  if (s === '') return 'this';
  if (!(SCOPES as readonly string[]).includes(s)) {
    throw invalidParams({ recurrence_scope: `recurrence_scope is not one of ${SCOPES.join(', ')}.` });
  }
  return s as Scope;
}

/** The event `rec` (staged by stageEvent) takes the `recurrence` parameter: a series, or none. */
function applyRecurrenceParam(tx: Tx, rec: EventRecord, params: Params): void {
  if (!has(params, 'recurrence')) return;
  const st = seriesTimeOf(rec, tx.core.site.config.timezone);
  const set = parseRecurrence(params.recurrence, st, 'recurrence');
  if (set) rec.recurrence = storedOf(set, st);
  else delete rec.recurrence;
}

/** Move the put of `rec` (pushed by stageEvent) to the end of the write: it wins over others. */
function putLast(tx: Tx, rec: EventRecord): void {
  const i = tx.ops.findIndex((op) => op.a === 'put' && op.t === 'event' && op.rec === rec);
  if (i >= 0) tx.ops.push(...tx.ops.splice(i, 1));
}

/** Take back the put of `rec` stageEvent pushed (the record is used for another row). */
function unstage(tx: Tx, rec: EventRecord): void {
  const i = tx.ops.findIndex((op) => op.a === 'put' && op.t === 'event' && op.rec === rec);
  if (i >= 0) tx.ops.splice(i, 1);
}

function seriesOf(tx: Tx, occ: EventRecord): EventRecord {
  const row = tx.engine.eventRow(occ.parentId);
  if (row < 0) throw fail('rest-event-not-found', [occ.parentId]);
  return tx.engine.eventRecord(row);
}

/**
 * Stage an event create (existing undefined) or update, recurrence included. Returns the record
 * the response shows (the series, the exception, or the new series of a split), or undefined when
 * `problems` has the reasons.
 */
export function stageEventWrite(
  tx: Tx,
  params: Params,
  existing: EventRecord | undefined,
  problems: Problems,
): EventRecord | undefined {
  const scope = scopeOf(params);
  if (existing?.recurrenceId !== undefined && existing.parentId !== 0)
    return stageOccurrenceUpdate(tx, params, existing, scope, problems);
  const rec = stageEvent(tx, params, existing, problems);
  if (!rec) return undefined;
  applyRecurrenceParam(tx, rec, params);
  if (rec.recurrence || existing?.recurrence) stageOccurrences(tx, rec);
  return rec;
}

function stageOccurrenceUpdate(
  tx: Tx,
  params: Params,
  occ: EventRecord,
  scope: Scope,
  problems: Problems,
): EventRecord | undefined {
  const series = seriesOf(tx, occ);
  if (has(params, 'post_parent') && Number(params.post_parent) !== series.id) {
    throw invalidParams({ post_parent: 'An occurrence stays in its series.' });
  }
  if (scope === 'this') {
    if (has(params, 'recurrence')) {
      throw invalidParams({
        recurrence: 'An occurrence has no recurrence of its own: use recurrence_scope=following or all.',
      });
    }
    const rec = stageEvent(tx, params, occ, problems);
    if (!rec) return undefined;
    rec.exception = true;
    rec.parentId = series.id;
    rec.recurrenceId = occ.recurrenceId;
    // a deleted occurrence brought back leaves the series' exclusions
    if (occ.status === 'trash' && rec.status !== 'trash' && series.recurrence) {
      const rid = occ.recurrenceId!;
      const exdates = series.recurrence.exdates.filter((d) => d !== rid && d !== rid.slice(0, 10));
      if (exdates.length !== series.recurrence.exdates.length) {
        tx.ops.push({ t: 'event', a: 'put', rec: { ...series, recurrence: { ...series.recurrence, exdates } } });
      }
    }
    putLast(tx, rec);
    return rec;
  }
  if (scope === 'all') {
    // the edit applied to the series; new times move its start and end as they move this
    // occurrence's (an exception's own times are not the series')
    const { start_date, end_date, ...rest } = params;
    let moveStart = 0,
      moveEnd = 0;
    if (start_date !== undefined || end_date !== undefined) {
      const dates: Params = { start_date, end_date };
      for (const k of ['all_day', 'timezone'] as const) if (has(params, k)) dates[k] = params[k];
      const moved = stageEvent(tx, dates, occ, problems);
      if (!moved) return undefined;
      unstage(tx, moved);
      moveStart = naiveFromString(moved.startLocal) - naiveFromString(occ.startLocal);
      moveEnd = naiveFromString(moved.endLocal) - naiveFromString(occ.endLocal);
    }
    const rec = stageEvent(tx, rest, series, problems);
    if (!rec) return undefined;
    unstage(tx, rec);
    rec.startLocal = shiftLocal(series.startLocal, moveStart);
    rec.endLocal = shiftLocal(series.endLocal, moveEnd);
    restamp(tx, rec);
    applyRecurrenceParam(tx, rec, params);
    tx.ops.push({ t: 'event', a: 'put', rec });
    stageOccurrences(tx, rec);
    return rec;
  }
  // the edit made to this occurrence, as a record: it becomes the new series of a split
  const edited = stageEvent(tx, params, occ, problems);
  if (!edited) return undefined;
  unstage(tx, edited);
  return stageSplit(
    tx,
    params,
    series,
    occ,
    edited,
    naiveFromString(edited.startLocal) - naiveFromString(occ.recurrenceId!),
  );
}

/** UTC copies of a record whose local start and end moved. */
function restamp(tx: Tx, rec: EventRecord): void {
  const tz = rec.timezone || tx.core.site.config.timezone;
  const start = naiveFromString(rec.startLocal),
    end = naiveFromString(rec.endLocal);
  Object.assign(rec, computeDates(tz, start, end, rec.allDay));
}

/**
 * "This and following": the series ends before this occurrence; a new series starts at it (the
 * occurrence's row becomes the new series, keeping its id), with the edit applied and the same
 * rules (a COUNT reduced by the instances before), and takes over the later occurrence rows.
 */
function stageSplit(
  tx: Tx,
  params: Params,
  series: EventRecord,
  occ: EventRecord,
  edited: EventRecord,
  startShift: number,
): EventRecord {
  const siteZone = tx.core.site.config.timezone;
  const st = seriesTimeOf(series, siteZone);
  const set = setOf(series, siteZone)!;
  const at = occ.recurrenceId!;
  // a rule with COUNT keeps in the new series the instances it has from this occurrence on
  // (counted per rule, before exclusions, as RFC 5545 counts them)
  const counts = countsFrom(set, at, st);
  const rules = series.recurrence!.rules.map((rule, i) =>
    counts[i] === null ? rule : rule.replace(/COUNT=\d+/, `COUNT=${counts[i]}`),
  );
  // the extra and excluded dates from this occurrence on go with the new series, moved as it is
  const later = (dates: string[]) =>
    dates.filter((d) => d >= at.slice(0, d.length)).map((d) => (d.length > 10 ? shiftLocal(d, startShift) : d));
  const next: EventRecord = {
    ...edited,
    id: occ.id,
    parentId: 0,
    recurrence: { rules, rdates: later(series.recurrence!.rdates), exdates: later(series.recurrence!.exdates) },
  };
  delete next.recurrenceId;
  delete next.exception;
  delete next.lineage;
  applyRecurrenceParam(tx, next, params);
  if (next.recurrence) {
    // the new series' own text form, as the library writes it
    const nst = seriesTimeOf(next, siteZone);
    const parsed = parseRecurrence(next.recurrence, nst, 'recurrence');
    if (parsed) next.recurrence = storedOf(parsed, nst);
    else delete next.recurrence;
  }
  const first: EventRecord = {
    ...series,
    recurrence: storedOf(untilBefore(set, at, st), st),
    modified: tx.stamps.local,
    modifiedUtc: tx.stamps.utc,
  };
  const moving = new Map<string, EventRecord>();
  for (const [local, rec] of childrenOf(tx.engine, series.id)) {
    if (local > at && rec.status !== 'inherit') moving.set(shiftLocal(local, startShift), rec);
  }
  const adopted = new Set<number>([occ.id]);
  tx.ops.push({ t: 'event', a: 'put', rec: next });
  if (next.recurrence) stageOccurrences(tx, next, { adopt: moving, adopted });
  tx.ops.push({ t: 'event', a: 'put', rec: first });
  stageOccurrences(tx, first, { skip: adopted });
  return next;
}

/**
 * Stage an event delete (to the trash). A series goes with all its occurrences; an occurrence
 * alone becomes an exclusion of its series (recurrence_scope=following: the series ends before
 * it; all: the whole series goes).
 */
export function stageEventDelete(tx: Tx, existing: EventRecord, params: Params): void {
  const scope = scopeOf(params);
  const stamp = { modified: tx.stamps.local, modifiedUtc: tx.stamps.utc };
  const trash = (id: number) => tx.ops.push({ t: 'event', a: 'delete', id, ...stamp });
  if (existing.recurrenceId !== undefined && existing.parentId !== 0 && scope !== 'all') {
    const series = seriesOf(tx, existing);
    const siteZone = tx.core.site.config.timezone;
    const st = seriesTimeOf(series, siteZone);
    const set = setOf(series, siteZone);
    if (scope === 'this') {
      if (set)
        tx.ops.push({
          t: 'event',
          a: 'put',
          rec: { ...series, recurrence: storedOf(addExclusion(set, existing.recurrenceId), st) },
        });
      trash(existing.id);
      return;
    }
    const at = existing.recurrenceId;
    const gone = new Set<number>();
    for (const [local, rec] of childrenOf(tx.engine, series.id)) {
      if (local >= at && rec.status !== 'trash' && rec.status !== 'inherit') gone.add(rec.id);
    }
    if (set) {
      const first = { ...series, recurrence: storedOf(untilBefore(set, at, st), st), ...stamp };
      tx.ops.push({ t: 'event', a: 'put', rec: first });
      stageOccurrences(tx, first, { skip: gone });
    }
    for (const id of gone) trash(id);
    return;
  }
  const series = existing.recurrenceId !== undefined && existing.parentId !== 0 ? seriesOf(tx, existing) : existing;
  if (series.status === 'trash') throw fail('event-is-in-trash', [series.id]);
  trash(series.id);
  if (series.recurrence || existing !== series) {
    for (const rec of childrenOf(tx.engine, series.id).values()) {
      if (rec.status !== 'trash' && rec.status !== 'inherit') trash(rec.id);
    }
  }
}
