import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { demoCalendar, readDemoFile, shiftDate, weeksToShift } from '../../src/cli/seed.ts';

const DAY = 86_400_000;
const dayOf = (ymd: string) => Date.parse(ymd.slice(0, 10) + 'T00:00:00Z');
const weekday = (ymd: string) => new Date(dayOf(ymd)).getUTCDay();

const shift = suite('cli :: seed shift');

shift('shiftDate moves whole days and keeps the clock time', () => {
  assert.is(shiftDate('2026-01-05 19:30:00', 7), '2026-01-12 19:30:00');
  assert.is(shiftDate('2026-12-28 00:00:00', 14), '2027-01-11 00:00:00');
  assert.is(shiftDate('2024-03-04 23:59:59', -7), '2024-02-26 23:59:59');
  assert.is(shiftDate('2026-01-05', 7), '2026-01-12');
  assert.throws(() => shiftDate('05/01/2026', 7), /expected 'Y-m-d H:i:s'/);
});

shift('weeksToShift: whole weeks from the base Monday to the week of now', () => {
  assert.is(weeksToShift('2026-01-05', new Date('2026-01-05T00:00:00Z')), 0);
  assert.is(weeksToShift('2026-01-05', new Date('2026-01-11T23:59:59Z')), 0, '~> Sunday is still the base week');
  assert.is(weeksToShift('2026-01-05', new Date('2026-01-12T00:00:00Z')), 1);
  assert.is(weeksToShift('2026-01-05', new Date('2025-12-31T12:00:00Z')), -1);
  assert.is(weeksToShift('2026-01-05', new Date('2027-01-06T12:00:00Z')), 52);
});

shift.run();

// ---

const demo = suite('cli :: demo calendar');

demo('the file is a realistic demo calendar', () => {
  const file = readDemoFile();
  assert.is(new Date(dayOf(file.base_date)).getUTCDay(), 1, '~> base_date is a Monday');
  assert.ok(file.events.length >= 200 && file.events.length <= 600, `${file.events.length} events`);
  assert.ok(file.venues.length >= 12, 'venues');
  assert.ok(file.organizers.length >= 8, 'organizers');
  assert.ok(file.tags.length >= 12, 'tags');
  assert.ok(
    file.venues.every(
      (v) => typeof v.geo_lat === 'number' && typeof v.geo_lng === 'number' && v.address && v.city && v.country,
    ),
  );
  assert.ok(
    file.categories.some((c) => c.parent !== 0),
    'nested categories',
  );
  assert.ok(
    file.events.some((e) => e.all_day),
    'all-day events',
  );
  assert.ok(
    file.events.some((e) => !e.all_day && e.start_date.slice(0, 10) !== e.end_date.slice(0, 10)),
    'multi-day timed events',
  );
  assert.ok(
    file.events.some((e) => e.featured),
    'featured',
  );
  assert.ok(
    file.events.some((e) => e.status === 'draft'),
    'drafts',
  );
  assert.ok(new Set(file.events.map((e) => e.timezone)).size >= 5, 'several time zones');
  // post ids share one space, term ids another; references resolve
  const posts = [...file.venues, ...file.organizers, ...file.events].map((r) => r.id);
  assert.is(new Set(posts).size, posts.length);
  const terms = [...file.categories, ...file.tags].map((t) => t.id);
  assert.is(new Set(terms).size, terms.length);
  const venueIds = new Set(file.venues.map((v) => v.id));
  const organizerIds = new Set(file.organizers.map((o) => o.id));
  const categoryIds = new Set(file.categories.map((c) => c.id));
  const tagIds = new Set(file.tags.map((t) => t.id));
  for (const e of file.events) {
    assert.ok(e.venue === 0 || venueIds.has(e.venue), `event ${e.id} venue`);
    assert.ok(
      e.organizer.every((id) => organizerIds.has(id)),
      `event ${e.id} organizer`,
    );
    assert.ok(
      e.categories.every((id) => categoryIds.has(id)) && e.tags.every((id) => tagIds.has(id)),
      `event ${e.id} terms`,
    );
    assert.ok(e.end_date >= e.start_date, `event ${e.id} ends after it starts`);
  }
});

demo('demoCalendar(now) starts in the week of now, keeps weekdays, shifts publication dates too', () => {
  const file = readDemoFile();
  for (const now of [
    new Date('2026-11-22T04:30:00Z'),
    new Date('2031-02-14T12:00:00Z'),
    new Date(file.base_date + 'T10:00:00Z'),
  ]) {
    const data = demoCalendar(now);
    const shiftDays = (dayOf(data.events[0].start_date) - dayOf(file.events[0].start_date)) / DAY;
    assert.is(shiftDays % 7, 0);
    const first = Math.min(...data.events.map((e) => dayOf(e.start_date)));
    const monday = dayOf(now.toISOString()) - ((now.getUTCDay() + 6) % 7) * DAY;
    assert.ok(
      first >= monday && first < monday + 7 * DAY,
      `~> first event ${new Date(first).toISOString()} in the week of ${now.toISOString()}`,
    );
    file.events.forEach((e, i) => {
      const s = data.events[i];
      assert.is(s.id, e.id);
      assert.is(s.start_date.slice(11), e.start_date.slice(11));
      assert.is(weekday(s.start_date), weekday(e.start_date));
      assert.is((dayOf(s.end_date) - dayOf(e.end_date)) / DAY, shiftDays);
      assert.is((dayOf(s.date) - dayOf(e.date)) / DAY, shiftDays);
      assert.ok(dayOf(s.date) < monday, '~> published before the calendar starts');
    });
    assert.is((dayOf(data.venues[0].date) - dayOf(file.venues[0].date)) / DAY, shiftDays);
  }
});

demo('demoCalendar returns fresh copies', () => {
  const a = demoCalendar(new Date());
  a.events[0].categories.push(999);
  a.events[0].title = 'changed';
  const b = demoCalendar(new Date());
  assert.not.ok(b.events[0].categories.includes(999));
  assert.is.not(b.events[0].title, 'changed');
});

demo.run();
