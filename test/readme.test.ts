// The README's embedding example runs as written, from a clean process in the repository (the
// package imports itself as 'calendar-engine': its exports, the built dist/, made first when older
// than a source), and prints what its comment says.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureDist } from './helpers/dist.ts';

const readme = suite('README');
readme.before(() => ensureDist());
const root = fileURLToPath(new URL('..', import.meta.url));

readme('the embedding example runs and prints what it says', () => {
  const text = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const block = /```ts\n([\s\S]*?)```/.exec(text)?.[1];
  assert.ok(block, 'a ts block in the README');
  const expected = /\/\/ (1 \[ 'Launch party' \])/.exec(block!)?.[1];
  assert.ok(expected, 'the example says what it prints');
  // inside the repository, so that 'calendar-engine' resolves to this package
  const dir = fs.mkdtempSync(path.join(root, '.readme-example-'));
  try {
    const file = path.join(dir, 'example.ts');
    fs.writeFileSync(file, block!);
    const out = execFileSync(process.execPath, ['--import', 'tsx', file], {
      encoding: 'utf8',
      cwd: root,
      env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
    });
    assert.is(out.trim(), expected);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

readme('is short, and every link to docs/ points at a file', () => {
  const text = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  assert.ok(Buffer.byteLength(text) <= 15 * 1024, `${Buffer.byteLength(text)} bytes`);
  for (const [, target] of text.matchAll(/\]\((docs\/[^)#]+)/g))
    assert.ok(fs.existsSync(path.join(root, target)), target);
  for (const [, target] of text.matchAll(/src="(docs\/[^"]+)"/g))
    assert.ok(fs.existsSync(path.join(root, target)), target);
  for (const doc of fs.readdirSync(path.join(root, 'docs')).filter((d) => d.endsWith('.md'))) {
    const body = fs.readFileSync(path.join(root, 'docs', doc), 'utf8');
    for (const [, target] of body.matchAll(/\]\(((?:\.\.\/)?[\w./-]+\.(?:md|ts|js|json))(?:#[^)]*)?\)/g)) {
      assert.ok(fs.existsSync(path.join(root, 'docs', target)), `${doc}: ${target}`);
    }
  }
});

readme.run();
