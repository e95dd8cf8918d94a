// The search index's build on a worker thread (search-workers.ts starts it): one message holds a
// frozen view of the event texts (the records' bytes, shared, and a copy of the rows' offsets),
// the title dictionary, the symbol table and the rows' (start, id) order; the answer is what the
// build on the main thread makes (search-postings.ts, the same code): the vocabulary with its hash
// table, the list offsets and the packed postings, their memory transferred back.

import { parentPort } from 'node:worker_threads';
import { SearchPostings } from './search-postings.ts';
import { SymbolTable } from './text-symbols.ts';
import { lowerThreadPriority } from './thread-priority.ts';
import { type Bytes, TextView } from './text-view.ts';

/** What the main thread sends: rows [0, n) of the texts as they were when the build began. */
export interface SearchBuildInput {
  /** the records (a view of the text store's shared buffer) */
  bytes: Uint8Array;
  /** each row's record offset in `bytes` (n of them) */
  starts: Uint32Array;
  titles: string[];
  /** the symbol table's text (null: the texts are not coded) */
  symbols: string | null;
  /** the rows in (start, id) order */
  order: Int32Array;
}

/** The build's result (or what went wrong). */
export type SearchBuildOutput =
  | {
      words: string[];
      hashes: Int32Array;
      slots: Int32Array;
      offsets: Int32Array;
      packed: {
        order: Int32Array;
        base: Int32Array;
        start: Uint32Array;
        width: Uint8Array;
        words: Uint32Array;
        length: number;
      };
    }
  | { error: string };

/** A build over a frozen view of the texts, whole (nothing else runs on this thread). */
export class DetachedBuild extends SearchPostings {
  run(input: SearchBuildInput): Exclude<SearchBuildOutput, { error: string }> {
    const b = input.bytes;
    const bytes = Buffer.from(b.buffer, b.byteOffset, b.byteLength) as Bytes;
    const symbols = input.symbols === null ? null : SymbolTable.fromText(input.symbols);
    const texts = new TextView(bytes, input.starts, input.titles, symbols);
    this.beginRows(input.starts.length);
    this.advanceOver(texts, () => input.order, Infinity);
    const { words, hashes, slots } = this.vocabulary();
    const r = this.rows;
    return {
      words: words.slice(0, this.listCount),
      hashes,
      slots,
      offsets: this.offsets,
      packed: { order: r.order, base: r.base, start: r.start, width: r.width, words: r.words, length: r.length },
    };
  }
}

/** The buffers of an output, to transfer rather than copy. */
export function transferList(out: SearchBuildOutput): ArrayBuffer[] {
  if ('error' in out) return [];
  const p = out.packed;
  const all = [out.hashes, out.slots, out.offsets, p.order, p.base, p.start, p.width, p.words].map((a) => a.buffer);
  // each buffer once (an empty array may share one), and only the ones the build owns whole
  return [...new Set(all)].filter((a): a is ArrayBuffer => a instanceof ArrayBuffer && a.byteLength > 0);
}

const port = parentPort;
if (port !== null) {
  // background work: on a machine whose cores are busy, requests on the main thread come first
  lowerThreadPriority();
  port.on('message', (input: SearchBuildInput) => {
    let out: SearchBuildOutput;
    try {
      out = new DetachedBuild().run(input);
    } catch (err) {
      out = { error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
    }
    port.postMessage(out, transferList(out));
  });
}
