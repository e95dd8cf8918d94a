// What the renderer (render.ts) keeps in its cache per record, and what each entry is counted at
// against the cache's byte budget: strings at their length plus V8's header, objects at their
// strings plus an estimate of the object itself. Each entry's empty form, and a venue's or
// organizer's template copied for a caller.

import type { EventHead } from '../events/head.ts';

export type Obj = Record<string, unknown>;

/** What a cached string costs beyond its one byte per character (V8 header and alignment). */
export const STRING_OVERHEAD = 24;
/** An entry object and its slot. */
export const ENTRY_OVERHEAD = 96;
/**
 * A head object template beyond its strings: the object, 4 details objects, cost details and the
 * small arrays. With these overheads the estimate errs on the safe side: on 20k generated events
 * the cache counted 2,763 bytes per event for the head objects where the heap grew by 2,158.
 */
export const HEAD_OBJECT_OVERHEAD = 1600;
export const LINKED_OBJECT_OVERHEAD = 700;

export interface EventEntry {
  /** own fields as JSON text, up to the opening of the categories: `{..."featured":false,"categories":[` */
  head: string | undefined;
  /** the text after the terms, from the venue to the closing brace: it holds no counts, so only a
   *  change of a venue or organizer the event shows drops it */
  tail: string | undefined;
  /** own fields as an object, copied for each caller */
  obj: EventHead | undefined;
  /** category ids, then tag ids, in the order the event shows them (by name); undefined: not
   *  known. Shared with every event that carries the same list (TermOrders): never changed */
  categories: readonly number[] | undefined;
  tags: readonly number[] | undefined;
  /** the head was copied to a one-byte flat string and the tail flattened (on their first read
   *  from the cache: pushEvent) */
  settled: boolean;
  bytes: number;
}

export interface LinkedEntry {
  json: string | undefined;
  obj: Obj | undefined;
  bytes: number;
}

export interface TermEntry {
  /** embedded form: text before the count, text after it, and the whole text at the current count
   *  as an event's list writes it: alone, after a comma, or opening the tags (TEXT_*) */
  pre: string | undefined;
  post: string | undefined;
  texts: [string, string, string] | undefined;
  embedded: Obj | undefined;
  /** standalone form (it shows the count: dropped when the count changes) */
  json: string | undefined;
  obj: Obj | undefined;
  bytes: number;
}

export const strBytes = (s: string | undefined): number => (s === undefined ? 0 : s.length + STRING_OVERHEAD);
export const textBytes = (o: Obj): number => {
  let n = 0;
  for (const k in o) {
    const v = o[k];
    if (typeof v === 'string') n += v.length + STRING_OVERHEAD;
  }
  return n;
};

/** An event's entry with nothing made yet. */
export const newEventEntry = (): EventEntry => ({
  head: undefined,
  tail: undefined,
  obj: undefined,
  categories: undefined,
  tags: undefined,
  settled: false,
  bytes: ENTRY_OVERHEAD,
});

/** A venue's or organizer's entry with nothing made yet. */
export const newLinkedEntry = (): LinkedEntry => ({ json: undefined, obj: undefined, bytes: ENTRY_OVERHEAD });

/** A term's entry with nothing made yet. */
export const newTermEntry = (): TermEntry => ({
  pre: undefined,
  post: undefined,
  texts: undefined,
  embedded: undefined,
  json: undefined,
  obj: undefined,
  bytes: ENTRY_OVERHEAD,
});

/** A venue/organizer template copied: new object, image and lineage; json_ld is never in a template. */
export function copyLinked(tmpl: Obj): Obj {
  const c = { ...tmpl };
  if (tmpl.image !== undefined) c.image = structuredClone(tmpl.image as Obj);
  c.global_id_lineage = (tmpl.global_id_lineage as string[]).slice();
  return c;
}
