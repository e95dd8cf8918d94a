// What the single-executable build (scripts/build-binary.ts) bundles in instead of reading files
// beside the sources: src/cli/binary-entry.ts fills this before running the command line.
// Run from source, it stays empty and the files are read (package.json, data/demo.json).
import type { DemoFile } from './seed.ts';

export const embedded: { version?: string; demo?: DemoFile } = {};
