// A parallel import's worker thread (import-workers.ts starts it): an import begins with {setup}
// (its site zone and clock; a worker may serve several imports, one after the other), then each
// message is a block of an import file's events array (or of a JSON Lines file's lines), answered with its events read and packed
// (import-pack.ts), in the order the blocks came. A failure that is not a record's (a bug) is
// reported and ends it.
import { parentPort } from 'node:worker_threads';
import { RecordReader } from './import-local.ts';
import { packEventLines, type PackedEvents } from './import-pack.ts';

export interface ImportWorkerData {
  siteZone: string;
  /** the import's clock, ms (relative dates are read against it) */
  now: number;
  stampsMs: { local: number; utc: number };
}

export interface ImportWorkerReply {
  packed?: PackedEvents;
  error?: string;
  /** the block's slot, which the worker is done with (it keeps nothing of its bytes) */
  slot?: number;
}

/** A block: bytes [0, len) of slot `slot`, whose memory (shared) comes with the first block a worker gets in it. */
export interface ImportWorkerBlock {
  slot: number;
  sab?: SharedArrayBuffer;
  len: number;
  jsonl: boolean;
}

let rd: RecordReader | undefined;
/** this import's slots (import-workers.ts), as they came */
const slots: Uint8Array[] = [];
const port = parentPort!;
port.on('message', (m: { setup: ImportWorkerData } | ImportWorkerBlock) => {
  if ('setup' in m) {
    const data = m.setup;
    rd = new RecordReader(data.siteZone, () => new Date(data.now), data.stampsMs);
    slots.length = 0; // a new import: new slots
    return;
  }
  let reply: ImportWorkerReply;
  try {
    if (rd === undefined) throw new Error('import worker: expected {setup} before the first block');
    if (m.sab !== undefined) slots[m.slot] = new Uint8Array(m.sab);
    const block = slots[m.slot];
    if (block === undefined) throw new Error(`import worker: expected the memory of slot ${m.slot} with its first block`);
    reply = { packed: packEventLines(rd, block, m.len, m.jsonl) };
  } catch (err) {
    reply = { error: String((err as Error)?.stack ?? err) };
  }
  reply.slot = m.slot;
  const p = reply.packed;
  port.postMessage(reply, p ? [p.f64.buffer as ArrayBuffer, p.i32.buffer as ArrayBuffer, p.links.buffer as ArrayBuffer] : []);
});
