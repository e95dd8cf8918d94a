// Parts of a streamed snapshot made on a worker thread (snapshot-workers.ts starts it), with the
// same code as on the main thread, so the same bytes:
// - the texts of the events chunks: one message holds a frozen view of the records (the text
//   store's shared buffer and a copy of the rows' offsets) and the rows in the order they are
//   written; then each request { from, to } gets back the texts of positions [from, to): the
//   records copied one after the other and their ends (TextView.copyRecords), their memory
//   transferred, in the order asked (the main thread writes them as base64: made here, each chunk's
//   ~5 MiB string would be garbage on this thread until its heap is collected, and copied again to
//   reach the main thread);
// - or the posting lists made from the columns (snapshot-postings.ts capturedFromColumns): one
//   message with the columns, one answer with the lists (their memory transferred back).

import { parentPort } from 'node:worker_threads';
import { capturedFromColumns, type ColumnPostings, type PostingColumns } from './snapshot-postings.ts';
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

/** The texts of one events chunk: the records one after the other, and the end of each. */
export interface ChunkTexts {
  bytes: Uint8Array;
  ends: Uint32Array;
}

/** A request: the chunk of positions [from, to). */
export interface ChunkTextsRequest {
  from: number;
  to: number;
}

/** The answer to a request, or what went wrong. */
export type ChunkTextsOutput = ({ from: number } & ChunkTexts) | { error: string };

/** The posting lists' job, and its answer. */
export interface PostingsInput {
  postings: PostingColumns;
}
export type PostingsOutput = ColumnPostings | { error: string };

const port = parentPort;
if (port !== null) {
  let input: { texts: TextView; order: Int32Array } | undefined;
  port.on('message', (m: ChunkTextsInput | ChunkTextsRequest | PostingsInput) => {
    let out: ChunkTextsOutput;
    try {
      if ('postings' in m) {
        const made = capturedFromColumns(m.postings, true);
        const buffers = made.captured.flatMap((c) => [c.ids.buffer, c.counts.buffer, c.multis.buffer, c.values.buffer]);
        port.postMessage(made satisfies PostingsOutput, buffers as ArrayBuffer[]);
        return;
      }
      if ('order' in m) {
        const b = m.bytes;
        const bytes = Buffer.from(b.buffer, b.byteOffset, b.byteLength) as Bytes;
        input = { texts: new TextView(bytes, m.starts, []), order: m.order };
        return;
      }
      if (input === undefined) throw new Error('expected the records before a request');
      const t = input.texts.copyRecords(input.order.subarray(m.from, m.to));
      // the records' own memory (a small copy may be in Buffer's shared pool: copied out of it)
      const own = t.bytes.byteOffset === 0 && t.bytes.buffer.byteLength === t.bytes.length;
      const bytes = own ? t.bytes : new Uint8Array(t.bytes);
      port.postMessage({ from: m.from, bytes, ends: t.ends } satisfies ChunkTextsOutput, [
        bytes.buffer as ArrayBuffer,
        t.ends.buffer as ArrayBuffer,
      ]);
      return;
    } catch (err) {
      out = { error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
    }
    port.postMessage(out);
  });
}
