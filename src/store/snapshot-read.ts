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
    let buf: Buffer | undefined;
    try {
      buf = fs.readFileSync(file);
    } catch (err) {
      throw new Error(
        `store: snapshot part ${file} (listed in ${SNAPSHOT_FILE}) cannot be read: ${(err as Error).message}`,
      );
    }
    if (buf.length !== part.bytes)
      throw new Error(`store: corrupt snapshot part ${file}: ${buf.length} bytes, manifest says ${part.bytes}`);
    const data = buf;
    const checkHash = () => {
      const sha = this.digestOf(file, data);
      if (sha !== part.sha256)
        throw new Error(
          `store: corrupt snapshot part ${file}: sha256 ${sha} does not match the manifest's ${part.sha256}`,
        );
    };
    if (!this.jobs.has(file))
      checkHash(); // small part: verified before anything is handed out
    else this.pending = checkHash;
    let pos = 0;
    let line = 0;
    while (pos < buf.length) {
      line++;
      const nl = buf.indexOf(10, pos);
      if (nl < 0) {
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
    buf = undefined;
    this.verifyStarted();
    if (line !== part.chunks)
      throw new Error(`store: corrupt snapshot part ${file}: ${line} chunks, manifest says ${part.chunks}`);
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
  private digestOf(file: string, data: Buffer): string {
    const shared = this.jobs.get(file);
    this.jobs.delete(file);
    if (shared) {
      const state = new Int32Array(shared, 0, 1);
      // (a closed reader's worker is gone: whatever it has not delivered is computed here)
      if (Atomics.load(state, 0) === 0 && this.worker) Atomics.wait(state, 0, 0, HASH_WAIT_MS);
      if (Atomics.load(state, 0) === 1) return Buffer.from(new Uint8Array(shared, 4, 32)).toString('hex');
    }
    return createHash('sha256').update(data).digest('hex');
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
