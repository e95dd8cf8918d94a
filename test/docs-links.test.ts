// Every relative link in README.md and docs/ resolves: the file or folder it names exists, and a
// #fragment names a heading of the page it points at (as GitHub makes a heading's anchor).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const links = suite('docs links');
const root = fileURLToPath(new URL('..', import.meta.url));

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown page's headings (a repeated heading's get -1, -2, ...), code blocks skipped. */
export function anchorsOf(markdown: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const m = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = anchorOf(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** The relative link targets of a Markdown page: [text](target) and src="target", code skipped. */
export function relativeLinks(markdown: string): string[] {
  const text = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  const out: string[] = [];
  for (const [, t] of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push(t);
  for (const [, t] of text.matchAll(/\bsrc="([^"]+)"/g)) out.push(t);
  return out.filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

links('the finders: anchors as GitHub makes them, links outside code', () => {
  assert.is(anchorOf('Read-your-writes (`X-Calendar-Min-Seq`)'), 'read-your-writes-x-calendar-min-seq');
  assert.is(anchorOf('A write'), 'a-write');
  assert.equal([...anchorsOf('# A\n## B c\n```\n# not\n```\n## B c\n')], ['a', 'b-c', 'b-c-1']);
  assert.equal(relativeLinks('[a](x.md#y) `[b](no.md)` [c](https://e.org) <img src="p.png">\n```\n[d](no)\n```'), [
    'x.md#y',
    'p.png',
  ]);
});

links('every relative link in README.md and docs/ resolves, anchors included', () => {
  const pages = ['README.md', ...fs.readdirSync(path.join(root, 'docs')).map((d) => `docs/${d}`)].filter((p) =>
    p.endsWith('.md'),
  );
  const broken: string[] = [];
  let checked = 0;
  for (const page of pages) {
    const text = fs.readFileSync(path.join(root, page), 'utf8');
    for (const link of relativeLinks(text)) {
      checked++;
      const [target, fragment] = link.split('#', 2);
      const file = target === '' ? path.join(root, page) : path.resolve(root, path.dirname(page), target);
      if (!fs.existsSync(file)) {
        broken.push(`${page}: ${link} (no such file)`);
        continue;
      }
      if (fragment !== undefined && file.endsWith('.md')) {
        const anchors = anchorsOf(fs.readFileSync(file, 'utf8'));
        if (!anchors.has(decodeURIComponent(fragment).toLowerCase())) broken.push(`${page}: ${link} (no such heading)`);
      }
    }
  }
  assert.ok(checked > 50, `${checked} links found`);
  assert.equal(broken, []);
});

links.run();
