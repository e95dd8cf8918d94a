// The representation layer's state: one byte-budgeted LRU of rendered pieces (src/api/piece-cache.ts)
// and the engine's change hooks that keep it true. What it renders, per record:
//  - an event: its head (own fields) as JSON text, its whole list representation as JSON text
//    (head + embedded terms, venue, organizers), and its head as a plain object (for the object
//    path of the embedding API, copied on every call);
//  - a venue or organizer: JSON text and object template;
//  - a term: the embedded form as JSON text split around its `count`, and the standalone form.
// Invalidation is by dependency: an event write drops that event; a venue, organizer or term
// change drops that piece and the joined texts of the events that embed it (their heads stay);
// a change of a term's count drops nothing an event holds: the joined text of an event records
// when it was joined, and is re-joined only if one of its own terms' counts changed since.

import type { EngineApi } from '../engine/engine-api.ts';
import type { ChangeHooks } from '../engine/state.ts';
import type { OrganizerRecord, TermRecord, VenueRecord } from '../engine/records.ts';
import { eventHead, eventObjectOf, headJson, type EventHead } from './event-head.ts';
import { KIND_POST, KIND_TERM, PieceCache, type CacheStats } from './piece-cache.ts';
import { organizerObject, termEmbeddedObject, termObject, toJson, venueObject, type Site } from './represent.ts';

type Obj = Record<string, unknown>;

export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

/** What a cached string costs beyond its one byte per character (V8 header and alignment). */
const STRING_OVERHEAD = 24;
/** An entry object and its slot. */
const ENTRY_OVERHEAD = 96;
/**
 * A head object template beyond its strings: the object, 4 details objects, cost details and the
 * small arrays. With these overheads the estimate errs on the safe side: on 20k generated events
 * the cache counted 3,833 bytes per event for the JSON texts (the heap grew 3,837) and 2,763 for
 * the head objects (the heap grew 2,158).
 */
const HEAD_OBJECT_OVERHEAD = 1600;
const LINKED_OBJECT_OVERHEAD = 700;

interface EventEntry {
  /**
   * the whole list representation (own fields, then embedded terms, venue, organizers), joined
   * at `stamp`; -1: something it embeds changed. Its first `headLength` characters are the own
   * fields, so a re-join reuses them (a slice, no copy) instead of rendering them again.
   */
  full: string | undefined;
  headLength: number;
  stamp: number;
  /** own fields as an object, copied for each caller */
  obj: EventHead | undefined;
  bytes: number;
}

interface LinkedEntry {
  json: string | undefined;
  obj: Obj | undefined;
  bytes: number;
}

interface TermEntry {
  /** embedded form: text before the count, text after it, and the object template */
  pre: string | undefined;
  post: string | undefined;
  embedded: Obj | undefined;
  /** standalone form (it shows the count: dropped when the count changes) */
  json: string | undefined;
  obj: Obj | undefined;
  bytes: number;
}

const strBytes = (s: string | undefined): number => (s === undefined ? 0 : s.length + STRING_OVERHEAD);
const textBytes = (o: Obj): number => {
  let n = 0;
  for (const k in o) {
    const v = o[k];
    if (typeof v === 'string') n += v.length + STRING_OVERHEAD;
  }
  return n;
};

export class Renderer implements ChangeHooks {
  readonly cache: PieceCache;
  /** bumped by every change of a term count; a joined event text carries the value it was joined at */
  private clock = 1;
  private lastCountChange = 0;
  /** term id → clock of its last count change */
  private readonly termStamps = new Map<number, number>();

  constructor(readonly site: Site, readonly engine: EngineApi, cacheBytes = DEFAULT_CACHE_BYTES) {
    this.cache = new PieceCache(cacheBytes);
    engine.setHooks(this);
  }

  stats(): CacheStats {
    return this.cache.stats();
  }

  // ---- hooks --------------------------------------------------------------------------------

  eventChanged(row: number): void {
    this.cache.dropRow(row);
  }

  embeddedChanged(row: number): void {
    const e = this.cache.peekRow(row) as EventEntry | undefined;
    if (e !== undefined) e.stamp = -1;
  }

  postChanged(id: number): void {
    this.cache.drop(KIND_POST, id);
  }

  termChanged(): void {
    // a term's archive link shows its ancestors' slugs: any term change may change any standalone
    // form, and terms are few, so they all go
    this.cache.dropKind(KIND_TERM);
  }

  termCountChanged(id: number): void {
    const stamp = ++this.clock;
    this.lastCountChange = stamp;
    this.termStamps.set(id, stamp);
    const t = this.cache.peek(KIND_TERM, id) as TermEntry | undefined;
    if (t !== undefined && t.json !== undefined) {
      t.bytes -= strBytes(t.json) + (t.obj ? textBytes(t.obj) + LINKED_OBJECT_OVERHEAD : 0);
      t.json = undefined;
      t.obj = undefined;
      this.cache.set(KIND_TERM, id, t, t.bytes);
    }
  }

  // ---- events -------------------------------------------------------------------------------

  private eventEntry(row: number): EventEntry {
    let e = this.cache.getRow(row) as EventEntry | undefined;
    if (e === undefined) {
      e = { full: undefined, headLength: 0, stamp: -1, obj: undefined, bytes: ENTRY_OVERHEAD };
    }
    return e;
  }

  private store(row: number, e: EventEntry): void {
    this.cache.setRow(row, e, e.bytes);
  }

  /** The event's list representation as JSON text. */
  eventJson(row: number): string {
    const e = this.eventEntry(row);
    const full = e.full;
    if (full !== undefined && e.stamp >= 0 && (e.stamp >= this.lastCountChange || this.countsUnchanged(row, e.stamp))) return full;
    const head = full !== undefined ? full.slice(0, e.headLength) : headJson(e.obj ?? eventHead(this.site, this.engine, row));
    const joined = this.join(row, head);
    e.bytes += strBytes(joined) - strBytes(full);
    e.full = joined;
    e.headLength = head.length;
    e.stamp = this.clock;
    this.store(row, e);
    return joined;
  }

  private countsUnchanged(row: number, stamp: number): boolean {
    const t = this.engine.eventTable, stamps = this.termStamps;
    const cats = t.categoryIds[row], tags = t.tagIds[row];
    for (let i = 0; i < cats.length; i++) if ((stamps.get(cats[i]) ?? 0) > stamp) return false;
    for (let i = 0; i < tags.length; i++) if ((stamps.get(tags[i]) ?? 0) > stamp) return false;
    return true;
  }

  /** head + embedded terms, venue, organizers: one flat string (later page joins copy it whole). */
  private join(row: number, head: string): string {
    const engine = this.engine, t = engine.eventTable;
    const parts: string[] = [head, ',"categories":['];
    this.pushTerms(parts, byName(engine, t.categoryIds[row]));
    parts.push('],"tags":[');
    this.pushTerms(parts, byName(engine, t.tagIds[row]));
    parts.push('],"venue":');
    const venueIds = t.venueList(row);
    let venues = 0;
    const at = parts.length;
    for (const id of venueIds) {
      const v = engine.venue(id);
      if (v === undefined) continue;
      if (venues > 0) parts.push(',');
      parts.push(this.linked(v, 'venue').json!);
      venues++;
    }
    if (venues !== 1) {
      parts.splice(at, 0, '[');
      parts.push(']');
    }
    parts.push(',"organizer":[');
    let orgs = 0;
    for (const id of t.organizerIds[row]) {
      const o = engine.organizer(id);
      if (o === undefined) continue;
      if (orgs++ > 0) parts.push(',');
      parts.push(this.linked(o, 'organizer').json!);
    }
    parts.push('],"custom_fields":[]}');
    return parts.join('');
  }

  private pushTerms(parts: string[], terms: TermRecord[]): void {
    for (let i = 0; i < terms.length; i++) {
      if (i > 0) parts.push(',');
      const e = this.termEntry(terms[i]);
      this.embeddedText(terms[i], e);
      parts.push(e.pre!, String(this.engine.termCount(terms[i].id)), e.post!);
    }
  }

  /** The event's list representation as a fresh plain object: equal to JSON.parse(eventJson(row)). */
  eventObject(row: number): Obj {
    const e = this.eventEntry(row);
    if (e.obj === undefined) {
      e.obj = eventHead(this.site, this.engine, row);
      e.bytes += HEAD_OBJECT_OVERHEAD + textBytes(e.obj as unknown as Obj);
      this.store(row, e);
    }
    const engine = this.engine, t = engine.eventTable;
    const categories = this.termObjects(byName(engine, t.categoryIds[row]));
    const tags = this.termObjects(byName(engine, t.tagIds[row]));
    const venues: Obj[] = [];
    for (const id of t.venueList(row)) {
      const v = engine.venue(id);
      if (v !== undefined) venues.push(copyLinked(this.linkedObject(v, 'venue')));
    }
    const orgs: Obj[] = [];
    for (const id of t.organizerIds[row]) {
      const o = engine.organizer(id);
      if (o !== undefined) orgs.push(copyLinked(this.linkedObject(o, 'organizer')));
    }
    return eventObjectOf(e.obj, categories, tags, venues.length === 1 ? venues[0] : venues, orgs);
  }

  private termObjects(terms: TermRecord[]): Obj[] {
    const out: Obj[] = [];
    for (const term of terms) {
      const e = this.termEntry(term);
      if (e.embedded === undefined) {
        e.embedded = termEmbeddedObject(this.site, this.engine, term);
        e.bytes += textBytes(e.embedded) + LINKED_OBJECT_OVERHEAD;
        this.cache.set(KIND_TERM, term.id, e, e.bytes);
      }
      const tmpl = e.embedded;
      out.push({ ...tmpl, count: this.engine.termCount(term.id), urls: { ...(tmpl.urls as Obj) } });
    }
    return out;
  }

  // ---- venues and organizers ----------------------------------------------------------------

  private linked(rec: VenueRecord | OrganizerRecord, kind: 'venue' | 'organizer'): LinkedEntry {
    let e = this.cache.get(KIND_POST, rec.id) as LinkedEntry | undefined;
    if (e === undefined) e = { json: undefined, obj: undefined, bytes: ENTRY_OVERHEAD };
    if (e.json === undefined) {
      e.json = toJson(e.obj ?? this.linkedTemplate(rec, kind));
      e.bytes += strBytes(e.json);
      this.cache.set(KIND_POST, rec.id, e, e.bytes);
    }
    return e;
  }

  private linkedTemplate(rec: VenueRecord | OrganizerRecord, kind: 'venue' | 'organizer'): Obj {
    return kind === 'venue'
      ? venueObject(this.site, this.engine, rec as VenueRecord)
      : organizerObject(this.site, this.engine, rec as OrganizerRecord);
  }

  private linkedObject(rec: VenueRecord | OrganizerRecord, kind: 'venue' | 'organizer'): Obj {
    let e = this.cache.get(KIND_POST, rec.id) as LinkedEntry | undefined;
    if (e === undefined) e = { json: undefined, obj: undefined, bytes: ENTRY_OVERHEAD };
    if (e.obj === undefined) {
      e.obj = this.linkedTemplate(rec, kind);
      e.bytes += textBytes(e.obj) + LINKED_OBJECT_OVERHEAD;
      this.cache.set(KIND_POST, rec.id, e, e.bytes);
    }
    return e.obj;
  }

  venueJson(v: VenueRecord): string {
    return this.linked(v, 'venue').json!;
  }

  organizerJson(o: OrganizerRecord): string {
    return this.linked(o, 'organizer').json!;
  }

  /** A venue's or organizer's list representation as a fresh object. */
  linkedCopy(rec: VenueRecord | OrganizerRecord, kind: 'venue' | 'organizer'): Obj {
    return copyLinked(this.linkedObject(rec, kind));
  }

  // ---- terms --------------------------------------------------------------------------------

  private termEntry(term: TermRecord): TermEntry {
    let e = this.cache.get(KIND_TERM, term.id) as TermEntry | undefined;
    if (e === undefined) {
      e = { pre: undefined, post: undefined, embedded: undefined, json: undefined, obj: undefined, bytes: ENTRY_OVERHEAD };
    }
    return e;
  }

  private embeddedText(term: TermRecord, e: TermEntry): void {
    if (e.pre !== undefined) return;
    const { count: _count, ...before } = termEmbeddedObject(this.site, this.engine, term);
    // name … parent, then count, then filter, id, urls: split the JSON text around the count
    const { filter, id, urls, ...head } = before;
    e.pre = toJson(head).slice(0, -1) + ',"count":';
    e.post = ',' + toJson({ filter, id, urls }).slice(1);
    e.bytes += strBytes(e.pre) + strBytes(e.post);
    this.cache.set(KIND_TERM, term.id, e, e.bytes);
  }

  /** The standalone (/categories, /tags) representation of a term as JSON text. */
  termJson(term: TermRecord): string {
    const e = this.termEntry(term);
    if (e.json === undefined) {
      e.json = toJson(this.termTemplate(term, e));
      e.bytes += strBytes(e.json);
      this.cache.set(KIND_TERM, term.id, e, e.bytes);
    }
    return e.json;
  }

  /** The standalone representation of a term as a fresh object. */
  termCopy(term: TermRecord): Obj {
    const e = this.termEntry(term);
    const tmpl = this.termTemplate(term, e);
    return { ...tmpl, meta: [], urls: { ...(tmpl.urls as Obj) } };
  }

  private termTemplate(term: TermRecord, e: TermEntry): Obj {
    if (e.obj === undefined) {
      e.obj = termObject(this.site, this.engine, term);
      e.bytes += textBytes(e.obj) + LINKED_OBJECT_OVERHEAD;
      this.cache.set(KIND_TERM, term.id, e, e.bytes);
    }
    return e.obj;
  }
}

/** A venue/organizer template copied: new object, image and lineage; json_ld is never in a template. */
function copyLinked(tmpl: Obj): Obj {
  const c = { ...tmpl };
  if (tmpl.image !== undefined) c.image = { ...(tmpl.image as Obj) };
  c.global_id_lineage = (tmpl.global_id_lineage as string[]).slice();
  return c;
}

/** Terms by id, in the order an event shows them: by name (case-insensitive), then id. */
function byName(engine: EngineApi, ids: readonly number[]): TermRecord[] {
  const terms: TermRecord[] = [];
  for (const id of ids) {
    const t = engine.term(id);
    if (t !== undefined) terms.push(t);
  }
  if (terms.length > 1) {
    terms.sort((a, b) => {
      const x = a.name.toLowerCase(), y = b.name.toLowerCase();
      return x < y ? -1 : x > y ? 1 : a.id - b.id;
    });
  }
  return terms;
}
