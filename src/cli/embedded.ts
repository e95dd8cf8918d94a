// What the single-executable build (scripts/build-binary.ts) bundles in instead of reading files
// beside the sources: src/cli/binary-entry.ts fills this before running the command line.
// Run from source, it stays empty and the files are read (package.json, data/demo.json).
import type { ImportCalendar } from '../import/index.ts';

/** data/demo.json: the import shape plus the Monday its dates are relative to (read by seed.ts). */
export type DemoFile = ImportCalendar & { base_date: string };

export const embedded: { version?: string; demo?: DemoFile } = {};
