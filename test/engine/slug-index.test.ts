// SlugIndex (src/engine/slug-index.ts): event rows by slug, keyed through the slug column, against
// a Map kept the way the registry kept one before (the last row set under a slug wins; a row's old
// slug is dropped only while it still maps to that row), through growth, runs of colliding
// entries whose middle is removed, duplicates, and slugs emptied.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SlugIndex } from '../../src/engine/slug-index.ts';
import { Rng, mulberry32 } from './random-calendar.ts';

const index = suite('slug index');

index('answers as a Map of slug to row would, through random writes', () => {
  for (const seed of [1, 2, 3]) {
    const rng = new Rng(mulberry32(seed));
    // few distinct slugs (many duplicates and moves) in small and large pools
    const pool = Array.from({ length: seed === 3 ? 5_000 : 60 }, (_, i) => `slug-${i}`);
    const slugs: string[] = [];
    const start = rng.int(0, 40);
    for (let r = 0; r < start; r++) slugs.push(rng.bool(0.1) ? '' : rng.pick(pool));
    const model = new Map<string, number>();
    for (let r = 0; r < start; r++) if (slugs[r] !== '') model.set(slugs[r], r);
    const ix = new SlugIndex(
      (row) => slugs[row],
      () => slugs.length,
    );
    for (let step = 0; step < 20_000; step++) {
      if (slugs.length === 0 || rng.bool(0.3)) {
        const row = slugs.length,
          slug = rng.bool(0.05) ? '' : rng.pick(pool);
        slugs.push(slug);
        ix.set(row, undefined, slug);
        if (slug !== '') model.set(slug, row);
      } else {
        const row = rng.int(0, slugs.length - 1),
          old = slugs[row];
        const slug = rng.bool(0.05) ? '' : rng.pick(pool);
        slugs[row] = slug; // the column first, as apply.ts writes it
        ix.set(row, old, slug);
        if (old !== '' && model.get(old) === row) model.delete(old);
        if (slug !== '') model.set(slug, row);
      }
      if (step % 97 === 0 || pool.length < 100) {
        for (const s of pool) assert.is(ix.get(s), model.get(s) ?? -1, `seed ${seed}, step ${step}: ${s}`);
      }
    }
    for (const s of pool) assert.is(ix.get(s), model.get(s) ?? -1, `seed ${seed}, at the end: ${s}`);
    assert.is(ix.get(''), -1);
    assert.is(ix.get('never-seen'), -1);
  }
});

index('a row renamed and renamed back, next to colliding rows, is found under its slug only', () => {
  const slugs = Array.from({ length: 3_000 }, (_, i) => `event-${i}`);
  const ix = new SlugIndex(
    (row) => slugs[row],
    () => slugs.length,
  );
  for (let r = 0; r < slugs.length; r += 3) {
    const old = slugs[r];
    slugs[r] = `${old}-2`;
    ix.set(r, old, slugs[r]);
  }
  for (let r = 0; r < slugs.length; r++) {
    assert.is(ix.get(slugs[r]), r);
    if (r % 3 === 0) assert.is(ix.get(`event-${r}`), -1);
  }
  for (let r = 0; r < slugs.length; r += 3) {
    const old = slugs[r];
    slugs[r] = `event-${r}`;
    ix.set(r, old, slugs[r]);
  }
  for (let r = 0; r < slugs.length; r++) {
    assert.is(ix.get(`event-${r}`), r);
    assert.is(ix.get(`event-${r}-2`), -1);
  }
});

index('built a slice at a time: rows renamed and added meanwhile are found under their slugs', () => {
  const rng = new Rng(mulberry32(7));
  const slugs = Array.from({ length: 5_000 }, (_, i) => `event-${i}`);
  const ix = new SlugIndex(
    (row) => slugs[row],
    () => slugs.length,
    true,
  );
  let renamed = 0,
    done = false;
  while (!done) {
    // a few writes between slices, as between requests: renames (some past the slice) and new rows
    for (let w = 0; w < 5; w++) {
      if (rng.bool(0.3)) {
        const row = slugs.length;
        slugs.push(`new-${row}`);
        ix.set(row, undefined, slugs[row]);
      } else {
        const row = rng.int(0, slugs.length - 1),
          old = slugs[row];
        slugs[row] = `renamed-${renamed++}`;
        ix.set(row, old, slugs[row]);
      }
    }
    done = ix.advance(rng.int(1, 300));
  }
  for (let r = 0; r < slugs.length; r++) assert.is(ix.get(slugs[r]), r, slugs[r]);
  for (let r = 0; r < 5_000; r++) if (slugs[r] !== `event-${r}`) assert.is(ix.get(`event-${r}`), -1);
  // a lookup before the build is complete finishes it
  const lazy = new SlugIndex(
    (row) => slugs[row],
    () => slugs.length,
    true,
  );
  lazy.advance(10);
  assert.is(lazy.get(slugs[slugs.length - 1]), slugs.length - 1);
  assert.ok(lazy.advance(0));
});

index.run();
