// calendar-engine snapshot: compacts a store (new snapshot, empty journal). Needs the store lock,
// so it refuses, with a clear message, while a server runs on the same store.
import fs from 'node:fs';
import { CliError, EXIT_OK, dataDir, openStore, parseCommand, seconds, showPath, type CliIo } from './common.ts';

export const SNAPSHOT_USAGE = `Usage: calendar-engine snapshot [--data DIR]

Compacts the store: writes a new snapshot holding every write so far and empties the journal.
A running server does this itself when it stops; while it runs, the store is locked.

Options:
  --data DIR     the store directory (env CALENDAR_DATA, default ./data/store)
  --memory-limit S  memory it may use, e.g. 8G (env CALENDAR_MEMORY_LIMIT; default the machine's)
  -h, --help     show this help
`;

export async function snapshotCommand(args: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(args, { data: { type: 'string' } } as const, SNAPSHOT_USAGE, { min: 0, max: 0 });
  if (parsed.help) {
    io.stdout.write(SNAPSHOT_USAGE);
    return EXIT_OK;
  }
  const dir = dataDir(parsed.values.data, io);
  if (!fs.existsSync(dir)) throw new CliError(`no store at ${showPath(dir, io)} (nothing to compact)`);
  const t0 = Date.now();
  const cal = await openStore({ dir }, io);
  try {
    await cal.snapshot();
  } finally {
    await cal.close();
  }
  io.stdout.write(`compacted ${showPath(dir, io)} in ${seconds(Date.now() - t0)}\n`);
  return EXIT_OK;
}
