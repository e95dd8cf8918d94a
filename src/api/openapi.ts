// GET /doc: the OpenAPI 3.0 document of the namespace (docs/http-api.md, "GET /doc"),
// generated from the route table of args.ts so that it describes exactly what is routed.

import { NAMESPACE, type ArgSpec, type ArgType, type RouteSpec } from './args.ts';
import type { Resource, SiteConfig, WpResource } from './wordpress/types.ts';

type Schema = Record<string, unknown>;

function typeSchema(t: ArgType, items?: ArgSpec['items']): Schema {
  if (t === 'array') return { type: 'array', items: items ? anySchema(items.type) : {} };
  return { type: t };
}

function anySchema(type: ArgType | ArgType[], items?: ArgSpec['items']): Schema {
  if (Array.isArray(type)) return { oneOf: type.map((t) => typeSchema(t, items)) };
  return typeSchema(type, items);
}

/** An arg of the table as an OpenAPI schema. */
export function argSchema(a: ArgSpec): Schema {
  const s = anySchema(a.type, a.items);
  if (a.format && !Array.isArray(a.type)) s.format = a.format;
  if (a.enum) s.enum = [...a.enum];
  if (a.default !== undefined && !(typeof a.default === 'string' && a.type !== 'string')) s.default = a.default;
  if (a.description) s.description = a.description;
  return s;
}

const str = { type: 'string' };
const int = { type: 'integer' };
const bool = { type: 'boolean' };
const strings = { type: 'array', items: str };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

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

const COMPONENTS: Record<string, Schema> = {
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

const ITEM_SCHEMA: Record<Resource | WpResource, string> = {
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
const WP_COMPONENTS: Record<string, Schema> = {
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

const ERROR_SCHEMA: Schema = {
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
const CHANGES_PATH = {
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
        description: 'comma-separated: event, venue, organizer, category, tag',
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

const INDEX_SCHEMA: Schema = {
  type: 'object',
  properties: {
    namespace: str,
    routes: { type: 'object', description: 'each route of the namespace: its methods, endpoints and arguments' },
    _links: { type: 'object' },
  },
};

const HEALTH_SCHEMA: Schema = {
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

function responseBody(
  resource: Resource | WpResource | 'doc' | 'index' | 'health' | 'changes' | 'media',
  action: string,
  status: string,
): Schema | undefined {
  if (!status.startsWith('2')) return ERROR_SCHEMA;
  if (resource === 'media')
    return action === 'list'
      ? { type: 'array', items: ref('Media') }
      : action === 'delete'
        ? { type: 'object', properties: { deleted: bool, previous: ref('Media') } }
        : ref('Media');
  if (resource === 'doc') return { type: 'object' };
  if (resource === 'health') return HEALTH_SCHEMA;
  if (resource === 'changes') return undefined; // described by hand: CHANGES_PATH
  if (resource === 'index') return INDEX_SCHEMA;
  const item = ref(ITEM_SCHEMA[resource]);
  if (resource.startsWith('wp-')) {
    if (action === 'list') return { type: 'array', items: item };
    if (action === 'delete') return { type: 'object', properties: { deleted: bool, previous: item } };
    return item;
  }
  if (action !== 'list') return item;
  return {
    type: 'object',
    properties: {
      [resource]: { type: 'array', items: item },
      rest_url: str,
      next_rest_url: str,
      previous_rest_url: str,
      total: int,
      total_pages: int,
    },
  };
}

const WP_LIST_HEADERS = {
  'X-WP-Total': { description: 'the number of matching records on all pages', schema: int },
  'X-WP-TotalPages': { description: 'the number of pages', schema: int },
  Link: { description: 'the previous and next pages (rel="prev", rel="next")', schema: str },
};

const LIST_HEADERS = {
  'X-TEC-Total': { description: 'the number of matching records on all pages', schema: int },
  'X-TEC-TotalPages': { description: 'the number of pages', schema: int },
};

/** On every response: the write the answering calendar reflects (docs/cluster.md). */
const SEQ_HEADER = {
  'X-Calendar-Seq': {
    description:
      'the seq of the newest write this calendar (this node, in a cluster) reflects; send it back as X-Calendar-Min-Seq to read your writes on any node',
    schema: int,
  },
};

/** Accepted by every route: wait (bounded) until the calendar reflects that write. */
const MIN_SEQ_PARAM: Schema = {
  name: 'X-Calendar-Min-Seq',
  in: 'header',
  required: false,
  schema: int,
  description:
    'answer only once this calendar (this node, in a cluster) reflects write N (an X-Calendar-Seq a response gave); 503 rest_cluster_behind after a bounded wait (5 s)',
};

/** The OpenAPI 3.0 document for the routes of `table`, served at `{root}tribe/events/v1/doc`. */
export function buildOpenApi(table: RouteSpec[], site: SiteConfig): object {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of table) {
    // the namespace index (GET {root}tribe/events/v1) is the path '/' below the server URL; a
    // route of another namespace (wp/v2) is written in full, below its own server (the API root)
    const other = route.namespace !== undefined && route.namespace !== NAMESPACE;
    const path = other ? `/${route.namespace}${route.path}` : route.path === '' ? '/' : route.path;
    // the change feed's operation is described by hand (its stream, its gzip, its 410)
    if (route.endpoints.some((ep) => ep.op.resource === 'changes')) {
      paths[path] = CHANGES_PATH;
      continue;
    }
    const item: Record<string, unknown> = {};
    if (other) item.servers = [{ url: `${site.siteUrl}${site.restPrefix}` }];
    for (const ep of route.endpoints) {
      const { resource, action } = ep.op;
      for (const method of ep.methods) {
        const inBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
        const parameters: Schema[] = [];
        const properties: Record<string, Schema> = {};
        const required: string[] = [];
        for (const [name, a] of Object.entries(ep.args)) {
          if (a.in === 'path')
            parameters.push({
              name,
              in: 'path',
              required: true,
              description: a.description,
              schema: argSchema({ ...a, description: '' }),
            });
          else if (inBody) {
            properties[name] = argSchema(a);
            if (a.required) required.push(name);
          } else {
            parameters.push({
              name,
              in: 'query',
              required: a.required === true,
              description: a.description,
              schema: argSchema({ ...a, description: '' }),
            });
          }
        }
        const op: Record<string, unknown> = {
          summary: ep.summary,
          operationId:
            route.path === '' && !other
              ? `${method.toLowerCase()}Index`
              : `${method.toLowerCase()}${path.replace(/[{}]/g, '').replace(/[/_-](\w)/g, (_, c: string) => c.toUpperCase())}`,
          tags: [
            resource === 'doc' || resource === 'index'
              ? 'documentation'
              : resource === 'health'
                ? 'operations'
                : other
                  ? 'wp/v2'
                  : resource,
          ],
        };
        op.parameters = [...parameters, MIN_SEQ_PARAM];
        if (resource === 'media' && action === 'create') {
          op.requestBody = {
            required: true,
            content: {
              'image/*': {
                schema: {
                  type: 'string',
                  format: 'binary',
                  description: 'the file; with Content-Disposition: attachment; filename=NAME',
                },
              },
              'multipart/form-data': {
                schema: {
                  type: 'object',
                  properties: { file: { type: 'string', format: 'binary' }, ...properties },
                  required: ['file'],
                },
              },
            },
          };
        } else if (inBody) {
          const schema: Schema = { type: 'object', properties };
          if (required.length) schema.required = required;
          op.requestBody = {
            required: required.length > 0,
            content: { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } },
          };
        }
        const responses: Record<string, unknown> = {};
        for (const [status, description] of Object.entries(ep.responses)) {
          const body = responseBody(resource, action, status);
          const r: Record<string, unknown> = { description };
          if (body) r.content = { 'application/json': { schema: body } };
          const listHeaders = other ? WP_LIST_HEADERS : LIST_HEADERS;
          r.headers = action === 'list' && status === '200' ? { ...listHeaders, ...SEQ_HEADER } : SEQ_HEADER;
          responses[status] = r;
        }
        op.responses = responses;
        item[method.toLowerCase()] = op;
      }
    }
    paths[path] = item;
  }
  return {
    openapi: '3.0.0',
    info: {
      version: '1.0.0',
      title: 'The Events Calendar REST API',
      description:
        'The Events Calendar REST API (tribe/events/v1) served by calendar-engine: events, venues, organizers, event categories and tags; ' +
        'and the WordPress core routes (wp/v2) over the same records: tags, tribe_events_cat, tribe_events, tribe_venue, tribe_organizer, users. ' +
        'Writes authenticate with HTTP Basic and a WordPress application password.',
    },
    components: {
      schemas: { ...COMPONENTS, ...WP_COMPONENTS },
      securitySchemes: { applicationPassword: { type: 'http', scheme: 'basic' } },
    },
    servers: [{ url: `${site.siteUrl}${site.restPrefix}/${NAMESPACE}/` }],
    paths,
  };
}
