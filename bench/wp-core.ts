// The wp/v2 lists on a generated calendar (default 100,000 events), through cal.rest() without
// HTTP: the median and the fastest of 15 calls after 20 of warm-up, anonymous.
//   node --import tsx bench/wp-core.ts [events]
import { openCalendar } from '../src/calendar.ts';
import { generateCalendar } from './generate.ts';
const N = Number(process.argv[2] ?? 100_000);
const NOW = new Date('2026-06-01T12:00:00Z');
const cal = await openCalendar({ now: () => NOW });
await cal.import(generateCalendar({ events: N, seed: 7, now: NOW }));
const cats = JSON.parse(
  (await cal.rest({ resource: 'wp-categories', action: 'list', params: { per_page: 5 }, actor: null })).body,
);
async function time(label: string, params: Record<string, unknown>, resource = 'wp-events') {
  for (let i = 0; i < 20; i++) await cal.rest({ resource: resource as never, action: 'list', params, actor: null });
  const t: number[] = [];
  for (let i = 0; i < 15; i++) {
    const s = process.hrtime.bigint();
    await cal.rest({ resource: resource as never, action: 'list', params, actor: null });
    t.push(Number(process.hrtime.bigint() - s) / 1e6);
  }
  t.sort((a, b) => a - b);
  const r = await cal.rest({ resource: resource as never, action: 'list', params, actor: null });
  console.log(`${label}: median ${t[7].toFixed(2)} ms, min ${t[0].toFixed(2)} ms, total ${r.headers['X-WP-Total']}`);
}
await time('GET /wp/v2/tribe_events (default)', {});
await time('GET /wp/v2/tribe_events per_page=100', { per_page: 100 });
await time(`GET /wp/v2/tribe_events tribe_events_cat=${cats[0].id}`, { tribe_events_cat: cats[0].id });
await time('GET /wp/v2/tribe_events search=music', { search: 'music' });
await time('GET /wp/v2/tribe_venue', {}, 'wp-venues');
await time('GET /wp/v2/tags per_page=50', { per_page: 50, hide_empty: 0 }, 'wp-tags');
await cal.close();
