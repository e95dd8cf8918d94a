// A parallel import's worker thread (workers.ts starts it): an import begins with {setup}
// (its site zone and clock; a worker may serve several imports, one after the other), then each
// message is a block of an import file's events array (or of a JSON Lines file's lines), answered with its events read and packed
// (pack.ts), in the order the blocks came. A failure that is not a record's (a bug) is
// reported and ends it.
import { parentPort } from 'node:worker_threads';
import { RecordReader } from './local.ts';
import { packEventLines, type PackedEvents } from './pack.ts';

export interface ImportWorkerData {
  siteZone: string;
  /** the import's clock, ms (relative dates are read against it) */
  now: number;
  stampsMs: { local: number; utc: number };
}

export interface ImportWorkerReply {
  packed?: PackedEvents;
  error?: string;
  /** the block's memory, handed back for the next block (the worker keeps nothing of it) */
  block?: ArrayBuffer;
}

let rd: RecordReader | undefined;
const port = parentPort!;
port.on('message', (m: { setup: ImportWorkerData } | { block: Uint8Array; len: number; jsonl: boolean }) => {
  if ('setup' in m) {
    const data = m.setup;
    rd = new RecordReader(data.siteZone, () => new Date(data.now), data.stampsMs);
    return;
  }
  let reply: ImportWorkerReply;
  try {
    if (rd === undefined) throw new Error('import worker: expected {setup} before the first block');
    reply = { packed: packEventLines(rd, m.block, m.len, m.jsonl) };
  } catch (err) {
    reply = { error: String((err as Error)?.stack ?? err) };
  }
  const p = reply.packed;
  const block = m.block.buffer as ArrayBuffer;
  reply.block = block;
  port.postMessage(
    reply,
    p ? [p.f64.buffer as ArrayBuffer, p.i32.buffer as ArrayBuffer, p.links.buffer as ArrayBuffer, block] : [block],
  );
});
