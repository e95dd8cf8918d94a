// A stand-in for the calendar's REST surface in unit tests of the HTTP shell: rest() records
// each call and answers with it, so tests can see exactly what the router handed over.
// `params.throw = code` makes it throw that CalendarError, `params.crash` a plain Error.
import { CalendarError } from '../../src/api/wordpress/errors.ts';
import type { RestCall, RestResult, SiteConfig } from '../../src/api/wordpress/types.ts';
import { UserRegistry } from '../../src/users/registry.ts';

export interface FakeCalendar {
  site: SiteConfig;
  users: UserRegistry;
  calls: RestCall[];
  rest(call: RestCall): Promise<RestResult>;
  /** ms rest() waits before answering (for drain tests) */
  delayMs: number;
}

export function fakeCalendar(site: Partial<SiteConfig> = {}): FakeCalendar {
  const cal: FakeCalendar = {
    site: {
      timezone: 'America/New_York',
      perPage: 12,
      siteUrl: 'http://example.test',
      restPrefix: '/wp-json',
      now: () => new Date('2030-01-15T12:00:00Z'),
      ...site,
    },
    users: UserRegistry.open(),
    calls: [],
    delayMs: 0,
    async rest(call): Promise<RestResult> {
      cal.calls.push(call);
      if (cal.delayMs > 0) await new Promise((r) => setTimeout(r, cal.delayMs));
      if (typeof call.params.throw === 'string') {
        throw new CalendarError(call.params.throw, Number(call.params.status ?? 400), 'thrown on request', {
          params: ['x'],
        });
      }
      if (call.params.crash !== undefined) throw new Error('secret-internal-detail');
      if (call.action === 'list') {
        const items = [
          { id: 1, title: 'One', slug: 'one' },
          { id: 2, title: 'Two', slug: 'two' },
        ];
        return {
          status: 200,
          headers: { 'X-TEC-Total': '2', 'X-TEC-TotalPages': '1' },
          body: JSON.stringify({
            [call.resource]: items,
            rest_url: `${cal.site.siteUrl}/x/`,
            total: 2,
            total_pages: 1,
          }),
        };
      }
      return {
        status: call.action === 'create' ? 201 : 200,
        headers: {},
        body: JSON.stringify({
          resource: call.resource,
          action: call.action,
          target: call.target ?? null,
          params: call.params,
          actor: call.actor,
        }),
      };
    },
  };
  return cal;
}
