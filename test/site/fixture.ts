// A small calendar for the page tests, served over HTTP at its own site URL (a port picked first,
// so that every link in the pages points back at this server): published, draft, private and
// trashed events; hostile titles, descriptions and venue names; a busy day; a multi-day event.
import net from 'node:net';
import { openCalendar, type Calendar } from '../../src/calendar.ts';
import { UserRegistry } from '../../src/users/registry.ts';
import { startServer, type RunningServer } from '../../src/http/server.ts';
import type { SiteOptions } from '../../src/site/pages.ts';

/** 2026-03-04 15:00:00 UTC, a Wednesday (10:00 in New York). */
export const NOW = new Date(Date.UTC(2026, 2, 4, 15, 0, 0));

export const HOSTILE_TITLE = '<img src=x onerror=alert(1)>"Quotes" & <script>alert(2)</script>';
export const HOSTILE_VENUE = 'Hall </title><script>alert("v")</script> & Co';
export const HOSTILE_DESCRIPTION =
  '<p>Great <strong>music</strong></p><script>alert(3)</script><img src="x" onerror="alert(4)"><a href="javascript:alert(5)">link</a>';

export interface Fixture {
  cal: Calendar;
  url: string;
  srv: RunningServer;
  editor: [string, string];
  ids: Record<string, number>;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const a = probe.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export async function siteFixture(
  opts: { site?: SiteOptions | false; restPrefix?: string; sitePath?: string } = {},
): Promise<Fixture> {
  const port = await freePort();
  const registry = UserRegistry.open();
  const admin = registry.add('boss', 'administrator').user;
  const editor = registry.add('eddie', 'editor');
  const url = `http://127.0.0.1:${port}${opts.sitePath ?? ''}`;
  const cal = await openCalendar({
    now: () => NOW,
    siteUrl: url,
    timezone: 'America/New_York',
    users: registry,
    perPage: 5,
    ...(opts.restPrefix !== undefined ? { restPrefix: opts.restPrefix } : {}),
  });
  const ids: Record<string, number> = {};
  const as = admin;
  ids.music = Number((await cal.categories.create({ name: 'Music', slug: 'music' }, as)).id);
  ids.jazz = Number(
    (
      await cal.categories.create(
        { name: 'Jazz & Blues', slug: 'jazz', parent: ids.music, description: 'Late nights.' },
        as,
      )
    ).id,
  );
  ids.free = Number((await cal.tags.create({ name: 'Free', slug: 'free' }, as)).id);
  ids.venue = Number(
    (
      await cal.venues.create(
        {
          venue: HOSTILE_VENUE,
          address: '1 Main St',
          city: 'Springfield',
          state: 'IL',
          zip: '62701',
          country: 'United States',
          phone: '+1 217-555-0100',
          website: 'https://hall.example.org/',
          description: HOSTILE_DESCRIPTION,
          show_map_link: true,
        },
        as,
      )
    ).id,
  );
  ids.organizer = Number(
    (
      await cal.organizers.create(
        {
          organizer: "O'Brien Productions",
          email: 'hello@obrien.example.org',
          phone: '+1 217-555-0199',
          website: 'https://obrien.example.org/',
        },
        as,
      )
    ).id,
  );
  const ev = async (key: string, fields: Record<string, unknown>) => {
    ids[key] = Number((await cal.events.create({ status: 'publish', ...fields }, as)).id);
  };
  await ev('concert', {
    title: 'Spring Concert',
    slug: 'spring-concert',
    start_date: '2026-03-10 19:00:00',
    end_date: '2026-03-10 21:00:00',
    venue: ids.venue,
    organizer: [ids.organizer],
    categories: [ids.jazz],
    tags: [ids.free],
    cost: '15',
    description: HOSTILE_DESCRIPTION,
    website: 'https://concert.example.org/',
  });
  await ev('hostile', {
    title: HOSTILE_TITLE,
    slug: 'hostile',
    start_date: '2026-03-05 00:00:00',
    end_date: '2026-03-05 23:59:59',
    all_day: true,
    description: HOSTILE_DESCRIPTION,
  });
  await ev('festival', {
    title: 'Three-Day Festival',
    slug: 'festival',
    start_date: '2026-03-20 10:00:00',
    end_date: '2026-03-22 18:00:00',
    venue: ids.venue,
    categories: [ids.music],
  });
  for (let i = 0; i < 5; i++) {
    await ev(`busy${i}`, {
      title: `Busy Day Talk ${i + 1}`,
      slug: `busy-${i + 1}`,
      start_date: `2026-03-18 ${String(9 + i).padStart(2, '0')}:00:00`,
      end_date: `2026-03-18 ${String(9 + i).padStart(2, '0')}:45:00`,
    });
  }
  await ev('past', {
    title: 'Winter Market',
    slug: 'winter-market',
    start_date: '2026-02-14 10:00:00',
    end_date: '2026-02-14 16:00:00',
    venue: ids.venue,
  });
  await ev('draft', {
    title: 'Secret Draft',
    slug: 'secret-draft',
    status: 'draft',
    start_date: '2026-03-12 10:00:00',
    end_date: '2026-03-12 11:00:00',
  });
  await ev('private', {
    title: 'Private Meeting',
    slug: 'private-meeting',
    status: 'private',
    start_date: '2026-03-13 10:00:00',
    end_date: '2026-03-13 11:00:00',
  });
  await ev('trashed', {
    title: 'Trashed Gig',
    slug: 'trashed-gig',
    start_date: '2026-03-14 10:00:00',
    end_date: '2026-03-14 11:00:00',
  });
  await cal.events.delete(ids.trashed, as);
  const srv = await startServer(cal, { port, ...(opts.site !== undefined ? { site: opts.site } : {}) });
  return {
    cal,
    url,
    srv,
    editor: ['eddie', editor.password],
    ids,
    async close() {
      await srv.close();
      await cal.close();
    },
  };
}
