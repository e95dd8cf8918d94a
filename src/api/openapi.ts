// GET /doc: the OpenAPI 3.0 document of the namespace (docs/http-api.md, "GET /doc"),
// generated from the route table of args.ts so that it describes exactly what is routed.

import { NAMESPACE, type ArgSpec, type ArgType, type RouteSpec } from './args.ts';
import type { Resource, SiteConfig, WpResource } from './wordpress/types.ts';
import {
  type Schema,
  str,
  int,
  bool,
  ref,
  COMPONENTS,
  ITEM_SCHEMA,
  WP_COMPONENTS,
  ERROR_SCHEMA,
  CHANGES_PATH,
  INDEX_SCHEMA,
  HEALTH_SCHEMA,
} from './openapi-schemas.ts';

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
