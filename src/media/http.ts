// The HTTP side of the media library: an upload's body read as WordPress reads it (the raw file
// with Content-Disposition and Content-Type, or multipart/form-data with a `file` field), the
// /wp/v2/media calls answered as Replies, and the files served at /wp-content/uploads/… with
// their type, ETag/Last-Modified (304) and byte ranges (206, 416).

import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { toJson } from '../api/representation/represent.ts';
import { fail } from '../api/wordpress/errors.ts';
import type { Action, Actor, Params } from '../api/wordpress/types.ts';
import { finishParams, mergeBody, paramsFromQuery, setParam } from '../http/body.ts';
import { safeRel, TEMP_PREFIX } from './files.ts';
import type { MediaAnswer, MediaLibrary, UploadInput } from './library.ts';
import { splitExtension, typeOfExtension } from './names.ts';

/** What a multipart body may add to the file it carries (the other fields, part headers). */
export const MULTIPART_ALLOWANCE = 64 * 1024;

/** What a route handler is given (the router's RouteContext). */
export interface MediaContext {
  actor: Actor;
  body: Buffer | null;
  contentType: string | undefined;
  headers?: IncomingHttpHeaders;
}

/** A finished answer (the router's Reply): the JSON text is ASCII. */
export interface MediaReply {
  status: number;
  headers: Record<string, string>;
  body: string;
  ascii: true;
}

const reply = (a: MediaAnswer): MediaReply => ({
  status: a.status,
  headers: a.headers,
  body: toJson(a.data),
  ascii: true,
});

const header = (h: IncomingHttpHeaders | undefined, name: string): string | undefined => {
  const v = h?.[name];
  return Array.isArray(v) ? v[0] : v;
};

/** One /wp/v2/media call. */
export async function mediaCall(
  lib: MediaLibrary,
  action: Action,
  id: number | undefined,
  query: Record<string, string | string[] | undefined>,
  ctx: MediaContext,
): Promise<MediaReply> {
  const actor = ctx.actor;
  switch (action) {
    case 'list':
      return reply(lib.listAs(finishParams(paramsFromQuery(query)) as Params, actor));
    case 'get':
      return reply(lib.getAs(id!, actor));
    case 'create': {
      const isForm = /^\s*multipart\/form-data\s*(;|$)/i.test(ctx.contentType ?? '');
      let params = finishParams(paramsFromQuery(query)) as Params;
      let input: () => UploadInput;
      if (isForm) {
        const form = parseMultipart(ctx.body ?? Buffer.alloc(0), ctx.contentType!);
        params = { ...params, ...form.fields };
        input = () => {
          if (!form.file) throw fail('rest_upload_no_data');
          return { data: form.file.data, filename: form.file.filename, fromForm: true, params };
        };
      } else {
        input = () => rawUpload(ctx.body, ctx.headers, ctx.contentType, params);
      }
      return reply(await lib.createAs(input, actor, params));
    }
    case 'update':
      return reply(await lib.updateAs(id!, mergeBody(paramsFromQuery(query), ctx.body, ctx.contentType), actor));
    case 'delete':
      return reply(await lib.deleteAs(id!, mergeBody(paramsFromQuery(query), ctx.body, ctx.contentType), actor));
  }
}

/** upload_from_data: the file is the body; its name comes from Content-Disposition. */
function rawUpload(
  body: Buffer | null,
  headers: IncomingHttpHeaders | undefined,
  contentType: string | undefined,
  params: Params,
): UploadInput {
  if (!body || body.length === 0) throw fail('rest_upload_no_data');
  if (!contentType) throw fail('rest_upload_no_content_type');
  const disposition = header(headers, 'content-disposition');
  if (!disposition) throw fail('rest_upload_no_content_disposition');
  const filename = filenameOf(disposition);
  if (!filename) {
    throw fail('rest_upload_invalid_disposition');
  }
  const md5 = header(headers, 'content-md5');
  if (md5 !== undefined && md5.trim() !== createHash('md5').update(body).digest('hex')) {
    throw fail('rest_upload_hash_mismatch');
  }
  return { data: body, filename, params };
}

/** The file name of a Content-Disposition header (`filename*=UTF-8''…` first, then `filename=`). */
export function filenameOf(disposition: string): string | undefined {
  let name: string | undefined;
  for (const part of disposition.split(';').slice(1)) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim().toLowerCase();
    let value = part.slice(eq + 1).trim();
    if (key === 'filename*') {
      const m = /^([\w-]*)'[\w-]*'(.*)$/.exec(value);
      if (m) {
        try {
          return decodeURIComponent(m[2]).trim() || undefined;
        } catch {}
      }
    } else if (key === 'filename') {
      if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
      name = value.trim();
    }
  }
  return name || undefined;
}

interface Form {
  fields: Params;
  file?: { data: Buffer; filename: string };
}

/** multipart/form-data: the `file` part and the plain fields (PHP bracket names nest). */
export function parseMultipart(body: Buffer, contentType: string): Form {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!m)
    throw fail('rest_upload_unknown_error', ['The multipart/form-data body has no boundary in its Content-Type.']);
  const delimiter = Buffer.from(`--${m[1] ?? m[2]}`);
  const form: Form = { fields: {} };
  const fields = Object.create(null) as Record<string, unknown>;
  let pos = body.indexOf(delimiter);
  if (pos < 0) throw fail('rest_upload_unknown_error', ['The multipart/form-data body has no part.']);
  for (;;) {
    pos += delimiter.length;
    if (body[pos] === 0x2d && body[pos + 1] === 0x2d) break; // closing '--'
    if (body[pos] === 0x0d && body[pos + 1] === 0x0a) pos += 2;
    const headEnd = body.indexOf('\r\n\r\n', pos);
    if (headEnd < 0) throw fail('rest_upload_unknown_error', ['A multipart/form-data part has no end of headers.']);
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), headEnd + 4);
    if (next < 0)
      throw fail('rest_upload_unknown_error', ['The multipart/form-data body ends before its closing boundary.']);
    const head = body.subarray(pos, headEnd).toString('utf8');
    const data = body.subarray(headEnd + 4, next);
    const disposition = /^content-disposition:(.*)$/im.exec(head)?.[1] ?? '';
    const name = /;\s*name="([^"]*)"/i.exec(disposition)?.[1];
    const filename = filenameOf(`form-data${disposition.replace(/^[^;]*/, '')}`);
    if (name === 'file' && /;\s*filename\*?=/i.test(disposition)) {
      form.file = { data, filename: filename ?? '' };
    } else if (name !== undefined && name !== '') {
      setParam(fields, name, data.toString('utf8'));
    }
    pos = next + 2;
  }
  form.fields = finishParams(fields) as Params;
  return form;
}

// ---- /wp-content/uploads ---------------------------------------------------------------

const CONTENT_TYPES: Record<string, string> = {
  'image/jpeg': 'image/jpeg',
  'image/png': 'image/png',
  'image/gif': 'image/gif',
  'image/webp': 'image/webp',
};

function notFound(res: ServerResponse, head: boolean, close: boolean): void {
  const body = toJson({ code: 'rest_no_route', message: 'No such file.', data: { status: 404 } });
  res.writeHead(404, {
    'Content-Type': 'application/json; charset=UTF-8',
    'Content-Length': Buffer.byteLength(body),
    ...(close ? { Connection: 'close' } : {}),
  });
  res.end(head ? undefined : body);
}

/** Serves a file below the uploads folder: GET or HEAD, conditional requests, one byte range. */
export async function serveUpload(
  lib: MediaLibrary,
  relPath: string,
  req: IncomingMessage,
  res: ServerResponse,
  head: boolean,
  close: boolean,
): Promise<void> {
  let rel: string | undefined;
  try {
    rel = safeRel(decodeURIComponent(relPath));
  } catch {
    rel = undefined;
  }
  const name = rel?.slice(rel.lastIndexOf('/') + 1) ?? '';
  const type = typeOfExtension(splitExtension(name)[1]);
  const st =
    rel && type && !name.startsWith('.') && !name.startsWith(TEMP_PREFIX) ? await lib.files.stat(rel) : undefined;
  if (!rel || !type || !st) return notFound(res, head, close);
  const size = st.size;
  const mtime = Math.floor(st.mtimeMs / 1000) * 1000;
  const etag = `"${size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`;
  const lastModified = new Date(mtime).toUTCString();
  const common: Record<string, string | number> = {
    'Content-Type': CONTENT_TYPES[type],
    ETag: etag,
    'Last-Modified': lastModified,
    'Accept-Ranges': 'bytes',
    'X-Content-Type-Options': 'nosniff',
    ...(close ? { Connection: 'close' } : {}),
  };
  const inm = req.headers['if-none-match'];
  const ims = req.headers['if-modified-since'];
  const notModified =
    inm !== undefined
      ? inm.trim() === '*' || inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)
      : ims !== undefined && !Number.isNaN(Date.parse(ims)) && Date.parse(ims) >= mtime;
  if (notModified) {
    res.writeHead(304, { ETag: etag, 'Last-Modified': lastModified, ...(close ? { Connection: 'close' } : {}) });
    res.end();
    return;
  }
  let start = 0,
    end = size - 1,
    status = 200;
  const range = req.headers.range;
  const ifRange = header(req.headers, 'if-range');
  const rangeApplies =
    range !== undefined && (ifRange === undefined || ifRange.trim() === etag || ifRange.trim() === lastModified);
  if (rangeApplies) {
    const r = /^bytes=(\d*)-(\d*)$/.exec(range!.trim());
    if (r && (r[1] !== '' || r[2] !== '')) {
      if (r[1] === '') {
        start = Math.max(0, size - Number(r[2]));
      } else {
        start = Number(r[1]);
        if (r[2] !== '') end = Math.min(Number(r[2]), size - 1);
      }
      if (start >= size || start > end || (r[1] === '' && Number(r[2]) === 0)) {
        res.writeHead(416, { 'Content-Range': `bytes */${size}`, 'Content-Length': 0, ...common });
        res.end();
        return;
      }
      status = 206;
      common['Content-Range'] = `bytes ${start}-${end}/${size}`;
    }
    // several ranges, or a unit other than bytes: the whole file (RFC 9110 allows ignoring Range)
  }
  res.writeHead(status, { ...common, 'Content-Length': end - start + 1 });
  if (head || size === 0) return void res.end();
  const data = lib.files.read(rel, start, end);
  if (Buffer.isBuffer(data)) return void res.end(data);
  await new Promise<void>((resolve) => {
    data.on('error', () => {
      res.destroy();
      resolve();
    });
    res.on('close', resolve);
    data.pipe(res);
  });
}
