// WordPress's KSES for posts (wp_kses_post): HTML reduced to the tags and attributes the post
// allow-list names, with the URL protocols it allows; elements it drops with their content go
// whole. A port of the WordPress functions of the same names, reduced to their common rules.

import { ALLOWED_PROTOCOLS, normalizeEntities } from './text.ts';

const GLOBAL_ATTRS = new Set(['class', 'id', 'style', 'title', 'dir', 'lang', 'role', 'xml:lang']);
const CELL_ATTRS = ['colspan', 'rowspan', 'width', 'height', 'align', 'valign', 'headers', 'scope', 'abbr'];
const ALLOWED_TAGS: Record<string, string[]> = {
  a: ['href', 'target', 'rel', 'name', 'download', 'hreflang', 'referrerpolicy'],
  abbr: [],
  acronym: [],
  address: [],
  article: [],
  aside: [],
  b: [],
  bdo: [],
  big: [],
  blockquote: ['cite'],
  br: [],
  caption: ['align'],
  cite: [],
  code: [],
  col: ['span', 'width', 'align', 'valign'],
  colgroup: ['span', 'width', 'align', 'valign'],
  dd: [],
  del: ['datetime', 'cite'],
  details: ['open'],
  dfn: [],
  div: ['align'],
  dl: [],
  dt: [],
  em: [],
  figure: [],
  figcaption: [],
  font: ['color', 'face', 'size'],
  footer: [],
  h1: ['align'],
  h2: ['align'],
  h3: ['align'],
  h4: ['align'],
  h5: ['align'],
  h6: ['align'],
  header: [],
  hgroup: [],
  hr: ['align', 'noshade', 'size', 'width'],
  i: [],
  img: [
    'src',
    'alt',
    'width',
    'height',
    'srcset',
    'sizes',
    'loading',
    'align',
    'border',
    'hspace',
    'vspace',
    'longdesc',
    'decoding',
  ],
  ins: ['datetime', 'cite'],
  kbd: [],
  label: ['for'],
  legend: ['align'],
  li: ['value', 'align'],
  main: [],
  mark: [],
  nav: [],
  ol: ['start', 'type', 'reversed'],
  p: ['align'],
  pre: ['width'],
  q: ['cite'],
  s: [],
  samp: [],
  section: [],
  small: [],
  span: [],
  strike: [],
  strong: [],
  sub: [],
  summary: [],
  sup: [],
  table: ['border', 'cellpadding', 'cellspacing', 'width', 'align', 'bgcolor', 'summary'],
  tbody: ['align', 'valign'],
  td: CELL_ATTRS,
  tfoot: ['align', 'valign'],
  th: CELL_ATTRS,
  thead: ['align', 'valign'],
  tr: ['align', 'valign', 'bgcolor'],
  tt: [],
  u: [],
  ul: ['type'],
  var: [],
};
/** Elements removed together with everything inside them. */
const DROPPED_WITH_CONTENT = new Set([
  'script',
  'style',
  'iframe',
  'object',
  'embed',
  'form',
  'applet',
  'noscript',
  'frameset',
  'frame',
  'textarea',
  'select',
  'title',
  'head',
  'svg',
  'math',
  'template',
]);
const VOID_ELEMENTS = new Set(['embed', 'frame']);
const URL_ATTRS = new Set(['href', 'src', 'cite', 'longdesc', 'action', 'srcset']);

const ATTR = /([^\s=/>"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+)))?/g;

function hasBadProtocol(value: string): boolean {
  // decode what browsers decode before looking at the scheme: entities, control characters, whitespace
  const decoded = value
    .replace(/&#x([0-9a-f]+);?/gi, (_m, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#([0-9]+);?/g, (_m, d: string) => String.fromCodePoint(+d))
    .replace(/&colon;/gi, ':')
    .replace(/[\x00-\x20]/g, '');
  const m = /^([^:/?#]+):/.exec(decoded);
  return m !== null && !ALLOWED_PROTOCOLS.has(m[1].toLowerCase());
}

function cleanAttributes(tag: string, raw: string): string {
  const allowed = ALLOWED_TAGS[tag];
  let out = '';
  ATTR.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = ATTR.exec(raw)) !== null) {
    const name = m[1].toLowerCase();
    const value = m[2] ?? m[3] ?? m[4];
    if (name.startsWith('on')) continue;
    if (!GLOBAL_ATTRS.has(name) && !allowed.includes(name) && !/^(?:aria|data)-[a-z0-9_-]+$/.test(name)) continue;
    if (value === undefined) {
      out += ` ${name}`;
      continue;
    }
    if (URL_ATTRS.has(name) && hasBadProtocol(value)) continue;
    if (name === 'style' && /expression|javascript:|behavior|url\s*\(/i.test(value)) continue;
    out += ` ${name}="${normalizeEntities(value).replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}"`;
  }
  return out;
}

/**
 * wp_kses_post() for users without unfiltered_html: allowed tags keep their allowed attributes; on* attributes and
 * URLs with other protocols (javascript:, data:, vbscript:...) are dropped; script/style/iframe/object/embed/form
 * (and similar) elements are removed with their content; other tags are stripped but their text kept; a '<' or '>'
 * that is not part of a tag is escaped; stray '&' becomes '&amp;'. Comments are kept.
 */
export function kses(html: string): string {
  const s = String(html);
  let out = '';
  let i = 0;
  const n = s.length;
  let text = '';
  const flushText = (): void => {
    out += normalizeEntities(text).replace(/>/g, '&gt;');
    text = '';
  };
  while (i < n) {
    const lt = s.indexOf('<', i);
    if (lt < 0) {
      text += s.slice(i);
      break;
    }
    text += s.slice(i, lt);
    if (s.startsWith('<!--', lt)) {
      const end = s.indexOf('-->', lt + 4);
      const body = end < 0 ? s.slice(lt + 4) : s.slice(lt + 4, end);
      flushText();
      const inner = kses(body).replace(/--+/g, '-').replace(/-$/, '');
      if (inner !== '') out += `<!--${inner}-->`;
      i = end < 0 ? n : end + 3;
      continue;
    }
    const m = /^<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^>]*?)?)\s*(\/?)>/.exec(s.slice(lt, lt + 4096));
    if (m === null) {
      // not a tag: a stray '<'
      text += '&lt;';
      i = lt + 1;
      continue;
    }
    const closing = m[1] === '/';
    const tag = m[2].toLowerCase();
    i = lt + m[0].length;
    if (DROPPED_WITH_CONTENT.has(tag)) {
      // void elements (embed, frame) and unclosed ones lose only their tag
      if (!closing && !VOID_ELEMENTS.has(tag)) {
        const cm = new RegExp(`</${tag}\\s*>`, 'i').exec(s.slice(i));
        if (cm !== null) i += cm.index + cm[0].length;
      }
      continue;
    }
    if (!(tag in ALLOWED_TAGS)) continue; // tag stripped, text kept
    flushText();
    if (closing) {
      out += `</${tag}>`;
      continue;
    }
    const selfClose = m[4] === '/' || /\/\s*$/.test(m[3]);
    const attrs = cleanAttributes(tag, m[3].replace(/\/\s*$/, ''));
    out += `<${tag}${attrs}${selfClose ? ' /' : ''}>`;
  }
  flushText();
  return out;
}
