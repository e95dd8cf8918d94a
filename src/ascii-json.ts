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

const SHORT_ESCAPES: Record<number, string> = { 0x22: '\\"', 0x5c: '\\\\', 0x08: '\\b', 0x09: '\\t', 0x0a: '\\n', 0x0c: '\\f', 0x0d: '\\r' };
/** the escape of each unit below 0x100 that needs one (undefined: ASCII from 0x20 on, itself) */
const LOW_ESCAPES: (string | undefined)[] = Array.from({ length: 0x100 }, (_, c) =>
  c >= 0x20 && c < 0x80 && c !== 0x22 && c !== 0x5c ? undefined : SHORT_ESCAPES[c] ?? escapeUnit(String.fromCharCode(c)));

/**
 * A string's JSON text without its quotes, ASCII only: what escapeNonAscii(JSON.stringify(s))
 * holds between its quotes (the short escapes JSON.stringify uses, \u00XX for other control
 * characters, every unit above 0x7f, lone surrogates included, as lowercase \uXXXX); `s` itself
 * when nothing needs escaping. One pass over the units, the text between escapes taken as slices:
 * a replace() with a callback cost about twice as much, most of it calling back for each match.
 */
export function escapeJsonText(s: string): string {
  let out = '', last = 0;
  for (let i = 0, n = s.length; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0x80 && c !== 0x22 && c !== 0x5c) continue; // DEL (0x7f) too, as JSON.stringify
    out += s.slice(last, i) + (c < 0x100 ? LOW_ESCAPES[c] : escapeUnit(s[i]));
    last = i + 1;
  }
  return last === 0 ? s : out + s.slice(last);
}
