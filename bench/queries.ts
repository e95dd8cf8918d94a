// The fixed query mix: named GET /events calls (REST parameters exactly as a URL query string
// would deliver them, plus the acting user), covering every filter family. Ids are picked from
// the generated calendar by rule (rank, slug, seeded choice), so one seed gives one mix.

import type { ImportData } from './generate.ts';
import { mulberry32 } from './stats.ts';
import type { BenchActor, QueryParams } from './baselines/semantics.ts';

/** The clock behind every default ("yesterday", "24 months ahead") in every implementation. */
export const NOW = new Date('2025-06-15T14:30:00Z');

export const EDITOR: BenchActor = { id: 0, login: 'editor', role: 'editor' };

export interface BenchQuery {
  name: string;
  /** one line for the docs */
  meaning: string;
  params: QueryParams;
  actor: BenchActor;
}

export function buildQueries(data: ImportData, seed: number): BenchQuery[] {
  const rand = mulberry32(seed ^ 0x5eed);
  const q = (name: string, meaning: string, params: QueryParams, actor: BenchActor = null): BenchQuery => ({
    name,
    meaning,
    params,
    actor,
  });
  // the generator draws tags, venues and organizers by Zipf rank = array position
  const tag = (rank: number) => String(data.tags[Math.min(rank, data.tags.length - 1)].id);
  const venue = (rank: number) => String(data.venues[Math.min(rank, data.venues.length - 1)].id);
  const organizer = (rank: number) => String(data.organizers[Math.min(rank, data.organizers.length - 1)].id);
  const include: number[] = [];
  while (include.length < Math.min(20, data.events.length)) {
    const id = data.events[Math.floor(rand() * data.events.length)].id;
    if (!include.includes(id)) include.push(id);
  }
  // a parent whose first listed child is published, visible and inside the default window
  const nowDay = NOW.toISOString().slice(0, 10);
  const child = data.events.find(
    (e) =>
      e.post_parent !== undefined &&
      e.status === 'publish' &&
      !e.hide_from_listings &&
      e.start_date > nowDay &&
      e.end_date < '2027-06-15',
  );
  const parent = child?.post_parent ?? data.events[0]?.id ?? 1;

  return [
    q('default', 'no parameters: the default window (yesterday 00:00 … end of the day 24 months ahead), page 1', {}),
    q('range', 'start_date + end_date: events contained in September 2025 (whole days)', {
      start_date: '2025-09-01',
      end_date: '2025-09-30',
    }),
    q('overlap', 'starts_before + ends_after: events overlapping 24–31 Dec 2025 (end-of-day rounding)', {
      starts_before: '2025-12-31',
      ends_after: '2025-12-24',
    }),
    q('strict', 'strict_dates: start ≥ 2025-07-04 18:00:00 and end ≤ 2025-07-06 06:00:00, no rounding', {
      start_date: '2025-07-04 18:00:00',
      end_date: '2025-07-06 06:00:00',
      strict_dates: 'true',
    }),
    q('category', 'categories=music (by slug): a parent category, children and grandchildren included', {
      categories: 'music',
    }),
    q('tags', 'tags: two tags (Zipf ranks 3 and 10), OR', { tags: `${tag(3)},${tag(10)}` }),
    q('venue', 'venue: one busy venue (rank 2)', { venue: venue(2) }),
    q('organizer', 'organizer: two organizers (ranks 1 and 7), OR', { organizer: `${organizer(1)},${organizer(7)}` }),
    q('featured', 'featured=true', { featured: 'true' }),
    q('search', 'search=pottery: one word of moderate selectivity in title/excerpt/description', { search: 'pottery' }),
    q('search-accent', 'search="creme brulee": two terms, both must match, accent-folded (Crème Brûlée)', {
      search: 'creme brulee',
    }),
    q('geo-radius', 'geoloc_lat/lng at Paris, geoloc_radius=10 geoloc_unit=km: venues within 10 km', {
      geoloc_lat: '48.8566',
      geoloc_lng: '2.3522',
      geoloc_radius: '10',
      geoloc_unit: 'km',
    }),
    q('geoloc', "geoloc=true: the event's venue has coordinates", { geoloc: 'true' }),
    q('status-editor', 'status=draft,pending as an editor', { status: 'draft,pending' }, EDITOR),
    q('include', 'include: 20 seeded event ids (date filters ignored, ordered by publication date)', {
      include: include.join(','),
    }),
    q('ticketed', 'ticketed=true', { ticketed: 'true' }),
    q('combined', 'categories=arts + start_date/end_date (H2 2025) + featured=true', {
      categories: 'arts',
      start_date: '2025-07-01',
      end_date: '2025-12-31',
      featured: 'true',
    }),
    q('deep-page', 'no filters, page=50 (offset 588)', { page: '50' }),
    q('children', 'post_parent: the recurrence children of one event', { post_parent: String(parent) }),
  ];
}
