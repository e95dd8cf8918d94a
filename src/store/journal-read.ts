// Reading the journal (DIR/journal.jsonl, appended to by journal.ts): start-up's replay and the
// checks' scan, line by line.
//
// Each line ends with its checksum, `"sum":"<crc32 of the line without it, 8 hex digits>"`, the
// line's last member (lines written before checksums were added have none and still load).
//
// Reading tolerates exactly one kind of damage: a torn LAST line (no trailing newline, an
// unparseable final line, or one failing its checksum). It was never acknowledged (its datasync
// never returned), so it is dropped with a warning and truncated away. Any other bad line stops
// start-up, naming the file and the line.
import fsp from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import type { Write } from '../engine/records.ts';
import { StoreFaultError, writeFault } from './faults.ts';
import { truncateSynced } from './journal-file.ts';

export interface JournalScan {
  /** seq of the last valid line, or 0 when the journal holds none */
  firstSeq: number;
  lastSeq: number;
  /** number of valid lines */
  lines: number;
  /** length of the valid prefix (after truncating a torn tail) */
  bytes: number;
  /** bytes of a torn last line left out (0: none) */
  torn?: number;
}

/** A journal line that is damaged and not the last one; `at` is the byte where it starts. */
export class CorruptJournalError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly at: number,
    message: string,
  ) {
    super(message);
    this.name = 'CorruptJournalError';
  }
}

/** the checksum member that ends a line: `,"sum":"` + 8 hex digits + `"}` */
const SUM_TAIL = 18;
const SUM_OPEN = Buffer.from(',"sum":"');

/** The checksum of the line buf[start, end) (without its newline): 'ok', 'none' (an older line
 *  without one) or 'bad'. */
export function checkLineSum(buf: Buffer, start: number, end: number): 'ok' | 'none' | 'bad' {
  const at = end - SUM_TAIL;
  const tail = at > start && buf[end - 1] === 0x7d && buf[end - 2] === 0x22;
  if (!tail || buf.compare(SUM_OPEN, 0, SUM_OPEN.length, at, at + SUM_OPEN.length) !== 0) {
    return 'none';
  }
  const want = buf.toString('latin1', at + SUM_OPEN.length, end - 2);
  const got = crc32('}', crc32(buf.subarray(start, at)))
    .toString(16)
    .padStart(8, '0');
  return got === want ? 'ok' : 'bad';
}

function isWrite(value: unknown): value is Write {
  if (typeof value !== 'object' || value === null) return false;
  const w = value as { seq?: unknown; ops?: unknown };
  return Number.isSafeInteger(w.seq) && (w.seq as number) > 0 && Array.isArray(w.ops);
}

/**
 * Reads `file` line by line, calling `onWrite` for each valid write in file order (with its line
 * number and the byte offset where the line starts). Seqs must
 * increase by exactly one from line to line. A torn last line is truncated away (with `warn`);
 * any other bad line throws an Error naming the file and the line number.
 * Returns undefined when the file does not exist.
 */
export async function scanJournal(
  file: string,
  onWrite: (write: Write, line: number, startByte: number) => void,
  warn: (message: string) => void,
  opts: { limit?: number; readOnly?: boolean } = {},
): Promise<JournalScan | undefined> {
  let buf: Buffer;
  try {
    buf = await fsp.readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`store: cannot read journal ${file}: ${(err as Error).message}`, { cause: err });
  }
  // only the durable part (a reload after a failed write: what follows was never acknowledged)
  if (opts.limit !== undefined && buf.length > opts.limit) buf = buf.subarray(0, opts.limit);
  const scan: JournalScan = { firstSeq: 0, lastSeq: 0, lines: 0, bytes: 0 };
  let pos = 0;
  let lineNo = 0;
  while (pos < buf.length) {
    lineNo++;
    const nl = buf.indexOf(10, pos);
    const end = nl < 0 ? buf.length : nl;
    // the final line is the one after which nothing but (possibly) nothing follows
    const isLast = nl < 0 || nl + 1 === buf.length;
    let value: unknown;
    let problem: string | undefined;
    if (nl < 0) {
      problem = 'no trailing newline';
    } else {
      try {
        value = JSON.parse(buf.toString('utf8', pos, end));
        if (!isWrite(value)) problem = 'not a {seq, ops} write';
        else {
          const sum = checkLineSum(buf, pos, end);
          if (sum === 'bad' || (sum === 'none' && 'sum' in value)) problem = 'its checksum does not match its text';
        }
      } catch (err) {
        problem = `unparseable JSON (${(err as Error).message})`;
      }
    }
    if (problem !== undefined) {
      if (!isLast) {
        throw new CorruptJournalError(
          file,
          lineNo,
          pos,
          `store: corrupt journal ${file} line ${lineNo}: ${problem}; refusing to start ` +
            `(a write would be lost; 'calendar-engine repair' cuts the journal there after keeping a copy)`,
        );
      }
      if (opts.readOnly) {
        warn(
          `store: torn last line ${lineNo} of ${file} (${buf.length - pos} bytes, ${problem}) left out; it was never acknowledged`,
        );
      } else {
        warn(
          `store: dropped torn last line ${lineNo} of ${file} (${buf.length - pos} bytes, ${problem}); it was never acknowledged`,
        );
        await truncateFile(file, pos);
      }
      scan.torn = buf.length - pos;
      break;
    }
    const write = value as Write & { sum?: string };
    delete write.sum; // the line's, not the write's
    const start = pos;
    if (scan.lines > 0 && write.seq !== scan.lastSeq + 1) {
      throw new CorruptJournalError(
        file,
        lineNo,
        pos,
        `store: corrupt journal ${file} line ${lineNo}: seq ${write.seq} follows seq ${scan.lastSeq} (expected ${scan.lastSeq + 1})`,
      );
    }
    if (scan.lines === 0) scan.firstSeq = write.seq;
    scan.lastSeq = write.seq;
    scan.lines++;
    pos = end + 1;
    scan.bytes = pos;
    onWrite(write, lineNo, start);
  }
  return scan;
}

async function truncateFile(file: string, length: number): Promise<void> {
  try {
    await truncateSynced(file, length);
  } catch (err) {
    throw new StoreFaultError(writeFault(err, file), err);
  }
}
