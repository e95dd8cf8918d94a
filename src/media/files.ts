// Where uploaded files live: DIR/uploads/YYYY/MM/name for a calendar with a store directory, a
// Map for a memory-only one. A file is written durably before its record is journaled: a temp
// file beside it (`.tmp-` prefix), fsync, rename, fsync of the folder. A crash before the rename
// leaves only a temp file, which opening the store removes; a crash after it leaves a whole file
// that no record names (its name stays taken). Nothing a record names is ever removed at start.
// A write the disk refuses (full, over quota, failing, read-only) removes what it wrote, temp
// files and renamed ones alike, and throws a StoreFaultError naming the file it was writing.

import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { nameFile } from '../store/faults.ts';

export const TEMP_PREFIX = '.tmp-';

export interface StoredFile {
  size: number;
  mtimeMs: number;
}

export interface MediaFiles {
  /** whether a file of that path (below the uploads folder) exists */
  exists(rel: string): boolean;
  /** writes the files durably (all of them, or throws) */
  write(files: ReadonlyArray<{ rel: string; data: Buffer }>): Promise<void>;
  stat(rel: string): Promise<StoredFile | undefined>;
  /** the bytes [start, end] (inclusive) of a file */
  read(rel: string, start: number, end: number): NodeJS.ReadableStream | Buffer;
  remove(rels: readonly string[]): Promise<void>;
  /** a whole file at once, or undefined when there is none (an export's media); absent where
   *  files are read asynchronously only (a cluster's object store) */
  readSync?(rel: string): Buffer | undefined;
  /** a whole file, where files are read asynchronously only (a cluster's object store) */
  readAll?(rel: string): Promise<Buffer>;
  /** a folder on disk, or undefined in memory */
  readonly root: string | undefined;
}

/** A path below the uploads folder that stays below it ('2026/05/a.jpg'), or undefined. */
export function safeRel(rel: string): string | undefined {
  const parts = rel.split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\\') || p.includes('\0'))) return undefined;
  return parts.join('/');
}

/** The steps of a durable write (and of a removal), for the test hook. */
export type WriteStep = 'mkdir' | 'open' | 'write' | 'sync' | 'rename' | 'sync-dir' | 'remove';

export class DiskFiles implements MediaFiles {
  /** test hook: runs before each step of a write or removal (`file` is the path); may throw as the disk would */
  beforeStep: ((step: WriteStep, file: string) => void) | undefined;

  constructor(readonly root: string) {}

  /** Removes temp files a crash left (below root; every other file stays). Read-only (a store
   *  opened with readOnly) or on a disk that refuses writes, it leaves the folder as it is: the
   *  uploads are still served, and an upload then fails with the storage error. */
  static open(root: string, readOnly = false): DiskFiles {
    if (readOnly) return new DiskFiles(root);
    try {
      fs.mkdirSync(root, { recursive: true });
      const sweep = (dir: string) => {
        for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
          const p = path.join(dir, e.name);
          if (e.isDirectory()) sweep(p);
          else if (e.name.startsWith(TEMP_PREFIX)) fs.rmSync(p, { force: true });
        }
      };
      sweep(root);
    } catch (err) {
      process.emitWarning(`calendar-engine: could not prepare the uploads folder ${root}: ${(err as Error).message}`);
    }
    return new DiskFiles(root);
  }

  exists(rel: string): boolean {
    return fs.existsSync(path.join(this.root, rel));
  }

  async write(files: ReadonlyArray<{ rel: string; data: Buffer }>): Promise<void> {
    const dirs = new Set<string>();
    const temps: string[] = [];
    const renamed: string[] = [];
    let target = this.root;
    const step = (name: WriteStep, file: string) => this.beforeStep?.(name, file);
    try {
      for (const f of files) {
        target = path.join(this.root, f.rel);
        const dir = path.dirname(target);
        if (!dirs.has(dir)) {
          step('mkdir', dir);
          await fsp.mkdir(dir, { recursive: true });
          dirs.add(dir);
        }
        const tmp = path.join(dir, `${TEMP_PREFIX}${randomBytes(6).toString('hex')}-${path.basename(target)}`);
        step('open', tmp);
        const fh = await fsp.open(tmp, 'wx', 0o644);
        temps.push(tmp);
        try {
          step('write', tmp);
          await fh.writeFile(f.data);
          step('sync', tmp);
          await fh.sync();
        } finally {
          await fh.close().catch(() => {});
        }
      }
      // every file is whole on disk before any takes its name
      for (let i = 0; i < files.length; i++) {
        target = path.join(this.root, files[i].rel);
        step('rename', target);
        await fsp.rename(temps[i], target);
        renamed.push(target);
      }
      temps.length = 0;
      for (const dir of dirs) {
        target = dir;
        step('sync-dir', dir);
        await syncDir(dir);
      }
    } catch (err) {
      // nothing of a refused write stays: no record will name these files
      for (const p of [...temps, ...renamed]) await fsp.rm(p, { force: true }).catch(() => {});
      throw nameFile(err, target);
    }
  }

  async stat(rel: string): Promise<StoredFile | undefined> {
    try {
      const st = await fsp.stat(path.join(this.root, rel));
      return st.isFile() ? { size: st.size, mtimeMs: st.mtimeMs } : undefined;
    } catch {
      return undefined;
    }
  }

  read(rel: string, start: number, end: number): NodeJS.ReadableStream {
    return fs.createReadStream(path.join(this.root, rel), { start, end });
  }

  readSync(rel: string): Buffer | undefined {
    try {
      return fs.readFileSync(path.join(this.root, rel));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  /** Removes files no record names any more. A disk that refuses it leaves them (harmless: no
   *  record names them, their names stay taken) and throws the first error once all are tried. */
  async remove(rels: readonly string[]): Promise<void> {
    const dirs = new Set<string>();
    let first: unknown;
    for (const rel of rels) {
      const p = path.join(this.root, rel);
      try {
        this.beforeStep?.('remove', p);
        await fsp.rm(p, { force: true });
      } catch (err) {
        first ??= nameFile(err, p);
      }
      dirs.add(path.dirname(p));
    }
    for (const dir of dirs) await syncDir(dir).catch(() => {});
    if (first !== undefined) throw first;
  }
}

async function syncDir(dir: string): Promise<void> {
  const fh = await fsp.open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** A memory-only calendar's uploads: gone when the process ends, as its records are. */
export class MemoryFiles implements MediaFiles {
  readonly root = undefined;
  private readonly files = new Map<string, { data: Buffer; mtimeMs: number }>();

  exists(rel: string): boolean {
    return this.files.has(rel);
  }

  async write(files: ReadonlyArray<{ rel: string; data: Buffer }>): Promise<void> {
    const now = Date.now();
    for (const f of files) this.files.set(f.rel, { data: f.data, mtimeMs: now });
  }

  async stat(rel: string): Promise<StoredFile | undefined> {
    const f = this.files.get(rel);
    return f && { size: f.data.length, mtimeMs: f.mtimeMs };
  }

  read(rel: string, start: number, end: number): Buffer {
    return this.files.get(rel)!.data.subarray(start, end + 1);
  }

  readSync(rel: string): Buffer | undefined {
    return this.files.get(rel)?.data;
  }

  async remove(rels: readonly string[]): Promise<void> {
    for (const rel of rels) this.files.delete(rel);
  }
}
