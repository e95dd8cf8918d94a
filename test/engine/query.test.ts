import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Engine } from '../../src/engine/engine.ts';
import type { Op } from '../../src/engine/records.ts';
import { checkIndexes } from './index-invariants.ts';
import { checkQuery as check, Generator, Model, Rng, mulberry32 } from './random-calendar.ts';

function checkRecords(engine: Engine, model: Model, label: string): void {
  assert.is(engine.eventRowCount, model.events.size, `${label}: row count`);
  for (const rec of model.events.values()) {
    const row = engine.eventRow(rec.id);
    assert.ok(row >= 0, `${label}: event ${rec.id} has a row`);
    assert.equal(engine.eventRecord(row), rec, `${label}: record of event ${rec.id}`);
  }
  for (const t of model.terms.values()) {
    assert.is(engine.termCount(t.id), model.termCount(t.id), `${label}: count of term ${t.id}`);
    assert.equal(engine.term(t.id), t, `${label}: term ${t.id}`);
  }
}

// ---
const Property = suite('query property');

Property('query :: random calendars and queries equal the reference filter', () => {
  for (const seed of [1, 2, 3, 4]) {
    const rng = new Rng(mulberry32(seed));
    // seed 4: few events at two venues, and groups of at most 2 and 6 venues, so that radius
    // queries take groups' lists whole (venue-groups.ts)
    const gen = new Generator(rng, seed === 4 ? 0.005 : 0.1);
    const set = gen.initial(seed === 1 ? 3000 : 1200);
    const model = new Model();
    const engine = new Engine();
    if (seed >= 3) engine.state.venueGroups.configure(2, 6);
    for (const rec of set.attachments) model.apply({ t: 'attachment', a: 'put', rec });
    for (const rec of set.terms) model.apply({ t: 'term', a: 'put', rec });
    for (const rec of set.venues) model.apply({ t: 'venue', a: 'put', rec });
    for (const rec of set.organizers) model.apply({ t: 'organizer', a: 'put', rec });
    for (const rec of set.events) model.apply({ t: 'event', a: 'put', rec });
    if (seed === 2) {
      // the apply path: one op at a time, in batches
      const ops = [
        ...set.terms.map((rec) => ({ t: 'term' as const, a: 'put' as const, rec })),
        ...set.venues.map((rec) => ({ t: 'venue' as const, a: 'put' as const, rec })),
        ...set.organizers.map((rec) => ({ t: 'organizer' as const, a: 'put' as const, rec })),
        ...set.events.map((rec) => ({ t: 'event' as const, a: 'put' as const, rec })),
      ];
      for (let i = 0; i < ops.length; i += 7) engine.apply(ops.slice(i, i + 7));
    } else {
      engine.bulkLoad(structuredClone(set));
    }
    checkRecords(engine, model, `seed ${seed} initial`);
    for (let i = 0; i < 700; i++) check(engine, model, gen.query(model), `seed ${seed} initial #${i}`);
    checkIndexes(engine, `seed ${seed} initial`);

    for (let round = 0; round < 8; round++) {
      const nOps = rng.int(1, 40);
      for (let i = 0; i < nOps; i++) {
        const op = gen.op(model);
        model.apply(op);
        engine.apply([structuredClone(op)]);
      }
      for (let i = 0; i < 120; i++) check(engine, model, gen.query(model), `seed ${seed} round ${round} #${i}`);
      checkIndexes(engine, `seed ${seed} round ${round}`);
      // a write of many event puts (a series' occurrences): new rows and rewritten ones, some
      // rows twice, applied as one run, which updates each index in one pass
      const run: Op[] = [];
      for (let i = 0, n = rng.int(32, 120); i < n; i++) {
        const k = rng.int(0, 9);
        const again = run.length > 0 ? (run[rng.int(0, run.length - 1)] as { rec: { id: number } }).rec.id : undefined;
        const id = k < 4 ? undefined : k < 6 ? again : rng.pick(gen.eventIds);
        const op: Op = { t: 'event', a: 'put', rec: gen.event(id) };
        model.apply(op);
        run.push(op);
      }
      engine.apply(structuredClone(run));
      for (let i = 0; i < 60; i++) check(engine, model, gen.query(model), `seed ${seed} round ${round} run #${i}`);
      checkIndexes(engine, `seed ${seed} round ${round} run`);
    }
    checkRecords(engine, model, `seed ${seed} after writes`);
    if (seed === 4) assert.ok(engine.state.venueGroups.taken > 0, 'radius queries took venue groups whole');

    // snapshot round trip through JSON: same records, same answers
    const copy = new Engine();
    copy.loadSnapshotChunks(JSON.parse(JSON.stringify([...engine.snapshotChunks()])));
    checkRecords(copy, model, `seed ${seed} snapshot`);
    copy.query({ statusMask: 1, offset: 0, limit: 1 });
    checkIndexes(copy, `seed ${seed} snapshot`);
    for (let i = 0; i < 200; i++) check(copy, model, gen.query(model), `seed ${seed} snapshot #${i}`);
    assert.is(copy.allocPostId(), engine.allocPostId(), 'post counter survives the snapshot');
    assert.is(copy.allocTermId(), engine.allocTermId(), 'term counter survives the snapshot');
  }
});

Property.run();
