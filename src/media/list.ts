// The media library's list (GET /wp/v2/media): its parameters checked as WordPress core checks
// them, the attachments filtered, searched and ordered, one page of media objects with the
// X-WP-Total, X-WP-TotalPages and Link headers. library.ts says which items a visitor may see.

import type { AttachmentRecord } from '../engine/records.ts';
import type { Core } from '../api/context.ts';
import { fail, invalidParams } from '../api/wordpress/errors.ts';
import { asId, asString, has, Problems } from '../api/wordpress/params.ts';
import type { Params } from '../api/wordpress/types.ts';
import { folderOf, mediaObject } from './represent.ts';
import { POST_ORDERBY } from '../wp-core/args.ts';
import { WP_MAX_PER_PAGE } from '../wp-core/arg-specs.ts';

const MEDIA_TYPES = ['image', 'video', 'text', 'application', 'audio'];
/** core's attachments controller orders as its posts controller does, and pages alike */
const ORDERBY: readonly string[] = POST_ORDERBY;
const MAX_PER_PAGE = WP_MAX_PER_PAGE;

/** One page of the media list for `params`; `readable`: whether the visitor may see an item. */
export function listMedia(
  coreOf: () => Core,
  params: Params,
  readable: (att: AttachmentRecord) => boolean,
): { headers: Record<string, string>; data: Record<string, unknown>[] } {
  const problems = new Problems();
  const int = (name: string, def: number, min: number, max: number): number => {
    if (!has(params, name)) return def;
    const v = params[name];
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : NaN;
    if (!Number.isInteger(n)) return (problems.add(name, `${name} is not of type integer.`), def);
    if (n < min || n > max)
      return (
        problems.add(
          name,
          max === Infinity
            ? `${name} must be greater than or equal to ${min}`
            : `${name} must be between ${min} (inclusive) and ${max} (inclusive)`,
        ),
        def
      );
    return n;
  };
  const ids = (name: string): number[] | undefined => {
    if (!has(params, name)) return undefined;
    const v = params[name];
    const items = Array.isArray(v)
      ? v
      : String(v)
          .split(/[\s,]+/)
          .filter((s) => s !== '');
    const out: number[] = [];
    for (const item of items) {
      const n = asId(item) ?? (item === 0 || item === '0' ? 0 : undefined);
      if (n === undefined) return (problems.add(name, `${name}[${out.length}] is not of type integer.`), undefined);
      out.push(n);
    }
    return out;
  };
  const strings = (name: string): string[] | undefined => {
    if (!has(params, name)) return undefined;
    const v = params[name];
    return (Array.isArray(v) ? v.map(String) : String(v).split(',')).map((s) => s.trim()).filter((s) => s !== '');
  };
  const page = int('page', 1, 1, Infinity);
  const perPage = int('per_page', 10, 1, MAX_PER_PAGE);
  const search = has(params, 'search') ? (asString(params.search) ?? (problems.add('search'), '')) : '';
  const mediaTypes = strings('media_type');
  if (mediaTypes?.some((t) => !MEDIA_TYPES.includes(t)))
    problems.add('media_type', `media_type is not one of ${MEDIA_TYPES.join(', ')}.`);
  const mimeTypes = strings('mime_type');
  const parents = ids('parent'),
    parentExclude = ids('parent_exclude');
  const include = ids('include'),
    exclude = ids('exclude');
  const authors = ids('author'),
    authorExclude = ids('author_exclude');
  const orderby = has(params, 'orderby') ? (asString(params.orderby) ?? '') : 'date';
  if (!ORDERBY.includes(orderby)) problems.add('orderby', `orderby is not one of ${ORDERBY.join(', ')}.`);
  const order = has(params, 'order') ? (asString(params.order) ?? '') : 'desc';
  if (order !== 'asc' && order !== 'desc') problems.add('order', 'order is not one of asc and desc.');
  if (orderby === 'relevance' && search === '')
    problems.add('orderby', 'You need to define a search term to order by relevance.');
  if (orderby === 'include' && !include)
    problems.add('orderby', 'You need to define an include parameter to order by include.');
  if (problems.any) throw invalidParams(problems.reasons);

  const words = search
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '');
  const core = coreOf();
  const items: AttachmentRecord[] = [];
  for (const att of core.engine.attachments()) {
    const m = att.media;
    if (!m) continue;
    if (mediaTypes && !mediaTypes.includes('image')) continue;
    if (mimeTypes && !mimeTypes.includes(m.mime)) continue;
    if (parents && !parents.includes(m.parent)) continue;
    if (parentExclude?.includes(m.parent)) continue;
    if (include && !include.includes(att.id)) continue;
    if (exclude?.includes(att.id)) continue;
    if (authors && !authors.includes(att.authorId)) continue;
    if (authorExclude?.includes(att.authorId)) continue;
    if (words.length > 0) {
      const text = `${m.title}\n${m.caption}\n${m.description}\n${m.file.slice(folderOf(m).length)}`.toLowerCase();
      if (!words.every((w) => text.includes(w))) continue;
    }
    if (!readable(att)) continue;
    items.push(att);
  }
  const dir = order === 'asc' ? 1 : -1;
  const key = (a: AttachmentRecord): string | number => {
    const m = a.media!;
    switch (orderby) {
      case 'author':
        return a.authorId;
      case 'id':
        return a.id;
      case 'include':
        return include!.indexOf(a.id);
      case 'modified':
        return m.modifiedUtc;
      case 'parent':
        return m.parent;
      case 'slug':
      case 'include_slugs':
        return m.slug;
      case 'title':
        return m.title.toLowerCase();
      default:
        return a.dateUtc;
    }
  };
  items.sort((a, b) => {
    const ka = key(a),
      kb = key(b);
    const c = ka < kb ? -1 : ka > kb ? 1 : 0;
    return orderby === 'include' ? c : c !== 0 ? c * dir : (a.id - b.id) * dir;
  });
  const total = items.length;
  const totalPages = Math.ceil(total / perPage);
  if (page > totalPages && total > 0) {
    throw fail('rest_post_invalid_page_number');
  }
  const site = core.site.config;
  const pageItems = items.slice((page - 1) * perPage, page * perPage).map((a) => mediaObject(site, a));
  const headers: Record<string, string> = { 'X-WP-Total': String(total), 'X-WP-TotalPages': String(totalPages) };
  const links: string[] = [];
  const base = `${site.siteUrl}${site.restPrefix}/wp/v2/media`;
  const link = (p: number): string => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params))
      if (k !== 'page' && (typeof v === 'string' || typeof v === 'number')) q.set(k, String(v));
    q.set('page', String(p));
    return `${base}?${q.toString()}`;
  };
  if (page > 1) links.push(`<${link(Math.min(page - 1, Math.max(totalPages, 1)))}>; rel="prev"`);
  if (page < totalPages) links.push(`<${link(page + 1)}>; rel="next"`);
  if (links.length > 0) headers.Link = links.join(', ');
  return { headers, data: pageItems };
}
