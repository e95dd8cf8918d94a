// A small node:http client for HTTP tests: raw status, headers and body text, no redirects,
// no body parsing, keep-alive off. `json` is the parsed body when it parses.
import http from 'node:http';

export interface Res {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: any;
}

export function request(
  base: string,
  path: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer; auth?: [string, string] } = {},
): Promise<Res> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.auth) headers.authorization = 'Basic ' + Buffer.from(`${opts.auth[0]}:${opts.auth[1]}`).toString('base64');
  if (opts.body !== undefined && headers['content-length'] === undefined)
    headers['content-length'] = String(Buffer.byteLength(opts.body));
  return new Promise((resolve, reject) => {
    const req = http.request(base + path, { method: opts.method ?? 'GET', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

export const form = (o: Record<string, string>) => new URLSearchParams(o).toString();
export const JSON_HEADERS = { 'content-type': 'application/json' };
export const FORM_HEADERS = { 'content-type': 'application/x-www-form-urlencoded' };
