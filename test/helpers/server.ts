// Starts the real calendar (memory only, fixed clock) behind the real HTTP server on a free
// loopback port, with one user of every role created through cal.users.add (the CLI's path).
// siteUrl is the server's own URL, so every link in a response can be followed.
import net from 'node:net';
import { openCalendar, type Calendar } from '../../src/calendar.ts';
import { startServer, type RunningServer } from '../../src/http/server.ts';
import { ROLES, type Role } from '../../src/api/wordpress/types.ts';
import { request, type Res } from '../http/request.ts';

export const NOW = new Date('2030-01-15T12:00:00Z');

export interface TestServer {
  cal: Calendar;
  srv: RunningServer;
  url: string;
  /** {url}/wp-json/tribe/events/v1 */
  root: string;
  /** application passwords by role; each role's login is its own name */
  passwords: Record<Role, string>;
  ids: Record<Role, number>;
  /** request relative to root, optionally as a role */
  call(
    path: string,
    opts?: { method?: string; as?: Role; json?: unknown; form?: string; headers?: Record<string, string> },
  ): Promise<Res>;
  close(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export async function startTestServer(
  opts: { perPage?: number; timezone?: string; changesRetainCount?: number; heartbeatMs?: number } = {},
): Promise<TestServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const cal = await openCalendar({
    now: () => NOW,
    siteUrl: url,
    perPage: opts.perPage ?? 12,
    timezone: opts.timezone ?? 'UTC',
    changesRetainCount: opts.changesRetainCount,
  });
  const srv = await startServer(cal, { port, log: () => {}, heartbeatMs: opts.heartbeatMs });
  const passwords = {} as Record<Role, string>;
  const ids = {} as Record<Role, number>;
  for (const role of ROLES) {
    const { user, password } = cal.users.add(role, role);
    passwords[role] = password;
    ids[role] = user.id;
  }
  const root = `${url}/wp-json/tribe/events/v1`;
  return {
    cal,
    srv,
    url,
    root,
    passwords,
    ids,
    call(path, o = {}) {
      const headers: Record<string, string> = { ...o.headers };
      let body: string | undefined;
      if (o.json !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(o.json);
      } else if (o.form !== undefined) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        body = o.form;
      }
      return request(url, `/wp-json/tribe/events/v1${path}`, {
        method: o.method ?? (body === undefined ? 'GET' : 'POST'),
        headers,
        body,
        auth: o.as ? [o.as, passwords[o.as]] : undefined,
      });
    },
    async close() {
      await srv.close();
      await cal.close();
    },
  };
}

/** "Y-m-d H:i:s" of NOW + days (UTC site). */
export function day(days: number, hour = 10): string {
  const d = new Date(NOW.getTime() + days * 86_400_000);
  return `${d.toISOString().slice(0, 10)} ${String(hour).padStart(2, '0')}:00:00`;
}
