// WordPress core's response options, applied to a finished Reply only when a request asks for
// them: `_fields` (keep only the named keys), `_envelope` (status and headers inside the body)
// and `_jsonp` (a callback around it); and the error Reply of a thrown value.

import { type CalendarError, fail, isCalendarError } from '../api/wordpress/errors.ts';
import { toJson } from '../api/representation/represent.ts';
import { JSON_TYPE, type Reply } from './routes.ts';

const LIST_KEYS = ['events', 'venues', 'organizers', 'categories', 'tags'];
const ENVELOPE_KEYS = new Set(['rest_url', 'next_rest_url', 'previous_rest_url', 'total', 'total_pages', ...LIST_KEYS]);
const META_RE = /[?&](?:_fields|_envelope|_jsonp)(?:[=&]|$)/;

type Mask = { [key: string]: true | Mask };

const newMask = (): Mask => Object.create(null) as Mask;

function addPath(mask: Mask, path: string[]): void {
  let cur = mask;
  for (let i = 0; i < path.length; i++) {
    const k = path[i];
    if (cur[k] === true) return;
    if (i === path.length - 1) {
      cur[k] = true;
      return;
    }
    cur = (cur[k] ??= newMask()) as Mask;
  }
}

function applyMask(value: unknown, mask: Mask): unknown {
  if (Array.isArray(value)) return value.map((v) => applyMask(v, mask));
  if (value === null || typeof value !== 'object') return value;
  const src = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(src)) {
    const m = mask[k];
    if (m === undefined || !Object.hasOwn(mask, k)) continue;
    out[k] = m === true ? src[k] : applyMask(src[k], m);
  }
  return out;
}

/**
 * `_fields=a,b.c`: keeps only the named top-level keys (nested with dots). For a list answer,
 * names of the page envelope (`events`, `total`, `rest_url`…) select envelope keys and every
 * other name selects keys of each listed record.
 */
export function filterFields(data: unknown, fields: string): unknown {
  const names = fields
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (names.length === 0 || data === null || typeof data !== 'object') return data;
  const obj = data as Record<string, unknown>;
  const listKey = Array.isArray(obj) ? undefined : LIST_KEYS.find((k) => Array.isArray(obj[k]) && 'rest_url' in obj);
  const mask = newMask();
  if (listKey === undefined) {
    for (const n of names) addPath(mask, n.split('.'));
    return applyMask(data, mask);
  }
  const itemMask = newMask();
  let itemNames = 0;
  for (const n of names) {
    const path = n.split('.');
    if (ENVELOPE_KEYS.has(path[0])) addPath(mask, path);
    else {
      addPath(itemMask, path);
      itemNames++;
    }
  }
  if (itemNames > 0 && mask[listKey] !== true) {
    const existing = mask[listKey];
    mask[listKey] = existing === undefined ? itemMask : Object.assign(existing, itemMask);
  }
  return applyMask(data, mask);
}

/** Turns a thrown value into an error Reply; logs anything that is not a CalendarError. */
export function errorReply(err: unknown, what: string, log: (line: string) => void): Reply {
  let e: CalendarError;
  if (isCalendarError(err)) e = err;
  else {
    const name = err instanceof Error ? err.name : typeof err;
    const message = err instanceof Error ? err.message : String(err);
    log(`internal error on ${what}: ${name}: ${message.split('\n')[0]}`);
    e = fail('internal_error');
  }
  const status = Number.isInteger(e.status) && e.status >= 400 && e.status <= 599 ? e.status : 500;
  // a write refused while the store's disk fails: worth trying again shortly (the store probes it)
  const headers: Record<string, string> = e.code.startsWith('storage_') ? { 'Retry-After': '5' } : {};
  if (typeof e.data.retry_after === 'number') headers['Retry-After'] = String(e.data.retry_after);
  return { status, headers, body: toJson(e.toJSON()) };
}

export interface Extras {
  fields: string | null;
  envelope: boolean;
  jsonp: string | null;
}

export function readExtras(query: string): Extras | null {
  if (!META_RE.test(`?${query}`)) return null;
  const sp = new URLSearchParams(query);
  return { fields: sp.get('_fields'), envelope: sp.has('_envelope'), jsonp: sp.get('_jsonp') };
}

/** Applies _fields, _envelope and _jsonp (WordPress core order: fields, then envelope). */
export function decorate(reply: Reply, x: Extras): { reply: Reply; contentType: string } {
  let { status, body, ascii } = reply;
  let headers = reply.headers;
  if (x.fields !== null && status < 300) body = toJson(filterFields(JSON.parse(body), x.fields));
  if (x.envelope) {
    body = `{"body":${body},"status":${status},"headers":${JSON.stringify(headers)}}`;
    status = 200;
    headers = {};
    ascii = false; // a header value may hold any character
  }
  if (x.jsonp !== null) {
    if (!/^[\w.]+$/.test(x.jsonp)) {
      const err = fail('rest_callback_invalid');
      return { reply: { status: 400, headers: {}, body: toJson(err.toJSON()) }, contentType: JSON_TYPE };
    }
    return {
      reply: { status, headers, body: `/**/${x.jsonp}(${body})`, ascii },
      contentType: 'application/javascript; charset=UTF-8',
    };
  }
  return { reply: { status, headers, body, ascii }, contentType: JSON_TYPE };
}
