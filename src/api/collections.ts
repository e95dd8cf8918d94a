// The REST operations of the five resources, transport-free: what the HTTP shell routes to and
// what the embedding API wraps. Order of checks as WordPress: route-level validation of the
// target → parameter validation (400) → permission (401/403) → handler errors (404/410...).
// Writes apply in one tick, render, then resolve once the write is durable.

import type { EventRecord, OrganizerRecord, Taxonomy, TermRecord, VenueRecord } from '../engine/records.ts';
import {
  canDeletePost,
  canEditOthers,
  canEditPost,
  canEditPosts,
  canPublish,
  canReadPost,
  forbidden,
} from './wordpress/auth.ts';
import { Tx, type Core } from './context.ts';
import { type CalendarError, fail, invalidParams, missingParams } from './wordpress/errors.ts';
import { archiveParts, archiveResult, closeArchive, openArchive, termEnvelope } from './representation/envelope.ts';
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
import { listLinked } from './linked/list.ts';
import { checkGeoPair, stageLinked } from './linked/write.ts';
import { Problems, asString, has } from './wordpress/params.ts';
import { eventSingleObject, organizerObject, termObject, toJson, venueObject } from './representation/represent.ts';
import { listTerms } from './terms/list.ts';
import { stageTerm } from './terms/write.ts';
import type { Page, Params, RestCall, RestResult } from './wordpress/types.ts';
import { WpCore, isWpResource } from '../wp-core/rest.ts';

type Item = Record<string, unknown>;

const JSON_HEADERS: Record<string, string> = {};

function ok(status: number, body: string, headers: Record<string, string> = JSON_HEADERS): RestResult {
  return { status, headers, body };
}

/** The key of an events list page in the page cache: everything its answer is made from once
 *  planned (the query's fields are numbers, booleans, strings and arrays of them). */
function eventPageKey(plan: EventListPlan): string {
  return `events ${plan.paging.page} ${plan.paging.perPage} ${JSON.stringify(plan.query)} ${JSON.stringify(plan.urlArgs)}`;
}

function totals(total: number, perPage: number): Record<string, string> {
  return { 'X-TEC-Total': String(total), 'X-TEC-TotalPages': String(total === 0 ? 0 : Math.ceil(total / perPage)) };
}

/** Slug lookup sanitises the path segment like TEC: only letters, digits, '_', '-' and '%' survive. */
function lookupSlug(slug: string): string {
  return slug.replace(/[^A-Za-z0-9_\-%]/g, '');
}

function requireMissing(params: Params, names: string[]): void {
  const missing = names.filter((n) => !has(params, n));
  if (missing.length) throw missingParams(missing);
}

function badTarget(name: 'id' | 'slug'): CalendarError {
  return invalidParams({ [name]: 'Invalid parameter.' });
}

export class Collections {
  /** the WordPress core routes (wp/v2) over the same records */
  private readonly wp: WpCore;

  constructor(readonly core: Core) {
    this.wp = new WpCore(core, (tx, render) => this.write(tx, render));
  }

  rest(call: RestCall): Promise<RestResult> {
    try {
      switch (call.resource) {
        case 'events':
          return this.events(call);
        case 'venues':
          return this.linked('venue', call);
        case 'organizers':
          return this.linked('organizer', call);
        case 'categories':
          return this.terms('tribe_events_cat', call);
        case 'tags':
          return this.terms('post_tag', call);
        default:
          if (isWpResource(call.resource)) return this.wp.rest(call);
      }
    } catch (e) {
      return Promise.reject(e);
    }
    return Promise.reject(fail('rest_no_route'));
  }

  private async write(tx: Tx, render: () => RestResult): Promise<RestResult> {
    const durable = this.core.commit(tx.ops, tx.actor);
    const result = render();
    await durable;
    return result;
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
        const res = this.linkedList(kind, call);
        return page(
          res.records.map((r) => render.linkedCopy(r, kind)),
          res.total,
          res.paging.perPage,
        );
      }
      case 'categories':
      case 'tags': {
        const taxonomy = call.resource === 'tags' ? 'post_tag' : 'tribe_events_cat';
        if (!list) return render.termCopy(this.termTarget(taxonomy, call));
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

  private async events(call: RestCall): Promise<RestResult> {
    const { core } = this;
    const engine = core.engine;
    const { params, actor } = call;
    const render = core.render;
    if (call.action === 'list') {
      const plan = planEventList(core, params, actor);
      // a page on its way to a socket may have been made already (page-cache.ts)
      const key = call.forSocket === true ? eventPageKey(plan) : undefined;
      const kept = key === undefined ? undefined : render.pages.get(key);
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
      const headers = totals(total, plan.paging.perPage);
      if (key !== undefined) render.pages.offer(key, parts, headers);
      return archiveResult(parts, headers, call.forSocket === true);
    }
    if (call.action === 'create') {
      requireMissing(params, ['title', 'start_date', 'end_date']);
      const tx = new Tx(core, actor);
      const problems = new Problems();
      const rec = stageEventWrite(tx, params, undefined, problems);
      if (!rec) throw invalidParams(problems.reasons);
      if (!canEditPosts(actor)) throw forbidden(actor);
      return this.write(tx, () => ok(201, render.eventJson(engine.eventRow(rec.id))));
    }
    if (call.action === 'get') return ok(200, toJson(this.eventSingle(call)));
    const existing = this.eventTarget(call);
    if (call.action === 'update') {
      const tx = new Tx(core, actor);
      const problems = new Problems();
      const rec = stageEventWrite(tx, params, farUpdateTarget(tx, existing, params), problems);
      if (!rec) throw invalidParams(problems.reasons);
      if (!canEditPost(actor, existing)) throw forbidden(actor);
      return this.write(tx, () => ok(200, render.eventJson(engine.eventRow(rec.id))));
    }
    // delete: moves to trash; a second delete is 410
    if (!canDeletePost(actor, existing)) throw forbidden(actor);
    if (existing.status === 'trash') throw fail('event-is-in-trash', [existing.id]);
    const tx = new Tx(core, actor);
    if (isFarId(existing.id)) {
      const id = stageFarDelete(tx, existing, params, stageEventDelete);
      return this.write(tx, () => ok(200, render.eventJson(engine.eventRow(id))));
    }
    stageEventDelete(tx, existing, params);
    return this.write(tx, () => ok(200, render.eventJson(engine.eventRow(existing.id))));
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

  private async linked(kind: 'venue' | 'organizer', call: RestCall): Promise<RestResult> {
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
    if (call.action === 'list') {
      const res = this.linkedList(kind, call);
      const items = res.records.map((r) => json(r.id));
      const parts = archiveParts(plural, core.site.archiveText[plural], items, res.total, res.paging, res.urlArgs);
      return archiveResult(parts, totals(res.total, res.paging.perPage), call.forSocket === true);
    }
    if (call.action === 'create') {
      requireMissing(params, [kind]);
      const tx = new Tx(core, actor);
      const problems = new Problems();
      if (kind === 'venue') checkGeoPair(params, undefined, problems);
      const staged = problems.any ? undefined : stageLinked(tx, kind, params, undefined, problems);
      if (!staged) throw invalidParams(problems.reasons);
      if (!canEditPosts(actor)) throw forbidden(actor);
      return this.write(tx, () => ok(201, json(staged.rec.id)));
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
      return this.write(tx, () => ok(200, json(existing.id)));
    }
    if (!canDeletePost(actor, existing)) throw forbidden(actor);
    if (existing.status === 'trash')
      throw fail(kind === 'venue' ? 'venue-is-in-trash' : 'organizer-is-in-trash', [existing.id]);
    const tx = new Tx(core, actor);
    tx.ops.push({ t: kind, a: 'delete', id: existing.id, modified: tx.stamps.local, modifiedUtc: tx.stamps.utc });
    return this.write(tx, () => ok(200, json(existing.id)));
  }

  private linkedList(kind: 'venue' | 'organizer', call: RestCall): ReturnType<typeof listLinked> {
    const { params } = call;
    if (has(params, 'search') && typeof params.search === 'object')
      throw invalidParams({ search: 'Invalid parameter.' });
    const res = listLinked(this.core, kind, params, call.actor);
    if (res.paging.page > 1 && res.records.length === 0) {
      throw fail(kind === 'venue' ? 'venue-archive-page-not-found' : 'organizer-archive-page-not-found');
    }
    return res;
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

  // ---- categories and tags -------------------------------------------------------------

  private async terms(taxonomy: Taxonomy, call: RestCall): Promise<RestResult> {
    const { core } = this;
    const engine = core.engine;
    const { params, actor } = call;
    const plural = taxonomy === 'post_tag' ? 'tags' : 'categories';
    const authorize = (): void => {
      const allowed = canEditPosts(actor) && (taxonomy === 'post_tag' ? canEditOthers(actor) : canPublish(actor));
      if (!allowed) throw forbidden(actor);
    };
    if (call.action === 'list') {
      const res = listTerms(core, taxonomy, params);
      const items = res.terms.map((t) => core.render.termJson(t));
      const body = termEnvelope(plural, `${core.site.root}${plural}/`, items, res.total, res.paging);
      return ok(200, body, totals(res.total, res.paging.perPage));
    }
    if (call.action === 'create') {
      requireMissing(params, ['name']);
      const tx = new Tx(core, actor);
      const problems = new Problems();
      const rec = stageTerm(tx, taxonomy, params, undefined, problems, authorize);
      if (!rec) throw invalidParams(problems.reasons);
      return this.write(tx, () => ok(201, core.render.termJson(engine.term(rec.id)!)));
    }
    const existing = this.termTarget(taxonomy, call);
    if (call.action === 'get') return ok(200, core.render.termJson(existing));
    if (call.action === 'update') {
      const tx = new Tx(core, actor);
      const problems = new Problems();
      const rec = stageTerm(tx, taxonomy, params, existing, problems, authorize);
      if (!rec) throw invalidParams(problems.reasons);
      return this.write(tx, () => ok(200, core.render.termJson(engine.term(rec.id)!)));
    }
    authorize();
    const before = toJson(termObject(core.site, engine, existing));
    const tx = new Tx(core, actor);
    tx.ops.push({ t: 'term', a: 'delete', id: existing.id });
    return this.write(tx, () => ok(200, before));
  }

  private termTarget(taxonomy: Taxonomy, call: RestCall): TermRecord {
    const target = call.target;
    if (!target || 'slug' in target) throw fail('rest_no_route');
    const t = this.core.engine.term(target.id);
    if (!t || t.taxonomy !== taxonomy) throw badTarget('id');
    return t;
  }
}

function page(items: Item[], total: number, perPage: number): Page<Item> {
  return { items, total, totalPages: total === 0 ? 0 : Math.ceil(total / perPage) };
}

/** `idOrSlug` of the embedding API → a REST target. */
export function targetOf(idOrSlug: number | string): { id: number } | { slug: string } {
  if (typeof idOrSlug === 'number') return { id: idOrSlug };
  const s = asString(idOrSlug) ?? '';
  return /^\d+$/.test(s) ? { id: Number(s) } : { slug: s };
}
