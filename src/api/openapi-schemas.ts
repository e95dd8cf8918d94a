// The schemas of the OpenAPI document of GET /doc (openapi.ts): the plugin's representations
// (events, venues, organizers, terms), WordPress core's (wp/v2), errors, the change feed's path,
// the index and the health answer.

import type { Resource, WpResource } from './wordpress/types.ts';

export type Schema = Record<string, unknown>;

export const str = { type: 'string' };
export const int = { type: 'integer' };
export const bool = { type: 'boolean' };
const strings = { type: 'array', items: str };
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const postCommon: Record<string, Schema> = {
  id: int,
  global_id: str,
  global_id_lineage: strings,
  author: { type: 'string', description: 'the author user id, as a string' },
  status: str,
  date: str,
  date_utc: str,
  modified: str,
  modified_utc: str,
  url: { type: 'string', format: 'uri' },
  slug: str,
  description: str,
  excerpt: str,
  image: { oneOf: [ref('Image'), bool], description: 'the featured image, or false' },
  json_ld: { type: 'object', description: 'schema.org data; single GET only' },
};

const MEDIA_SIZE: Schema = {
  type: 'object',
  properties: { file: str, width: int, height: int, filesize: int, mime_type: str, source_url: str },
};
const RENDERED: Schema = { type: 'object', properties: { rendered: str } };

export const COMPONENTS: Record<string, Schema> = {
  Media: {
    type: 'object',
    description: "a media library item, as WordPress core's /wp/v2/media shows it",
    properties: {
      id: int,
      date: str,
      date_gmt: str,
      guid: RENDERED,
      modified: str,
      modified_gmt: str,
      slug: str,
      status: { type: 'string', enum: ['inherit'] },
      type: { type: 'string', enum: ['attachment'] },
      link: str,
      title: RENDERED,
      author: int,
      description: RENDERED,
      caption: RENDERED,
      alt_text: str,
      media_type: { type: 'string', enum: ['image'] },
      mime_type: str,
      media_details: {
        type: 'object',
        properties: {
          width: int,
          height: int,
          file: str,
          filesize: int,
          sizes: { type: 'object', additionalProperties: MEDIA_SIZE },
          image_meta: { type: 'object' },
        },
      },
      post: { type: 'integer', nullable: true },
      source_url: str,
      _links: { type: 'object' },
    },
  },
  ImageSize: { type: 'object', properties: { width: int, height: int, 'mime-type': str, url: str } },
  Image: {
    type: 'object',
    properties: {
      url: str,
      id: int,
      extension: str,
      width: int,
      height: int,
      filesize: int,
      sizes: { type: 'object', additionalProperties: ref('ImageSize') },
    },
  },
  CostDetails: {
    type: 'object',
    properties: {
      currency_symbol: str,
      currency_code: str,
      currency_position: { type: 'string', enum: ['prefix', 'postfix', ''] },
      values: strings,
    },
  },
  DateDetails: {
    type: 'object',
    properties: { year: str, month: str, day: str, hour: str, minutes: str, seconds: str },
  },
  Term: {
    type: 'object',
    properties: {
      id: int,
      name: str,
      slug: str,
      taxonomy: str,
      description: str,
      parent: int,
      count: int,
      url: str,
      meta: {},
      urls: { type: 'object', properties: { self: str, collection: str, up: str } },
    },
  },
  Venue: {
    type: 'object',
    properties: {
      ...postCommon,
      venue: str,
      show_map: bool,
      show_map_link: bool,
      address: str,
      city: str,
      country: str,
      province: str,
      state: str,
      zip: str,
      phone: str,
      website: str,
      stateprovince: str,
      geo_lat: { type: 'number' },
      geo_lng: { type: 'number' },
    },
  },
  Organizer: {
    type: 'object',
    properties: { ...postCommon, organizer: str, phone: str, website: str, email: str },
  },
  Event: {
    type: 'object',
    properties: {
      ...postCommon,
      rest_url: str,
      title: str,
      all_day: bool,
      start_date: str,
      start_date_details: ref('DateDetails'),
      end_date: str,
      end_date_details: ref('DateDetails'),
      utc_start_date: str,
      utc_start_date_details: ref('DateDetails'),
      utc_end_date: str,
      utc_end_date_details: ref('DateDetails'),
      timezone: str,
      timezone_abbr: str,
      cost: str,
      cost_details: ref('CostDetails'),
      website: str,
      show_map: bool,
      show_map_link: bool,
      hide_from_listings: bool,
      sticky: bool,
      featured: bool,
      categories: { type: 'array', items: ref('Term') },
      tags: { type: 'array', items: ref('Term') },
      venue: { oneOf: [ref('Venue'), { type: 'array', items: ref('Venue') }] },
      organizer: { type: 'array', items: ref('Organizer') },
      custom_fields: {},
      recurrence: {
        type: 'object',
        description: 'a series only: its rules, extra and excluded dates, and their RFC 5545 lines',
        properties: { rules: strings, rdates: strings, exdates: strings, text: str },
      },
      post_parent: { ...int, description: 'an occurrence only: its series' },
      recurrence_id: {
        ...str,
        description: "an occurrence only: its original start, 'Y-m-d H:i:s' in the series' zone",
      },
      is_exception: { ...bool, description: 'an occurrence only: edited on its own' },
    },
  },
};

export const ITEM_SCHEMA: Record<Resource | WpResource, string> = {
  events: 'Event',
  venues: 'Venue',
  organizers: 'Organizer',
  categories: 'Term',
  tags: 'Term',
  'wp-tags': 'WpTerm',
  'wp-categories': 'WpTerm',
  'wp-events': 'WpPost',
  'wp-venues': 'WpPost',
  'wp-organizers': 'WpPost',
  'wp-users': 'WpUser',
  'wp-me': 'WpUser',
};

const rendered = { type: 'object', properties: { rendered: str } };
const links = { type: 'object', description: 'HAL links (self, collection, about, wp:term ... and curies)' };

/** The WordPress core representations of the wp/v2 routes (view context). */
export const WP_COMPONENTS: Record<string, Schema> = {
  WpTerm: {
    type: 'object',
    properties: {
      id: int,
      count: int,
      description: str,
      link: str,
      name: str,
      slug: str,
      taxonomy: str,
      parent: { type: 'integer', description: 'event categories only' },
      meta: { type: 'array' },
      _links: links,
    },
  },
  WpPost: {
    type: 'object',
    properties: {
      id: int,
      date: str,
      date_gmt: str,
      guid: rendered,
      modified: str,
      modified_gmt: str,
      slug: str,
      status: str,
      type: str,
      link: str,
      title: rendered,
      content: { type: 'object', properties: { rendered: str, protected: bool } },
      excerpt: { type: 'object', description: 'events only', properties: { rendered: str, protected: bool } },
      author: { type: 'integer', description: 'events only' },
      featured_media: { type: 'integer', description: 'events only' },
      template: str,
      meta: { type: 'object', description: 'events only: the meta keys the plugin registers (_EventStartDate ...)' },
      tribe_events_cat: { type: 'array', items: int, description: 'events only' },
      tags: { type: 'array', items: int, description: 'events only' },
      _links: links,
    },
  },
  WpUser: {
    type: 'object',
    properties: {
      id: int,
      name: str,
      url: str,
      description: str,
      link: str,
      slug: str,
      avatar_urls: { type: 'object', additionalProperties: str },
      meta: { type: 'array' },
      _links: links,
    },
  },
};

export const ERROR_SCHEMA: Schema = {
  type: 'object',
  properties: { code: str, message: str, data: { type: 'object', properties: { status: int } } },
};

const CHANGE_SCHEMA: Schema = {
  type: 'object',
  properties: {
    seq: { ...int, description: "the write's sequence number: the changes of one write share it" },
    time: { ...str, description: 'when the write was acknowledged, ISO 8601 UTC' },
    type: { type: 'string', enum: ['event', 'venue', 'organizer', 'category', 'tag'] },
    action: { type: 'string', enum: ['created', 'updated', 'trashed', 'deleted'] },
    id: int,
    author: { ...int, description: 'the user who made the write (0: the site itself)' },
    fields: { type: 'object', description: 'for creates and updates: the fields that changed, with their new values' },
  },
};

/** GET /changes: the change feed (calendar-engine's own route; not in The Events Calendar). */
export const CHANGES_PATH = {
  get: {
    summary: 'The change feed: every acknowledged write as change records, in order',
    description:
      'A JSON page of the changes after `since` (pass `next` as the next `since`). With `Accept: text/event-stream`, ' +
      'Server-Sent Events instead: one event per write (`id:` its seq, `event: changes`, `data:` the JSON array of its change ' +
      'records), live, resumed from the `Last-Event-ID` header, with a heartbeat comment every 15 s; gzipped ' +
      '(`Content-Encoding: gzip`) when `Accept-Encoding` accepts gzip. Readers see the changes ' +
      'of records they may read: anonymous readers those of published records, drafts only their readers.',
    operationId: 'getChanges',
    tags: ['changes'],
    parameters: [
      {
        name: 'since',
        in: 'query',
        required: false,
        description: 'changes with a greater seq (default: the oldest retained; for a stream: from now on)',
        schema: { type: 'integer', minimum: 0 },
      },
      {
        name: 'types',
        in: 'query',
        required: false,
        description: 'comma-separated: event, venue, organizer, category, tag, media',
        schema: { type: 'string' },
      },
      {
        name: 'limit',
        in: 'query',
        required: false,
        description: 'at most this many changes (whole writes), 1 to 1000',
        schema: { type: 'integer', default: 100 },
      },
      {
        name: 'Last-Event-ID',
        in: 'header',
        required: false,
        description: 'for a stream: resume after this seq',
        schema: { type: 'integer' },
      },
    ],
    responses: {
      '200': {
        description: 'a page of changes (or, asked for, a stream of Server-Sent Events)',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: { changes: { type: 'array', items: CHANGE_SCHEMA }, next: int, head: int, oldest: int },
            },
          },
          'text/event-stream': { schema: { type: 'string' } },
        },
      },
      '400': { description: 'a bad since, types or limit', content: { 'application/json': { schema: ERROR_SCHEMA } } },
      '410': {
        description: 'rest_changes_expired: `since` is older than what is retained; resynchronise from the lists',
        content: { 'application/json': { schema: ERROR_SCHEMA } },
      },
    },
  },
};

export const INDEX_SCHEMA: Schema = {
  type: 'object',
  properties: {
    namespace: str,
    routes: { type: 'object', description: 'each route of the namespace: its methods, endpoints and arguments' },
    _links: { type: 'object' },
  },
};

export const HEALTH_SCHEMA: Schema = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['ok', 'read-only', 'degraded'] },
    seq: int,
    journal_bytes: int,
    last_snapshot: { type: 'object', nullable: true, description: 'seq, created_at and bytes of the newest snapshot' },
    fault: {
      type: 'object',
      nullable: true,
      description: 'while degraded: kind (full, quota, io, read-only), cause (ENOSPC...), file, since, message',
    },
    compaction_error: { type: 'string', nullable: true },
    warnings: { type: 'array', items: str },
  },
};
