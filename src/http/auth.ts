// HTTP Basic authentication with WordPress application passwords (CONTRACT.md, "Users and
// authentication"). The header is checked against the user registry; answers are remembered
// for a short time under a SHA-256 of the header, so repeated requests (good or bad
// credentials) do not each cost an scrypt.

import { createHash } from 'node:crypto';
import { fail } from '../api/wordpress/errors.ts';
import type { User } from '../api/wordpress/types.ts';

/** What the HTTP shell needs from the user registry (src/api/wordpress/users.ts implements it). */
export interface UserVerifier {
  byLogin(login: string): User | undefined;
  verify(login: string, password: string): User | null | Promise<User | null>;
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

/**
 * Resolves Authorization headers to users. A remembered success is re-checked against the
 * registry (the login still exists with the same id and role) on every hit, so a removed user
 * stops working as soon as the registry has re-read users.json; a reset password stops working
 * at most AUTH_CACHE_MS later. Call clear() to forget everything at once.
 */
export class Authenticator {
  private cache = new Map<string, Entry>();
  constructor(
    private readonly users: UserVerifier,
    private readonly now: () => number = Date.now,
  ) {}

  /** The acting user for this header: null when anonymous; throws 401 for bad credentials. */
  async authenticate(header: string | undefined): Promise<User | null> {
    if (header === undefined) return null;
    const key = createHash('sha256').update(header).digest('base64');
    const t = this.now();
    const hit = this.cache.get(key);
    if (hit !== undefined && hit.expires > t) {
      if (hit.user === null) throw this.failure(hit.login);
      const current = this.users.byLogin(hit.login);
      if (current !== undefined && current.id === hit.user.id && current.role === hit.user.role) return hit.user;
      this.cache.delete(key);
    }
    const creds = parseBasic(header);
    if (creds === null) return null;
    if (creds === 'malformed') throw fail('invalid_username');
    const user = await this.users.verify(creds.login, creds.password);
    if (this.cache.size >= MAX_ENTRIES) this.prune(t);
    this.cache.set(key, { user, login: creds.login, expires: t + AUTH_CACHE_MS });
    if (user === null) throw this.failure(creds.login);
    return user;
  }

  clear(): void {
    this.cache.clear();
  }

  private failure(login: string) {
    return this.users.byLogin(login) === undefined ? fail('invalid_username') : fail('incorrect_password');
  }

  private prune(t: number): void {
    for (const [k, e] of this.cache) if (e.expires <= t) this.cache.delete(k);
    if (this.cache.size >= MAX_ENTRIES) this.cache.clear();
  }
}
