// The command line's cluster options, shared by `serve` and `user` (docs/cluster.md): which NATS
// servers and calendar, and how to connect to them (credentials, TLS). Each option overrides its
// environment variable; a bad value is a usage error (exit 2) with the option named. Files are
// read and checked here, so a wrong path or a PEM that is not one fails before anything starts.
import fs from 'node:fs';
import path from 'node:path';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { CliError, EXIT_USAGE, type CliIo } from './common.ts';
import { parseArgsOptions, pickOption, usageLines } from '../options/options.ts';
import { OptionProblem } from '../options/row.ts';

/** The cluster's flags (the rows of src/options/options.ts marked `cluster`). */
export const CLUSTER_OPTIONS = parseArgsOptions((o) => o.cluster === true);

/** Their lines of `--help` (with the variables that have no flag). */
export const CLUSTER_USAGE = usageLines((o) => o.cluster === true);

/** What the command line hands to the cluster code: ClusterConnection's fields. */
export interface ClusterTarget {
  servers: string[];
  name: string;
  /** replicas of the stream, buckets and object store (CALENDAR_CLUSTER_REPLICAS; default 3) */
  replicas?: number;
  /** the content of a .creds file */
  creds?: string;
  nats?: {
    user?: string;
    pass?: string;
    token?: string;
    tls?: { caFile?: string; certFile?: string; keyFile?: string };
  };
}

function bad(message: string): CliError {
  return new CliError(message, EXIT_USAGE);
}

/** Option value, else env value, else undefined (through the options table, which names the
 *  variable); tells which one it came from for messages. */
export function pick(
  values: Record<string, unknown>,
  io: CliIo,
  option: string,
): { value: string; from: string } | undefined {
  let g;
  try {
    g = pickOption(option, values, io.env);
  } catch (err) {
    throw err instanceof OptionProblem ? bad(err.message) : err;
  }
  return g ? { value: g.text, from: g.from } : undefined;
}

/** A cluster's or a node's name: 1-64 letters, digits, '_' or '-' (it names NATS subjects and buckets). */
export function checkName(opt: { value: string; from: string }): void {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(opt.value))
    throw bad(`${opt.from}: expected 1-64 letters, digits, '_' or '-', got '${opt.value}'`);
}

/** The cluster the options (or env) name, or undefined without --cluster / CALENDAR_CLUSTER. */
export function resolveClusterTarget(values: Record<string, unknown>, io: CliIo): ClusterTarget | undefined {
  const urls = pick(values, io, 'cluster');
  const name = pick(values, io, 'cluster-name');
  const creds = pick(values, io, 'cluster-creds');
  const user = pick(values, io, 'cluster-user');
  const password = pick(values, io, 'cluster-password');
  const token = pick(values, io, 'cluster-token');
  const ca = pick(values, io, 'cluster-tls-ca');
  const cert = pick(values, io, 'cluster-tls-cert');
  const key = pick(values, io, 'cluster-tls-key');
  if (!urls) {
    const stray = [name, creds, user, password, token, ca, cert, key].find(Boolean);
    if (stray) throw bad(`${stray.from} needs --cluster (the NATS servers)`);
    return undefined;
  }
  const servers = urls.value
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  for (const u of servers) {
    if (!/^(nats|tls):\/\/[^\s/]+:\d{1,5}$/.test(u))
      throw bad(`${urls.from}: expected nats://host:port URLs, comma-separated, got '${u}'`);
  }
  if (servers.length === 0) throw bad(`${urls.from}: expected nats://host:port URLs, comma-separated`);
  if (!name) throw bad(`--cluster needs --cluster-name (the calendar's name in the cluster)`);
  checkName(name);

  const target: ClusterTarget = { servers, name: name.value };
  const replicas = pick(values, io, 'CALENDAR_CLUSTER_REPLICAS');
  if (replicas) target.replicas = Number(replicas.value);
  const nats: NonNullable<ClusterTarget['nats']> = {};
  const ways = [creds, user ?? password, token].filter(Boolean);
  if (ways.length > 1)
    throw bad(
      `${ways[0]!.from} and ${ways[1]!.from}: give one way to log in to NATS (a credentials file, a user and password, or a token)`,
    );
  if (user && !password) throw bad(`${user.from} needs a password (--cluster-password or CALENDAR_CLUSTER_PASSWORD)`);
  if (password && !user) throw bad(`${password.from} needs a user (--cluster-user or CALENDAR_CLUSTER_USER)`);
  if (user && password) Object.assign(nats, { user: user.value, pass: password.value });
  if (token) nats.token = token.value;
  if (creds) {
    const text = readFile(creds, 'a NATS credentials file');
    if (!/-----BEGIN NATS USER JWT-----/.test(text) || !/-----BEGIN USER NKEY SEED-----/.test(text)) {
      throw bad(
        `${creds.from}: ${creds.value} is not a NATS credentials file (expected a user JWT and an NKey seed, as 'nsc generate creds' writes)`,
      );
    }
    target.creds = text;
  }
  if (cert && !key) throw bad(`${cert.from} needs the client's private key (--cluster-tls-key)`);
  if (key && !cert) throw bad(`${key.from} needs the client's certificate (--cluster-tls-cert)`);
  if (ca || cert) {
    const tls: NonNullable<NonNullable<ClusterTarget['nats']>['tls']> = {};
    if (ca) {
      checkPem(ca, (t) => new X509Certificate(t), 'a PEM certificate');
      tls.caFile = path.resolve(ca.value);
    }
    if (cert && key) {
      checkPem(cert, (t) => new X509Certificate(t), 'a PEM certificate');
      checkPem(key, (t) => createPrivateKey(t), 'a PEM private key (unencrypted)');
      tls.certFile = path.resolve(cert.value);
      tls.keyFile = path.resolve(key.value);
    }
    nats.tls = tls;
  }
  if (Object.keys(nats).length > 0) target.nats = nats;
  return target;
}

function readFile(opt: { value: string; from: string }, what: string): string {
  try {
    return fs.readFileSync(opt.value, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw bad(
      `${opt.from}: cannot read ${what} '${opt.value}' (${code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'a directory' : (err as Error).message})`,
    );
  }
}

function checkPem(opt: { value: string; from: string }, parse: (text: string) => unknown, what: string): void {
  const text = readFile(opt, what);
  try {
    parse(text);
  } catch (err) {
    throw bad(`${opt.from}: '${opt.value}' is not ${what}: ${(err as Error).message}`);
  }
}

/** DIR/cluster.json: written by `serve --cluster`, so that `user ... --data DIR` reaches its cluster. */
const CLUSTER_MARKER = 'cluster.json';

/** The cluster of a node's data folder (file paths only: never a password or token). */
export function writeClusterMarker(dir: string, target: ClusterTarget, credsFile: string | undefined): void {
  const { servers, name, nats } = target;
  const text =
    JSON.stringify(
      {
        servers,
        name,
        ...(credsFile ? { creds: path.resolve(credsFile) } : {}),
        ...(nats?.tls ? { tls: nats.tls } : {}),
      },
      null,
      2,
    ) + '\n';
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, CLUSTER_MARKER), text);
}

/** The cluster DIR/cluster.json names, as option values (undefined without the file). */
export function readClusterMarker(dir: string): Record<string, string> | undefined {
  const file = path.join(dir, CLUSTER_MARKER);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  let m: {
    servers?: unknown;
    name?: unknown;
    creds?: string;
    tls?: { caFile?: string; certFile?: string; keyFile?: string };
  } | null;
  try {
    m = JSON.parse(text);
  } catch (err) {
    throw new CliError(
      `${file}: not JSON (${(err as Error).message}); 'serve --cluster' writes it again, or name the cluster with --cluster and --cluster-name`,
    );
  }
  if (
    m === null ||
    typeof m !== 'object' ||
    !Array.isArray(m.servers) ||
    !m.servers.every((s) => typeof s === 'string') ||
    typeof m.name !== 'string'
  ) {
    throw new CliError(`${file}: expected {"servers": [...], "name": ...}`);
  }
  return {
    cluster: m.servers.join(','),
    'cluster-name': m.name,
    ...(m.creds ? { 'cluster-creds': m.creds } : {}),
    ...(m.tls?.caFile ? { 'cluster-tls-ca': m.tls.caFile } : {}),
    ...(m.tls?.certFile ? { 'cluster-tls-cert': m.tls.certFile } : {}),
    ...(m.tls?.keyFile ? { 'cluster-tls-key': m.tls.keyFile } : {}),
  };
}
