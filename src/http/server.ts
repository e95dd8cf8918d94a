// The HTTP server: node:http + the listener of adapter.ts. startServer listens and hands back
// a close() that stops accepting, lets in-flight requests finish, and resolves.

import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createListener, type Listener, type ListenerOptions } from './adapter.ts';
import type { RestService } from './routes.ts';
import { fail } from '../api/wordpress/errors.ts';

export type { RestService } from './routes.ts';

export interface ServerOptions extends ListenerOptions {
  /** default 127.0.0.1 */
  host?: string;
  /** default 8080; 0 picks a free port */
  port?: number;
}

export interface RunningServer {
  server: http.Server;
  /** e.g. http://127.0.0.1:8080 */
  url: string;
  /** Stops accepting, finishes in-flight requests, closes idle keep-alive connections, then resolves. */
  close(): Promise<void>;
}

/** The (req, res) listener for `cal`, for embedding in an existing node:http server. */
export function createRequestListener(cal: RestService, opts: ListenerOptions = {}): Listener {
  return createListener(cal, opts);
}

/** How long close() waits for in-flight requests before cutting their connections. */
const DRAIN_MS = 10_000;

export async function startServer(cal: RestService, opts: ServerOptions = {}): Promise<RunningServer> {
  const listener = createListener(cal, opts);
  const server = http.createServer({ keepAliveTimeout: 5_000 }, listener);
  // A request line or header the parser rejects: answer in WordPress's error shape, not a crash.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || err.code === 'ECONNRESET') return void socket.destroy();
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const body = JSON.stringify(fail('rest_bad_request', [], {}, { status }).toJSON());
    socket.end(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=UTF-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });

  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 8080, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= new Promise<void>((resolve) => {
      listener.closing = true;
      listener.endStreams();
      const timer = setTimeout(() => server.closeAllConnections(), DRAIN_MS);
      timer.unref();
      server.close(() => {
        clearTimeout(timer);
        resolve();
      });
      server.closeIdleConnections();
    }));

  return { server, url, close };
}
