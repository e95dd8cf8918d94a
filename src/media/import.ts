// The media records of an import (src/media/export.ts writes them): each checked and made the
// attachment record of an upload with its id, its fields and its sizes; its files' bytes are
// kept beside the record until the import is loaded, then written durably (as an upload's are)
// just before the records join the calendar. An import that fails after that removes them.

import type { EngineApi } from '../engine/engine-api.ts';
import type { AttachmentRecord, MediaRecord, MediaSize } from '../engine/records.ts';
import { asId, asNumber, asString } from '../api/wordpress/params.ts';
import { sanitizeSlug } from '../api/wordpress/text.ts';
import { faultError, StoreFaultError } from '../store/faults.ts';
import { safeRel, type MediaFiles } from './files.ts';
import { sniffImage } from './images.ts';
import { splitExtension, typeOfExtension } from './names.ts';
import { UPLOADS_PATH } from './represent.ts';
import { SIZES } from './sizes.ts';

type Rec = Record<string, unknown>;

/** One file of an imported upload: its path below the uploads folder and its bytes. */
export interface ImportedFile {
  rel: string;
  data: Buffer;
}

/** the files of each imported upload, until the import is loaded */
const pending = new WeakMap<AttachmentRecord, ImportedFile[]>();

/** What reading a media record needs of the importer. */
export interface MediaImportContext {
  engine: EngineApi;
  siteUrl: string;
  /** the record's id, taken for it (the importer's check that no other post has it) */
  id: number;
  /** its date and modified stamps, read by the importer as for every post */
  stamps: { date: string; dateUtc: string; modified: string; modifiedUtc: string };
  /** `wanted` made unique among the uploads' slugs */
  slug: (wanted: string) => string;
  /** whether a file is already named by an upload of this import */
  fileTaken: (rel: string) => boolean;
  /** throws the importer's error for this record */
  bad: (message: string) => never;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const SIZE_NAMES = new Set(SIZES.map((s) => s.name));

/** The attachment record of one media record (its files kept for writeImportedMedia), the URLs
 *  an image of the same import may name it by (its URL here, and where it was exported), and
 *  its files' paths. */
export function importMedia(
  r: Rec,
  cx: MediaImportContext,
): { rec: AttachmentRecord; urls: string[]; files: string[] } {
  function bad(message: string): never {
    return cx.bad(message);
  }
  const text = (name: string): string => {
    const v = r[name];
    if (v === undefined || v === null) return '';
    return asString(v) ?? bad(`${name} must be a string`);
  };
  const dimension = (v: unknown, name: string): number => {
    const n = asNumber(v);
    return n !== undefined && Number.isInteger(n) && n > 0 ? n : bad(`${name} must be a positive integer`);
  };
  const bytes = (v: unknown, name: string): Buffer => {
    if (typeof v !== 'string' || v === '') bad(`${name} must be the file's bytes in base64`);
    if (!BASE64.test(v)) bad(`${name} is not base64`);
    return Buffer.from(v, 'base64');
  };

  const file = asString(r.file);
  if (!file || safeRel(file) !== file) bad('file must be a path below the uploads folder, as 2030/01/poster.jpg');
  const slash = file.lastIndexOf('/');
  const folder = file.slice(0, slash + 1);
  const [base, ext] = splitExtension(file.slice(slash + 1));
  const mime = typeOfExtension(ext);
  if (!mime || base === '') bad(`file '${file}' is not named as a JPEG, PNG, GIF or WebP image`);
  if (r.mime_type !== undefined && r.mime_type !== mime) bad(`mime_type must be ${mime}, as the file's name says`);
  const data = bytes(r.data, 'data');
  if (sniffImage(data) !== mime) bad(`data is not a ${mime} image, as the file's name says`);

  const files: ImportedFile[] = [{ rel: file, data }];
  const sizes: Record<string, MediaSize> = {};
  const given = r.sizes ?? {};
  if (typeof given !== 'object' || given === null || Array.isArray(given)) bad('sizes must be an object of sizes');
  for (const [name, v] of Object.entries(given as Rec)) {
    const where = `sizes.${name}`;
    if (!SIZE_NAMES.has(name)) bad(`${where}: not an image size (${[...SIZE_NAMES].join(', ')})`);
    if (typeof v !== 'object' || v === null || Array.isArray(v)) bad(`${where} must be an object`);
    const s = v as Rec;
    const sizeFile = asString(s.file);
    if (!sizeFile || sizeFile.includes('/') || safeRel(sizeFile) !== sizeFile || splitExtension(sizeFile)[1] !== ext)
      bad(`${where}.file must be a file name beside the original, with its extension`);
    const sizeData = bytes(s.data, `${where}.data`);
    if (sniffImage(sizeData) !== mime) bad(`${where}.data is not a ${mime} image`);
    sizes[name] = {
      file: sizeFile,
      width: dimension(s.width, `${where}.width`),
      height: dimension(s.height, `${where}.height`),
      filesize: sizeData.length,
    };
    if (!files.some((f) => f.rel === folder + sizeFile)) files.push({ rel: folder + sizeFile, data: sizeData });
  }
  for (const f of files) {
    const owner = cx.engine.attachmentByUrl(UPLOADS_PATH + f.rel);
    if (owner || cx.fileTaken(f.rel)) bad(`file '${f.rel}' is already an upload's${owner ? ` (id ${owner.id})` : ''}`);
  }

  const parent = r.post === undefined || r.post === null ? 0 : (asId(r.post) ?? (r.post === 0 ? 0 : undefined));
  if (parent === undefined) bad('post must be the id of an event, venue or organizer, or 0');
  const title = text('title');
  const media: MediaRecord = {
    file,
    mime,
    width: dimension(r.width, 'width'),
    height: dimension(r.height, 'height'),
    filesize: data.length,
    sizes,
    slug: cx.slug(sanitizeSlug(text('slug') || title)),
    title,
    caption: text('caption'),
    alt: text('alt_text'),
    description: text('description'),
    parent,
    modified: cx.stamps.modified,
    modifiedUtc: cx.stamps.modifiedUtc,
  };
  const rec: AttachmentRecord = {
    id: cx.id,
    authorId: asId(r.author ?? 0) ?? bad('author must be a user id'),
    url: UPLOADS_PATH + file,
    extension: ext,
    date: cx.stamps.date,
    dateUtc: cx.stamps.dateUtc,
    media,
  };
  pending.set(rec, files);
  const urls = [cx.siteUrl + UPLOADS_PATH + file];
  const source = asString(r.source_url);
  if (source && source !== urls[0]) urls.push(source);
  return { rec, urls, files: files.map((f) => f.rel) };
}

/** The files an import's uploads bring (none for other attachments). */
export function importedFiles(attachments: readonly AttachmentRecord[]): ImportedFile[] {
  const out: ImportedFile[] = [];
  for (const a of attachments) {
    const files = pending.get(a);
    if (files) out.push(...files);
  }
  return out;
}

/** A slug of an upload already in the calendar. */
export function mediaSlugTaken(engine: EngineApi, slug: string): boolean {
  for (const a of engine.attachments()) if (a.media?.slug === slug) return true;
  return false;
}

/**
 * Writes the files of an import's uploads durably, before its records join the calendar;
 * resolves to what takes them back (an import that fails after this). A disk that refuses them
 * answers the store's storage errors, and nothing of them stays.
 */
export async function writeImportedMedia(
  files: MediaFiles,
  attachments: readonly AttachmentRecord[],
): Promise<() => Promise<void>> {
  const writes = importedFiles(attachments);
  if (writes.length === 0) return async () => {};
  try {
    await files.write(writes);
  } catch (err) {
    throw err instanceof StoreFaultError ? faultError(err.fault) : err;
  }
  for (const a of attachments) pending.delete(a);
  return () => files.remove(writes.map((w) => w.rel)).catch(() => {});
}
