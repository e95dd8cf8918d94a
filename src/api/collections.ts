// The REST operations of the five resources, transport-free: what the HTTP shell routes to and
// what the embedding API wraps. Order of checks as WordPress: route-level validation of the
// target → parameter validation (400) → permission (401/403) → handler errors (404/410...).
// Writes apply in one tick, render, then resolve once the write is durable.

import type { EventRecord, OrganizerRecord, VenueRecord } from '../engine/records.ts';
import { canDeletePost, canEditPost, canEditPosts, canReadPost, forbidden } from './wordpress/auth.ts';
import { Tx, type Core } from './context.ts';
import { fail, invalidParams } from './wordpress/errors.ts';
import { archiveParts, archiveResult, closeArchive, openArchive } from './representation/envelope.ts';
import { type EventListPlan, planEventList } from './events/list.ts';
import { stageEventDelete, stageEventWrite } from '../recurrence/write.ts';
import {
  type FarItem,
  farItemRecord,
  farObject,
  farSingleObject,
  farUpdateTarget,
  isFarId,
  listEvents,
  resolveFarId,
  resolveFarSlug,
  stageFarDelete,
} from '../recurrence/far.ts';
import { linkedPageKey, planLinkedList, runLinkedList } from './linked/list.ts';
import { checkGeoPair, stageLinked } from './linked/write.ts';
import { Problems, asString } from './wordpress/params.ts';
import { eventSingleObject, organizerObject, toJson, venueObject } from './representation/represent.ts';
import { listTerms } from './terms/list.ts';
import { termsRest, termTarget } from './terms/rest.ts';
import { badTarget, ok, page, requireMissing, totals } from './results.ts';
import type { Page, RestCall, RestResult } from './wordpress/types.ts';
import { WpCore, isWpResource } from '../wp-core/rest.ts';

type Item = Record<string, unknown>;

/** The key of an events list page in the page cache: everything its answer is made from once
 *  planned (the query's fields are numbers, booleans, strings and arrays of them). */
function eventPageKey(plan: EventListPlan): string {
  return `events ${plan.paging.page} ${plan.paging.perPage} ${JSON.stringify(plan.query)} ${JSON.stringify(plan.urlArgs)}`;
}

/** Slug lookup sanitises the path segment like TEC: only letters, digits, '_', '-' and '%' survive. */
function lookupSlug(slug: string): string {
  return slug.replace(/[^A-Za-z0-9_\-%]/g, '');
}

export class Collections {
  /** the WordPress core routes (wp/v2) over the same records */
  private readonly wp: WpCore;
  /** an event's answer as JSON text and as an object (made once: a function made on every call
   *  costs a list call a name-defining wrapper from the TypeScript loader, about 1 µs) */
  private readonly eventJson = (id: number) => this.core.render.eventJson(this.core.engine.eventRow(id));
  private readonly eventObject = (id: number) => this.core.render.eventObject(this.core.engine.eventRow(id));

  constructor(readonly core: Core) {
    this.wp = new WpCore(core, (tx, render) => this.write(tx, render));
  }

  rest(call: RestCall): Promise<RestResult> {
    return this.dispatch(call, false) as Promise<RestResult>;
  }

  /**
   * create, update and delete of the five resources for the embedding API: the same checks, ops
   * and durability as rest(), the answer (the body rest() would send) a fresh object built from
   * the rendered pieces, never through JSON text.
   */
  writeObject(call: RestCall): Promise<Item> {
    if (call.action === 'list' || call.action === 'get' || isWpResource(call.resource))
      return Promise.reject(new Error(`writeObject: expected a write of the five resources, got ${call.action}`));
    return this.dispatch(call, true) as Promise<Item>;
  }

  /** `objects`: a write answers with a fresh object instead of its REST text. */
  private dispatch(call: RestCall, objects: boolean): Promise<RestResult | Item> {
    try {
      switch (call.resource) {
        case 'events':
          return this.events(call, objects);
        case 'venues':
          return this.linked('venue', call, objects);
        case 'organizers':
          return this.linked('organizer', call, objects);
        case 'categories':
          return termsRest(this.core, 'tribe_events_cat', call, (tx, ...rest) => this.answer(tx, objects, ...rest));
        case 'tags':
          return termsRest(this.core, 'post_tag', call, (tx, ...rest) => this.answer(tx, objects, ...rest));
        default:
          if (isWpResource(call.resource)) return this.wp.rest(call);
      }
    } catch (e) {
      return Promise.reject(e);
    }
    return Promise.reject(fail('rest_no_route'));
  }

  /** Commits a staged write, renders its answer in the same tick, resolves once it is durable. */
  private async write<T>(tx: Tx, render: () => T): Promise<T> {
    const durable = this.core.commit(tx.ops, tx.actor);
    const result = render();
    await durable;
    return result;
  }

  /** A write's answer about record `id`: `status` and its REST text, or (`objects`) the same body
   *  as a fresh object; both made once the write is applied. */
  private answer(
    tx: Tx,
    objects: boolean,
    status: number,
    id: number,
    json: (id: number) => string,
    object: (id: number) => Item,
  ): Promise<RestResult | Item> {
    return objects ? this.write(tx, () => object(id)) : this.write(tx, () => ok(status, json(id)));
  }

  /**
   * list and get as plain objects, for the embedding API: the same checks, errors and answers as
   * rest(), built as fresh objects from the rendered pieces, never through JSON text.
   */
  read(call: RestCall): Page<Item> | Item {
    const { render } = this.core;
    const list = call.action === 'list';
    if (!list && call.action !== 'get') throw new Error(`read: expected a list or get call, got ${call.action}`);
    switch (call.resource) {
      case 'events': {
        if (!list) return this.eventSingle(call);
        const { plan, rows, total, far } = this.eventList(call);
        const items: Item[] = new Array(rows.length);
        for (let i = 0; i < rows.length; i++)
          items[i] = rows[i] < 0 ? this.farItemObject(far!, rows[i]) : render.eventObject(rows[i]);
        return page(items, total, plan.paging.perPage);
      }
      case 'venues':
      case 'organizers': {
        const kind = call.resource === 'venues' ? 'venue' : 'organizer';
        if (!list) return this.linkedSingle(kind, call);
        const res = runLinkedList(this.core, planLinkedList(this.core, kind, call.params, call.actor));
        return page(
          res.records.map((r) => render.linkedCopy(r, kind)),
          res.total,
          res.paging.perPage,
        );
      }
      case 'categories':
      case 'tags': {
        const taxonomy = call.resource === 'tags' ? 'post_tag' : 'tribe_events_cat';
        if (!list) return render.termCopy(termTarget(this.core, taxonomy, call));
        const res = listTerms(this.core, taxonomy, call.params);
        return page(
          res.terms.map((t) => render.termCopy(t)),
          res.total,
          res.paging.perPage,
        );
      }
    }
    throw fail('rest_no_route');
  }

  // ---- events ------------------------------------------------------------------------

  private async events(call: RestCall, objects = false): Promise<RestResult | Item> {
    const { core } = this;
    const { params, actor } = call;
    const render = core.render;
    const json = this.eventJson,
      object = this.eventObject;
    if (call.action === 'list') {
      const plan = planEventList(core, params, actor);
      const key = call.forSocket === true ? eventPageKey(plan) : undefined;
      const kept = this.keptPage(key);
      if (kept !== undefined) return kept;
      const { rows, total, far } = this.planRows(plan);
      // the parts are pushed here, not by a callback: a function made for each call costs a
      // name-defining wrapper from the TypeScript loader (4-5 µs a page under load)
      const parts = openArchive('events');
      for (let i = 0; i < rows.length; i++) {
        if (i > 0) parts.push(',');
        if (rows[i] < 0) parts.push(toJson(this.farItemObject(far!, rows[i])));
        else render.pushEvent(parts, rows[i]);
      }
      closeArchive(parts, core.site.archiveText.events, total, plan.paging, plan.urlArgs);
      return this.listAnswer(call, key, parts, total, plan.paging.perPage);
    }
    if (call.action === 'create') {
      requireMissing(params, ['title', 'start_date', 'end_date']);
      const tx = new Tx(core, actor);
      const problems = new Problems();
      const rec = stageEventWrite(tx, params, undefined, problems);
      if (!rec) throw invalidParams(problems.reasons);
      if (!canEditPosts(actor)) throw forbidden(actor);
      return this.answer(tx, objects, 201, rec.id, json, object);
    }
    if (call.action === 'get') return ok(200, toJson(this.eventSingle(call)));
    const existing = this.eventTarget(call);
    if (call.action === 'update') {
      const tx = new Tx(core, actor);
      const problems = new Problems();
      const rec = stageEventWrite(tx, params, farUpdateTarget(tx, existing, params), problems);
      if (!rec) throw invalidParams(problems.reasons);
      if (!canEditPost(actor, existing)) throw forbidden(actor);
      return this.answer(tx, objects, 200, rec.id, json, object);
    }
    // delete: moves to trash; a second delete is 410
    if (!canDeletePost(actor, existing)) throw forbidden(actor);
    if (existing.status === 'trash') throw fail('event-is-in-trash', [existing.id]);
    const tx = new Tx(core, actor);
    if (isFarId(existing.id)) {
      const id = stageFarDelete(tx, existing, params, stageEventDelete);
      return this.answer(tx, objects, 200, id, json, object);
    }
    stageEventDelete(tx, existing, params);
    return this.answer(tx, objects, 200, existing.id, json, object);
  }

  /** A list call's plan and its page of rows (404 past the last page); a far occurrence of a
   *  series is an entry -1 - k of `rows`, `far[k]` (recurrence/far.ts). */
  private eventList(call: RestCall): { plan: EventListPlan; rows: number[]; total: number; far?: FarItem[] } {
    const plan = planEventList(this.core, call.params, call.actor);
    return { plan, ...this.planRows(plan) };
  }

  /** A planned list's page of rows (404 past the last page), far occurrences included. */
  private planRows(plan: EventListPlan): { rows: number[]; total: number; far?: FarItem[] } {
    const { rows, total, far } = listEvents(this.core, plan.query);
    if (plan.paging.page > 1 && rows.length === 0) throw fail('event-archive-page-not-found');
    return { rows, total, far };
  }

  private farItemObject(far: FarItem[], entry: number): Item {
    return farObject(this.core, farItemRecord(this.core, far[-1 - entry]));
  }

  /** The single-GET representation of a readable event, as a fresh object. */
  private eventSingle(call: RestCall): Item {
    const existing = this.eventTarget(call);
    if (existing.status === 'trash') throw fail('event-no-longer-available');
    if (!canReadPost(call.actor, existing)) throw fail('event-not-accessible');
    const engine = this.core.engine;
    if (isFarId(existing.id)) return farSingleObject(this.core, existing);
    const row = engine.eventRow(existing.id);
    return eventSingleObject(this.core.site, engine, row, this.core.render.eventObject(row));
  }

  /** Resolve /events/{id} or /events/by-slug/{slug} with the real service's errors. */
  private eventTarget(call: RestCall): EventRecord {
    const engine = this.core.engine;
    const target = call.target;
    if (!target) throw fail('rest_no_route');
    if ('slug' in target) {
      const slug = lookupSlug(target.slug);
      const row = engine.eventRowBySlug(slug);
      if (row === -1 && target.slug !== '') {
        // a far occurrence of a series (recurrence/far-occurrence.ts): its series' slug and day
        const far = resolveFarSlug(this.core, slug);
        if (far !== undefined) return far;
      }
      if (row === -1 || target.slug === '') throw badTarget('slug');
      if (row !== -1 && engine.eventStatus(row) === 'inherit') throw badTarget('slug');
      return engine.eventRecord(row);
    }
    let kind = target.id === 0 ? undefined : engine.postKind(target.id);
    // an occurrence no longer generated by its series keeps its id but is gone
    if (kind === 'event' && engine.eventStatus(engine.eventRow(target.id)) === 'inherit') kind = undefined;
    const writing = call.action === 'update' || call.action === 'delete';
    if (kind === undefined && isFarId(target.id)) {
      // a far occurrence of a series (recurrence/far.ts): its row once it has one
      const far = resolveFarId(this.core, target.id);
      if (far !== undefined) return far;
    }
    if (kind !== 'event') {
      if (writing && !canEditPosts(call.actor)) throw forbidden(call.actor);
      throw kind === undefined ? fail('rest-event-not-found', [target.id]) : fail('rest-invalid-event-id');
    }
    return engine.eventRecord(engine.eventRow(target.id));
  }

  // ---- venues and organizers -------------------------------------------------------------

  private async linked(kind: 'venue' | 'organizer', call: RestCall, objects = false): Promise<RestResult | Item> {
    const { core } = this;
    const engine = core.engine;
    const { params, actor } = call;
    const plural = kind === 'venue' ? 'venues' : 'organizers';
    const json = (id: number): string => {
      const rec = kind === 'venue' ? engine.venue(id) : engine.organizer(id);
      return kind === 'venue'
        ? core.render.venueJson(rec as VenueRecord)
        : core.render.organizerJson(rec as OrganizerRecord);
    };
    const object = (id: number): Item =>
      core.render.linkedCopy(kind === 'venue' ? engine.venue(id)! : engine.organizer(id)!, kind);
    if (call.action === 'list') {
      const plan = planLinkedList(core, kind, params, actor);
      const key = call.forSocket === true ? linkedPageKey(plan) : undefined;
      const kept = this.keptPage(key);
      if (kept !== undefined) return kept;
      const res = runLinkedList(core, plan);
      const items = res.records.map((r) => json(r.id));
      const parts = archiveParts(plural, core.site.archiveText[plural], items, res.total, res.paging, res.urlArgs);
      return this.listAnswer(call, key, parts, res.total, res.paging.perPage);
    }
    if (call.action === 'create') {
      requireMissing(params, [kind]);
      const tx = new Tx(core, actor);
      const problems = new Problems();
      if (kind === 'venue') checkGeoPair(params, undefined, problems);
      const staged = problems.any ? undefined : stageLinked(tx, kind, params, undefined, problems);
      if (!staged) throw invalidParams(problems.reasons);
      if (!canEditPosts(actor)) throw forbidden(actor);
      return this.answer(tx, objects, 201, staged.rec.id, json, object);
    }
    if (call.action === 'get') return ok(200, toJson(this.linkedSingle(kind, call)));
    const existing = this.linkedTarget(kind, call);
    if (call.action === 'update') {
      const tx = new Tx(core, actor);
      const problems = new Problems();
      if (kind === 'venue') checkGeoPair(params, existing as VenueRecord, problems);
      const staged = problems.any ? undefined : stageLinked(tx, kind, params, existing, problems);
      if (!staged) throw invalidParams(problems.reasons);
      if (!canEditPost(actor, existing)) throw forbidden(actor);
      return this.answer(tx, objects, 200, existing.id, json, object);
    }
    if (!canDeletePost(actor, existing)) throw forbidden(actor);
    if (existing.status === 'trash')
      throw fail(kind === 'venue' ? 'venue-is-in-trash' : 'organizer-is-in-trash', [existing.id]);
    const tx = new Tx(core, actor);
    tx.ops.push({ t: kind, a: 'delete', id: existing.id, modified: tx.stamps.local, modifiedUtc: tx.stamps.utc });
    return this.answer(tx, objects, 200, existing.id, json, object);
  }

  /** The page kept under `key` (a list on its way to a socket may have been made already:
   *  page-cache.ts); none without a key. */
  private keptPage(key: string | undefined): RestResult | undefined {
    return key === undefined ? undefined : this.core.render.pages.get(key);
  }

  /** A list's answer from its parts and total, offered to the page cache under `key` when it has one. */
  private listAnswer(
    call: RestCall,
    key: string | undefined,
    parts: string[],
    total: number,
    perPage: number,
  ): RestResult {
    const headers = totals(total, perPage);
    if (key !== undefined) this.core.render.pages.offer(key, parts, headers);
    return archiveResult(parts, headers, call.forSocket === true);
  }

  /** The single-GET representation of a readable venue/organizer (with json_ld), a fresh object. */
  private linkedSingle(kind: 'venue' | 'organizer', call: RestCall): Item {
    const existing = this.linkedTarget(kind, call);
    if (!canReadPost(call.actor, existing))
      throw fail(kind === 'venue' ? 'venue-not-accessible' : 'organizer-not-accessible');
    const { site, engine } = this.core;
    return kind === 'venue'
      ? venueObject(site, engine, existing as VenueRecord, true)
      : organizerObject(site, engine, existing as OrganizerRecord, true);
  }

  private linkedTarget(kind: 'venue' | 'organizer', call: RestCall): VenueRecord | OrganizerRecord {
    const engine = this.core.engine;
    const target = call.target;
    if (!target) throw fail('rest_no_route');
    if ('slug' in target) {
      const slug = lookupSlug(target.slug);
      const rec = slug === '' ? undefined : kind === 'venue' ? engine.venueBySlug(slug) : engine.organizerBySlug(slug);
      if (!rec) throw badTarget('slug');
      return rec;
    }
    const rec = kind === 'venue' ? engine.venue(target.id) : engine.organizer(target.id);
    if (!rec) throw badTarget('id');
    return rec;
  }
}

/** `idOrSlug` of the embedding API → a REST target. */
export function targetOf(idOrSlug: number | string): { id: number } | { slug: string } {
  if (typeof idOrSlug === 'number') return { id: idOrSlug };
  const s = asString(idOrSlug) ?? '';
  return /^\d+$/.test(s) ? { id: Number(s) } : { slug: s };
}
