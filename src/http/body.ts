// Request parameters as WordPress reads them: PHP bracket syntax for query strings and
// urlencoded bodies (`organizer[0][organizer]=A`, `categories[]=3`, `venue[venue]=X`),
// JSON bodies, and a capped body reader.

import type { IncomingMessage } from 'node:http';
import { type CalendarError, fail } from '../api/wordpress/errors.ts';
import type { Params } from '../api/wordpress/types.ts';

/** Default cap on a request body: 1 MiB. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** Brackets a parameter's key may nest (`a[b][c]` nests 2): PHP's max_input_nesting_level. */
export const MAX_KEY_NESTING = 64;
/** Arrays and objects a JSON body may nest: the depth WordPress's json_decode allows. */
export const MAX_JSON_DEPTH = 512;

type Bag = Record<string, unknown>;

function bag(): Bag {
  return Object.create(null) as Bag;
}

/** The next index PHP uses for `name[]`: one more than the largest integer key, else 0. */
function nextIndex(container: Bag): string {
  let max = -1;
  for (const k in container) {
    if (/^(0|[1-9]\d*)$/.test(k)) max = Math.max(max, Number(k));
  }
  return String(max + 1);
}

/**
 * Assigns one `key=value` pair into `target` the way PHP's parse_str does: `a[b][]=v` nests,
 * `[]` appends, a plain repeated key keeps the last value. A key whose brackets do not close
 * (`a[b`) is taken literally. Containers are null-prototype objects; see finishParams.
 */
export function setParam(target: Bag, key: string, value: string): void {
  const open = key.indexOf('[');
  if (open <= 0 || key.charCodeAt(key.length - 1) !== 93 /* ] */) {
    if (key !== '') target[key] = value;
    return;
  }
  const path = [key.slice(0, open)];
  let i = open;
  while (i < key.length) {
    if (key[i] !== '[') return void (target[key] = value);
    const close = key.indexOf(']', i);
    if (close < 0) return void (target[key] = value);
    path.push(key.slice(i + 1, close));
    i = close + 1;
    if (path.length > MAX_KEY_NESTING + 1) throw tooDeep(key);
  }
  let cur = target;
  for (let d = 0; d < path.length; d++) {
    const seg = path[d] === '' && d > 0 ? nextIndex(cur) : path[d];
    if (d === path.length - 1) {
      cur[seg] = value;
    } else {
      const next = cur[seg];
      if (next === null || typeof next !== 'object') cur[seg] = bag();
      cur = cur[seg] as Bag;
    }
  }
}

/**
 * Turns the null-prototype bags of setParam into plain JSON values: a bag whose keys are
 * exactly 0..n-1 becomes an array (as json_encode renders a PHP list), others plain objects.
 * The key `__proto__` is dropped.
 */
export function finishParams(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const src = value as Bag;
  const keys = Object.keys(src);
  let isList = true;
  for (let i = 0; i < keys.length; i++) {
    if (keys[i] !== String(i)) {
      isList = false;
      break;
    }
  }
  // PHP orders integer keys in insertion order, JS objects order them numerically: for `[]`
  // appends the two agree, so checking the sorted keys is enough.
  if (isList && keys.length > 0) return keys.map((k) => finishParams(src[k]));
  const out: Bag = {};
  for (const k of keys) if (k !== '__proto__') out[k] = finishParams(src[k]);
  return out;
}

/** Parses a query string or urlencoded body in PHP style into `target` (a bag). */
export function parseUrlEncoded(text: string, target: Bag = bag()): Bag {
  if (text === '') return target;
  for (const [k, v] of new URLSearchParams(text)) setParam(target, k, v);
  return target;
}

/** Query parameters as a record (a repeated key's values as an array), in PHP style. */
export function paramsFromQuery(query: Record<string, string | string[] | undefined>, target: Bag = bag()): Bag {
  for (const k in query) {
    const v = query[k];
    if (v === undefined) continue;
    if (typeof v === 'string') setParam(target, k, v);
    else for (const item of v) setParam(target, k, item);
  }
  return target;
}

export type BodyKind = 'json' | 'form' | 'none' | 'unsupported';

/** What the Content-Type header says the body is. */
export function bodyKind(contentType: string | undefined): BodyKind {
  if (!contentType) return 'none';
  const semi = contentType.indexOf(';');
  const type = (semi < 0 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type === 'application/x-www-form-urlencoded') return 'form';
  return 'unsupported';
}

/**
 * Merges a raw body into the query parameters (`query`, a bag from paramsFromQuery); body
 * members win, as WordPress's parameter order has it (JSON > POST > GET). Returns plain params.
 * Throws 400 rest_invalid_json or 415 rest_unsupported_media_type (only for a non-empty body).
 */
export function mergeBody(query: Bag, raw: Buffer | null, contentType: string | undefined): Params {
  if (raw !== null && raw.length > 0) {
    const kind = bodyKind(contentType);
    if (kind === 'json') {
      const text = raw.toString('utf8');
      if (jsonDepth(text) > MAX_JSON_DEPTH) {
        throw fail('rest_invalid_json', [], { json_error_code: 1, json_error_message: 'Maximum stack depth exceeded' });
      }
      let data: unknown;
      try {
        data = JSON.parse(text);
      } catch {
        throw fail('rest_invalid_json', [], { json_error_code: 4, json_error_message: 'Syntax error' });
      }
      if (data !== null) {
        if (typeof data !== 'object' || Array.isArray(data)) {
          throw fail('rest_invalid_json', [], { json_error_message: 'The JSON body must be an object' });
        }
        const out = finishParams(query) as Bag;
        for (const k of Object.keys(data as Bag)) if (k !== '__proto__') out[k] = (data as Bag)[k];
        return out;
      }
    } else if (kind === 'form') {
      parseUrlEncoded(raw.toString('utf8'), query);
    } else {
      throw fail('rest_unsupported_media_type', [contentType ? contentType.split(';')[0].trim() : '(none)'], {
        accepted: ['application/json', 'application/x-www-form-urlencoded'],
      });
    }
  }
  return finishParams(query) as Params;
}

/** True when the request announces a body (Content-Length > 0 or chunked). */
export function hasBody(req: IncomingMessage): boolean {
  const len = req.headers['content-length'];
  if (len !== undefined) return len !== '0';
  return req.headers['transfer-encoding'] !== undefined;
}

/**
 * Reads the whole body, at most `limit` bytes. Rejects with 413 rest_payload_too_large as soon
 * as the declared or received size exceeds the limit (the caller then closes the connection).
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) return Promise.reject(tooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        done = true;
        req.off('data', onData);
        req.pause();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => {
      if (done) return;
      done = true;
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    });
    req.once('error', (err) => {
      if (done) return;
      done = true;
      reject(err);
    });
  });
}

/** 400 rest_input_too_deep for a key nested past MAX_KEY_NESTING (its first 40 characters named). */
function tooDeep(key: string): CalendarError {
  const name = key.slice(0, key.indexOf('['));
  const shown = name.length > 40 ? `${name.slice(0, 40)}…` : name;
  return fail('rest_input_too_deep', [shown, MAX_KEY_NESTING], { max_depth: MAX_KEY_NESTING });
}

/** How deep a JSON text's arrays and objects nest, without parsing it (brackets in strings skipped). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 92 /* \\ */) i++;
        else if (d === 34) break;
      }
    } else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > max) max = depth;
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--;
  }
  return max;
}

function tooLarge(limit: number): CalendarError {
  return fail('rest_payload_too_large', [], { limit });
}
