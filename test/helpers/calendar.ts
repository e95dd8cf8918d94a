// Builders shared by api tests: a memory-only calendar on a fixed clock, users of every role.
import { suite, type Test } from 'uvu';
import * as assert from 'uvu/assert';
import { openCalendar, type Calendar, type CalendarOptions } from '../../src/calendar.ts';
import { CalendarError } from '../../src/api/wordpress/errors.ts';
import type { Actor, Params, Resource, Role, User } from '../../src/api/wordpress/types.ts';
import { UserRegistry } from '../../src/users/registry.ts';

/** 2026-03-04 15:00:00 UTC, a Wednesday (10:00 in New York). */
export const NOW = new Date(Date.UTC(2026, 2, 4, 15, 0, 0));

export interface TestCalendar {
  cal: Calendar;
  users: Record<Role, User>;
}

let shared: { registry: UserRegistry; users: Record<Role, User> } | undefined;

/** One user of every role, hashed once for the whole run (scrypt is deliberately slow). */
function sharedUsers(): { registry: UserRegistry; users: Record<Role, User> } {
  if (shared) return shared;
  const registry = UserRegistry.open();
  const users = {} as Record<Role, User>;
  for (const role of ['administrator', 'editor', 'author', 'contributor', 'subscriber'] as const) {
    users[role] = registry.add(role === 'administrator' ? 'boss' : role, role).user;
  }
  return (shared = { registry, users });
}

export async function makeCalendar(opts: CalendarOptions = {}): Promise<TestCalendar> {
  const { registry, users } = sharedUsers();
  const cal = await openCalendar({ now: () => NOW, siteUrl: 'http://example.com', users: registry, ...opts });
  return { cal, users };
}

/** A suite whose every test gets a fresh calendar (`opts`) as its context, closed after it. */
export function calendarSuite(name: string, opts: CalendarOptions = {}): Test<TestCalendar> {
  const s = suite<TestCalendar>(name);
  s.before.each(async (ctx) => {
    Object.assign(ctx, await makeCalendar(opts));
  });
  s.after.each(async ({ cal }) => {
    await cal.close();
  });
  return s;
}

/** Await a call that must fail with this REST code and status. */
export async function rejects(promise: Promise<unknown>, code: string, status: number): Promise<CalendarError> {
  try {
    await promise;
  } catch (e) {
    assert.instance(e, CalendarError, `~> expected CalendarError ${code}, got ${String(e)}`);
    const err = e as CalendarError;
    assert.is(err.code, code, `~> code (message: ${err.message})`);
    assert.is(err.status, status, '~> status');
    return err;
  }
  assert.unreachable(`~> expected ${code} (${status}) but the call succeeded`);
  throw new Error('unreachable');
}

export const baseEvent = { title: 'An event', start_date: '2026-03-05 09:00:00', end_date: '2026-03-05 11:00:00' };

/** Ids of a list page of the embedding API, in order. */
export const ids = (page: { items: Array<Record<string, unknown>> }): number[] => page.items.map((e) => e.id as number);

export interface RawList {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** A REST list answer as the server sends it: status, headers and the parsed body. */
export async function restList(
  cal: Calendar,
  resource: Resource,
  params: Params,
  actor: Actor = null,
): Promise<RawList> {
  const res = await cal.rest({ resource, action: 'list', params, actor });
  return { status: res.status, headers: res.headers, body: JSON.parse(res.body) as Record<string, unknown> };
}

/** The plugin's empty archive: 200, `key: []`, totals 0 in body and headers, no next/previous links. */
export function assertEmptyArchive(r: RawList, key: string): void {
  assert.is(r.status, 200);
  assert.equal(r.body[key], []);
  assert.equal([r.body.total, r.body.total_pages], [0, 0]);
  assert.equal(r.headers, { 'X-TEC-Total': '0', 'X-TEC-TotalPages': '0' });
  assert.not.ok('next_rest_url' in r.body, 'no next_rest_url');
  assert.not.ok('previous_rest_url' in r.body, 'no previous_rest_url');
}
