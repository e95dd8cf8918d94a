// The source tree's own rules: no import cycles (type imports included: a cycle of types is still
// a knot a reader has to untie), the layers of docs/architecture.md (a file imports from its own
// layer or a lower one), and no source file over a size a reader takes in at once (in characters
// and in lines).
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

/**
 * The layers of docs/architecture.md, lowest first: each a list of folders (ending in '/') and
 * files under src/; a file belongs to the layer of its longest matching entry.
 */
export const LAYERS: Array<{ name: string; holds: string[] }> = [
  { name: 'engine', holds: ['engine/', 'ascii-json.ts', 'worker-script.ts'] },
  { name: 'vocabulary', holds: ['api/wordpress/'] },
  { name: 'storage', holds: ['store/', 'shared-file/', 'options/', 'security/', 'memory/'] },
  { name: 'REST semantics', holds: ['api/', 'wp-core/', 'recurrence/', 'media/'] },
  { name: 'wings', holds: ['import/', 'export/', 'changes/', 'users/', 'site/', 'faults/'] },
  { name: 'write logs', holds: ['write-log/'] },
  { name: 'shells', holds: ['http/', 'cluster/'] },
  {
    name: 'composition',
    holds: [
      'calendar.ts',
      'calendar-handle.ts',
      'calendar-imports.ts',
      'calendar-open.ts',
      'calendar-options.ts',
      'resource-api.ts',
    ],
  },
  { name: 'entry', holds: ['cli/', 'index.ts'] },
];

/** Imports that run up a layer today, each with why; the test fails when one is gone, so the
 *  list only shrinks. */
export const KNOWN_CROSSINGS = new Map([
  ['media/http.ts → http/body.ts', "media's upload route reads request bodies with the HTTP shell's reader"],
]);

/** The layer index of `rel` (a path under src/), or -1 when no layer holds it. */
export function layerOf(rel: string, layers = LAYERS): number {
  let best = -1;
  let bestLength = 0;
  layers.forEach((layer, i) => {
    for (const entry of layer.holds) {
      const hit = entry.endsWith('/') ? rel.startsWith(entry) : rel === entry;
      if (hit && entry.length > bestLength) {
        best = i;
        bestLength = entry.length;
      }
    }
  });
  return best;
}

/** Each import from a file to a file of a higher layer, as 'from → to' (paths under `root`). */
export function upwardImports(graph: Map<string, string[]>, root: string, layers = LAYERS): string[] {
  const up: string[] = [];
  for (const [file, deps] of graph) {
    const from = path.relative(root, file);
    for (const d of deps) {
      const to = path.relative(root, d);
      if (to.startsWith('..')) continue; // outside src/ (package.json)
      if (layerOf(to, layers) > layerOf(from, layers)) up.push(`${from} → ${to}`);
    }
  }
  return up.sort();
}

structure('the layer check places files by their longest entry and finds an import that runs up', () => {
  const layers = [
    { name: 'low', holds: ['a/', 'top/low.ts'] },
    { name: 'high', holds: ['top/'] },
  ];
  assert.is(layerOf('a/x.ts', layers), 0);
  assert.is(layerOf('top/low.ts', layers), 0);
  assert.is(layerOf('top/y.ts', layers), 1);
  assert.is(layerOf('b/z.ts', layers), -1);
  const graph = new Map([
    ['/r/a/x.ts', ['/r/top/y.ts', '/r/top/low.ts']],
    ['/r/top/y.ts', ['/r/a/x.ts']],
  ]);
  assert.equal(upwardImports(graph, '/r', layers), ['a/x.ts → top/y.ts']);
});

structure('every source file is in a layer of docs/architecture.md', () => {
  const outside = sources(SRC)
    .map((f) => path.relative(SRC, f))
    .filter((rel) => layerOf(rel) < 0);
  assert.equal(outside, []);
});

structure('no import runs from a lower layer up into a higher one', () => {
  const up = upwardImports(importGraph(sources(SRC)), SRC);
  assert.equal(
    up.filter((i) => !KNOWN_CROSSINGS.has(i)),
    [],
  );
  // a crossing that is gone leaves the list
  assert.equal(
    [...KNOWN_CROSSINGS.keys()].filter((i) => !up.includes(i)),
    [],
  );
});

structure('nothing in src/engine/ or src/api/ imports the import or export wings', () => {
  for (const [file, deps] of importGraph(sources(SRC))) {
    const from = path.relative(SRC, file);
    if (!from.startsWith('engine/') && !from.startsWith('api/')) continue;
    for (const d of deps) {
      const to = path.relative(SRC, d);
      assert.not.ok(to.startsWith('import/') || to.startsWith('export/'), `${from} imports ${to}`);
    }
  }
});

structure('the calendar reaches a store or a cluster only through its write log (src/write-log/)', () => {
  for (const file of ['calendar.ts', 'calendar-handle.ts', 'calendar-imports.ts', 'calendar-open.ts']) {
    for (const d of importGraph([path.join(SRC, file)]).get(path.join(SRC, file))!) {
      const to = path.relative(SRC, d);
      assert.not.ok(to.startsWith('store/store') || to.startsWith('faults/'), `${file} imports ${to}`);
    }
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

structure('no source file is over 400 lines', () => {
  const long = sources(SRC)
    .map((file) => ({ file: path.relative(SRC, file), lines: fs.readFileSync(file, 'utf8').split('\n').length - 1 }))
    .filter((f) => f.lines > 400)
    .map((f) => `${f.file}: ${f.lines} lines`);
  assert.equal(long, []);
});

structure.run();
