// What a write changed: the change records of a write's ops, read against the engine before
// they are applied, with the fields that differ from the record they replace.

import type { EngineApi } from '../engine/engine-api.ts';
import type { AttachmentRecord, EventRecord, Op, OrganizerRecord, TermRecord, VenueRecord } from '../engine/records.ts';
import { mediaChanges } from '../media/changes.ts';
import { type Change, type ChangeAction, type ChangeType, type HeldChange, holdChange } from './change.ts';

type AnyRecord = EventRecord | VenueRecord | OrganizerRecord | TermRecord;

/** Engine field names → REST names, where they differ beyond camelCase → snake_case. */
const REST_NAME: Record<string, string> = {
  authorId: 'author',
  dateUtc: 'date_utc',
  modifiedUtc: 'modified_utc',
  imageId: 'image',
  startLocal: 'start_date',
  endLocal: 'end_date',
  startUtc: 'utc_start_date',
  endUtc: 'utc_end_date',
  costs: 'cost',
  venueIds: 'venue',
  organizerIds: 'organizer',
  categoryIds: 'categories',
  tagIds: 'tags',
  parentId: 'post_parent',
  geoLat: 'geo_lat',
  geoLng: 'geo_lng',
  lineage: 'global_id_lineage',
  exception: 'is_exception',
};
const restNames = new Map<string, string>();
const restName = (k: string): string => {
  let n = restNames.get(k);
  if (n === undefined) restNames.set(k, (n = REST_NAME[k] ?? k.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase())));
  return n;
};

/** Values equal as stored: primitives by identity, arrays of primitives element by element. */
function same(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  // a series' recurrence: equal when its lists are
  if (
    typeof x === 'object' &&
    typeof y === 'object' &&
    x !== null &&
    y !== null &&
    !Array.isArray(x) &&
    !Array.isArray(y)
  ) {
    return JSON.stringify(x) === JSON.stringify(y);
  }
  if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

function diff(before: AnyRecord | undefined, after: AnyRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const a = after as unknown as Record<string, unknown>,
    b = before as unknown as Record<string, unknown> | undefined;
  for (const k in a) {
    if (k === 'id' || k === 'taxonomy') continue;
    if (b === undefined || !same(b[k], a[k])) out[restName(k)] = a[k];
  }
  return out;
}

function current(engine: EngineApi, t: Op['t'], id: number): AnyRecord | undefined {
  switch (t) {
    case 'event': {
      const row = engine.eventRow(id);
      return row < 0 ? undefined : engine.eventRecord(row);
    }
    case 'venue':
      return engine.venue(id);
    case 'organizer':
      return engine.organizer(id);
    case 'term':
      return engine.term(id);
    default:
      return undefined;
  }
}

/**
 * The changes a write's ops make, read against the engine BEFORE they are applied (an op sees
 * the state the ops before it in the same write left: a later op on the same record compares
 * with the earlier op's record). Uploads of the media library make `media` records
 * (src/media/changes.ts); images known by URL only make none.
 */
export function describeWrite(
  engine: EngineApi,
  ops: readonly Op[],
  seq: number,
  time: string,
  author: number,
): HeldChange[] {
  const out: HeldChange[] = [];
  const staged = new Map<string, AnyRecord>();
  const stagedMedia = new Map<number, AttachmentRecord | undefined>();
  for (const op of ops) {
    if (op.t === 'attachment') {
      for (const m of mediaChanges(engine, op, stagedMedia, seq, time, author))
        out.push(holdChange(m.change, m.owner, m.before, m.after));
      continue;
    }
    const id = op.a === 'put' ? op.rec.id : op.id;
    const key = `${op.t}:${id}`;
    const prev = staged.get(key) ?? current(engine, op.t, id);
    const type: ChangeType =
      op.t === 'term'
        ? ((prev ?? (op.a === 'put' ? op.rec : undefined)) as TermRecord | undefined)?.taxonomy === 'post_tag'
          ? 'tag'
          : 'category'
        : op.t;
    let change: Change;
    let after: string | undefined;
    if (op.a === 'put') {
      const rec = op.rec as AnyRecord;
      staged.set(key, rec);
      after = 'status' in rec ? rec.status : 'publish';
      const before = prev && 'status' in prev ? prev.status : prev ? 'publish' : undefined;
      // an occurrence its series no longer generates is gone for good (status inherit: never shown)
      const action: ChangeAction = !prev
        ? 'created'
        : after === 'trash' && before !== 'trash'
          ? 'trashed'
          : after === 'inherit' && before !== 'inherit'
            ? 'deleted'
            : 'updated';
      change = { seq, time, type, action, id, author, fields: diff(prev, rec) };
    } else {
      after = op.t === 'term' ? undefined : 'trash';
      change = { seq, time, type, action: op.t === 'term' ? 'deleted' : 'trashed', id, author };
    }
    const owner =
      prev && 'authorId' in prev ? prev.authorId : op.a === 'put' && 'authorId' in op.rec ? op.rec.authorId : 0;
    out.push(holdChange(change, owner, prev ? ('status' in prev ? prev.status : 'publish') : undefined, after));
  }
  return out;
}
