// Import files read as a stream of records, so a file's size is bounded by memory for its
// records, not by the longest string V8 can make (a 1 GiB file cannot be one string).
//
// Two formats:
//  - JSON, the import shape: one object {"categories": [...], "tags": [...], "venues": [...],
//    "organizers": [...], "events": [...]} (keys in any order; other keys are skipped). A small
//    byte scanner finds where each element of those arrays begins and ends (strings, escapes and
//    nesting tracked), and each element is parsed on its own by JSON.parse. Token-by-token
//    streaming parsers in JavaScript were not used: JSON.parse of each record is native code,
//    and the scanner only has to find record boundaries.
//  - JSON Lines: one object per line with a "type" ("category", "tag", "venue", "organizer",
//    "event") and the same fields; blank lines are skipped.
// Every record carries its list, its index in that list and the line it starts on.

import fs from 'node:fs';
import type { ImportKind } from './index.ts';
import { readEventBlocks, type PackedBatch, type ParallelRead } from './read-blocks.ts';
import { type FileRecord, LineScanner } from './scanners.ts';
import { ShapeScanner } from './shape-scanner.ts';

export type ImportFormat = 'json' | 'jsonl';

const CHUNK = 1 << 20;

/** json or jsonl: by extension (.jsonl, .ndjson, .json), else by the first line of the file. */
export function detectFormat(file: string): ImportFormat {
  if (/\.(jsonl|ndjson)$/i.test(file)) return 'jsonl';
  if (/\.json$/i.test(file)) return 'json';
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(64 * 1024);
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    const text = buf
      .toString('utf8', 0, n)
      .replace(/^\uFEFF/, '')
      .trimStart();
    const nl = text.indexOf('\n');
    if (nl < 0) return 'json';
    try {
      const first = JSON.parse(text.slice(0, nl)) as unknown;
      return typeof first === 'object' && first !== null && typeof (first as { type?: unknown }).type === 'string'
        ? 'jsonl'
        : 'json';
    } catch {
      return 'json';
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** The file's records, in file order. `onBytes` hears how many bytes were read so far;
 *  `chunkBytes` is the read size (tests make it tiny, so values span chunks everywhere). */
export async function* readImportRecords(
  file: string,
  format: ImportFormat = detectFormat(file),
  onBytes?: (bytes: number) => void,
  chunkBytes = CHUNK,
): AsyncGenerator<FileRecord> {
  for await (const batch of readImportBatches(file, format, onBytes, chunkBytes)) yield* batch as FileRecord[];
}

/** readImportRecords a read at a time: the records each read of the file completes (never an
 *  empty batch). What a large import iterates: a step of an async iteration per record cost about
 *  a second of a million-record file. With `parallel`, the events array of a JSON file in the
 *  one-event-a-line layout comes as blocks of events the workers read (read-blocks.ts). */
export async function* readImportBatches(
  file: string,
  format: ImportFormat = detectFormat(file),
  onBytes?: (bytes: number) => void,
  chunkBytes = CHUNK,
  parallel?: ParallelRead,
): AsyncGenerator<FileRecord[] | PackedBatch> {
  const counts: Record<ImportKind, number> = {
    categories: 0,
    tags: 0,
    media: 0,
    venues: 0,
    organizers: 0,
    events: 0,
  };
  if (format === 'json' && parallel !== undefined) {
    yield* readParallel(file, counts, onBytes, chunkBytes, parallel);
    return;
  }
  if (format === 'jsonl' && parallel !== undefined) {
    yield* readParallelLines(file, counts, onBytes, chunkBytes, parallel);
    return;
  }
  const scanner = format === 'jsonl' ? new LineScanner(file, counts) : new ShapeScanner(file, counts);
  let bytes = 0;
  const stream = fs.createReadStream(file, { highWaterMark: chunkBytes });
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    scanner.push(chunk);
    const batch = scanner.take();
    if (batch.length > 0) yield batch;
    onBytes?.(bytes);
  }
  scanner.end();
  const last = scanner.take();
  if (last.length > 0) yield last;
}

/** The import shape read as readImportBatches reads it, but where an events array's elements
 *  begin (at '{'), the workers take over until they stop; the scanner goes on from there. */
function readParallel(
  file: string,
  counts: Record<ImportKind, number>,
  onBytes: ((bytes: number) => void) | undefined,
  chunkBytes: number,
  parallel: ParallelRead,
): AsyncGenerator<FileRecord[] | PackedBatch> {
  const scanner = new ShapeScanner(file, counts);
  return readHandingOver(file, scanner, onBytes, chunkBytes, async function* (fh, at) {
    const r = yield* readEventBlocks(fh, at, scanner.line, counts, parallel, onBytes);
    scanner.resume(r.line, r.comma);
    // a layout the workers cannot read (a pretty-printed file): the scanner reads it all
    if (r.took === 0) scanner.handoff = false;
    return r.offset;
  });
}

/**
 * A JSON Lines file read as readImportBatches reads it, but where a line begins with
 * {"type":"event" (as `export` writes an event), the workers take over (read-blocks.ts) until
 * they stop at a line they do not take (another type, a line that is not one JSON object); the
 * scanner goes on from that line, and hands over again at the next such line, unless the workers
 * stopped inside the first block they were given (a file whose events are mixed with other
 * records line by line would otherwise have blocks read ahead and dropped at every event: it is
 * read on this thread from there on).
 */
function readParallelLines(
  file: string,
  counts: Record<ImportKind, number>,
  onBytes: ((bytes: number) => void) | undefined,
  chunkBytes: number,
  parallel: ParallelRead,
): AsyncGenerator<FileRecord[] | PackedBatch> {
  const scanner = new LineScanner(file, counts);
  return readHandingOver(file, scanner, onBytes, chunkBytes, async function* (fh, at) {
    const r = yield* readEventBlocks(fh, at, scanner.line, counts, parallel, onBytes, true);
    scanner.resume(r.line);
    if (r.blocks === 0) scanner.handoff = false;
    return r.offset;
  });
}

/** What readHandingOver needs of a scanner: where in the chunk it stopped for the workers. */
interface HandingScanner {
  handoff: boolean;
  handoffAt: number;
  push(chunk: Buffer): void;
  take(): FileRecord[];
  end(): void;
}

/** The scanner reads the file a chunk at a time; where it stops for the workers (handoffAt),
 *  `handOver` lets them read from that offset, yielding their blocks, and says where the scanner
 *  goes on. */
async function* readHandingOver(
  file: string,
  scanner: HandingScanner,
  onBytes: ((bytes: number) => void) | undefined,
  chunkBytes: number,
  handOver: (fh: fs.promises.FileHandle, at: number) => AsyncGenerator<PackedBatch, number>,
): AsyncGenerator<FileRecord[] | PackedBatch> {
  scanner.handoff = true;
  const fh = await fs.promises.open(file, 'r');
  try {
    let pos = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(chunkBytes); // a new one each time: the scanner may keep parts of it
      const { bytesRead } = await fh.read(chunk, 0, chunkBytes, pos);
      if (bytesRead === 0) break;
      scanner.push(chunk.subarray(0, bytesRead));
      const batch = scanner.take();
      if (batch.length > 0) yield batch;
      if (scanner.handoffAt >= 0) pos = yield* handOver(fh, pos + scanner.handoffAt);
      else pos += bytesRead;
      onBytes?.(pos);
    }
    scanner.end();
    const last = scanner.take();
    if (last.length > 0) yield last;
  } finally {
    await fh.close();
  }
}
