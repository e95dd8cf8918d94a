// The events array of an import file read by a parallel import's workers (src/import/workers.ts):
// the file from where the array's elements begin, in blocks of whole lines, a few blocks ahead
// spread over the workers; their answers are handed on in file order. Where a worker stopped (the
// array's end, a line that is not one whole event), so does this: in-flight blocks after it are
// dropped and the caller's scanner reads on from that place.
import type { FileHandle } from 'node:fs/promises';
import type { ImportKind } from './index.ts';
import type { PackedEvents } from './pack.ts';
import type { ImportWorkers } from './workers.ts';

/** A parallel import's workers and the size of the blocks they get. */
export interface ParallelRead {
  workers: ImportWorkers;
  blockBytes?: number;
}

/** A worker's block of events: events[index] is its first, on line `line`. */
export interface PackedBatch {
  packed: PackedEvents;
  index: number;
  line: number;
}

const BLOCK_BYTES = 1 << 20;

/**
 * The events from file offset `start` (the '{' of events[counts.events], on line `line`); `jsonl`:
 * the lines of a JSON Lines file from there (packEventLines).
 * Returns where the workers stopped: its file offset and line, whether the last event taken was
 * followed by ',' (or none was taken), how many events were taken and how many blocks were taken whole.
 */
export async function* readEventBlocks(
  fh: FileHandle,
  start: number,
  line: number,
  counts: Record<ImportKind, number>,
  parallel: ParallelRead,
  onBytes?: (bytes: number) => void,
  jsonl = false,
): AsyncGenerator<PackedBatch, { offset: number; line: number; comma: boolean; took: number; blocks: number }> {
  const { workers } = parallel;
  const blockBytes = parallel.blockBytes ?? BLOCK_BYTES;
  const ahead = workers.size * 3;
  const inflight: { offset: number; len: number; result: Promise<PackedEvents> }[] = [];
  let readPos = start,
    carry = Buffer.alloc(0),
    eof = false;
  const fill = async () => {
    while (!eof && inflight.length < ahead) {
      const block = workers.block(carry.length + blockBytes);
      carry.copy(block, 0);
      const offset = readPos - carry.length;
      const { bytesRead } = await fh.read(block, carry.length, blockBytes, readPos);
      readPos += bytesRead;
      if (bytesRead === 0) {
        eof = true; // the carry, a last line without a newline, is the scanner's
        break;
      }
      const total = carry.length + bytesRead;
      const nl = block.lastIndexOf(0x0a, total - 1);
      if (nl < 0) {
        carry = Buffer.from(block.subarray(0, total)); // a line longer than a block: read on
        continue;
      }
      carry = Buffer.from(block.subarray(nl + 1, total));
      const result = workers.run(block, nl + 1, jsonl);
      result.catch(() => {}); // dropped blocks' failures are nobody's; awaited ones are reported
      inflight.push({ offset, len: nl + 1, result });
    }
  };
  let comma = true,
    took = 0,
    blocks = 0;
  for (;;) {
    await fill();
    const b = inflight.shift();
    if (b === undefined) break;
    const packed = await b.result;
    // a worker takes its block to begin where an element may: not so after an element without ','
    if (!comma && packed.n > 0) return { offset: b.offset, line, comma, took, blocks };
    if (packed.n > 0) {
      yield { packed, index: counts.events, line };
      counts.events += packed.n;
      took += packed.n;
      comma = packed.comma;
    }
    if (packed.stop < b.len)
      return { offset: b.offset + packed.stop, line: line + packed.stopLine, comma, took, blocks };
    line += packed.lines;
    blocks++;
    onBytes?.(b.offset + b.len);
  }
  return { offset: readPos - carry.length, line, comma, took, blocks };
}
