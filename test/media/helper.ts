// A real calendar behind the real HTTP server for the media tests (memory only, or on a data
// folder), one user of every role, and images made with sharp: nothing read from disk; the files
// below a folder, to see what a write left.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import sharp from 'sharp';
import { openCalendar, type Calendar, type CalendarOptions } from '../../src/calendar.ts';
import { startServer, type RunningServer } from '../../src/http/server.ts';
import { ROLES, type Role } from '../../src/api/wordpress/types.ts';
import { request, type Res } from '../http/request.ts';

export const NOW = new Date('2030-01-15T12:00:00Z');

export interface MediaServer {
  cal: Calendar;
  srv: RunningServer;
  url: string;
  passwords: Record<Role, string>;
  ids: Record<Role, number>;
  /** a request to {url}{path}, as a role when given */
  call(
    path: string,
    opts?: { method?: string; as?: Role; body?: string | Buffer; headers?: Record<string, string>; json?: unknown },
  ): Promise<Res>;
  /** POST /wp-json/wp/v2/media with a raw body */
  upload(data: Buffer, filename: string, as?: Role, type?: string, query?: string): Promise<Res>;
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

export async function startMediaServer(opts: CalendarOptions = {}): Promise<MediaServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const cal = await openCalendar({ now: () => NOW, siteUrl: url, ...opts });
  const srv = await startServer(cal, { port, log: () => {} });
  const passwords = {} as Record<Role, string>;
  const ids = {} as Record<Role, number>;
  for (const role of ROLES) {
    const existing = cal.users.byLogin(role);
    const { user, password } = existing
      ? { user: existing, password: cal.users.reset(role) }
      : cal.users.add(role, role);
    passwords[role] = password;
    ids[role] = user.id;
  }
  const call: MediaServer['call'] = (path, o = {}) => {
    const headers: Record<string, string> = { ...o.headers };
    let body = o.body;
    if (o.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(o.json);
    }
    return request(url, path, { method: o.method, headers, body, auth: o.as ? [o.as, passwords[o.as]] : undefined });
  };
  return {
    cal,
    srv,
    url,
    passwords,
    ids,
    call,
    upload: (data, filename, as = 'author', type = 'image/jpeg', query = '') =>
      call(`/wp-json/wp/v2/media${query}`, {
        method: 'POST',
        as,
        body: data,
        headers: { 'content-type': type, 'content-disposition': `attachment; filename="${filename}"` },
      }),
    async close() {
      await srv.close();
      await cal.close();
    },
  };
}

/** A w×h image of a colour gradient (so that sizes differ in bytes), in the given format. */
export async function makeImage(
  w: number,
  h: number,
  format: 'jpeg' | 'png' | 'gif' | 'webp' = 'jpeg',
): Promise<Buffer> {
  const raw = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 3;
      raw[i] = (x * 255) / w;
      raw[i + 1] = (y * 255) / h;
      raw[i + 2] = ((x + y) * 7) & 255;
    }
  }
  const img = sharp(raw, { raw: { width: w, height: h, channels: 3 } });
  return (
    format === 'jpeg' ? img.jpeg() : format === 'png' ? img.png() : format === 'gif' ? img.gif() : img.webp()
  ).toBuffer();
}

/** A multipart/form-data body: the fields, then the file as `file`. */
export function multipart(
  fields: Record<string, string>,
  file?: { name: string; type: string; data: Buffer },
): { body: Buffer; type: string } {
  const boundary = '----media-test-boundary-7f3a';
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
    );
    parts.push(file.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}

/** every file below dir, relative */
export function filesBelow(dir: string): string[] {
  const out: string[] = [];
  const visit = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) visit(p);
      else out.push(path.relative(dir, p));
    }
  };
  if (fs.existsSync(dir)) visit(dir);
  return out.sort();
}
