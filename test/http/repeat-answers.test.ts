// Answers sent again without asking the calendar (src/http/repeat-answers.ts): the unit's rules,
// then a real calendar behind the real server, where a repeated answer must be byte for byte the
// answer the whole path gives, and never outlive a write, the second it was planned in, or the
// caller it was made for.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { IncomingMessage } from 'node:http';
import { openCalendar, type Calendar } from '../../src/calendar.ts';
import { startServer, type RunningServer } from '../../src/http/server.ts';
import { RepeatAnswers } from '../../src/http/repeat-answers.ts';
import { request, type Res } from './request.ts';

const U = suite('http :: repeat answers (unit)');

/** a page whose currency the test sets */
function page(): { status: number; current(): boolean; stale: boolean } {
  return {
    status: 200,
    stale: false,
    current() {
      return !this.stale;
    },
  };
}

const req = (method: string, headers: Record<string, string> = {}) => ({ method, headers }) as IncomingMessage;

U('only anonymous plain GETs are eligible', () => {
  assert.ok(RepeatAnswers.eligible(req('GET')));
  assert.not.ok(RepeatAnswers.eligible(req('HEAD')));
  assert.not.ok(RepeatAnswers.eligible(req('POST')));
  for (const h of ['authorization', 'origin', 'x-calendar-min-seq', 'x-http-method-override'])
    assert.not.ok(RepeatAnswers.eligible(req('GET', { [h]: 'x' })), h);
});

U('an answer is repeated within its second, for its seq, while its page is current', () => {
  let t = 1_000_000_500;
  let seq = 7;
  const r = new RepeatAnswers(
    () => new Date(t),
    () => seq,
  );
  const p = page();
  const body = Buffer.from('{"events":[]}');
  r.remember('/a', r.second(), p, { 'X-WP-Total': '0' }, body);
  assert.is(r.get('/a')?.body, body);
  assert.is(r.get('/b'), undefined);
  t += 499; // the same second
  assert.ok(r.get('/a'));
  t += 1; // the next one
  assert.is(r.get('/a'), undefined);
  // forgotten: even back in its second it is not repeated
  t -= 1;
  assert.is(r.get('/a'), undefined);

  r.remember('/a', r.second(), p, {}, body);
  seq = 8;
  assert.is(r.get('/a'), undefined, 'a new seq');
  seq = 7;
  r.remember('/a', r.second(), p, {}, body);
  p.stale = true;
  assert.is(r.get('/a'), undefined, 'a page no longer current');
});

U('an answer planned in an earlier second, or already stale, is not remembered', () => {
  let t = 2_000_000_999;
  const r = new RepeatAnswers(
    () => new Date(t),
    () => undefined,
  );
  const planned = r.second();
  t += 1;
  r.remember('/a', planned, page(), {}, Buffer.from('x'));
  assert.is(r.get('/a'), undefined);
  const p = page();
  p.stale = true;
  r.remember('/b', r.second(), p, {}, Buffer.from('x'));
  assert.is(r.get('/b'), undefined);
});

U('past its bytes the map is emptied', () => {
  const r = new RepeatAnswers(
    () => new Date(0),
    () => 1,
    10,
  );
  r.remember('/a', 0, page(), {}, Buffer.alloc(6));
  r.remember('/b', 0, page(), {}, Buffer.alloc(3));
  assert.ok(r.get('/a') && r.get('/b'));
  r.remember('/c', 0, page(), {}, Buffer.alloc(3)); // 12 > 10
  assert.is(r.get('/a'), undefined);
  assert.is(r.get('/b'), undefined);
  assert.ok(r.get('/c'));
  r.remember('/c', 0, page(), {}, Buffer.alloc(8)); // the same target again replaces its bytes
  assert.ok(r.get('/c'));
});

U.run();

// ------------------------------------------------------------------------------------------------

interface Ctx {
  cal: Calendar;
  srv: RunningServer;
  clock: { t: number };
  admin: [string, string];
}

const H = suite<Ctx>('http :: repeat answers over a socket', {} as Ctx);
const NS = '/wp-json/tribe/events/v1';

H.before.each(async (ctx) => {
  ctx.clock = { t: Date.parse('2030-01-15T23:59:59.200Z') };
  ctx.cal = await openCalendar({ now: () => new Date(ctx.clock.t), siteUrl: 'http://example.test', timezone: 'UTC' });
  ctx.admin = ['boss', ctx.cal.users.add('boss', 'administrator').password];
  for (let i = 0; i < 3; i++) {
    await ctx.cal.events.create({
      title: `Talk ${i}`,
      status: i === 2 ? 'draft' : 'publish',
      start_date: `2030-01-${16 + i} 10:00:00`,
      end_date: `2030-01-${16 + i} 11:00:00`,
    });
  }
  ctx.srv = await startServer(ctx.cal, { port: 0, log: () => {} });
});
H.after.each(async (ctx) => {
  await ctx.srv.close();
  await ctx.cal.close();
});

/** what a client sees of an answer, the headers that vary by connection aside */
const seen = (r: Res) => {
  const { date, connection, 'keep-alive': _k, ...headers } = r.headers;
  return { status: r.status, headers, text: r.text };
};

H('a list asked again and again gets the whole path’s answer each time', async ({ srv }) => {
  const path = `${NS}/events?per_page=2`;
  const answers: Res[] = [];
  for (let i = 0; i < 6; i++) answers.push(await request(srv.url, path));
  assert.is(answers[0].json.total, 2);
  for (const a of answers.slice(1)) assert.equal(seen(a), seen(answers[0]));
});

H('a write is seen by the next list', async ({ srv, cal }) => {
  const path = `${NS}/events`;
  for (let i = 0; i < 5; i++) assert.is((await request(srv.url, path)).json.total, 2);
  await cal.events.create({ title: 'Late', start_date: '2030-01-20 10:00:00', end_date: '2030-01-20 11:00:00' });
  const after = await request(srv.url, path);
  assert.is(after.json.total, 3);
  assert.is(after.headers['x-tec-total'], '3');
});

H('the next second plans the list again: the default window moves at midnight', async ({ srv, clock }) => {
  const path = `${NS}/events`;
  let before: Res | undefined;
  for (let i = 0; i < 5; i++) before = await request(srv.url, path);
  assert.match(before!.json.rest_url, /start_date=2030-01-14/);
  clock.t += 1000; // 2030-01-16 00:00:00.200: "yesterday 23:59" is now the 15th
  const after = await request(srv.url, path);
  assert.match(after.json.rest_url, /start_date=2030-01-15/);
  assert.is.not(after.text, before!.text);
});

H('within its second a repeated answer is the answer planned now, to the millisecond', async (ctx) => {
  const { srv, cal, clock } = ctx;
  clock.t = Date.parse('2030-01-15T23:59:59.000Z');
  // starts on the very second: a bound that kept the clock's milliseconds would drop it at .999
  await cal.events.create({ title: 'On the dot', start_date: '2030-01-15 23:59:59', end_date: '2030-01-16 00:30:00' });
  const query = 'strict_dates=1&start_date=now';
  const path = `${NS}/events?${query}`;
  for (let i = 0; i < 4; i++) await request(srv.url, path);
  clock.t += 999;
  const repeated = await request(srv.url, path);
  const fresh = await cal.rest({
    resource: 'events',
    action: 'list',
    params: Object.fromEntries(new URLSearchParams(query)),
    actor: null,
  });
  assert.is(repeated.text, fresh.body);
  assert.is(repeated.json.total, 3);
});

H('a caller with credentials or an Origin gets its own answer', async ({ srv, admin }) => {
  const path = `${NS}/events`;
  for (let i = 0; i < 5; i++) assert.is((await request(srv.url, path)).json.total, 2);
  const asAdmin = await request(srv.url, path, { auth: admin });
  assert.is(asAdmin.json.total, 3, 'the draft is listed for an administrator');
  const cors = await request(srv.url, path, { headers: { origin: 'http://app.test' } });
  assert.is(cors.headers['access-control-allow-origin'], 'http://app.test');
  assert.is(cors.json.total, 2);
  const head = await request(srv.url, path, { method: 'HEAD' });
  assert.is(head.status, 200);
  assert.is(head.text, '');
});

H('venue lists: kept whole and repeated, fresh after a write and once an event has started', async (ctx) => {
  const { srv, cal, clock } = ctx;
  const hall = await cal.venues.create({ venue: 'Hall', status: 'publish' });
  const barn = await cal.venues.create({ venue: 'Barn', status: 'publish' });
  await cal.events.create({
    title: 'At the hall',
    start_date: '2030-01-16 10:00:00',
    end_date: '2030-01-16 11:00:00',
    venue: hall.id,
  });
  const upcoming = `${NS}/venues?only_with_upcoming=1`;
  const all = `${NS}/venues`;
  const first = await request(srv.url, all);
  for (let i = 0; i < 5; i++) {
    assert.equal(seen(await request(srv.url, all)), seen(first));
    assert.equal(
      (await request(srv.url, upcoming)).json.venues.map((v: { venue: string }) => v.venue),
      ['Hall'],
    );
  }
  assert.is(first.json.total, 2);
  await cal.venues.update(barn.id as number, { venue: 'Big barn' });
  const renamed = await request(srv.url, all);
  assert.ok(renamed.json.venues.some((v: { venue: string }) => v.venue === 'Big barn'));
  // kept again since the write, then the event starts: the hall has no upcoming event any more
  for (let i = 0; i < 3; i++) assert.is((await request(srv.url, upcoming)).json.total, 1);
  clock.t = Date.parse('2030-01-16T10:00:01Z');
  assert.is((await request(srv.url, upcoming)).json.total, 0);
  // an administrator asking for drafts gets its own page
  const draft = await cal.venues.create({ venue: 'Shed', status: 'draft' });
  for (let i = 0; i < 3; i++) assert.is((await request(srv.url, all)).json.total, 2);
  const asAdmin = await request(srv.url, `${all}?status=draft`, { auth: ctx.admin });
  assert.ok(asAdmin.json.venues.some((v: { id: number }) => v.id === draft.id));
});

H.run();
