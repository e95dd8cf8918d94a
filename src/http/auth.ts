// HTTP Basic authentication with WordPress application passwords (docs/operating.md). The header is checked against the user registry; answers are remembered
// for a short time under a SHA-256 of the header, so repeated requests (good or bad
// credentials) do not each cost an scrypt. Failed logins are limited per client address and per
// login name (src/security/login-limits.ts): past the limit, 429 with Retry-After, before any hash.

import { createHash } from 'node:crypto';
import { fail, type CalendarError } from '../api/wordpress/errors.ts';
import type { User } from '../api/wordpress/types.ts';
import { LoginLimiter, clientKey, type LoginLimitOptions } from '../security/login-limits.ts';

/** What the HTTP shell needs from the user registry (src/users/registry.ts implements it). */
export interface UserVerifier {
  byLogin(login: string): User | undefined;
  verify(login: string, password: string): User | null | Promise<User | null>;
  /** the user when this password verified before (no hash made); undefined: not known */
  known?(login: string, password: string): User | undefined;
}

export interface AuthOptions {
  /** limits on failed logins (false: none) */
  loginLimits?: LoginLimitOptions | false;
  /**
   * 'wordpress' (default): an unknown login answers 401 invalid_username and a wrong password 401
   * incorrect_password, as WordPress does (which tells whether a login exists); 'uniform': both
   * answer 401 invalid_credentials.
   */
  loginErrors?: 'wordpress' | 'uniform';
}

export interface BasicCredentials {
  login: string;
  password: string;
}

/**
 * Parses `Authorization: Basic base64(login:password)`. Returns null when the header is absent
 * or uses another scheme (WordPress ignores those: the caller is anonymous), and 'malformed'
 * for a Basic header that does not decode to `login:password`. Spaces in the password are
 * removed, as WordPress does for application passwords shown in groups.
 */
export function parseBasic(header: string | undefined): BasicCredentials | null | 'malformed' {
  if (header === undefined) return null;
  const trimmed = header.trim();
  if (trimmed.length < 6 || trimmed.slice(0, 6).toLowerCase() !== 'basic ') return null;
  const encoded = trimmed.slice(6).trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return 'malformed';
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return 'malformed';
  return { login: decoded.slice(0, colon), password: decoded.slice(colon + 1).replace(/\s+/g, '') };
}

interface Entry {
  user: User | null;
  login: string;
  expires: number;
}

/** How long an answer is reused. Registry changes show within WATCH (250 ms) + this. */
export const AUTH_CACHE_MS = 500;
const MAX_ENTRIES = 10_000;
/** how long a 429 for too many failed logins is held before it is sent, at most */
export const LIMITED_DELAY_MS = 1_000;

/**
 * Resolves Authorization headers to users. A remembered success is re-checked against the
 * registry (the login still exists with the same id and role) on every hit, so a removed user
 * stops working as soon as the registry has re-read users.json; a reset password stops working
 * at most AUTH_CACHE_MS later. Call clear() to forget everything at once.
 */
export class Authenticator {
  private cache = new Map<string, Entry>();
  /** the checks in progress, by header: the requests with the same header wait for the one answer */
  private readonly pending = new Map<string, Promise<User | null>>();
  private readonly limiter: LoginLimiter | undefined;
  private readonly uniform: boolean;
  constructor(
    private readonly users: UserVerifier,
    private readonly now: () => number = Date.now,
    opts: AuthOptions = {},
  ) {
    this.limiter = opts.loginLimits === false ? undefined : new LoginLimiter(opts.loginLimits ?? {}, now);
    this.uniform = opts.loginErrors === 'uniform';
  }

  /**
   * The acting user for this header: null when anonymous; throws 401 for bad credentials, and
   * 429 too_many_login_attempts (data.retry_after, seconds) while `client` (the peer's address)
   * or the login has failed too often.
   */
  async authenticate(header: string | undefined, client?: string): Promise<User | null> {
    if (header === undefined) return null;
    const key = createHash('sha256').update(header).digest('base64');
    const t = this.now();
    const hit = this.cache.get(key);
    if (hit !== undefined && hit.expires > t && hit.user !== null) {
      const current = this.users.byLogin(hit.login);
      if (current !== undefined && current.id === hit.user.id && current.role === hit.user.role) return hit.user;
      this.cache.delete(key);
    }
    const creds = parseBasic(header);
    if (creds === null) return null;
    const from = clientKey(client);
    if (creds === 'malformed') {
      await this.refuseIfLimited(from, '');
      this.limiter?.fail(from, '');
      throw this.uniform ? fail('invalid_credentials') : fail('invalid_username');
    }
    // a password that verified before passes without a hash, and is never limited
    const known = this.users.known?.(creds.login, creds.password);
    if (known !== undefined) return this.remember(key, known, creds.login, t);
    // the same header being checked already (a client opening many requests at once): its answer
    const pending = this.pending.get(key);
    if (pending !== undefined) {
      const user = await pending;
      if (user === null) throw this.failure(creds.login);
      return user;
    }
    await this.refuseIfLimited(from, creds.login);
    // counted as a failure before the check, so that attempts checked at once count together
    this.limiter?.fail(from, creds.login);
    // the same wrong header, just now: no hash again (it still counts as a failure)
    const failedJustNow = hit !== undefined && hit.expires > t && hit.user === null;
    let user: User | null = null;
    if (!failedJustNow) {
      const check = Promise.resolve(this.users.verify(creds.login, creds.password));
      this.pending.set(key, check);
      try {
        user = await check;
      } finally {
        this.pending.delete(key);
      }
    }
    if (user === null) {
      if (!failedJustNow) this.remember(key, null, creds.login, t);
      throw this.failure(creds.login);
    }
    this.limiter?.succeeded(from, creds.login);
    return this.remember(key, user, creds.login, t);
  }

  clear(): void {
    this.cache.clear();
  }

  private remember(key: string, user: User | null, login: string, t: number): User | null {
    if (this.cache.size >= MAX_ENTRIES) this.prune(t);
    this.cache.set(key, { user, login, expires: t + AUTH_CACHE_MS });
    return user;
  }

  /**
   * Throws 429 while the client or the login is limited, after holding the answer for up to
   * LIMITED_DELAY_MS (a client that tries again at once then tries once a second, not thousands
   * of times: a held answer costs a timer, a quick one a request's work).
   */
  private async refuseIfLimited(client: string, login: string): Promise<void> {
    const wait = this.limiter?.wait(client, login) ?? 0;
    if (wait <= 0) return;
    await new Promise((resolve) => setTimeout(resolve, Math.min(wait, LIMITED_DELAY_MS)));
    throw tooManyAttempts(this.limiter?.wait(client, login) || 1);
  }

  private failure(login: string) {
    if (this.uniform) return fail('invalid_credentials');
    return this.users.byLogin(login) === undefined ? fail('invalid_username') : fail('incorrect_password');
  }

  private prune(t: number): void {
    for (const [k, e] of this.cache) if (e.expires <= t) this.cache.delete(k);
    if (this.cache.size >= MAX_ENTRIES) this.cache.clear();
  }
}

/** 429 too_many_login_attempts; data.retry_after (seconds) is also sent as Retry-After. */
export function tooManyAttempts(waitMs: number): CalendarError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return fail('too_many_login_attempts', [seconds], { retry_after: seconds });
}
