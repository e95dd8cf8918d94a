// Application passwords, WordPress style: 24 characters of [A-Za-z0-9] shown in groups of four,
// stored as `scrypt$N$r$p$salt$hash` (base64), never as themselves; checked in constant time,
// on the thread pool one at a time when asked without blocking.
import { randomBytes, randomInt, scrypt, scryptSync, timingSafeEqual } from 'node:crypto';

/** scrypt cost: node's default (about 30 ms). Successful checks are remembered (see verify). */
const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 } as const;
/** WordPress application passwords: 24 characters of [A-Za-z0-9], shown in groups of four. */
const PASSWORD_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const PASSWORD_LENGTH = 24;

/** A fresh application password, grouped as WordPress shows it: "abcd efgh ijkl mnop qrst uvwx". */
export function generatePassword(): string {
  let out = '';
  for (let i = 0; i < PASSWORD_LENGTH; i++) {
    if (i > 0 && i % 4 === 0) out += ' ';
    out += PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)];
  }
  return out;
}

/** Spaces (and other whitespace) are ignored, so the grouped and the bare forms both work. */
export function normalizePassword(password: string): string {
  return password.replace(/\s+/g, '');
}

export function hashPassword(password: string): string {
  const salt = randomBytes(16);
  const { N, r, p, keylen } = SCRYPT;
  const hash = scryptSync(normalizePassword(password), salt, keylen, { N, r, p });
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

/** The parts of a stored `scrypt$N$r$p$salt$hash` string, or undefined when it is malformed. */
function parseHash(stored: string): { N: number; r: number; p: number; salt: Buffer; expected: Buffer } | undefined {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [N, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const salt = Buffer.from(parts[4], 'base64');
  const expected = Buffer.from(parts[5], 'base64');
  if (!Number.isInteger(N) || !Number.isInteger(r) || !Number.isInteger(p) || expected.length === 0) return undefined;
  return { N, r, p, salt, expected };
}

/** Constant-time check of `password` against a stored `scrypt$...` string; false when malformed. Blocks. */
export function checkHash(password: string, stored: string): boolean {
  const h = parseHash(stored);
  if (h === undefined) return false;
  const { N, r, p, salt, expected } = h;
  const actual = scryptSync(normalizePassword(password), salt, expected.length, {
    N,
    r,
    p,
    maxmem: 256 * N * r + 1024 * 1024,
  });
  return timingSafeEqual(actual, expected);
}

/**
 * checkHash on libuv's thread pool, so the event loop keeps answering while the hash is made.
 * One runs at a time (SCRYPT_PARALLEL; the others queue): the pool also does the file system's
 * work, and a flood of wrong passwords must take neither its threads from the store nor more
 * than one core from the event loop.
 */
export function checkHashAsync(password: string, stored: string): Promise<boolean> {
  const h = parseHash(stored);
  if (h === undefined) return Promise.resolve(false);
  const { N, r, p, salt, expected } = h;
  return hashSlot(
    () =>
      new Promise<boolean>((resolve, reject) => {
        const options = { N, r, p, maxmem: 256 * N * r + 1024 * 1024 };
        scrypt(normalizePassword(password), salt, expected.length, options, (err, actual) => {
          if (err) reject(err);
          else resolve(timingSafeEqual(actual, expected));
        });
      }),
  );
}

/** scrypt computations at once on the thread pool (its default size is 4) */
const SCRYPT_PARALLEL = 1;
let hashing = 0;
const hashQueue: Array<() => void> = [];

/** Runs `fn` when fewer than SCRYPT_PARALLEL others run (first come, first served). */
async function hashSlot<T>(fn: () => Promise<T>): Promise<T> {
  if (hashing >= SCRYPT_PARALLEL) await new Promise<void>((resolve) => hashQueue.push(resolve));
  else hashing++;
  try {
    return await fn();
  } finally {
    const next = hashQueue.shift();
    if (next !== undefined)
      next(); // the slot passes on
    else hashing--;
  }
}
