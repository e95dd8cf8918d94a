import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BLOCK_SIZE } from '../../src/engine/block-stats.ts';
import { Engine } from '../../src/engine/engine.ts';
import { naiveToString } from '../../src/engine/naive-time.ts';
import type { EventQuery } from '../../src/engine/types.ts';
import { makeEvent } from './build.ts';
import { Rng, mulberry32 } from './random-calendar.ts';

const DAY = 86_400_000;
const BASE = Date.UTC(2024, 0, 1);

// ---
const Blocks = suite('block stats');

/** Few distinct ends, so that bounds often sit exactly on a block's min or max end. */
function calendar(n: number): { engine: Engine; starts: number[]; ends: number[]; rows: { s: number; e: number; status: number; featured: boolean; ticketed: boolean; hidden: boolean }[] } {
  const rng = new Rng(mulberry32(42));
  const engine = new Engine();
  const rows = [];
  const events = [];
  for (let i = 0; i < n; i++) {
    const s = BASE + Math.floor(i / 300) * DAY;
    const e = s + rng.pick([0, 1, 2]) * DAY;
    const status = rng.pick(['publish', 'draft', 'trash'] as const);
    const featured = rng.bool(0.3), ticketed = rng.bool(0.5), hidden = rng.bool(0.05);
    events.push(makeEvent(i + 1, { startLocal: naiveToString(s), endLocal: naiveToString(e), status, featured, ticketed, hideFromListings: hidden }));
    rows.push({ s, e, status: ['publish', 'draft', 'trash'].indexOf(status) === 2 ? 5 : ['publish', 'draft'].indexOf(status) === 1 ? 2 : 0, featured, ticketed, hidden });
  }
  engine.bulkLoad({ events, venues: [], organizers: [], terms: [], attachments: [] });
  const starts = [...new Set(rows.map((r) => r.s))];
  const ends = [...new Set(rows.map((r) => r.e))];
  return { engine, starts, ends, rows };
}

Blocks('block stats :: totals on exact end bounds equal a row-by-row count', () => {
  const { engine, starts, ends, rows } = calendar(BLOCK_SIZE * 12 + 17);
  const masks = [1, 0b100101, 0xff];
  let checked = 0;
  for (const mask of masks) {
    for (const bound of ends) {
      for (const key of ['endGt', 'endGte', 'endLt', 'endLte'] as const) {
        for (const featured of [undefined, true, false]) {
          const q: EventQuery = { statusMask: mask, offset: 0, limit: 5, [key]: bound, featured, startGte: starts[1] };
          const want = rows.filter((r) => {
            if (r.hidden || !((mask >> r.status) & 1) || r.s < starts[1]) return false;
            if (featured !== undefined && r.featured !== featured) return false;
            if (key === 'endGt') return r.e > bound;
            if (key === 'endGte') return r.e >= bound;
            if (key === 'endLt') return r.e < bound;
            return r.e <= bound;
          }).length;
          assert.is(engine.query(q).total, want, `${key} ${bound} mask ${mask} featured ${featured}`);
          checked++;
        }
      }
    }
  }
  assert.ok(checked > 100);
});

Blocks('block stats :: counters follow writes (trash, moves, flag changes)', () => {
  const { engine } = calendar(BLOCK_SIZE * 4);
  const q: EventQuery = { statusMask: 1, offset: 0, limit: 1 };
  const count = () => {
    let n = 0;
    for (let r = 0; r < engine.eventRowCount; r++) {
      const rec = engine.eventRecord(r);
      if (rec.status === 'publish' && !rec.hideFromListings) n++;
    }
    return n;
  };
  assert.is(engine.query(q).total, count());
  // events well past the first page, so that their blocks are counted, not walked
  const published = engine.query({ ...q, offset: 300, limit: 3 }).rows.map((r) => engine.eventId(r));
  engine.apply([{ t: 'event', a: 'delete', id: published[0], modified: '2024-05-01 00:00:00', modifiedUtc: '2024-05-01 04:00:00' }]);
  assert.is(engine.query(q).total, count());
  const rec = engine.eventRecord(engine.eventRow(published[1]));
  engine.apply([{ t: 'event', a: 'put', rec: { ...rec, hideFromListings: true } }]);
  assert.is(engine.query(q).total, count());
  engine.apply([{ t: 'event', a: 'put', rec: makeEvent(99999, { startLocal: '2030-01-01 00:00:00', endLocal: '2030-01-01 00:00:00' }) }]);
  assert.is(engine.query(q).total, count());
});

Blocks.run();
