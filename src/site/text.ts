// Text as the pages show it. The REST representation's titles and names are HTML (the display
// filters turn quotes and dashes into entities); the pages show them as text, which the template
// layer escapes again. Descriptions stay HTML, filtered once more by KSES on their way out.

import { kses } from '../api/wordpress/kses.ts';

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  hellip: '\u2026',
  ndash: '\u2013',
  mdash: '\u2014',
  lsquo: '\u2018',
  rsquo: '\u2019',
  ldquo: '\u201c',
  rdquo: '\u201d',
  times: '\u00d7',
  copy: '\u00a9',
  reg: '\u00ae',
  trade: '\u2122',
  euro: '\u20ac',
  pound: '\u00a3',
  yen: '\u00a5',
};

/** HTML entities → characters (numeric ones, and the named ones the display filters produce). */
export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#[0-9]{1,7}|#x[0-9a-fA-F]{1,6}|[a-zA-Z]{2,8});/g, (all, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)
        ? String.fromCodePoint(code)
        : '\ufffd';
    }
    return NAMED[name] ?? all;
  });
}

/** An HTML title or name as plain text: tags dropped, entities decoded, spaces collapsed. */
export function plainText(html: unknown): string {
  if (typeof html !== 'string' || html === '') return '';
  return decodeEntities(html.replace(/<[^>]*>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();
}

/** A description's HTML as one line of text (a summary): through KSES first, so that the text of
 *  a script or style element is not shown; paragraphs and breaks become spaces. */
export function summaryText(html: unknown): string {
  return plainText(safeHtml(html).replace(/<\/(?:p|div|li|h\d)>|<br\s*\/?>/gi, ' '));
}

/** A description's HTML (the REST `description`, already through the display filters) made safe
 *  to place in a page: KSES keeps the post tags and attributes, drops scripts, handlers and
 *  javascript: URLs, whoever wrote it. */
export function safeHtml(html: unknown): string {
  if (typeof html !== 'string' || html === '') return '';
  // an image its author gave no text alternative is taken as decorative (alt=""), not read out by its URL
  return kses(html).replace(/<img\b(?![^>]*\salt=)/gi, '<img alt=""');
}

/** JSON for a `<script type="application/ld+json">` block: no `<` (so no `</script>`), and no
 *  U+2028/9 (valid JSON, not valid in every script parser). */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
