// The journal's file operations, below its group commit (journal.ts): the probe a recovery
// writes to see whether the disk takes writes again, the cut back to the durable length and the
// reopen (and the cut of a torn last line at start-up: journal-read.ts), and the copy of byte
// ranges a tail rewrite makes.
import fsp from 'node:fs/promises';
import { tempPathFor } from './atomic-file.ts';

/** journal.ts's TestPointHook, for the points a probe passes */
type ProbePoint = (point: 'journal:write' | 'journal:written', detail: { path: string }) => void;

const COPY_BLOCK = 1 << 20;
/** the least room a recovery probe asks for */
const PROBE_BYTES = 64 * 1024;

export async function writeAll(fh: fsp.FileHandle, data: Uint8Array): Promise<void> {
  let off = 0;
  while (off < data.length) {
    const { bytesWritten } = await fh.write(data, off, data.length - off);
    off += bytesWritten;
  }
}

/** Probes the disk for the journal's next appends: a temp file beside `file` of at least `bytes`
 *  (and PROBE_BYTES), written and datasync'ed, then removed. Throws what the disk answers. */
export async function probeDisk(file: string, bytes: number, testPoint: ProbePoint | undefined): Promise<void> {
  const probe = tempPathFor(file);
  testPoint?.('journal:write', { path: probe });
  const fh = await fsp.open(probe, 'wx');
  try {
    await writeAll(fh, Buffer.alloc(Math.max(PROBE_BYTES, bytes)));
    testPoint?.('journal:written', { path: probe });
    await fh.datasync();
  } finally {
    await fh.close().catch(() => {});
    await fsp.unlink(probe).catch(() => {});
  }
}

/** Cuts `file` back to `length` bytes, datasync'ed. */
export async function truncateSynced(file: string, length: number): Promise<void> {
  const fh = await fsp.open(file, 'r+');
  try {
    await fh.truncate(length);
    await fh.datasync();
  } finally {
    await fh.close();
  }
}

/** Cuts `file` back to `length` bytes (datasync'ed) and opens it for appending; throws when it
 *  is not `length` bytes long then. */
export async function cutAndReopen(file: string, length: number): Promise<fsp.FileHandle> {
  await truncateSynced(file, length);
  const reopened = await fsp.open(file, 'a');
  const { size } = await reopened.stat();
  if (size !== length) {
    await reopened.close();
    throw new Error(`store: journal ${file} is ${size} bytes after the cut, expected ${length}`);
  }
  return reopened;
}

/** Copies src[from, to) to out at position (from - base); returns `to`. */
export async function copyRange(
  src: fsp.FileHandle,
  out: fsp.FileHandle,
  from: number,
  to: number,
  base: number,
): Promise<number> {
  const buf = Buffer.allocUnsafe(Math.min(COPY_BLOCK, Math.max(to - from, 1)));
  let pos = from;
  while (pos < to) {
    const { bytesRead } = await src.read(buf, 0, Math.min(buf.length, to - pos), pos);
    if (bytesRead === 0) throw new Error(`store: journal ended at byte ${pos}, expected ${to}`);
    let off = 0;
    while (off < bytesRead) {
      const { bytesWritten } = await out.write(buf, off, bytesRead - off, pos - base + off);
      off += bytesWritten;
    }
    pos += bytesRead;
  }
  return to;
}
