// The vocabulary of the search index and the scanning of texts into its words: every distinct
// word gets a dense id from an open-addressing hash table hashed from the char codes (building
// does not cut substrings out of the text); the words containing a term are found with indexOf
// over all words joined into one string. The index (search-index.ts) extends this with what it
// does with each word of a row.

import { foldText } from './event-table.ts';
import { hashSlots, withHash } from './hash-slots.ts';
import type { TextView } from './text-view.ts';
import {
  FNV_OFFSET,
  FNV_PRIME,
  NON_ASCII,
  WORD,
  findIn,
  foldUnit,
  joinWords,
  unitsToString,
  type Joined,
} from './search-words.ts';

export abstract class WordScanner {
  // ---- vocabulary
  protected words: string[] = [];
  protected hashes = new Int32Array(1024);
  protected slots = new Int32Array(2048);
  protected mask = 2047;
  /** words[0 .. joinedCount) joined, each preceded by JOIN (made on the first search after a build) */
  protected joined: Joined = { text: '', starts: new Int32Array(0) };
  protected joinedCount = 0;
  /** words[joinedCount .. tailCount) joined the same way (words first seen in writes) */
  protected tail: Joined = { text: '', starts: new Int32Array(0) };
  protected tailCount = 0;
  /** the current word's units */
  protected buf: Uint16Array = new Uint16Array(64);

  /** A word of the text being scanned (its id). */
  protected abstract emit(id: number): void;

  /** A word got id `id` (the next one). */
  protected abstract newWord(id: number): void;

  /** An empty vocabulary. */
  protected resetWords(): void {
    this.words = [];
    this.hashes = new Int32Array(1024);
    this.slots = new Int32Array(2048);
    this.mask = 2047;
    this.joined = { text: '', starts: new Int32Array(0) };
    this.joinedCount = 0;
    this.tail = { text: '', starts: new Int32Array(0) };
    this.tailCount = 0;
  }

  /**
   * The vocabulary `words` (ids 0, 1, ... in order), read back from a snapshot: the hash table is
   * made from them. Undefined when they are a vocabulary scanning could have made (every word
   * non-empty, of folded word units only, none twice), else what is wrong.
   */
  protected loadWords(words: string[]): string | undefined {
    this.resetWords();
    let size = 2048;
    while (size < 2 * (words.length + 1)) size *= 2;
    const hashes = new Int32Array(Math.max(1024, words.length)),
      slots = new Int32Array(size),
      mask = size - 1;
    for (let id = 0; id < words.length; id++) {
      const w = words[id];
      if (w.length === 0) return `an empty word at ${id}`;
      let h = FNV_OFFSET;
      for (let k = 0; k < w.length; k++) {
        const c = w.charCodeAt(k);
        if (c < 128 && WORD[c] !== c) return `a word with a unit that is not a folded word unit at ${id}`;
        h = Math.imul(h ^ c, FNV_PRIME);
      }
      let slot = h & mask;
      for (let v = slots[slot]; v !== 0; v = slots[slot]) {
        if (hashes[v - 1] === h && words[v - 1] === w) return `the word ${JSON.stringify(w)} twice`;
        slot = (slot + 1) & mask;
      }
      hashes[id] = h;
      slots[slot] = id + 1;
    }
    this.words = words;
    this.hashes = hashes;
    this.slots = slots;
    this.mask = mask;
    return undefined;
  }

  /** The vocabulary as another scanner made it (a build on a worker thread): its words and hash
   *  table, taken as they are. */
  protected adoptWords(words: string[], hashes: Int32Array<ArrayBuffer>, slots: Int32Array<ArrayBuffer>): void {
    this.resetWords();
    this.words = words;
    this.hashes = hashes;
    this.slots = slots;
    this.mask = slots.length - 1;
  }

  /** The vocabulary's words and hash table (what adoptWords() takes). */
  protected vocabulary(): { words: string[]; hashes: Int32Array; slots: Int32Array } {
    return { words: this.words, hashes: this.hashes, slots: this.slots };
  }

  /** Bytes held by the vocabulary (hash table, word strings, joined texts). */
  protected vocabularyBytes(): number {
    let words = 0;
    for (const w of this.words) words += 16 + w.length * (NON_ASCII.test(w) ? 2 : 1);
    return (
      this.hashes.byteLength +
      this.slots.byteLength +
      words +
      this.joined.text.length +
      this.joined.starts.byteLength +
      this.tail.text.length +
      this.tail.starts.byteLength
    );
  }

  /** Every word of one field, folded as foldText folds it, to emit(). */
  protected scanField(raw: string): void {
    if (!this.scanFolding(raw)) this.scanUnits(foldText(raw)); // a unit that folds by context: fold the whole field
  }

  /** Words of an ASCII or already folded string (A-Z lower-cased). */
  private scanUnits(s: string): void {
    const n = s.length;
    let buf = this.buf,
      len = 0,
      h = FNV_OFFSET;
    for (let k = 0; k <= n; k++) {
      const c = k < n ? s.charCodeAt(k) : 0;
      const w = c >= 128 ? c : WORD[c];
      if (w !== 0) {
        if (len === buf.length) buf = this.growBuf();
        buf[len++] = w;
        h = Math.imul(h ^ w, FNV_PRIME);
      } else if (len > 0) {
        this.emit(this.wordId(len, h));
        len = 0;
        h = FNV_OFFSET;
      }
    }
  }

  /**
   * Words of a string with non-ASCII units, each unit folded on its own (foldUnit); false when
   * a unit whose folding depends on its neighbours is met (words emitted so far stay: the
   * caller then scans the whole folded field, and repeated words are dropped).
   */
  private scanFolding(s: string): boolean {
    const n = s.length;
    let buf = this.buf,
      len = 0,
      h = FNV_OFFSET;
    for (let k = 0; k <= n; k++) {
      const c = k < n ? s.charCodeAt(k) : 0;
      if (c < 128) {
        const w = WORD[c];
        if (w !== 0) {
          if (len === buf.length) buf = this.growBuf();
          buf[len++] = w;
          h = Math.imul(h ^ w, FNV_PRIME);
        } else if (len > 0) {
          this.emit(this.wordId(len, h));
          len = 0;
          h = FNV_OFFSET;
        }
        continue;
      }
      const f = foldUnit(c);
      if (f === null) return false;
      for (let i = 0; i < f.length; i++) {
        const u = f.charCodeAt(i);
        const w = u >= 128 ? u : WORD[u];
        if (w !== 0) {
          if (len === buf.length) buf = this.growBuf();
          buf[len++] = w;
          h = Math.imul(h ^ w, FNV_PRIME);
        } else if (len > 0) {
          this.emit(this.wordId(len, h));
          len = 0;
          h = FNV_OFFSET;
        }
      }
    }
    return true;
  }

  /**
   * scanField of a Latin-1 text held as bytes b[from, to) (the event texts' store): the same
   * words, without making the string. A unit that folds by context makes it scan the string.
   */
  protected scanLatin1(b: Uint8Array, from: number, to: number): void {
    let buf = this.buf,
      len = 0,
      h = FNV_OFFSET;
    for (let k = from; k <= to; k++) {
      const c = k < to ? b[k] : 0;
      if (c < 128) {
        const w = WORD[c];
        if (w !== 0) {
          if (len === buf.length) buf = this.growBuf();
          buf[len++] = w;
          h = Math.imul(h ^ w, FNV_PRIME);
        } else if (len > 0) {
          this.emit(this.wordId(len, h));
          len = 0;
          h = FNV_OFFSET;
        }
        continue;
      }
      const f = foldUnit(c);
      if (f === null) {
        this.scanUnits(foldText(Buffer.from(b.buffer, b.byteOffset + from, to - from).toString('latin1')));
        return;
      }
      for (let i = 0; i < f.length; i++) {
        const u = f.charCodeAt(i);
        const w = u >= 128 ? u : WORD[u];
        if (w !== 0) {
          if (len === buf.length) buf = this.growBuf();
          buf[len++] = w;
          h = Math.imul(h ^ w, FNV_PRIME);
        } else if (len > 0) {
          this.emit(this.wordId(len, h));
          len = 0;
          h = FNV_OFFSET;
        }
      }
    }
  }

  /** Every word of a row's title, excerpt and description, to emit(). */
  protected scanRow(texts: TextView, row: number): void {
    this.scanField(texts.title(row));
    this.scanStored(texts, texts.excerptAt(row), row, 1);
    this.scanStored(texts, texts.descriptionAt(row), row, 0);
  }

  private scanStored(texts: TextView, at: number, row: number, field: number): void {
    if (at >= 0) this.scanLatin1(texts.found, at, texts.end);
    else this.scanField(field === 0 ? texts.description(row) : texts.excerpt(row));
  }

  private growBuf(): Uint16Array {
    const next = new Uint16Array(this.buf.length * 2);
    next.set(this.buf);
    return (this.buf = next);
  }

  /** Id of the word buf[0, len) with hash h, created when new. */
  private wordId(len: number, h: number): number {
    const words = this.words,
      hashes = this.hashes,
      slots = this.slots,
      mask = this.mask,
      buf = this.buf;
    let slot = h & mask;
    for (;;) {
      const v = slots[slot];
      if (v === 0) break;
      const id = v - 1;
      if (hashes[id] === h) {
        const w = words[id];
        if (w.length === len) {
          let k = 0;
          while (k < len && buf[k] === w.charCodeAt(k)) k++;
          if (k === len) return id;
        }
      }
      slot = (slot + 1) & mask;
    }
    const id = words.length;
    words.push(unitsToString(buf, len));
    this.hashes = withHash(hashes, id, h);
    this.newWord(id);
    slots[slot] = id + 1;
    if ((id + 1) * 2 > slots.length) this.growSlots();
    return id;
  }

  private growSlots(): void {
    this.slots = hashSlots(this.hashes, this.words.length, this.slots.length * 2);
    this.mask = this.slots.length - 1;
  }

  /** Ids of the vocabulary words that contain `piece` (a string without separator units). */
  wordsContaining(piece: string): number[] {
    const n = this.words.length;
    if (this.joinedCount === 0 && n > 0) {
      this.joined = joinWords(this.words, 0, n);
      this.joinedCount = n;
    }
    const out: number[] = [];
    findIn(this.joined, piece, 0, out);
    if (this.joinedCount < n) {
      // words added by writes since the joined text was made
      if (this.tailCount !== n) {
        this.tail = joinWords(this.words, this.joinedCount, n);
        this.tailCount = n;
      }
      findIn(this.tail, piece, this.joinedCount, out);
    }
    return out;
  }
}
