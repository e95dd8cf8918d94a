import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { asList, Problems } from '../../../src/api/wordpress/params.ts';
import { mulberry32 } from '../../../bench/stats.ts';

const Params = suite('params');

/** The WordPress list reading as first written: split every scalar on commas, trim, drop empties. */
function reference(v: unknown): string[] | undefined {
  const raw: unknown[] = Array.isArray(v) ? v : typeof v === 'object' && v !== null ? Object.values(v) : [v];
  const out: string[] = [];
  for (const item of raw) {
    const s =
      typeof item === 'string'
        ? item
        : typeof item === 'number' && Number.isFinite(item)
          ? String(item)
          : typeof item === 'boolean'
            ? item
              ? '1'
              : ''
            : undefined;
    if (s === undefined) return undefined;
    for (const part of s.split(',')) {
      const t = part.trim();
      if (t !== '') out.push(t);
    }
  }
  return out;
}

Params('params :: asList of strings equals split, trim and drop empties', () => {
  const rand = mulberry32(7);
  const alphabet = [
    '1',
    '2',
    'a',
    ',',
    ',',
    ' ',
    '\t',
    '\n',
    '\u00a0',
    '\u2003',
    '\u0085',
    '\u0001',
    'é',
    '\ufeff',
    '\u3000',
  ];
  for (let n = 0; n < 3000; n++) {
    let s = '';
    for (let i = Math.floor(rand() * 12); i > 0; i--) s += alphabet[Math.floor(rand() * alphabet.length)];
    assert.equal(asList(s), reference(s), JSON.stringify(s));
  }
  for (const v of [['1, 2', ' 3 ,,'], { a: '4,5' }, 12, true, false, [1, null], ''])
    assert.equal(asList(v), reference(v), JSON.stringify(v));
});

Params('params :: Problems keeps the first reason per name and counts names', () => {
  const p = new Problems();
  assert.is(p.any, false);
  p.add('page');
  p.add('page', 'other');
  p.add('tags', 'bad');
  assert.is(p.any, true);
  assert.equal(p.reasons, { page: 'Invalid parameter.', tags: 'bad' });
});

Params.run();
