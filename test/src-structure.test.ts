// The source tree's own rules: no import cycles (type imports included: a cycle of types is still
// a knot a reader has to untie), and no source file over a size a reader takes in at once.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const structure = suite('src structure');
const SRC = fileURLToPath(new URL('../src/', import.meta.url));

function sources(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) sources(p, out);
    else if (p.endsWith('.ts') || p.endsWith('.tsx')) out.push(p);
  }
  return out;
}

/** file → the files it imports statically (import/export ... from './x.ts', types too). */
export function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const text = fs.readFileSync(f, 'utf8');
    const deps: string[] = [];
    for (const m of text.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s+'(\.{1,2}\/[^']+)'/gm))
      deps.push(path.resolve(path.dirname(f), m[1]));
    graph.set(path.resolve(f), deps);
  }
  return graph;
}

export function cyclesOf(graph: Map<string, string[]>): string[][] {
  const state = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (n: string) => {
    state.set(n, 1);
    stack.push(n);
    for (const d of graph.get(n) ?? []) {
      if (state.get(d) === 1) cycles.push([...stack.slice(stack.indexOf(d)), d]);
      else if (!state.has(d)) visit(d);
    }
    stack.pop();
    state.set(n, 2);
  };
  for (const n of graph.keys()) if (!state.has(n)) visit(n);
  return cycles;
}

structure('the cycle finder finds a cycle (a.ts → b.ts → a.ts) and none in a chain', () => {
  const g = new Map([
    ['a', ['b']],
    ['b', ['a']],
    ['c', ['a']],
  ]);
  assert.equal(cyclesOf(g), [['a', 'b', 'a']]);
  assert.equal(
    cyclesOf(
      new Map([
        ['a', ['b']],
        ['b', ['c']],
        ['c', []],
      ]),
    ),
    [],
  );
});

structure('src/ has no import cycle', () => {
  const cycles = cyclesOf(importGraph(sources(SRC)));
  assert.equal(
    cycles.map((c) => c.map((f) => path.relative(SRC, f)).join(' → ')),
    [],
  );
});

structure('every import in src/ names a file that exists', () => {
  for (const [file, deps] of importGraph(sources(SRC))) {
    for (const d of deps) assert.ok(fs.existsSync(d), `${path.relative(SRC, file)} imports ${path.relative(SRC, d)}`);
  }
});

// Counted in characters: the formatter wraps lines at 120 columns, so a file's line count says
// more of its layout than of how much a reader takes in.
structure('no source file is longer than a reader takes in at once (32,000 characters)', () => {
  for (const file of sources(SRC)) {
    const chars = fs.readFileSync(file, 'utf8').length;
    assert.ok(chars <= 32_000, `${path.relative(SRC, file)}: ${chars} characters`);
  }
});

structure.run();
