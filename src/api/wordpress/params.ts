// Coercion of raw REST parameters (strings from query/form bodies, or JSON values) following
// WordPress core and TEC rules. Each helper returns `undefined` for "invalid" so callers can
// collect every invalid parameter before failing, as core does.

import type { Params } from './types.ts';

export const INVALID = 'Invalid parameter.';

export function has(params: Params, name: string): boolean {
  return Object.hasOwn(params, name) && params[name] !== undefined;
}

/** A scalar string value: strings as is, finite numbers and booleans stringified; else undefined. */
export function asString(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'boolean') return v ? '1' : '';
  return undefined;
}

/** WordPress rest_is_boolean + rest_sanitize_boolean: true/false, 'true'/'false', '1'/'0', 1/0 (case-insensitive). */
export function asStrictBoolean(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v === 1 ? true : v === 0 ? false : undefined;
  if (typeof v === 'string') {
    const s = v.toLowerCase();
    if (s === 'true' || s === '1') return true;
    if (s === 'false' || s === '0') return false;
  }
  return undefined;
}

const TRUTHY = new Set(['1', 'true', 'yes', 'y', 'on', 'enable', 'enabled']);

/** TEC's tribe_is_truthy: true for 1, true, yes, y, on, enable, enabled (case-insensitive); false otherwise. */
export function isTruthy(v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string') return TRUTHY.has(v.trim().toLowerCase());
  return false;
}

/** A positive integer (1, '12'); '1.5', '0', '-1', 'foo' → undefined. */
export function asPositiveInt(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isInteger(v) && v > 0 ? v : undefined;
  if (typeof v === 'string' && /^\s*\d+\s*$/.test(v)) {
    const n = Number(v);
    return n > 0 && Number.isSafeInteger(n) ? n : undefined;
  }
  return undefined;
}

/** A non-negative integer id (numbers or digit strings). */
export function asId(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isSafeInteger(v) && v >= 0 ? v : undefined;
  if (typeof v === 'string' && /^\s*\d+\s*$/.test(v)) {
    const n = Number(v);
    return Number.isSafeInteger(n) ? n : undefined;
  }
  return undefined;
}

/** A finite number (or numeric string). */
export function asNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

/**
 * WordPress list syntax: an array (`a[]=1&a[]=2`, JSON array) or a comma-separated string;
 * whitespace around items ignored, empty items dropped. Non-scalar items → undefined (invalid).
 */
export function asList(v: unknown): string[] | undefined {
  if (typeof v === 'string') return splitList(v, []);
  const raw: unknown[] = Array.isArray(v) ? v : typeof v === 'object' && v !== null ? Object.values(v) : [v];
  const out: string[] = [];
  for (const item of raw) {
    const s = asString(item);
    if (s === undefined) return undefined;
    for (const part of s.split(',')) {
      const t = part.trim();
      if (t !== '') out.push(t);
    }
  }
  return out;
}

/** The comma-separated items of s, trimmed, empty ones dropped, appended to out. */
function splitList(s: string, out: string[]): string[] {
  let from = 0;
  for (;;) {
    let to = s.indexOf(',', from);
    if (to < 0) to = s.length;
    const a = from,
      b = to;
    // String.prototype.trim's whitespace, in the common case of none: the slice as is
    if (a < b && (isSpace(s.charCodeAt(a)) || isSpace(s.charCodeAt(b - 1)))) {
      const t = s.slice(a, b).trim();
      if (t !== '') out.push(t);
    } else if (a < b) out.push(s.slice(a, b));
    if (to === s.length) return out;
    from = to + 1;
  }
}

/** Whether the code unit may be whitespace for String.prototype.trim (a superset is fine: such items take the exact trim). */
function isSpace(c: number): boolean {
  return (
    c <= 32 ||
    (c >= 0x7f && c <= 0xa0) ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** Reasons collected while validating; `fail()` them all at once. */
export class Problems {
  readonly reasons: Record<string, string> = {};
  private count = 0;
  add(name: string, reason: string = INVALID): void {
    if (!(name in this.reasons)) {
      this.reasons[name] = reason;
      this.count++;
    }
  }
  get any(): boolean {
    return this.count > 0;
  }
}
