// calendar-engine import FILE: bulk-loads the import shape of CONTRACT.md ("The store") into a
// store, ids kept. All or nothing: a record that fails validation is reported (index and id) and
// nothing is imported. Progress bar on a terminal, one summary line either way.
import fs from 'node:fs';
import path from 'node:path';
import { CliError, EXIT_OK, dataDir, openStore, parseCommand, seconds, showPath, type CliIo } from './common.ts';
import { createProgress } from './progress.ts';
import type { ImportData } from './seed.ts';

export const IMPORT_USAGE = `Usage: calendar-engine import FILE [--data DIR]

Loads FILE, one JSON object {"categories": [...], "tags": [...], "venues": [...],
"organizers": [...], "events": [...]}, into the store. Ids are kept; events refer to their
venue, organizers and terms by id. If any record is invalid, it is named (index and id)
and nothing is imported. The store must not be in use by a running server.

Options:
  --data DIR     the store directory (env CALENDAR_DATA, default ./data/store)
  -h, --help     show this help
`;

export const IMPORT_KEYS = ['categories', 'tags', 'venues', 'organizers', 'events'] as const;

/** Reads and shape-checks the file: a JSON object whose known keys hold arrays (missing = none). */
export function readImportFile(file: string): ImportData {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new CliError(code === 'ENOENT' ? `${file}: no such file` : `${file}: ${(err as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new CliError(`${file} is not valid JSON: ${(err as Error).message}`);
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    throw new CliError(`${file}: expected one JSON object {"categories", "tags", "venues", "organizers", "events"}`);
  }
  const record = data as Record<string, unknown>;
  if (!IMPORT_KEYS.some((k) => k in record)) {
    throw new CliError(`${file}: none of ${IMPORT_KEYS.join(', ')} is present; nothing to import`);
  }
  for (const key of IMPORT_KEYS) {
    if (key in record && !Array.isArray(record[key])) throw new CliError(`${file}: "${key}" must be an array`);
    record[key] ??= [];
  }
  return record as unknown as ImportData;
}

export async function importCommand(args: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(args, { data: { type: 'string' } } as const, IMPORT_USAGE, { min: 1, max: 1, names: 'FILE' });
  if (parsed.help) {
    io.stdout.write(IMPORT_USAGE);
    return EXIT_OK;
  }
  const file = path.resolve(io.cwd, parsed.positionals[0]);
  const dir = dataDir(parsed.values.data, io);
  const data = readImportFile(file);
  const t0 = Date.now();
  const cal = await openStore({ dir }, io);
  const progress = createProgress(io.stderr, 'events');
  try {
    await cal.import(data, (done, total) => progress.update(done, total));
  } finally {
    progress.finish();
    await cal.close();
  }
  const counts = (['events', 'venues', 'organizers', 'categories', 'tags'] as const).map((k) => `${data[k].length} ${k}`).join(', ');
  io.stdout.write(`imported ${counts} into ${showPath(dir, io)} in ${seconds(Date.now() - t0)}\n`);
  return EXIT_OK;
}
