// Event cost handling, after tribe-common's Tribe__Cost_Utils: numbers are found with TEC's cost regex
// (digits with optional ',' / '.' separators), the currency symbol is the text left around the number
// (it must be the same across every cost), and the display string is "min – max" with 0 as "Free".

import { escapeHtml, sanitizeSlug } from './text.ts';

const COST_NUMBER = /[,.]?(\d+)[,.]?(\d*)/g;
const PHP_NUMERIC = /^[ \t\n\r\v\f]*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?[ \t\n\r\v\f]*$/;

/** PHP is_numeric(). */
function isNumeric(s: string): boolean {
  return PHP_NUMERIC.test(s);
}

interface CostEntry {
  /** numeric entries: the value rounded to the range's decimals; text entries: null */
  key: number | null;
  /** text entries are ordered after numbers by their slug, like PHP's ksort on mixed keys */
  textKey: string;
  value: string;
}

/**
 * parse_cost_range(): every number found in each cost (costs with no number stay whole), de-duplicated by value.
 * Sorted (numbers ascending, then text) unless `sort` is false, in which case first-seen order is kept.
 */
function parseCostRange(costs: string[], sort = true): CostEntry[] {
  const pieces: string[] = [];
  let decimals = 0;
  for (const cost of costs) {
    COST_NUMBER.lastIndex = 0;
    const found: string[] = [];
    let m: RegExpExecArray | null;
    while ((m = COST_NUMBER.exec(cost)) !== null) {
      found.push(m[0]);
      decimals = Math.max(decimals, m[2].length);
    }
    if (found.length === 0) pieces.push(cost);
    else pieces.push(...found);
  }
  const scale = 10 ** decimals;
  const byKey = new Map<string, CostEntry>();
  for (const piece of pieces) {
    const numeric = piece.replace(/[,.]/g, '.');
    if (isNumeric(numeric)) {
      const key = Math.round(Number(numeric) * scale);
      const id = 'n' + key;
      const seen = byKey.get(id);
      // PHP: a repeated key keeps its first position but takes the last value
      if (seen !== undefined) seen.value = piece;
      else byKey.set(id, { key, textKey: '', value: piece });
    } else {
      const textKey = sanitizeSlug(numeric);
      const id = 't' + textKey;
      const seen = byKey.get(id);
      if (seen !== undefined) seen.value = piece;
      else byKey.set(id, { key: null, textKey, value: piece });
    }
  }
  const entries = [...byKey.values()];
  if (sort) {
    entries.sort((a, b) => {
      if (a.key !== null && b.key !== null) return a.key - b.key;
      if (a.key !== null) return -1;
      if (b.key !== null) return 1;
      return a.textKey < b.textKey ? -1 : a.textKey > b.textKey ? 1 : 0;
    });
  }
  return entries;
}

/** Trailing separators belong to the sentence ('10, 20'), not to the number. */
function cleanNumber(value: string): string {
  return value.replace(/[,.]+$/, '');
}

function normaliseInput(input: unknown): string[] | null {
  if (input === undefined || input === null) return null;
  if (typeof input === 'number') return Number.isFinite(input) ? [String(input)] : null;
  if (typeof input === 'string') return [input];
  if (Array.isArray(input)) {
    const out: string[] = [];
    for (const item of input) {
      if (typeof item === 'number' && Number.isFinite(item)) out.push(String(item));
      else if (typeof item === 'string') out.push(item);
    }
    return out;
  }
  return null;
}

/** parse_currency_symbol(): the text around the number, the same for every cost that has a number; '' otherwise. */
function currencySymbolOf(originals: string[]): string {
  const entries = parseCostRange(originals, false);
  const symbols: string[] = [];
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    if (entry.key === null) continue;
    const original = originals[i] ?? '';
    symbols.push(original.split(entry.value).join('').trim());
    if (symbols[symbols.length - 1] !== symbols[0]) return '';
  }
  return symbols.length > 0 ? symbols[0] : '';
}

/** parse_currency_position(): 'prefix' when the symbol starts the (trimmed) cost, else 'postfix'; '' when inconsistent. */
function currencyPositionOf(originals: string[], symbol: string): string {
  if (symbol === '') return '';
  const positions: string[] = [];
  for (const original of originals) {
    const at = original.trim().indexOf(symbol);
    if (at < 0) continue;
    positions.push(at === 0 ? 'prefix' : 'postfix');
    if (positions[positions.length - 1] !== positions[0]) return '';
  }
  return positions.length > 0 ? positions[0] : '';
}

/**
 * From the request value (string, number or array of strings) → what to store: one cost per array element (a string
 * is one cost), empty ones dropped. The symbol is the non-numeric text around the numbers (comma-separated numbers in
 * one string count as several costs); position 'prefix' when it precedes the number, else 'postfix'; inconsistent
 * symbols or positions → '' and ''.
 */
export function parseCost(input: unknown): { costs: string[]; currencySymbol: string; currencyPosition: string } {
  const raw = normaliseInput(input);
  if (raw === null) return { costs: [], currencySymbol: '', currencyPosition: '' };
  const costs = raw.map((c) => c.trim()).filter((c) => c !== '');
  if (costs.length === 0) return { costs: [], currencySymbol: '', currencyPosition: '' };
  const originals = costs.length === 1 ? costs[0].split(/\s*,\s*/) : costs;
  const currencySymbol = currencySymbolOf(originals);
  const currencyPosition = currencyPositionOf(originals, currencySymbol);
  return { costs, currencySymbol, currencyPosition };
}

/** get_event_costs(): the union of each stored cost's parsed values, first occurrence wins. */
function eventCosts(costs: string[]): CostEntry[] {
  const seen = new Set<string>();
  const out: CostEntry[] = [];
  for (const cost of costs) {
    if (cost === '') continue;
    for (const entry of parseCostRange([cost])) {
      const id = entry.key !== null ? 'n' + entry.key : 't' + entry.textKey;
      if (seen.has(id)) continue;
      seen.add(id);
      out.push(entry);
    }
  }
  return out;
}

/** cost_details.values: every number as a numeric string sorted ascending ('0','20','30'); costs without a number contribute their raw text. */
export function costValues(costs: string[]): string[] {
  const entries = eventCosts(costs);
  const numbers = entries.filter((e) => e.key !== null).map((e) => cleanNumber(e.value));
  numbers.sort((a, b) => Number(a.replace(',', '.')) - Number(b.replace(',', '.')));
  const texts = entries.filter((e) => e.key === null).map((e) => e.value);
  return [...numbers, ...texts];
}

/** get_cost_by_func(): the lowest/highest numeric cost; a single non-numeric cost is returned as is; nothing numeric → '0'. */
function costBy(values: string[], which: 'min' | 'max'): string {
  const entries = parseCostRange(values);
  if (entries.length === 1 && !isNumeric(entries[0].value)) return entries[0].value;
  const numeric = entries.filter((e) => e.key !== null && isNumeric(e.value));
  if (numeric.length === 0) return '0';
  const pick = which === 'min' ? numeric[0] : numeric[numeric.length - 1];
  return pick.value === '' || pick.value === '0' ? '0' : pick.value;
}

/**
 * The human `cost` string: '' when there are no costs; a value of 0 is 'Free'; numeric values get the currency symbol
 * at its position (no stored symbol → `defaultSymbol`, TEC's "$" site default; no stored position → prefix);
 * several values → 'min – max' (en dash with spaces), e.g. 'Free – 30$'; a single non-numeric cost is shown as given.
 * The result is HTML-escaped like esc_html().
 */
export function formatCost(
  costs: string[],
  currencySymbol: string,
  currencyPosition: string,
  defaultSymbol = '$',
): string {
  const values = eventCosts(costs).map((e) => cleanNumber(e.value));
  if (values.length === 0) return '';
  const symbol = currencySymbol !== '' ? currencySymbol : defaultSymbol;
  const postfix = currencyPosition !== '' && currencyPosition !== 'prefix';
  const shown = (['min', 'max'] as const).map((which) => {
    let cost = costBy(values, which);
    const withPeriod = cost.replace(/[,.]/g, '.');
    if (isNumeric(withPeriod) && Math.round(Number(withPeriod) * 100) === 0) return 'Free';
    if (isNumeric(cost.replace(/[,.]/g, ''))) cost = postfix ? cost + symbol : symbol + cost;
    return escapeHtml(cost);
  });
  return shown[0] === shown[1] ? shown[0] : `${shown[0]} \u2013 ${shown[1]}`;
}
