// The options' defaults that the code they govern reads too (the feed's window, the cache's
// budget, the upload limit, the probe, the pages' title and locale, the login limits); the table
// (table.ts) shows them in `--help` and the docs.

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
