// npm run build:binary: dist/calendar-engine, the command line as one executable file
// (Node's single executable applications). Steps:
//   0. the package's JavaScript (dist/, npm run build) is built when older than a source;
//   1. esbuild bundles dist/cli/binary-entry.js, every dependency and data/demo.json into ONE
//      CommonJS script (a SEA main script must be CommonJS on Node 20);
//   2. node --experimental-sea-config turns it into a preparation blob;
//   3. a copy of this node binary gets the blob injected with postject.
// The bundle is checked: no better-sqlite3, no bench code, no import.meta left to misbehave.
// The image library (sharp, a native module) cannot be inside: it is copied beside the binary,
// to node_modules/ next to it, where the binary loads it from (src/media/images.ts); without
// that folder the binary runs the same, and only uploads are refused (501).
// Usage: npm run build:binary [-- --out FILE] [--no-strip] [--quiet]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import * as esbuild from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const ENTRY = path.join(ROOT, 'dist/cli/binary-entry.js');
const WORKER = path.join(ROOT, 'dist/import/worker.js');
/** The fuse every Node binary built with SEA support carries (Node's docs, "Single executable applications"). */
export const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
/** Inputs that must never end up in the binary. */
const FORBIDDEN = [/(^|\/)node_modules\/better-sqlite3\//, /(^|\/)bench\//, /(^|\/)node_modules\/tsx\//];

/**
 * The NATS client (cluster mode) loads a Node built-in with import("node:crypto"), which the
 * CommonJS script would leave as a dynamic import, which a single executable cannot run: in
 * node_modules, such an import becomes a require of the built-in.
 */
const builtinImportsAsRequire: esbuild.Plugin = {
  name: 'builtin-imports-as-require',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]@nats-io[\\/].*\.js$/ }, (args) => {
      const text = fs.readFileSync(args.path, 'utf8');
      if (!/\bimport\(\s*["']node:/.test(text)) return undefined;
      return {
        contents: text.replace(/\bimport\(\s*(["']node:[\w/]+["'])\s*\)/g, 'Promise.resolve(require($1))'),
        loader: 'js',
      };
    });
  },
};

/** Runs npm run build (scripts/build.mjs) unless dist/ is newer than every source. */
function ensureBuilt(): void {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs'), '--if-stale'], {
    encoding: 'utf8',
    env: withoutNodeOptions(process.env),
  });
  if (r.status !== 0) throw new Error(`npm run build failed:\n${r.stderr}${r.stdout}`);
}

export type BuildResult = { out: string; bytes: number; bundleBytes: number; ms: number };

export type BuildOptions = {
  /** default dist/calendar-engine */
  out?: string;
  /** Linux: drop the copied node's symbol tables with `strip` when it is installed (default true; ~12 MB less) */
  strip?: boolean;
  log?: (line: string) => void;
};

export async function buildBinary(options: BuildOptions = {}): Promise<BuildResult> {
  const log = options.log ?? (() => {});
  const started = performance.now();
  const out = path.resolve(options.out ?? path.join(ROOT, 'dist/calendar-engine'));
  const work = path.join(path.dirname(out), `.sea-${process.pid}`); // own folder: builds may run side by side
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });

  let bundleBytes = 0;
  try {
    ensureBuilt();
    // 1. one CommonJS file; the parallel import's worker (dist/import/worker.js and what it
    // imports) bundled first into a script of its own, which the binary hands to its workers as
    // text (binary-entry.ts: importWorkerSource), there being no source files beside it
    const common = {
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      minifySyntax: true,
      legalComments: 'none',
      metafile: true,
      logLevel: 'silent',
      absWorkingDir: ROOT,
    } as const;
    const worker = await esbuild.build({ ...common, entryPoints: [WORKER], write: false });
    const workerBad = Object.keys(worker.metafile.inputs).filter((file) => FORBIDDEN.some((re) => re.test(file)));
    if (workerBad.length) throw new Error(`the import worker's bundle must not contain ${workerBad.join(', ')}`);
    const bundle = path.join(work, 'calendar-engine.cjs');
    const result = await esbuild.build({
      ...common,
      entryPoints: [ENTRY],
      outfile: bundle,
      // the version only (binary-entry.ts): package.json itself stays out of the binary
      define: {
        CALENDAR_ENGINE_VERSION: JSON.stringify(packageVersion()),
        CALENDAR_ENGINE_IMPORT_WORKER: JSON.stringify(worker.outputFiles[0].text),
      },
      // dist/cli/main.js and seed.js test import.meta.url and fall back when it is empty, which is
      // exactly what esbuild gives in CommonJS output (binary-entry.ts supplies the files instead).
      logOverride: { 'empty-import-meta': 'silent' },
      plugins: [builtinImportsAsRequire],
    });
    for (const w of result.warnings)
      log(`esbuild: ${w.text}${w.location ? ` (${w.location.file}:${w.location.line})` : ''}`);
    const inputs = Object.keys(result.metafile.inputs);
    const bad = inputs.filter((file) => FORBIDDEN.some((re) => re.test(file)));
    if (bad.length) throw new Error(`the bundle must not contain ${bad.join(', ')}`);
    // import.meta may only appear (emptied) in the files that guard it (workers.ts: the
    // binary's workers run the bundled worker, never the sources import.meta.url would find;
    // search-workers.ts: no worker without import.meta, the word index built on the main thread;
    // snapshot-workers.ts: likewise, an import's snapshot made wholly on the main thread;
    // worker-script.ts: called by those three only when they start a worker from dist/ or source)
    const metaUsers = inputs.filter(
      (file) =>
        !/^(dist\/cli\/(main|seed)\.js|dist\/(import\/workers|engine\/(search|snapshot)-workers|worker-script)\.js|dist\/media\/images\.js|data\/demo\.json|package\.json)$/.test(
          file,
        ) &&
        !file.endsWith('.json') &&
        usesImportMeta(fs.readFileSync(path.join(ROOT, file), 'utf8')),
    );
    if (metaUsers.length)
      throw new Error(`import.meta is empty in the CommonJS bundle, but used by ${metaUsers.join(', ')}`);
    // a SEA main script on Node 20 can require() built-ins only, and has no import() at all
    // (a line of a comment does not count: undici's JSDoc types say `{import('node:stream').Duplex}`)
    const dynamic = [...fs.readFileSync(bundle, 'utf8').matchAll(/^(.*?)\bimport\(\s*["'`].{0,40}/gm)].find(
      (m) => !/^\s*(\*|\/\/|\/\*)/.test(m[1]),
    );
    if (dynamic)
      throw new Error(
        `the bundle still has a dynamic import, which a single executable cannot run: ${dynamic[0].trim()}`,
      );
    bundleBytes = fs.statSync(bundle).size;
    log(`bundle: ${inputs.length} inputs, ${(bundleBytes / 1024).toFixed(0)} KiB`);

    // 2. the preparation blob
    const blob = path.join(work, 'sea-prep.blob');
    const config = path.join(work, 'sea-config.json');
    fs.writeFileSync(
      config,
      JSON.stringify(
        {
          main: bundle,
          output: blob,
          disableExperimentalSEAWarning: true,
          // no code cache: it saves nothing measurable here (~60 ms to --version either way), and V8 may
          // reject it ("Warning: Code cache data rejected." on stderr, printed before any code of ours)
          useCodeCache: false,
        },
        null,
        2,
      ),
    );
    const sea = spawnSync(process.execPath, ['--experimental-sea-config', config], {
      cwd: work,
      encoding: 'utf8',
      env: withoutNodeOptions(process.env),
    });
    if (sea.status !== 0) throw new Error(`node --experimental-sea-config failed:\n${sea.stderr}${sea.stdout}`);

    // 3. copy node, inject the blob
    const node = fs.readFileSync(process.execPath);
    if (!node.includes(SEA_FUSE))
      throw new Error(`${process.execPath} has no single executable support (fuse not found)`);
    const tmp = `${out}.tmp-${process.pid}`;
    fs.writeFileSync(tmp, node, { mode: 0o755 });
    try {
      if (options.strip !== false && process.platform === 'linux') {
        // symbols only (.symtab, debug info); the dynamic symbols that addons link against stay
        const strip = spawnSync('strip', ['--strip-all', tmp], { encoding: 'utf8' });
        if (strip.error) log("strip not found: the binary keeps node's symbol tables");
        else if (strip.status !== 0) throw new Error(`strip failed: ${strip.stderr}`);
      }
      // postject's CLI in a child: its ELF library prints harmless warnings ("Can't find string
      // offset for section name") that are shown only when the injection fails
      const postject = spawnSync(
        process.execPath,
        [
          require.resolve('postject/dist/cli.js'),
          tmp,
          'NODE_SEA_BLOB',
          blob,
          '--sentinel-fuse',
          SEA_FUSE,
          ...(process.platform === 'darwin' ? ['--macho-segment-name', 'NODE_SEA'] : []),
        ],
        { encoding: 'utf8', env: withoutNodeOptions(process.env) },
      );
      if (postject.status !== 0) throw new Error(`postject failed:\n${postject.stderr}${postject.stdout}`);
      if (process.platform === 'darwin') {
        const sign = spawnSync('codesign', ['--sign', '-', tmp], { encoding: 'utf8' });
        if (sign.status !== 0) throw new Error(`codesign failed: ${sign.stderr}`);
      }
      fs.chmodSync(tmp, 0o755);
      fs.renameSync(tmp, out);
    } finally {
      fs.rmSync(tmp, { force: true });
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  const libBytes = copyImageLibrary(path.join(path.dirname(out), 'node_modules'));
  log(
    `${path.relative(process.cwd(), path.join(path.dirname(out), 'node_modules')) || 'node_modules'}: the image library (sharp), ${(libBytes / 1024 / 1024).toFixed(1)} MiB`,
  );
  const bytes = fs.statSync(out).size;
  const ms = performance.now() - started;
  log(
    `${path.relative(process.cwd(), out) || out}: ${(bytes / 1024 / 1024).toFixed(1)} MiB, built in ${(ms / 1000).toFixed(1)} s`,
  );
  return { out, bytes, bundleBytes, ms };
}

/**
 * sharp and the packages it loads (its dependencies and the installed optional ones: the prebuilt
 * @img/sharp-<platform> and @img/sharp-libvips-<platform>), copied into `modules`. Returns bytes.
 */
export function copyImageLibrary(modules: string): number {
  const done = new Set<string>();
  let bytes = 0;
  const visit = (name: string, from: string) => {
    if (done.has(name)) return;
    // node's lookup: node_modules/NAME in `from` and each folder above it (package.json itself
    // is not among the files sharp's `exports` let require() resolve)
    let manifest: string | undefined;
    for (let d = from; !manifest; d = path.dirname(d)) {
      const candidate = path.join(d, 'node_modules', name, 'package.json');
      if (fs.existsSync(candidate)) manifest = candidate;
      else if (path.dirname(d) === d) return; // not installed: an optional dependency of another platform
    }
    done.add(name);
    const dir = path.dirname(manifest);
    const target = path.join(modules, name);
    fs.rmSync(target, { recursive: true, force: true });
    fs.cpSync(dir, target, { recursive: true, dereference: true });
    const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8')) as {
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) visit(dep, dir);
  };
  visit('sharp', ROOT);
  const size = (p: string): number =>
    fs.statSync(p).isDirectory()
      ? fs.readdirSync(p).reduce((n, e) => n + size(path.join(p, e)), 0)
      : fs.statSync(p).size;
  for (const name of done) bytes += size(path.join(modules, name));
  return bytes;
}

function packageVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

/** import.meta outside comments (a rough look, enough for our sources and dependencies). */
function usesImportMeta(code: string): boolean {
  return code.split('\n').some((line) => /\bimport\.meta\b/.test(line.replace(/\/\/.*$/, '').replace(/^\s*\*.*$/, '')));
}

function withoutNodeOptions(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  delete copy.NODE_OPTIONS;
  return copy;
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(fs.realpathSync(process.argv[1])).href;
if (isMain) {
  const { values } = parseArgs({
    options: { out: { type: 'string' }, quiet: { type: 'boolean' }, 'no-strip': { type: 'boolean' } },
  });
  buildBinary({
    out: values.out,
    strip: !values['no-strip'],
    log: values.quiet ? undefined : (line) => console.log(line),
  }).catch((err: Error) => {
    console.error(`build:binary: ${err.message}`);
    process.exit(1);
  });
}
