// A parallel import's worker packing the texts of the events it reads (pack.ts) so that the
// importing thread copies bytes rather than coding strings:
// - the description, excerpt, slug as wanted and website, coded with the importing text store's
//   symbol table as that store's records hold them (text-recode.ts writeField): the importing
//   thread copies them (TextStore.setCoded), all four at once when the slug stays as wanted;
// - the title and the slug as wanted, as bytes (PackedEvents.titles, .slugs): the importing
//   thread finds a title's index in the title dictionary (titles.ts) and makes a slug unique
//   (slugs.ts SlugSet.addBytes) by comparing bytes, and makes a string of one only when it is new
//   (a title) or taken (a slug).
import { writeField } from '../engine/text-recode.ts';
import type { SymbolTable } from '../engine/text-symbols.ts';
import type { Bytes } from '../engine/text-view.ts';

/** Int32 slots of a packed event in a block coded with a table (PackedEvents.coded): where the
 *  event's description and excerpt begin there, its website, and the end of those (-1: not coded,
 *  its texts are in strs), and where its slug begins (it ends where the website begins) */
export const P_TEXT_AT = 21,
  P_TEXT_WEB = 22,
  P_TEXT_END = 23,
  P_TEXT_SLUG = 24;
/** Int32 slots: where the event's title begins and ends in PackedEvents.titles, and its slug as
 *  wanted in PackedEvents.slugs (an event handed back has none: empty) */
export const P_TITLE_AT = 25,
  P_TITLE_END = 26,
  P_SLUG_AT = 27,
  P_SLUG_END = 28;

/** The table a worker codes the events' texts with, and its number (TextCoder.tag). */
export interface TextCoder {
  table: SymbolTable;
  tag: number;
}

/** The coded texts of one block. */
export class TextPacker {
  /** the coded texts (PackedEvents.coded) and their end; a text's bytes, for coding */
  coded = Buffer.allocUnsafeSlow(256 * 1024) as Bytes;
  codedAt = 0;
  private input = Buffer.allocUnsafeSlow(1024) as Bytes;

  constructor(private readonly coder: TextCoder) {}

  /** The texts of event slot k (at i32[i]) coded into this.coded. */
  code(ints: Int32Array, i: number, description: string, excerpt: string, slug: string, website: string | null): void {
    const table = this.coder.table;
    const need = 50 + 2 * (description.length + excerpt.length + slug.length + (website?.length ?? 0));
    let q = this.codedAt;
    if (q + need > this.coded.length) {
      const next = Buffer.allocUnsafeSlow(Math.max(q + need, 2 * this.coded.length)) as Bytes;
      this.coded.copy(next, 0, 0, q);
      this.coded = next;
    }
    const longest = Math.max(description.length, excerpt.length, slug.length, website?.length ?? 0);
    if (longest > this.input.length)
      this.input = Buffer.allocUnsafeSlow(Math.max(longest, 2 * this.input.length)) as Bytes;
    ints[i + P_TEXT_AT] = q;
    q = writeField(description, 0, table, this.input, this.coded, q);
    q = writeField(excerpt, 1, table, this.input, this.coded, q);
    ints[i + P_TEXT_SLUG] = q;
    q = writeField(slug, 2, table, this.input, this.coded, q);
    ints[i + P_TEXT_WEB] = q;
    q = writeField(website, 3, table, this.input, this.coded, q);
    ints[i + P_TEXT_END] = q;
    this.codedAt = q;
  }
}

/** texts of characters below U+0100 only (bytes: Latin-1, one a character) */
const LATIN1 = /^[\x00-\xff]*$/;
/** texts of ASCII characters only (their Latin-1 bytes are their UTF-8) */
const ASCII = /^[\x00-\x7f]*$/;

/** Strings as bytes, one after the other: Latin-1 when every character allows (`narrow`), else UTF-16. */
export interface KeyBytes {
  bytes: Uint8Array;
  narrow: boolean;
}

/** The titles and slugs of one block, written as bytes once the block is read (one native call each). */
export class KeyPacker {
  private readonly titles: string[] = [];
  private readonly slugs: string[] = [];
  /** the event slot of each title and slug */
  private readonly slots: number[] = [];

  add(k: number, title: string, slug: string): void {
    this.titles.push(title);
    this.slugs.push(slug);
    this.slots.push(k);
  }

  /**
   * The titles and slugs as bytes (slugs narrow only when ASCII: a slug set holds UTF-8), and where
   * each event's are (P_TITLE_*, P_SLUG_*) in i32 for the n events of the block.
   */
  finish(i32: Int32Array, stride: number, n: number): { titles: KeyBytes; slugs: KeyBytes } {
    const titles = bytesOf(this.titles, LATIN1),
      slugs = bytesOf(this.slugs, ASCII);
    const tw = titles.narrow ? 1 : 2,
      sw = slugs.narrow ? 1 : 2;
    let t = 0,
      s = 0,
      j = 0;
    for (let k = 0; k < n; k++) {
      const i = k * stride;
      i32[i + P_TITLE_AT] = t;
      i32[i + P_SLUG_AT] = s;
      if (j < this.slots.length && this.slots[j] === k) {
        t += tw * this.titles[j].length;
        s += sw * this.slugs[j].length;
        j++;
      }
      i32[i + P_TITLE_END] = t;
      i32[i + P_SLUG_END] = s;
    }
    return { titles, slugs };
  }
}

function bytesOf(list: string[], narrow: RegExp): KeyBytes {
  const joined = list.join('');
  const isNarrow = narrow.test(joined);
  // memory of its own (not the shared pool of small Buffers): it is transferred to the importing thread
  const bytes = Buffer.allocUnsafeSlow(isNarrow ? joined.length : 2 * joined.length);
  bytes.write(joined, 0, isNarrow ? 'latin1' : 'utf16le');
  return { bytes: new Uint8Array(bytes.buffer, 0, bytes.length), narrow: isNarrow };
}
