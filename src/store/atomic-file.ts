// Crash-safe whole-file writes (nedb `crashSafeWriteFile`, TinyBase's file persister):
// write a temp file with a unique suffix, datasync it, rename it over the target, fsync the
// directory so the rename itself is durable. On failure the temp file is unlinked and the
// target is untouched. A crash at any point leaves either the old or the new content.
// Also appendAll: a whole append to a file kept open (the change log).
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/** Errors fsync on a directory can give where the platform does not support it (Windows, some FUSE). */
const DIR_FSYNC_UNSUPPORTED = new Set(['EISDIR', 'EPERM', 'EINVAL', 'EBADF', 'ENOTSUP']);

/** A temp name next to `target`: same directory (so rename is atomic), unique per call. */
export function tempPathFor(target: string): string {
  return `${target}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/** True for the temp names `tempPathFor` makes (open-time cleanup removes these orphans). */
export function isTempPath(name: string): boolean {
  return /\.tmp-\d+-[0-9a-f]{8}$/.test(name);
}

/** Makes the directory entries of `dir` (creations, renames, unlinks) durable. */
export async function fsyncDir(dir: string): Promise<void> {
  let fh: fsp.FileHandle | undefined;
  try {
    fh = await fsp.open(dir, 'r');
    await fh.sync();
  } catch (err) {
    if (!DIR_FSYNC_UNSUPPORTED.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
  } finally {
    await fh?.close();
  }
}

/** Sync twin of `fsyncDir`. */
export function fsyncDirSync(dir: string): void {
  let fd = -1;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch (err) {
    if (!DIR_FSYNC_UNSUPPORTED.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
  } finally {
    if (fd >= 0) fs.closeSync(fd);
  }
}

/** Mode of the existing target (kept across the rewrite, e.g. 0600 for users.json), or undefined. */
function existingMode(target: string): number | undefined {
  try {
    return fs.statSync(target).mode & 0o7777;
  } catch {
    return undefined;
  }
}

/**
 * Replaces `filePath` with `data` so that a crash at any moment leaves either the complete old
 * file or the complete new one. `mode` applies when the file does not exist yet (default 0666 & ~umask);
 * an existing file keeps its mode.
 */
export async function writeFileAtomic(
  filePath: string,
  data: string | Uint8Array,
  options: { mode?: number } = {},
): Promise<void> {
  const tmp = tempPathFor(filePath);
  const mode = existingMode(filePath) ?? options.mode ?? 0o666;
  let fh: fsp.FileHandle | undefined;
  try {
    fh = await fsp.open(tmp, 'wx', mode);
    await fh.writeFile(data);
    await fh.datasync();
    await fh.close();
    fh = undefined;
    await fsp.rename(tmp, filePath);
  } catch (err) {
    await fh?.close().catch(() => {});
    await fsp.unlink(tmp).catch(() => {});
    throw err;
  }
  await fsyncDir(path.dirname(filePath));
}

/** Sync twin of `writeFileAtomic` (for command-line tools and shutdown paths). */
export function writeFileAtomicSync(
  filePath: string,
  data: string | Uint8Array,
  options: { mode?: number } = {},
): void {
  const tmp = tempPathFor(filePath);
  const mode = existingMode(filePath) ?? options.mode ?? 0o666;
  let fd = -1;
  try {
    fd = fs.openSync(tmp, 'wx', mode);
    fs.writeFileSync(fd, data);
    fs.fdatasyncSync(fd);
    fs.closeSync(fd);
    fd = -1;
    fs.renameSync(tmp, filePath);
  } catch (err) {
    if (fd >= 0) {
      try {
        fs.closeSync(fd);
      } catch {
        /* already failing */
      }
    }
    try {
      fs.unlinkSync(tmp);
    } catch {
      /* may not exist */
    }
    throw err;
  }
  fsyncDirSync(path.dirname(filePath));
}

/** Append `text` to the file open as `fd` (a whole write, however the system splits it). */
export function appendAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  for (let done = 0; done < bytes.length; ) done += fs.writeSync(fd, bytes, done, bytes.length - done);
}
