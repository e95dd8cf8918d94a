// JSON text as ASCII only: every character above 0x7f written as a \uXXXX escape (surrogate
// pairs as two), which JSON.parse reads back exactly. WordPress's wp_json_encode emits response
// JSON this way (src/api/representation/represent.ts), and snapshot lines are stored this way so a load decodes
// them as latin1 (src/store/snapshot.ts). Shared by both layers; depends on nothing.

const HAS_NON_ASCII = /[\u0080-\uffff]/;
const NON_ASCII = /[\u0080-\uffff]/g;
const escapeUnit = (c: string): string => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0');

/** `json` (JSON text) with its non-ASCII characters escaped; the same string when there are none. */
export function escapeNonAscii(json: string): string {
  return HAS_NON_ASCII.test(json) ? json.replace(NON_ASCII, escapeUnit) : json;
}

// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /["\\\u0000-\u001f\u0080-\uffff]/g;
const SHORT_ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\b': '\\b', '\t': '\\t', '\n': '\\n', '\f': '\\f', '\r': '\\r' };
const escapeChar = (c: string): string => SHORT_ESCAPES[c] ?? escapeUnit(c);

/**
 * A string's JSON text without its quotes, ASCII only: what escapeNonAscii(JSON.stringify(s))
 * holds between its quotes (the short escapes JSON.stringify uses, \u00XX for other control
 * characters, every unit above 0x7f, lone surrogates included, as lowercase \uXXXX), found in one
 * native scan instead of a stringify and a second pass.
 */
export function escapeJsonText(s: string): string {
  return s.replace(NEEDS_ESCAPE, escapeChar);
}
