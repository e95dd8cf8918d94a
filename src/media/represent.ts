// An upload as WordPress core's /wp/v2/media shows it, and an attachment as the plugin shows it
// as an event's, venue's or organizer's `image` (url, id, extension, then the metadata: width,
// height, filesize, sizes with `mime-type` and `url`; no `full`; empty values left out).

import type { AttachmentRecord, MediaRecord } from '../engine/records.ts';
import { escapeNonAscii } from '../ascii-json.ts';
import { displayContent, displayExcerpt, displayTitle } from '../api/wordpress/display.ts';
import { escapeHtml } from '../api/wordpress/text.ts';
import type { SiteConfig } from '../api/wordpress/types.ts';

/** Below the site URL: where uploads are served. */
export const UPLOADS_PATH = '/wp-content/uploads/';

/** The URL of an attachment's full image (an upload's below the site; another's as given). */
export function attachmentUrl(siteUrl: string, att: AttachmentRecord): string {
  return att.media ? siteUrl + att.url : att.url;
}

/** The folder of an upload's files, below the uploads folder ('2026/05/'). */
export function folderOf(m: MediaRecord): string {
  const slash = m.file.lastIndexOf('/');
  return slash < 0 ? '' : m.file.slice(0, slash + 1);
}

const wpDate = (ymdHis: string): string => ymdHis.replace(' ', 'T');

/** The media object of WordPress core's attachments controller (context view). */
export function mediaObject(site: SiteConfig, att: AttachmentRecord): Record<string, unknown> {
  const m = att.media!;
  const root = `${site.siteUrl}${site.restPrefix}/`;
  const src = attachmentUrl(site.siteUrl, att);
  const base = site.siteUrl + UPLOADS_PATH + folderOf(m);
  const sizes: Record<string, unknown> = {};
  for (const [name, s] of Object.entries(m.sizes)) {
    sizes[name] = {
      file: s.file,
      width: s.width,
      height: s.height,
      filesize: s.filesize,
      mime_type: m.mime,
      source_url: base + s.file,
    };
  }
  const fileName = m.file.slice(folderOf(m).length);
  sizes.full = { file: fileName, width: m.width, height: m.height, mime_type: m.mime, source_url: src };
  return {
    id: att.id,
    date: wpDate(att.date),
    date_gmt: wpDate(att.dateUtc),
    guid: { rendered: src },
    modified: wpDate(m.modified),
    modified_gmt: wpDate(m.modifiedUtc),
    slug: m.slug,
    status: 'inherit',
    type: 'attachment',
    link: src,
    title: { rendered: displayTitle(m.title) },
    author: att.authorId,
    featured_media: 0,
    comment_status: 'open',
    ping_status: 'closed',
    template: '',
    meta: [],
    description: { rendered: descriptionHtml(m, src, base) },
    caption: { rendered: m.caption === '' ? '' : displayExcerpt(m.caption) + '\n' },
    alt_text: m.alt,
    media_type: 'image',
    mime_type: m.mime,
    media_details: {
      width: m.width,
      height: m.height,
      file: m.file,
      filesize: m.filesize,
      sizes,
      image_meta: {
        aperture: '0',
        credit: '',
        camera: '',
        caption: '',
        created_timestamp: '0',
        copyright: '',
        focal_length: '0',
        iso: '0',
        shutter_speed: '0',
        title: '',
        orientation: '0',
        keywords: [],
      },
    },
    post: m.parent === 0 ? null : m.parent,
    source_url: src,
    _links: {
      self: [{ href: `${root}wp/v2/media/${att.id}` }],
      collection: [{ href: `${root}wp/v2/media` }],
      about: [{ href: `${root}wp/v2/types/attachment` }],
      author: [{ embeddable: true, href: `${root}wp/v2/users/${att.authorId}` }],
      replies: [{ embeddable: true, href: `${root}wp/v2/comments?post=${att.id}` }],
    },
  };
}

/** the_content of an attachment page: the medium image linked to the full one, then the description. */
function descriptionHtml(m: MediaRecord, src: string, base: string): string {
  const medium = m.sizes.medium;
  const [w, h, url] = medium ? [medium.width, medium.height, base + medium.file] : [m.width, m.height, src];
  const img =
    `<p class="attachment"><a href='${escapeHtml(src)}'><img width="${w}" height="${h}" src="${escapeHtml(url)}" ` +
    `class="attachment-medium size-medium" alt="${escapeHtml(m.alt)}" decoding="async" loading="lazy" /></a></p>\n`;
  return m.description === '' ? img : img + displayContent(m.description);
}

/** The plugin's image object (an event's, venue's or organizer's `image`). */
export function pluginImage(siteUrl: string, att: AttachmentRecord): Record<string, unknown> {
  const out: Record<string, unknown> = { url: attachmentUrl(siteUrl, att), id: att.id, extension: att.extension };
  const m = att.media;
  if (!m) return out;
  out.width = m.width;
  out.height = m.height;
  if (m.filesize) out.filesize = m.filesize;
  const names = Object.keys(m.sizes);
  if (names.length > 0) {
    const base = siteUrl + UPLOADS_PATH + folderOf(m);
    const sizes: Record<string, unknown> = {};
    for (const name of names) {
      const s = m.sizes[name];
      sizes[name] = {
        width: s.width,
        height: s.height,
        'mime-type': m.mime,
        ...(s.filesize ? { filesize: s.filesize } : {}),
        url: base + s.file,
      };
    }
    out.sizes = sizes;
  }
  return out;
}

const texts = new WeakMap<AttachmentRecord, { siteUrl: string; text: string }>();

/** pluginImage's JSON text (ASCII), made once per record (a record is replaced, never changed). */
export function pluginImageText(siteUrl: string, att: AttachmentRecord): string {
  const known = texts.get(att);
  if (known && known.siteUrl === siteUrl) return known.text;
  const text = escapeNonAscii(JSON.stringify(pluginImage(siteUrl, att)));
  texts.set(att, { siteUrl, text });
  return text;
}
