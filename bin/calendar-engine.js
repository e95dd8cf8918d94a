#!/usr/bin/env node
// Launcher for the npm `bin` and `npx calendar-engine`: loads TypeScript through tsx, then runs
// src/cli/main.ts. Works from a clone (no build step).
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';

// An import allocates young objects for every record it parses and keeps most of their strings:
// with 64 MiB young-generation semi-spaces instead of V8's 16 MiB, a million-event file took
// 22.7 s of CPU instead of 27.0 s (one A/B run), most of it garbage collection saved. The flag
// only works at start-up, so a large file's import runs again with it; and it runs as one script
// (cli-bundle.js: built by esbuild once and cached) rather than through tsx, whose loading of the
// sources took 1.1-2.3 s of its start-up. CALENDAR_CLI_BUNDLE=1 runs any command so (what the tests
// use to check that script), =0 never.
const bundleEnv = process.env.CALENDAR_CLI_BUNDLE;
const largeImport = process.argv[2] === 'import' && !process.execArgv.some((a) => a.startsWith('--max-semi-space-size')) && largeFile(process.argv[3]);
if (largeImport || bundleEnv === '1') {
  const { cliBundle } = await import('./cli-bundle.js');
  const script = bundleEnv === '0' ? undefined : await cliBundle();
  if (script === undefined && !largeImport) {
    process.stderr.write('calendar-engine: CALENDAR_CLI_BUNDLE=1, but the command line could not be bundled (is esbuild installed?)\n');
    process.exit(1);
  }
  const r = spawnSync(process.execPath, [...(largeImport ? ['--max-semi-space-size=64'] : []), ...process.execArgv, ...(script ? [script, ...process.argv.slice(2)] : process.argv.slice(1))], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

/** a file of 128 MiB or more (smaller ones import in a few seconds, and the young generation would weigh on their peak memory) */
function largeFile(file) {
  try {
    return statSync(file).size >= 128 * 2 ** 20;
  } catch {
    return false;
  }
}

const { register } = await import('tsx/esm/api');
register();
const { runCli } = await import('../src/cli/main.ts');
await runCli(process.argv.slice(2));
