// Featured images: an attachment id, or an image URL that becomes (or reuses) an attachment. The
// URL of an upload of this site's media library (src/media/) is that upload.
// The real service fetches URLs with an HTTP HEAD; this engine never makes outbound requests, so
// a URL is accepted when it is an absolute http(s) URL whose path ends in an image extension and
// whose host can resolve (RFC 6761 special-use names such as *.localhost, *.invalid, *.test,
// *.example are rejected). Noted in docs/behaviour.md.

import { canUpload } from './wordpress/auth.ts';
import type { Tx } from './context.ts';
import { asId, asString } from './wordpress/params.ts';
import { isValidUrl } from './wordpress/text.ts';
import { UPLOADS_PATH } from '../media/represent.ts';

export const IMAGE_EXTENSIONS = new Set([
  'jpg',
  'jpeg',
  'jpe',
  'png',
  'gif',
  'webp',
  'avif',
  'heic',
  'bmp',
  'ico',
  'svg',
]);

const SPECIAL_USE = /(^|\.)(localhost|invalid|test|example|local)$/i;

/** The path an upload of this site is known by ('/wp-content/uploads/…'), when `url` is one. */
export function ownUpload(siteUrl: string, url: string): string | undefined {
  const prefix = siteUrl + UPLOADS_PATH;
  return url.startsWith(prefix) ? url.slice(siteUrl.length).split(/[?#]/)[0] : undefined;
}

function isEmptyImage(v: unknown): boolean {
  return v === '' || v === 0 || v === '0' || v === null || v === false;
}

/**
 * Resolve an `image` value to an attachment id: 0 = no image, undefined = invalid.
 * New attachments are added to the write (tx).
 */
export function resolveImage(tx: Tx, value: unknown): number | undefined {
  if (isEmptyImage(value)) return 0;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const o = value as Record<string, unknown>;
    value = o.id ?? o.url;
  }
  const id = asId(value);
  if (id !== undefined) {
    const att = tx.engine.attachment(id) ?? tx.newAttachments.find((a) => a.id === id);
    return att && IMAGE_EXTENSIONS.has(att.extension) ? att.id : undefined;
  }
  const url = asString(value)?.trim();
  if (!url || !isValidUrl(url) || !canUpload(tx.actor)) return undefined;
  // an upload of this site's media library, by its URL: that attachment
  const own = ownUpload(tx.core.site.config.siteUrl, url);
  if (own !== undefined) {
    const att = tx.engine.attachmentByUrl(own);
    if (att) return att.id;
  }
  const parsed = new URL(url);
  if (SPECIAL_USE.test(parsed.hostname)) return undefined;
  const ext = /\.([a-z0-9]+)$/i.exec(parsed.pathname)?.[1]?.toLowerCase();
  if (!ext || !IMAGE_EXTENSIONS.has(ext)) return undefined;
  const existing = tx.engine.attachmentByUrl(url) ?? tx.newAttachments.find((a) => a.url === url);
  if (existing) return existing.id;
  const rec = {
    id: tx.engine.allocPostId(),
    authorId: tx.actor?.id ?? 0,
    url,
    extension: ext,
    date: tx.stamps.local,
    dateUtc: tx.stamps.utc,
  };
  tx.newAttachments.push(rec);
  tx.ops.push({ t: 'attachment', a: 'put', rec });
  return rec.id;
}
