// A snapshot written while it is made: its chunks are handed over one by one as they become
// final (an import's events, 10,000 rows a chunk, while the file is still being read), and a
// worker thread stringifies, escapes, hashes and writes them into parts of their own, on the
// other core. The store then writes the head chunk (made last: it holds the counts and pools) as
// part 0, and commits the manifest as for any snapshot (Store.compact with
// `streamed`). Nothing is visible until that commit: an abandoned stream's parts are removed
// (and any left by a crash are orphans that the next open removes).
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { CHUNK_BYTES_SOURCE } from './chunk-bytes.ts';
import { PART_BYTES, partFileName, type SnapshotPart } from './snapshot.ts';

/** chunks (10,000 events each, a few MiB) that may wait for the writer before add() asks to wait */
const MAX_QUEUED = 4;

// The writer: plain CommonJS (eval), no loader. A chunk (its lists of numbers typed arrays, posted
// as a copy of their bytes) becomes the bytes of the line chunkLine() makes of it with those as
// arrays (src/store/snapshot.ts: JSON.stringify, every character above 0x7f as a \uXXXX escape,
// as src/ascii-json.ts escapes them), by chunkBytes (chunk-bytes.ts). Parts
// close once past partBytes and are datasync'ed when closed. Each chunk taken is acknowledged
// ({done}); null ends the stream: the parts go back. The first failure is reported once; later
// chunks are dropped.
const WRITER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
const { createHash } = require('node:crypto');
const { isAscii: chunkIsAscii } = require('node:buffer');
const { dir, names, partBytes } = workerData;
${CHUNK_BYTES_SOURCE}
const parts = [];
let fd = -1, file = '', hash, bytes = 0, chunks = 0, failed = false;
function open() {
  file = names.prefix + (1 + parts.length) + names.suffix;
  fd = fs.openSync(path.join(dir, file), 'w');
  hash = createHash('sha256');
  bytes = 0;
  chunks = 0;
}
// a chunk's bytes (chunkBytes': valid until its next call) hashed and written at once
function write(data) {
  hash.update(data);
  let off = 0;
  while (off < data.length) off += fs.writeSync(fd, data, off, data.length - off);
  bytes += data.length;
  chunks++;
}
function close() {
  fs.fdatasyncSync(fd);
  fs.closeSync(fd);
  fd = -1;
  parts.push({ file, bytes, chunks, sha256: hash.digest('hex') });
}
parentPort.on('message', (chunk) => {
  if (failed) return;
  try {
    if (chunk === null) {
      if (fd >= 0) close();
      parentPort.postMessage({ parts });
      return;
    }
    if (fd < 0) open();
    write(chunkBytes(chunk));
    if (bytes >= partBytes) close();
    parentPort.postMessage({ done: 1 });
  } catch (err) {
    failed = true;
    parentPort.postMessage({ error: String((err && err.message) || err) });
  }
});
`;

export class SnapshotStream {
  /** the tag of the snapshot's part names: part 0 is the head's (written by Store.compact), the
   *  stream's parts are 1, 2... (a manifest lists part n at its index n) */
  readonly tag = randomBytes(4).toString('hex');
  private readonly worker: Worker;
  private readonly result: Promise<SnapshotPart[]>;
  private ended = false;

  /** the part names but their number and '.jsonl' */
  private readonly prefix: string;

  /** `seq`: the store's seq when the stream begins; nothing may be written to the store until it
   *  is committed (Store.compact checks). */
  constructor(
    readonly dir: string,
    readonly seq: number,
    partBytes = PART_BYTES,
  ) {
    this.prefix = partFileName(seq, this.tag, 0).slice(0, -'0.jsonl'.length);
    this.worker = new Worker(WRITER_SOURCE, {
      eval: true,
      execArgv: [],
      stdout: false,
      stderr: false,
      workerData: { dir, names: { prefix: this.prefix, suffix: '.jsonl' }, partBytes },
    });
    this.result = new Promise<SnapshotPart[]>((resolve, reject) => {
      this.worker.on('message', (m: { done?: number; parts?: SnapshotPart[]; error?: string }) => {
        if (m.done !== undefined) {
          this.queued--;
          if (this.queued <= MAX_QUEUED) this.release?.();
        } else if (m.error !== undefined) fail(new Error(`store: writing the snapshot in ${dir}: ${m.error}`));
        else resolve(m.parts!);
      });
      const fail = (err: Error) => {
        this.failed ??= err;
        this.release?.(err);
        reject(err);
      };
      this.worker.on('error', fail);
      this.worker.on('exit', (code) =>
        fail(new Error(`store: the snapshot writer stopped (exit ${code}) before it was done`)),
      );
    });
    this.result.catch(() => {}); // parts() reports it; an abandoned stream's failure is nobody's
  }

  /** chunks handed to the writer and not yet taken by it */
  private queued = 0;
  private release: ((err?: Error) => void) | undefined;
  /** why the writer stopped, once it did */
  private failed: Error | undefined;

  /**
   * Queues the next chunk (copied at once: the caller may change its objects afterwards). When
   * more than MAX_QUEUED chunks wait for the writer, returns a promise of the moment it has caught
   * up (rejected if it failed): a caller that waits for it holds the queue, and so the memory of
   * the copies, bounded however slow the writer's thread is.
   */
  add(chunk: unknown): Promise<void> | undefined {
    if (this.ended) throw new Error('store: expected chunks before the end of the snapshot stream, got one after it');
    if (this.failed) return Promise.reject(this.failed);
    this.worker.postMessage(chunk);
    if (++this.queued <= MAX_QUEUED) return undefined;
    return new Promise<void>((resolve, reject) => {
      this.release = (err) => {
        this.release = undefined;
        if (err) reject(err);
        else resolve();
      };
    });
  }

  /** Ends the stream: its parts, in order, once written and synced (their names are not yet). */
  async parts(): Promise<SnapshotPart[]> {
    this.ended = true;
    this.worker.postMessage(null);
    try {
      return await this.result;
    } finally {
      await this.worker.terminate();
    }
  }

  /** Stops the writer and removes what it wrote, unless the stream was ended (its parts then
   *  belong to the snapshot being committed; an uncommitted one's are removed by the next open). */
  async abort(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    await this.worker.terminate();
    if (!fs.existsSync(this.dir)) return;
    for (const name of fs.readdirSync(this.dir)) {
      if (name.startsWith(this.prefix)) fs.rmSync(path.join(this.dir, name), { force: true });
    }
  }
}
