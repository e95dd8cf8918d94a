#!/usr/bin/env node
// Launcher for the npm `bin` and `npx calendar-engine`: loads TypeScript through tsx, then runs
// src/cli/main.ts. Works from a clone (no build step).
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';

// An import allocates young objects for every record it parses and keeps most of their strings:
// with 64 MiB young-generation semi-spaces instead of V8's 16 MiB, a million-event file took
// 22.7 s of CPU instead of 27.0 s (one A/B run), most of it garbage collection saved. The flag
// only works at start-up, so a large file's import runs again with it.
if (process.argv[2] === 'import' && !process.execArgv.some((a) => a.startsWith('--max-semi-space-size')) && largeFile(process.argv[3])) {
  const r = spawnSync(process.execPath, ['--max-semi-space-size=64', ...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit' });
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
