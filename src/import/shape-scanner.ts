// The import shape's scanner: one object of arrays read byte by byte across chunks (strings,
// escapes and nesting tracked), each array element a record parsed on its own. The scanners'
// shared parts and JSON Lines' scanner: scanners.ts.

import { IMPORT_KINDS, type ImportKind } from './index.ts';
import { Collector, Scanner, WS } from './scanners.ts';

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
