// The texts of the event rows (title, description, excerpt, slug, website) outside V8's heap:
// one record per row in one growing byte buffer, found by the row's offset (4 bytes a row),
// instead of five strings and five pointers a row. The record's layout and its reading are
// text-view.ts's; this file writes records, keeps the title dictionary and loads snapshot chunks.
//
// Records are only ever appended: a row written again gets a new record, the old one becomes
// dead bytes, and the buffer is compacted (live records copied in row order into a new buffer)
// once dead bytes pass a quarter of it. So a view taken with freeze() (the buffer, a copy of the
// offsets, the dictionary) reads the rows as they were while writes go on: nothing it points at
// is ever overwritten. Offset 0 holds an empty record, which every unwritten row points at.
//
// Once the records pass CODE_AFTER bytes, a symbol table is learnt from a sample of them
// (text-symbols.ts) and every record is re-coded with it into a new buffer (as a compaction); from
// then on writes code their one-byte texts with it. A compaction learns a new table (and re-codes)
// when the live records have grown to RELEARN_AFTER times what they were when the table was learnt.

import {
  checkedEnd,
  fieldSize,
  learnFrom,
  NARROW,
  recodeFields,
  recodeRecord,
  recordEnd,
  tableOf,
  varintSize,
  writeVarint,
  MAX_BYTES,
  recordBytes,
  regrown,
  grownTo,
} from './text-recode.ts';
import type { SymbolTable } from './text-symbols.ts';
import { type Bytes, TextView } from './text-view.ts';

/** bytes of records past which the one-byte texts are coded */
export const CODE_AFTER = 1 << 20;
const RELEARN_AFTER = 4;

export class TextStore extends TextView {
  /** bytes in use (records are at [0, used)) and of them no longer any row's */
  used = 5;
  dead = 0;
  /** title → its index in the dictionary; made on the first write after a load (undefined until then) */
  private titleIds: Map<string, number> | undefined = new Map<string, number>([['', 0]]);
  /** live bytes when the table was learnt */
  private learntAt = 0;
  /** a text's latin1 bytes, and the codes of the record's texts being written */
  private input = Buffer.allocUnsafeSlow(1024) as Bytes;
  private codes = Buffer.allocUnsafeSlow(4096) as Bytes;
  private codeAt = 0;
  private readonly codeStart = new Int32Array(4);

  constructor() {
    super(recordBytes(1024), new Uint32Array(16), ['']);
    this.bytes.fill(0, 0, 5); // the empty record at 0: title '', three empty texts, website null
  }

  /** Room for `rows` rows. */
  reserve(rows: number): void {
    if (rows <= this.starts.length) return;
    const next = new Uint32Array(rows);
    next.set(this.starts);
    this.starts = next;
  }

  /** Room for `bytes` more bytes of records and an eighth more for the writes after them (a load
   *  that knows their size: one buffer, no copies as it grows; the room is not touched until used). */
  reserveBytes(bytes: number): void {
    const need = this.used + bytes;
    if (need > this.bytes.length) this.grow(Math.min(MAX_BYTES, need + Math.floor(need / 8)), true);
  }

  /** Bytes of the live records (a hint of the room a copy of them takes). */
  get liveBytes(): number {
    return this.used - this.dead;
  }

  /** Bytes held: the buffer, the offsets, the dictionary's strings (16 bytes of header each). */
  byteSize(): number {
    let titles = 0;
    for (const s of this.titleList) titles += 16 + (NARROW.test(s) ? s.length : 2 * s.length);
    return (
      this.bytes.length +
      this.starts.byteLength +
      titles +
      40 * this.titleList.length +
      this.scratch.length +
      this.input.length +
      this.codes.length
    );
  }

  /** A view of rows [0, n) as they are now, unchanged by later writes. */
  freeze(n: number): TextView {
    return new TextView(this.bytes, this.starts.slice(0, n), this.titleList, this.symbols);
  }

  /** The index of title s in the dictionary (added when new). */
  titleId(s: string): number {
    let ids = this.titleIds;
    if (ids === undefined) {
      ids = new Map<string, number>();
      const list = this.titleList;
      for (let i = list.length - 1; i >= 0; i--) ids.set(list[i], i);
      this.titleIds = ids;
    }
    let id = ids.get(s);
    if (id === undefined) {
      id = this.titleList.length;
      this.titleList.push(s);
      ids.set(s, id);
    }
    return id;
  }

  /**
   * Titles that follow the dictionary's (a version 3 snapshot's, in its order): the index of each
   * is that of the snapshot. The title → index map is made by the first write that needs it, not
   * here (a load need not hash millions of titles).
   */
  appendTitles(titles: readonly unknown[], at: number): void {
    const list = this.titleList;
    if (at > list.length) throw new Error(`snapshot load: expected titles from index ${list.length}, got ${at}`);
    for (let i = 0; i < titles.length; i++) {
      const s = titles[i];
      if (typeof s !== 'string')
        throw new Error(`snapshot load: expected title ${at + i} to be a string, got ${JSON.stringify(s)}`);
      // the dictionary's first titles (the empty title of a new store) are there already
      if (at + i < list.length) {
        if (list[at + i] !== s)
          throw new Error(
            `snapshot load: expected title ${at + i} to be ${JSON.stringify(list[at + i])}, got ${JSON.stringify(s)}`,
          );
      } else list.push(s);
    }
    this.titleIds = undefined;
  }

  /**
   * Rows [from, from + n) from a version 3 snapshot chunk: `bytes` (base64) are their records one
   * after the other, `ends` the end of each, `symbols` the table their one-byte texts are coded with
   * (none: they are not). Records coded as this store codes them (or any, into a store without
   * records) are decoded from base64 into the buffer where they go; others are re-coded. Each
   * record is checked to be whole, to name a title of the dictionary and to hold valid codes.
   */
  appendRecords(from: number, n: number, bytes: unknown, ends: Uint32Array, symbols?: unknown): void {
    if (typeof bytes !== 'string')
      throw new Error(`snapshot load: expected base64 text of records, got ${typeof bytes}`);
    const size = Buffer.byteLength(bytes, 'base64');
    if (ends.length !== n || (n > 0 ? ends[n - 1] : 0) !== size)
      throw new Error(
        `snapshot load: expected ${n} record ends up to ${size} bytes, got ${ends.length} ending at ${ends[n - 1]}`,
      );
    const table = symbols === undefined ? null : symbols === this.symbols?.text ? this.symbols : tableOf(symbols);
    if (table !== this.symbols && this.used === 5) this.symbols = table;
    const direct = table === this.symbols;
    this.reserve(from + n);
    let src = this.bytes,
      base = 0;
    if (direct) {
      if (this.used + size > this.bytes.length) this.grow(this.used + size);
      src = this.bytes;
      base = this.used;
    } else src = Buffer.allocUnsafe(size) as Bytes;
    const wrote = src.write(bytes, base, size, 'base64');
    if (wrote !== size) throw new Error(`snapshot load: expected ${size} bytes of records, decoded ${wrote}`);
    const titles = this.titleList.length,
      starts = this.starts;
    let p = base;
    for (let i = 0; i < n; i++) {
      const end = base + ends[i];
      if (end < p || end > base + size) throw new Error(`snapshot load: expected record ${i} to end after ${p - base}`);
      if (checkedEnd(src, p, end, titles, table) !== end)
        throw new Error(`snapshot load: record ${i} of ${n} is damaged (its title, its length or its codes)`);
      const old = starts[from + i];
      if (old !== 0) this.dead += this.recordSize(old);
      if (direct) starts[from + i] = p;
      else {
        let q = recodeRecord(src, p, table, this.symbols, this.bytes, this.used, this.bytes.length);
        if (q < 0) {
          this.grow(this.used + 16 * (end - p) + 64);
          q = recodeRecord(src, p, table, this.symbols, this.bytes, this.used, this.bytes.length);
        }
        starts[from + i] = this.used;
        this.used = q;
      }
      p = end;
    }
    if (direct) this.used = base + size;
  }

  /** Size of the record at p. */
  private recordSize(p: number): number {
    return this.fieldFrom(p, 4) - p;
  }

  /** Store the texts of `row` (a new record; the old one, if any, is dead). `titleId`: the title's
   *  index in the dictionary, when the caller has it (titleId(title)). */
  set(
    row: number,
    title: string,
    description: string,
    excerpt: string,
    slug: string,
    website: string | null,
    titleId = -1,
  ): void {
    const tid = titleId >= 0 ? titleId : this.titleId(title);
    const dn = NARROW.test(description),
      en = NARROW.test(excerpt),
      sn = NARROW.test(slug),
      wn = website === null || NARROW.test(website);
    this.codeAt = 0;
    const d = this.prepare(0, description, dn),
      e = this.prepare(1, excerpt, en),
      s = this.prepare(2, slug, sn),
      w = website === null ? 0 : this.prepare(3, website, wn);
    const size =
      varintSize(tid) +
      fieldSize(d, dn) +
      fieldSize(e, en) +
      fieldSize(s, sn) +
      (website === null ? 1 : fieldSize(w, wn) + 1);
    if (this.used + size > this.bytes.length) this.grow(this.used + size);
    let p = writeVarint(this.bytes, this.used, tid);
    p = this.writeText(p, 0, description, dn, d, 0);
    p = this.writeText(p, 1, excerpt, en, e, 0);
    p = this.writeText(p, 2, slug, sn, s, 0);
    p = website === null ? writeVarint(this.bytes, p, 0) : this.writeText(p, 3, website, wn, w, 1);
    this.placed(row, p);
  }

  /** set() with description and excerpt at src[at, slugAt), a slug at src[slugAt, web), website at
   *  src[web, end) as a record holds them, coded with `from` (writeField): copied when `from` is this
   *  store's table, else re-coded; `slug` in place of that one unless null. set()'s record. */
  setCoded(
    row: number,
    titleId: number,
    slug: string | null,
    src: Uint8Array,
    at: number,
    slugAt: number,
    web: number,
    end: number,
    from: SymbolTable | null,
  ): void {
    const same = from === this.symbols;
    const sn = slug === null || NARROW.test(slug);
    this.codeAt = 0;
    const s = slug === null ? 0 : this.prepare(2, slug, sn);
    // re-coded, a code becomes up to 8 bytes and each of them up to 2 codes
    const size = varintSize(titleId) + fieldSize(s, sn) + (same ? end - at : 16 * (end - at) + 40);
    if (this.used + size > this.bytes.length) this.grow(this.used + size);
    const b = this.bytes;
    let p = writeVarint(b, this.used, titleId);
    if (slug === null) {
      // the four texts as they are (the slug as wanted): one copy
      if (same) b.set(src.subarray(at, end), p);
      p = same ? p + end - at : recodeFields(src, at, 0, 4, from, this.symbols, b, p, b.length);
    } else if (same) {
      b.set(src.subarray(at, slugAt), p);
      p = this.writeText(p + slugAt - at, 2, slug, sn, s, 0);
      b.set(src.subarray(web, end), p);
      p += end - web;
    } else {
      p = recodeFields(src, at, 0, 2, from, this.symbols, b, p, b.length);
      p = this.writeText(p, 2, slug, sn, s, 0);
      p = recodeFields(src, web, 3, 4, from, this.symbols, b, p, b.length);
    }
    this.placed(row, p);
  }

  /** The record just written at [used, end) becomes row's. */
  private placed(row: number, end: number): void {
    if (row >= this.starts.length) this.reserve(Math.max(row + 1, this.starts.length * 2));
    const old = this.starts[row];
    if (old !== 0) this.dead += this.recordSize(old);
    this.starts[row] = this.used;
    this.used = end;
    if (
      (this.dead > 1 << 20 && this.dead * 4 > this.used) ||
      (this.symbols === null && this.used >= CODE_AFTER && this.used >= 2 * this.learntAt)
    )
      this.compact();
  }

  /** Codes the one-byte texts once the records are large enough (after a load: a snapshot without
   *  a table, or of an older version). */
  settle(): void {
    if (this.symbols === null && this.used >= CODE_AFTER && this.used >= 2 * this.learntAt) this.compact();
    else if (this.learntAt === 0) this.learntAt = this.liveBytes;
  }

  /** The header length of field i (units, or codes when coded: then in this.codes). */
  private prepare(i: number, s: string, narrow: boolean): number {
    const n = s.length;
    const sym = this.symbols;
    if (!narrow || sym === null || n === 0) return n;
    if (n > this.input.length) this.input = Buffer.allocUnsafeSlow(Math.max(n, 2 * this.input.length)) as Bytes;
    if (this.codeAt + 2 * n > this.codes.length) {
      const next = Buffer.allocUnsafeSlow(Math.max(this.codeAt + 2 * n, 2 * this.codes.length)) as Bytes;
      this.codes.copy(next, 0, 0, this.codeAt);
      this.codes = next;
    }
    this.input.latin1Write(s, 0, n);
    const start = this.codeAt;
    this.codeStart[i] = start;
    this.codeAt = sym.encode(this.input, 0, n, this.codes, start);
    return this.codeAt - start;
  }

  /** Store `row`'s slug, its other texts unchanged. */
  setSlug(row: number, slug: string): void {
    this.set(row, this.title(row), this.description(row), this.excerpt(row), slug, this.website(row));
  }

  /** Rows [from, from + n) from columns of values (a snapshot's chunk). */
  setRows(
    from: number,
    n: number,
    titles: readonly string[],
    descriptions: readonly string[],
    excerpts: readonly string[],
    slugs: readonly string[],
    websites: readonly (string | null)[],
  ): void {
    this.reserve(from + n);
    for (let i = 0; i < n; i++) this.set(from + i, titles[i], descriptions[i], excerpts[i], slugs[i], websites[i]);
  }

  /** Header (n * 2 + wide + bias) and units (or codes) of field i, s, at p; returns the position after. */
  private writeText(p: number, i: number, s: string, narrow: boolean, n: number, bias: number): number {
    if (narrow) {
      p = writeVarint(this.bytes, p, 2 * n + bias);
      if (n === 0) return p;
      if (this.symbols === null) this.bytes.latin1Write(s, p, n);
      else {
        const c = this.codes,
          a = this.codeStart[i];
        if (n < 32) for (let k = 0; k < n; k++) this.bytes[p + k] = c[a + k];
        else c.copy(this.bytes, p, a, a + n);
      }
      return p + n;
    }
    p = writeVarint(this.bytes, p, 2 * n + 1 + bias);
    this.bytes.ucs2Write(s, p, 2 * n);
    return p + 2 * n;
  }

  /** Room for `need` bytes (text-recode.ts grownTo). */
  private grow(need: number, exact = false): void {
    this.bytes = grownTo(this.bytes, this.used, need, exact);
  }

  /**
   * Copy the live records, in row order, into a new buffer (views keep the old one and its table).
   * Learns a table first when there is none or the records have outgrown it, and re-codes them.
   */
  private compact(): void {
    const live = this.used - this.dead;
    const old = this.bytes,
      starts = this.starts,
      from = this.symbols;
    let to = from;
    if (from === null || live >= RELEARN_AFTER * this.learntAt) {
      to = learnFrom(old, starts, live, from) ?? from;
      this.learntAt = live;
    }
    let next = recordBytes(Math.min(MAX_BYTES, Math.max(1024, live + (live >> 3))));
    next.fill(0, 0, 5);
    let p = 5;
    for (let r = 0; r < starts.length; r++) {
      const s = starts[r];
      if (s === 0) continue;
      if (to === from) {
        const size = this.recordSize(s);
        if (p + size > next.length) next = regrown(next, p, p + size);
        old.copy(next, p, s, s + size);
        starts[r] = p;
        p += size;
        continue;
      }
      let q = recodeRecord(old, s, from, to, next, p, next.length);
      if (q < 0) {
        next = regrown(next, p, p + 16 * (recordEnd(old, s) - s) + 64);
        q = recodeRecord(old, s, from, to, next, p, next.length);
      }
      starts[r] = p;
      p = q;
    }
    this.bytes = next;
    this.symbols = to;
    this.used = p;
    this.dead = 0;
  }
}
