// The byte scanners of an import file (read-records.ts feeds them its chunks): LineScanner finds
// the records of JSON Lines, ShapeScanner the elements of the import shape's arrays (strings,
// escapes and nesting tracked); each record is parsed on its own by JSON.parse and carries its
// list, its index in that list and the line it starts on.

import { IMPORT_KINDS, type ImportKind } from './index.ts';

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
class Collector {
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

const WS = new Uint8Array(256);
for (const c of [0x20, 0x09, 0x0a, 0x0d]) WS[c] = 1;

abstract class Scanner {
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

// states of the import-shape scanner
const S_START = 0,
  S_KEY = 1,
  S_COLON = 2,
  S_VALUE = 3,
  S_ARRAY = 4,
  S_AFTER_ELEMENT = 5,
  S_AFTER_MEMBER = 6,
  S_DONE = 7;
const S_IN_KEY = 8,
  S_IN_VALUE = 9;

/** The import shape, one object of arrays: each array element becomes one record. */
export class ShapeScanner extends Scanner {
  private state = S_START;
  private readonly value = new Collector();
  private key = '';
  /** the list the current array belongs to; undefined while skipping another key's value */
  private kind: ImportKind | undefined;
  private seenKinds = new Set<ImportKind>();
  // the value being collected: nesting depth, inside a string, after a backslash, its first line
  private depth = 0;
  private inString = false;
  private escaped = false;
  private scalar = false;
  private startLine = 1;
  /** collecting a value for an unknown key (skipped) rather than an array element */
  private skipping = false;
  /** stop where an events array's element begins, at handoffAt in the chunk pushed (readParallel) */
  handoff = false;
  handoffAt = -1;

  /** Goes on at the beginning of line `line`, after an events array's element (followed by ','
   *  when `comma`) or after its '[' (comma). */
  resume(line: number, comma: boolean): void {
    this.line = line;
    this.state = comma ? S_ARRAY : S_AFTER_ELEMENT;
    this.handoffAt = -1;
  }

  push(chunk: Buffer): void {
    let i = 0;
    let from = i; // start of the part of `chunk` that belongs to the value being collected
    const n = chunk.length;
    scan: while (i < n) {
      const c = chunk[i];
      switch (this.state) {
        case S_IN_VALUE: {
          // the hot loop: find the end of the value
          let depth = this.depth,
            inString = this.inString,
            escaped = this.escaped,
            line = this.line;
          if (this.scalar) {
            while (i < n) {
              const d = chunk[i];
              if (d === 0x2c || d === 0x5d || d === 0x7d || WS[d] === 1) break;
              i++;
            }
            if (i === n) break scan; // the scalar continues in the next chunk
            depth = 0;
          } else {
            for (; i < n; i++) {
              const d = chunk[i];
              if (d === 0x0a) line++;
              if (inString) {
                if (escaped) escaped = false;
                else if (d === 0x5c) escaped = true;
                else if (d === 0x22) {
                  inString = false;
                  if (depth === 0) {
                    i++;
                    break;
                  }
                }
              } else if (d === 0x22) inString = true;
              else if (d === 0x7b || d === 0x5b) depth++;
              else if (d === 0x7d || d === 0x5d) {
                if (--depth === 0) {
                  i++;
                  break;
                }
              }
            }
            this.depth = depth;
            this.inString = inString;
            this.escaped = escaped;
            this.line = line;
            if (depth > 0 || inString) break scan; // the value continues in the next chunk
          }
          this.value.push(chunk.subarray(from, i));
          this.valueDone();
          continue;
        }
        case S_IN_KEY: {
          // keys are short: collect to the closing quote
          let j = i;
          while (j < n && !(chunk[j] === 0x22 && !this.escaped)) {
            this.escaped = !this.escaped && chunk[j] === 0x5c;
            j++;
          }
          this.value.push(chunk.subarray(i, j));
          i = j;
          if (j === n) break scan;
          this.key = this.parse(`"${this.value.text()}"`, 'a key', this.line) as string;
          this.escaped = false;
          this.state = S_COLON;
          i++;
          continue;
        }
      }
      if (c === 0x0a) this.line++;
      if (WS[c] === 1 || (this.state === S_START && (c === 0xef || c === 0xbb || c === 0xbf))) {
        i++;
        continue;
      } // a BOM, in any chunking
      switch (this.state) {
        case S_START:
          if (c !== 0x7b)
            this.fail(
              'expected the import shape: one JSON object {"categories": [...], "tags": [...], "venues": [...], "organizers": [...], "events": [...]}',
            );
          this.state = S_KEY;
          break;
        case S_KEY:
          if (c === 0x7d) {
            this.state = S_DONE;
            break;
          }
          if (c !== 0x22) this.fail('expected a key (a string in double quotes)');
          this.state = S_IN_KEY;
          break;
        case S_COLON:
          if (c !== 0x3a) this.fail(`expected ':' after "${this.key}"`);
          this.state = S_VALUE;
          break;
        case S_VALUE: {
          const kind = (IMPORT_KINDS as readonly string[]).includes(this.key) ? (this.key as ImportKind) : undefined;
          if (kind !== undefined) {
            if (c !== 0x5b) this.fail(`"${kind}" must be an array`);
            if (this.seenKinds.has(kind)) this.fail(`"${kind}" appears twice`);
            this.seenKinds.add(kind);
            this.kind = kind;
            this.state = S_ARRAY;
            break;
          }
          this.skipping = true;
          this.startValue(c);
          from = i;
          continue;
        }
        case S_ARRAY: {
          if (c === 0x5d) {
            this.state = S_AFTER_MEMBER;
            break;
          }
          if (c === 0x7b && this.handoff && this.kind === 'events') {
            this.handoffAt = i;
            return;
          }
          if (c === 0x7b) {
            const next = this.wholeLine(chunk, i);
            if (next >= 0) {
              i = next;
              continue;
            }
          }
          this.skipping = false;
          this.startValue(c);
          from = i;
          continue;
        }
        case S_AFTER_ELEMENT:
          if (c === 0x2c) this.state = S_ARRAY;
          else if (c === 0x5d) this.state = S_AFTER_MEMBER;
          else this.fail(`expected ',' or ']' after ${this.kind}[${this.counts[this.kind!] - 1}]`);
          break;
        case S_AFTER_MEMBER:
          if (c === 0x2c) this.state = S_KEY;
          else if (c === 0x7d) this.state = S_DONE;
          else this.fail("expected ',' or '}' after a member of the object");
          break;
        case S_DONE:
          this.fail('unexpected text after the end of the object');
      }
      i++;
    }
    if (this.state === S_IN_VALUE && i === n) {
      this.value.push(chunk.subarray(from, n));
    }
  }

  /**
   * The fast path for files with one element a line (as `export` writes them): when the rest of
   * the line from the element's '{' at `at` ends in '}' or '},' and parses as JSON, that text is
   * the whole element (a JSON value is delimited by its own grammar, and a raw newline cannot
   * occur inside a JSON string), so the byte-by-byte scan is skipped. Returns the index after
   * the line's newline, or -1 (no newline in this chunk, another ending, not JSON: the scanner
   * takes the element, and reports what is wrong with it).
   */
  private wholeLine(chunk: Buffer, at: number): number {
    const nl = chunk.indexOf(0x0a, at);
    if (nl < 0) return -1;
    let end = nl;
    while (end > at && WS[chunk[end - 1]] === 1) end--;
    const comma = chunk[end - 1] === 0x2c;
    if (comma) end--;
    if (chunk[end - 1] !== 0x7d) return -1;
    let rec: unknown;
    try {
      rec = JSON.parse(chunk.toString('utf8', at, end));
    } catch {
      return -1;
    }
    const kind = this.kind!;
    this.out.push({ kind, rec, index: this.counts[kind]++, line: this.line });
    this.line++;
    this.state = comma ? S_ARRAY : S_AFTER_ELEMENT;
    return nl + 1;
  }

  /** A value begins at byte `c` (not consumed: the hot loop reads it). */
  private startValue(c: number): void {
    this.state = S_IN_VALUE;
    this.depth = 0;
    this.inString = false;
    this.escaped = false;
    this.scalar = c !== 0x7b && c !== 0x5b && c !== 0x22;
    this.startLine = this.line;
  }

  private valueDone(): void {
    const text = this.value.text();
    if (this.skipping) {
      this.parse(text, `the value of "${this.key}"`, this.startLine);
      this.state = S_AFTER_MEMBER;
      return;
    }
    const kind = this.kind!;
    const index = this.counts[kind];
    const rec = this.parse(text, `${kind}[${index}]`, this.startLine);
    this.out.push({ kind, rec, index, line: this.startLine });
    this.counts[kind]++;
    this.state = S_AFTER_ELEMENT;
  }

  end(): void {
    if (this.state === S_IN_VALUE && this.scalar) {
      this.valueDone();
    }
    if (this.state !== S_DONE) {
      const inside = this.state === S_IN_VALUE && !this.skipping;
      const where = inside ? ` inside ${this.kind}[${this.counts[this.kind!]}] (begun at line ${this.startLine})` : '';
      this.fail(
        `the file ends before the import object does${where}: is it truncated?`,
        inside ? this.startLine : this.line,
      );
    }
    if (this.seenKinds.size === 0) this.fail(`none of ${IMPORT_KINDS.join(', ')} is present; nothing to import`);
  }
}
