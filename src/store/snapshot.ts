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
import fsp from 'node:fs/promises';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
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
