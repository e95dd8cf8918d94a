// calendar-engine serve: options (over env, over defaults), open the store, seed the demo calendar
// into an empty one, listen, and on SIGINT/SIGTERM drain, snapshot and exit 0.
import net from 'node:net'; // static: the single executable (CommonJS) cannot import() at run time
import path from 'node:path';
import v8 from 'node:v8';
import { isValidTimezone } from '../api/wordpress/dates.ts';
import { DEFAULT_CACHE_BYTES } from '../api/representation/render.ts';
import { DEFAULT_RETAIN_BYTES } from '../changes/feed.ts';
import { UserError } from '../api/wordpress/users.ts';
import { isStorageError } from '../store/faults.ts';
import { CliError, EXIT_OK, EXIT_USAGE, dataDir, openStore, parseCommand, seconds, showPath, type CliIo } from './common.ts';
import { CLUSTER_OPTIONS, CLUSTER_USAGE, checkName, pick, resolveClusterTarget, writeClusterMarker, type ClusterTarget } from './cluster-options.ts';
import { demoCalendar } from './seed.ts';
import { DEFAULT_SITE_LOCALE, DEFAULT_SITE_TITLE } from '../site/pages.ts';
import { LOGIN_OPTIONS, LOGIN_USAGE, resolveLoginOptions } from './login-options.ts';
import type { AuthOptions } from '../http/auth.ts';
import type { ClusterOptions } from '../cluster/node.ts';

export const SERVE_USAGE = `Usage: calendar-engine serve [options]

Serves the calendar over HTTP: {site-url}{rest-prefix}/tribe/events/v1/...

Options (each overrides its environment variable):
  --host H           HOST                  address to listen on (default 127.0.0.1)
  --port P           PORT                  port, 0 picks a free one (default 8080)
  --data DIR         CALENDAR_DATA         the store directory (default ./data/store)
  --timezone TZ      CALENDAR_TIMEZONE     site time zone, IANA name (default UTC)
  --per-page N       CALENDAR_PER_PAGE     default per_page of every list (default 12)
  --rest-prefix P    CALENDAR_REST_PREFIX  prefix before /tribe/events/v1 (default /wp-json)
  --site-url URL     CALENDAR_SITE_URL     base of every link in responses (default http://HOST:PORT)
  --cache-mb N       CALENDAR_CACHE_MB     memory for rendered responses, MiB; 0 caches nothing (default 64)
  --changes-retain R CALENDAR_CHANGES_RETAIN  how long the change feed keeps changes: a duration
                                           (30m, 12h, 7d) or a number of changes (default 7d)
  --changes-mb N     CALENDAR_CHANGES_MB   memory the change feed's window may take, MiB (default 128)
  --upload-mb N      CALENDAR_UPLOAD_MB    largest file /wp/v2/media accepts, MiB (default 20)
  --no-seed                                do not load the demo calendar into an empty store
  --read-only        CALENDAR_READ_ONLY=1  serve the store without writing to it (a full or read-only
                                           disk): reads work, writes answer 503 calendar_read_only
  --no-site                                API only: no public pages (docs/site.md); the ?ical=1 feeds stay
  --site-title T     CALENDAR_SITE_TITLE   the public pages' site title (default Events)
  --site-locale L    CALENDAR_SITE_LOCALE  locale of the pages' dates and times, BCP 47 (default en-US)
${LOGIN_USAGE}  Cluster (docs/cluster.md): run as one node of a replicated calendar; the state and the users
  live in NATS JetStream, --data keeps only DIR/cluster.json (which cluster, for 'user')
${CLUSTER_USAGE}  --node-id ID       CALENDAR_NODE_ID      this node's id in the cluster (default: random)
  -h, --help                               show this help

Environment only:
  CALENDAR_ADMIN_PASSWORD   when set, user 'admin' (administrator) exists with this application password
  CALENDAR_CLUSTER_LEASE_MS        cluster: the writer lease, ms (default 3000)
  CALENDAR_CLUSTER_SNAPSHOT_EVERY  cluster: the writer snapshots after this many writes (default 100000)

SIGINT/SIGTERM: stop accepting, finish in-flight requests, write a snapshot, exit 0.
`;

const OPTIONS = {
  host: { type: 'string' },
  port: { type: 'string' },
  data: { type: 'string' },
  timezone: { type: 'string' },
  'per-page': { type: 'string' },
  'rest-prefix': { type: 'string' },
  'site-url': { type: 'string' },
  'cache-mb': { type: 'string' },
  'changes-retain': { type: 'string' },
  'changes-mb': { type: 'string' },
  'upload-mb': { type: 'string' },
  'no-seed': { type: 'boolean' },
  'read-only': { type: 'boolean' },
  'no-site': { type: 'boolean' },
  'site-title': { type: 'string' },
  'site-locale': { type: 'string' },
  ...LOGIN_OPTIONS,
  ...CLUSTER_OPTIONS,
  'node-id': { type: 'string' },
} as const;

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
  uploadBytes?: number;
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

export function parsePort(value: string, from: string): number {
  if (!/^\d{1,5}$/.test(value.trim()) || Number(value) > 65535) {
    throw bad(`${from}: expected a port number from 0 to 65535, got '${value}'`);
  }
  return Number(value);
}

export function parseRestPrefix(value: string, from: string): string {
  if (!value.startsWith('/')) throw bad(`${from}: the REST prefix must start with '/', got '${value}'`);
  if (/[\s?#%\\]/.test(value) || value.includes('//')) throw bad(`${from}: not a usable path prefix: '${value}'`);
  return value.replace(/\/+$/, '');
}

export function parseSiteUrl(value: string, from: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw bad(`${from}: not a URL: '${value}' (expected e.g. https://example.com)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw bad(`${from}: expected an http or https URL, got '${value}'`);
  if (url.search || url.hash || url.username || url.password) throw bad(`${from}: the site URL takes no query, fragment or credentials: '${value}'`);
  return url.href.replace(/\/+$/, '');
}

/** http://HOST:PORT as the contract defines the default site URL (IPv6 hosts in brackets). */
export function defaultSiteUrl(host: string, port: number): string {
  return `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;
}

export function resolveServeOptions(values: Record<string, unknown>, io: CliIo): ServeOptions {
  const host = pick(values, io, 'host', 'HOST');
  if (host && !/^[A-Za-z0-9.:[\]%_-]+$/.test(host.value)) throw bad(`${host.from}: not a host name or address: '${host.value}'`);
  const port = pick(values, io, 'port', 'PORT');
  const tz = pick(values, io, 'timezone', 'CALENDAR_TIMEZONE');
  if (tz && !isValidTimezone(tz.value)) {
    throw bad(`${tz.from}: unknown time zone '${tz.value}' (expected an IANA name such as Europe/Paris, or UTC)`);
  }
  const perPage = pick(values, io, 'per-page', 'CALENDAR_PER_PAGE');
  if (perPage && (!/^\d+$/.test(perPage.value) || Number(perPage.value) < 1)) {
    throw bad(`${perPage.from}: expected a positive integer, got '${perPage.value}'`);
  }
  const prefix = pick(values, io, 'rest-prefix', 'CALENDAR_REST_PREFIX');
  const site = pick(values, io, 'site-url', 'CALENDAR_SITE_URL');
  const cacheMb = pick(values, io, 'cache-mb', 'CALENDAR_CACHE_MB');
  if (cacheMb && !(/^\d+(\.\d+)?$/.test(cacheMb.value) && Number(cacheMb.value) <= 1_048_576)) {
    throw bad(`${cacheMb.from}: expected a number of MiB from 0 to 1048576, got '${cacheMb.value}'`);
  }
  const retain = pick(values, io, 'changes-retain', 'CALENDAR_CHANGES_RETAIN');
  let changesRetain: ServeOptions['changesRetain'] = { ms: 7 * 86_400_000 };
  if (retain) {
    const m = /^(\d+)([smhd]?)$/.exec(retain.value.trim());
    if (!m || Number(m[1]) < 1) throw bad(`${retain.from}: expected a duration such as 30m, 12h or 7d, or a number of changes, got '${retain.value}'`);
    const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as 's' | 'm' | 'h' | 'd'];
    changesRetain = m[2] === '' ? { count: Number(m[1]) } : { ms: Number(m[1]) * unit };
  }
  const changesMb = pick(values, io, 'changes-mb', 'CALENDAR_CHANGES_MB');
  if (changesMb && !(/^\d+(\.\d+)?$/.test(changesMb.value) && Number(changesMb.value) > 0 && Number(changesMb.value) <= 1_048_576)) {
    throw bad(`${changesMb.from}: expected a number of MiB above 0, at most 1048576, got '${changesMb.value}'`);
  }
  const siteTitle = pick(values, io, 'site-title', 'CALENDAR_SITE_TITLE');
  if (siteTitle && (siteTitle.value.trim() === '' || siteTitle.value.length > 200 || /[\u0000-\u001f]/.test(siteTitle.value))) {
    throw bad(`${siteTitle.from}: expected a title of 1 to 200 characters on one line, got '${siteTitle.value}'`);
  }
  const siteLocale = pick(values, io, 'site-locale', 'CALENDAR_SITE_LOCALE');
  if (siteLocale && !validLocale(siteLocale.value)) throw bad(`${siteLocale.from}: not a locale this Node.js knows (expected e.g. en-US, fr-FR, de), got '${siteLocale.value}'`);
  const uploadMb = pick(values, io, 'upload-mb', 'CALENDAR_UPLOAD_MB');
  if (uploadMb && !(/^\d+(\.\d+)?$/.test(uploadMb.value) && Number(uploadMb.value) > 0 && Number(uploadMb.value) <= 4096)) {
    throw bad(`${uploadMb.from}: expected a number of MiB above 0, at most 4096, got '${uploadMb.value}'`);
  }
  let dir: string;
  try {
    dir = dataDir(values.data as string | undefined, io);
  } catch (err) {
    throw bad((err as Error).message);
  }
  const cluster = resolveCluster(values, io);
  const readOnly = resolveReadOnly(values, io);
  if (readOnly && cluster) throw bad('--read-only serves a store directory; a cluster node reads from the cluster');
  const adminPassword = io.env.CALENDAR_ADMIN_PASSWORD;
  if (adminPassword !== undefined && adminPassword.trim() === '') throw bad('CALENDAR_ADMIN_PASSWORD is set but empty');
  const auth = resolveLoginOptions(values, io);
  return {
    host: host?.value ?? '127.0.0.1',
    port: port ? parsePort(port.value, port.from) : 8080,
    dir,
    timezone: tz?.value ?? 'UTC',
    perPage: perPage ? Number(perPage.value) : 12,
    restPrefix: prefix ? parseRestPrefix(prefix.value, prefix.from) : '/wp-json',
    siteUrl: site ? parseSiteUrl(site.value, site.from) : undefined,
    cacheBytes: cacheMb ? Math.round(Number(cacheMb.value) * 1024 * 1024) : DEFAULT_CACHE_BYTES,
    changesRetain,
    changesBytes: changesMb ? Math.round(Number(changesMb.value) * 1024 * 1024) : DEFAULT_RETAIN_BYTES,
    ...(uploadMb ? { uploadBytes: Math.round(Number(uploadMb.value) * 1024 * 1024) } : {}),
    seed: values['no-seed'] !== true && !cluster && !readOnly,
    readOnly,
    site: values['no-site'] === true ? false : { title: siteTitle?.value.trim() ?? DEFAULT_SITE_TITLE, locale: siteLocale?.value ?? DEFAULT_SITE_LOCALE },
    adminPassword,
    ...(auth ? { auth } : {}),
    ...(cluster ? { cluster } : {}),
  };
}

/** --read-only, else CALENDAR_READ_ONLY (1/true/yes or 0/false/no/empty). */
function resolveReadOnly(values: Record<string, unknown>, io: CliIo): boolean {
  if (values['read-only'] === true) return true;
  const env = io.env.CALENDAR_READ_ONLY?.trim().toLowerCase();
  if (env === undefined || env === '' || env === '0' || env === 'false' || env === 'no') return false;
  if (env === '1' || env === 'true' || env === 'yes') return true;
  throw bad(`CALENDAR_READ_ONLY: expected 1 or 0 (true/false, yes/no), got '${io.env.CALENDAR_READ_ONLY}'`);
}

/** a BCP 47 tag that Intl formats dates in (not one it silently replaces by its default) */
function validLocale(tag: string): boolean {
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([tag]).length === 1;
  } catch {
    return false;
  }
}

function resolveCluster(values: Record<string, unknown>, io: CliIo): ServeOptions['cluster'] {
  const target = resolveClusterTarget(values, io);
  const node = pick(values, io, 'node-id', 'CALENDAR_NODE_ID');
  if (!target) {
    if (node) throw bad(`${node.from} needs --cluster (the NATS servers)`);
    return undefined;
  }
  if (node) checkName(node);
  const env = (key: string, min: number): number | undefined => {
    const v = io.env[key];
    if (v === undefined || v === '') return undefined;
    if (!/^\d+$/.test(v) || Number(v) < min) throw bad(`${key}: expected a whole number >= ${min}, got '${v}'`);
    return Number(v);
  };
  const leaseMs = env('CALENDAR_CLUSTER_LEASE_MS', 300);
  const snapshotEvery = env('CALENDAR_CLUSTER_SNAPSHOT_EVERY', 0);
  const credsFile = pick(values, io, 'cluster-creds', 'CALENDAR_CLUSTER_CREDS')?.value;
  return {
    ...target, ...(node ? { node: node.value } : {}), ...(credsFile ? { credsFile } : {}),
    ...(leaseMs !== undefined ? { leaseMs } : {}), ...(snapshotEvery !== undefined ? { snapshotEvery } : {}),
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
  const cal = await openStore({
    dir: opts.dir, timezone: opts.timezone, perPage: opts.perPage, siteUrl, restPrefix: opts.restPrefix, cacheBytes: opts.cacheBytes,
    ...('count' in opts.changesRetain ? { changesRetainCount: opts.changesRetain.count, changesRetainMs: Number.POSITIVE_INFINITY } : { changesRetainMs: opts.changesRetain.ms }),
    changesRetainBytes: opts.changesBytes,
    ...(opts.readOnly ? { readOnly: true } : {}),
    ...(opts.uploadBytes ? { uploadLimit: opts.uploadBytes } : {}),
    ...(opts.cluster ? { cluster: clusterOptions(opts.cluster, log) } : {}),
  }, io);
  if (opts.readOnly) log(`calendar-engine: serving ${showPath(opts.dir, io)} read-only: writes are refused`);
  try {
    if (opts.cluster) {
      try {
        writeClusterMarker(opts.dir, opts.cluster, opts.cluster.credsFile);
      } catch (err) {
        log(`calendar-engine: ${showPath(opts.dir, io)}/cluster.json not written (${(err as Error).message}): 'user --data' will not find this cluster; use 'user --cluster'`);
      }
    }
    if (opts.adminPassword !== undefined) {
      try {
        await cal.users.apply({ action: 'ensure', login: 'admin', role: 'administrator', password: opts.adminPassword });
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
      log(`calendar-engine: seeded the demo calendar into ${showPath(opts.dir, io)} (${demo.events.length} events, `
        + `${demo.venues.length} venues, ${demo.organizers.length} organizers) in ${seconds(Date.now() - t0)}; --no-seed skips this`);
    }
    let server;
    try {
      const site = opts.site === false ? false : { ...opts.site, stylesheetFile: path.join(opts.dir, 'site.css') };
      server = await startServer(cal, { host: opts.host, port, log, site, ...opts.auth });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE') throw new CliError(`port ${port} on ${opts.host} is already in use (choose another with --port, or 0 for a free one)`);
      if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new CliError(`cannot listen on ${opts.host}: no such local address`);
      if (code === 'EACCES') throw new CliError(`not allowed to listen on port ${port} (ports below 1024 need privileges)`);
      throw err;
    }
    if (cal.cluster) {
      const c = cal.cluster;
      log(`calendar-engine: cluster ${opts.cluster!.name}, node ${c.node}: started from ${c.snapshotSeq > 0 ? `the snapshot at seq ${c.snapshotSeq}` : 'the start of the stream'}, following the stream`);
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
          // a cluster's writer snapshots on its own schedule; a node leaving needs none; a store
          // opened read-only, or whose disk fails, keeps its journal (which holds every write)
          if (!calendar.cluster && !opts.readOnly && !calendar.guard?.refusal()) {
            await calendar.snapshot().catch((err: Error) => log(`calendar-engine: no snapshot written at shutdown (${err.message}); the journal holds every write`));
          }
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
  return execArgv.some((a) => /^--heap[-_]growing[-_]percent\b/.test(a)) ? undefined : `--heap-growing-percent=${SERVE_HEAP_GROWING_PERCENT}`;
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
      io.stderr.write(`calendar-engine: ${signal}, finishing requests and writing a snapshot\n`);
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
