// Seeded random calendars and queries plus a deliberately simple reference model, shared by
// the engine property tests (not a test file itself).
import { naiveFromString, naiveToString } from '../../src/engine/naive-time.ts';
import { haversineKm } from '../../src/engine/geo.ts';
import {
  POST_STATUSES,
  type EventRecord,
  type Op,
  type OrganizerRecord,
  type PostStatus,
  type TermRecord,
  type VenueRecord,
} from '../../src/engine/records.ts';
import * as assert from 'uvu/assert';
import type { Engine } from '../../src/engine/engine.ts';
import type { EventQuery } from '../../src/engine/types.ts';
import type { ImportSet } from '../../src/engine/engine-api.ts';
import { makeEvent, makeOrganizer, makeTerm, makeVenue } from './build.ts';
export { mulberry32 } from '../../bench/stats.ts';

export class Rng {
  constructor(readonly next: () => number) {}
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  bool(p = 0.5): boolean {
    return this.next() < p;
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)];
  }
  some<T>(list: readonly T[], max: number): T[] {
    const n = this.int(0, max),
      out: T[] = [];
    for (let i = 0; i < n && list.length > 0; i++) out.push(this.pick(list));
    return out;
  }
}

const WORDS = [
  'concert',
  'jazz',
  'café',
  'Über',
  'naïve',
  'market',
  'yoga',
  'FESTIVAL',
  'talk',
  'crème',
  'brûlée',
  'run',
  'art',
  'Ångström',
];
const BASE = Date.UTC(2024, 0, 1);
const DAY = 86_400_000;

/** The engine's answer to `q` (total and page of ids) against the model's. */
export function checkQuery(engine: Engine, model: Model, q: EventQuery, label: string): void {
  const got = engine.query(q);
  const want = model.query(q);
  const ids = got.rows.map((row) => engine.eventId(row));
  if (got.total !== want.total || ids.join(',') !== want.ids.join(',')) {
    assert.unreachable(
      `${label}: query ${JSON.stringify(q)}\nexpected total ${want.total} ids ${want.ids.join(',')}\ngot      total ${got.total} ids ${ids.join(',')}`,
    );
  }
}

export const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** The reference model: plain records, updated by the same ops, filtered naively. */
export class Model {
  events = new Map<number, EventRecord>();
  venues = new Map<number, VenueRecord>();
  organizers = new Map<number, OrganizerRecord>();
  terms = new Map<number, TermRecord>();

  apply(op: Op): void {
    if (op.a === 'put') {
      const rec = structuredClone(op.rec);
      if (op.t === 'event') this.events.set(rec.id, rec as EventRecord);
      else if (op.t === 'venue') this.venues.set(rec.id, rec as VenueRecord);
      else if (op.t === 'organizer') this.organizers.set(rec.id, rec as OrganizerRecord);
      else if (op.t === 'term') this.terms.set(rec.id, rec as TermRecord);
      return;
    }
    const trash = <T extends { status: PostStatus; slug: string; modified: string; modifiedUtc: string }>(
      r: T,
      m: string,
      mu: string,
    ) => {
      r.status = 'trash';
      if (!r.slug.endsWith('__trashed')) r.slug += '__trashed';
      r.modified = m;
      r.modifiedUtc = mu;
    };
    if (op.t === 'event') trash(this.events.get(op.id)!, op.modified, op.modifiedUtc);
    else if (op.t === 'venue') {
      trash(this.venues.get(op.id)!, op.modified, op.modifiedUtc);
      for (const e of this.events.values()) e.venueIds = e.venueIds.filter((v) => v !== op.id);
    } else if (op.t === 'organizer') {
      trash(this.organizers.get(op.id)!, op.modified, op.modifiedUtc);
      for (const e of this.events.values()) e.organizerIds = e.organizerIds.filter((v) => v !== op.id);
    } else {
      const term = this.terms.get(op.id)!;
      this.terms.delete(op.id);
      for (const t of this.terms.values()) if (t.parent === op.id) t.parent = term.parent;
      for (const e of this.events.values()) {
        e.categoryIds = e.categoryIds.filter((v) => v !== op.id);
        e.tagIds = e.tagIds.filter((v) => v !== op.id);
      }
    }
  }

  termCount(id: number): number {
    let n = 0;
    for (const e of this.events.values())
      if (e.status === 'publish' && (e.categoryIds.includes(id) || e.tagIds.includes(id))) n++;
    return n;
  }

  private descendants(ids: number[]): Set<number> {
    const out = new Set<number>(ids);
    let grew = true;
    while (grew) {
      grew = false;
      for (const t of this.terms.values())
        if (out.has(t.parent) && !out.has(t.id)) {
          out.add(t.id);
          grew = true;
        }
    }
    return out;
  }

  /** ids of the matching events in result order, and the total */
  query(q: EventQuery): { ids: number[]; total: number } {
    const cats = q.categoryIds ? this.descendants(q.categoryIds) : undefined;
    const hasCoords = (vid: number) => {
      const v = this.venues.get(vid);
      return !!v && v.geoLat !== null && v.geoLng !== null;
    };
    const out: EventRecord[] = [];
    for (const e of this.events.values()) {
      if (e.hideFromListings) continue;
      if (!(q.statusMask & (1 << POST_STATUSES.indexOf(e.status)))) continue;
      const s = naiveFromString(e.startLocal),
        en = naiveFromString(e.endLocal);
      if (q.startGte !== undefined && !(s >= q.startGte)) continue;
      if (q.startGt !== undefined && !(s > q.startGt)) continue;
      if (q.startLt !== undefined && !(s < q.startLt)) continue;
      if (q.startLte !== undefined && !(s <= q.startLte)) continue;
      if (q.endGte !== undefined && !(en >= q.endGte)) continue;
      if (q.endGt !== undefined && !(en > q.endGt)) continue;
      if (q.endLt !== undefined && !(en < q.endLt)) continue;
      if (q.endLte !== undefined && !(en <= q.endLte)) continue;
      if (cats && !e.categoryIds.some((c) => cats.has(c))) continue;
      if (q.tagIds && !e.tagIds.some((c) => q.tagIds!.includes(c))) continue;
      if (q.venueIds && !e.venueIds.some((c) => q.venueIds!.includes(c))) continue;
      if (q.organizerIds && !e.organizerIds.some((c) => q.organizerIds!.includes(c))) continue;
      if (q.featured !== undefined && e.featured !== q.featured) continue;
      if (q.ticketed !== undefined && e.ticketed !== q.ticketed) continue;
      if (q.includeIds && !q.includeIds.includes(e.id)) continue;
      if (q.parentId !== undefined && e.parentId !== q.parentId) continue;
      if (q.geo?.kind === 'has-coords' && e.venueIds.some(hasCoords) !== q.geo.value) continue;
      if (q.geo?.kind === 'radius') {
        const g = q.geo;
        const near = e.venueIds.some((vid) => {
          const v = this.venues.get(vid);
          return (
            !!v && v.geoLat !== null && v.geoLng !== null && haversineKm(g.lat, g.lng, v.geoLat, v.geoLng) <= g.radiusKm
          );
        });
        if (!near) continue;
      }
      if (q.search) {
        const fields = [fold(e.title), fold(e.excerpt), fold(e.description)];
        if (!q.search.include.every((w) => fields.some((f) => f.includes(w)))) continue;
        if (q.search.exclude.some((w) => fields.some((f) => f.includes(w)))) continue;
      }
      out.push(e);
    }
    if (q.includeIds) out.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.id - b.id));
    else out.sort((a, b) => naiveFromString(a.startLocal) - naiveFromString(b.startLocal) || a.id - b.id);
    return { ids: out.slice(q.offset, q.offset + q.limit).map((e) => e.id), total: out.length };
  }
}

/** Generates records and ops with fresh ids; keeps a list of the ids it made. */
export class Generator {
  nextPost = 1;
  nextTerm = 1;
  categoryIds: number[] = [];
  tagIds: number[] = [];
  venueIds: number[] = [];
  organizerIds: number[] = [];
  eventIds: number[] = [];
  /** start times in use (to make ties and exact-boundary queries) */
  starts: number[] = [];
  /** end times in use (exact end-bound queries) */
  ends: number[] = [];

  constructor(
    readonly rng: Rng,
    /** the share of events at two venues */
    readonly multiVenue = 0.1,
  ) {}

  category(): TermRecord {
    const id = this.nextTerm++;
    const parent = this.categoryIds.length > 0 && this.rng.bool(0.6) ? this.rng.pick(this.categoryIds) : 0;
    this.categoryIds.push(id);
    return makeTerm(id, { parent, slug: `cat-${id}`, name: `Cat ${id}` });
  }

  tag(): TermRecord {
    const id = this.nextTerm++;
    this.tagIds.push(id);
    return makeTerm(id, { taxonomy: 'post_tag', slug: `tag-${id}`, name: `Tag ${id}` });
  }

  venue(id = this.nextPost++): VenueRecord {
    if (!this.venueIds.includes(id)) this.venueIds.push(id);
    const r = this.rng;
    const kind = r.int(0, 5);
    let lat: number | null = null,
      lng: number | null = null;
    if (kind === 1) {
      lat = 40 + r.next();
      lng = -74 + r.next();
    } else if (kind === 2) {
      lat = -10 + r.next() * 2;
      lng = r.bool() ? 179.5 + r.next() * 0.5 : -180 + r.next() * 0.5;
    } else if (kind === 3) {
      lat = 89 + r.next();
      lng = -180 + r.next() * 360;
    } else if (kind === 4) {
      lat = -90 + r.next() * 180;
      lng = -180 + r.next() * 360;
    }
    return makeVenue(id, { geoLat: lat, geoLng: lng, slug: `venue-${id}-${r.int(0, 9)}` });
  }

  organizer(): OrganizerRecord {
    const id = this.nextPost++;
    this.organizerIds.push(id);
    return makeOrganizer(id);
  }

  time(): number {
    const r = this.rng;
    if (this.starts.length > 0 && r.bool(0.2)) return r.pick(this.starts);
    return (
      BASE +
      r.int(0, 400) * DAY +
      r.pick([0, 9, 10, 12, 18, 23]) * 3_600_000 +
      r.pick([0, 0, 30 * 60_000, 59 * 60_000 + 59_000])
    );
  }

  event(id = this.nextPost++): EventRecord {
    const r = this.rng;
    if (!this.eventIds.includes(id)) this.eventIds.push(id);
    const start = this.time();
    this.starts.push(start);
    const allDay = r.bool(0.15);
    // a few long events (weeks to months: exhibitions, seasons) straddle most end bounds; an
    // update of an existing id draws new times, so writes also change events' lengths
    const length = r.bool(0.07)
      ? r.int(20, 150) * DAY + r.pick([0, 3_600_000])
      : r.pick([0, 3_600_000, 7_200_000, r.int(1, 6) * DAY]);
    const end = allDay
      ? Math.floor(start / DAY) * DAY + (r.bool(0.05) ? r.int(20, 90) : r.int(0, 3)) * DAY + DAY - 1000
      : start + length;
    const startAt = allDay ? Math.floor(start / DAY) * DAY : start;
    this.ends.push(end);
    const statuses: PostStatus[] = ['publish', 'publish', 'publish', 'draft', 'pending', 'private', 'future', 'trash'];
    const title = r.some(WORDS, 3).join(' ') || 'untitled';
    const pub = BASE - r.int(0, 30) * DAY + r.pick([0, 3_600_000]);
    const others = this.eventIds.filter((e) => e !== id);
    const rec = makeEvent(id, {
      status: r.pick(statuses),
      allDay,
      title,
      slug: `ev-${id}`,
      excerpt: r.bool(0.3) ? r.some(WORDS, 2).join(', ') : '',
      description: r.bool(0.5) ? `<p>${r.some(WORDS, 4).join(' ')}</p>` : '',
      date: naiveToString(pub),
      dateUtc: naiveToString(pub + 5 * 3_600_000),
      startLocal: naiveToString(startAt),
      endLocal: naiveToString(end),
      startUtc: naiveToString(startAt + 5 * 3_600_000),
      endUtc: naiveToString(end + 5 * 3_600_000),
      hideFromListings: r.bool(0.05),
      featured: r.bool(0.2),
      ticketed: r.bool(0.3),
      sticky: r.bool(0.05),
      venueIds: r.bool(this.multiVenue)
        ? r.some(this.venueIds, 2)
        : r.bool(0.8) && this.venueIds.length > 0
          ? [r.pick(this.venueIds)]
          : [],
      organizerIds: r.some(this.organizerIds, 3),
      categoryIds: r.some(this.categoryIds, 3),
      tagIds: r.some(this.tagIds, 3),
      parentId: others.length > 0 && r.bool(0.1) ? r.pick(others.slice(0, 50)) : 0,
      costs: r.bool(0.3) ? [String(r.int(0, 50))] : [],
      lineage: r.bool(0.02) ? ['site-a?id=1'] : undefined,
    });
    if (rec.lineage === undefined) delete rec.lineage;
    return rec;
  }

  initial(events: number): ImportSet {
    const set: ImportSet = { events: [], venues: [], organizers: [], terms: [], attachments: [] };
    for (let i = 0; i < 25; i++) set.terms.push(this.category());
    for (let i = 0; i < 15; i++) set.terms.push(this.tag());
    for (let i = 0; i < 40; i++) set.venues.push(this.venue());
    for (let i = 0; i < 20; i++) set.organizers.push(this.organizer());
    for (let i = 0; i < events; i++) set.events.push(this.event());
    return set;
  }

  /** a random write against the model's current content */
  op(model: Model): Op {
    const r = this.rng;
    const k = r.int(0, 99);
    const stamp = naiveToString(BASE + r.int(0, 100) * DAY);
    if (k < 30) return { t: 'event', a: 'put', rec: this.event() };
    if (k < 60) return { t: 'event', a: 'put', rec: this.event(r.pick(this.eventIds)) };
    if (k < 72) return { t: 'event', a: 'delete', id: r.pick(this.eventIds), modified: stamp, modifiedUtc: stamp };
    if (k < 80) return { t: 'venue', a: 'put', rec: this.venue(r.bool(0.5) ? undefined : r.pick(this.venueIds)) };
    if (k < 83) return { t: 'venue', a: 'delete', id: r.pick(this.venueIds), modified: stamp, modifiedUtc: stamp };
    if (k < 86)
      return { t: 'organizer', a: 'delete', id: r.pick(this.organizerIds), modified: stamp, modifiedUtc: stamp };
    if (k < 90) return { t: 'term', a: 'put', rec: r.bool() ? this.category() : this.tag() };
    if (k < 95 && this.categoryIds.length > 1) {
      // re-parent an existing category under a lower id (no cycles)
      const id = r.pick(this.categoryIds);
      const t = model.terms.get(id)!;
      const lower = this.categoryIds.filter((c) => c < id);
      // sometimes renamed too: an event shows its terms in name order, which the renamed one may change
      const name = r.bool(0.3) ? `${r.pick(['Alpha', 'zulu', 'Mid', 'mid'])} ${t.name}` : t.name;
      return { t: 'term', a: 'put', rec: { ...t, name, parent: lower.length > 0 && r.bool(0.7) ? r.pick(lower) : 0 } };
    }
    const pool = r.bool() ? this.categoryIds : this.tagIds;
    if (pool.length > 3) {
      const id = r.pick(pool);
      pool.splice(pool.indexOf(id), 1);
      return { t: 'term', a: 'delete', id };
    }
    return { t: 'event', a: 'put', rec: this.event() };
  }

  query(model: Model): EventQuery {
    const r = this.rng;
    const q: EventQuery = {
      statusMask: r.bool(0.4) ? 1 : r.bool(0.5) ? 0b10011111 : r.int(0, 255),
      offset: r.bool(0.6) ? 0 : r.int(0, 60),
      limit: r.bool(0.1) ? 0 : r.int(1, 40),
    };
    const bound = () =>
      r.bool(0.3) && this.ends.length > 0
        ? r.pick(this.ends)
        : r.bool(0.5)
          ? this.time()
          : this.time() + r.pick([-1000, 1000, DAY]);
    if (r.bool(0.5)) q.startGte = bound();
    if (r.bool(0.15)) q.startGt = bound();
    if (r.bool(0.2)) q.startLt = bound();
    if (r.bool(0.2)) q.startLte = bound();
    if (r.bool(0.15)) q.endGte = bound();
    if (r.bool(0.15)) q.endGt = bound();
    if (r.bool(0.15)) q.endLt = bound();
    if (r.bool(0.4)) q.endLte = bound();
    if (r.bool(0.25)) q.categoryIds = [...r.some(this.categoryIds, 3), ...(r.bool(0.1) ? [9999] : [])];
    if (r.bool(0.15)) q.tagIds = r.some(this.tagIds, 3);
    if (r.bool(0.15)) q.venueIds = r.some(this.venueIds, 12);
    if (r.bool(0.15)) q.organizerIds = r.some(this.organizerIds, 3);
    if (r.bool(0.2)) q.featured = r.bool();
    if (r.bool(0.2)) q.ticketed = r.bool();
    if (r.bool(0.1)) q.includeIds = [...r.some(this.eventIds, 25), ...r.some(this.venueIds, 2), 424242];
    if (r.bool(0.08)) q.parentId = r.pick(this.eventIds.slice(0, 50));
    if (r.bool(0.15)) {
      if (r.bool(0.4)) q.geo = { kind: 'has-coords', value: r.bool() };
      else {
        const withCoords = [...model.venues.values()].filter((v) => v.geoLat !== null);
        const a = r.pick(withCoords),
          b = r.pick(withCoords);
        const lat = r.bool(0.7) ? a.geoLat! : -90 + r.next() * 180,
          lng = r.bool(0.7) ? a.geoLng! : -180 + r.next() * 360;
        // often exactly the distance to another venue: that venue is on the radius
        const radiusKm = r.bool(0.5)
          ? haversineKm(lat, lng, b.geoLat!, b.geoLng!)
          : r.pick([0, 1, 50, 200, 3000, 25000]);
        q.geo = { kind: 'radius', lat, lng, radiusKm };
      }
    }
    if (r.bool(0.15))
      q.search = { include: r.some(WORDS.map(fold), 2), exclude: r.bool(0.3) ? r.some(WORDS.map(fold), 1) : [] };
    return q;
  }
}
