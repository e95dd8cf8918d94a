// WordPress text behaviour the REST layer needs: slugs, plain-text fields, search-term parsing and
// URL checks (the post KSES allow-list: kses.ts). How stored text is shown (wptexturize, wpautop) is in display.ts.
// Ports of the WordPress functions of the same names, reduced to their common rules; each function
// says what it leaves out.

// ---------------------------------------------------------------------------------------------
// Tags

const SCRIPT_STYLE = /<(script|style)[^>]*?>[\s\S]*?<\/\1\s*>/gi;
const TAG = /<\/?[A-Za-z!?/][^>]*(?:>|$)/g;

/** PHP strip_tags(): removes tags and comments; a '<' followed by a space is text. */
export function stripTags(s: string): string {
  return s.replace(/<!--[\s\S]*?(?:-->|$)/g, '').replace(TAG, '');
}

/** wp_strip_all_tags(): script/style elements go with their content, then strip_tags, then trim. */
export function stripAllTags(s: string): string {
  return stripTags(s.replace(SCRIPT_STYLE, '')).trim();
}

/** esc_html(): &, <, >, " and ' as entities; existing entities kept. */
export function escapeHtml(s: string): string {
  return normalizeEntities(s)
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#039;');
}

/** wp_kses_normalize_entities(), simplified: an '&' that does not start an entity becomes '&amp;'. */
export function normalizeEntities(s: string): string {
  return s.replace(/&(?!#[0-9]+;|#x[0-9a-f]+;|[a-z][a-z0-9]*;)/gi, '&amp;');
}

// ---------------------------------------------------------------------------------------------
// Slugs and plain text

/** remove_accents(): Latin letters lose their marks; a few letters get WordPress's spelled-out forms. */
const SPECIAL_LETTERS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ø: 'o',
  Ø: 'O',
  đ: 'd',
  Đ: 'D',
  ð: 'd',
  Ð: 'D',
  þ: 'th',
  Þ: 'TH',
  ł: 'l',
  Ł: 'L',
  ħ: 'h',
  Ħ: 'H',
  ı: 'i',
  ĳ: 'ij',
  Ĳ: 'IJ',
  ŀ: 'l',
  Ŀ: 'L',
  ŉ: 'n',
  ŋ: 'n',
  Ŋ: 'N',
  ſ: 's',
  ª: 'a',
  º: 'o',
  '€': 'E',
};

export function removeAccents(s: string): string {
  if (!/[^\x00-\x7f]/.test(s)) return s;
  let out = '';
  for (const ch of s) {
    if (ch.charCodeAt(0) < 128) {
      out += ch;
      continue;
    }
    const special = SPECIAL_LETTERS[ch];
    if (special !== undefined) {
      out += special;
      continue;
    }
    const base = ch.normalize('NFD');
    const first = base.charCodeAt(0);
    // only letters whose decomposition starts with an ASCII letter are transliterated
    out += first < 128 && /^[A-Za-z][\u0300-\u036f]+$/.test(base) ? base[0] : ch;
  }
  return out;
}

/**
 * sanitize_title() with sanitize_title_with_dashes(..., 'save'): strip tags, remove accents, lower case,
 * whitespace/dots/slashes → '-', other punctuation dropped, non-ASCII kept as lower-case %xx octets,
 * dashes collapsed and trimmed. Underscores are kept, as in WordPress. '' when nothing is left.
 */
/** A slug sanitize_title leaves as it is: lower-case ASCII words joined by single dashes. */
const CLEAN_SLUG = /^[a-z0-9_]+(?:-[a-z0-9_]+)*$/;

export function sanitizeSlug(s: string): string {
  if (CLEAN_SLUG.test(s)) return s; // imports and exports carry clean slugs
  let t = removeAccents(stripTags(String(s)));
  // keep escaped octets, drop other percent signs
  t = t
    .replace(/%([a-fA-F0-9]{2})/g, '---$1---')
    .replace(/%/g, '')
    .replace(/---([a-fA-F0-9]{2})---/g, '%$1');
  t = t.toLowerCase();
  // typographic characters WordPress turns into dashes or drops, matched before URL-encoding
  t = t.replace(/[\u00a0\u2013\u2014\u2000-\u200a\u2028\u2029\u202f]/g, '-');
  t = t.replace(
    // biome-ignore lint/suspicious/noMisleadingCharacterClass: each combining mark is removed on its own
    /[\u00ad\u00a1\u00bf\u00ab\u00bb\u2039\u203a\u2018\u2019\u201c\u201d\u201a\u201b\u201e\u201f\u2022\u00a9\u00ae\u00b0\u2026\u2122\u00b4\u02ca\u0301\u0341\u0300\u0304\u030c]/g,
    '',
  );
  t = t.replace(/\u00d7/g, 'x');
  t = t.replace(/&nbsp;|&#160;|&ndash;|&#8211;|&mdash;|&#8212;/g, '-');
  t = t.replace(/\//g, '-');
  // utf8_uri_encode: remaining non-ASCII characters become lower-case octets
  t = t.replace(/[^\x00-\x7f]/gu, (ch) => encodeURIComponent(ch).toLowerCase());
  t = t.replace(/&.+?;/g, '');
  t = t.replace(/\./g, '-');
  t = t.replace(/[^%a-z0-9 _-]/g, '');
  t = t.replace(/\s+/g, '-');
  t = t.replace(/-+/g, '-');
  return t.replace(/^-+|-+$/g, '');
}

/** sanitize_text_field(): lone '<' escaped, tags stripped, line breaks/tabs/space runs → one space, %xx octets removed, trimmed. */
export function sanitizeTextField(s: string): string {
  let t = String(s);
  if (t.includes('<')) {
    // wp_pre_kses_less_than: a '<' that never closes is text
    t = t.replace(/<[^>]*?((?=<)|>|$)/g, (m) => (m.includes('>') ? m : m.replace(/</g, '&lt;')));
    t = stripAllTags(t);
    t = t.replace(/<\n/g, '&lt;\n');
  }
  t = t.replace(/[\r\n\t ]+/g, ' ').trim();
  let found = false;
  let prev: string;
  do {
    prev = t;
    t = t.replace(/%[a-f0-9]{2}/gi, '');
    if (t !== prev) found = true;
  } while (t !== prev);
  if (found) t = t.replace(/ +/g, ' ').trim();
  return t;
}

// ---------------------------------------------------------------------------------------------
// Search

/** NFD, combining marks stripped, lower case: the accent- and case-insensitive form both sides are compared in. */
export function foldForSearch(s: string): string {
  return String(s)
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

const STOPWORDS = new Set([
  'about',
  'an',
  'are',
  'as',
  'at',
  'be',
  'by',
  'com',
  'for',
  'from',
  'how',
  'in',
  'is',
  'it',
  'of',
  'on',
  'or',
  'that',
  'the',
  'this',
  'to',
  'was',
  'what',
  'when',
  'where',
  'who',
  'will',
  'with',
  'www',
]);

/**
 * WP_Query::parse_search(): quoted phrases stay whole, other terms split on spaces, tabs, commas, '+' and quotes;
 * single letters, lone dashes and stopwords dropped; nothing left or more than 9 terms → the whole string is one term;
 * a term starting with '-' is an exclusion. Terms are returned folded (foldForSearch).
 */
export function parseSearch(s: string): { include: string[]; exclude: string[] } {
  const q = String(s).replace(/[\r\n]/g, '');
  const matches = q.match(/".*?("|$)|((?<=[\t ",+])|^)[^\t ",+]+/g);
  let terms: string[] = [];
  if (matches !== null) {
    for (const raw of matches) {
      const term = /^".+"$/.test(raw) ? raw.replace(/^["']+|["']+$/g, '') : raw.replace(/^["' ]+|["' ]+$/g, '');
      if (term === '' || (term.length === 1 && /^[a-z-]$/i.test(term))) continue;
      if (STOPWORDS.has(term.toLowerCase())) continue;
      terms.push(term);
    }
  }
  if (terms.length === 0 || terms.length > 9) terms = [q];
  const include: string[] = [];
  const exclude: string[] = [];
  for (const term of terms) {
    if (term.startsWith('-')) {
      const rest = foldForSearch(term.slice(1));
      if (rest !== '') exclude.push(rest);
    } else {
      const folded = foldForSearch(term);
      if (folded !== '') include.push(folded);
    }
  }
  return { include, exclude };
}

/** Venue/organizer search words (docs/behaviour.md): the folded string split on every run of characters other than ASCII letters, digits and '-'. */
export function linkedPostSearchWords(s: string): string[] {
  return foldForSearch(s)
    .split(/[^A-Za-z0-9-]+/)
    .filter((w) => w !== '');
}

// ---------------------------------------------------------------------------------------------
// URLs

/** wp_allowed_protocols(): the URL schemes a link may have (esc_url, KSES). */
export const ALLOWED_PROTOCOLS = new Set([
  'http',
  'https',
  'ftp',
  'ftps',
  'mailto',
  'news',
  'irc',
  'irc6',
  'ircs',
  'gopher',
  'nntp',
  'feed',
  'telnet',
  'mms',
  'rtsp',
  'sms',
  'svn',
  'tel',
  'fax',
  'xmpp',
  'webcal',
  'urn',
]);

/** Characters esc_url() keeps; anything else is stripped (so a URL containing them is not "clean"). */
const URL_STRIP = /[^a-z0-9\-~+_.?#=!&;,/:%@$|*'()[\]\x80-\uffff]/gi;

/** A URL TEC accepts for `website`: esc_url_raw() leaves it unchanged and it is an absolute http(s) URL with a host. 'foo' → false. */
export function isValidUrl(s: string): boolean {
  if (typeof s !== 'string' || s === '' || s !== s.trim()) return false;
  if (s.replace(URL_STRIP, '') !== s) return false;
  if (!/^https?:\/\/[^/?#\s]+/i.test(s)) return false;
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

/** An http(s) URL that esc_url leaves as it is (only characters it keeps; no '&', "'", space). */
const PLAIN_URL = /^https?:\/\/[A-Za-z0-9\-._~/:%?=#+@!$*,;]*$/;

/**
 * esc_url() for output: spaces → %20, disallowed characters stripped, 'http://' prepended to scheme-less
 * host-like values, disallowed protocols → '', '&' → &#038; and "'" → &#039;.
 */
export function escapeUrl(s: string): string {
  if (PLAIN_URL.test(s)) return s;
  let url = String(s).trim();
  if (url === '') return '';
  url = url.replace(/ /g, '%20').replace(URL_STRIP, '');
  if (url === '') return '';
  if (!url.includes(':') && !/^[/#?]/.test(url) && !/^[a-z0-9-]+?\.php/i.test(url)) url = 'http://' + url;
  const scheme = /^([^:/?#]+):/.exec(url);
  if (scheme !== null && !ALLOWED_PROTOCOLS.has(scheme[1].toLowerCase())) return '';
  url = url.replace(/&(?!#[0-9]+;|#x[0-9a-f]+;|[a-z][a-z0-9]*;)/gi, '&#038;').replace(/&amp;/g, '&#038;');
  return url.replace(/'/g, '&#039;');
}
