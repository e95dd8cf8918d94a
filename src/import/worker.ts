// A parallel import's worker thread (workers.ts starts it): an import begins with {setup}
// (its site zone and clock; a worker may serve several imports, one after the other), then each
// message is a block of an import file's events array (or of a JSON Lines file's lines), answered with its events read and packed
// (pack.ts), in the order the blocks came. A failure that is not a record's (a bug) is
// reported and ends it.
import { parentPort } from 'node:worker_threads';
import { RecordReader } from './local.ts';
import { packEventLines, type PackedEvents, type TextCoder } from './pack.ts';
import { SymbolTable } from '../engine/text-symbols.ts';

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

/** The table the importing thread's text store codes texts with (its `text`), and its number. */
export interface ImportWorkerTable {
  table: string | null;
  tag: number;
}

let rd: RecordReader | undefined;
let coder: TextCoder | undefined;
const port = parentPort!;
type Message =
  | { setup: ImportWorkerData }
  | { symbols: ImportWorkerTable }
  | { block: Uint8Array; len: number; jsonl: boolean };
port.on('message', (m: Message) => {
  if ('setup' in m) {
    const data = m.setup;
    rd = new RecordReader(data.siteZone, () => new Date(data.now), data.stampsMs);
    coder = undefined;
    return;
  }
  if ('symbols' in m) {
    const { table, tag } = m.symbols;
    coder = table === null ? undefined : { table: SymbolTable.fromText(table), tag };
    return;
  }
  let reply: ImportWorkerReply;
  try {
    if (rd === undefined) throw new Error('import worker: expected {setup} before the first block');
    reply = { packed: packEventLines(rd, m.block, m.len, m.jsonl, coder) };
  } catch (err) {
    reply = { error: String((err as Error)?.stack ?? err) };
  }
  const p = reply.packed;
  const block = m.block.buffer as ArrayBuffer;
  reply.block = block;
  port.postMessage(
    reply,
    p
      ? [
          p.f64.buffer as ArrayBuffer,
          p.i32.buffer as ArrayBuffer,
          p.links.buffer as ArrayBuffer,
          p.coded.buffer as ArrayBuffer,
          p.titles.bytes.buffer as ArrayBuffer,
          p.slugs.bytes.buffer as ArrayBuffer,
          block,
        ]
      : [block],
  );
});
