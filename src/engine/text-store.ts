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

import { type Bytes, TextView } from './text-view.ts';

const NARROW = /^[\x00-\xff]*$/;
const MAX_BYTES = 2 ** 32 - 1;

function alloc(size: number): Bytes {
  return Buffer.allocUnsafeSlow(size) as Bytes;
}

/** Bytes of the varint of v (v >= 0). */
function varintSize(v: number): number {
  let n = 1;
  while (v >= 128) {
    v = Math.floor(v / 128);
    n++;
  }
  return n;
}

/** Header and body size of one text field (`narrow`: every unit below 256). */
function fieldSize(s: string, narrow: boolean): number {
  return varintSize(2 * s.length + 2) + (narrow ? s.length : 2 * s.length);
}

export class TextStore extends TextView {
  /** bytes in use (records are at [0, used)) and of them no longer any row's */
  used = 5;
  dead = 0;
  /** title → its index in the dictionary; made on the first write after a load (undefined until then) */
  private titleIds: Map<string, number> | undefined = new Map<string, number>([['', 0]]);

  constructor() {
    super(alloc(1024), new Uint32Array(16), ['']);
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
    return this.bytes.length + this.starts.byteLength + titles + 40 * this.titleList.length;
  }

  /** Distinct titles in the dictionary. */
  get titleCount(): number {
    return this.titleList.length;
  }

  /** A view of rows [0, n) as they are now, unchanged by later writes. */
  freeze(n: number): TextView {
    return new TextView(this.bytes, this.starts.slice(0, n), this.titleList);
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
   * after the other, `ends` the end of each. The bytes are decoded into the buffer where they go;
   * each record is checked to be whole and to name a title of the dictionary.
   */
  appendRecords(from: number, n: number, bytes: unknown, ends: Uint32Array): void {
    if (typeof bytes !== 'string')
      throw new Error(`snapshot load: expected base64 text of records, got ${typeof bytes}`);
    const size = Buffer.byteLength(bytes, 'base64');
    if (ends.length !== n || (n > 0 ? ends[n - 1] : 0) !== size)
      throw new Error(
        `snapshot load: expected ${n} record ends up to ${size} bytes, got ${ends.length} ending at ${ends[n - 1]}`,
      );
    this.reserve(from + n);
    if (this.used + size > this.bytes.length) this.grow(this.used + size);
    const base = this.used;
    const wrote = this.bytes.write(bytes, base, size, 'base64');
    if (wrote !== size) throw new Error(`snapshot load: expected ${size} bytes of records, decoded ${wrote}`);
    const titles = this.titleList.length,
      starts = this.starts;
    let p = base;
    for (let i = 0; i < n; i++) {
      const end = base + ends[i];
      if (end < p || end > base + size) throw new Error(`snapshot load: expected record ${i} to end after ${p - base}`);
      if (this.checkedEnd(p, end, titles) !== end)
        throw new Error(`snapshot load: record ${i} of ${n} is damaged (its title or its length)`);
      const old = starts[from + i];
      if (old !== 0) this.dead += this.recordSize(old);
      starts[from + i] = p;
      p = end;
    }
    this.used = base + size;
  }

  /** The end of the record at p, read no further than `limit`; -1 when it would pass it or its
   *  title is not below `titles`. */
  private checkedEnd(p: number, limit: number, titles: number): number {
    const b = this.bytes;
    for (let f = 0; f < 5; f++) {
      let v = 0,
        mul = 1,
        c = 128;
      while (c >= 128) {
        if (p >= limit || mul > 2 ** 35) return -1;
        c = b[p++];
        v += (c & 127) * mul;
        mul *= 128;
      }
      if (f === 0) {
        if (v >= titles) return -1;
        continue;
      }
      if (f === 4 && v > 0) v--;
      p += v % 2 === 1 ? v - 1 : v / 2;
      if (p > limit) return -1;
    }
    return p;
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
    const size =
      varintSize(tid) +
      fieldSize(description, dn) +
      fieldSize(excerpt, en) +
      fieldSize(slug, sn) +
      (website === null ? 1 : fieldSize(website, wn) + 1);
    if (this.used + size > this.bytes.length) this.grow(this.used + size);
    let p = this.writeVarint(this.used, tid);
    p = this.writeText(p, description, dn, 0);
    p = this.writeText(p, excerpt, en, 0);
    p = this.writeText(p, slug, sn, 0);
    p = website === null ? this.writeVarint(p, 0) : this.writeText(p, website, wn, 1);
    if (row >= this.starts.length) this.reserve(Math.max(row + 1, this.starts.length * 2));
    const old = this.starts[row];
    if (old !== 0) this.dead += this.recordSize(old);
    this.starts[row] = this.used;
    this.used = p;
    if (this.dead > 1 << 20 && this.dead * 4 > this.used) this.compact();
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

  private writeVarint(p: number, v: number): number {
    const b = this.bytes;
    while (v >= 128) {
      b[p++] = (v % 128) | 128;
      v = Math.floor(v / 128);
    }
    b[p++] = v;
    return p;
  }

  /** Header (length * 2 + wide + bias) and units of s at p; returns the position after. */
  private writeText(p: number, s: string, narrow: boolean, bias: number): number {
    const n = s.length;
    if (narrow) {
      p = this.writeVarint(p, 2 * n + bias);
      if (n > 0) this.bytes.latin1Write(s, p, n);
      return p + n;
    }
    p = this.writeVarint(p, 2 * n + 1 + bias);
    this.bytes.ucs2Write(s, p, 2 * n);
    return p + 2 * n;
  }

  /** Doubles up to 16 MiB, then a quarter more each time: at most a fifth of the buffer is room. */
  private grow(need: number, exact = false): void {
    if (need > MAX_BYTES)
      throw new Error(`event texts: expected at most ${MAX_BYTES} bytes of texts in one calendar, need ${need}`);
    const cap = exact
      ? need
      : Math.min(
          MAX_BYTES,
          Math.max(need, this.bytes.length < 1 << 24 ? this.bytes.length * 2 : Math.ceil(this.bytes.length * 1.25)),
        );
    const next = alloc(cap);
    this.bytes.copy(next, 0, 0, this.used);
    this.bytes = next;
  }

  /** Copy the live records, in row order, into a new buffer (views keep the old one). */
  private compact(): void {
    const live = this.used - this.dead;
    const old = this.bytes,
      starts = this.starts;
    const next = alloc(Math.min(MAX_BYTES, Math.max(1024, live + (live >> 3))));
    next.fill(0, 0, 5);
    let p = 5;
    for (let r = 0; r < starts.length; r++) {
      const s = starts[r];
      if (s === 0) continue;
      const size = this.recordSize(s);
      old.copy(next, p, s, s + size);
      starts[r] = p;
      p += size;
    }
    this.bytes = next;
    this.used = p;
    this.dead = 0;
  }
}
