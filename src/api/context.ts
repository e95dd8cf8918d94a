// What every collection needs (engine, site, users, the commit path), and Tx: the ops of one
// write being assembled. A write validates everything and collects its ops in a Tx; only when
// nothing can fail any more does Core.commit apply them (all together) and journal them.

import type { EngineApi } from '../engine/engine-api.ts';
import { naiveToString } from '../engine/naive-time.ts';
import type { Op, OrganizerRecord, TermRecord, VenueRecord, AttachmentRecord, Taxonomy } from '../engine/records.ts';
import { epochToZoned } from './wordpress/dates.ts';
import type { Renderer } from './representation/render.ts';
import type { Site } from './representation/represent.ts';
import type { Actor, UserDirectory } from './wordpress/types.ts';

export interface Core {
  engine: EngineApi;
  site: Site;
  /** rendered representations, cached under a byte budget */
  render: Renderer;
  users: UserDirectory | undefined;
  /** Apply the ops to memory now (one tick, all together) and resolve once they are durable.
   *  `actor` is who made the write (the change feed's `author`). */
  commit(ops: Op[], actor?: Actor): Promise<void>;
}

export type SlugKind = 'event' | 'venue' | 'organizer' | Taxonomy;

/** Publication/modification stamps of "now": site-local and UTC 'Y-m-d H:i:s'. */
export interface Stamps {
  local: string;
  utc: string;
}

export class Tx {
  readonly ops: Op[] = [];
  readonly stamps: Stamps;
  /** venues/organizers/terms/attachments created earlier in this same write (duplicate detection sees them) */
  readonly newVenues: VenueRecord[] = [];
  readonly newOrganizers: OrganizerRecord[] = [];
  readonly newTerms: TermRecord[] = [];
  readonly newAttachments: AttachmentRecord[] = [];
  private readonly reserved = new Map<SlugKind, Set<string>>();

  constructor(
    readonly core: Core,
    readonly actor: Actor,
  ) {
    const now = core.site.config.now();
    const epoch = now.getTime();
    this.stamps = {
      local: naiveToString(epochToZoned(epoch, core.site.config.timezone)),
      utc: naiveToString(Math.floor(epoch / 1000) * 1000),
    };
  }

  get engine(): EngineApi {
    return this.core.engine;
  }

  /** WordPress wp_unique_post_slug / wp_unique_term_slug: base, base-2, base-3 ... skipping `selfId`. */
  uniqueSlug(kind: SlugKind, base: string, selfId: number): string {
    if (base === '') return '';
    let candidate = base;
    for (let n = 2; this.slugTaken(kind, candidate, selfId); n++) candidate = `${base}-${n}`;
    let set = this.reserved.get(kind);
    if (!set) this.reserved.set(kind, (set = new Set()));
    set.add(candidate);
    return candidate;
  }

  slugTaken(kind: SlugKind, slug: string, selfId: number): boolean {
    if (this.reserved.get(kind)?.has(slug)) return true;
    const e = this.engine;
    switch (kind) {
      case 'event': {
        const row = e.eventRowBySlug(slug);
        return row !== -1 && e.eventId(row) !== selfId;
      }
      case 'venue': {
        const v = e.venueBySlug(slug);
        return v !== undefined && v.id !== selfId;
      }
      case 'organizer': {
        const o = e.organizerBySlug(slug);
        return o !== undefined && o.id !== selfId;
      }
      default: {
        const t = e.termBySlug(kind, slug);
        return t !== undefined && t.id !== selfId;
      }
    }
  }
}
