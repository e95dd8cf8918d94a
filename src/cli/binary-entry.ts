// Entry of the single executable (`npm run build:binary`, scripts/build-binary.ts): esbuild bundles
// this file into one CommonJS script, so nothing here may use top-level await or import.meta.
// The package version and the demo calendar are bundled in; nothing is read beside the binary.
import demo from '../../data/demo.json' with { type: 'json' };
import { embedded, type DemoFile } from './embedded.ts';
import { importWorkerSource } from '../api/import-workers.ts';
import { runCli } from './main.ts';

/** The package version, set by scripts/build-binary.ts (esbuild `define`), so package.json is not bundled. */
declare const CALENDAR_ENGINE_VERSION: string;
/** src/api/import-worker.ts bundled into one CommonJS script, set by scripts/build-binary.ts: what
 *  a parallel import's worker threads run (there are no source files beside the binary). */
declare const CALENDAR_ENGINE_IMPORT_WORKER: string;

// Node prints an ExperimentalWarning for single executable applications (and other features);
// the binary is a finished program, so it keeps stderr for its own messages.
process.removeAllListeners('warning');

embedded.version = CALENDAR_ENGINE_VERSION;
importWorkerSource.text = CALENDAR_ENGINE_IMPORT_WORKER;
embedded.demo = demo as unknown as DemoFile;

void runCli(process.argv.slice(2));
