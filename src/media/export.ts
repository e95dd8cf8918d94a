// The media library in an export (docs/media.md#export-and-import): one `media` record per upload,
// written before venues, organizers and events so that an import knows every upload before a
// record names it as its image. A record carries the item's fields and its files' bytes in
// base64: the original as `data`, each size as `sizes.<name>.data`. Inline rather than files
// beside the export: an export is one stream (stdout, a file, cal.exportTo's sink, JSON Lines),
// and a file with its media in it cannot lose them on the way. The sizes travel as they are
// rather than being made again on import: the import is exact (the same bytes whatever the
// image library's version) and needs no image work.

import type { EngineApi } from '../engine/engine-api.ts';
import type { AttachmentRecord } from '../engine/records.ts';
import { fail } from '../api/wordpress/errors.ts';
import type { MediaFiles } from './files.ts';
import { folderOf, UPLOADS_PATH } from './represent.ts';

/** A media record of an export, as writeExport writes it. */
export interface MediaExportRecord {
  type: 'media';
  [field: string]: unknown;
}

/** The fields of a media record without its bytes (in import order). */
export function mediaFields(att: AttachmentRecord, siteUrl: string): Record<string, unknown> {
  return { id: att.id, ...uploadFields(att), source_url: siteUrl + UPLOADS_PATH + att.media!.file };
}

/** An upload's own fields by their REST names, from author to height: what an export record and
 *  a change record (changes.ts) both carry. */
export function uploadFields(att: AttachmentRecord): Record<string, unknown> {
  const m = att.media!;
  return {
    author: att.authorId,
    date: att.date,
    date_utc: att.dateUtc,
    modified: m.modified,
    modified_utc: m.modifiedUtc,
    slug: m.slug,
    title: m.title,
    caption: m.caption,
    alt_text: m.alt,
    description: m.description,
    post: m.parent,
    file: m.file,
    mime_type: m.mime,
    width: m.width,
    height: m.height,
  };
}

/** The bytes of a stored file, read at once (an export reads a record at a time). */
export type ReadFile = (rel: string) => Buffer;

/** A stored file's bytes read synchronously from `files` (a folder or memory). */
export function syncReader(files: MediaFiles): ReadFile {
  return (rel) => {
    if (!files.readSync) throw fail('media_export_async');
    const data = files.readSync(rel);
    if (!data) throw fail('media_file_missing', [rel], { file: rel });
    return data;
  };
}

/** One upload as its export record. */
export function mediaRecord(att: AttachmentRecord, siteUrl: string, read: ReadFile): MediaExportRecord {
  const m = att.media!;
  const folder = folderOf(m);
  const sizes: Record<string, unknown> = {};
  for (const [name, s] of Object.entries(m.sizes)) {
    sizes[name] = { file: s.file, width: s.width, height: s.height, data: read(folder + s.file).toString('base64') };
  }
  return { type: 'media', ...mediaFields(att, siteUrl), data: read(m.file).toString('base64'), sizes };
}

/** Every upload of the calendar, in id order, as export records. */
export function* exportMedia(engine: EngineApi, siteUrl: string, read: ReadFile): Generator<MediaExportRecord> {
  for (const att of engine.attachments()) if (att.media) yield mediaRecord(att, siteUrl, read);
}

/** Every upload as `{type: 'media', id}`, its fields and bytes left to withMediaBytes. */
export function* mediaPlaceholders(engine: EngineApi): Generator<MediaExportRecord> {
  for (const att of engine.attachments()) if (att.media) yield { type: 'media', id: att.id };
}

/**
 * An export whose media are read asynchronously (a cluster's files are in the NATS object store):
 * `records`, with each media placeholder made the whole record, its files read by `read`.
 */
export async function* withMediaBytes<R extends { type: string }>(
  records: Iterable<R>,
  engine: EngineApi,
  siteUrl: string,
  read: (rel: string) => Promise<Buffer>,
): AsyncGenerator<R | MediaExportRecord> {
  for (const rec of records) {
    if (rec.type !== 'media') {
      yield rec;
      continue;
    }
    const att = engine.attachment((rec as unknown as { id: number }).id);
    if (!att?.media) continue; // deleted since
    const files = new Map<string, Buffer>();
    const folder = folderOf(att.media);
    for (const rel of [att.media.file, ...Object.values(att.media.sizes).map((s) => folder + s.file)])
      files.set(rel, await read(rel));
    yield mediaRecord(att, siteUrl, (rel) => files.get(rel)!);
  }
}
