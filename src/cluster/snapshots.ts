// Snapshots of a clustered calendar in the JetStream object store: one object per snapshot,
// named snap-<seq> (seq zero-padded, so names sort by seq), holding the engine's snapshot chunks
// as JSON lines (the same lines as a local snapshot part, src/store/snapshot.ts), compressed with
// brotli at quality 1 (metadata encoding=br; 34 MB -> 8.8 MB at 100k events, docs/cluster.md for
// the measurement). Snapshots written before compression (no encoding) are read as they are.
// A node starts from the newest one plus the stream after its seq; the writer keeps the newest
// few and purges the stream below the oldest one it keeps.
import type { ObjectStore } from '@nats-io/obj';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import zlib from 'node:zlib';
import { encodeDetachedChunks } from '../store/snapshot.ts';

/** brotli at quality 1: smaller and faster than gzip at level 1, both ways (docs/cluster.md) */
const COMPRESS = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 }, chunkSize: 1 << 20 };
/** 1 MiB output pieces (zlib's default is 16 KiB): decompressing 324 MiB of snapshot took 7.3 s
 *  in 16 KiB pieces, 1.6 s in 1 MiB ones (each piece is a round trip to the thread pool and
 *  through the stream) */
const DECOMPRESS = { chunkSize: 1 << 20 };

const PREFIX = 'snap-';

export function snapshotName(seq: number): string {
  return PREFIX + String(seq).padStart(16, '0');
}

export function snapshotSeq(name: string): number | undefined {
  if (!name.startsWith(PREFIX)) return undefined;
  const seq = Number(name.slice(PREFIX.length));
  return Number.isSafeInteger(seq) ? seq : undefined;
}

/** The complete snapshots in the store (seq and size in bytes), oldest first. */
export async function snapshotInfos(os: ObjectStore): Promise<Array<{ seq: number; bytes: number }>> {
  const out: Array<{ seq: number; bytes: number }> = [];
  for (const info of await os.list()) {
    const seq = snapshotSeq(info.name);
    if (seq !== undefined && !info.deleted) out.push({ seq, bytes: info.size });
  }
  return out.sort((a, b) => a.seq - b.seq);
}

/** The seqs of the complete snapshots in the store, oldest first. */
export async function listSnapshots(os: ObjectStore): Promise<number[]> {
  return (await snapshotInfos(os)).map((s) => s.seq);
}

/**
 * Deletes the snapshots but the newest `keep`; returns the oldest kept. `stored`, the one just
 * written, counts even when the listing does not show it yet (once, in a full CI run, the stream
 * was left unpurged after a snapshot: docs/cluster.md, "Tests").
 */
export async function pruneSnapshots(os: ObjectStore, keep: number, stored: number): Promise<number> {
  const seqs = await listSnapshots(os);
  if (!seqs.includes(stored)) {
    seqs.push(stored);
    seqs.sort((x, y) => x - y);
  }
  for (const seq of seqs.slice(0, -keep)) await os.delete(snapshotName(seq));
  return seqs[Math.max(0, seqs.length - keep)];
}

/**
 * Writes the chunks captured at `seq` (an iterable that later writes cannot change, as
 * engine.snapshotChunks() returns) as snap-<seq>, compressed. Lines are encoded between other
 * work and compressed and streamed to the server piece by piece, never as one string.
 * Returns the bytes of the lines and of the stored (compressed) object.
 */
export async function putSnapshot(
  os: ObjectStore,
  seq: number,
  chunks: Iterable<unknown>,
): Promise<{ bytes: number; stored: number }> {
  let bytes = 0;
  const lines = Readable.from(
    (async function* () {
      const piece: string[] = [];
      let size = 0;
      for await (const line of encodeDetachedChunks(chunks)) {
        piece.push(line);
        size += line.length;
        if (size >= 1 << 20) {
          yield Buffer.from(piece.splice(0).join(''), 'latin1'); // chunk lines are ASCII (non-ASCII escaped)
          bytes += size;
          size = 0;
        }
      }
      if (piece.length > 0) yield Buffer.from(piece.join(''), 'latin1');
      bytes += size;
    })(),
  );
  const compressed = lines.pipe(zlib.createBrotliCompress(COMPRESS));
  lines.once('error', (err) => compressed.destroy(err));
  const body = Readable.toWeb(compressed) as unknown as ReadableStream<Uint8Array>;
  // 512 KiB chunks (the default is 128 KiB): a quarter of the messages, under NATS's 1 MiB max payload
  const info = await os.put(
    {
      name: snapshotName(seq),
      description: `calendar state after seq ${seq}`,
      metadata: { encoding: 'br' },
      options: { max_chunk_size: 512 * 1024 },
    },
    body,
  );
  return { bytes, stored: info.size };
}

/** Reads snap-<seq> back as parsed chunks, in order. */
export async function readSnapshot(os: ObjectStore, seq: number): Promise<unknown[]> {
  const result = await os.get(snapshotName(seq));
  if (!result) throw new Error(`cluster: snapshot ${snapshotName(seq)} is missing from the object store`);
  const stored = Readable.fromWeb(result.data as unknown as NodeReadableStream<Uint8Array>);
  const encoding = result.info.metadata?.encoding;
  if (encoding !== undefined && encoding !== 'br')
    throw new Error(`cluster: snapshot ${snapshotName(seq)} has an unknown encoding '${encoding}'`);
  const source = encoding === 'br' ? stored.pipe(zlib.createBrotliDecompress(DECOMPRESS)) : stored;
  if (source !== stored) stored.once('error', (err) => source.destroy(err));
  const chunks: unknown[] = [];
  // the start of a line whose end has not arrived (lines are up to megabytes: columnar chunks),
  // kept as pieces and joined once when its newline comes
  let partial: Buffer[] = [];
  try {
    for await (const buf of source as AsyncIterable<Buffer>) {
      let pos = 0;
      for (let nl = buf.indexOf(10, pos); nl >= 0; nl = buf.indexOf(10, pos)) {
        const line = partial.length > 0 ? Buffer.concat([...partial, buf.subarray(pos, nl)]) : buf.subarray(pos, nl);
        partial = [];
        chunks.push(JSON.parse(line.toString('latin1')));
        pos = nl + 1;
      }
      if (pos < buf.length) partial.push(Buffer.from(buf.subarray(pos)));
    }
  } catch (err) {
    throw new Error(`cluster: snapshot ${snapshotName(seq)} could not be read: ${(err as Error).message}`);
  }
  if (partial.length > 0) throw new Error(`cluster: snapshot ${snapshotName(seq)} ends inside a line`);
  const err = await result.error;
  if (err) throw new Error(`cluster: snapshot ${snapshotName(seq)} could not be read: ${err.message}`);
  return chunks;
}
