// npm run build (also `prepare`, which npm runs on install from a clone or git and before
// `npm pack`/`npm publish`): the TypeScript in src/ compiled by tsc (tsconfig.build.json) into
// dist/: .js, .d.ts and source maps of both. What an earlier build left in dist/ goes first, so a
// removed source leaves nothing behind; dist/calendar-engine and the image library beside it in
// dist/node_modules/ (npm run build:binary) stay.
// `--if-stale`: do nothing when dist/ is newer than every source (what the single-executable
// build and the tests that run dist/ use). Plain JavaScript: it runs before anything is built.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(ROOT, 'dist');
/** written last by a build that succeeded: its time is the build's */
const STAMP = path.join(DIST, '.built');
const KEEP = new Set(['calendar-engine', 'node_modules']);

/** Newest modification time under `p` (a file or a folder, recursively). */
function newest(p) {
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let t = 0;
  for (const name of fs.readdirSync(p)) t = Math.max(t, newest(path.join(p, name)));
  return t;
}

function fresh() {
  if (!fs.existsSync(STAMP)) return false;
  const sources = Math.max(
    ...['src', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build.mjs'].map((p) => newest(path.join(ROOT, p))),
  );
  return fs.statSync(STAMP).mtimeMs > sources;
}

if (!(process.argv.includes('--if-stale') && fresh())) {
  for (const name of fs.existsSync(DIST) ? fs.readdirSync(DIST) : []) {
    if (!KEEP.has(name)) fs.rmSync(path.join(DIST, name), { recursive: true, force: true });
  }
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.build.json')], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
  fs.chmodSync(path.join(DIST, 'cli/main.js'), 0o755);
  fs.writeFileSync(STAMP, `${new Date().toISOString()}\n`);
}
