// The small pieces of a REST answer every collection shares: a result with its status, the
// X-TEC-Total headers, a page of plain objects, and the errors of a missing parameter or a target
// that is not there.

import { type CalendarError, invalidParams, missingParams } from './wordpress/errors.ts';
import { has } from './wordpress/params.ts';
import type { Page, Params, RestResult } from './wordpress/types.ts';

type Item = Record<string, unknown>;

const JSON_HEADERS: Record<string, string> = {};

export function ok(status: number, body: string, headers: Record<string, string> = JSON_HEADERS): RestResult {
  return { status, headers, body };
}

export function totals(total: number, perPage: number): Record<string, string> {
  return { 'X-TEC-Total': String(total), 'X-TEC-TotalPages': String(total === 0 ? 0 : Math.ceil(total / perPage)) };
}

export function requireMissing(params: Params, names: string[]): void {
  const missing = names.filter((n) => !has(params, n));
  if (missing.length) throw missingParams(missing);
}

export function badTarget(name: 'id' | 'slug'): CalendarError {
  return invalidParams({ [name]: 'Invalid parameter.' });
}

export function page(items: Item[], total: number, perPage: number): Page<Item> {
  return { items, total, totalPages: total === 0 ? 0 : Math.ceil(total / perPage) };
}
