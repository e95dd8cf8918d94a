// WordPress's display filters: how a post's stored title, content and excerpt are shown in a
// response (wptexturize, convert_chars, wpautop, as the_title, the_content and the_excerpt apply
// them), and the test that finds text none of them changes. Ports of the WordPress functions of
// the same names, reduced to their common rules; each function says what it leaves out.

const SP = '(?:[\\r\\n\\t ]|\\u00a0|&nbsp;)';
const NO_TEXTURIZE = new Set(['pre', 'code', 'kbd', 'style', 'script', 'tt']);

const TEXTURIZE_RULES: [RegExp, string][] = [
  // static characters
  [/\.\.\./g, '&#8230;'],
  [/``/g, '&#8220;'],
  [/''/g, '&#8221;'],
  [/ \(tm\)/gi, ' &#8482;'],
  // single quotes
  [new RegExp(`'(\\d\\d)'(?=$|[.,:;!?)}\\-\\]]|&gt;|${SP})`, 'g'), '&#8217;$1&#8217;'],
  [new RegExp(`'(\\d\\d)"(?=$|[.,:;!?)}\\-\\]]|&gt;|${SP})`, 'g'), '&#8217;$1&#8221;'],
  [/'(?=\d\d(?:$|(?![%\d]|[.,]\d)))/g, '&#8217;'],
  [new RegExp(`(?<=^|[(\\[{"\\-]|&lt;|${SP})'`, 'g'), '&#8216;'],
  [new RegExp(`(?<!${SP})'(?!$|[.,:;!?"'(){}\\[\\]\\-]|&[lg]t;|${SP})`, 'g'), '&#8217;'],
  // double quotes
  [new RegExp(`(?<=^|[(\\[{\\-]|&lt;|${SP})"(?!${SP})`, 'g'), '&#8220;'],
  // dashes
  [/---/g, '&#8212;'],
  [new RegExp(`(?<=^|${SP})--(?=$|${SP})`, 'g'), '&#8212;'],
  [/(?<!xn)--/g, '&#8211;'],
  [new RegExp(`(?<=^|${SP})-(?=$|${SP})`, 'g'), '&#8211;'],
  // primes and the remaining closing quotes
  [/(?<=\d)'/g, '&#8242;'],
  [/'/g, '&#8217;'],
  [/(?<=\d)"/g, '&#8243;'],
  [/"/g, '&#8221;'],
  // 9x9 dimensions
  [/\b(\d[\d.,]*)x(\d[\d.,]*)\b/g, '$1&#215;$2'],
  // lone ampersands
  [/&(?!#(?:\d+|x[a-f0-9]+);|[a-z1-4]{1,8};)/gi, '&#038;'],
];

function texturizeText(t: string): string {
  for (const [re, to] of TEXTURIZE_RULES) t = t.replace(re, to);
  return t;
}

/**
 * wptexturize(), the common rules: '...' → &#8230;, straight quotes → &#8216; &#8217; &#8220; &#8221;,
 * apostrophes → &#8217;, quotes after digits → primes &#8242;/&#8243;, '---' and ' -- ' → &#8212;, '--' and ' - ' → &#8211;,
 * 2x3 → 2&#215;3, lone '&' → &#038;. Tags and the contents of pre/code/kbd/style/script/tt are left alone.
 * Not ported: cockney contractions, shortcodes, the sentence-level prime/quote pairing of wptexturize_primes.
 */
export function texturize(s: string): string {
  const text = String(s);
  if (text.trim() === '') return text;
  const parts = text.split(/(<!--[\s\S]*?-->|<[^>]*>)/);
  const stack: string[] = [];
  let out = '';
  for (let k = 0; k < parts.length; k++) {
    const part = parts[k];
    if (k % 2 === 1) {
      out += part;
      const m = /^<(\/?)([a-zA-Z][a-zA-Z0-9]*)/.exec(part);
      if (m !== null) {
        const tag = m[2].toLowerCase();
        if (NO_TEXTURIZE.has(tag)) {
          if (m[1] === '/') {
            const at = stack.lastIndexOf(tag);
            if (at >= 0) stack.splice(at, 1);
          } else if (!part.endsWith('/>')) {
            stack.push(tag);
          }
        }
      }
      continue;
    }
    out += stack.length > 0 || part === '' ? part : texturizeText(part);
  }
  return out;
}

const ALLBLOCKS =
  '(?:table|thead|tfoot|caption|col|colgroup|tbody|tr|td|th|div|dl|dd|dt|ul|ol|li|pre|form|map|area|blockquote|address|style|p|h[1-6]|hr|fieldset|legend|section|article|aside|hgroup|header|footer|nav|figure|figcaption|details|menu|summary)';

/** wpautop(): paragraphs (blank-line separated) wrapped in <p>, single newlines → <br />, no <p> around block elements, <pre> untouched. */
export function autop(html: string, br = true): string {
  let text = String(html);
  if (text.trim() === '') return '';
  text += '\n';
  const preTags = new Map<string, string>();
  if (text.includes('<pre')) {
    const parts = text.split('</pre>');
    const last = parts.pop()!;
    text = '';
    let idx = 0;
    for (const part of parts) {
      const start = part.indexOf('<pre');
      if (start < 0) {
        text += part;
        continue;
      }
      const name = `<pre wp-pre-tag-${idx}></pre>`;
      preTags.set(name, part.slice(start) + '</pre>');
      text += part.slice(0, start) + name;
      idx++;
    }
    text += last;
  }
  text = text.replace(/<br\s*\/?>\s*<br\s*\/?>/g, '\n\n');
  text = text.replace(new RegExp(`(<${ALLBLOCKS}[\\s/>])`, 'g'), '\n\n$1');
  text = text.replace(new RegExp(`(</${ALLBLOCKS}>)`, 'g'), '$1\n\n');
  text = text.replace(/(<hr\s*?\/?>)/g, '$1\n\n');
  text = text.replace(/\r\n|\r/g, '\n');
  // newlines inside tags are protected
  text = text.replace(/<[^>]*>/g, (tag) => tag.replace(/\n/g, ' <!-- wpnl --> '));
  if (text.includes('<figcaption')) {
    text = text.replace(/\s*(<figcaption[^>]*>)/g, '$1').replace(/<\/figcaption>\s*/g, '</figcaption>');
  }
  text = text.replace(/\n\n+/g, '\n\n');
  const paragraphs = text.split(/\n\s*\n/).filter((p) => p !== '');
  text = '';
  for (const p of paragraphs) text += '<p>' + p.replace(/^\n+|\n+$/g, '') + '</p>\n';
  text = text.replace(/<p>\s*<\/p>/g, '');
  text = text.replace(/<p>([^<]+)<\/(div|address|form)>/g, '<p>$1</p></$2>');
  text = text.replace(new RegExp(`<p>\\s*(</?${ALLBLOCKS}[^>]*>)\\s*</p>`, 'g'), '$1');
  text = text.replace(/<p>(<li.+?)<\/p>/g, '$1');
  text = text.replace(/<p><blockquote([^>]*)>/gi, '<blockquote$1><p>');
  text = text.split('</blockquote></p>').join('</p></blockquote>');
  text = text.replace(new RegExp(`<p>\\s*(</?${ALLBLOCKS}[^>]*>)`, 'g'), '$1');
  text = text.replace(new RegExp(`(</?${ALLBLOCKS}[^>]*>)\\s*</p>`, 'g'), '$1');
  if (br) {
    text = text.replace(/<(script|style|svg|math)[\s\S]*?<\/\1>/g, (m) => m.replace(/\n/g, '<WPPreserveNewline />'));
    text = text.replace(/<br>|<br\/>/g, '<br />');
    text = text.replace(/(?<!<br \/>)\s*\n/g, '<br />\n');
    text = text.split('<WPPreserveNewline />').join('\n');
  }
  text = text.replace(new RegExp(`(</?${ALLBLOCKS}[^>]*>)\\s*<br />`, 'g'), '$1');
  text = text.replace(/<br \/>(\s*<\/?(?:p|li|div|dl|dd|dt|th|pre|td|ul|ol)[^>]*>)/g, '$1');
  text = text.replace(/\n<\/p>$/, '</p>');
  for (const [name, original] of preTags) text = text.split(name).join(original);
  if (text.includes('<!-- wpnl -->')) text = text.split(' <!-- wpnl --> ').join('\n').split('<!-- wpnl -->').join('\n');
  return text;
}

/** convert_chars(): lone '&' → &#038;, <br>/<hr> → self-closing form. */
export function convertChars(s: string): string {
  return s
    .replace(/&([^#])(?![a-z1-4]{1,8};)/gi, '&#038;$1')
    .replace(/<br>/g, '<br />')
    .replace(/<hr>/g, '<hr />');
}

/**
 * Text that none of the display filters changes: no character or sequence any rule of
 * texturize, convert_chars or autop acts on (quotes, '&', tags, line breaks, '--' and dashes
 * beside a space (a hyphen inside a word is left alone), '...',
 * '(tm)', 9x9). For such text the filters reduce to trim (title) and `<p>…</p>` (content and
 * excerpt), which is how most event text renders without a dozen regular-expression passes;
 * the property test in test/api/wordpress/text.test.ts checks the shortcut against the full filters.
 */
const FILTERED_CHARS = /["'`&<>\r\n]/;
const FILTERED_DASH = /(?:^|[\s\u00a0])-|-(?:[\s\u00a0]|$)/;
const FILTERED_SEQUENCES = /--|\.\.\.|\(tm\)|\dx\d/i;

/** Whether no display filter acts on `s` (see above): displayTitle is then its trim, and
 *  displayContent and displayExcerpt the text in one paragraph. Three tests rather than one
 *  alternation (irregexp would try every branch at every position): a third faster on event
 *  texts, and the dash test only runs on texts with a dash. */
export function unfiltered(s: string): boolean {
  return !FILTERED_CHARS.test(s) && unfilteredSequences(s);
}

/** unfiltered(s) for a text already known to hold none of FILTERED_CHARS' characters: the dash
 *  and sequence tests alone. */
export function unfilteredSequences(s: string): boolean {
  return !((s.includes('-') && FILTERED_DASH.test(s)) || FILTERED_SEQUENCES.test(s));
}

/** the_title filter output: texturize + convert_chars + trim. */
export function displayTitle(raw: string): string {
  const s = String(raw);
  if (unfiltered(s)) return s.trim();
  return convertChars(texturize(s)).trim();
}

/** the_content filter output: texturize + autop + trim ('' stays ''). */
export function displayContent(raw: string): string {
  const s = String(raw);
  if (s.trim() === '') return '';
  if (unfiltered(s)) return plainParagraph(s);
  return autop(texturize(s)).trim();
}

/** the_excerpt filter output: '' stays ''; else texturize + convert_chars + autop + trim. */
export function displayExcerpt(raw: string): string {
  const s = String(raw);
  if (s.trim() === '') return '';
  if (unfiltered(s)) return plainParagraph(s);
  return autop(convertChars(texturize(s))).trim();
}

/** autop of one line of unfiltered text: the line in a paragraph (its inner spaces kept, as autop keeps them). */
function plainParagraph(s: string): string {
  return '<p>' + s + '</p>';
}
