// iCalendar feeds: what a calendar application reads back (parsed with ical.js), the text rules
// (CRLF, lines folded at 75 octets), and the plugin's URLs over HTTP.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import ICAL from 'ical.js';
import { makeCalendar } from '../helpers/calendar.ts';
import { startTestServer } from '../helpers/server.ts';
import { request } from '../http/request.ts';

const ical = suite('ical');

async function calendarWithEvents() {
  const { cal } = await makeCalendar({ timezone: 'America/New_York' });
  const jazz = await cal.categories.create({ name: 'Jazz' });
  const long = 'A long description, '.repeat(12) + 'with <b>markup</b> &amp; entities.';
  const ev = await cal.events.create({
    title: 'Late Night Jazz, "live"',
    description: `<p>${long}</p>`,
    timezone: 'Europe/Paris',
    start_date: '2026-03-10 21:00:00',
    end_date: '2026-03-10 23:30:00',
    venue: {
      venue: 'Le Duc des Lombards',
      address: '42 rue des Lombards',
      city: 'Paris',
      country: 'France',
      geo_lat: 48.8594,
      geo_lng: 2.3484,
    },
    organizer: [{ organizer: 'Night Owls', email: 'owls@example.org' }],
    categories: [jazz.id],
  });
  const day = await cal.events.create({
    title: 'Market day',
    all_day: true,
    start_date: '2026-03-12',
    end_date: '2026-03-13',
  });
  return { cal, ev, day };
}

ical(
  'a feed a calendar application reads back: zones, times, all-day dates, venue, organizer, categories',
  async () => {
    const { cal, ev, day } = await calendarWithEvents();
    const text = cal.ical({ start_date: '2026-03-01' });
    const comp = new ICAL.Component(ICAL.parse(text) as unknown[]);
    assert.is(comp.getFirstPropertyValue('version'), '2.0');
    assert.is(comp.getFirstPropertyValue('method'), 'PUBLISH');
    const zones = comp.getAllSubcomponents('vtimezone').map((z) => z.getFirstPropertyValue('tzid'));
    assert.equal(zones, ['Europe/Paris'], 'a VTIMEZONE for each zone of a timed event');
    const [jazz, market] = comp.getAllSubcomponents('vevent');
    const e = new ICAL.Event(jazz);
    assert.is(
      e.summary,
      'Late Night Jazz, \u201clive\u201d',
      'the displayed title (texturized), as the plugin writes SUMMARY',
    );
    assert.is(jazz.getFirstProperty('dtstart')!.getParameter('tzid'), 'Europe/Paris');
    assert.is(jazz.getFirstPropertyValue('dtstart')!.toString(), '2026-03-10T21:00:00');
    assert.is(e.endDate.toString(), '2026-03-10T23:30:00');
    assert.match(String(e.description), /^A long description, .*with markup & entities\.$/);
    assert.is(e.location, 'Le Duc des Lombards, 42 rue des Lombards, Paris, France');
    assert.equal(jazz.getFirstPropertyValue('geo'), [48.8594, 2.3484]);
    assert.equal(jazz.getFirstProperty('categories')!.getValues(), ['Jazz']);
    const org = jazz.getFirstProperty('organizer')!;
    assert.equal([org.getParameter('cn'), org.getFirstValue()], ['Night Owls', 'MAILTO:owls@example.org']);
    assert.is(jazz.getFirstPropertyValue('url'), ev.url);
    assert.match(String(jazz.getFirstPropertyValue('uid')), new RegExp(`^${ev.id as number}-\\d+-\\d+@example\\.com$`));
    assert.ok(
      jazz.getFirstPropertyValue('dtstamp') &&
        jazz.getFirstPropertyValue('created') &&
        jazz.getFirstPropertyValue('last-modified'),
    );
    const dayStart = market.getFirstPropertyValue('dtstart') as ICAL.Time;
    assert.equal(
      [dayStart.isDate, dayStart.toString(), (market.getFirstPropertyValue('dtend') as ICAL.Time).toString()],
      [true, '2026-03-12', '2026-03-14'],
      'all day: dates, DTEND the day after',
    );
    assert.is(new ICAL.Event(market).summary, day.title);
    // the text itself
    assert.ok(text.endsWith('END:VCALENDAR\r\n'));
    for (const line of text.split('\r\n')) {
      assert.ok(Buffer.byteLength(line) <= 75, `folded at 75 octets: ${line}`);
      assert.not.ok(line.includes('\n'), 'CRLF only');
    }
    await cal.close();
  },
);

ical("over HTTP at the plugin's URLs: the archive with list filters, and one event", async () => {
  const t = await startTestServer({ timezone: 'Europe/Paris' });
  for (const [title, start] of [
    ['Early', '2030-02-01 10:00:00'],
    ['Later', '2030-05-01 10:00:00'],
  ]) {
    await t.call('/events', {
      as: 'editor',
      json: { title, start_date: start, end_date: start.replace('10:', '11:') },
    });
  }
  const all = await request(t.url, '/events/?ical=1&start_date=2030-01-01&end_date=2030-12-31');
  assert.is(all.status, 200);
  assert.match(String(all.headers['content-type']), /^text\/calendar/);
  const summaries = (s: string) =>
    new ICAL.Component(ICAL.parse(s) as unknown[])
      .getAllSubcomponents('vevent')
      .map((v) => v.getFirstPropertyValue('summary'));
  assert.equal(summaries(all.text), ['Early', 'Later']);
  const filtered = await request(t.url, '/events/?ical=1&start_date=2030-04-01&end_date=2030-12-31');
  assert.equal(summaries(filtered.text), ['Later'], 'the list filters apply');
  const one = await request(t.url, '/event/early/?ical=1');
  assert.equal([one.status, summaries(one.text)], [200, ['Early']]);
  const missing = await request(t.url, '/event/nope/?ical=1');
  assert.is(missing.status, 404);
  const bad = await request(t.url, '/events/?ical=1&start_date=not-a-date');
  assert.is(bad.status, 400);
  await t.close();
});

ical.run();
