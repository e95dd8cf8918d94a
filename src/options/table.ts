// The calendar's options, one table: each row defines an option once — its openCalendar name, its
// `serve` flag and CALENDAR_* (or HOST/PORT) variable, its default, how a flag's or variable's text
// is parsed and checked, how a value given to openCalendar is checked, and the words of `--help`
// and of the options table in docs/operating.md (row.ts: a row's fields). The cluster's rows:
// cluster-table.ts. What reads the table: options.ts. A new option is one more row (and its use
// where it acts).

import { CLUSTER_OPTIONS } from './cluster-table.ts';
import {
  DEFAULT_CACHE_BYTES,
  DEFAULT_LOGIN_PER_CLIENT,
  DEFAULT_LOGIN_PER_LOGIN,
  DEFAULT_PROBE_MS,
  DEFAULT_RETAIN_BYTES,
  DEFAULT_RETAIN_COUNT,
  DEFAULT_RETAIN_MS,
  DEFAULT_SITE_LOCALE,
  DEFAULT_SITE_TITLE,
  DEFAULT_UPLOAD_LIMIT,
} from './defaults.ts';
import { isValidTimezone } from '../api/wordpress/dates.ts';
import { parseSize } from '../memory/sizing.ts';
import {
  loginCount,
  mib,
  OptionProblem,
  type OptionRow,
  type Retention,
  positive,
  switchText,
  validLocale,
} from './row.ts';

const DAY_MS = 86_400_000;

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
  ...CLUSTER_OPTIONS,
];
