// The texts of a streamed snapshot's events chunks made on a worker thread (snapshot-workers.ts
// starts it): one message holds a frozen view of the records (the text store's shared buffer and a
// copy of the rows' offsets) and the rows in the order they are written; then each request
// { from, to } gets back the texts of positions [from, to) as an events chunk holds them (the
// records copied one after the other and their ends, as base64: TextView.copyRecords, the same code
// as on the main thread), in the order asked.

import { parentPort } from 'node:worker_threads';
import { chunkTexts } from './snapshot-bytes.ts';
import { type Bytes, TextView } from './text-view.ts';

/** What the main thread sends first: the records and the rows' order. */
export interface ChunkTextsInput {
  /** the records (a view of the text store's shared buffer) */
  bytes: Uint8Array;
  /** each row's record offset in `bytes` */
  starts: Uint32Array;
  /** the table rows in the order they are written (position → row) */
  order: Int32Array;
}

/** The texts of one events chunk, as its `texts` holds them (but the symbol table). */
export interface ChunkTexts {
  bytes: string;
  ends: string;
}

/** A request: the chunk of positions [from, to). */
export interface ChunkTextsRequest {
  from: number;
  to: number;
}

/** The answer to a request, or what went wrong. */
export type ChunkTextsOutput = ({ from: number } & ChunkTexts) | { error: string };

const port = parentPort;
if (port !== null) {
  let input: { texts: TextView; order: Int32Array } | undefined;
  port.on('message', (m: ChunkTextsInput | ChunkTextsRequest) => {
    let out: ChunkTextsOutput;
    try {
      if ('order' in m) {
        const b = m.bytes;
        const bytes = Buffer.from(b.buffer, b.byteOffset, b.byteLength) as Bytes;
        input = { texts: new TextView(bytes, m.starts, []), order: m.order };
        return;
      }
      if (input === undefined) throw new Error('expected the records before a request');
      out = { from: m.from, ...chunkTexts(input.texts, input.order.subarray(m.from, m.to)) };
    } catch (err) {
      out = { error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
    }
    port.postMessage(out);
  });
}
