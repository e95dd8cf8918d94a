// calendar-engine serve: options (over env, over defaults), open the store, seed the demo calendar
// into an empty one, listen, and on SIGINT/SIGTERM drain, snapshot (when a write came since the
// last one) and exit 0.
import net from 'node:net'; // static: the single executable (CommonJS) cannot import() at run time
import path from 'node:path';
import v8 from 'node:v8';
import { optionValue, parseArgsOptions, usageLines } from '../options/options.ts';
import { OptionProblem, type Retention } from '../options/row.ts';
import { UserError } from '../users/records.ts';
import { isStorageError } from '../store/faults.ts';
import {
  CliError,
  EXIT_OK,
  EXIT_USAGE,
  dataDir,
  openStore,
  parseCommand,
  seconds,
  showPath,
  type CliIo,
} from './common.ts';
import {
  CLUSTER_USAGE,
  checkName,
  pick,
  resolveClusterTarget,
  writeClusterMarker,
  type ClusterTarget,
} from './cluster-options.ts';
import { demoCalendar } from './seed.ts';
import type { AuthOptions } from '../http/auth.ts';
import type { ClusterOptions } from '../cluster/node.ts';

export const SERVE_USAGE = `Usage: calendar-engine serve [options]

Serves the calendar over HTTP: {site-url}{rest-prefix}/tribe/events/v1/...

Options (each overrides its environment variable):
${usageLines((o) => !o.cluster && !o.flag?.startsWith('node-') && !o.env?.startsWith('CALENDAR_CLUSTER_') && o.flag !== undefined)}\
  Cluster (docs/cluster.md): run as one node of a replicated calendar; the state and the users
  live in NATS JetStream, --data keeps only DIR/cluster.json (which cluster, for 'user')
${CLUSTER_USAGE}${usageLines((o) => o.flag === 'node-id')}\
  -h, --help            show this help

Environment only:
${usageLines((o) => !o.flag && !o.cluster)}
SIGINT/SIGTERM: stop accepting, finish in-flight requests, write a snapshot (when a write came
since the last one), exit 0.
`;

const OPTIONS = parseArgsOptions(() => true);

export interface ServeOptions {
  host: string;
  port: number;
  dir: string;
  timezone: string;
  perPage: number;
  /** '' or '/segment[/segment...]', no trailing slash */
  restPrefix: string;
  /** undefined = http://HOST:PORT, known once listening */
  siteUrl: string | undefined;
  /** byte budget of the representation cache */
  cacheBytes: number;
  /** the change feed's retention: an age in ms, or a number of changes */
  changesRetain: { ms: number } | { count: number };
  /** at most about this many bytes of retained changes */
  changesBytes: number;
  /** the largest upload the media library accepts, bytes */
  uploadBytes: number;
  seed: boolean;
  /** open the store without writing to it: reads only */
  readOnly: boolean;
  /** the public pages (src/site/): false = API only; the stylesheet override is DIR/site.css */
  site: { title: string; locale: string } | false;
  adminPassword: string | undefined;
  /** limits on failed logins, and how they are answered */
  auth?: AuthOptions;
  /** one node of a cluster (docs/cluster.md) */
  cluster?: ClusterTarget & { node?: string; leaseMs?: number; snapshotEvery?: number; credsFile?: string };
}

/** A bad option value: the message and a pointer to --help (the full usage is for unknown options). */
function bad(message: string): CliError {
  return new CliError(message, EXIT_USAGE);
}

/** One option's value through the table (src/options/options.ts), a bad one a usage error. */
function value<T>(name: string, values: Record<string, unknown>, io: CliIo): T {
  try {
    return optionValue<T>(name, values, io.env);
  } catch (err) {
    throw err instanceof OptionProblem ? bad(err.message) : err;
  }
}

/** http://HOST:PORT as the contract defines the default site URL (IPv6 hosts in brackets). */
export function defaultSiteUrl(host: string, port: number): string {
  return `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;
}

export function resolveServeOptions(values: Record<string, unknown>, io: CliIo): ServeOptions {
  const host = value<string>('host', values, io);
  const port = value<number>('port', values, io);
  const timezone = value<string>('timezone', values, io);
  const perPage = value<number>('per-page', values, io);
  const restPrefix = value<string>('rest-prefix', values, io);
  const siteUrl = value<string | undefined>('site-url', values, io);
  const cacheBytes = value<number>('cache-mb', values, io);
  const changesRetain = value<Retention>('changes-retain', values, io);
  const changesBytes = value<number>('changes-mb', values, io);
  const uploadBytes = value<number>('upload-mb', values, io);
  const siteTitle = value<string>('site-title', values, io);
  const siteLocale = value<string>('site-locale', values, io);
  let dir: string;
  try {
    dir = dataDir(values.data as string | undefined, io);
  } catch (err) {
    throw bad((err as Error).message);
  }
  const cluster = resolveCluster(values, io);
  const readOnly = value<boolean>('read-only', values, io);
  if (readOnly && cluster) throw bad('--read-only serves a store directory; a cluster node reads from the cluster');
  // set but empty is a mistake here, not "unset" (a password that is all blanks likewise)
  if (io.env.CALENDAR_ADMIN_PASSWORD === '') throw bad('CALENDAR_ADMIN_PASSWORD is set but empty');
  const adminPassword = value<string | undefined>('CALENDAR_ADMIN_PASSWORD', values, io);
  const auth = resolveLogin(values, io);
  return {
    host,
    port,
    dir,
    timezone,
    perPage,
    restPrefix,
    siteUrl,
    cacheBytes,
    changesRetain,
    changesBytes,
    uploadBytes,
    seed: values['no-seed'] !== true && !cluster && !readOnly,
    readOnly,
    site: values['no-site'] === true ? false : { title: siteTitle, locale: siteLocale },
    adminPassword,
    ...(auth ? { auth } : {}),
    ...(cluster ? { cluster } : {}),
  };
}

/** The limits on failed logins and how they are answered; undefined when none is given. */
function resolveLogin(values: Record<string, unknown>, io: CliIo): AuthOptions | undefined {
  const perClient = value<number | undefined>('login-limit', values, io);
  const perLogin = value<number | undefined>('login-user-limit', values, io);
  const errors = value<'wordpress' | 'uniform' | undefined>('login-errors', values, io);
  if (perClient === undefined && perLogin === undefined && errors === undefined) return undefined;
  return {
    loginLimits: { ...(perClient !== undefined ? { perClient } : {}), ...(perLogin !== undefined ? { perLogin } : {}) },
    ...(errors ? { loginErrors: errors } : {}),
  };
}

function resolveCluster(values: Record<string, unknown>, io: CliIo): ServeOptions['cluster'] {
  const target = resolveClusterTarget(values, io);
  const node = pick(values, io, 'node-id');
  if (!target) {
    if (node) throw bad(`${node.from} needs --cluster (the NATS servers)`);
    return undefined;
  }
  if (node) checkName(node);
  const leaseMs = value<number | undefined>('CALENDAR_CLUSTER_LEASE_MS', values, io);
  const snapshotEvery = value<number | undefined>('CALENDAR_CLUSTER_SNAPSHOT_EVERY', values, io);
  const credsFile = pick(values, io, 'cluster-creds')?.value;
  return {
    ...target,
    ...(node ? { node: node.value } : {}),
    ...(credsFile ? { credsFile } : {}),
    ...(leaseMs !== undefined ? { leaseMs } : {}),
    ...(snapshotEvery !== undefined ? { snapshotEvery } : {}),
  };
}

export interface RunningServer {
  /** e.g. http://127.0.0.1:8080 */
  url: string;
  /** the one line printed on start, without its newline */
  banner: string;
  /** stop accepting, finish in-flight requests, snapshot, close the store */
  shutdown(): Promise<void>;
}

/** Opens, seeds, listens. Does not touch signals (serveCommand does). */
export async function startServe(opts: ServeOptions, io: CliIo): Promise<RunningServer> {
  const log = (line: string) => io.stderr.write(`${line}\n`);
  // With --port 0 the default site URL needs the port the system picks: reserve one first.
  const port = opts.siteUrl === undefined && opts.port === 0 ? await freePort(opts.host) : opts.port;
  const siteUrl = opts.siteUrl ?? defaultSiteUrl(opts.host, port);
  const { startServer } = await import('../http/server.ts');
  const cal = await openStore(
    {
      dir: opts.dir,
      timezone: opts.timezone,
      perPage: opts.perPage,
      siteUrl,
      restPrefix: opts.restPrefix,
      cacheBytes: opts.cacheBytes,
      ...('count' in opts.changesRetain
        ? { changesRetainCount: opts.changesRetain.count, changesRetainMs: Number.POSITIVE_INFINITY }
        : { changesRetainMs: opts.changesRetain.ms }),
      changesRetainBytes: opts.changesBytes,
      ...(opts.readOnly ? { readOnly: true } : {}),
      uploadLimit: opts.uploadBytes,
      ...(opts.cluster ? { cluster: clusterOptions(opts.cluster, log) } : {}),
    },
    io,
  );
  if (opts.readOnly) log(`calendar-engine: serving ${showPath(opts.dir, io)} read-only: writes are refused`);
  try {
    if (opts.cluster) {
      try {
        writeClusterMarker(opts.dir, opts.cluster, opts.cluster.credsFile);
      } catch (err) {
        log(
          `calendar-engine: ${showPath(opts.dir, io)}/cluster.json not written (${(err as Error).message}): 'user --data' will not find this cluster; use 'user --cluster'`,
        );
      }
    }
    if (opts.adminPassword !== undefined) {
      try {
        await cal.users.apply({
          action: 'ensure',
          login: 'admin',
          role: 'administrator',
          password: opts.adminPassword,
        });
      } catch (err) {
        if (err instanceof UserError) throw new CliError(`CALENDAR_ADMIN_PASSWORD: ${err.message}`);
        // a disk that refuses writes does not stop a server that can still serve reads
        if (!isStorageError(err)) throw err;
        log(`calendar-engine: CALENDAR_ADMIN_PASSWORD not applied: ${(err as Error).message}`);
      }
    }
    if (opts.seed && cal.isEmpty()) {
      const t0 = Date.now();
      const demo = demoCalendar(new Date());
      await cal.import(demo);
      log(
        `calendar-engine: seeded the demo calendar into ${showPath(opts.dir, io)} (${demo.events.length} events, ` +
          `${demo.venues.length} venues, ${demo.organizers.length} organizers) in ${seconds(Date.now() - t0)}; --no-seed skips this`,
      );
    }
    let server;
    try {
      const site = opts.site === false ? false : { ...opts.site, stylesheetFile: path.join(opts.dir, 'site.css') };
      server = await startServer(cal, { host: opts.host, port, log, site, ...opts.auth });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE')
        throw new CliError(
          `port ${port} on ${opts.host} is already in use (choose another with --port, or 0 for a free one)`,
        );
      if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
        throw new CliError(`cannot listen on ${opts.host}: no such local address`);
      if (code === 'EACCES')
        throw new CliError(`not allowed to listen on port ${port} (ports below 1024 need privileges)`);
      throw err;
    }
    // the calendar's internal handle: its cluster node, its write log
    const { handleOf } = await import('../calendar.ts');
    const handle = handleOf(cal);
    if (handle.cluster) {
      const c = handle.cluster;
      log(
        `calendar-engine: cluster ${opts.cluster!.name}, node ${c.node}: started from ${c.snapshotSeq > 0 ? `the snapshot at seq ${c.snapshotSeq}` : 'the start of the stream'}, following the stream`,
      );
    }
    cal.users.watch(undefined, (err) => log(`calendar-engine: users.json not reloaded: ${err.message}`));
    const banner = `calendar-engine listening on ${server.url}${opts.restPrefix}/tribe/events/v1`;
    let closing: Promise<void> | undefined;
    const calendar = cal;
    return {
      url: server.url,
      banner,
      shutdown() {
        closing ??= (async () => {
          await server.close();
          await handle.log
            .shutdownSnapshot()
            .catch((err: Error) =>
              log(`calendar-engine: no snapshot written at shutdown (${err.message}); the journal holds every write`),
            );
          await calendar.close();
        })();
        return closing;
      },
    };
  } catch (err) {
    await cal.close().catch(() => {});
    throw err;
  }
}

/** The embedding API's cluster options from the command line's. */
function clusterOptions(c: NonNullable<ServeOptions['cluster']>, warn: (line: string) => void): ClusterOptions {
  const { credsFile: _credsFile, ...rest } = c;
  return { ...rest, warn };
}

/** A port the system has just handed out (listen on 0, read it, release it). */
async function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** how far serve lets the heap grow past what is live before V8's next full collection, % */
export const SERVE_HEAP_GROWING_PERCENT = 50;

/**
 * The V8 flag serve sets once its store is loaded (boundHeapGrowth), or undefined when node was
 * started with its own `--heap-growing-percent` (0 restores V8's own choice), which is left as it is.
 */
export function heapGrowingFlag(execArgv: readonly string[]): string | undefined {
  return execArgv.some((a) => /^--heap[-_]growing[-_]percent\b/.test(a))
    ? undefined
    : `--heap-growing-percent=${SERVE_HEAP_GROWING_PERCENT}`;
}

/**
 * Once the store is loaded, bound how far V8 lets the heap grow past what is live before its next
 * full collection. By default V8 picks a factor between 1.1 and 4 from how fast it collects
 * against how fast the program allocates; under a read and write load the evicted pieces of the
 * representation cache die in the old generation, and on a slower machine V8 let that generation
 * reach about three times the live heap (445 MB for 150 MB live) before collecting it: `serve`'s
 * RSS ended at 1.55-1.74x its warm RSS in bench:soak. With the limit at the live heap + 50 %:
 * 1.21-1.32x, full collections every ~10 s instead of ~40 s, reads/s within the runs' spread
 * (docs/memory.md, "Under load"). Set after the load, which would otherwise collect at every step
 * of its growth.
 */
function boundHeapGrowth(): void {
  const flag = heapGrowingFlag(process.execArgv);
  if (flag !== undefined) v8.setFlagsFromString(flag);
}

export async function serveCommand(args: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(args, OPTIONS, SERVE_USAGE, { min: 0, max: 0 });
  if (parsed.help) {
    io.stdout.write(SERVE_USAGE);
    return EXIT_OK;
  }
  const opts = resolveServeOptions(parsed.values, io);
  // This process is the server: turn off V8's allocation-site pretenuring before the store loads.
  // Calls made while the heap of a large load is still being marked keep their short-lived
  // objects alive until that marking ends; V8 may then decide that those objects' allocation
  // sites make long-lived objects and allocate them in the old generation from then on. In-process
  // on a million events, list calls then became 3-9x slower for the life of the process in 8 of
  // 43 starts, and in none of 28 with this flag; over HTTP it was not seen in 6 starts without it.
  // Load time and HTTP throughput were the same with and without it (docs/store.md, "Start-up").
  v8.setFlagsFromString('--no-allocation-site-pretenuring');
  const running = await startServe(opts, io);
  boundHeapGrowth();
  io.stdout.write(`${running.banner}\n`);
  return new Promise<number>((resolve, reject) => {
    let signalled = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (signalled) {
        io.stderr.write(`calendar-engine: ${signal} again, exiting without waiting\n`);
        process.exit(1);
      }
      signalled = true;
      io.stderr.write(
        `calendar-engine: ${signal}, finishing requests and writing a snapshot of any writes since the last one\n`,
      );
      running.shutdown().then(() => {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
        resolve(EXIT_OK);
      }, reject);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
