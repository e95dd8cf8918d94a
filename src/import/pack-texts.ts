// A parallel import's worker coding the description, excerpt and website of the events it packs
// (pack.ts) with the importing text store's symbol table, as that store's records hold them
// (text-recode.ts writeField): the importing thread copies them (TextStore.setCoded) rather than
// coding them itself. Slugs are not coded here: the importing thread may change them.
import { writeField } from '../engine/text-recode.ts';
import type { SymbolTable } from '../engine/text-symbols.ts';
import type { Bytes } from '../engine/text-view.ts';

/** Int32 slots of a packed event in a block coded with a table (PackedEvents.coded): where the
 *  event's description and excerpt begin there, its website, and the end of those (-1: not coded,
 *  its texts are in strs) */
export const P_TEXT_AT = 21,
  P_TEXT_WEB = 22,
  P_TEXT_END = 23;

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
  code(ints: Int32Array, i: number, description: string, excerpt: string, website: string | null): void {
    const table = this.coder.table;
    const need = 40 + 2 * (description.length + excerpt.length + (website?.length ?? 0));
    let q = this.codedAt;
    if (q + need > this.coded.length) {
      const next = Buffer.allocUnsafeSlow(Math.max(q + need, 2 * this.coded.length)) as Bytes;
      this.coded.copy(next, 0, 0, q);
      this.coded = next;
    }
    const longest = Math.max(description.length, excerpt.length, website?.length ?? 0);
    if (longest > this.input.length)
      this.input = Buffer.allocUnsafeSlow(Math.max(longest, 2 * this.input.length)) as Bytes;
    ints[i + P_TEXT_AT] = q;
    q = writeField(description, 0, table, this.input, this.coded, q);
    q = writeField(excerpt, 1, table, this.input, this.coded, q);
    ints[i + P_TEXT_WEB] = q;
    q = writeField(website, 3, table, this.input, this.coded, q);
    ints[i + P_TEXT_END] = q;
    this.codedAt = q;
  }
}
