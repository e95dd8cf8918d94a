// Reading a snapshot's parts (the manifest lists them, snapshot.ts): each part's length, chunk
// count and sha256 checked, its chunks parsed lazily; a large part hashed on a worker thread while
// this thread parses it.
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { isAscii } from 'node:buffer';
import { SNAPSHOT_FILE, type SnapshotManifest, type SnapshotPart } from './snapshot.ts';

/** parts at least this large are hashed by a worker thread while the main thread parses them */
export const HASH_WORKER_MIN_BYTES = 16 * 1024 * 1024;
/** a part the worker hashes is read this much at a time (more for a longer line) */
const READ_BYTES = 16 * 1024 * 1024;
/** how long to wait for the worker's digest before hashing on the main thread instead */
const HASH_WAIT_MS = 30_000;

// The hash worker: plain CommonJS (eval), no loader; hashes each file it is sent and posts the
// result through the job's SharedArrayBuffer (state word, then the 32 digest bytes).
const HASH_WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const { createHash } = require('node:crypto');
const buf = Buffer.allocUnsafe(4 * 1024 * 1024);
parentPort.on('message', ({ file, shared }) => {
  const state = new Int32Array(shared, 0, 1);
  let result = 2;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const hash = createHash('sha256');
      let n;
      while ((n = fs.readSync(fd, buf, 0, buf.length, null)) > 0) hash.update(buf.subarray(0, n));
      new Uint8Array(shared, 4, 32).set(hash.digest());
      result = 1;
    } finally {
      fs.closeSync(fd);
    }
  } catch {}
  Atomics.store(state, 0, result);
  Atomics.notify(state, 0);
});
`;

export interface ReadSnapshotOptions {
  /** parts at least this large are hashed in a worker thread, overlapping the parse (default 16 MiB; Infinity = never) */
  hashWorkerMinBytes?: number;
  /** a part the worker hashes is read this many bytes at a time (default 16 MiB; more for a longer line) */
  readBytes?: number;
}

/**
 * Reads the snapshot's chunks lazily, part by part, each part read whole. Every part's length is
 * checked before any of its chunks is handed out. Its sha256 is checked before its chunks are
 * handed out when it is small; a large part is hashed by a worker thread while this thread
 * parses and hands out its chunks, and the digest is checked once its last chunk was handed out
 * (before the next part). A part that fails a check throws an Error naming the file (and the
 * line for a chunk that does not parse, unless the part fails its checksum: then that is named).
 * If the consumer of the chunks throws, call verifyStarted() to learn whether a damaged part was
 * the cause: it throws that part's error, if any.
 */
export class SnapshotReader {
  private worker: Worker | undefined;
  private readonly jobs = new Map<string, SharedArrayBuffer>();
  /** checks still to be made on parts whose chunks were (partly) handed out */
  private pending: (() => void) | undefined;

  constructor(
    private readonly dir: string,
    private readonly manifest: SnapshotManifest,
    private readonly options: ReadSnapshotOptions = {},
  ) {}

  *chunks(): Generator<unknown> {
    try {
      // every large part is queued at once: the worker hashes ahead while this thread parses
      const min = this.options.hashWorkerMinBytes ?? HASH_WORKER_MIN_BYTES;
      for (const part of this.manifest.parts) if (part.bytes >= min) this.startHashing(path.join(this.dir, part.file));
      for (const part of this.manifest.parts) yield* this.partChunks(part);
    } finally {
      this.close();
    }
  }

  /** Throws the checksum error of a part whose chunks were handed out unverified, if it has one. */
  verifyStarted(): void {
    const check = this.pending;
    this.pending = undefined;
    check?.();
  }

  close(): void {
    const w = this.worker;
    this.worker = undefined;
    if (w) void w.terminate();
  }

  private *partChunks(part: SnapshotPart): Generator<unknown> {
    const file = path.join(this.dir, part.file);
    const cannotRead = (err: unknown) =>
      new Error(`store: snapshot part ${file} (listed in ${SNAPSHOT_FILE}) cannot be read: ${(err as Error).message}`);
    // a part the worker hashes is read a piece at a time (its size checked first): no buffer of
    // the whole part (256 MiB) to allocate and fault in; a small one is read whole and hashed first
    const streamed = this.jobs.has(file);
    let fd = -1;
    let buf: Buffer;
    let size: number;
    try {
      if (streamed) {
        fd = fs.openSync(file, 'r');
        size = fs.fstatSync(fd).size;
        buf = Buffer.allocUnsafe(Math.max(1, Math.min(size, this.options.readBytes ?? READ_BYTES)));
      } else {
        buf = fs.readFileSync(file);
        size = buf.length;
      }
    } catch (err) {
      if (fd >= 0) fs.closeSync(fd);
      throw cannotRead(err);
    }
    try {
      if (size !== part.bytes)
        throw new Error(`store: corrupt snapshot part ${file}: ${size} bytes, manifest says ${part.bytes}`);
      const checkHash = () => {
        const sha = this.digestOf(file, streamed ? undefined : buf);
        if (sha !== part.sha256)
          throw new Error(
            `store: corrupt snapshot part ${file}: sha256 ${sha} does not match the manifest's ${part.sha256}`,
          );
      };
      if (!streamed)
        checkHash(); // small part: verified before anything is handed out
      else this.pending = checkHash;
      // buf[pos, end) holds the bytes read and not yet handed out; `read` bytes of the file so far
      let pos = 0;
      let end = streamed ? 0 : size;
      let read = end;
      let line = 0;
      while (pos < end || read < size) {
        const nl = buf.indexOf(10, pos);
        if ((nl < 0 || nl >= end) && read < size) {
          // the rest of a line: keep what is left at the front (grown to hold a longer line), read on
          const left = end - pos;
          if (left * 2 > buf.length) {
            const bigger = Buffer.allocUnsafe(Math.min(size, buf.length * 2));
            buf.copy(bigger, 0, pos, end);
            buf = bigger;
          } else buf.copy(buf, 0, pos, end);
          pos = 0;
          end = left;
          try {
            while (end < buf.length && read < size) {
              const n = fs.readSync(fd, buf, end, Math.min(buf.length - end, size - read), read);
              if (n === 0) throw new Error(`ended at ${read} of ${size} bytes`);
              end += n;
              read += n;
            }
          } catch (err) {
            throw cannotRead(err);
          }
          continue;
        }
        line++;
        if (nl < 0 || nl >= end) {
          this.verifyStarted();
          throw new Error(`store: corrupt snapshot part ${file} line ${line}: no trailing newline`);
        }
        let chunk: unknown;
        try {
          // lines written by chunkLine are ASCII (latin1 = a copy); older snapshots may hold UTF-8
          chunk = JSON.parse(buf.toString(isAscii(buf.subarray(pos, nl)) ? 'latin1' : 'utf8', pos, nl));
        } catch (err) {
          this.verifyStarted();
          throw new Error(`store: corrupt snapshot part ${file} line ${line}: ${(err as Error).message}`);
        }
        pos = nl + 1;
        yield chunk;
      }
      this.verifyStarted();
      if (line !== part.chunks)
        throw new Error(`store: corrupt snapshot part ${file}: ${line} chunks, manifest says ${part.chunks}`);
    } finally {
      if (fd >= 0) fs.closeSync(fd);
    }
  }

  /** Starts the worker (once) and queues the file for hashing. */
  private startHashing(file: string): void {
    try {
      if (!this.worker) {
        this.worker = new Worker(HASH_WORKER_SOURCE, { eval: true, execArgv: [], stdout: false, stderr: false });
        this.worker.unref();
        this.worker.on('error', () => {}); // a failed worker only means hashing here instead
      }
      const shared = new SharedArrayBuffer(4 + 32);
      this.worker.postMessage({ file, shared });
      this.jobs.set(file, shared);
    } catch {
      // no worker: the part is hashed on this thread
    }
  }

  /** The part's sha256 (hex): the worker's when it delivers in time, else computed here. */
  private digestOf(file: string, data: Buffer | undefined): string {
    const shared = this.jobs.get(file);
    this.jobs.delete(file);
    if (shared) {
      const state = new Int32Array(shared, 0, 1);
      // (a closed reader's worker is gone: whatever it has not delivered is computed here)
      if (Atomics.load(state, 0) === 0 && this.worker) Atomics.wait(state, 0, 0, HASH_WAIT_MS);
      if (Atomics.load(state, 0) === 1) return Buffer.from(new Uint8Array(shared, 4, 32)).toString('hex');
    }
    if (data) return createHash('sha256').update(data).digest('hex');
    // a part read in pieces: hashed here from the file
    const hash = createHash('sha256');
    const piece = Buffer.allocUnsafe(READ_BYTES);
    const fd = fs.openSync(file, 'r');
    try {
      let n: number;
      while ((n = fs.readSync(fd, piece, 0, piece.length, null)) > 0) hash.update(piece.subarray(0, n));
    } finally {
      fs.closeSync(fd);
    }
    return hash.digest('hex');
  }
}

/** The snapshot's chunks, parsed lazily part by part (see SnapshotReader). */
export function readSnapshotChunks(
  dir: string,
  manifest: SnapshotManifest,
  options?: ReadSnapshotOptions,
): Generator<unknown> {
  return new SnapshotReader(dir, manifest, options).chunks();
}
