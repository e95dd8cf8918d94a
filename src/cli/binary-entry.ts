// Entry of the single executable (`npm run build:binary`, scripts/build-binary.ts): esbuild bundles
// this file into one CommonJS script, so nothing here may use top-level await or import.meta.
// The package version and the demo calendar are bundled in; nothing else is read beside the
// binary but the image library, from node_modules/ next to it, when an upload needs it.
import demo from '../../data/demo.json' with { type: 'json' };
import { embedded, type DemoFile } from './embedded.ts';
import { importWorkerSource } from '../import/workers.ts';
import { runCli } from './main.ts';
import { sizedRespawn } from './memory.ts';
import { imageLibrary } from '../media/images.ts';
import path from 'node:path';

/** The package version, set by scripts/build-binary.ts (esbuild `define`), so package.json is not bundled. */
declare const CALENDAR_ENGINE_VERSION: string;
/** src/import/worker.ts bundled into one CommonJS script, set by scripts/build-binary.ts: what
 *  a parallel import's worker threads run (there are no source files beside the binary). */
declare const CALENDAR_ENGINE_IMPORT_WORKER: string;

// Node prints an ExperimentalWarning for single executable applications (and other features);
// the binary is a finished program, so it keeps stderr for its own messages.
process.removeAllListeners('warning');

embedded.version = CALENDAR_ENGINE_VERSION;
importWorkerSource.text = CALENDAR_ENGINE_IMPORT_WORKER;
embedded.demo = demo as unknown as DemoFile;
// sharp (a native module) is not inside the binary: it is loaded from node_modules/ beside it,
// where npm run build:binary copies it (uploads answer 501 without it; nothing else needs it)
imageLibrary.from = path.join(path.dirname(process.execPath), 'calendar-engine.js');

void (async () => {
  // sized as the node entry is (src/cli/memory.ts): run again with a larger heap when one is needed
  const respawned = await sizedRespawn(process.argv.slice(2), true);
  if (respawned !== undefined) process.exit(respawned);
  await runCli(process.argv.slice(2));
})();
