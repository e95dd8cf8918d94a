// The script a worker thread (new Worker(script, { eval: true })) runs to load one of this
// package's worker modules, wherever the package runs from:
// - the built package (dist/, plain node): an import of the module's .js file beside its caller;
// - the TypeScript sources: the module and what it imports bundled by esbuild into one CommonJS
//   script (once a process, ~0.2 s), which a worker starts in ~0.1 s (loading the sources through
//   tsx's loader thread, one module at a time, took 2-2.5 s a worker on this machine);
// - without esbuild (tsx depends on it, so it is there when tsx is): tsx registered in the worker,
//   then the module imported.
// Used by the import's workers (import/workers.ts), the word index's (engine/search-workers.ts) and
// a streamed snapshot's (engine/snapshot-workers.ts).

import { fileURLToPath } from 'node:url';

/** A worker module, named by the URLs of its two forms (each resolved by its caller, beside it). */
export interface WorkerModule {
  /** the TypeScript source (import.meta.url of the caller, run from source) */
  source: URL;
  /** the built JavaScript (dist/) */
  built: URL;
}

/** Whether a worker module can be started from here: the package runs from its files (dist/ or
 *  the sources under tsx), not from the single executable, where import.meta is empty. */
export function workersCanStart(): boolean {
  return typeof import.meta.resolve === 'function' && /^file:.*\.[jt]s$/.test(import.meta.url ?? '');
}

/** Whether a module whose import.meta.url is `url` runs as built JavaScript (dist/). */
export function runsBuilt(url: string | undefined): boolean {
  return /\.js$/.test(url ?? '');
}

const bundles = new Map<string, Promise<string | undefined>>();

/** The source module bundled into one CommonJS script, once a process (undefined: no esbuild). */
function bundled(source: URL): Promise<string | undefined> {
  let b = bundles.get(source.href);
  if (b === undefined) {
    b = (async () => {
      try {
        const esbuild = (await import(import.meta.resolve('esbuild'))) as typeof import('esbuild');
        const r = await esbuild.build({
          entryPoints: [fileURLToPath(source)],
          bundle: true,
          platform: 'node',
          format: 'cjs',
          target: 'node20',
          write: false,
          logLevel: 'silent',
        });
        return r.outputFiles[0].text;
      } catch {
        return undefined;
      }
    })();
    bundles.set(source.href, b);
  }
  return b;
}

/** A worker script that imports one module (its failure becomes the worker's error). */
export function importThen(entry: string): string {
  return `import(${JSON.stringify(entry)}).catch((err) => { setImmediate(() => { throw err; }); });`;
}

/** The script that loads `m` in a worker: the built module when `built`, else the bundle of its
 *  source, else its source through tsx. */
export async function workerScript(m: WorkerModule, built: boolean): Promise<string> {
  if (built) return importThen(m.built.href);
  const text = await bundled(m.source);
  if (text !== undefined) return text;
  // the same TypeScript loader as this process: registered in the worker before its module loads
  const tsx = import.meta.resolve('tsx/esm/api');
  return `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(m.source.href)}); }).catch((err) => { setImmediate(() => { throw err; }); });`;
}
