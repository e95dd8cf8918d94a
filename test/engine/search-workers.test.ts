import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Engine } from '../../src/engine/engine.ts';
import type { EventRecord } from '../../src/engine/records.ts';
import { existingSearchIndex, scheduleSearchIndexBuild, searchIndexOf } from '../../src/engine/search-index.ts';
import { DetachedBuild } from '../../src/engine/search-worker.ts';
import { frozenTexts, searchWorkerSettings } from '../../src/engine/search-workers.ts';
import { CODE_AFTER } from '../../src/engine/text-store.ts';
import { type Bytes, TextView } from '../../src/engine/text-view.ts';
import { mulberry32 } from '../../bench/stats.ts';
import { DIST_MAIN, ensureDist, ROOT } from '../helpers/dist.ts';
import { makeEvent } from './build.ts';

const Workers = suite('search index on a worker thread');

const WORDS = [
  'yoga',
  'Café',
  'crème',
  'brûlée',
  'ω-class',
  'hands-on',
  'ﬁne',
  'İstanbul',
  '日本語',
  'naïve',
  'x2',
  'Öl',
];

/** Events with texts of every kind the store keeps: one-byte (coded once past CODE_AFTER), two-byte,
 *  and units that fold by context; more than CODE_AFTER bytes of them. */
function events(n: number, seed: number): EventRecord[] {
  const rand = mulberry32(seed);
  const pick = () => WORDS[Math.floor(rand() * WORDS.length)];
  const text = (k: number) => Array.from({ length: k }, () => `${pick()}${Math.floor(rand() * 900)}`).join(' ');
  const out: EventRecord[] = [];
  for (let id = 1; id <= n; id++) {
    const day = 1 + Math.floor(rand() * 27);
    const d = `2024-02-${String(day).padStart(2, '0')}`;
    out.push(
      makeEvent(id, {
        title: text(1 + (id % 4)),
        excerpt: id % 3 === 0 ? '' : text(5),
        description: `<p>${text(30 + (id % 50))}</p>`,
        startLocal: `${d} ${String(8 + (id % 12)).padStart(2, '0')}:00:00`,
        endLocal: `${d} 22:00:00`,
      }),
    );
  }
  return out;
}

function loaded(recs: EventRecord[]): Engine {
  const engine = new Engine();
  engine.bulkLoad(
    { attachments: [], terms: [], venues: [], organizers: [], events: structuredClone(recs) },
    undefined,
    { searchIndex: false },
  );
  return engine;
}

/** What a build made, as plain numbers and words (equal builds give equal digests). */
function digest(p: ReturnType<ReturnType<typeof searchIndexOf>['persisted']>): string {
  assert.ok(p !== undefined, 'a built index');
  const r = p.rows;
  return JSON.stringify({
    words: p.words,
    offsets: [...p.offsets],
    length: r.length,
    order: [...r.order],
    base: [...r.base],
    start: [...r.start],
    width: [...r.width],
    packed: [...r.words],
  });
}

Workers('the worker builds the same vocabulary, offsets and packed postings as a build on this thread', async () => {
  const recs = events(4000, 5);
  const here = loaded(recs);
  assert.ok(here.state.table.texts.symbolTable !== null, `texts past CODE_AFTER (${CODE_AFTER}) are coded`);
  const want = digest(searchIndexOf(here.state).persisted());
  const saved = searchWorkerSettings.minRows;
  searchWorkerSettings.minRows = 0;
  try {
    const there = loaded(recs);
    scheduleSearchIndexBuild(there.state);
    const si = existingSearchIndex(there.state)!;
    assert.ok(si.waiting, 'built on a worker thread');
    await there.searchReady();
    assert.not.ok(si.building);
    assert.is(digest(si.persisted()), want);
  } finally {
    searchWorkerSettings.minRows = saved;
  }
});

Workers('texts whose records are not in shared memory are copied into it for the worker', () => {
  const recs = events(1500, 6);
  const engine = loaded(recs);
  const t = engine.state.table;
  const store = t.texts;
  assert.ok(store.raw.buffer instanceof SharedArrayBuffer, 'the text store keeps its records shared');
  const n = t.count;
  const plain = new TextView(
    Buffer.from(store.raw) as Bytes,
    store.offsets(n),
    store.titleRange(0, store.titleCount),
    store.symbolTable,
  );
  assert.not.ok(plain.raw.buffer instanceof SharedArrayBuffer);
  const frozen = frozenTexts(plain, n);
  assert.ok(frozen.bytes.buffer instanceof SharedArrayBuffer, 'copied into shared memory');
  assert.ok(frozen.bytes.length < store.raw.length, 'only the records in use');
  const order = engine.state.main.rows.slice(0, engine.state.main.count);
  const out = new DetachedBuild().run({ ...frozen, order });
  const want = searchIndexOf(engine.state).persisted()!;
  assert.equal(out.words, want.words);
  assert.equal([...out.offsets], [...want.offsets]);
  assert.equal([...out.packed.words], [...want.rows.words]);
  assert.equal([...out.packed.order], [...want.rows.order]);
});

Workers('the built package (dist/, plain node) starts the worker from search-worker.js', () => {
  ensureDist();
  const recs = events(1200, 7);
  const want = digest(searchIndexOf(loaded(recs).state).persisted());
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'search-worker-'));
  try {
    const file = path.join(dir, 'events.json');
    fs.writeFileSync(file, JSON.stringify(recs));
    const dist = (p: string) => JSON.stringify(path.join(ROOT, 'dist', p));
    const script = `
      import fs from 'node:fs';
      const { Engine } = await import(${dist('engine/engine.js')});
      const { existingSearchIndex, scheduleSearchIndexBuild } = await import(${dist('engine/search-index.js')});
      const { searchWorkerSettings } = await import(${dist('engine/search-workers.js')});
      const engine = new Engine();
      engine.bulkLoad({ attachments: [], terms: [], venues: [], organizers: [], events: JSON.parse(fs.readFileSync(${JSON.stringify(file)}, 'utf8')) }, undefined, { searchIndex: false });
      searchWorkerSettings.minRows = 0;
      scheduleSearchIndexBuild(engine.state);
      const si = existingSearchIndex(engine.state);
      const waiting = si.waiting;
      await engine.searchReady();
      const p = si.persisted();
      const r = p.rows;
      process.stdout.write(JSON.stringify({ waiting, digest: JSON.stringify({ words: p.words, offsets: [...p.offsets], length: r.length, order: [...r.order], base: [...r.base], start: [...r.start], width: [...r.width], packed: [...r.words] }) }));
    `;
    const env = { ...process.env };
    delete env.NODE_OPTIONS;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: path.dirname(DIST_MAIN),
      env,
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    const got = JSON.parse(out) as { waiting: boolean; digest: string };
    assert.ok(got.waiting, 'built on a worker thread');
    assert.ok(got.digest === want, 'the same index as a build here');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

Workers.run();
