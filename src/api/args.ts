// The arguments of the tribe/events/v1 routes, with name, type, description, default, required
// and enum: their types, and the lists of each resource's list and write calls, which the
// endpoint table (route-table.ts) puts on its routes.
// Sources: the interface's parameter lists, and the list and write rules of docs/behaviour.md.

import type { Action, Resource, WpResource } from './wordpress/types.ts';

export type ArgType = 'integer' | 'number' | 'string' | 'boolean' | 'array' | 'object';

export interface ArgSpec {
  type: ArgType | ArgType[];
  description: string;
  required?: boolean;
  default?: unknown;
  enum?: readonly string[];
  /** OpenAPI format hint: 'date-time', 'uri', 'email', 'double' */
  format?: string;
  /** element type when type is 'array' */
  items?: { type: ArgType | ArgType[] };
  /** 'path' for the id/slug of the route; everything else is a query (GET/DELETE) or body field */
  in?: 'path';
}

export type Args = Record<string, ArgSpec>;

/** The HTTP verbs WordPress registers; EDITABLE = POST, PUT, PATCH (same handler). */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export const READABLE: readonly Method[] = ['GET'];
export const CREATABLE: readonly Method[] = ['POST'];
export const EDITABLE: readonly Method[] = ['POST', 'PUT', 'PATCH'];
export const DELETABLE: readonly Method[] = ['DELETE'];

/** What a method of a route does. 'index', 'doc' and 'changes' are answered by the HTTP shell itself. */
export type Operation =
  | { resource: Resource | WpResource; action: Action }
  | { resource: 'index' | 'doc' | 'health' | 'changes'; action: 'get' }
  | { resource: 'media'; action: Action };

export interface EndpointSpec {
  methods: readonly Method[];
  op: Operation;
  summary: string;
  args: Args;
  /** status → description, for /doc */
  responses: Record<string, string>;
}

export interface RouteSpec {
  /** the route's namespace when it is not tribe/events/v1 (the WordPress core routes: 'wp/v2') */
  namespace?: string;
  /** path below the namespace in OpenAPI form: '', '/doc', '/events', '/events/{id}', '/events/by-slug/{slug}' */
  path: string;
  /** the same path as a WordPress route pattern: '/events/(?P<id>\d+)' */
  pattern: string;
  endpoints: EndpointSpec[];
}

export const NAMESPACE = 'tribe/events/v1';
export const MAX_PER_PAGE = 50;

/** Options that change the table: the site's default per_page (INTERFACE 4.2: 12 or 4). */
export interface ArgsOptions {
  perPage: number;
}

// ---

export const id = (what: string): ArgSpec => ({
  type: 'integer',
  in: 'path',
  required: true,
  description: `the ${what} post ID`,
});
export const termId = (what: string): ArgSpec => ({
  type: 'integer',
  in: 'path',
  required: true,
  description: `the ${what} term ID`,
});
export const slug = (what: string): ArgSpec => ({
  type: 'string',
  in: 'path',
  required: true,
  description: `the ${what} post name (slug)`,
});
const ints = (description: string): ArgSpec => ({ type: 'array', items: { type: 'integer' }, description });
const idsOrSlugs = (description: string): ArgSpec => ({
  type: 'array',
  items: { type: ['integer', 'string'] },
  description,
});
const dateArg = (description: string): ArgSpec => ({
  type: 'string',
  format: 'date-time',
  description: `${description} (a Unix timestamp or any date string PHP strtotime reads, e.g. "YYYY-MM-DD HH:MM:SS")`,
});
export const str = (description: string, extra: Partial<ArgSpec> = {}): ArgSpec => ({
  type: 'string',
  description,
  ...extra,
});
const bool = (description: string, extra: Partial<ArgSpec> = {}): ArgSpec => ({
  type: 'boolean',
  description,
  ...extra,
});

function paging(perPage: number, what: string): Args {
  return {
    page: { type: 'integer', default: 1, description: `the archive page to return (positive integer)` },
    per_page: {
      type: 'integer',
      default: perPage,
      description: `the number of ${what} to return per page; values above ${MAX_PER_PAGE} are capped at ${MAX_PER_PAGE}`,
    },
  };
}

const POST_STATUS =
  'a post status (publish, future, draft, pending, private, trash); callers who cannot edit this type may only ask for publish';

export function eventListArgs(perPage: number): Args {
  return {
    ...paging(perPage, 'events'),
    start_date: dateArg(
      'events that start on or after this date; whole days unless strict_dates; default yesterday 23:59, site time',
    ),
    end_date: dateArg(
      'events that end on or before this date; whole days unless strict_dates; default now + 24 months',
    ),
    starts_before: dateArg('events that start before this date'),
    starts_after: dateArg('events that start after this date'),
    ends_before: dateArg('events that end before this date'),
    ends_after: dateArg('events that end after this date'),
    strict_dates: str('when truthy, the date filters use the exact time given instead of whole days', {
      default: 'false',
    }),
    search: str('events whose title, excerpt or description contain every word of this string'),
    categories: idsOrSlugs('event category ids or slugs (array or comma-separated); events in any of them'),
    tags: idsOrSlugs('tag ids or slugs (array or comma-separated); events with any of them'),
    venue: ints('venue ids (array or comma-separated); events at any of them'),
    organizer: ints('organizer ids (array or comma-separated); events with any of them'),
    featured: bool('true: only featured events; false: only events that are not featured'),
    status: { type: ['string', 'array'], items: { type: 'string' }, description: POST_STATUS },
    geoloc: bool('true: events whose venue has coordinates; false: events whose venue has none, or no venue'),
    geoloc_lat: {
      type: 'number',
      format: 'double',
      description: 'latitude of the centre of a distance filter; geoloc_lng must also be given',
    },
    geoloc_lng: {
      type: 'number',
      format: 'double',
      description: 'longitude of the centre of a distance filter; geoloc_lat must also be given',
    },
    geoloc_radius: {
      type: 'number',
      format: 'double',
      default: 25,
      description: 'radius of the distance filter, in geoloc_unit',
    },
    geoloc_unit: str('unit of geoloc_radius', { enum: ['mi', 'km'], default: 'mi' }),
    include: ints('only events with these post ids (array or comma-separated); date filters are ignored'),
    post_parent: { type: 'integer', description: 'only events whose parent is this event id' },
    ticketed: bool('true: only events with tickets; false: only events without'),
    ticket: bool('alias of ticketed'),
  };
}

export function linkedListArgs(perPage: number, what: string): Args {
  return {
    ...paging(perPage, what),
    search: str(`${what} whose title, description, excerpt or details contain every word of this string`),
    event: { type: 'integer', description: `only ${what} linked to this event id` },
    has_events: str(
      `truthy: only ${what} linked to at least one event that is not a draft or pending; falsy: only the others`,
    ),
    only_with_upcoming: str(`truthy: only ${what} linked to upcoming events`, { default: 'false' }),
    status: { type: ['string', 'array'], items: { type: 'string' }, description: POST_STATUS },
  };
}

export function termListArgs(perPage: number, what: string, hierarchical: boolean): Args {
  return {
    ...paging(perPage, what),
    search: str(`${what} whose name or slug contains this string`),
    exclude: ints(`${what} ids to leave out`),
    include: ints(`only these ${what} ids`),
    order: str('sort direction', { enum: ['asc', 'desc'], default: 'asc' }),
    orderby: str('the term attribute to sort by', {
      enum: ['id', 'term_id', 'name', 'slug', 'term_group', 'description', 'count', 'include', 'parent', 'none'],
      default: 'name',
    }),
    hide_empty: bool(`hide ${what} not assigned to any event`, { default: true }),
    ...(hierarchical
      ? { parent: { type: 'integer', description: 'only direct children of this category id' } as ArgSpec }
      : {}),
    post: { type: 'integer', description: `only ${what} assigned to this event id` },
    event: { type: 'integer', description: 'alias of post; wins when both are given' },
    slug: str(`only the ${what} with this slug`),
  };
}

/** Post fields shared by events, venues and organizers (writes.md). */
const postFields: Args = {
  author: { type: 'integer', description: 'the author user id' },
  date: dateArg('the publication date, site time'),
  date_utc: dateArg('the publication date, UTC'),
  description: str('the description (HTML)'),
  status: str('the publication status; scaled down to pending for callers who cannot publish', {
    enum: ['publish', 'future', 'draft', 'pending', 'private'],
  }),
  image: { type: ['string', 'integer'], description: 'the featured image: an attachment id or an image URL' },
};

export function eventFields(create: boolean): Args {
  return {
    title: str('the event title', { required: create }),
    ...postFields,
    slug: str('the event slug'),
    excerpt: str('the event excerpt (HTML)'),
    timezone: str('the event time zone: an IANA name or a UTC+n offset; default the site time zone'),
    all_day: bool('whether the event lasts all day', create ? { default: false } : {}),
    start_date: { ...dateArg('the start date and time, in the event time zone'), required: create },
    end_date: { ...dateArg('the end date and time, in the event time zone'), required: create },
    cost: {
      type: ['string', 'array'],
      items: { type: 'string' },
      description: 'the cost, or several costs (e.g. "20$", ["0", "20$"])',
    },
    website: str('the event website URL', { format: 'uri' }),
    show_map: bool('whether to show a map'),
    show_map_link: bool('whether to show a map link'),
    hide_from_listings: bool('hide the event from lists'),
    sticky: bool('keep the event sticky in calendar views'),
    featured: bool('feature the event'),
    ticketed: bool('whether the event has tickets'),
    categories: idsOrSlugs('category ids or names (array or comma-separated); unknown names create categories'),
    tags: idsOrSlugs('tag ids or names (array or comma-separated); unknown names create tags'),
    venue: {
      type: ['integer', 'object', 'array'],
      description: 'the venue: an id, {"id": n}, or the fields of a new venue; 0 or [] removes it',
    },
    organizer: {
      type: ['integer', 'object', 'array'],
      description: 'organizers: ids, {"id": n} objects and/or the fields of new organizers; [] removes them',
    },
    recurrence: {
      type: ['string', 'object', 'boolean'],
      description:
        'makes the event a series: RFC 5545 lines (RRULE:, RDATE, EXDATE) or {"rules": [...], "rdates": [...], ' +
        '"exdates": [...]}, in the event time zone; null, false or "" makes it a single event again',
    },
    recurrence_scope: SCOPE_ARG,
  };
}

export const SCOPE_ARG: ArgSpec = {
  type: 'string',
  enum: ['this', 'following', 'all'],
  description:
    'on an occurrence: this (default: it becomes an exception, or an exclusion when deleted), following ' +
    '(the series splits before it) or all (the whole series)',
};

export function venueFields(create: boolean): Args {
  return {
    venue: str('the venue name', { required: create }),
    ...postFields,
    show_map: str('whether to show a map (truthy); true when left out'),
    show_map_link: str('whether to show a map link (truthy); true when left out'),
    address: str('street address'),
    city: str('city'),
    country: str('country'),
    province: str('province'),
    state: str('state'),
    zip: str('postal code'),
    phone: str('phone number'),
    stateprovince: str('state or province'),
    website: str('the venue website URL', { format: 'uri' }),
    geo_lat: { type: 'number', format: 'double', description: 'latitude, -90 to 90' },
    geo_lng: { type: 'number', format: 'double', description: 'longitude, -180 to 180' },
  };
}

export function organizerFields(create: boolean): Args {
  return {
    organizer: str('the organizer name', { required: create }),
    ...postFields,
    phone: str('phone number'),
    website: str('the organizer website URL', { format: 'uri' }),
    email: str('email address', { format: 'email' }),
  };
}

export function termFields(create: boolean, hierarchical: boolean): Args {
  return {
    name: str('the term name', { required: create }),
    description: str('the term description'),
    slug: str('the term slug; derived from the name when left out'),
    ...(hierarchical ? { parent: { type: 'integer', description: 'the parent category id' } as ArgSpec } : {}),
  };
}
