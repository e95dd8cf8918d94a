// A worker's packed block (src/import/pack.ts) read back field by field: more events and more
// link ids than the packer's first arrays hold (2,048 events, 16,384 link ids), so every array
// grows and keeps what it held.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { RecordReader } from '../../src/import/local.ts';
import { P_CATEGORIES, P_ID, P_INTS, P_TAGS, P_VENUES, packEventLines } from '../../src/import/pack.ts';
import { P_SLUG_AT, P_SLUG_END, P_TITLE_AT, P_TITLE_END } from '../../src/import/pack-texts.ts';

const pack = suite('import :: packed blocks');

pack('a block past the first arrays: every event, date and link list comes back in order', () => {
  const n = 5000;
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const e = {
      id: 10_000 + i,
      title: i % 3 === 0 ? `Event ${i}` : `Événement ${i}`,
      slug: i % 2 === 0 ? undefined : `event-${i}`,
      start_date: '2030-03-05 10:00:00',
      end_date: '2030-03-05 12:00:00',
      timezone: 'UTC',
      // 4 link ids an event: 20,000 in the block
      venue: [100 + (i % 7)],
      categories: [1, 2],
      tags: [3 + (i % 2)],
    };
    lines.push(JSON.stringify(e) + (i < n - 1 ? ',' : ''));
  }
  const block = Buffer.from(lines.join('\n') + '\n');
  const rd = new RecordReader('UTC', () => new Date('2026-01-01T00:00:00Z'), { local: 0, utc: 0 });
  const p = packEventLines(rd, block, block.length);
  assert.is(p.n, n);
  assert.equal(p.redo, []);
  assert.is(p.stop, block.length, 'every line taken');
  let at = 0;
  for (let k = 0; k < n; k++) {
    const i = k * P_INTS;
    assert.is(p.i32[i + P_ID], 10_000 + k);
    // titles as Latin-1 bytes (every one is), slugs as wanted as ASCII
    assert.ok(p.titles.narrow && p.slugs.narrow);
    const title = Buffer.from(p.titles.bytes).toString('latin1', p.i32[i + P_TITLE_AT], p.i32[i + P_TITLE_END]);
    assert.is(title, k % 3 === 0 ? `Event ${k}` : `Événement ${k}`);
    const slug = Buffer.from(p.slugs.bytes).toString('latin1', p.i32[i + P_SLUG_AT], p.i32[i + P_SLUG_END]);
    assert.is(slug, k % 2 === 0 ? (k % 3 === 0 ? `event-${k}` : `evenement-${k}`) : `event-${k}`);
    assert.ok(p.f64[k * 8] > 0, `event ${k} has its dates`);
    const counts = [p.i32[i + P_VENUES], p.i32[i + P_VENUES + 1], p.i32[i + P_CATEGORIES], p.i32[i + P_TAGS]];
    assert.equal(counts, [1, 0, 2, 1], `event ${k}'s list lengths`);
    assert.equal([...p.links.subarray(at, at + 4)], [100 + (k % 7), 1, 2, 3 + (k % 2)], `event ${k}'s links`);
    at += 4;
  }
});

pack.run();
