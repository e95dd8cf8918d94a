// Baseline 1: plain arrays of plain objects. Every list call runs Array.filter over all events,
// sorts the matches, slices the page, builds the page's REST objects and JSON.stringify's the
// envelope. Only the folded search text is prepared at load (a sensible plain implementation
// would not re-normalize a million descriptions per query).

import type { ImportData, ImportEvent } from '../generate.ts';
import { buildLinkedObjects, representEvent, type LinkedObjects } from './represent.ts';
import {
  BadRequest,
  badRequestResult,
  createVocabulary,
  envelopeObject,
  fold,
  haversineKm,
  PAGE_NOT_FOUND_BODY,
  resolveQuery,
  type BenchActor,
  type ListResult,
  type QueryParams,
  type SiteContext,
  type Vocabulary,
} from './semantics.ts';

export class ArraysBaseline {
  readonly events: ImportEvent[];
  private readonly folded: string[];
  private readonly venueCoords: Map<number, [number, number]>;
  private readonly vocab: Vocabulary;
  private readonly linked: LinkedObjects;

  constructor(
    data: ImportData,
    private readonly site: SiteContext,
  ) {
    this.events = data.events;
    // one haystack per event; \u0001 never occurs in a term, so a term matches the joined
    // string exactly when it matches one of the three fields
    this.folded = data.events.map((e) => fold(e.title + '\u0001' + e.excerpt + '\u0001' + e.description));
    this.venueCoords = new Map();
    for (const v of data.venues)
      if (v.geo_lat != null && v.geo_lng != null) this.venueCoords.set(v.id, [v.geo_lat, v.geo_lng]);
    this.vocab = createVocabulary(data);
    this.linked = buildLinkedObjects(data, site);
  }

  list(params: QueryParams, actor: BenchActor): ListResult {
    let f;
    try {
      f = resolveQuery(params, actor, this.vocab, this.site);
    } catch (e) {
      if (e instanceof BadRequest) return badRequestResult(e);
      throw e;
    }
    const statuses = new Set(f.statuses);
    const cats = f.categoryIds && new Set(f.categoryIds);
    const tags = f.tagIds && new Set(f.tagIds);
    const venues = f.venueIds && new Set(f.venueIds);
    const orgs = f.organizerIds && new Set(f.organizerIds);
    const include = f.includeIds && new Set(f.includeIds);
    let geoVenues: Set<number> | undefined,
      geoWanted = true;
    if (f.geo) {
      geoVenues = new Set();
      const g = f.geo;
      for (const [id, [lat, lng]] of this.venueCoords) {
        if (g.kind === 'has-coords' || haversineKm(g.lat, g.lng, lat, lng) <= g.radiusKm) geoVenues.add(id);
      }
      geoWanted = g.kind === 'radius' || g.value;
    }
    const search = f.search;
    const folded = this.folded;

    const matches = this.events.filter((e, i) => {
      if (e.hide_from_listings || !statuses.has(e.status)) return false;
      if (f.startGte !== undefined && e.start_date < f.startGte) return false;
      if (f.startGt !== undefined && !(e.start_date > f.startGt)) return false;
      if (f.startLt !== undefined && !(e.start_date < f.startLt)) return false;
      if (f.endLte !== undefined && e.end_date > f.endLte) return false;
      if (f.endGt !== undefined && !(e.end_date > f.endGt)) return false;
      if (f.endLt !== undefined && !(e.end_date < f.endLt)) return false;
      if (include && !include.has(e.id)) return false;
      if (cats && !e.categories.some((c) => cats.has(c))) return false;
      if (tags && !e.tags.some((t) => tags.has(t))) return false;
      if (venues && !venues.has(e.venue)) return false;
      if (orgs && !e.organizer.some((o) => orgs.has(o))) return false;
      if (f.featured !== undefined && e.featured !== f.featured) return false;
      if (f.ticketed !== undefined && e.ticketed !== f.ticketed) return false;
      if (f.parentId !== undefined && e.post_parent !== f.parentId) return false;
      if (geoVenues && geoVenues.has(e.venue) !== geoWanted) return false;
      if (search) {
        const h = folded[i];
        for (const t of search.include) if (!h.includes(t)) return false;
        for (const t of search.exclude) if (h.includes(t)) return false;
      }
      return true;
    });

    if (include) matches.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.id - b.id));
    else matches.sort((a, b) => (a.start_date < b.start_date ? -1 : a.start_date > b.start_date ? 1 : a.id - b.id));

    const page = matches.slice(f.offset, f.offset + f.perPage);
    const ids = page.map((e) => e.id);
    if (f.page > 1 && page.length === 0) return { status: 404, total: matches.length, ids, body: PAGE_NOT_FOUND_BODY };
    const objects = page.map((e) => representEvent(e, this.linked, this.site));
    return {
      status: 200,
      total: matches.length,
      ids,
      body: JSON.stringify(envelopeObject(f, objects, matches.length)),
    };
  }

  /** The page's objects, ready to stringify (the floor baseline uses this when the engine is absent). */
  pageObject(params: QueryParams, actor: BenchActor): unknown {
    return JSON.parse(this.list(params, actor).body);
  }
}
