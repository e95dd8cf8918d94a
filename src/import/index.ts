// The import shape (docs/import-export.md): {categories, tags, venues, organizers, events},
// each record in the create fields of its resource plus its id (kept), author and date/modified
// stamps; events refer to venue, organizers and terms by id. Everything is validated first; the
// first bad record is reported with its index and id and nothing is imported. Then the engine
// gets one bulk load (columns filled and indexes sorted once).
//
// Imports are trusted administrator data: HTML is kept as given (no KSES), slugs are sanitised and
// made unique, derived fields (utc_*, cost_details, timezone_abbr...) are recomputed.
//
// This file drives an import (ImportBuilder, prepareImport); each record is read by Importer
// (records.ts).

import type { ImportSet } from '../engine/engine-api.ts';
import type { EventRecord } from '../engine/records.ts';
import { growInt32 } from '../engine/columns.ts';
import type { EventTable } from '../engine/event-table.ts';
import type { Core } from '../api/context.ts';
import { type CalendarError, fail } from '../api/wordpress/errors.ts';
import { Importer } from './records.ts';

export type {
  ImportCalendar,
  ImportCategory,
  ImportData,
  ImportEvent,
  ImportOrganizer,
  ImportProgress,
  ImportSummary,
  ImportTag,
  ImportVenue,
} from './shape.ts';
import type { ImportData, ImportProgress, ImportSummary } from './shape.ts';
import { P_ID, P_INTS, P_LINE, P_NONE, P_REDO, P_STATUS, type PackedEvents } from './pack.ts';
import type { ImportWorkerData } from './worker.ts';
import { bad, RecordError, type Rec } from './local.ts';

export { validUrl } from './local.ts';

export const IMPORT_KINDS = ['categories', 'tags', 'media', 'venues', 'organizers', 'events'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/** Where a record came from, for error messages: its index in its list, and its line in a file. */
export interface RecordPlace {
  index: number;
  line?: number;
}

function recordError(kind: ImportKind, place: RecordPlace, id: unknown, message: string): CalendarError {
  const where = `${kind}[${place.index}]${id !== undefined ? ` (id ${String(id)})` : ''}${place.line !== undefined ? ` at line ${place.line}` : ''}`;
  return fail(
    'rest_invalid_param',
    [],
    {
      params: { [kind]: message },
      index: place.index,
      id,
      ...(place.line !== undefined ? { line: place.line } : {}),
    },
    { message: `import: ${where}: ${message}` },
  );
}

/**
 * The import shape, record by record, in any order (a streamed file): each record is validated on
 * its own as it comes; what links records to each other (term parents, an event's venue,
 * organizers, terms and parent) is checked by finish(), once all are in. Throws CalendarError
 * naming the record (list, index, id, line).
 */
export class ImportBuilder {
  private readonly im: Importer;
  /** the line each staged event starts on (0: none), by row */
  private lines = new Int32Array(1024);
  private readonly counts: Record<ImportKind, number> = {
    categories: 0,
    tags: 0,
    media: 0,
    venues: 0,
    organizers: 0,
    events: 0,
  };

  constructor(core: Core) {
    this.im = new Importer(core);
  }

  /** the staging table the events go into */
  get table(): EventTable {
    return this.im.table;
  }

  /** where each update came from, for the cross-record checks' errors */
  private readonly updatePlaces: RecordPlace[] = [];

  /** Records added so far, per list (and existing events updated, when any). */
  get summary(): ImportSummary {
    const updated = this.im.updates.length;
    const { media, ...counts } = this.counts; // (media: only when some came)
    return { ...(updated > 0 && { updated }), ...counts, ...(media > 0 && { media }) };
  }

  /** `updateOf`: the event is a new version of this existing event (see Importer.eventUpdate). */
  add(kind: ImportKind, r: unknown, place: RecordPlace = { index: this.counts[kind] }, updateOf?: number): void {
    const im = this.im;
    try {
      if (typeof r !== 'object' || r === null || Array.isArray(r)) bad('must be an object');
      const rec = r as Rec;
      if (updateOf !== undefined) {
        if (kind !== 'events') throw new Error(`import: expected an event to update, got ${kind}`);
        im.eventUpdate(rec, updateOf);
        this.updatePlaces.push(place);
        return;
      }
      switch (kind) {
        case 'categories':
          im.term(rec, 'tribe_events_cat');
          break;
        case 'tags':
          im.term(rec, 'post_tag');
          break;
        case 'media':
          im.media(rec);
          break;
        case 'venues':
          im.venue(rec);
          break;
        case 'organizers':
          im.organizer(rec);
          break;
        case 'events': {
          const row = im.table.count;
          if (row !== place.index)
            throw new Error(`import: expected events in index order, got events[${place.index}] as row ${row}`);
          im.event(rec);
          if (row >= this.lines.length) this.lines = growInt32(this.lines, row + 1);
          this.lines[row] = place.line ?? 0;
          break;
        }
      }
    } catch (e) {
      if (!(e instanceof RecordError)) throw e;
      throw recordError(kind, place, typeof r === 'object' && r !== null ? (r as Rec).id : undefined, e.message);
    }
    this.counts[kind]++;
  }

  /** What a parallel import's workers need to check records as this builder does (worker.ts). */
  workerData(): ImportWorkerData {
    const rd = this.im.rd;
    return { siteZone: rd.siteZone, now: this.im.core.site.config.now().getTime(), stampsMs: rd.stampsMs };
  }

  /**
   * A worker's block of events (pack.ts), the first of them events[index] on line `line`:
   * each staged as add() would stage it, in order; an event the worker handed back goes through
   * add() itself, which names its first problem.
   */
  addPacked(p: PackedEvents, index: number, line: number): void {
    const im = this.im;
    let extra = 0,
      redo = 0,
      at = 0;
    const bm = im.blockMaps(p);
    for (let k = 0; k < p.n; k++) {
      const i = k * P_INTS;
      // the event's place (no object made for it unless it is needed)
      const ix = index + k,
        atLine = line + p.i32[i + P_LINE];
      if (p.i32[i + P_STATUS] === P_REDO) {
        const rec = JSON.parse(p.redo[redo++].text) as Rec;
        if (p.jsonl) delete rec.type; // as the JSON Lines scanner does
        this.add('events', rec, { index: ix, line: atLine });
        continue;
      }
      const row = im.table.count;
      if (row !== ix) throw new Error(`import: expected events in index order, got events[${ix}] as row ${row}`);
      const e = extra < p.extras.length && p.extras[extra].k === k ? p.extras[extra++] : undefined;
      try {
        at = im.eventPacked(p, k, e, at, bm);
      } catch (err) {
        if (!(err instanceof RecordError)) throw err;
        throw recordError(
          'events',
          { index: ix, line: atLine },
          p.i32[i + P_ID] === P_NONE ? undefined : p.i32[i + P_ID],
          err.message,
        );
      }
      if (row >= this.lines.length) this.lines = growInt32(this.lines, row + 1);
      this.lines[row] = atLine;
      this.counts.events++;
    }
  }

  /** The cross-record checks; then the engine records and the staged events, ready for one
   *  bulk load (engine.bulkLoad(set, table)). */
  finish(): { set: ImportSet; table: EventTable; updates: EventRecord[] } {
    const im = this.im;
    try {
      im.checkParents();
    } catch (e) {
      throw fail('rest_invalid_param', [], {}, { message: `import: ${(e as Error).message}` });
    }
    const t = im.table;
    for (let row = 0; row < t.count; row++) {
      const problem = im.links.eventProblem(row);
      if (problem !== undefined)
        throw recordError(
          'events',
          { index: row, ...(this.lines[row] > 0 ? { line: this.lines[row] } : {}) },
          t.ids[row],
          problem,
        );
    }
    im.updates.forEach((e, i) => {
      const problem = im.links.problem(e.parentId, e.venueIds, e.organizerIds, e.categoryIds, e.tagIds);
      if (problem !== undefined) throw recordError('events', this.updatePlaces[i], e.id, problem);
    });
    return { set: im.set, table: t, updates: im.updates };
  }
}

/** Validate the whole import shape into engine records; throws CalendarError naming the record. */
export function prepareImport(
  core: Core,
  data: ImportData,
  onProgress?: ImportProgress,
): { set: ImportSet; table: EventTable; updates: EventRecord[]; summary: ImportSummary } {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw fail(
      'rest_invalid_param',
      [],
      {},
      { message: 'The import must be one JSON object {categories, tags, venues, organizers, events}.' },
    );
  }
  for (const name of IMPORT_KINDS) {
    if (data[name] !== undefined && !Array.isArray(data[name])) {
      throw fail('rest_invalid_param', [], {}, { message: `import: "${name}" must be an array` });
    }
  }
  const builder = new ImportBuilder(core);
  const total = IMPORT_KINDS.reduce((n, name) => n + (data[name]?.length ?? 0), 0);
  let done = 0;
  for (const name of IMPORT_KINDS) {
    const list = data[name] ?? [];
    for (let index = 0; index < list.length; index++) {
      builder.add(name, list[index], { index });
      if (++done % 10000 === 0) onProgress?.(done, total);
    }
  }
  const { set, table, updates } = builder.finish();
  onProgress?.(total, total);
  const summary: ImportSummary = {
    events: table.count,
    venues: set.venues.length,
    organizers: set.organizers.length,
    categories: set.terms.filter((t) => t.taxonomy === 'tribe_events_cat').length,
    tags: set.terms.filter((t) => t.taxonomy === 'post_tag').length,
    ...(set.attachments.some((a) => a.media) && { media: set.attachments.filter((a) => a.media).length }),
  };
  return { set, table, updates, summary };
}
