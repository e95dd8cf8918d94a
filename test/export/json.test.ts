// export → import round trips on random calendars: the import of an export is the same calendar
// (every exported field, and every REST representation, as an editor sees them).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Calendar } from '../../src/calendar.ts';
import type { Resource } from '../../src/api/wordpress/types.ts';
import { Generator, Model, Rng, mulberry32 } from '../engine/random-calendar.ts';
import { makeCalendar } from '../helpers/calendar.ts';
import { makeImage } from '../media/helper.ts';

const roundTrip = suite('export → import');

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'ce-export-'));

/** A sink collecting what writeExport writes. */
function collect(): { write(t: string): boolean; text: () => string } {
  let s = '';
  return { write: (t: string) => ((s += t), true), text: () => s };
}

async function exportText(cal: Calendar, format: 'json' | 'jsonl'): Promise<string> {
  const sink = collect();
  await cal.exportTo(sink, format);
  return sink.text();
}

async function everything(cal: Calendar, editor: Parameters<Calendar['events']['list']>[1]): Promise<unknown[]> {
  const out: unknown[] = [];
  const wide = {
    per_page: 50,
    start_date: '1000-01-01',
    end_date: '9999-12-31',
    status: 'publish,future,draft,pending,private,trash',
  };
  for (const resource of ['events', 'venues', 'organizers', 'categories', 'tags'] as Resource[]) {
    const params: Record<string, unknown> =
      resource === 'events'
        ? wide
        : resource === 'venues' || resource === 'organizers'
          ? { per_page: 50, status: 'publish,future,draft,pending,private,trash' }
          : { per_page: 50, hide_empty: false };
    for (let page = 1; ; page++) {
      const res = await cal[resource].list({ ...params, page }, editor);
      out.push(resource, page, res.total, res.items);
      if (page >= res.totalPages) break;
    }
  }
  return out;
}

for (const format of ['json', 'jsonl'] as const) {
  roundTrip(
    `random calendars through ${format}: the import of an export exports the same text and answers the same`,
    async () => {
      for (const seed of [1, 2, 3]) {
        const rng = new Rng(mulberry32(seed * 104_729));
        const gen = new Generator(rng);
        const model = new Model();
        const { cal: source, users } = await makeCalendar();
        const set = gen.initial(rng.int(30, 80));
        source.engine.bulkLoad(structuredClone(set));
        for (const rec of set.terms) model.apply({ t: 'term', a: 'put', rec });
        for (const rec of set.venues) model.apply({ t: 'venue', a: 'put', rec });
        for (const rec of set.organizers) model.apply({ t: 'organizer', a: 'put', rec });
        for (const rec of set.events) model.apply({ t: 'event', a: 'put', rec });
        for (let i = 0; i < 40; i++) {
          const op = gen.op(model);
          model.apply(op);
          source.engine.apply([structuredClone(op)]);
        }
        // uploads shown by some venues, organizers and events (their files and sizes travel too)
        const images = [
          await source.media.create({ data: await makeImage(400, 300), filename: `poster-${seed}.jpg` }),
          await source.media.create({ data: await makeImage(200, 120, 'png'), filename: 'logo.png' }),
        ].map((item) => item.id as number);
        const e = source.engine;
        const pick = (i: number) => images[i % images.length];
        for (const [i, v] of [...e.venues()].slice(0, 3).entries())
          e.apply([{ t: 'venue', a: 'put', rec: { ...v, imageId: pick(i) } }]);
        for (const [i, o] of [...e.organizers()].slice(0, 2).entries())
          e.apply([{ t: 'organizer', a: 'put', rec: { ...o, imageId: pick(i + 1) } }]);
        for (let row = 0; row < Math.min(5, e.eventRowCount); row++)
          e.apply([{ t: 'event', a: 'put', rec: { ...e.eventRecord(row), imageId: pick(row) } }]);
        // A: the source normalised through one import (the generator writes UTC copies as it likes)
        const dir = tmp();
        const first = path.join(dir, `a.${format}`);
        fs.writeFileSync(first, await exportText(source, format));
        const { cal: a } = await makeCalendar();
        await a.importFile(first);
        // B: A exported and imported again
        const textA = await exportText(a, format);
        const second = path.join(dir, `b.${format}`);
        fs.writeFileSync(second, textA);
        const { cal: b } = await makeCalendar();
        const summary = await b.importFile(second);
        assert.is(await exportText(b, format), textA, `seed ${seed}: the export of the import is the export`);
        assert.equal(
          await everything(b, users.editor),
          await everything(a, users.editor),
          `seed ${seed}: every representation`,
        );
        assert.is(summary.events, a.engine.eventRowCount);
        assert.is(summary.media, 2);
        // each upload came with its id, its files (the same bytes) and its sizes
        for (const id of images) {
          const [was, is] = [source.engine.attachment(id)!.media!, b.engine.attachment(id)!.media!];
          assert.equal(is, was, `seed ${seed}: upload ${id}`);
          const folder = was.file.slice(0, was.file.lastIndexOf('/') + 1);
          for (const rel of [was.file, ...Object.values(was.sizes).map((z) => folder + z.file)])
            assert.ok(b.media.files.readSync!(rel)!.equals(source.media.files.readSync!(rel)!), `seed ${seed}: ${rel}`);
        }
        const shown = (
          await b.venues.list({ per_page: 50, status: 'publish,future,draft,pending,private,trash' }, users.editor)
        ).items
          .map((v) => (v.image as { id?: number } | undefined)?.id)
          .filter((x) => x !== undefined);
        assert.ok(shown.length > 0 && shown.every((x) => images.includes(x!)), `seed ${seed}: venues show the uploads`);
        // the source's own records came through: ids, slugs, statuses, links
        // (the generator may repeat a term in one event, which no write through the API does: compared as sets)
        const uniq = (v: unknown) => (Array.isArray(v) ? [...new Set(v)] : v);
        const ids = (cal: Calendar) =>
          [...cal.export()].map(
            (r) =>
              `${r.type}:${String(r.id)}:${String(r.slug)}:${String(r.status)}:${JSON.stringify(uniq(r.venue))}:${JSON.stringify(uniq(r.organizer))}:${JSON.stringify(uniq(r.categories))}:${JSON.stringify(uniq(r.tags))}:${String(r.post_parent)}:${String(r.parent)}`,
          );
        const [ia, is] = [ids(a), ids(source)];
        assert.equal(
          ia.filter((x, i) => x !== is[i]),
          is.filter((x, i) => x !== ia[i]),
          `seed ${seed}: ids, slugs, statuses and links of the source`,
        );
        await Promise.all([source.close(), a.close(), b.close()]);
      }
    },
  );
}

roundTrip('an empty calendar exports all six empty lists, and that imports', async () => {
  const { cal } = await makeCalendar();
  const text = await exportText(cal, 'json');
  assert.equal(JSON.parse(text), { categories: [], tags: [], media: [], venues: [], organizers: [], events: [] });
  assert.is(await exportText(cal, 'jsonl'), '');
  await cal.close();
});

roundTrip.run();
