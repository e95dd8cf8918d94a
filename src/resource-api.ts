// The embedding API's collections (cal.events, cal.venues, cal.organizers, cal.categories,
// cal.tags): list/get/create/update/delete of one resource through its calendar, with REST names
// and REST representations, answered as fresh objects (never through JSON text).

import { resolveActor } from './api/wordpress/auth.ts';
import { targetOf } from './api/collections.ts';
import type { AsArg, Page, Params, RestCall, Resource, UserDirectory } from './api/wordpress/types.ts';

type Item = Record<string, unknown>;

/** What a collection asks of its calendar (the internal handle, src/calendar-handle.ts): reads and
 *  writes, both answered as fresh objects. */
export interface CalendarCalls {
  read(call: RestCall): Page<Item> | Item;
  write(call: RestCall): Promise<Item>;
  /** resolves once the word index is no longer being built on a worker thread */
  searchReady?(): Promise<void>;
  readonly users: UserDirectory;
}

/** Whether a list's parameters ask for a text search (`search`, not empty). */
export function hasSearch(params: Record<string, unknown>): boolean {
  return params.search !== undefined && params.search !== '';
}

/** list/get/create/update/delete of one resource, with REST names and REST representations. */
export class ResourceApi {
  constructor(
    private readonly cal: CalendarCalls,
    private readonly resource: Resource,
  ) {}

  /** A page of REST representations as fresh plain objects (yours to keep and change). */
  async list(query: Params = {}, as?: AsArg): Promise<Page<Item>> {
    // a search while the word index is built on a worker thread waits for it (see Calendar.rest)
    if (this.resource === 'events' && hasSearch(query)) await this.cal.searchReady?.();
    return this.cal.read(this.callOf('list', undefined, query, as)) as Page<Item>;
  }

  /** One REST representation (as a single GET gives it) as a fresh plain object. */
  async get(idOrSlug: number | string, as?: AsArg): Promise<Item> {
    return this.cal.read(this.callOf('get', idOrSlug, {}, as)) as Item;
  }

  /** The new record's REST representation (the body of a POST) as a fresh plain object. */
  async create(fields: Params, as?: AsArg): Promise<Item> {
    return this.cal.write(this.callOf('create', undefined, fields, as));
  }

  /** The record's REST representation once updated, as a fresh plain object. */
  async update(idOrSlug: number | string, fields: Params, as?: AsArg): Promise<Item> {
    return this.cal.write(this.callOf('update', idOrSlug, fields, as));
  }

  /** `params`: the DELETE's parameters (events: recurrence_scope). */
  async delete(idOrSlug: number | string, as?: AsArg, params: Params = {}): Promise<Item> {
    return this.cal.write(this.callOf('delete', idOrSlug, params, as));
  }

  private callOf(
    action: RestCall['action'],
    idOrSlug: number | string | undefined,
    params: Params,
    as: AsArg,
  ): RestCall {
    const actor = resolveActor(as, this.cal.users);
    const target = idOrSlug === undefined ? undefined : targetOf(idOrSlug);
    return { resource: this.resource, action, target, params: params ?? {}, actor };
  }
}
