// GET /venues and GET /organizers (docs/behaviour.md): search, event, has_events,
// only_with_upcoming, status; newest publication date first. These tables are small (one venue
// per hundreds of events), so a scan over them is the plan; event links come from postings.

import { naiveFromString } from '../../engine/naive-time.ts';
import { POST_STATUSES, type OrganizerRecord, type VenueRecord } from '../../engine/records.ts';
import type { Core } from '../context.ts';
import { fail, invalidParams } from '../wordpress/errors.ts';
import { defaultStatusArg, defaultStatusMask, readPaging, statusMaskParam, type Paging } from '../list-paging.ts';
import { Problems, asId, asString, has, isTruthy } from '../wordpress/params.ts';
import { foldForSearch, linkedPostSearchWords } from '../wordpress/text.ts';
import type { Actor, Params } from '../wordpress/types.ts';

type Linked = VenueRecord | OrganizerRecord;

const VENUE_FIELDS = [
  'title',
  'description',
  'excerpt',
  'address',
  'city',
  'province',
  'state',
  'stateprovince',
  'zip',
  'phone',
] as const;
const ORGANIZER_FIELDS = ['title', 'description', 'excerpt', 'phone', 'email', 'website'] as const;

export interface LinkedListResult {
  records: Linked[];
  total: number;
  paging: Paging;
  urlArgs: Array<[string, string]>;
}

const COUNTS_FOR_HAS_EVENTS = ~((1 << POST_STATUSES.indexOf('draft')) | (1 << POST_STATUSES.indexOf('pending')));

/** A validated venue or organizer list call: everything its answer is made from. */
export interface LinkedListPlan {
  kind: 'venue' | 'organizer';
  paging: Paging;
  statusMask: number;
  /** the search's words (every one must occur in one field) */
  words: string[] | undefined;
  eventId: number | undefined;
  hasEvents: boolean | undefined;
  upcoming: boolean;
  /** the calendar's clock, to the second (only_with_upcoming compares with it) */
  nowMs: number;
  /** the statuses of events that count as upcoming: the caller's default ones */
  upcomingMask: number;
  urlArgs: Array<[string, string]>;
}

/** Validate a venue or organizer list call (every problem reported at once). */
export function planLinkedList(core: Core, kind: 'venue' | 'organizer', params: Params, actor: Actor): LinkedListPlan {
  // a search given as an object (search[]=…) is refused before anything else is read
  if (has(params, 'search') && typeof params.search === 'object') throw invalidParams({ search: 'Invalid parameter.' });
  const problems = new Problems();
  const engine = core.engine;
  const paging = readPaging(core, params, problems);
  const urlArgs: Array<[string, string]> = [];
  let statusMask = defaultStatusMask(actor);
  let statusArg = defaultStatusArg(actor);
  if (has(params, 'status')) {
    const mask = statusMaskParam(params.status, actor);
    if (mask === undefined) problems.add('status');
    else {
      statusMask = mask;
      statusArg = String(params.status);
    }
  }
  let words: string[] | undefined;
  if (has(params, 'search')) {
    const s = asString(params.search);
    if (s === undefined || s === '') problems.add('search');
    else {
      words = linkedPostSearchWords(s);
      urlArgs.push(['search', s]);
    }
  }
  let eventId: number | undefined;
  if (has(params, 'event')) {
    const id = asId(params.event);
    if (id === undefined || engine.postKind(id) !== 'event') problems.add('event');
    else {
      eventId = id;
      urlArgs.push(['event', String(id)]);
    }
  }
  if (problems.any) throw invalidParams(problems.reasons);
  const hasEvents = has(params, 'has_events') ? isTruthy(params.has_events) : undefined;
  if (hasEvents !== undefined) urlArgs.push(['has_events', String(params.has_events)]);
  const upcoming = has(params, 'only_with_upcoming') && isTruthy(params.only_with_upcoming);
  if (upcoming) urlArgs.push(['only_with_upcoming', '1']);
  urlArgs.push(['status', statusArg]);
  const nowMs = Math.floor(core.site.config.now().getTime() / 1000) * 1000;
  const upcomingMask = defaultStatusMask(actor);
  return { kind, paging, statusMask, words, eventId, hasEvents, upcoming, nowMs, upcomingMask, urlArgs };
}

/** The key of a venue or organizer list page in the page cache (page-cache.ts): what its answer is
 *  made from. The status mask stands for the caller (a role's default statuses, or those it asked
 *  for); the clock only when only_with_upcoming reads it. */
export function linkedPageKey(plan: LinkedListPlan): string {
  const p = plan.paging;
  const when = plan.upcoming ? `${plan.nowMs}/${plan.upcomingMask}` : '';
  return `${plan.kind}s ${p.page} ${p.perPage} ${plan.statusMask} ${when} ${JSON.stringify(plan.urlArgs)}`;
}

/** The records of a planned list call, newest first, and its total; a page past the last one
 *  (page > 1 with nothing on it) is a 404. */
export function runLinkedList(core: Core, plan: LinkedListPlan): LinkedListResult {
  const { kind, paging, statusMask, words, eventId, hasEvents, upcoming, nowMs, upcomingMask, urlArgs } = plan;
  const engine = core.engine;
  const eventLinks =
    eventId !== undefined
      ? new Set(engine.eventRecord(engine.eventRow(eventId))[kind === 'venue' ? 'venueIds' : 'organizerIds'])
      : undefined;
  const fields = kind === 'venue' ? VENUE_FIELDS : ORGANIZER_FIELDS;

  // in the list's order already (newest first, kept sorted by the engine between writes)
  const matches: Linked[] = [];
  const all = engine.linkedNewestFirst(kind);
  for (let i = 0; i < all.length; i++) {
    const r = all[i];
    if ((statusMask & (1 << POST_STATUSES.indexOf(r.status))) === 0) continue;
    if (eventLinks && !eventLinks.has(r.id)) continue;
    if (words && !matchesSearch(r, fields, words)) continue;
    if (hasEvents !== undefined || upcoming) {
      const rows = engine.linkedEventRows(kind, r.id);
      if (hasEvents !== undefined) {
        const any = rows.some(
          (row) => (COUNTS_FOR_HAS_EVENTS & (1 << POST_STATUSES.indexOf(engine.eventStatus(row)))) !== 0,
        );
        if (any !== hasEvents) continue;
      }
      if (upcoming && !rows.some((row) => isUpcoming(core, row, nowMs, upcomingMask))) continue;
    }
    matches.push(r);
  }
  const offset = (paging.page - 1) * paging.perPage;
  const records = matches.slice(offset, offset + paging.perPage);
  if (paging.page > 1 && records.length === 0)
    throw fail(kind === 'venue' ? 'venue-archive-page-not-found' : 'organizer-archive-page-not-found');
  return { records, total: matches.length, paging, urlArgs };
}

function isUpcoming(core: Core, row: number, nowMs: number, mask: number): boolean {
  const e = core.engine;
  if ((mask & (1 << POST_STATUSES.indexOf(e.eventStatus(row)))) === 0) return false;
  return naiveFromString(e.eventRecord(row).startLocal) >= nowMs;
}

/** OR across fields; within one field every word must occur (case- and accent-insensitive). */
function matchesSearch(r: Linked, fields: readonly string[], words: string[]): boolean {
  if (words.length === 0) return true;
  const rec = r as unknown as Record<string, unknown>;
  return fields.some((f) => {
    const value = rec[f];
    if (typeof value !== 'string' || value === '') return false;
    const folded = foldForSearch(value);
    return words.every((w) => folded.includes(w));
  });
}
