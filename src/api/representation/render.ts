// The representation layer's state: one byte-budgeted LRU of rendered pieces (src/api/representation/piece-cache.ts)
// and the engine's change hooks that keep it true. What it keeps, per record:
//  - an event: its own fields (head) as JSON text and as a plain object (the template the object
//    path copies on every call), and the order of its terms;
//  - a venue or organizer: JSON text and object template;
//  - a term: the embedded form as JSON text (split around its `count`, plus the whole text at the
//    current count) and the standalone form.
// An event's list representation is never cached whole: a page is written as the list of its
// pieces (head, then the embedded terms, venue and organizers) and joined once into the body.
// So a write to a venue, organizer or term replaces that one piece and nothing else, and a new
// event in a category re-renders that category's text at its new count, not the events that
// show it: reads under writes allocate nothing that lives on, and the heap stays flat.

import { ListPages } from './page-cache.ts';
import type { EngineApi } from '../../engine/engine-api.ts';
import type { ChangeHooks } from '../../engine/state.ts';
import type { OrganizerRecord, TermRecord, VenueRecord } from '../../engine/records.ts';
import { recurrenceFields, recurrenceJson } from '../../recurrence/fields.ts';
import { eventHead, eventObjectOf } from '../events/head.ts';
import { headText, textFlags } from '../events/head-text.ts';
import { TermOrders } from './term-order.ts';
import {
  type EventEntry,
  HEAD_OBJECT_OVERHEAD,
  LINKED_OBJECT_OVERHEAD,
  type LinkedEntry,
  type Obj,
  strBytes,
  type TermEntry,
  textBytes,
  newEventEntry,
  newLinkedEntry,
  newTermEntry,
  copyLinked,
} from './render-entries.ts';
import { KIND_POST, KIND_TERM, PieceCache, type CacheStats } from './piece-cache.ts';
import {
  flat,
  oneByte,
  organizerObject,
  termEmbeddedObject,
  termObject,
  toJson,
  venueObject,
  type Site,
} from './represent.ts';

/** the separators a term's text comes with in an event's list (TermEntry.texts) */
const TEXT_ALONE = 0,
  TEXT_COMMA = 1,
  TEXT_TAGS = 2;
const TAGS_OPEN = '],"tags":[';

export class Renderer implements ChangeHooks {
  readonly cache: PieceCache;
  /** whole list pages for the HTTP shell, in the same cache and budget */
  readonly pages: ListPages;
  /** per event row: what its texts need (textFlags), 0 until first rendered or after it changed;
   *  two bytes an event, outside the budget: it lets a head rendered again after an eviction skip
   *  the display filters and escaping of texts that need neither */
  private texts = new Uint16Array(0);
  /** the order of events' category and tag lists by name, outside the budget */
  private readonly termOrders: TermOrders;

  constructor(
    readonly site: Site,
    readonly engine: EngineApi,
    cacheBytes: number,
  ) {
    this.cache = new PieceCache(cacheBytes, true);
    this.pages = new ListPages(this.cache, engine);
    this.termOrders = new TermOrders(engine);
    engine.setHooks(this);
  }

  stats(): CacheStats {
    return this.cache.stats();
  }

  // ---- hooks --------------------------------------------------------------------------------

  eventChanged(row: number): void {
    this.cache.dropRow(row);
    if (row < this.texts.length) this.texts[row] = 0;
  }

  /** A venue, organizer or term the event shows changed: its pieces are replaced on their own;
   *  the event's tail (venue, organizers) and the order of its terms (a renamed term sorts
   *  elsewhere) are made again. */
  embeddedChanged(row: number): void {
    const e = this.cache.peekRow(row) as EventEntry | undefined;
    if (e === undefined) return;
    e.categories = e.tags = undefined;
    if (e.tail !== undefined) {
      e.bytes -= strBytes(e.tail);
      e.tail = undefined;
    }
  }

  postChanged(id: number): void {
    this.cache.drop(KIND_POST, id);
  }

  termChanged(id: number): void {
    // a term's archive link shows its ancestors' slugs: any term change may change any standalone
    // form, and terms are few, so they all go; its lowered name goes too (it may be renamed)
    this.termOrders.termChanged(id);
    this.cache.dropKind(KIND_TERM);
  }

  termCountChanged(id: number): void {
    const t = this.cache.peek(KIND_TERM, id) as TermEntry | undefined;
    if (t !== undefined) {
      t.bytes -=
        (t.texts ? 3 * strBytes(t.texts[0]) + 12 : 0) +
        strBytes(t.json) +
        (t.obj ? textBytes(t.obj) + LINKED_OBJECT_OVERHEAD : 0);
      t.texts = undefined;
      t.json = undefined;
      t.obj = undefined;
      this.cache.set(KIND_TERM, id, t, t.bytes);
    }
  }

  // ---- events -------------------------------------------------------------------------------

  private eventEntry(row: number): EventEntry {
    let e = this.cache.getRow(row) as EventEntry | undefined;
    if (e === undefined) e = newEventEntry();
    return e;
  }

  private textFlags(row: number): number {
    if (row >= this.texts.length) {
      const grown = new Uint16Array(Math.max(row + 1, Math.ceil(this.engine.eventRowCount * 1.25), 1024));
      grown.set(this.texts);
      this.texts = grown;
    }
    let flags = this.texts[row];
    if (flags === 0) this.texts[row] = flags = textFlags(this.engine, row);
    return flags;
  }

  /** The event's categories and tags, each by name (case-insensitive), then id (e.categories and
   *  e.tags, set together); true when they were not known (the entry is to be stored again). */
  private termOrder(row: number, e: EventEntry): boolean {
    if (e.categories !== undefined) return false;
    const t = this.engine.eventTable;
    e.categories = this.termOrders.orderOf(t.idLists, t.categoryIds.lists[row]);
    e.tags = this.termOrders.orderOf(t.idLists, t.tagIds.lists[row]);
    return true;
  }

  /**
   * Push the event's list representation (JSON text) onto a body's parts. Head and tail are made
   * by concatenation and pushed as they are, ropes: the page's join copies them once. They are
   * made flat on their first read from the cache (settle), so that every later page copies flat
   * strings: flattening them when they are made would copy a render read only once (after a
   * write, after an eviction, or turned away by the doorkeeper) twice.
   *
   * Settling copies the head to a one-byte string (oneByte), which flattens it on the way. It is
   * ASCII, but a text of the event that came as a two-byte string (a slug made by
   * String.normalize, a string an embedder sliced from a wider one) makes the whole head
   * two-byte, and joining a page that mixes the two representations copies character by
   * character: measured 180 µs against 13 µs for a page of 20 events with three such heads.
   */
  pushEvent(parts: string[], row: number): void {
    const e = this.eventEntry(row);
    let store = false;
    if (e.head === undefined) {
      e.head = headText(this.site, this.engine, row, this.textFlags(row));
      e.settled = false;
      e.bytes += strBytes(e.head);
      store = true;
    } else if (!e.settled) {
      e.head = oneByte(e.head);
      if (e.tail !== undefined) e.tail = flat(e.tail);
      e.settled = true;
    }
    if (e.tail === undefined) {
      // a tail made again for a settled head (its venue changed) is flattened at once
      e.tail = e.settled ? flat(this.tail(row)) : this.tail(row);
      e.bytes += strBytes(e.tail);
      store = true;
    }
    if (this.termOrder(row, e)) store = true;
    if (store) this.cache.setRow(row, e, e.bytes);
    parts.push(e.head);
    const categories = e.categories!,
      tags = e.tags!;
    for (let i = 0; i < categories.length; i++)
      parts.push(this.termText(categories[i], i > 0 ? TEXT_COMMA : TEXT_ALONE));
    if (tags.length === 0) parts.push(TAGS_OPEN);
    for (let i = 0; i < tags.length; i++) parts.push(this.termText(tags[i], i > 0 ? TEXT_COMMA : TEXT_TAGS));
    parts.push(e.tail);
  }

  /** `],"venue":…,"organizer":[…],"custom_fields":[]}`. One venue is an object, none or several
   *  an array (as the real service shows them). */
  private tail(row: number): string {
    const t = this.engine.eventTable;
    const venueIds = t.venueList(row);
    const venue =
      venueIds.length === 1
        ? (this.linkedJson(venueIds[0], 'venue') ?? '[]')
        : `[${this.linkedList(venueIds, 'venue')}]`;
    const recur = t.recur.size > 0 ? recurrenceJson(this.engine, row, this.site.config.timezone) : '';
    return `],"venue":${venue},"organizer":[${this.linkedList(t.organizerIds.get(row), 'organizer')}],"custom_fields":[]${recur}}`;
  }

  /** The texts of the venues or organizers that exist among `ids`, comma-separated. */
  private linkedList(ids: ArrayLike<number>, kind: 'venue' | 'organizer'): string {
    let text = '';
    for (let i = 0; i < ids.length; i++) {
      const json = this.linkedJson(ids[i], kind);
      if (json !== undefined) text = text === '' ? json : `${text},${json}`;
    }
    return text;
  }

  /** The event's list representation as JSON text. */
  eventJson(row: number): string {
    const parts: string[] = [];
    this.pushEvent(parts, row);
    return parts.join('');
  }

  /** The event's list representation as a fresh plain object: equal to JSON.parse(eventJson(row)). */
  eventObject(row: number): Obj {
    const e = this.eventEntry(row);
    let stored = false;
    if (e.obj === undefined) {
      e.obj = eventHead(this.site, this.engine, row);
      e.bytes += HEAD_OBJECT_OVERHEAD + textBytes(e.obj as unknown as Obj);
      stored = true;
    }
    if (this.termOrder(row, e)) stored = true;
    if (stored) this.cache.setRow(row, e, e.bytes);
    const engine = this.engine,
      t = engine.eventTable;
    const categories: Obj[] = [],
      tags: Obj[] = [];
    for (const id of e.categories!) {
      const term = this.termObject(id);
      if (term !== undefined) categories.push(term);
    }
    for (const id of e.tags!) {
      const term = this.termObject(id);
      if (term !== undefined) tags.push(term);
    }
    const venues: Obj[] = [];
    for (const id of t.venueList(row)) {
      const v = engine.venue(id);
      if (v !== undefined) venues.push(copyLinked(this.linkedObject(v, 'venue')));
    }
    const orgs: Obj[] = [];
    for (const id of t.organizerIds.get(row)) {
      const o = engine.organizer(id);
      if (o !== undefined) orgs.push(copyLinked(this.linkedObject(o, 'organizer')));
    }
    const obj = eventObjectOf(e.obj, categories, tags, venues.length === 1 ? venues[0] : venues, orgs);
    const recur = t.recur.size > 0 ? recurrenceFields(engine, row, this.site.config.timezone) : undefined;
    return recur ? Object.assign(obj, recur) : obj;
  }

  /** A term's embedded form as a fresh object (at its current count). */
  private termObject(id: number): Obj | undefined {
    const term = this.engine.term(id);
    if (term === undefined) return undefined;
    const e = this.termEntry(term);
    if (e.embedded === undefined) {
      e.embedded = termEmbeddedObject(this.site, this.engine, term);
      e.bytes += textBytes(e.embedded) + LINKED_OBJECT_OVERHEAD;
      this.cache.set(KIND_TERM, term.id, e, e.bytes);
    }
    const tmpl = e.embedded;
    return { ...tmpl, count: this.engine.termCount(term.id), urls: { ...(tmpl.urls as Obj) } };
  }

  // ---- venues and organizers ----------------------------------------------------------------

  private linked(rec: VenueRecord | OrganizerRecord, kind: 'venue' | 'organizer'): LinkedEntry {
    let e = this.cache.get(KIND_POST, rec.id) as LinkedEntry | undefined;
    if (e === undefined) e = newLinkedEntry();
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
    if (e === undefined) e = newLinkedEntry();
    if (e.obj === undefined) {
      e.obj = this.linkedTemplate(rec, kind);
      e.bytes += textBytes(e.obj) + LINKED_OBJECT_OVERHEAD;
      this.cache.set(KIND_POST, rec.id, e, e.bytes);
    }
    return e.obj;
  }

  /** A venue's or organizer's JSON text by id; undefined when there is no such record. */
  private linkedJson(id: number, kind: 'venue' | 'organizer'): string | undefined {
    const cached = this.cache.get(KIND_POST, id) as LinkedEntry | undefined;
    if (cached !== undefined && cached.json !== undefined) return cached.json;
    const rec = kind === 'venue' ? this.engine.venue(id) : this.engine.organizer(id);
    return rec === undefined ? undefined : this.linked(rec, kind).json;
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
    if (e === undefined) e = newTermEntry();
    return e;
  }

  /** A term's embedded form as JSON text at its current count, with the separator `variant` says. */
  private termText(id: number, variant: number): string {
    const cached = this.cache.get(KIND_TERM, id) as TermEntry | undefined;
    if (cached !== undefined && cached.texts !== undefined) return cached.texts[variant];
    const term = this.engine.term(id)!;
    const e = cached ?? this.termEntry(term);
    if (e.pre === undefined) {
      const { count: _count, ...before } = termEmbeddedObject(this.site, this.engine, term);
      // name … parent, then count, then filter, id, urls: split the JSON text around the count
      const { filter, id, urls, ...head } = before;
      e.pre = toJson(head).slice(0, -1) + ',"count":';
      e.post = ',' + toJson({ filter, id, urls }).slice(1);
      e.bytes += strBytes(e.pre) + strBytes(e.post);
    }
    // joined, not concatenated: flat strings (a rope would be walked again by every page join)
    const count = String(this.engine.termCount(term.id));
    const text = [e.pre, count, e.post].join('');
    e.texts = [text, [',', text].join(''), [TAGS_OPEN, text].join('')];
    e.bytes += 3 * strBytes(text) + 12;
    this.cache.set(KIND_TERM, term.id, e, e.bytes);
    return e.texts[variant];
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
