// The connection of a cluster node (or of the command line) to the NATS servers.
import { connect, credsAuthenticator, type ConnectionOptions, type NatsConnection } from '@nats-io/transport-node';
import { fail } from '../api/wordpress/errors.ts';
import { sleep } from './forward.ts';

/** What calendar `name` is called in NATS: its stream and subjects, and its buckets. */
export function natsNames(name: string) {
  return {
    stream: `CAL_${name}`,
    log: `calendar.${name}.log`,
    write: `calendar.${name}.write`,
    lease: `CAL_${name}_lease`,
    snapshots: `CAL_${name}_snap`,
    users: `CAL_${name}_users`,
    webhooks: `CAL_${name}_webhooks`,
    media: `CAL_${name}_media`,
  };
}

/** Which NATS servers, which calendar, and how to connect. */
export interface ClusterConnection {
  /** NATS server URLs (nats://host:port), an array or comma-separated */
  servers: string | string[];
  /** the calendar's name: names its stream, lease bucket and snapshot store ([A-Za-z0-9_-]) */
  name: string;
  /** replicas of the stream, buckets and object store (default 3; 1 for a single NATS server) */
  replicas?: number;
  /** how long to wait for JetStream at start, ms (default 30,000) */
  connectTimeoutMs?: number;
  /** the content of a NATS credentials file (.creds: a user JWT and its NKey seed) */
  creds?: string;
  /** more options of the NATS connection (credentials: user/pass, token, authenticator; tls; ...) */
  nats?: Partial<ConnectionOptions>;
}

/**
 * A connection to the servers of `opts`, retried until `until` while they are unreachable
 * (starting together with them); refused credentials or TLS fail at once: retrying cannot help.
 */
export async function connectNats(opts: ClusterConnection, until: number): Promise<NatsConnection> {
  const servers =
    typeof opts.servers === 'string'
      ? opts.servers
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : opts.servers;
  if (!Array.isArray(servers) || servers.length === 0)
    throw fail('invalid_option', ['cluster.servers: expected one or more nats:// URLs']);
  const auth = opts.creds ? { authenticator: credsAuthenticator(new TextEncoder().encode(opts.creds)) } : {};
  return retry(
    until,
    () =>
      connect({
        name: `calendar-${opts.name}`,
        maxReconnectAttempts: -1,
        reconnectTimeWait: 250,
        ...auth,
        ...opts.nats,
        servers,
      }),
    isRefused,
  );
}

/** An error of credentials or TLS (as opposed to a server not there yet). */
function isRefused(err: unknown): boolean {
  const e = err as Error & { code?: unknown };
  return /authori[sz]ation|authentication|permission|tls|ssl|certificate|self[- ]signed/i.test(
    `${e.name} ${e.message} ${String(e.code ?? '')}`,
  );
}

/** `fn` until it succeeds, every 250 ms until `until` (or at once when `fatal` says so). */
export async function retry<T>(
  until: number,
  fn: () => Promise<T>,
  fatal: (err: unknown) => boolean = () => false,
): Promise<T> {
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (fatal(err))
        throw new Error(`cluster: NATS refused the connection: ${(err as Error).message}`, { cause: err });
      if (Date.now() > until)
        throw new Error(`cluster: NATS JetStream not available: ${(err as Error).message}`, { cause: err });
      await sleep(250);
    }
  }
}
