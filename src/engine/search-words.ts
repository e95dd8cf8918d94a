// The words of the search index: which units make words, how a term is cut into pieces, how a
// unit folds, and the joined vocabulary text searched with indexOf. Shared by the index
// (search-index.ts, building and upkeep) and its query walk (search-walk.ts).

import { foldText, type EventTable } from './event-table.ts';

export const FNV_OFFSET = 0x811c9dc5 | 0;
export const FNV_PRIME = 0x01000193;
export const BLOCK_SHIFT = 8;
export const BLOCK = 1 << BLOCK_SHIFT;
/** lists shorter than this are walked, not counted from block counters */
export const COUNTED_MIN = 2048;
/** the vocabulary joined with this separator (a separator unit itself, so no term crosses it) */
export const JOIN = '\u0001';

/** ASCII unit → its lower-case word unit, 0 for separators (units >= 128 are word units as they are) */
export const WORD = new Uint8Array(128);
for (let c = 48; c <= 57; c++) WORD[c] = c;
for (let c = 97; c <= 122; c++) WORD[c] = c;
for (let c = 65; c <= 90; c++) WORD[c] = c | 32;

export const NON_ASCII = /[^\x00-\x7f]/;

/** true when the folded string has no separator unit (a term the index answers exactly) */
export function isWordOnly(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 128 && WORD[c] === 0) return false;
  }
  return s.length > 0;
}

/** the non-empty word pieces of a folded string */
export function wordPieces(s: string): string[] {
  const out: string[] = [];
  let from = -1;
  for (let i = 0; i <= s.length; i++) {
    const c = i < s.length ? s.charCodeAt(i) : 0;
    const word = c >= 128 || WORD[c] !== 0;
    if (word && from < 0) from = i;
    else if (!word && from >= 0) {
      out.push(s.slice(from, i));
      from = -1;
    }
  }
  return out;
}

/** The string of units buf[0, len). */
export function unitsToString(buf: Uint16Array, len: number): string {
  let s = '';
  for (let i = 0; i < len; i += 4096)
    s += String.fromCharCode.apply(null, Array.from(buf.subarray(i, Math.min(len, i + 4096))));
  return len > 4096 ? s.split('').join('') : s;
}

/** foldText of each non-ASCII unit alone; null for units whose folding depends on context */
export const FOLDS = new Map<number, string | null>();

/**
 * foldText(unit) for a unit >= 128, when folding it alone gives what it contributes to the
 * folded string around it: NFD decomposes each character on its own (canonical reordering
 * only moves combining marks, which are all stripped) and toLowerCase maps each character
 * alone except capital sigma (final-sigma rule). Surrogates (pairs) and sigma → null.
 */
export function foldUnit(c: number): string | null {
  let f = FOLDS.get(c);
  if (f === undefined) {
    const ch = String.fromCharCode(c);
    const d = ch.normalize('NFD');
    f = (c >= 0xd800 && c <= 0xdfff) || d.includes('\u03a3') ? null : foldText(ch);
    FOLDS.set(c, f);
  }
  return f;
}

/** Word texts joined for substring search: each word preceded by JOIN; starts[i] = where word i begins. */
export interface Joined {
  text: string;
  starts: Int32Array;
}

export function joinWords(words: string[], from: number, to: number): Joined {
  const starts = new Int32Array(to - from);
  let at = 0;
  for (let i = from; i < to; i++) {
    starts[i - from] = at + 1;
    at += 1 + words[i].length;
  }
  return { text: ['', ...words.slice(from, to)].join(JOIN), starts };
}

/**
 * Pushes the index (plus `first`) of every word of `j` that holds `piece`, once each. The
 * piece has no separator unit, so a match lies inside one word.
 */
export function findIn(j: Joined, piece: string, first: number, out: number[]): void {
  const text = j.text,
    starts = j.starts,
    n = starts.length;
  let from = 0;
  for (;;) {
    const at = text.indexOf(piece, from);
    if (at < 0) return;
    // the word holding position `at`: the last start <= at
    let lo = 0,
      hi = n;
    while (hi - lo > 1) {
      const mid = (lo + hi) >>> 1;
      if (starts[mid] <= at) lo = mid;
      else hi = mid;
    }
    out.push(first + lo);
    if (lo + 1 >= n) return;
    from = starts[lo + 1];
  }
}

/** true when one of the row's folded fields holds the folded term (fields never joined). */
export function fieldsHold(t: EventTable, row: number, folded: string, term: string): boolean {
  if (!term.includes('\u0000')) return folded.includes(term);
  return (
    foldText(t.title(row)).includes(term) ||
    foldText(t.excerpt(row)).includes(term) ||
    foldText(t.description(row)).includes(term)
  );
}
