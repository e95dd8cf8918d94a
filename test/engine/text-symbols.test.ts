// SymbolTable (src/engine/text-symbols.ts): a table learnt from a sample codes any bytes (every
// byte value, bytes it never saw) and decodes them back exactly; it saves bytes on text like its
// sample; its text form round-trips, and damaged tables or codes are refused.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ESCAPE, SymbolTable, learnSymbols } from '../../src/engine/text-symbols.ts';
import { Rng, mulberry32 } from './random-calendar.ts';

const sym = suite('text symbols');

const WORDS = ['join', 'us', 'for', 'an', 'evening', 'of', 'jazz', 'and', 'wine', 'tickets', 'the', 'music'];

function sentence(rng: Rng, n: number): string {
  const w: string[] = [];
  for (let i = 0; i < n; i++) w.push(rng.pick(WORDS));
  return `${w.join(' ')}.`;
}

function learnt(texts: string[]): SymbolTable {
  const sample = Buffer.from(texts.join(''), 'latin1');
  const ends: number[] = [];
  let o = 0;
  for (const t of texts) ends.push((o += t.length));
  return learnSymbols(sample, ends);
}

function roundTrip(table: SymbolTable, bytes: Uint8Array): number {
  const codes = new Uint8Array(2 * bytes.length + 1);
  const n = table.encode(bytes, 0, bytes.length, codes, 0);
  assert.ok(n <= 2 * bytes.length, 'at most two bytes a byte');
  assert.ok(table.valid(codes, 0, n), 'its own codes are valid');
  const back = new Uint8Array(8 * n + 8);
  const m = table.decode(codes, 0, n, back, 0);
  assert.equal(Array.from(back.subarray(0, m)), Array.from(bytes));
  return n;
}

sym('texts like the sample are coded in about half their bytes; any bytes round-trip', () => {
  const rng = new Rng(mulberry32(3));
  const texts = Array.from({ length: 400 }, () => sentence(rng, rng.int(3, 20)));
  const table = learnt(texts);
  assert.ok(table.count > 50 && table.count <= 255, `${table.count} symbols`);
  let plain = 0,
    coded = 0;
  for (let i = 0; i < 200; i++) {
    const b = Buffer.from(sentence(rng, rng.int(1, 30)), 'latin1');
    plain += b.length;
    coded += roundTrip(table, b);
  }
  assert.ok(coded * 2 < plain, `coded ${coded} of ${plain} bytes`);
  // every byte value, alone, in a row, and at random; empty
  const every = Uint8Array.from({ length: 256 }, (_, i) => i);
  roundTrip(table, every);
  roundTrip(table, every.slice().reverse());
  for (let i = 0; i < 256; i++) roundTrip(table, Uint8Array.of(i));
  for (let i = 0; i < 100; i++)
    roundTrip(
      table,
      Uint8Array.from({ length: rng.int(0, 300) }, () => rng.int(0, 255)),
    );
  roundTrip(table, new Uint8Array(0));
  // the same sample learns the same table
  assert.is(learnt(texts).text, table.text);
});

sym('an empty table escapes every byte; a table of every byte value needs no escape', () => {
  const empty = new SymbolTable([]);
  const b = Buffer.from('abc\u00ff', 'latin1');
  const codes = new Uint8Array(8);
  assert.is(empty.encode(b, 0, 4, codes, 0), 8);
  assert.equal(Array.from(codes), [ESCAPE, 97, ESCAPE, 98, ESCAPE, 99, ESCAPE, 255]);
  const bytes = new SymbolTable(Array.from({ length: 255 }, (_, i) => Uint8Array.of(i)));
  const all = Uint8Array.from({ length: 256 }, (_, i) => i);
  assert.is(roundTrip(bytes, all), 257, 'byte 255 alone is escaped');
});

sym('the text form round-trips; damaged tables and codes are refused', () => {
  const rng = new Rng(mulberry32(5));
  const table = learnt(Array.from({ length: 200 }, () => sentence(rng, 10)));
  const again = SymbolTable.fromText(table.text);
  assert.is(again.count, table.count);
  for (let c = 0; c < table.count; c++) assert.equal(Array.from(again.symbol(c)), Array.from(table.symbol(c)));
  assert.throws(() => SymbolTable.fromText(42), /expected base64 text/);
  assert.throws(() => SymbolTable.fromText('!!!!'), /expected base64 text/);
  assert.throws(() => SymbolTable.fromText(Buffer.from([9, 1, 2]).toString('base64')), /symbol 0 is damaged/);
  assert.throws(() => SymbolTable.fromText(Buffer.from([0]).toString('base64')), /symbol 0 is damaged/);
  assert.throws(() => SymbolTable.fromText(Buffer.from([3, 1, 2]).toString('base64')), /symbol 0 is damaged/);
  const many = Buffer.alloc(512);
  for (let i = 0; i < 256; i++) many[2 * i] = 1;
  assert.throws(() => SymbolTable.fromText(many.toString('base64')), /at most 255 symbols/);
  const small = new SymbolTable([Uint8Array.of(97), Uint8Array.of(98, 99)]);
  assert.ok(small.valid(Uint8Array.of(0, 1, ESCAPE, 7), 0, 4));
  assert.not.ok(small.valid(Uint8Array.of(0, 2), 0, 2), 'a code past the table');
  assert.not.ok(small.valid(Uint8Array.of(0, ESCAPE), 0, 2), 'an escape cut off');
  // a full table (every byte but the escape a code) is checked from the end: same answers
  const full = new SymbolTable(Array.from({ length: 255 }, (_, c) => Uint8Array.of(c)));
  const pick = mulberry32(7);
  for (let t = 0; t < 2000; t++) {
    const codes = Uint8Array.from({ length: 1 + Math.floor(pick() * 8) }, () =>
      pick() < 0.5 ? ESCAPE : Math.floor(pick() * 256),
    );
    let ok = true;
    for (let p = 0; p < codes.length; p++) if (codes[p] === ESCAPE && ++p >= codes.length) ok = false;
    assert.is(full.valid(codes, 0, codes.length), ok, `codes ${Array.from(codes)}`);
  }
  assert.ok(full.valid(Uint8Array.of(9, ESCAPE, ESCAPE, 3), 1, 3), 'an escaped escape');
  assert.not.ok(full.valid(Uint8Array.of(ESCAPE, 7, ESCAPE), 0, 3), 'an escape cut off after a literal');
});

sym.run();
