// The byte scanners of an import file (read-records.ts feeds them its chunks): LineScanner finds
// the records of JSON Lines, ShapeScanner (shape-scanner.ts) the elements of the import shape's
// arrays; each record is parsed on its own by JSON.parse and carries its list, its index in that
// list and the line it starts on. Here: what both share, and LineScanner.

import type { ImportKind } from './index.ts';

export interface FileRecord {
  kind: ImportKind;
  rec: unknown;
  /** index in its list (per kind) */
  index: number;
  /** 1-based line where the record starts */
  line: number;
}

/** A file that is not in the import shape: the message names the place. */
export class ImportFileError extends Error {}

const TYPE_TO_KIND: Record<string, ImportKind> = {
  category: 'categories',
  tag: 'tags',
  media: 'media',
  venue: 'venues',
  organizer: 'organizers',
  event: 'events',
};

/** how `export` begins an event's line */
const EVENT_LINE = Buffer.from('{"type":"event"');

/** Bytes of a value being collected across chunks. */
export class Collector {
  private parts: Buffer[] = [];
  push(b: Buffer): void {
    if (b.length > 0) this.parts.push(b);
  }
  text(): string {
    const t = this.parts.length === 1 ? this.parts[0].toString('utf8') : Buffer.concat(this.parts).toString('utf8');
    this.parts = [];
    return t;
  }
  get empty(): boolean {
    return this.parts.length === 0;
  }
}

export const WS = new Uint8Array(256);
for (const c of [0x20, 0x09, 0x0a, 0x0d]) WS[c] = 1;

export abstract class Scanner {
  protected out: FileRecord[] = [];
  line = 1;
  constructor(
    protected readonly file: string,
    protected readonly counts: Record<ImportKind, number>,
  ) {}
  abstract push(chunk: Buffer): void;
  abstract end(): void;
  take(): FileRecord[] {
    const out = this.out;
    this.out = [];
    return out;
  }
  protected fail(message: string, line = this.line): never {
    throw new ImportFileError(`${this.file}: line ${line}: ${message}`);
  }
  protected parse(text: string, what: string, line: number): unknown {
    try {
      return JSON.parse(text) as unknown;
    } catch (err) {
      return this.fail(`${what} is not valid JSON: ${(err as Error).message}`, line);
    }
  }
}

/** JSON Lines: one record per line. */
export class LineScanner extends Scanner {
  private readonly pending = new Collector();

  private started = false;
  /** stop where a line begins with EVENT_LINE, at handoffAt in the chunk pushed (readParallelLines) */
  handoff = false;
  handoffAt = -1;
  /** the line the scanner resumed at (the workers did not take it: it is read here) */
  private resumedAt = -1;

  /** Goes on at the beginning of line `line`, the one the workers stopped at. */
  resume(line: number): void {
    this.line = line;
    this.handoffAt = -1;
    this.resumedAt = line;
  }

  push(chunk: Buffer): void {
    let from = 0;
    for (;;) {
      if (
        this.handoff &&
        this.pending.empty &&
        this.line !== this.resumedAt &&
        this.started &&
        chunk.length - from >= EVENT_LINE.length &&
        chunk.compare(EVENT_LINE, 0, EVENT_LINE.length, from, from + EVENT_LINE.length) === 0
      ) {
        this.handoffAt = from;
        return;
      }
      const nl = chunk.indexOf(0x0a, from);
      if (nl < 0) {
        this.pending.push(chunk.subarray(from));
        return;
      }
      this.pending.push(chunk.subarray(from, nl));
      this.record(this.pending.text());
      this.line++;
      from = nl + 1;
    }
  }

  end(): void {
    if (!this.pending.empty) this.record(this.pending.text());
  }

  private record(text: string): void {
    if (!this.started) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (text.trim() === '') return;
    const rec = this.parse(text, 'the line', this.line);
    if (typeof rec !== 'object' || rec === null || Array.isArray(rec)) this.fail('expected one JSON object per line');
    const type = (rec as { type?: unknown }).type;
    const kind = typeof type === 'string' ? TYPE_TO_KIND[type] : undefined;
    if (kind === undefined)
      this.fail(`"type" must be one of ${Object.keys(TYPE_TO_KIND).join(', ')}, got ${JSON.stringify(type)}`);
    delete (rec as { type?: unknown }).type;
    this.out.push({ kind, rec, index: this.counts[kind]++, line: this.line });
  }
}
