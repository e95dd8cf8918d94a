// Snapshots of a clustered calendar in the JetStream object store: one object per snapshot,
// named snap-<seq> (seq zero-padded, so names sort by seq), holding the engine's snapshot chunks
// as JSON lines (the same lines as a local snapshot part, src/store/snapshot.ts). A node starts
// from the newest one plus the stream after its seq; the writer keeps the newest few and purges
// the stream below the oldest one it keeps.
import type { ObjectStore } from '@nats-io/obj';
import { encodeDetachedChunks } from '../store/snapshot.ts';

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
 * Writes the chunks captured at `seq` (an iterable that later writes cannot change, as
 * engine.snapshotChunks() returns) as snap-<seq>. Lines are encoded between other work and
 * streamed to the server in 1 MiB pieces, never as one string. Returns the bytes written.
 */
export async function putSnapshot(os: ObjectStore, seq: number, chunks: Iterable<unknown>): Promise<number> {
  const lines = encodeDetachedChunks(chunks)[Symbol.asyncIterator]();
  let bytes = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const piece: string[] = [];
      let size = 0;
      while (size < 1 << 20) {
        const next = await lines.next();
        if (next.done) break;
        size += next.value.length;
        piece.push(next.value);
      }
      if (piece.length === 0) return controller.close();
      const buf = Buffer.from(piece.join(''), 'latin1'); // chunk lines are ASCII (non-ASCII escaped)
      bytes += buf.length;
      controller.enqueue(buf);
    },
  });
  // 512 KiB chunks (the default is 128 KiB): a quarter of the messages, under NATS's 1 MiB max payload
  await os.put({ name: snapshotName(seq), description: `calendar state after seq ${seq}`, options: { max_chunk_size: 512 * 1024 } }, stream);
  return bytes;
}

/** Reads snap-<seq> back as parsed chunks, in order. */
export async function readSnapshot(os: ObjectStore, seq: number): Promise<unknown[]> {
  const result = await os.get(snapshotName(seq));
  if (!result) throw new Error(`cluster: snapshot ${snapshotName(seq)} is missing from the object store`);
  const chunks: unknown[] = [];
  // the start of a line whose end has not arrived (lines are up to megabytes: columnar chunks),
  // kept as pieces and joined once when its newline comes
  let partial: Buffer[] = [];
  const reader = result.data.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const buf = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    let pos = 0;
    for (let nl = buf.indexOf(10, pos); nl >= 0; nl = buf.indexOf(10, pos)) {
      const line = partial.length > 0 ? Buffer.concat([...partial, buf.subarray(pos, nl)]) : buf.subarray(pos, nl);
      partial = [];
      chunks.push(JSON.parse(line.toString('latin1')));
      pos = nl + 1;
    }
    if (pos < buf.length) partial.push(Buffer.from(buf.subarray(pos)));
  }
  if (partial.length > 0) throw new Error(`cluster: snapshot ${snapshotName(seq)} ends inside a line`);
  const err = await result.error;
  if (err) throw new Error(`cluster: snapshot ${snapshotName(seq)} could not be read: ${err.message}`);
  return chunks;
}
