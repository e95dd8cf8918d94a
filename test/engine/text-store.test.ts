// TextStore (src/engine/text-store.ts): the event rows' texts in one byte buffer. Every text
// reads back as the exact string stored (ASCII, Latin-1, wide units, lone surrogates, empty,
// a null website), through rewrites that leave dead records and compactions; a frozen view
// keeps answering with the texts of when it was taken.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CODE_AFTER, TextStore } from '../../src/engine/text-store.ts';
import type { Bytes, TextView } from '../../src/engine/text-view.ts';
import { writeField } from '../../src/engine/text-recode.ts';
import { Rng, mulberry32 } from './random-calendar.ts';

const store = suite('text store');

type Row = [string, string, string, string, string | null];

function text(rng: Rng, max: number): string {
  let s = '';
  const n = rng.int(0, max);
  const kind = rng.int(0, 3); // 0 ASCII, 1 Latin-1, 2 and 3 wide
  for (let i = 0; i < n; i++) {
    const k = rng.int(0, 19);
    if (kind === 0 || k < 14) s += String.fromCharCode(rng.int(32, 126));
    else if (kind === 1 || k < 16) s += String.fromCharCode(rng.int(128, 255));
    else if (k < 18)
      s += String.fromCharCode(rng.int(0xd800, 0xdfff)); // lone surrogates too
    else s += String.fromCharCode(rng.int(256, 0xffff));
  }
  return s;
}

function row(rng: Rng, titles: string[]): Row {
  return [
    rng.bool(0.7) ? rng.pick(titles) : text(rng, 12),
    text(rng, 400),
    text(rng, 60),
    text(rng, 30),
    rng.bool(0.3) ? null : text(rng, 40),
  ];
}

function check(view: TextView, rows: Row[]): void {
  for (let r = 0; r < rows.length; r++) {
    const [title, description, excerpt, slug, website] = rows[r];
    assert.is(view.title(r), title, `title of row ${r}`);
    assert.is(view.description(r), description, `description of row ${r}`);
    assert.is(view.excerpt(r), excerpt, `excerpt of row ${r}`);
    assert.is(view.slug(r), slug, `slug of row ${r}`);
    assert.is(view.website(r), website, `website of row ${r}`);
  }
}

store('reads back every text as stored, through rewrites and compactions', () => {
  for (const seed of [1, 2, 3]) {
    const rng = new Rng(mulberry32(seed));
    const titles = Array.from({ length: 20 }, () => text(rng, 12));
    const t = new TextStore();
    const rows: Row[] = [];
    for (let r = 0; r < 3_000; r++) {
      rows.push(row(rng, titles));
      t.set(r, ...rows[r]);
    }
    check(t, rows);
    let compactions = 0;
    for (let i = 0; i < 30_000; i++) {
      const r = rng.int(0, rows.length - 1);
      rows[r] = row(rng, titles);
      const dead = t.dead;
      t.set(r, ...rows[r]);
      if (t.dead < dead) compactions++;
    }
    assert.ok(compactions > 0, 'the rewrites compacted the buffer');
    assert.ok(t.dead * 4 <= t.used, `dead bytes ${t.dead} of ${t.used}`);
    check(t, rows);
  }
});

store('repeated titles are stored once', () => {
  const t = new TextStore();
  for (let r = 0; r < 1_000; r++) t.set(r, `Title ${r % 7}`, 'd', '', `s-${r}`, null);
  assert.is(t.titleCount, 8); // the empty title of unwritten rows, and the seven
  assert.is(t.title(999), 'Title 5');
});

store('unwritten rows read as empty texts and a null website', () => {
  const t = new TextStore();
  t.reserve(10);
  t.set(5, 'a', 'b', 'c', 'd', 'e');
  for (const r of [0, 4, 9]) {
    assert.is(t.title(r), '');
    assert.is(t.description(r), '');
    assert.is(t.slug(r), '');
    assert.is(t.website(r), null);
  }
  assert.is(t.website(5), 'e');
});

store('a frozen view keeps the texts of when it was taken', () => {
  const rng = new Rng(mulberry32(7));
  const titles = ['x', 'y'];
  const t = new TextStore();
  const rows: Row[] = [];
  for (let r = 0; r < 2_000; r++) {
    rows.push(row(rng, titles));
    t.set(r, ...rows[r]);
  }
  const frozen = t.freeze(rows.length);
  const then = rows.map((x) => x.slice() as Row);
  // rewrites enough for compactions, growth, new titles, and a slug changed alone
  for (let i = 0; i < 20_000; i++) {
    const r = rng.int(0, rows.length - 1);
    rows[r] = row(rng, [...titles, `t${i}`]);
    t.set(r, ...rows[r]);
  }
  rows[3][3] = 'changed-slug';
  t.setSlug(3, 'changed-slug');
  check(frozen, then);
  check(t, rows);
});

store('setRows and column: a chunk in, the same values out', () => {
  const rng = new Rng(mulberry32(11));
  const rows = Array.from({ length: 500 }, () => row(rng, ['a', 'b']));
  const t = new TextStore();
  t.setRows(
    100,
    rows.length,
    rows.map((r) => r[0]),
    rows.map((r) => r[1]),
    rows.map((r) => r[2]),
    rows.map((r) => r[3]),
    rows.map((r) => r[4]),
  );
  assert.equal(
    t.column('descriptions', 100, 600),
    rows.map((r) => r[1]),
  );
  assert.equal(
    t.column('websites', 100, 600),
    rows.map((r) => r[4]),
  );
  assert.is(t.title(99), '');
});

const WORDS = ['join', 'us', 'for', 'an', 'evening', 'of', 'jazz', 'naïve', 'crème', 'tickets', 'https://', '.com'];

/** Rows of texts like a calendar's (words), and some of every kind row() makes. */
function wordy(rng: Rng, titles: string[]): Row {
  if (rng.bool(0.2)) return [rng.pick(titles), ...(row(rng, titles).slice(1) as [string, string, string, null])];
  const words = (n: number) => Array.from({ length: rng.int(0, n) }, () => rng.pick(WORDS)).join(' ');
  return [rng.pick(titles), words(60), words(12), words(5).replaceAll(' ', '-'), rng.bool(0.2) ? null : words(4)];
}

const TITLES = ['Jazz night', 'Crème brûlée', 'Ωmega', 'Yoga'];

/** A store whose title dictionary is TITLES in order (so records move between such stores). */
function titled(): TextStore {
  const t = new TextStore();
  for (let r = 0; r < TITLES.length; r++) t.set(r, TITLES[r], '', '', '', null);
  return t;
}

/** A store filled past CODE_AFTER: its one-byte texts are coded. */
function coded(seed: number): { t: TextStore; rows: Row[]; rng: Rng } {
  const rng = new Rng(mulberry32(seed));
  const t = titled();
  const rows: Row[] = TITLES.map((x) => [x, '', '', '', null]);
  while (t.symbolTable === null || rows.length < 6_000) {
    rows.push(wordy(rng, TITLES));
    t.set(rows.length - 1, ...rows[rows.length - 1]);
  }
  return { t, rows, rng };
}

/** Every byte value, as texts that are Latin-1 strings. */
const EVERY = String.fromCharCode(...Array.from({ length: 256 }, (_, i) => i));

store('past CODE_AFTER the one-byte texts are coded: fewer bytes, the same texts', () => {
  const { t, rows, rng } = coded(21);
  const table = t.symbolTable!;
  assert.ok(table.count > 100, `${table.count} symbols`);
  let plain = 0;
  for (const r of rows) for (const x of r.slice(1)) plain += x === null ? 0 : x.length;
  assert.ok(t.liveBytes < 0.8 * plain, `records ${t.liveBytes} bytes for ${plain} units`);
  check(t, rows);
  // later writes: every byte value, empty texts, wide ones, all coded with the same table
  const n = rows.length;
  rows.push(
    [EVERY, EVERY, EVERY.slice(1), EVERY.slice(200), EVERY],
    ['', '', '', '', ''],
    ['Ω', 'Ωmega \ud800', 'x', '🎉', 'é'],
  );
  for (let r = n; r < rows.length; r++) t.set(r, ...rows[r]);
  assert.is(t.symbolTable, table);
  check(t, rows);
  // the search scan reads the decoded bytes of one-byte texts
  const at = t.descriptionAt(n);
  assert.is(Buffer.from(t.found.subarray(at, t.end)).toString('latin1'), EVERY);
  assert.is(t.descriptionAt(n + 2), -1, 'a two-byte description');
  const ex = t.excerptAt(3);
  assert.is(Buffer.from(t.found.subarray(ex, t.end)).toString('latin1'), rows[3][2]);
  // rewrites: compactions keep the table until the records outgrow it
  for (let i = 0; i < 20_000; i++) {
    const r = rng.int(0, rows.length - 1);
    rows[r] = wordy(rng, TITLES);
    t.set(r, ...rows[r]);
  }
  check(t, rows);
});

store('a frozen view keeps its records and table through a new table', () => {
  const { t, rows, rng } = coded(22);
  const frozen = t.freeze(rows.length);
  const then = rows.map((x) => x.slice() as Row);
  const first = t.symbolTable;
  // grow the records four times over, then rewrite until a compaction learns a new table
  for (let r = rows.length; t.liveBytes < 5 * CODE_AFTER; r++) {
    rows.push(wordy(rng, TITLES));
    t.set(r, ...rows[r]);
  }
  while (t.symbolTable === first) {
    const r = rng.int(0, rows.length - 1);
    rows[r] = wordy(rng, TITLES);
    t.set(r, ...rows[r]);
  }
  check(t, rows);
  check(frozen, then);
  assert.is(frozen.symbolTable, first);
});

store('records move between stores coded alike, differently or not at all', () => {
  const a = coded(23),
    b = coded(24);
  const plain = titled();
  const small: Row[] = TITLES.map((x) => [x, '', '', '', null]);
  for (let r = small.length; r < 300; r++) {
    small.push(wordy(a.rng, TITLES));
    plain.set(r, ...small[r]);
  }
  assert.is(plain.symbolTable, null);
  assert.not.equal(a.t.symbolTable!.text, b.t.symbolTable!.text);
  const chunk = (v: TextStore, rows: number) => {
    const at = Int32Array.from({ length: rows }, (_, i) => i);
    return { ...v.copyRecords(at), titles: v.titleRange(0, v.titleCount), symbols: v.symbolTable?.text };
  };
  const move = (into: TextStore, c: ReturnType<typeof chunk>, from: number, n: number, symbols = c.symbols) => {
    into.appendTitles(c.titles, 0);
    into.appendRecords(from, n, c.bytes.toString('base64'), c.ends, symbols);
  };
  // into an empty store: it takes the chunk's table
  const ca = chunk(a.t, a.rows.length);
  const fresh = new TextStore();
  move(fresh, ca, 0, a.rows.length);
  assert.is(fresh.symbolTable!.text, a.t.symbolTable!.text);
  check(fresh, a.rows);
  // into a store coded otherwise: re-coded with its table; a plain chunk too
  const cb = chunk(b.t, 2_000);
  move(fresh, cb, 0, 2_000);
  assert.is(fresh.symbolTable!.text, a.t.symbolTable!.text);
  move(fresh, chunk(plain, 300), 2_000, 300);
  const mixed = [...b.rows.slice(0, 2_000), ...small, ...a.rows.slice(2_300)];
  check(fresh, mixed);
  // a plain store with records: coded ones are decoded, and settle() codes it once large
  const p2 = new TextStore();
  move(p2, chunk(plain, 300), 0, 300);
  move(p2, ca, 300, a.rows.length);
  assert.is(p2.symbolTable, null);
  check(p2, [...small, ...a.rows]);
  p2.settle();
  assert.ok(p2.symbolTable !== null);
  check(p2, [...small, ...a.rows]);
  // damaged: a table, a code past the table, an escape cut off
  const bad = (damage: (bytes: Buffer, c: typeof ca) => unknown, message: RegExp) => {
    const c = chunk(a.t, 3);
    const bytes = Buffer.from(c.bytes);
    const symbols = damage(bytes, c);
    const into = new TextStore();
    into.appendTitles(c.titles, 0);
    assert.throws(() => into.appendRecords(0, 3, bytes.toString('base64'), c.ends, symbols ?? c.symbols), message);
  };
  bad(() => 'AAAA', /snapshot load: symbol table: symbol 0 is damaged/);
  bad(() => 7, /snapshot load: symbol table: expected base64 text/);
  // rows 0-2 with a coded website last: its last code made one past the table, or an escape cut off
  for (let r = 0; r < 3; r++) a.t.set(r, TITLES[r], 'join us', '', 'jazz', 'join us for jazz');
  const past = a.t.symbolTable!.count;
  if (past < 255)
    bad((bytes, c) => {
      bytes[c.ends[2] - 1] = past;
      return undefined;
    }, /record 2 of 3 is damaged/);
  bad((bytes, c) => {
    bytes[c.ends[2] - 1] = 255;
    return undefined;
  }, /record 2 of 3 is damaged/);
});

store.run();

store('setCoded writes the record set writes, from texts coded with its table or another, its slug or another', () => {
  const rng = new Rng(mulberry32(7));
  const titles = Array.from({ length: 20 }, () => text(rng, 12));
  const rows: Row[] = Array.from({ length: 6_000 }, () => row(rng, titles));
  // a table learnt from other texts (a block coded before a relearn)
  const other = new TextStore();
  const otherRng = new Rng(mulberry32(99));
  for (let r = 0; other.symbolTable === null; r++) other.set(r, ...row(otherRng, titles));
  const a = new TextStore(),
    b = new TextStore();
  const input = Buffer.allocUnsafeSlow(4096) as Bytes,
    src = Buffer.allocUnsafeSlow(16384) as Bytes;
  const ways = [0, 0, 0, 0];
  for (let r = 0; r < rows.length; r++) {
    const [title, description, excerpt, wanted, website] = rows[r];
    // the slug coded with the rest, or another in its place (one made unique: wider, longer, none)
    const replaced = r % 4 === 1 ? `${wanted}-2` : r % 4 === 3 ? (r % 8 === 3 ? '' : `\u6771-${wanted}`) : null;
    const slug = replaced ?? wanted;
    rows[r][3] = slug;
    a.set(r, title, description, excerpt, slug, website);
    if (b.symbolTable === null) {
      b.set(r, title, description, excerpt, slug, website);
      continue;
    }
    const way = r % 3;
    ways[way]++;
    const from = way === 0 ? b.symbolTable : way === 1 ? other.symbolTable : null;
    const at = 3;
    let q = writeField(description, 0, from, input, src, at);
    q = writeField(excerpt, 1, from, input, src, q);
    const slugAt = q;
    const web = writeField(wanted, 2, from, input, src, slugAt);
    const end = writeField(website, 3, from, input, src, web);
    b.setCoded(r, b.titleId(title), replaced, src, at, slugAt, web, end, from);
    if (replaced !== null) ways[3]++;
  }
  assert.ok(ways[0] > 1000 && ways[1] > 1000 && ways[2] > 1000 && ways[3] > 2000, `rows by way ${ways}`);
  assert.is(b.symbolTable?.text, a.symbolTable?.text);
  assert.is(b.used, a.used);
  assert.ok(Buffer.from(a.raw.subarray(0, a.used)).equals(b.raw.subarray(0, b.used)), 'the same records');
  check(b, rows);
});
