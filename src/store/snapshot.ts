// Snapshots: the whole state as JSON chunks, plus the seq of the last write they hold.
//
//   DIR/snapshot.json                 manifest {version, seq, createdAt, parts:[{file, bytes, chunks, sha256}]}
//   DIR/snapshot.<seq>.<tag>.<n>.jsonl  part n: one chunk per line (JSON.stringify never emits a raw newline);
//                                       <tag> is random, so a new snapshot at an unchanged seq never overwrites the live one
//
// Parts are written and datasync'ed first (fsync of the dir makes their names durable), then the
// manifest replaces the old one atomically (temp → datasync → rename → fsync dir). The manifest
// is the commit point: until it is renamed, the old snapshot is the valid one and the new parts
// are orphans that open-time cleanup removes. Each part's byte length and sha256 are in the
// manifest, so a torn or damaged part is detected on load instead of being half-read.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { isAscii } from 'node:buffer';
import { escapeNonAscii } from '../ascii-json.ts';
import { fsyncDir, writeFileAtomic } from './atomic-file.ts';
import type { TestPointHook } from './journal.ts';
import { nameFile } from './faults.ts';

export const SNAPSHOT_FILE = 'snapshot.json';
export const SNAPSHOT_VERSION = 1;
/** a part is closed once it passes this size (parts split only between chunks) */
export const PART_BYTES = 256 * 1024 * 1024;
const WRITE_BLOCK = 4 * 1024 * 1024;
const PART_NAME = /^snapshot\.(\d+)\.([0-9a-f]{8})\.(\d+)\.jsonl$/;

export interface SnapshotPart {
  file: string;
  bytes: number;
  chunks: number;
  sha256: string;
}

export interface SnapshotManifest {
  version: number;
  /** seq of the last journal write the snapshot holds; replay skips seq <= this */
  seq: number;
  createdAt: string;
  parts: SnapshotPart[];
}

export function partFileName(seq: number, tag: string, n: number): string {
  return `snapshot.${seq}.${tag}.${n}.jsonl`;
}

export function isPartFileName(name: string): boolean {
  return PART_NAME.test(name);
}

/**
 * One chunk as one JSON line of ASCII only: characters above 0x7f are written as \uXXXX escapes
 * (JSON.parse reads them back exactly; surrogate pairs as two escapes), so a load decodes each
 * line as latin1, a plain copy, instead of running the UTF-8 decoder over the whole snapshot.
 */
export function chunkLine(chunk: unknown, index: number): string {
  const json = JSON.stringify(chunk);
  if (json === undefined) throw new Error(`store: snapshot chunk ${index} is not JSON-able (got ${typeof chunk})`);
  return escapeNonAscii(json) + '\n';
}

/**
 * The consistent point: turns the state's chunks into JSON lines synchronously, so the state
 * may change as soon as this returns. Costs one JSON.stringify of the state; no giant string.
 */
export function encodeChunks(chunks: Iterable<unknown>): string[] {
  const lines: string[] = [];
  for (const chunk of chunks) {
    lines.push(chunkLine(chunk, lines.length));
  }
  return lines;
}

/**
 * encodeChunks for chunks that are already detached from the live state: stringifies one chunk
 * at a time and yields to the event loop in between, so commits keep flowing. Drops each chunk
 * reference once encoded, so its memory can go.
 */
export function encodeChunksSliced(chunks: unknown[]): Promise<string[]> {
  return encodeInSlices(draining(chunks));
}

/**
 * encodeChunks for an iterable that is already detached from the live state when it is handed
 * over (it captured the state when it was created, and builds its chunks lazily): builds and
 * stringifies one chunk at a time as writeSnapshot asks for the next line, yielding to the
 * event loop in between, so commits keep flowing while the snapshot is encoded, and only the
 * lines of the block being written are held (not the whole snapshot's text).
 */
export async function* encodeDetachedChunks(chunks: Iterable<unknown>): AsyncGenerator<string> {
  await new Promise((resolve) => setImmediate(resolve)); // writers first: the capture is all the point needs
  let sliceStart = performance.now();
  let index = 0;
  for (const chunk of chunks) {
    yield chunkLine(chunk, index++);
    if (performance.now() - sliceStart > 10) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
}

/** The chunks one by one, each array slot cleared once handed out. */
function* draining(chunks: unknown[]): Generator<unknown> {
  for (let i = 0; i < chunks.length; i++) {
    const chunk = chunks[i];
    chunks[i] = undefined;
    yield chunk;
  }
}

/** encodeChunks, yielding to the event loop whenever 10 ms have passed since the last yield. */
async function encodeInSlices(chunks: Iterable<unknown>): Promise<string[]> {
  const lines: string[] = [];
  let sliceStart = performance.now();
  for (const chunk of chunks) {
    lines.push(chunkLine(chunk, lines.length));
    if (performance.now() - sliceStart > 10) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
  return lines;
}

/** UTF-8 bytes of a text; ASCII text (every line chunkLine makes) is copied byte for byte, which
 *  is several times faster than the UTF-8 encoder. */
function toBytes(text: string): Buffer {
  const n = Buffer.byteLength(text, 'utf8');
  if (n !== text.length) return Buffer.from(text, 'utf8');
  const data = Buffer.allocUnsafe(n);
  data.write(text, 0, n, 'latin1');
  return data;
}

/** Writes the parts and then the manifest; returns the manifest once all of it is durable. The
 *  lines are taken as they are written (an async iterable may make them on demand). */
export async function writeSnapshot(
  dir: string,
  seq: number,
  lines: Iterable<string> | AsyncIterable<string>,
  options: { partBytes?: number; testPoint?: TestPointHook; syncEachBlock?: boolean } = {},
): Promise<SnapshotManifest> {
  const parts = await writeParts(dir, seq, randomBytes(4).toString('hex'), lines, options);
  return commitParts(dir, seq, parts, options.testPoint);
}

/** Writes `lines` as parts `snapshot.<seq>.<tag>.<n>.jsonl` (n from 0), each datasync'ed. */
export async function writeParts(
  dir: string,
  seq: number,
  tag: string,
  lines: Iterable<string> | AsyncIterable<string>,
  options: { partBytes?: number; testPoint?: TestPointHook; syncEachBlock?: boolean } = {},
): Promise<SnapshotPart[]> {
  const partBytes = options.partBytes ?? PART_BYTES;
  const parts: SnapshotPart[] = [];
  const it: Iterator<string> | AsyncIterator<string> =
    Symbol.asyncIterator in lines
      ? (lines as AsyncIterable<string>)[Symbol.asyncIterator]()
      : (lines as Iterable<string>)[Symbol.iterator]();
  let next = await it.next();
  do {
    const file = partFileName(seq, tag, parts.length);
    const full = path.join(dir, file);
    const fh = await fsp.open(full, 'w').catch((err: unknown) => {
      throw nameFile(err, full);
    });
    const hash = createHash('sha256');
    let bytes = 0;
    let chunks = 0;
    try {
      while (!next.done && bytes < partBytes) {
        // gather lines into a block of ~WRITE_BLOCK bytes (a single huge chunk is its own block)
        const block: string[] = [];
        let blockChars = 0;
        while (!next.done && blockChars < WRITE_BLOCK && bytes + blockChars < partBytes) {
          block.push(next.value);
          blockChars += next.value.length;
          next = await it.next();
        }
        const data = toBytes(block.join(''));
        hash.update(data);
        options.testPoint?.('snapshot:part-write', { path: full, data });
        let off = 0;
        while (off < data.length) off += (await fh.write(data, off, data.length - off)).bytesWritten;
        bytes += data.length;
        chunks += block.length;
        // Sync block by block: on ext4 (data=ordered) a journal datasync also flushes other files'
        // dirty data, so a snapshot's pile of dirty pages would stall the writers' commits.
        if (options.syncEachBlock !== false) await fh.datasync();
      }
      await fh.datasync();
    } catch (err) {
      throw nameFile(err, full);
    } finally {
      await fh.close().catch(() => {});
    }
    parts.push({ file, bytes, chunks, sha256: hash.digest('hex') });
  } while (!next.done);
  return parts;
}

/** The commit point of a snapshot whose parts are written and synced: their names made durable,
 *  then the manifest listing them (in load order) replaces the old one. */
export async function commitParts(
  dir: string,
  seq: number,
  parts: SnapshotPart[],
  testPoint?: TestPointHook,
): Promise<SnapshotManifest> {
  const file = path.join(dir, SNAPSHOT_FILE);
  try {
    await fsyncDir(dir); // the parts' names are durable before the manifest can point at them
    testPoint?.('snapshot:part-written', { path: path.join(dir, parts[0]!.file) });
    const manifest: SnapshotManifest = { version: SNAPSHOT_VERSION, seq, createdAt: new Date().toISOString(), parts };
    await writeFileAtomic(file, JSON.stringify(manifest, null, 2) + '\n');
    return manifest;
  } catch (err) {
    throw nameFile(err, file);
  }
}

/** Reads and checks DIR/snapshot.json; undefined when there is none. Throws naming the file when it is bad. */
export async function readManifest(dir: string): Promise<SnapshotManifest | undefined> {
  const file = path.join(dir, SNAPSHOT_FILE);
  let text: string;
  try {
    text = await fsp.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  let m: SnapshotManifest;
  try {
    m = JSON.parse(text) as SnapshotManifest;
  } catch (err) {
    throw new Error(`store: corrupt snapshot manifest ${file}: ${(err as Error).message}`);
  }
  const problem = manifestProblem(m);
  if (problem) throw new Error(`store: corrupt snapshot manifest ${file}: ${problem}`);
  return m;
}

function manifestProblem(m: SnapshotManifest): string | undefined {
  if (typeof m !== 'object' || m === null) return 'not an object';
  if (m.version !== SNAPSHOT_VERSION) return `version: expected ${SNAPSHOT_VERSION}, got ${JSON.stringify(m.version)}`;
  if (!Number.isSafeInteger(m.seq) || m.seq < 0) return `seq: expected an integer >= 0, got ${JSON.stringify(m.seq)}`;
  if (!Array.isArray(m.parts) || m.parts.length === 0) return 'parts: expected a non-empty array';
  for (const [n, p] of m.parts.entries()) {
    const match = typeof p === 'object' && p !== null && typeof p.file === 'string' ? PART_NAME.exec(p.file) : null;
    if (!match || Number(match[1]) !== m.seq || Number(match[3]) !== n)
      return `parts[${n}].file: expected snapshot.${m.seq}.<tag>.${n}.jsonl, got ${JSON.stringify(p?.file)}`;
    if (!Number.isSafeInteger(p.bytes) || p.bytes < 0 || !Number.isSafeInteger(p.chunks) || p.chunks < 0)
      return `parts[${n}]: bad bytes/chunks`;
    if (typeof p.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(p.sha256))
      return `parts[${n}].sha256: expected 64 hex digits`;
  }
  return undefined;
}

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

/** The seq a part's file name carries (snapshot.<seq>.<tag>.<n>.jsonl). */
export function partSeq(name: string): number {
  return Number(PART_NAME.exec(name)?.[1] ?? NaN);
}

/** Snapshot part files in `dir` that `manifest` does not list. */
export async function unlistedParts(dir: string, manifest: SnapshotManifest | undefined): Promise<string[]> {
  const keep = new Set(manifest?.parts.map((p) => p.file));
  return (await fsp.readdir(dir)).filter((name) => isPartFileName(name) && !keep.has(name)).sort();
}

/**
 * Removes snapshot parts that the current manifest does not list (older snapshots, crashed
 * writes), those of a seq up to `upTo` only: the manifest's snapshot and the journal hold
 * every write such a part holds. Callers check first that no other part is left (openStore).
 */
export async function removeUnlistedParts(
  dir: string,
  manifest: SnapshotManifest | undefined,
  upTo = Infinity,
): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await unlistedParts(dir, manifest)) {
    if (partSeq(name) <= upTo) {
      await fsp.unlink(path.join(dir, name));
      removed.push(name);
    }
  }
  return removed;
}
