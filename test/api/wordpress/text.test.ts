import { suite } from 'uvu';
import { mulberry32 } from '../../../bench/stats.ts';
import * as assert from 'uvu/assert';
import {
  autop,
  convertChars,
  displayContent,
  displayExcerpt,
  displayTitle,
  texturize,
  unfiltered,
} from '../../../src/api/wordpress/display.ts';
import { kses } from '../../../src/api/wordpress/kses.ts';
import {
  escapeHtml,
  escapeUrl,
  foldForSearch,
  isValidUrl,
  linkedPostSearchWords,
  parseSearch,
  removeAccents,
  sanitizeSlug,
  sanitizeTextField,
  stripTags,
} from '../../../src/api/wordpress/text.ts';

// ---

const slug = suite('slug');

slug(
  'sanitizeSlug :: idempotent on random text (what it returns, it returns unchanged: the clean-slug shortcut agrees)',
  () => {
    const alphabet = [
      'a',
      'Z',
      '0',
      '-',
      '_',
      ' ',
      '.',
      '/',
      '%',
      '%2f',
      'é',
      'ß',
      '&amp;',
      '<b>',
      '\u2014',
      '--',
      '\u00a0',
      'x',
    ];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    for (let i = 0; i < 3000; i++) {
      let s = '';
      for (let k = Math.floor(next() * 12); k > 0; k--) s += alphabet[Math.floor(next() * alphabet.length)];
      const once = sanitizeSlug(s);
      assert.is(sanitizeSlug(once), once, JSON.stringify(s));
    }
  },
);

slug('sanitizeSlug :: lower case, spaces and punctuation', () => {
  assert.is(sanitizeSlug('An Event'), 'an-event');
  assert.is(sanitizeSlug('Hello World!'), 'hello-world');
  assert.is(sanitizeSlug('  Event   01  '), 'event-01');
  assert.is(sanitizeSlug('a.b/c'), 'a-b-c');
  assert.is(sanitizeSlug('--a--b--'), 'a-b');
  assert.is(sanitizeSlug('an-interesting-event'), 'an-interesting-event');
});

slug('sanitizeSlug :: underscores kept like WordPress', () => {
  assert.is(sanitizeSlug('snake_case name'), 'snake_case-name');
});

slug('sanitizeSlug :: accents removed, tags stripped', () => {
  assert.is(sanitizeSlug('Café déjà vu'), 'cafe-deja-vu');
  assert.is(sanitizeSlug('Straße'), 'strasse');
  assert.is(sanitizeSlug('Palais de l‘Élysée'), 'palais-de-lelysee');
  assert.is(sanitizeSlug('<b>Bold</b> move'), 'bold-move');
});

slug('sanitizeSlug :: typographic quotes and dashes', () => {
  assert.is(sanitizeSlug('Tom’s — “Best”'), 'toms-best');
  assert.is(sanitizeSlug('2–3 pm'), '2-3-pm');
});

slug('sanitizeSlug :: non-Latin text becomes octets, stray % removed, %xx kept', () => {
  assert.is(sanitizeSlug('日本'), '%e6%97%a5%e6%9c%ac');
  assert.is(sanitizeSlug('100% fun'), '100-fun');
  assert.is(sanitizeSlug('foo%20bar'), 'foo%20bar');
});

slug('sanitizeSlug :: nothing left → empty', () => {
  assert.is(sanitizeSlug('!!!'), '');
  assert.is(sanitizeSlug(''), '');
  assert.is(sanitizeSlug('<br>'), '');
});

slug('removeAccents :: leaves non-Latin letters alone', () => {
  assert.is(removeAccents('Ångström'), 'Angstrom');
  assert.is(removeAccents('Москва'), 'Москва');
});

slug.run();

// ---

const plain = suite('plain');

plain('sanitizeTextField :: tags, line breaks, tabs and runs of spaces', () => {
  assert.is(sanitizeTextField('  Hello\n\t<b>World</b>  '), 'Hello World');
  assert.is(sanitizeTextField('1600 Pennsylvania Ave NW'), '1600 Pennsylvania Ave NW');
  assert.is(sanitizeTextField('a < b'), 'a &lt; b');
  assert.is(sanitizeTextField('x<script>alert(1)</script>y'), 'xy');
  assert.is(sanitizeTextField('100%41 off'), '100 off');
});

plain('stripTags :: tags and comments removed, text kept', () => {
  assert.is(stripTags('<p>Hi <em>there</em></p><!-- c -->'), 'Hi there');
  assert.is(stripTags('a < b'), 'a < b');
});

plain('escapeHtml :: the five characters, entities kept', () => {
  assert.is(
    escapeHtml(`<a href="x">Tom's & Jerry &amp;</a>`),
    '&lt;a href=&quot;x&quot;&gt;Tom&#039;s &amp; Jerry &amp;&lt;/a&gt;',
  );
});

plain.run();

// ---

const ksesSuite = suite('kses');

ksesSuite('kses :: allowed tags and attributes stay', () => {
  const html =
    '<p>Hi <strong>you</strong> <a href="http://example.com" title="t" target="_blank" rel="noopener">link</a></p>';
  assert.is(kses(html), html);
  assert.is(
    kses('<img src="a.png" alt="A" width="10" height="20" />'),
    '<img src="a.png" alt="A" width="10" height="20" />',
  );
  assert.is(kses('<ul><li>x</li></ul><h2 class="c">T</h2><br>'), '<ul><li>x</li></ul><h2 class="c">T</h2><br>');
});

ksesSuite('kses :: scripts, iframes, objects, embeds, forms removed with their content', () => {
  assert.is(kses('a<script>alert(1)</script>b'), 'ab');
  assert.is(kses('a<SCRIPT type="text/javascript">x</SCRIPT>b'), 'ab');
  assert.is(kses('a<style>p{}</style>b'), 'ab');
  assert.is(kses('a<iframe src="http://evil">x</iframe>b'), 'ab');
  assert.is(kses('a<object data="x"><param name="a"></object>b<embed src="x">c'), 'abc');
  assert.is(kses('a<form action="x"><input name="q"></form>b'), 'ab');
});

ksesSuite('kses :: event handlers and bad protocols dropped', () => {
  assert.is(kses('<p onclick="x()">Hi</p>'), '<p>Hi</p>');
  assert.is(kses('<a href="javascript:alert(1)">l</a>'), '<a>l</a>');
  assert.is(kses('<a href="JaVaScRiPt:alert(1)">l</a>'), '<a>l</a>');
  assert.is(kses('<a href="jav&#x61;script:alert(1)">l</a>'), '<a>l</a>');
  assert.is(kses('<img src="data:image/png;base64,xx" onerror="x()">'), '<img>');
  assert.is(kses('<a href="/relative">r</a>'), '<a href="/relative">r</a>');
  assert.is(kses('<a href="mailto:a@b.c">m</a>'), '<a href="mailto:a@b.c">m</a>');
});

ksesSuite('kses :: unknown tags stripped, text kept; stray < and & escaped', () => {
  assert.is(kses('<blink>text</blink>'), 'text');
  assert.is(kses('1 < 2 & 3 > 0'), '1 &lt; 2 &amp; 3 &gt; 0');
  assert.is(kses('&amp; &#8217;'), '&amp; &#8217;');
});

ksesSuite.run();

// ---

const tex = suite('texturize');

tex('texturize :: apostrophes and quotes', () => {
  assert.is(texturize("Tom's event"), 'Tom&#8217;s event');
  assert.is(texturize('"Hello" world'), '&#8220;Hello&#8221; world');
  assert.is(texturize("'quoted'"), '&#8216;quoted&#8217;');
  assert.is(texturize("the '90s"), 'the &#8217;90s');
  assert.is(texturize("It's 5' tall, 6\" wide"), 'It&#8217;s 5&#8242; tall, 6&#8243; wide');
});

tex('texturize :: dashes, ellipsis, dimensions, ampersands', () => {
  assert.is(texturize('A -- B'), 'A &#8212; B');
  assert.is(texturize('A - B'), 'A &#8211; B');
  assert.is(texturize('a---b'), 'a&#8212;b');
  assert.is(texturize('10--20'), '10&#8211;20');
  assert.is(texturize('wait...'), 'wait&#8230;');
  assert.is(texturize('2x3'), '2&#215;3');
  assert.is(texturize('R&D'), 'R&#038;D');
  assert.is(texturize('x (tm)'), 'x &#8482;');
  assert.is(texturize('well-known'), 'well-known');
});

tex('texturize :: leaves tags and code/pre alone', () => {
  assert.is(texturize('<a href="x" title="it\'s">it\'s</a>'), '<a href="x" title="it\'s">it&#8217;s</a>');
  assert.is(texturize('<code>"x" -- y</code> "z"'), '<code>"x" -- y</code> &#8220;z&#8221;');
  assert.is(texturize('<pre>a...b</pre>c...'), '<pre>a...b</pre>c&#8230;');
});

tex('displayTitle :: texturized and trimmed', () => {
  assert.is(displayTitle('  Event 01  '), 'Event 01');
  assert.is(displayTitle('Tom\'s "Big" Party'), 'Tom&#8217;s &#8220;Big&#8221; Party');
  assert.is(displayTitle(''), '');
});

tex.run();

// ---

const p = suite('autop');

p('autop :: plain text becomes a paragraph', () => {
  assert.is(displayContent('An event content'), '<p>An event content</p>');
  assert.is(displayExcerpt('An event excerpt'), '<p>An event excerpt</p>');
});

p('autop :: blank lines split paragraphs, single newlines become <br />', () => {
  assert.is(displayContent('Line1\nLine2\n\nPara2'), '<p>Line1<br />\nLine2</p>\n<p>Para2</p>');
  assert.is(displayContent('a\r\n\r\nb'), '<p>a</p>\n<p>b</p>');
});

p('autop :: block elements are not wrapped', () => {
  assert.is(displayContent('<div>Block</div>'), '<div>Block</div>');
  assert.is(displayContent('<p>Already</p>'), '<p>Already</p>');
  assert.is(displayContent('Intro\n<ul><li>x</li></ul>'), '<p>Intro</p>\n<ul>\n<li>x</li>\n</ul>');
  assert.is(displayContent('<h2>T</h2>\nText'), '<h2>T</h2>\n<p>Text</p>');
});

p('autop :: inline markup stays inside the paragraph; pre untouched', () => {
  assert.is(displayContent('A <strong>b</strong>'), '<p>A <strong>b</strong></p>');
  assert.is(displayContent('x<pre>a\n\nb</pre>y'), '<p>x</p>\n<pre>a\n\nb</pre>\n<p>y</p>');
});

p('autop :: empty stays empty', () => {
  assert.is(displayContent(''), '');
  assert.is(displayExcerpt(''), '');
  assert.is(displayExcerpt('   '), '');
  assert.is(autop(''), '');
});

p.run();

// ---

const search = suite('search');

search('foldForSearch :: accents and case', () => {
  assert.is(foldForSearch('Café ÉLYSÉE'), 'cafe elysee');
});

search('parseSearch :: words, phrases, separators', () => {
  assert.equal(parseSearch('foo bar'), { include: ['foo', 'bar'], exclude: [] });
  assert.equal(parseSearch('"foo bar" baz'), { include: ['foo bar', 'baz'], exclude: [] });
  assert.equal(parseSearch('foo,bar+baz\tqux'), { include: ['foo', 'bar', 'baz', 'qux'], exclude: [] });
  assert.equal(parseSearch('Café'), { include: ['cafe'], exclude: [] });
});

search('parseSearch :: stopwords, single letters and lone dashes dropped', () => {
  assert.equal(parseSearch('the event of the year'), { include: ['event', 'year'], exclude: [] });
  assert.equal(parseSearch('a foo - b'), { include: ['foo'], exclude: [] });
  assert.equal(parseSearch('5 foo'), { include: ['5', 'foo'], exclude: [] });
});

search('parseSearch :: nothing left or more than 9 terms → the whole string', () => {
  assert.equal(parseSearch('the'), { include: ['the'], exclude: [] });
  assert.equal(parseSearch('a b c'), { include: ['a b c'], exclude: [] });
  const ten = 'one two three four five six seven eight nine ten';
  assert.equal(parseSearch(ten), { include: [ten], exclude: [] });
  const nine = 'one two three four five six seven eight nine';
  assert.is(parseSearch(nine).include.length, 9);
});

search('parseSearch :: -term excludes', () => {
  assert.equal(parseSearch('-foo bar'), { include: ['bar'], exclude: ['foo'] });
  assert.equal(parseSearch('"-foo bar"'), { include: [], exclude: ['foo bar'] });
});

search('linkedPostSearchWords :: split on non [A-Za-z0-9-]', () => {
  assert.equal(linkedPostSearchWords('100, Avenue du Temple'), ['100', 'avenue', 'du', 'temple']);
  assert.equal(linkedPostSearchWords('@common.com'), ['common', 'com']);
  assert.equal(linkedPostSearchWords('temple avenue'), ['temple', 'avenue']);
  assert.equal(linkedPostSearchWords('well-known'), ['well-known']);
  assert.equal(linkedPostSearchWords(' , '), []);
});

search.run();

// ---

const url = suite('url');

url('isValidUrl :: absolute http(s) with a host', () => {
  for (const ok of [
    'http://example.com',
    'https://tri.be/x?a=1&b=2',
    'http://whitehouse.gov',
    'http://localhost:8080/p',
  ])
    assert.ok(isValidUrl(ok), ok);
  for (const bad of [
    'foo',
    'example.com',
    'http://',
    'ftp://x.com',
    'http://exa mple.com',
    'javascript:alert(1)',
    ' http://a.com',
    '',
    'http://a.com/<x>',
  ])
    assert.not.ok(isValidUrl(bad), bad);
});

url('escapeUrl :: esc_url output form', () => {
  assert.is(escapeUrl('http://a.com/?a=1&b=2'), 'http://a.com/?a=1&#038;b=2');
  assert.is(escapeUrl("http://a.com/it's"), 'http://a.com/it&#039;s');
  assert.is(escapeUrl('example.com'), 'http://example.com');
  assert.is(escapeUrl('http://a.com/a b'), 'http://a.com/a%20b');
  assert.is(escapeUrl('javascript:alert(1)'), '');
  assert.is(escapeUrl(''), '');
});

url.run();

// ---

const fast = suite('display shortcuts');

/** random strings over an alphabet holding every character and sequence a filter acts on */
function randomTexts(seed: number, n: number): string[] {
  const rand = mulberry32(seed);
  const alphabet = [
    'a',
    'B',
    ' ',
    '-',
    '\t',
    '.',
    '...',
    'x',
    '1',
    '9',
    '(tm)',
    '(TM)',
    'é',
    '\u00a0',
    '-',
    '--',
    "'",
    '"',
    '`',
    '&',
    '&amp;',
    '<',
    '>',
    '<p>',
    '\n',
    '\r',
    ',',
    'é',
    '2x3',
  ];
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    let s = '';
    const len = Math.floor(rand() * 12);
    for (let j = 0; j < len; j++) s += alphabet[Math.floor(rand() * (rand() < 0.7 ? 8 : alphabet.length))];
    out.push(s);
  }
  return out;
}

fast('displayTitle/Content/Excerpt :: the plain-text shortcut gives what the full filters give', () => {
  let plain = 0;
  for (const s of randomTexts(7, 20000)) {
    const none = !/["'`&<>\r\n]|--|(?:^|[\s\u00a0])-|-(?:[\s\u00a0]|$)|\.\.\.|\(tm\)|\dx\d/i.test(s);
    if (none) plain++;
    assert.is(unfiltered(s), none, `~> unfiltered ${JSON.stringify(s)} (its three tests are the one alternation)`);
    assert.is(displayTitle(s), convertChars(texturize(s)).trim(), `~> title ${JSON.stringify(s)}`);
    const content = s.trim() === '' ? '' : autop(texturize(s)).trim();
    assert.is(displayContent(s), content, `~> content ${JSON.stringify(s)}`);
    const excerpt = s.trim() === '' ? '' : autop(convertChars(texturize(s))).trim();
    assert.is(displayExcerpt(s), excerpt, `~> excerpt ${JSON.stringify(s)}`);
  }
  assert.ok(plain > 2000, `~> the sample holds plain texts too (${plain})`);
});

fast('escapeUrl :: plain http(s) URLs come back as they are', () => {
  for (const u of ['http://a.com', 'https://tri.be/x?a=1#f', 'http://a.com/~u/p%20q;x,y', 'HTTP://A.COM']) {
    assert.is(escapeUrl(u), u);
  }
  assert.is(escapeUrl('http://a.com/?a=1&b=2'), 'http://a.com/?a=1&#038;b=2');
});

fast.run();
