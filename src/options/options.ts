// The calendar's options, one table: each row defines an option once — its openCalendar name, its
// `serve` flag and CALENDAR_* (or HOST/PORT) variable, its default, how a flag's or variable's text
// is parsed and checked, how a value given to openCalendar is checked, and the words of `--help`
// and of the options table in docs/operating.md. `serve` (src/cli/serve.ts) parses its command line
// and environment through `resolveOptions`, openCalendar checks and defaults its options through
// `embeddedOptions`, `--help` prints `usageLines`, and a test holds the docs' table to `docsTable`.
// A new option is one more row (and its use where it acts).
import { isValidTimezone } from '../api/wordpress/dates.ts';
import { parseSize } from '../memory/sizing.ts';

const MIB = 1024 * 1024;
const DAY_MS = 86_400_000;

/** The budget of the cache of rendered representations when none is given. */
export const DEFAULT_CACHE_BYTES = 64 * MIB;
/** The change feed's window when none is given: at most this many changes, this old, this many bytes. */
export const DEFAULT_RETAIN_COUNT = 100_000;
export const DEFAULT_RETAIN_MS = 7 * DAY_MS;
export const DEFAULT_RETAIN_BYTES = 128 * MIB;
/** The largest file the media library accepts when none is given. */
export const DEFAULT_UPLOAD_LIMIT = 20 * MIB;
/** How often a store whose disk failed is probed when none is given, ms. */
export const DEFAULT_PROBE_MS = 2_000;
/** The public pages' title and locale when none are given. */
export const DEFAULT_SITE_TITLE = 'Events';
export const DEFAULT_SITE_LOCALE = 'en-US';
/** Failed logins allowed per minute, per client address and per login name, when none are given. */
export const DEFAULT_LOGIN_PER_CLIENT = 10;
export const DEFAULT_LOGIN_PER_LOGIN = 30;

/** A flag's or variable's text that cannot be used; the message says what was expected. */
export class OptionProblem extends Error {}

/** The change feed's retention as `--changes-retain` gives it: an age, or a number of changes. */
export type Retention = { ms: number } | { count: number };

export interface OptionRow {
  /** the `serve` flag, without its dashes */
  flag?: string;
  /** the flag's value in `--help` (`--port P`); none for a switch */
  arg?: string;
  /** a switch: present or not, no value */
  boolean?: true;
  /** the environment variable (the flag, when both are given, wins) */
  env?: string;
  /** openCalendar's option, when the embedding API has it */
  embed?: string;
  /** the default as `--help` and the docs show it */
  shown: string;
  /** the value when neither flag nor variable (nor openCalendar) gives one */
  value?: unknown;
  /** the flag's or variable's text → the value; throws OptionProblem (its message follows "--flag: ") */
  parse?: (text: string) => unknown;
  /** an openCalendar value → what is wrong with it, or undefined when it is good */
  check?: (value: unknown) => string | undefined;
  /** `--help`: one line (wrapped at 100 columns) */
  help: string;
  /** the docs' table, in Markdown (default: help) */
  doc?: string;
  /** listed under "Cluster" in `--help` (the `user` command takes these too) */
  cluster?: true;
}

const mib =
  (min: '>= 0' | '> 0', max = 1_048_576) =>
  (text: string): number => {
    const n = Number(text);
    if (!/^\d+(\.\d+)?$/.test(text) || n > max || (min === '> 0' && n === 0)) {
      throw new OptionProblem(
        `expected a number of MiB ${min === '>= 0' ? `from 0 to ${max}` : `above 0, at most ${max}`}, got '${text}'`,
      );
    }
    return Math.round(n * MIB);
  };
const switchText = (text: string): boolean => {
  const t = text.trim().toLowerCase();
  if (t === '1' || t === 'true' || t === 'yes') return true;
  if (t === '0' || t === 'false' || t === 'no' || t === '') return false;
  throw new OptionProblem(`expected 1 or 0 (true/false, yes/no), got '${text}'`);
};
const loginCount = (text: string): number => {
  if (!/^\d{1,9}$/.test(text.trim()))
    throw new OptionProblem(`expected a whole number of failed logins (0: no limit), got '${text}'`);
  return Number(text);
};
/** a BCP 47 tag that Intl formats dates in (not one it silently replaces by its default) */
function validLocale(tag: string): boolean {
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([tag]).length === 1;
  } catch {
    return false;
  }
}
const positive =
  (unit: string) =>
  (v: unknown): string | undefined =>
    typeof v === 'number' && v > 0 ? undefined : `must be a number${unit} > 0, got ${String(v)}`;
const plain = (text: string): string => text;

/** Every option, in the order `--help` and the docs list them. */
export const OPTIONS: readonly OptionRow[] = [
  {
    flag: 'host',
    arg: 'H',
    env: 'HOST',
    shown: '127.0.0.1',
    value: '127.0.0.1',
    help: 'address to listen on',
    parse: (text) => {
      if (!/^[A-Za-z0-9.:[\]%_-]+$/.test(text)) throw new OptionProblem(`not a host name or address: '${text}'`);
      return text;
    },
  },
  {
    flag: 'port',
    arg: 'P',
    env: 'PORT',
    shown: '8080',
    value: 8080,
    help: 'port, 0 picks a free one',
    doc: 'port; `0` picks a free one (the listening line shows it)',
    parse: (text) => {
      if (!/^\d{1,5}$/.test(text.trim()) || Number(text) > 65535)
        throw new OptionProblem(`expected a port number from 0 to 65535, got '${text}'`);
      return Number(text);
    },
  },
  {
    flag: 'data',
    arg: 'DIR',
    env: 'CALENDAR_DATA',
    embed: 'dir',
    shown: './data/store',
    help: 'the store directory',
    doc: 'the store: snapshot, journal, `users.json` (openCalendar: `dir`, none = memory only)',
  },
  {
    flag: 'timezone',
    arg: 'TZ',
    env: 'CALENDAR_TIMEZONE',
    embed: 'timezone',
    shown: 'UTC',
    value: 'UTC',
    help: 'site time zone, IANA name',
    doc: 'site time zone (IANA name such as `Europe/Paris`, or `UTC+2`)',
    parse: (text) => {
      if (!isValidTimezone(text))
        throw new OptionProblem(`unknown time zone '${text}' (expected an IANA name such as Europe/Paris, or UTC)`);
      return text;
    },
    check: (v) => (typeof v === 'string' && isValidTimezone(v) ? undefined : `is not a known time zone: ${String(v)}`),
  },
  {
    flag: 'per-page',
    arg: 'N',
    env: 'CALENDAR_PER_PAGE',
    embed: 'perPage',
    shown: '12',
    value: 12,
    help: 'default per_page of every list',
    doc: 'default `per_page` of every list (a request may ask up to 50)',
    parse: (text) => {
      if (!/^\d+$/.test(text) || Number(text) < 1)
        throw new OptionProblem(`expected a positive integer, got '${text}'`);
      return Number(text);
    },
    check: (v) =>
      Number.isInteger(v) && (v as number) >= 1 ? undefined : `must be a positive integer, got ${String(v)}`,
  },
  {
    flag: 'rest-prefix',
    arg: 'P',
    env: 'CALENDAR_REST_PREFIX',
    embed: 'restPrefix',
    shown: '/wp-json',
    value: '/wp-json',
    help: 'prefix before /tribe/events/v1',
    doc: 'prefix before `/tribe/events/v1`; must start with `/`',
    parse: (text) => {
      if (!text.startsWith('/')) throw new OptionProblem(`the REST prefix must start with '/', got '${text}'`);
      if (/[\s?#%\\]/.test(text) || text.includes('//')) throw new OptionProblem(`not a usable path prefix: '${text}'`);
      return text.replace(/\/+$/, '');
    },
  },
  {
    flag: 'site-url',
    arg: 'URL',
    env: 'CALENDAR_SITE_URL',
    embed: 'siteUrl',
    shown: 'http://HOST:PORT',
    help: 'base of every link in responses',
    doc: 'base of every link in responses (`url`, `rest_url`, ...); put your public URL here behind a proxy (openCalendar: default `http://127.0.0.1:8080`)',
    parse: (text) => {
      let url: URL;
      try {
        url = new URL(text);
      } catch {
        throw new OptionProblem(`not a URL: '${text}' (expected e.g. https://example.com)`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        throw new OptionProblem(`expected an http or https URL, got '${text}'`);
      if (url.search || url.hash || url.username || url.password)
        throw new OptionProblem(`the site URL takes no query, fragment or credentials: '${text}'`);
      return url.href.replace(/\/+$/, '');
    },
  },
  {
    flag: 'cache-mb',
    arg: 'N',
    env: 'CALENDAR_CACHE_MB',
    embed: 'cacheBytes',
    shown: '64',
    value: DEFAULT_CACHE_BYTES,
    help: 'memory for rendered responses, MiB; 0 caches nothing',
    doc: 'memory for rendered responses, in MiB (`0` caches nothing; openCalendar: `cacheBytes`, in bytes); see [Memory](memory.md)',
    parse: mib('>= 0'),
    check: (v) =>
      typeof v === 'number' && Number.isFinite(v) && v >= 0
        ? undefined
        : `must be a number of bytes >= 0, got ${String(v)}`,
  },
  {
    flag: 'changes-retain',
    arg: 'R',
    env: 'CALENDAR_CHANGES_RETAIN',
    shown: '7d',
    value: { ms: DEFAULT_RETAIN_MS } satisfies Retention,
    help: 'how long the change feed keeps changes: a duration (30m, 12h, 7d) or a number of changes',
    doc: 'how long the change feed keeps changes: a duration (`30m`, `12h`, `7d`) or a number of changes (openCalendar: `changesRetainMs`, `changesRetainCount`); see [The change feed](changes.md)',
    parse: (text): Retention => {
      const m = /^(\d+)([smhd]?)$/.exec(text.trim());
      if (!m || Number(m[1]) < 1)
        throw new OptionProblem(`expected a duration such as 30m, 12h or 7d, or a number of changes, got '${text}'`);
      const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: DAY_MS }[m[2] as 's' | 'm' | 'h' | 'd'];
      return m[2] === '' ? { count: Number(m[1]) } : { ms: Number(m[1]) * unit };
    },
  },
  {
    embed: 'changesRetainMs',
    shown: '7 days',
    value: DEFAULT_RETAIN_MS,
    help: 'the change feed keeps no change older than this, ms',
    check: positive(' of ms'),
  },
  {
    embed: 'changesRetainCount',
    shown: '100000',
    value: DEFAULT_RETAIN_COUNT,
    help: 'the change feed keeps at most this many changes',
    check: positive(''),
  },
  {
    flag: 'changes-mb',
    arg: 'N',
    env: 'CALENDAR_CHANGES_MB',
    embed: 'changesRetainBytes',
    shown: '128',
    value: DEFAULT_RETAIN_BYTES,
    help: "memory the change feed's window may take, MiB",
    doc: "memory the change feed's window may take, MiB (a change counts as its JSON text and 160 bytes); the oldest changes go first, even those a webhook still lacks (openCalendar: `changesRetainBytes`, in bytes); see [The change feed](changes.md#retention)",
    parse: mib('> 0'),
    check: positive(' of bytes'),
  },
  {
    flag: 'upload-mb',
    arg: 'N',
    env: 'CALENDAR_UPLOAD_MB',
    embed: 'uploadLimit',
    shown: '20',
    value: DEFAULT_UPLOAD_LIMIT,
    help: 'largest file /wp/v2/media accepts, MiB',
    doc: 'the largest file `POST /wp/v2/media` accepts, MiB (larger: `413 rest_upload_file_too_big`, refused from `Content-Length` before the body is read; openCalendar: `uploadLimit`, in bytes); see [The media library](media.md)',
    parse: mib('> 0', 4096),
    check: (v) =>
      Number.isInteger(v) && (v as number) > 0 ? undefined : `must be a whole number of bytes > 0, got ${String(v)}`,
  },
  {
    flag: 'memory-limit',
    arg: 'S',
    env: 'CALENDAR_MEMORY_LIMIT',
    shown: 'unset',
    help: "memory the process may use (8G, 512M); a store that needs more is refused before it loads (exit 3); default the machine's or the container's memory",
    doc: "memory the process may use: a size such as `8G`, `512M`, `1.5G` (binary units K, M, G, T; a bare number is bytes); default the machine's memory, or the container's limit (cgroup) when lower. Every command that loads a store (`serve`, `import`, `export`, `snapshot`, `check`, `repair`) takes it; one that would need more is refused before it loads anything, exit code 3; see [Memory](#memory)",
    parse: (text) => {
      try {
        return parseSize(text);
      } catch (err) {
        throw new OptionProblem((err as Error).message);
      }
    },
  },
  { flag: 'no-seed', boolean: true, shown: 'seeding on', help: 'do not load the demo calendar into an empty store' },
  {
    flag: 'read-only',
    boolean: true,
    env: 'CALENDAR_READ_ONLY',
    embed: 'readOnly',
    shown: 'off',
    value: false,
    parse: switchText,
    help: 'serve the store without writing to it (a full or read-only disk): reads work, writes answer 503 calendar_read_only; the variable takes 1 or 0',
    doc: 'serve the store without writing to it (a full or read-only disk): no lock, no seeding, no change log, no webhooks, no snapshot at shutdown; writes answer `503 calendar_read_only`; the variable takes `1` or `0` (`true`/`false`, `yes`/`no`); openCalendar: `readOnly`, and `faultProbeMs` (how often a store whose disk failed is probed, default 2000) ([Faults](faults.md))',
    check: (v) => (typeof v === 'boolean' ? undefined : `must be true or false, got ${String(v)}`),
  },
  {
    embed: 'faultProbeMs',
    shown: '2000',
    value: DEFAULT_PROBE_MS,
    help: 'how often a store whose disk failed is probed, ms (0: only at each write)',
    check: (v) =>
      typeof v === 'number' && Number.isFinite(v) && v >= 0
        ? undefined
        : `must be a number of ms >= 0, got ${String(v)}`,
  },
  {
    flag: 'no-site',
    boolean: true,
    shown: 'pages on',
    help: 'API only: no public pages (docs/site.md); the ?ical=1 feeds stay',
    doc: "API only: no HTML pages at the API's URLs (the `?ical=1` feeds stay); see [The public pages](site.md)",
  },
  {
    flag: 'site-title',
    arg: 'T',
    env: 'CALENDAR_SITE_TITLE',
    shown: DEFAULT_SITE_TITLE,
    value: DEFAULT_SITE_TITLE,
    help: "the public pages' site title",
    parse: (text) => {
      if (text.trim() === '' || text.length > 200 || /[\u0000-\u001f]/.test(text))
        throw new OptionProblem(`expected a title of 1 to 200 characters on one line, got '${text}'`);
      return text.trim();
    },
  },
  {
    flag: 'site-locale',
    arg: 'L',
    env: 'CALENDAR_SITE_LOCALE',
    shown: DEFAULT_SITE_LOCALE,
    value: DEFAULT_SITE_LOCALE,
    help: "locale of the pages' dates and times, BCP 47",
    doc: "locale of the pages' dates and times (BCP 47); `DIR/site.css`, when present, replaces their stylesheet",
    parse: (text) => {
      if (!validLocale(text))
        throw new OptionProblem(`not a locale this Node.js knows (expected e.g. en-US, fr-FR, de), got '${text}'`);
      return text;
    },
  },
  {
    flag: 'login-limit',
    arg: 'N',
    env: 'CALENDAR_LOGIN_LIMIT',
    shown: String(DEFAULT_LOGIN_PER_CLIENT),
    parse: loginCount,
    help: 'failed logins per client address per minute, then 429 with Retry-After; 0 turns the limit off',
    doc: 'failed logins one client address may make a minute, then `429` with `Retry-After`; `0` turns it off; see [Security](security.md#failed-logins)',
  },
  {
    flag: 'login-user-limit',
    arg: 'N',
    env: 'CALENDAR_LOGIN_USER_LIMIT',
    shown: String(DEFAULT_LOGIN_PER_LOGIN),
    parse: loginCount,
    help: 'failed logins per login name per minute, from all addresses together; 0 turns it off',
    doc: 'failed logins for one login name a minute, from all addresses together; `0` turns it off',
  },
  {
    flag: 'login-errors',
    arg: 'E',
    env: 'CALENDAR_LOGIN_ERRORS',
    shown: 'wordpress',
    help: 'wordpress: an unknown login and a wrong password answer differently, as WordPress does; uniform: alike',
    doc: '`wordpress`: an unknown login (`invalid_username`) and a wrong password (`incorrect_password`) answer differently, as WordPress does; `uniform`: both answer `invalid_credentials` ([what the answers reveal](security.md#what-a-wrong-login-reveals))',
    parse: (text) => {
      if (text !== 'wordpress' && text !== 'uniform')
        throw new OptionProblem(`expected wordpress or uniform, got '${text}'`);
      return text;
    },
  },
  {
    env: 'CALENDAR_ADMIN_PASSWORD',
    shown: 'unset',
    help: "when set, user 'admin' (administrator) exists with this application password",
    doc: 'when set, user `admin` (role administrator) exists with this application password',
    parse: (text) => {
      if (text.trim() === '') throw new OptionProblem('is set but empty');
      return text;
    },
  },
  {
    flag: 'cluster',
    arg: 'URLS',
    env: 'CALENDAR_CLUSTER',
    shown: 'unset',
    cluster: true,
    parse: plain,
    help: 'the NATS servers (nats://host:port or tls://host:port, comma-separated)',
    doc: 'run as one node of a replicated calendar on these NATS servers (`nats://host:port` or `tls://host:port`, comma-separated); the state and the users then live in the cluster and `--data` holds only `cluster.json` (which cluster, for the `user` commands); see [A replicated calendar](cluster.md)',
  },
  {
    flag: 'cluster-name',
    arg: 'N',
    env: 'CALENDAR_CLUSTER_NAME',
    shown: 'unset',
    cluster: true,
    parse: plain,
    help: "the calendar's name in the cluster (required with --cluster)",
  },
  {
    flag: 'cluster-creds',
    arg: 'F',
    env: 'CALENDAR_CLUSTER_CREDS',
    shown: 'unset',
    cluster: true,
    parse: plain,
    help: 'NATS credentials file (.creds: user JWT and NKey seed)',
    doc: 'NATS credentials file (`.creds`: a user JWT and its NKey seed, as `nsc generate creds` writes)',
  },
  {
    flag: 'cluster-user',
    arg: 'U',
    env: 'CALENDAR_CLUSTER_USER',
    shown: 'unset',
    cluster: true,
    parse: plain,
    help: 'NATS user (with a password)',
  },
  {
    flag: 'cluster-password',
    arg: 'P',
    env: 'CALENDAR_CLUSTER_PASSWORD',
    shown: 'unset',
    cluster: true,
    parse: plain,
    help: 'its password (prefer the variable: arguments show in ps)',
    doc: "the NATS user's password (prefer the variable: arguments show in `ps`)",
  },
  {
    flag: 'cluster-token',
    arg: 'T',
    env: 'CALENDAR_CLUSTER_TOKEN',
    shown: 'unset',
    cluster: true,
    parse: plain,
    help: 'NATS token (prefer the variable)',
    doc: 'NATS token (one way to log in: a credentials file, a user and password, or a token)',
  },
  {
    flag: 'cluster-tls-ca',
    arg: 'F',
    env: 'CALENDAR_CLUSTER_TLS_CA',
    shown: 'system CAs',
    cluster: true,
    parse: plain,
    help: "PEM CA certificate(s) that signed the servers' certificates",
  },
  {
    flag: 'cluster-tls-cert',
    arg: 'F',
    env: 'CALENDAR_CLUSTER_TLS_CERT',
    shown: 'unset',
    cluster: true,
    parse: plain,
    help: 'PEM client certificate (with --cluster-tls-key)',
  },
  {
    flag: 'cluster-tls-key',
    arg: 'F',
    env: 'CALENDAR_CLUSTER_TLS_KEY',
    shown: 'unset',
    cluster: true,
    parse: plain,
    help: 'PEM client private key (unencrypted)',
  },
  {
    env: 'CALENDAR_CLUSTER_REPLICAS',
    shown: '3',
    cluster: true,
    help: 'replicas of the stream and buckets when a node makes them (1 for one NATS server)',
    parse: (text) => {
      if (!/^[1-5]$/.test(text)) throw new OptionProblem(`expected 1 to 5 (JetStream's limit), got '${text}'`);
      return Number(text);
    },
  },
  {
    flag: 'node-id',
    arg: 'ID',
    env: 'CALENDAR_NODE_ID',
    shown: 'random',
    parse: plain,
    help: "cluster: this node's id in the cluster",
  },
  {
    env: 'CALENDAR_CLUSTER_LEASE_MS',
    shown: '3000',
    help: 'cluster: the writer lease, ms',
    parse: (text) => wholeAtLeast(text, 300),
  },
  {
    env: 'CALENDAR_CLUSTER_SNAPSHOT_EVERY',
    shown: '100000',
    help: 'cluster: the writer snapshots after this many writes',
    parse: (text) => wholeAtLeast(text, 0),
  },
];

function wholeAtLeast(text: string, min: number): number {
  if (!/^\d+$/.test(text) || Number(text) < min)
    throw new OptionProblem(`expected a whole number >= ${min}, got '${text}'`);
  return Number(text);
}

/** The row of a flag or variable (by its flag, else its variable's name). */
export function optionRow(name: string): OptionRow {
  const row = OPTIONS.find((o) => o.flag === name) ?? OPTIONS.find((o) => o.env === name);
  if (!row) throw new Error(`no option ${name}`);
  return row;
}

/** node:util parseArgs's options for the rows `keep` accepts. */
export function parseArgsOptions(keep: (row: OptionRow) => boolean): Record<string, { type: 'string' | 'boolean' }> {
  const out: Record<string, { type: 'string' | 'boolean' }> = {};
  for (const row of OPTIONS) if (row.flag && keep(row)) out[row.flag] = { type: row.boolean ? 'boolean' : 'string' };
  return out;
}

/** A flag's or variable's value with where it came from, for messages. */
export interface Given<T = unknown> {
  value: T;
  /** `--flag` or the variable's name */
  from: string;
  /** the text as given */
  text: string;
}

/**
 * The value of one row from the parsed flags, else its variable (an empty variable is unset),
 * parsed; undefined when neither gives it. A bad text throws OptionProblem("FROM: what was expected").
 */
export function given(
  row: OptionRow,
  values: Record<string, unknown>,
  env: Record<string, string | undefined>,
): Given | undefined {
  let text: string | undefined;
  let from = '';
  const v = row.flag ? values[row.flag] : undefined;
  if (row.boolean && v === true) return { value: true, from: `--${row.flag}`, text: '' };
  if (row.boolean && !row.env) return undefined;
  if (typeof v === 'string') [text, from] = [v, `--${row.flag}`];
  else if (row.env && env[row.env] !== undefined && env[row.env] !== '') [text, from] = [env[row.env]!, row.env];
  if (text === undefined) return undefined;
  try {
    return { value: row.parse ? row.parse(text) : text, from, text };
  } catch (err) {
    if (err instanceof OptionProblem)
      throw new OptionProblem(`${from}${err.message.startsWith('is ') ? ' ' : ': '}${err.message}`);
    throw err;
  }
}

/** `given` of the row named (its flag, else its variable). */
export function pickOption(
  name: string,
  values: Record<string, unknown>,
  env: Record<string, string | undefined>,
): Given | undefined {
  return given(optionRow(name), values, env);
}

/** The value of a row: given, else its default. */
export function optionValue<T>(
  name: string,
  values: Record<string, unknown>,
  env: Record<string, string | undefined>,
): T {
  const row = optionRow(name);
  return (given(row, values, env)?.value ?? row.value) as T;
}

/**
 * openCalendar's options checked and defaulted by the rows that have an `embed` name: each value
 * given is checked (the first problem is returned as "NAME PROBLEM"), each one missing takes the
 * row's default.
 */
export function embeddedOptions<T extends object>(opts: T): { options: T; problem?: string } {
  const out: Record<string, unknown> = { ...(opts as Record<string, unknown>) };
  for (const row of OPTIONS) {
    if (!row.embed) continue;
    const v = out[row.embed];
    if (v === undefined) {
      if (row.value !== undefined) out[row.embed] = row.value;
      continue;
    }
    const problem = row.check?.(v);
    if (problem) return { options: out as T, problem: `${row.embed} ${problem}` };
  }
  return { options: out as T };
}

const wrap = (text: string, width: number, indent: number): string => {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return lines.join(`\n${' '.repeat(indent)}`);
};

/** `--help`'s lines of the rows `keep` accepts: flag, variable, words, default. */
export function usageLines(keep: (row: OptionRow) => boolean): string {
  const rows = OPTIONS.filter((o) => (o.flag || o.env) && keep(o));
  const left = (o: OptionRow) => (o.flag ? `--${o.flag}${o.arg ? ` ${o.arg}` : ''}` : '');
  // the same columns in every group, as wide as the widest row of the whole table
  const w1 = Math.max(...OPTIONS.map((o) => left(o).length)) + 2;
  const w2 = Math.max(...OPTIONS.map((o) => (o.env ?? '').length)) + 2;
  return rows
    .map((o) => {
      const words = o.shown === 'unset' || o.boolean ? o.help : `${o.help} (default ${o.shown})`;
      return `  ${left(o).padEnd(w1)}${(o.env ?? '').padEnd(w2)}${wrap(words, 100 - 2 - w1 - w2, 2 + w1 + w2)}\n`;
    })
    .join('');
}

/** The docs' table of `serve`'s options and variables (docs/operating.md), in Markdown. */
export function docsTable(): string {
  const lines = ['| option | env | default | meaning |', '|---|---|---|---|'];
  for (const o of OPTIONS) {
    if (!o.flag && !o.env) continue;
    const flag = o.flag ? `\`--${o.flag}${o.arg ? ` ${o.arg}` : ''}\`` : '';
    const shown = /^(unset|random|seeding on|pages on|off|system CAs)$/.test(o.shown) ? o.shown : `\`${o.shown}\``;
    lines.push(`| ${flag} | ${o.env ? `\`${o.env}\`` : ''} | ${shown} | ${o.doc ?? o.help} |`);
  }
  return `${lines.join('\n')}\n`;
}
