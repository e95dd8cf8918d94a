// The fixed query mix: named GET /events calls (REST parameters exactly as a URL query string
// would deliver them, plus the acting user), covering every filter family. Ids are picked from
// the generated calendar by rule (rank, slug, seeded choice), so one seed gives one mix.

import { streamCalendar, type ImportData, type ImportEvent } from './generate.ts';
import { mulberry32 } from './stats.ts';
import type { BenchActor, QueryParams, SiteContext } from './baselines/semantics.ts';

/** The clock behind every default ("yesterday", "24 months ahead") in every implementation. */
export const NOW = new Date('2025-06-15T14:30:00Z');

/** The site every implementation answers as (UTC, 12 a page). */
export const SITE: SiteContext = { now: NOW, perPage: 12, siteUrl: 'http://127.0.0.1:8080', restPrefix: '/wp-json' };

export const EDITOR: BenchActor = { id: 0, login: 'editor', role: 'editor' };

export interface BenchQuery {
  name: string;
  /** one line for the docs */
  meaning: string;
  params: QueryParams;
  actor: BenchActor;
}

export function buildQueries(data: ImportData, seed: number): BenchQuery[] {
  const child = data.events.find(isParentPick);
  return buildQueriesFrom(
    {
      tags: data.tags,
      venues: data.venues,
      organizers: data.organizers,
      eventCount: data.events.length,
      eventId: (i) => data.events[i].id,
      parent: child?.post_parent ?? data.events[0]?.id ?? 1,
    },
    seed,
  );
}

/** the mix's parent: that of the first event that is a published, visible child inside the default window */
function isParentPick(e: ImportEvent): boolean {
  const nowDay = NOW.toISOString().slice(0, 10);
  return (
    e.post_parent !== undefined &&
    e.status === 'publish' &&
    !e.hide_from_listings &&
    e.start_date > nowDay &&
    e.end_date < '2027-06-15'
  );
}

/** What the mix is made from: the lists, the events by position, and the parent picked. */
export interface MixSource {
  tags: readonly { id: number }[];
  venues: readonly { id: number }[];
  organizers: readonly { id: number }[];
  eventCount: number;
  eventId: (index: number) => number;
  parent: number;
}

/**
 * The mix of buildQueries(generateCalendar({events, seed, now: NOW}), seed) without holding the
 * calendar: the generator is run only until the parent's child is found (the first few hundred
 * events), and the events' ids are their positions after the venues' and organizers' (the
 * generator numbers posts in that order, one id space).
 */
export function buildQueriesStreamed(events: number, seed: number): BenchQuery[] {
  let lists: Omit<ImportData, 'events'> | undefined;
  let parent: number | undefined;
  let firstId: number | undefined;
  const found = new Error('found');
  try {
    streamCalendar(
      { events, seed, now: NOW },
      (ev) => {
        firstId ??= ev.id;
        if (isParentPick(ev)) {
          parent = ev.post_parent;
          throw found;
        }
      },
      (l) => {
        lists = l;
      },
    );
  } catch (err) {
    if (err !== found) throw err;
  }
  if (!lists) throw new Error('the generator gave no lists');
  const first = lists.venues.length + lists.organizers.length + 1;
  if (firstId !== undefined && firstId !== first)
    throw new Error(`the generator's first event id is ${firstId}, not ${first}: buildQueriesStreamed is out of date`);
  return buildQueriesFrom(
    {
      tags: lists.tags,
      venues: lists.venues,
      organizers: lists.organizers,
      eventCount: events,
      eventId: (i) => first + i,
      parent: parent ?? (events > 0 ? first : 1),
    },
    seed,
  );
}

export function buildQueriesFrom(data: MixSource, seed: number): BenchQuery[] {
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
  while (include.length < Math.min(20, data.eventCount)) {
    const id = data.eventId(Math.floor(rand() * data.eventCount));
    if (!include.includes(id)) include.push(id);
  }
  const parent = data.parent;

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
