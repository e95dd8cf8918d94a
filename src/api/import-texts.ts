// The long strings of a parallel import's events (titles, descriptions, excerpts, websites) as the
// snapshot writes them, made by the workers that parsed them rather than by the snapshot writer.
//
// An import into an empty store writes its snapshot while the file is read (import-file.ts,
// src/store/snapshot-stream.ts): each 10,000 staged rows become an events chunk, which the writer
// thread stringifies. Its text columns were most of that work: posted to the writer (a copy of
// every string, made on the importing thread and read again on the writer's), then stringified and
// escaped there (~13 ms a chunk of the writer's ~30, ~6 ms of the importing thread's posting).
// With `texts`, a worker also writes each block's four text columns as the writer would write
// them (JSON.stringify of each value, every character above 0x7f as a \uXXXX escape, as
// src/ascii-json.ts escapes them), joined by commas, in bytes that move (transferred, not copied)
// to the importing thread and then, sliced by chunk, to the writer, which puts them in its line as
// they are (chunk-bytes.ts, JSON_PARTS). Rows the workers did not stage (read by the importing
// thread's scanner, or handed back) are sent as strings, as before. The lines are the same bytes.

import type { EventTable } from '../engine/event-table.ts';

/** the chunk columns the workers write (EventChunk's) and each one's index in a packed event's strings (import-pack.ts P_STRINGS) */
export const TEXT_COLUMNS = ['titles', 'descriptions', 'excerpts', 'websites'] as const;
export type TextColumn = (typeof TEXT_COLUMNS)[number];
export const TEXT_STRING_AT: readonly number[] = [0, 1, 2, 4];

/** The key of a chunk value made of parts (chunk-bytes.ts reads it): a list written as '[' + its
 *  parts joined by ',' + ']', each part either bytes (JSON values joined by ',', ASCII) or a list
 *  of values to stringify. */
export const JSON_PARTS = '__jsonParts';
export type JsonPart = Uint8Array | (string | null)[];
export interface JsonParts {
  [JSON_PARTS]: JsonPart[];
}

/** A block's text columns: column c's value k is bytes [offs[c][k], offs[c][k + 1] - 1) of cols[c]. */
export interface PackedTexts {
  cols: Uint8Array[];
  offs: Int32Array[];
}

const WIDE = /[\u0100-\uffff]/;
const NON_ASCII = /[\u0080-\uffff]/g;
const escapeUnit = (c: string): string => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0');
const HEX = [48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 97, 98, 99, 100, 101, 102];

/**
 * Values strs[at], strs[at + stride]... (n of them) as JSON joined by ',' in ASCII bytes (what
 * chunkLine writes for them, less the brackets), and where each begins. The bytes get their own
 * memory (they are transferred).
 */
export function jsonColumn(strs: readonly (string | null)[], at: number, stride: number, n: number): { bytes: Uint8Array; offs: Int32Array } {
  const parts = new Array<string>(n);
  for (let k = 0; k < n; k++) parts[k] = JSON.stringify(strs[at + k * stride]);
  let text = parts.join(',');
  if (WIDE.test(text)) {
    for (let k = 0; k < n; k++) parts[k] = parts[k].replace(NON_ASCII, escapeUnit);
    text = parts.join(',');
  }
  const offs = new Int32Array(n + 1);
  let o = 0;
  for (let k = 0; k < n; k++) {
    offs[k] = o;
    o += parts[k].length + 1;
  }
  offs[n] = o;
  const len = text.length;
  const raw = Buffer.from(new ArrayBuffer(len));
  raw.write(text, 0, 'latin1');
  // the bytes above 0x7f (characters 0x80-0xff), found four at a time
  const at0: number[] = [];
  const words = len >> 2;
  const w32 = new Int32Array(raw.buffer, 0, words);
  for (let w = 0; w < words; w++) {
    if ((w32[w] & 0x80808080) === 0) continue;
    for (let i = w << 2, e = i + 4; i < e; i++) if (raw[i] > 0x7f) at0.push(i);
  }
  for (let i = words << 2; i < len; i++) if (raw[i] > 0x7f) at0.push(i);
  if (at0.length === 0) return { bytes: raw, offs };
  const out = Buffer.from(new ArrayBuffer(len + 5 * at0.length));
  let w = 0, last = 0;
  for (let j = 0; j < at0.length; j++) {
    const i = at0[j], c = raw[i];
    w += raw.copy(out, w, last, i);
    out[w] = 92; out[w + 1] = 117; out[w + 2] = 48; out[w + 3] = 48; out[w + 4] = HEX[c >> 4]; out[w + 5] = HEX[c & 15];
    w += 6;
    last = i + 1;
  }
  raw.copy(out, w, last, len);
  // each value's start moves by 5 bytes for each escape before it
  for (let k = 0, j = 0; k <= n; k++) {
    while (j < at0.length && at0[j] < offs[k]) j++;
    offs[k] += 5 * j;
  }
  return { bytes: out, offs };
}

/** The text columns of a worker's block: strs holds `stride` strings an event (import-pack.ts), n events. */
export function packTexts(strs: readonly (string | null)[], stride: number, n: number): PackedTexts {
  const cols: Uint8Array[] = [], offs: Int32Array[] = [];
  for (const at of TEXT_STRING_AT) {
    const c = jsonColumn(strs, at, stride, n);
    cols.push(c.bytes);
    offs.push(c.offs);
  }
  return { cols, offs };
}

/** The memory a block's texts move in. */
export function textBuffers(t: PackedTexts): ArrayBuffer[] {
  return [...t.cols.map((c) => c.buffer as ArrayBuffer), ...t.offs.map((o) => o.buffer as ArrayBuffer)];
}

interface Run {
  /** rows [row, end) of the table are the block's events k, k + 1... */
  row: number;
  end: number;
  k: number;
  texts: PackedTexts;
}

/**
 * Which staged rows have their text columns in a worker's bytes (the importing thread's record,
 * rows in order), until the chunk of those rows is made.
 */
export class TextRuns {
  private runs: Run[] = [];
  private head = 0;

  /** Table row `row` is event k of the block whose texts are `texts`. */
  add(row: number, texts: PackedTexts, k: number): void {
    const last = this.runs.length > this.head ? this.runs[this.runs.length - 1] : undefined;
    if (last !== undefined && last.texts === texts && last.end === row && last.k + (row - last.row) === k) last.end++;
    else this.runs.push({ row, end: row + 1, k, texts });
  }

  /**
   * The text columns of rows [from, to) of `t` as parts (JsonParts), and the memory of their bytes
   * (copies: it may be transferred); what the rows before `to` needed is let go.
   */
  columns(t: EventTable, from: number, to: number): { columns: Record<TextColumn, JsonParts>; transfer: ArrayBuffer[] } {
    const parts: JsonPart[][] = TEXT_COLUMNS.map(() => []);
    const transfer: ArrayBuffer[] = [];
    const strings = (a: number, b: number) => {
      TEXT_COLUMNS.forEach((c, i) => parts[i].push(t[c].slice(a, b)));
    };
    let row = from;
    const runs = this.runs;
    for (let i = this.head; i < runs.length && runs[i].row < to; i++) {
      const r = runs[i];
      const a = Math.max(r.row, row), b = Math.min(r.end, to);
      if (a >= b) continue;
      if (a > row) strings(row, a);
      const ka = r.k + (a - r.row), kb = r.k + (b - r.row);
      for (let c = 0; c < TEXT_COLUMNS.length; c++) {
        const offs = r.texts.offs[c];
        const bytes = r.texts.cols[c].slice(offs[ka], offs[kb] - 1);
        parts[c].push(bytes);
        transfer.push(bytes.buffer as ArrayBuffer);
      }
      row = b;
    }
    if (row < to) strings(row, to);
    while (this.head < runs.length && runs[this.head].end <= to) this.head++;
    if (this.head > 256) {
      this.runs = runs.slice(this.head);
      this.head = 0;
    }
    const columns = {} as Record<TextColumn, JsonParts>;
    TEXT_COLUMNS.forEach((c, i) => (columns[c] = { [JSON_PARTS]: parts[i] }));
    return { columns, transfer };
  }
}
