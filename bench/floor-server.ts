// The floor of the HTTP benchmarks (bench:http, bench:site): a bare node:http server answering,
// for each path, the very bytes and headers the calendar answered (captured once beforehand).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the calendar answered for one path. */
export interface Captured {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export function capture(url: string): Promise<Captured> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) {
            if (k !== 'date' && k !== 'connection' && k !== 'keep-alive' && typeof v === 'string') headers[k] = v;
          }
          resolve({ status: res.statusCode!, headers, body: Buffer.concat(chunks) });
        });
      })
      .on('error', reject);
  });
}

/** The floor: a bare node:http server answering the captured bytes for each path. */
export async function startFloor(answers: Map<string, Captured>): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer({ keepAliveTimeout: 5_000 }, (req, res) => {
    const a = answers.get(req.url ?? '');
    if (!a) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(a.status, a.headers);
    res.end(a.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}
