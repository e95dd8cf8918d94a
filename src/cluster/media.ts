// The media library of a cluster (docs/cluster.md#media): the files in a NATS object store
// (CAL_<name>_media, replicated as the stream is), the attachment records in the log like every
// other write. Every node serves the files from the object store, keeping the ones it served
// last in memory (a byte budget); a watch of the bucket tells each node at once which names exist
// and which files were deleted or replaced. Writes run on the writer: an upload reaching a follower
// puts its bytes in the bucket under a staging name (the object store takes files of any size in
// chunks; a NATS message would be limited by max_payload, 1 MiB by default), sends the writer a
// small request (as forwarded REST writes are: forward.ts), and the writer makes the sizes, picks
// the name (unique across the cluster: one node chooses) and commits the record; the follower
// answers once it has applied the write. Deletes remove the files from the bucket: gone on every node.

import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Subscription } from '@nats-io/transport-node';
import { Objm, type ObjectStore } from '@nats-io/obj';
import { fail } from '../api/wordpress/errors.ts';
import type { Actor, Params, RestCall, RestResult } from '../api/wordpress/types.ts';
import { natsNames, retry } from './connect.ts';
import { answerForwarded, Forwarder } from './forward.ts';
import type { ClusterNode } from './node.ts';
import type { MediaFiles, StoredFile } from '../media/files.ts';
import { MediaLibrary, type MediaAnswer, type MediaRemote, type UploadInput } from '../media/library.ts';
import type { Core } from '../api/context.ts';

/** bytes of files a node keeps in memory after serving them */
export const CACHE_BYTES = 64 * 1024 * 1024;
/** the staging names of uploads forwarded by followers (never served: no image extension) */
const STAGING = '.staging-';
/** a staged upload older than this was abandoned (its follower stopped before sending it) */
const STAGING_MS = 10 * 60_000;

/** The uploads of a cluster, in its object store. */
export class ObjectFiles implements MediaFiles {
  readonly root = undefined;
  /** the names in the bucket, kept by the watch (exists() is synchronous) */
  private readonly names = new Set<string>();
  /** files served lately, in least-recently-used order */
  private readonly cache = new Map<string, { data: Buffer; mtimeMs: number }>();
  private cached = 0;
  private watcher: { stop(): void } | undefined;

  constructor(
    readonly os: ObjectStore,
    private readonly budget = CACHE_BYTES,
  ) {}

  /** Follows the bucket: the names it holds (all of them once this resolves: a writer picks new
   *  names against them), and files deleted or replaced (dropped from the cache). */
  async watch(): Promise<void> {
    for (const info of await this.os.list()) if (!info.deleted) this.names.add(info.name);
    // (the history replays each name's latest state after the listing: it converges on the bucket)
    const it = await this.os.watch({ includeHistory: true });
    this.watcher = it;
    void (async () => {
      for await (const info of it) {
        if (!info) continue; // the end of the history
        this.forget(info.name);
        if (info.deleted) this.names.delete(info.name);
        else this.names.add(info.name);
      }
    })().catch(() => {});
  }

  stop(): void {
    this.watcher?.stop();
  }

  private forget(rel: string): void {
    const c = this.cache.get(rel);
    if (!c) return;
    this.cache.delete(rel);
    this.cached -= c.data.length;
  }

  private keep(rel: string, data: Buffer, mtimeMs: number): void {
    this.forget(rel);
    if (data.length > this.budget) return;
    this.cache.set(rel, { data, mtimeMs });
    this.cached += data.length;
    for (const [k, v] of this.cache) {
      if (this.cached <= this.budget) break;
      this.cache.delete(k);
      this.cached -= v.data.length;
    }
  }

  exists(rel: string): boolean {
    return this.names.has(rel);
  }

  /** Each file put in the bucket (stored on a quorum of its replicas); on a failure, those put are deleted. */
  async write(files: ReadonlyArray<{ rel: string; data: Buffer }>): Promise<void> {
    const put: string[] = [];
    try {
      for (const f of files) {
        await this.os.putBlob({ name: f.rel }, f.data);
        put.push(f.rel);
        this.names.add(f.rel);
      }
    } catch (err) {
      await this.remove(put).catch(() => {});
      throw fail(
        'rest_cluster_write_failed',
        [],
        { file: files[put.length]?.rel },
        { message: `The file could not be stored in the cluster's object store: ${(err as Error).message}` },
      );
    }
  }

  /** The file's size and time, its bytes fetched into the cache for the read that follows. */
  async stat(rel: string): Promise<StoredFile | undefined> {
    const hit = this.cache.get(rel);
    if (hit) {
      this.cache.delete(rel); // (most recently used last)
      this.cache.set(rel, hit);
      return { size: hit.data.length, mtimeMs: hit.mtimeMs };
    }
    const info = await this.os.info(rel);
    if (!info || info.deleted) return undefined;
    const data = await this.os.getBlob(rel);
    if (!data) return undefined;
    const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    const mtimeMs = Date.parse(info.mtime);
    this.keep(rel, buf, mtimeMs);
    return { size: buf.length, mtimeMs };
  }

  read(rel: string, start: number, end: number): NodeJS.ReadableStream | Buffer {
    const hit = this.cache.get(rel);
    if (hit) return hit.data.subarray(start, end + 1);
    // (dropped since stat: fetched again)
    const all = this.readAll.bind(this);
    return Readable.from(
      (async function* () {
        yield (await all(rel)).subarray(start, end + 1);
      })(),
    );
  }

  async readAll(rel: string): Promise<Buffer> {
    const data = await this.os.getBlob(rel);
    if (!data) throw fail('media_file_missing', [rel], { file: rel });
    return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  }

  async remove(rels: readonly string[]): Promise<void> {
    let first: unknown;
    for (const rel of rels) {
      this.forget(rel);
      this.names.delete(rel);
      await this.os.delete(rel).catch((err: unknown) => {
        if (!/not found/i.test(String((err as Error).message))) first ??= err;
      });
    }
    if (first !== undefined) throw first;
  }
}

/** What a follower sends the writer for a media write (the bytes of an upload are staged). */
interface MediaCall {
  op: 'create' | 'update' | 'delete';
  actor: Actor;
  id?: number;
  params?: Params;
  staged?: string;
  filename?: string;
  fromForm?: boolean;
  fieldParams?: Params;
}

/** What the calendar of a node offers the cluster's media library. */
export interface MediaHost {
  media: {
    createAs(input: UploadInput, actor: Actor, fieldParams?: Params): Promise<MediaAnswer>;
    updateAs(id: number, params: Params, actor: Actor): Promise<MediaAnswer>;
    deleteAs(id: number, params: Params, actor: Actor): Promise<MediaAnswer>;
  };
  waitForSeq(seq: number): Promise<boolean>;
}

/** Media writes of a cluster's nodes: run here on the writer, sent to it from the others. */
export class ClusterMediaRemote implements MediaRemote {
  private readonly forwarder: Forwarder;
  private readonly subject: string;
  private sub: Subscription | undefined;

  constructor(
    private readonly node: ClusterNode,
    private readonly files: ObjectFiles,
    private readonly host: MediaHost,
  ) {
    this.subject = `calendar.${node.opts.name}.media`;
    this.forwarder = new Forwarder(node.connection, this.subject);
    node.holderListeners.add(() => this.forwarder.writerChanged());
    node.roleListeners.add((writer) => (writer ? this.serve() : this.unserve()));
    if (node.isWriter) this.serve();
  }

  here(): boolean {
    return this.node.isWriter;
  }

  /** The writer answers forwarded media writes (a queue group, as forwarded REST writes), and
   *  removes what followers staged and never sent (a follower that stopped in between). */
  private serve(): void {
    if (this.sub) return;
    const os = this.files.os;
    void os
      .list()
      .then(async (infos) => {
        for (const i of infos)
          if (i.name.startsWith(STAGING) && Date.now() - Date.parse(i.mtime) > STAGING_MS)
            await os.delete(i.name).catch(() => {});
      })
      .catch(() => {});
    this.sub = this.node.connection.subscribe(this.subject, {
      queue: 'writer',
      callback: (_err, msg) => {
        void answerForwarded(
          msg.data,
          async (call) => (await this.run(call as unknown as MediaCall)) as unknown as RestResult,
          () => this.node.applied,
        ).then((reply) => msg.respond(reply));
      },
    });
  }

  unserve(): void {
    this.sub?.unsubscribe();
    this.sub = undefined;
  }

  /** A forwarded write, on the writer. */
  private async run(call: MediaCall): Promise<MediaAnswer> {
    if (!this.node.isWriter) throw fail('rest_cluster_not_writer');
    const lib = this.host.media;
    switch (call.op) {
      case 'create': {
        // (left for the follower to remove: a write sent again after a change of writer reads it again)
        const data = await this.files.os.getBlob(call.staged!);
        if (!data) throw fail('rest_upload_no_data');
        const input: UploadInput = {
          data: Buffer.from(data.buffer, data.byteOffset, data.byteLength),
          filename: call.filename!,
          fromForm: call.fromForm,
          params: call.params,
        };
        return lib.createAs(input, call.actor, call.fieldParams);
      }
      case 'update':
        return lib.updateAs(call.id!, call.params ?? {}, call.actor);
      default:
        return lib.deleteAs(call.id!, call.params ?? {}, call.actor);
    }
  }

  /** Sends a write to the writer; resolves once this node has applied it. */
  private async send(call: MediaCall): Promise<MediaAnswer> {
    const { result, seq } = await this.forwarder.forward(call as unknown as RestCall);
    await this.host.waitForSeq(seq);
    return result as unknown as MediaAnswer;
  }

  async create(input: UploadInput, actor: Actor, fieldParams: Params | undefined): Promise<MediaAnswer> {
    const staged = `${STAGING}${randomBytes(12).toString('hex')}`;
    try {
      await this.files.os.putBlob({ name: staged }, input.data);
    } catch (err) {
      throw fail(
        'rest_cluster_write_failed',
        [],
        {},
        { message: `The upload could not be staged in the cluster's object store: ${(err as Error).message}` },
      );
    }
    try {
      return await this.send({
        op: 'create',
        actor,
        staged,
        filename: input.filename,
        fromForm: input.fromForm,
        params: input.params,
        fieldParams,
      });
    } finally {
      await this.files.os.delete(staged).catch(() => {}); // (the writer has read it, or never will)
    }
  }

  update(id: number, params: Params, actor: Actor): Promise<MediaAnswer> {
    return this.send({ op: 'update', actor, id, params });
  }

  delete(id: number, params: Params, actor: Actor): Promise<MediaAnswer> {
    return this.send({ op: 'delete', actor, id, params });
  }
}

/** The object store of a cluster's media, made if missing, its names followed. */
export async function openClusterFiles(node: ClusterNode): Promise<ObjectFiles> {
  const until = Date.now() + (node.opts.connectTimeoutMs ?? 30_000);
  const os = await retry(until, () =>
    new Objm(node.connection).create(natsNames(node.opts.name).media, { replicas: node.opts.replicas ?? 3 }),
  );
  const files = new ObjectFiles(os);
  // the listing and the watch are NATS calls too, retried as the bucket's creation is: on a busy
  // machine JetStream may not answer in time, and a node then exited at start with a bare "timeout"
  await retry(until, () => files.watch());
  node.closers.push(async () => files.stop());
  return files;
}

/** The media library of a cluster node: its files in the object store, its writes on the writer. */
export async function clusterMediaLibrary(
  node: ClusterNode,
  host: MediaHost & { collections: { core: Core } },
  limit: number,
): Promise<MediaLibrary> {
  const files = await openClusterFiles(node);
  const remote = new ClusterMediaRemote(node, files, host);
  node.closers.push(async () => remote.unserve());
  return new MediaLibrary(() => host.collections.core, files, { limit, remote });
}
