// applyOp: the only mutator, shared by live writes and journal replay. Each op keeps columns,
// indexes, postings, term counts and the geo index in step, and tells the hooks what changed.

import { comboOf } from './block-stats.ts';
import { checkEventRecord, type EventTable } from './event-table.ts';
import {
  FLAG_ALL_DAY,
  FLAG_COORDS,
  FLAG_FEATURED,
  FLAG_HIDDEN,
  FLAG_SHOW_MAP,
  FLAG_SHOW_MAP_LINK,
  FLAG_STICKY,
  FLAG_TICKETED,
} from './event-rows.ts';
import { searchRowWritten } from './search-index.ts';
import {
  statusCode,
  type AttachmentRecord,
  type EventRecord,
  type Op,
  type OrganizerRecord,
  type TermRecord,
  type VenueRecord,
} from './records.ts';
import type { CalendarState, Postings } from './state.ts';

const TRASHED = '__trashed';

export function trashedSlug(slug: string): string {
  return slug.endsWith(TRASHED) ? slug : slug + TRASHED;
}

export function applyOp(st: CalendarState, op: Op): void {
  if (op.a === 'put') {
    switch (op.t) {
      case 'event':
        return putEvent(st, op.rec);
      case 'venue':
        return putVenue(st, op.rec);
      case 'organizer':
        return putOrganizer(st, op.rec);
      case 'term':
        return putTerm(st, op.rec);
      case 'attachment':
        return putAttachment(st, op.rec);
    }
  } else {
    switch (op.t) {
      case 'event':
        return trashEvent(st, op.id, op.modified, op.modifiedUtc);
      case 'venue':
        return trashLinkedPost(st, 'venue', op.id, op.modified, op.modifiedUtc);
      case 'organizer':
        return trashLinkedPost(st, 'organizer', op.id, op.modified, op.modifiedUtc);
      case 'term':
        return deleteTerm(st, op.id);
      case 'attachment':
        return deleteAttachment(st, op.id);
    }
  }
  throw new Error(`apply: expected a known op, got ${JSON.stringify(op).slice(0, 200)}`);
}

export function putEvent(st: CalendarState, rec: EventRecord): void {
  checkEventRecord(rec);
  const kind = st.ids.postKind(rec.id);
  if (kind !== undefined && kind !== 'event')
    throw new Error(`event put: expected post ${rec.id} to be an event, got a ${kind}`);
  const t = st.table;
  const deltas = new Map<number, number>();
  let row = st.ids.eventRow(rec.id);
  if (row < 0) {
    row = t.append(rec);
    st.ids.setPost(rec.id, 'event', row);
    st.ids.setEventSlug(row, undefined, rec.slug);
  } else {
    st.countContribution(row, -1, deltas);
    // a write that keeps every index key (start, end, status, flags, links: a title, a text)
    // leaves the row where it is in every index (an edit of a series' occurrences is such)
    const keep = sameIndexKeys(t, row, rec);
    const coords = t.flags[row] & FLAG_COORDS; // the write clears it; indexRow would set it
    if (!keep) st.unindexRow(row);
    const oldSlug = t.slug(row);
    t.write(row, rec);
    st.ids.setEventSlug(row, oldSlug, rec.slug);
    if (keep) {
      t.flags[row] |= coords;
      searchRowWritten(st, row);
      st.countContribution(row, 1, deltas);
      st.applyCountDeltas(deltas);
      st.hooks.eventChanged(row);
      return;
    }
  }
  st.indexRow(row);
  searchRowWritten(st, row); // any column may have changed: start (list order), status, text
  st.countContribution(row, 1, deltas);
  st.applyCountDeltas(deltas);
  st.hooks.eventChanged(row);
}

/** Whether `rec` has the index keys `row` has: start, end, status, flags, parent and links. */
function sameIndexKeys(t: EventTable, row: number, rec: EventRecord): boolean {
  const flags =
    (rec.allDay ? FLAG_ALL_DAY : 0) |
    (rec.featured ? FLAG_FEATURED : 0) |
    (rec.hideFromListings ? FLAG_HIDDEN : 0) |
    (rec.sticky ? FLAG_STICKY : 0) |
    (rec.ticketed ? FLAG_TICKETED : 0) |
    (rec.showMap ? FLAG_SHOW_MAP : 0) |
    (rec.showMapLink ? FLAG_SHOW_MAP_LINK : 0);
  return (
    t.ids[row] === rec.id &&
    (t.flags[row] & ~FLAG_COORDS) === flags &&
    t.statusCodes[row] === statusCode(rec.status) &&
    t.parentIds[row] === rec.parentId &&
    t.startLocal.get(row) === rec.startLocal &&
    t.endLocal.get(row) === rec.endLocal &&
    sameIds(t.venueList(row), rec.venueIds) &&
    t.organizerIds.equals(row, rec.organizerIds) &&
    t.categoryIds.equals(row, rec.categoryIds) &&
    t.tagIds.equals(row, rec.tagIds)
  );
}

function sameIds(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function trashEvent(st: CalendarState, id: number, modified: string, modifiedUtc: string): void {
  const row = st.ids.eventRow(id);
  if (row < 0) throw new Error(`event delete: expected an existing event id, got ${id}`);
  const t = st.table;
  const deltas = new Map<number, number>();
  st.countContribution(row, -1, deltas);
  const oldSlug = t.slug(row);
  // same index positions: the row's combination byte and block counters move in place
  const from = comboOf(t.statusCodes[row], t.flags[row]);
  t.statusCodes[row] = 5; // POST_STATUSES.indexOf('trash')
  st.setRowCombo(row, from, comboOf(5, t.flags[row]));
  searchRowWritten(st, row);
  t.texts.setSlug(row, trashedSlug(oldSlug));
  t.modified.set(row, modified);
  t.modifiedUtc.set(row, modifiedUtc);
  st.ids.setEventSlug(row, oldSlug, t.slug(row));
  st.applyCountDeltas(deltas);
  st.hooks.eventChanged(row);
}

function putVenue(st: CalendarState, rec: VenueRecord): void {
  st.ids.setPost(rec.id, 'venue');
  const prev = st.entities.venues.get(rec.id);
  st.entities.venues.put({ ...rec });
  st.geo.markDirty();
  st.hooks.postChanged(rec.id);
  st.embeddedChanged(st.venuePostings, rec.id);
  const had = !!prev && prev.geoLat !== null && prev.geoLng !== null;
  if (had !== (rec.geoLat !== null && rec.geoLng !== null))
    updateCoordsFlags(st, st.venuePostings.get(rec.id)?.toArray() ?? []);
}

/** Recompute the coords flag of the rows (their venues changed); the indexes follow. */
function updateCoordsFlags(st: CalendarState, rows: readonly number[]): void {
  const t = st.table;
  for (const row of rows) {
    const from = comboOf(t.statusCodes[row], t.flags[row]);
    if (st.updateCoordsFlag(row)) st.setRowCombo(row, from, comboOf(t.statusCodes[row], t.flags[row]));
  }
}

function putOrganizer(st: CalendarState, rec: OrganizerRecord): void {
  st.ids.setPost(rec.id, 'organizer');
  st.entities.organizers.put({ ...rec });
  st.hooks.postChanged(rec.id);
  st.embeddedChanged(st.organizerPostings, rec.id);
}

function putAttachment(st: CalendarState, rec: AttachmentRecord): void {
  st.ids.setPost(rec.id, 'attachment');
  st.entities.putAttachment({ ...rec });
  st.hooks.postChanged(rec.id);
}

/** Remove an attachment for good; the events, venues and organizers showing it lose their image. */
function deleteAttachment(st: CalendarState, id: number): void {
  if (!st.entities.removeAttachment(id))
    throw new Error(`attachment delete: expected an existing attachment id, got ${id}`);
  const t = st.table;
  for (let row = 0; row < t.count; row++) {
    if (t.imageIds[row] !== id) continue;
    t.imageIds[row] = 0;
    st.hooks.eventChanged(row);
  }
  for (const v of st.entities.venues.values()) {
    if (v.imageId !== id) continue;
    st.entities.venues.put({ ...v, imageId: 0 });
    st.hooks.postChanged(v.id);
    st.embeddedChanged(st.venuePostings, v.id);
  }
  for (const o of st.entities.organizers.values()) {
    if (o.imageId !== id) continue;
    st.entities.organizers.put({ ...o, imageId: 0 });
    st.hooks.postChanged(o.id);
    st.embeddedChanged(st.organizerPostings, o.id);
  }
  st.hooks.postChanged(id);
}

function putTerm(st: CalendarState, rec: TermRecord): void {
  if (!(Number.isInteger(rec.id) && rec.id > 0))
    throw new Error(`term put: expected a positive integer id, got ${rec.id}`);
  st.ids.seeTermId(rec.id);
  // a new parent changes which closure lists hold the term's events
  if ((st.entities.terms.get(rec.id)?.parent ?? 0) !== rec.parent) st.closureDirty = true;
  st.entities.putTerm({ ...rec });
  st.hooks.termChanged(rec.id);
  st.embeddedChanged(st.categoryPostings, rec.id);
  st.embeddedChanged(st.tagPostings, rec.id);
}

/** Trash a venue/organizer and unlink it from every event (through its posting list). */
function trashLinkedPost(
  st: CalendarState,
  kind: 'venue' | 'organizer',
  id: number,
  modified: string,
  modifiedUtc: string,
): void {
  const table = kind === 'venue' ? st.entities.venues : st.entities.organizers;
  const prev = table.get(id);
  if (!prev) throw new Error(`${kind} delete: expected an existing ${kind} id, got ${id}`);
  (table as { put(r: VenueRecord | OrganizerRecord): unknown }).put({
    ...prev,
    status: 'trash',
    slug: trashedSlug(prev.slug),
    modified,
    modifiedUtc,
  });
  st.hooks.postChanged(id);
  if (kind === 'venue') {
    st.geo.markDirty();
    // its rows leave the venue without leaving the indexes: the groups' lists are made again
    st.venueGroups.drop();
  }
  const t = st.table;
  const rows = kind === 'venue' ? (st.venuePostings.get(id)?.toArray() ?? []) : [];
  const idsOf = kind === 'venue' ? (row: number) => t.venueList(row) : (row: number) => t.organizerIds.get(row);
  unlinkAll(st, kind === 'venue' ? st.venuePostings : st.organizerPostings, id, idsOf, (row) => {
    if (kind === 'venue')
      t.setVenues(
        row,
        t.venueList(row).filter((v) => v !== id),
      );
    else
      t.organizerIds.set(
        row,
        t.organizerIds.get(row).filter((v) => v !== id),
      );
  });
  updateCoordsFlags(st, rows);
}

/** Remove a term for good: unlink it from every event, re-parent its children to its own parent. */
function deleteTerm(st: CalendarState, id: number): void {
  const term = st.entities.removeTerm(id);
  if (!term) throw new Error(`term delete: expected an existing term id, got ${id}`);
  st.closureDirty = true;
  for (const childId of st.entities.termChildren(id)) {
    const child = st.entities.terms.get(childId)!;
    st.entities.putTerm({ ...child, parent: term.parent });
    st.hooks.termChanged(childId);
    st.embeddedChanged(st.categoryPostings, childId);
  }
  const t = st.table;
  unlinkAll(
    st,
    st.categoryPostings,
    id,
    (row) => t.categoryIds.get(row),
    (row) => {
      t.categoryIds.set(
        row,
        t.categoryIds.get(row).filter((v) => v !== id),
      );
    },
  );
  unlinkAll(
    st,
    st.tagPostings,
    id,
    (row) => t.tagIds.get(row),
    (row) => {
      t.tagIds.set(
        row,
        t.tagIds.get(row).filter((v) => v !== id),
      );
    },
  );
  st.termCounts.delete(id);
  st.hooks.termChanged(id);
}

/** Every event in postings[id] drops that link (edit(row) rewrites its column, idsOf(row)
 *  reads it); the list goes, and each row leaves the pair lists of that id. */
function unlinkAll(
  st: CalendarState,
  postings: Postings,
  id: number,
  idsOf: (row: number) => readonly number[],
  edit: (row: number) => void,
): void {
  const list = postings.get(id);
  if (!list) return;
  for (let i = 0; i < list.count; i++) {
    const row = list.rows[i];
    st.dropPairsWith(postings, idsOf(row), id, row);
    edit(row);
    st.hooks.eventChanged(row);
  }
  postings.delete(id);
}
