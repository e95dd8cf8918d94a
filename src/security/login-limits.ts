// Limits on failed logins, per client address and per login name. Each key has a leaky bucket:
// a failure adds one, the bucket drains at `limit` per `windowMs`, and while it holds `limit` or
// more, further attempts are refused (429 with Retry-After) before any password is hashed. A
// success does not empty a bucket (an attacker holding one valid password could otherwise reset
// their own address's), and a password that verified before is recognised without a hash and is
// never refused (src/http/auth.ts), so a flood against a login does not lock its owner out.

import { isIP } from 'node:net';
import { DEFAULT_LOGIN_PER_CLIENT, DEFAULT_LOGIN_PER_LOGIN } from '../options/defaults.ts';

export interface LoginLimitOptions {
  /** failed logins one client address may make per window before it is refused (default 10; 0: no limit) */
  perClient?: number;
  /** failed logins for one login name, from every address together, per window (default 30; 0: no limit) */
  perLogin?: number;
  /** the window, ms (default 60,000) */
  windowMs?: number;
  /** keys kept at most (default 100,000); past it the drained ones go, then the oldest */
  maxKeys?: number;
}

export const DEFAULT_LOGIN_LIMITS = {
  perClient: DEFAULT_LOGIN_PER_CLIENT,
  perLogin: DEFAULT_LOGIN_PER_LOGIN,
  windowMs: 60_000,
  maxKeys: 100_000,
} as const;

interface Bucket {
  level: number;
  at: number;
}

/** One kind of key's buckets. */
class Buckets {
  private readonly map = new Map<string, Bucket>();
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly maxKeys: number,
  ) {}

  private level(b: Bucket, t: number): number {
    return Math.max(0, b.level - ((t - b.at) * this.limit) / this.windowMs);
  }

  /** ms until `key` may try again (0: now). */
  wait(key: string, t: number): number {
    if (this.limit <= 0) return 0;
    const b = this.map.get(key);
    if (b === undefined) return 0;
    // one more failure must fit: the level must be at most limit - 1
    const over = this.level(b, t) - (this.limit - 1);
    return over <= 0 ? 0 : Math.ceil((over * this.windowMs) / this.limit);
  }

  /** Adds `n` (1: a failure, -1: an attempt counted ahead that succeeded). */
  add(key: string, t: number, n = 1): void {
    if (this.limit <= 0) return;
    const b = this.map.get(key);
    const level = b === undefined ? 0 : this.level(b, t);
    if (n < 0) {
      if (b !== undefined) this.map.set(key, { level: Math.max(0, level + n), at: t });
      return;
    }
    if (b === undefined && this.map.size >= this.maxKeys) this.prune(t);
    this.map.delete(key); // re-inserted last: the map stays in order of last failure
    this.map.set(key, { level: level + n, at: t });
  }

  private prune(t: number): void {
    for (const [k, b] of this.map) if (this.level(b, t) === 0) this.map.delete(k);
    // still full: the least recently failed go (a map iterates in insertion order)
    for (const k of this.map.keys()) {
      if (this.map.size < this.maxKeys * 0.9) break;
      this.map.delete(k);
    }
  }

  get size(): number {
    return this.map.size;
  }
}

/**
 * The address a client is counted under: an IPv4 address (also when written IPv4-mapped,
 * `::ffff:192.0.2.1`), or an IPv6 address's /64 (one host commonly holds a whole /64).
 */
export function clientKey(address: string | undefined): string {
  if (address === undefined || address === '') return '?';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (isIP(address) !== 6) return address;
  const groups = expandV6(address);
  return groups === undefined ? address : `${groups.slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address, as hex without leading zeros; undefined when it is not one. */
function expandV6(address: string): string[] | undefined {
  const bare = address.replace(/%.*$/, '');
  const halves = bare.split('::');
  if (halves.length > 2) return undefined;
  const part = (s: string) => (s === '' ? [] : s.split(':'));
  const head = part(halves[0]);
  const tail = halves.length === 2 ? part(halves[1]) : [];
  // an embedded IPv4 tail (::ffff:1.2.3.4) is two groups
  const last = tail.length > 0 ? tail : head;
  const v4 = last.length > 0 && last[last.length - 1].includes('.') ? last.pop()!.split('.').map(Number) : undefined;
  if (v4) last.push(((v4[0] << 8) | v4[1]).toString(16), ((v4[2] << 8) | v4[3]).toString(16));
  const fill = 8 - head.length - tail.length;
  if (halves.length === 1 ? fill !== 0 : fill < 1) return undefined;
  const zeros = Array<string>(halves.length === 2 ? fill : 0).fill('0');
  return [...head, ...zeros, ...tail].map((g) => parseInt(g, 16).toString(16));
}

/** Failed logins by client address and by login name. */
export class LoginLimiter {
  private readonly clients: Buckets;
  private readonly logins: Buckets;

  constructor(
    opts: LoginLimitOptions = {},
    private readonly now: () => number = Date.now,
  ) {
    const { perClient, perLogin, windowMs, maxKeys } = { ...DEFAULT_LOGIN_LIMITS, ...opts };
    this.clients = new Buckets(perClient, windowMs, maxKeys);
    this.logins = new Buckets(perLogin, windowMs, maxKeys);
  }

  /** ms until this client may try this login again (0: now). */
  wait(client: string, login: string): number {
    const t = this.now();
    return Math.max(this.clients.wait(client, t), this.logins.wait(login.toLowerCase(), t));
  }

  /**
   * Counts a failed login (a wrong password, an unknown login, a malformed header). Called before
   * the password is checked, so that attempts being checked at once count too; succeeded() then
   * takes a success's back.
   */
  fail(client: string, login: string): void {
    const t = this.now();
    this.clients.add(client, t);
    if (login !== '') this.logins.add(login.toLowerCase(), t);
  }

  /** An attempt counted by fail() succeeded after all. */
  succeeded(client: string, login: string): void {
    const t = this.now();
    this.clients.add(client, t, -1);
    if (login !== '') this.logins.add(login.toLowerCase(), t, -1);
  }

  /** keys held (for tests) */
  get size(): { clients: number; logins: number } {
    return { clients: this.clients.size, logins: this.logins.size };
  }
}
