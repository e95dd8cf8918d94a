// TextStore (src/engine/text-store.ts): the event rows' texts in one byte buffer. Every text
// reads back as the exact string stored (ASCII, Latin-1, wide units, lone surrogates, empty,
// a null website), through rewrites that leave dead records and compactions; a frozen view
// keeps answering with the texts of when it was taken.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TextStore } from '../../src/engine/text-store.ts';
import type { TextView } from '../../src/engine/text-view.ts';
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

store.run();
