// The command line as one CommonJS script, built by esbuild as the single executable's is
// (scripts/build-binary.ts, step 1: src/cli/binary-entry.ts with the import worker bundled in) and
// cached, for the launcher (calendar-engine.js) to run a large import with. Loading the sources
// through tsx took 1.1-2.3 s of start-up on the 2-core machine (its loader thread, one module at a
// time), the script ~0.3 s; building it takes esbuild ~1.5 s, so it is built once and kept until
// one of its inputs changes: `node_modules/.cache/calendar-engine/<checkout>/` (or the system's
// temp folder when node_modules cannot be written) holds the script and a manifest of the files it
// was built from (path, size, mtime), which are checked on every use.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** changes whenever the build below does (a cached script of another recipe is rebuilt) */
const RECIPE = 1;

/** The cached script's path, built first when missing or stale; undefined when it cannot be had. */
export async function cliBundle() {
  try {
    const dir = cacheDir();
    const manifestFile = path.join(dir, 'cli.json');
    const cached = readManifest(manifestFile);
    if (cached !== undefined) return path.join(dir, cached.script);
    return await build(dir, manifestFile);
  } catch {
    return undefined;
  }
}

/** This checkout's cache folder (several checkouts may share one node_modules). */
function cacheDir() {
  const key = createHash('sha256').update(ROOT).digest('hex').slice(0, 16);
  for (const base of [path.join(ROOT, 'node_modules/.cache/calendar-engine'), path.join(os.tmpdir(), `calendar-engine-cache-${os.userInfo().uid}`)]) {
    const dir = path.join(base, key);
    try {
      fs.mkdirSync(dir, { recursive: true });
      fs.accessSync(dir, fs.constants.W_OK);
      return dir;
    } catch {
      // the next place
    }
  }
  throw new Error('no cache folder');
}

/** The manifest, when its script is there and built from the files as they are now. */
function readManifest(file) {
  let m;
  try {
    m = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
  if (m.recipe !== RECIPE || m.node !== process.version || !fs.existsSync(path.join(path.dirname(file), m.script))) return undefined;
  for (const [rel, size, mtimeMs] of m.inputs) {
    let st;
    try {
      st = fs.statSync(path.join(ROOT, rel));
    } catch {
      return undefined;
    }
    if (st.size !== size || st.mtimeMs !== mtimeMs) return undefined;
  }
  return m;
}

/**
 * The NATS client (cluster mode) loads a Node built-in with import("node:crypto"), which a
 * CommonJS script (this one, the single executable's) would leave as a dynamic import, which a
 * single executable cannot run: in node_modules, such an import becomes a require of the
 * built-in. Shared with scripts/build-binary.ts.
 */
export const builtinImportsAsRequire = {
  name: 'builtin-imports-as-require',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]@nats-io[\\/].*\.js$/ }, (args) => {
      const text = fs.readFileSync(args.path, 'utf8');
      if (!/\bimport\(\s*["']node:/.test(text)) return undefined;
      return { contents: text.replace(/\bimport\(\s*(["']node:[\w/]+["'])\s*\)/g, 'Promise.resolve(require($1))'), loader: 'js' };
    });
  },
};

async function build(dir, manifestFile) {
  const require = createRequire(path.join(ROOT, 'package.json'));
  const esbuild = await import(pathToFileURL(require.resolve('esbuild')).href);
  const common = { bundle: true, platform: 'node', format: 'cjs', target: 'node20', legalComments: 'none', metafile: true, logLevel: 'silent', absWorkingDir: ROOT, write: false };
  const worker = await esbuild.build({ ...common, entryPoints: [path.join(ROOT, 'src/api/import-worker.ts')] });
  const version = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;
  const main = await esbuild.build({
    ...common,
    entryPoints: [path.join(ROOT, 'src/cli/binary-entry.ts')],
    define: { CALENDAR_ENGINE_VERSION: JSON.stringify(version), CALENDAR_ENGINE_IMPORT_WORKER: JSON.stringify(worker.outputFiles[0].text) },
    // main.ts and seed.ts fall back when import.meta.url is empty (binary-entry.ts supplies the files)
    logOverride: { 'empty-import-meta': 'silent' },
    plugins: [builtinImportsAsRequire],
  });
  const text = main.outputFiles[0].text;
  const inputs = [...new Set(['package.json', ...Object.keys(worker.metafile.inputs), ...Object.keys(main.metafile.inputs)])].map((rel) => {
    const st = fs.statSync(path.join(ROOT, rel));
    return [rel, st.size, st.mtimeMs];
  });
  const script = `cli-${createHash('sha256').update(text).digest('hex').slice(0, 16)}.cjs`;
  // written under temporary names and renamed: launches running side by side never see half a file
  const tmp = `.tmp-${process.pid}`;
  fs.writeFileSync(path.join(dir, script + tmp), text);
  fs.renameSync(path.join(dir, script + tmp), path.join(dir, script));
  fs.writeFileSync(manifestFile + tmp, JSON.stringify({ recipe: RECIPE, node: process.version, script, inputs }));
  fs.renameSync(manifestFile + tmp, manifestFile);
  // scripts of earlier builds, once no launch can be about to run them
  for (const name of fs.readdirSync(dir)) {
    if (name === script || !/^cli-[0-9a-f]+\.cjs$/.test(name)) continue;
    const old = path.join(dir, name);
    if (Date.now() - fs.statSync(old).mtimeMs > 3_600_000) fs.rmSync(old, { force: true });
  }
  return path.join(dir, script);
}
