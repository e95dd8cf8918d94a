// The media library: WordPress core's /wp/v2/media over the calendar's attachments. An upload is
// checked (permission, size, type from the bytes), its sizes made (images.ts), its files written
// durably (files.ts), and only then its record committed as one `attachment` put op: journaled,
// replayed and snapshotted like every other record. A delete commits its op first and then
// removes the files. The HTTP shell (http.ts) and the embedding API (cal.media) both call here.
// Writes ask the calendar first (`ready`): a read-only calendar or a store with a storage fault
// refuses them with its error before a byte is written. A file the disk refuses is answered with
// the same storage errors (507 storage_full...) and leaves nothing behind; the next upload tries
// the disk again.

import { basename } from 'node:path';
import type { AttachmentRecord, MediaRecord, MediaSize } from '../engine/records.ts';
import { Tx, type Core } from '../api/context.ts';
import { canEditPost, canReadPost, canUpload, resolveActor } from '../api/wordpress/auth.ts';
import { CalendarError, fail } from '../api/wordpress/errors.ts';
import { sanitizeSlug, sanitizeTextField } from '../api/wordpress/text.ts';
import type { Actor, AsArg, Page, Params } from '../api/wordpress/types.ts';
import { StoreFaultError, faultError } from '../store/faults.ts';
import type { MediaFiles } from './files.ts';
import { DEFAULT_UPLOAD_LIMIT } from '../options/defaults.ts';
import { processImage, sniffImage } from './images.ts';
import { listMedia } from './list.ts';
import { denied, mediaFields, postOf } from './fields.ts';
import { splitExtension, storedName, typeOfExtension, uniqueName } from './names.ts';
import { folderOf, mediaObject, UPLOADS_PATH } from './represent.ts';

/** One file to add: its bytes and the name it was sent under, with the fields of the new item. */
export interface UploadInput {
  data: Buffer;
  filename: string;
  /** sent as a multipart/form-data `file` field (WordPress's errors then say "unknown error") */
  fromForm?: boolean;
  /** title, caption, alt_text, description, post */
  params?: Params;
}

export interface MediaAnswer {
  status: number;
  headers: Record<string, string>;
  data: unknown;
}

export interface MediaOptions {
  /** largest upload in bytes */
  limit?: number;
  /** before a write: resolves when the calendar takes writes, else rejects with its error
   *  (calendar_read_only, or the store's storage fault) */
  ready?: () => Promise<void>;
  /** where a refused file write is logged (with the full path); default console.error */
  log?: (line: string) => void;
  /** a node of a cluster: writes reaching a node that is not the writer run there (src/cluster/media.ts) */
  remote?: MediaRemote;
}

/** Media writes run by another node (a cluster's writer), once this node has checked what it can. */
export interface MediaRemote {
  /** whether writes run on this node */
  here(): boolean;
  create(input: UploadInput, actor: Actor, fieldParams: Params | undefined): Promise<MediaAnswer>;
  update(id: number, params: Params, actor: Actor): Promise<MediaAnswer>;
  delete(id: number, params: Params, actor: Actor): Promise<MediaAnswer>;
}

export class MediaLibrary {
  readonly limit: number;
  /** names (below the uploads folder) an upload in progress has chosen: no other may take them */
  private readonly reserved = new Set<string>();
  /** test hook: runs after an upload's files are durable, before its record is committed */
  afterFilesWritten: (() => void) | undefined;
  /** the last file write the disk refused (its log line), until a write succeeds: for the health route */
  fault: string | undefined;
  private readonly ready: () => Promise<void>;
  private readonly log: (line: string) => void;
  private readonly remote: MediaRemote | undefined;

  constructor(
    private readonly core: () => Core,
    readonly files: MediaFiles,
    opts: MediaOptions = {},
  ) {
    this.limit = opts.limit ?? DEFAULT_UPLOAD_LIMIT;
    this.ready = opts.ready ?? (() => Promise.resolve());
    this.log = opts.log ?? ((line) => console.error(line));
    this.remote = opts.remote;
  }

  /** the writer of a cluster, when it is another node */
  private get away(): MediaRemote | undefined {
    return this.remote?.here() === false ? this.remote : undefined;
  }

  /** A storage fault of the files layer as the REST error (logged with the full path); others as they are. */
  private refused(err: unknown, what: string): unknown {
    if (!(err instanceof StoreFaultError)) return err;
    this.log(`calendar-engine: media: ${err.fault.message}; ${what}`);
    // (the file's name only: the health route is public)
    this.fault = `media: ${err.fault.message.split(err.fault.file).join(basename(err.fault.file))}; ${what}`;
    return faultError(err.fault);
  }

  /** The item of an upload, or undefined (also for an image known by URL only). */
  private item(id: number): AttachmentRecord | undefined {
    const att = this.core().engine.attachment(id);
    return att?.media ? att : undefined;
  }

  private found(id: number): AttachmentRecord {
    const att = this.item(id);
    if (!att) throw fail('rest_post_invalid_id');
    return att;
  }

  /** Whether the actor may see an item: always, unless it is attached to a post they may not read. */
  private readable(actor: Actor, att: AttachmentRecord): boolean {
    const parent = att.media!.parent;
    if (parent === 0) return true;
    const post = postOf(this.core().engine, parent);
    return !post || canReadPost(actor, post);
  }

  private uniqueSlug(tx: Tx, base: string, selfId: number): string {
    const e = this.core().engine;
    const taken = (s: string): boolean => {
      for (const a of e.attachments()) if (a.media && a.id !== selfId && a.media.slug === s) return true;
      return (
        tx.slugTaken('event', s, selfId) || tx.slugTaken('venue', s, selfId) || tx.slugTaken('organizer', s, selfId)
      );
    };
    let slug = base;
    for (let n = 2; taken(slug); n++) slug = `${base}-${n}`;
    return slug;
  }

  // ---- the embedding API (cal.media): `as` as for the other collections, plain objects back -----

  /** Upload a file: `{ data, filename, params? }` (params: title, caption, alt_text, description, post). */
  async create(input: UploadInput, as?: AsArg): Promise<Record<string, unknown>> {
    return (await this.createAs(input, this.actor(as))).data as Record<string, unknown>;
  }

  async list(query: Params = {}, as?: AsArg): Promise<Page<Record<string, unknown>>> {
    const a = this.listAs(query, this.actor(as));
    return {
      items: a.data as Record<string, unknown>[],
      total: Number(a.headers['X-WP-Total']),
      totalPages: Number(a.headers['X-WP-TotalPages']),
    };
  }

  async get(id: number, as?: AsArg): Promise<Record<string, unknown>> {
    return this.getAs(id, this.actor(as)).data as Record<string, unknown>;
  }

  async update(id: number, fields: Params, as?: AsArg): Promise<Record<string, unknown>> {
    return (await this.updateAs(id, fields, this.actor(as))).data as Record<string, unknown>;
  }

  /** Delete an item and its files for good (the item as it was). */
  async delete(id: number, as?: AsArg): Promise<Record<string, unknown>> {
    return ((await this.deleteAs(id, { force: true }, this.actor(as))).data as { previous: Record<string, unknown> })
      .previous;
  }

  private actor(as: AsArg): Actor {
    return resolveActor(as, this.core().users);
  }

  // ---- create -------------------------------------------------------------------------

  /**
   * Adds a file. `input` may be a function: it is called (and may throw the body's errors) only
   * once the caller is known to be allowed to upload, as WordPress checks permissions first.
   */
  async createAs(source: UploadInput | (() => UploadInput), actor: Actor, fieldParams?: Params): Promise<MediaAnswer> {
    if (!canUpload(actor))
      throw denied(actor, 'rest_cannot_create', 'Sorry, you are not allowed to upload media on this site.');
    const fields = mediaFields(
      this.core().engine,
      actor,
      fieldParams ?? (typeof source === 'function' ? {} : (source.params ?? {})),
      true,
    );
    await this.ready();
    const input = typeof source === 'function' ? source() : source;
    if (this.away) return this.away.create(input, actor, fieldParams);
    const unknown = input.fromForm ? 'rest_upload_unknown_error' : 'rest_upload_sideload_error';
    if (input.data.length === 0) throw fail('rest_upload_no_data');
    if (input.data.length > this.limit) throw tooBig(this.limit);
    const [, givenExt] = splitExtension(input.filename);
    if (!typeOfExtension(givenExt)) {
      throw fail(
        unknown,
        [],
        {},
        {
          message: `Sorry, you are not allowed to upload this file type. Only JPEG, PNG, GIF and WebP images are accepted (got '${input.filename}').`,
        },
      );
    }
    const mime = sniffImage(input.data);
    if (!mime) {
      throw fail(
        unknown,
        [],
        {},
        { message: `The file is not a valid image: '${input.filename}' is not JPEG, PNG, GIF or WebP data.` },
      );
    }
    const image = await processImage(input.data, mime).catch((err: unknown) => {
      if (err instanceof CalendarError && err.code === 'rest_upload_sideload_error')
        throw fail(unknown, [], {}, { message: err.message });
      throw err;
    });

    const core = this.core();
    const tx = new Tx(core, actor);
    const folder = tx.stamps.local.slice(0, 4) + '/' + tx.stamps.local.slice(5, 7) + '/';
    const suffixes = image.sizes.map((s) => `${s.width}x${s.height}`);
    const name = uniqueName(
      storedName(input.filename, mime),
      suffixes,
      (n) => this.reserved.has(folder + n) || this.files.exists(folder + n),
    );
    const [base, ext] = splitExtension(name);
    const writes = [{ rel: folder + name, data: input.data }];
    const sizes: Record<string, MediaSize> = {};
    for (const s of image.sizes) {
      const file = `${base}-${s.width}x${s.height}.${ext}`;
      sizes[s.name] = { file, width: s.width, height: s.height, filesize: s.data.length };
      if (!writes.some((w) => w.rel === folder + file)) writes.push({ rel: folder + file, data: s.data });
    }
    for (const w of writes) this.reserved.add(w.rel);
    try {
      try {
        await this.files.write(writes);
      } catch (err) {
        throw this.refused(err, 'the upload is refused and nothing of it is kept');
      }
      this.fault = undefined;
      this.afterFilesWritten?.();
      const title = fields.title ?? (input.fromForm ? sanitizeTextField(splitExtension(input.filename)[0]) : base);
      const id = core.engine.allocPostId();
      const media: MediaRecord = {
        file: folder + name,
        mime,
        width: image.width,
        height: image.height,
        filesize: input.data.length,
        sizes,
        slug: '',
        title,
        caption: fields.caption ?? '',
        alt: fields.alt ?? '',
        description: fields.description ?? '',
        parent: fields.parent ?? 0,
        modified: tx.stamps.local,
        modifiedUtc: tx.stamps.utc,
      };
      media.slug = this.uniqueSlug(tx, sanitizeSlug(title) || String(id), id);
      const rec: AttachmentRecord = {
        id,
        authorId: actor!.id,
        url: UPLOADS_PATH + media.file,
        extension: ext,
        date: tx.stamps.local,
        dateUtc: tx.stamps.utc,
        media,
      };
      try {
        await core.commit([{ t: 'attachment', a: 'put', rec }], actor); // (may throw before it returns a promise)
      } catch (err) {
        // refused, not durable (read-only, a storage fault): no record will name the files
        // (in a cluster: this node is no longer the writer, or the log refused the append)
        const refused = ['calendar_read_only', 'rest_cluster_not_writer', 'rest_cluster_write_failed'];
        if (err instanceof CalendarError && (err.code.startsWith('storage_') || refused.includes(err.code))) {
          await this.files.remove(writes.map((w) => w.rel)).catch(() => {});
        }
        throw err;
      }
      const site = core.site.config;
      return {
        status: 201,
        headers: { Location: `${site.siteUrl}${site.restPrefix}/wp/v2/media/${id}` },
        data: mediaObject(site, core.engine.attachment(id)!),
      };
    } finally {
      for (const w of writes) this.reserved.delete(w.rel);
    }
  }

  // ---- read ---------------------------------------------------------------------------

  getAs(id: number, actor: Actor): MediaAnswer {
    const att = this.found(id);
    if (!this.readable(actor, att))
      throw denied(actor, 'rest_forbidden', 'Sorry, you are not allowed to view this post.');
    return { status: 200, headers: {}, data: mediaObject(this.core().site.config, att) };
  }

  listAs(params: Params, actor: Actor): MediaAnswer {
    const { headers, data } = listMedia(this.core, params, (att) => this.readable(actor, att));
    return { status: 200, headers, data };
  }

  // ---- update and delete --------------------------------------------------------------

  async updateAs(id: number, params: Params, actor: Actor): Promise<MediaAnswer> {
    if (this.away) return this.away.update(id, params, actor);
    const att = this.found(id);
    if (!canEditPost(actor, { authorId: att.authorId, status: 'inherit' })) {
      throw denied(actor, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this post.');
    }
    const fields = mediaFields(this.core().engine, actor, params, false);
    await this.ready();
    const core = this.core();
    const tx = new Tx(core, actor);
    const media: MediaRecord = { ...att.media!, ...fields, modified: tx.stamps.local, modifiedUtc: tx.stamps.utc };
    const rec: AttachmentRecord = { ...att, media };
    await core.commit([{ t: 'attachment', a: 'put', rec }], actor);
    return { status: 200, headers: {}, data: mediaObject(core.site.config, core.engine.attachment(id)!) };
  }

  async deleteAs(id: number, params: Params, actor: Actor): Promise<MediaAnswer> {
    if (this.away) return this.away.delete(id, params, actor);
    const att = this.found(id);
    if (!canEditPost(actor, { authorId: att.authorId, status: 'inherit' })) {
      throw denied(actor, 'rest_cannot_delete', 'Sorry, you are not allowed to delete this post.');
    }
    const force = params.force;
    if (!(force === true || force === 'true' || force === '1' || force === 1)) {
      throw fail(
        'rest_trash_not_supported',
        [],
        {},
        { message: "The post does not support trashing. Set 'force=true' to delete." },
      );
    }
    await this.ready();
    const core = this.core();
    const previous = mediaObject(core.site.config, att);
    await core.commit([{ t: 'attachment', a: 'delete', id }], actor);
    // the record is gone for good: its files go after it (a crash between leaves files no record names)
    const m = att.media!;
    const folder = folderOf(m);
    // (a disk that refuses it leaves them: the delete is done, the files are harmless)
    await this.files.remove([m.file, ...Object.values(m.sizes).map((s) => folder + s.file)]).catch((err: unknown) => {
      const e = this.refused(err, 'the item is deleted; its files stay until removed by hand');
      if (!(e instanceof CalendarError)) {
        this.log(`calendar-engine: media: could not remove the files of ${id}: ${String(e)}`);
      }
    });
    return { status: 200, headers: {}, data: { deleted: true, previous } };
  }
}

/** 413 rest_upload_file_too_big, naming the limit as WordPress does (in KB). */
export function tooBig(limit: number): CalendarError {
  return fail('rest_upload_file_too_big', [Math.floor(limit / 1024).toLocaleString('en-US')], { limit });
}
