// calendar-engine import FILE: bulk-loads a calendar into a store, ids kept, reading the file as
// a stream (any size). The import shape (docs/import-export.md), or JSON Lines (one
// {"type": "event", ...} object a line). All or nothing: a record that fails validation is
// reported (list, index, id, line) and nothing is imported. Progress bar on a terminal, one
// summary line either way.
import fs from 'node:fs';
import path from 'node:path';
import {
  CliError,
  EXIT_OK,
  EXIT_USAGE,
  dataDir,
  openStore,
  parseCommand,
  seconds,
  showPath,
  type CliIo,
} from './common.ts';
import { createProgress } from './progress.ts';
import type { ImportFormat } from '../import/read-records.ts';

export const IMPORT_USAGE = `Usage: calendar-engine import FILE [--data DIR] [--format json|jsonl] [--type events|venues|organizers]

Loads FILE into the store, read as a stream (a file of any size):
  json    one JSON object {"categories": [...], "tags": [...], "venues": [...],
          "organizers": [...], "events": [...]} (the shape \`calendar-engine export\` writes)
  jsonl   JSON Lines: one object a line, {"type": "category"|"tag"|"venue"|"organizer"|"event", ...}
The format is guessed from the name (.json, .jsonl, .ndjson) or the first line.
Ids are kept; events refer to their venue, organizers and terms by id, in any order.
If any record is invalid, it is named (list, index, id and line) and nothing is imported.
The store must not be in use by a running server.

A .csv file (or --type) is read as The Events Calendar's CSV importer reads it: one type a
file, the importer's column names ("Event Name", "Event Start Date", "Event Venue Name", ...);
venues, organizers and terms are matched by name and created when missing; a row matching a
published event (title, start and end) updates it.
An .ics file (iCalendar) imports its VEVENTs; a recurring one stays one series, its overrides
(RECURRENCE-ID) its exceptions.

Options:
  --data DIR       the store directory (env CALENDAR_DATA, default ./data/store)
  --memory-limit S memory it may use, e.g. 8G (env CALENDAR_MEMORY_LIMIT; default the machine's)
  --format F       json or jsonl (default: guessed)
  --type T         a CSV file of events, venues or organizers (default events)
  -h, --help       show this help
`;

export function parseFormat(value: string | undefined): ImportFormat | undefined {
  if (value === undefined) return undefined;
  if (value !== 'json' && value !== 'jsonl')
    throw new CliError(`--format: expected json or jsonl, got '${value}'`, EXIT_USAGE);
  return value;
}

export async function importCommand(args: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(
    args,
    { data: { type: 'string' }, format: { type: 'string' }, type: { type: 'string' } } as const,
    IMPORT_USAGE,
    { min: 1, max: 1, names: 'FILE' },
  );
  if (parsed.help) {
    io.stdout.write(IMPORT_USAGE);
    return EXIT_OK;
  }
  const format = parseFormat(parsed.values.format as string | undefined);
  const csvType = parsed.values.type as string | undefined;
  if (csvType !== undefined && csvType !== 'events' && csvType !== 'venues' && csvType !== 'organizers') {
    throw new CliError(`--type: expected events, venues or organizers, got '${csvType}'`, EXIT_USAGE);
  }
  const csv = csvType !== undefined || /\.csv$/i.test(parsed.positionals[0]);
  const ics = !csv && /\.(ics|ical|ifb)$/i.test(parsed.positionals[0]);
  const file = path.resolve(io.cwd, parsed.positionals[0]);
  const dir = dataDir(parsed.values.data, io);
  try {
    const st = fs.statSync(file);
    if (!st.isFile()) throw new CliError(`${parsed.positionals[0]}: not a file`);
  } catch (err) {
    if (err instanceof CliError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new CliError(
      code === 'ENOENT'
        ? `${parsed.positionals[0]}: no such file`
        : `${parsed.positionals[0]}: ${(err as Error).message}`,
    );
  }
  const t0 = Date.now();
  const cal = await openStore({ dir }, io);
  const progress = createProgress(io.stderr, 'KiB read');
  let counts;
  try {
    counts = ics
      ? await cal.importIcs(file)
      : csv
        ? await cal.importCsv(file, (csvType ?? 'events') as 'events' | 'venues' | 'organizers')
        : // alone: nothing else uses the store, and this process ends after the import (the search
          // index is built by whoever serves the store)
          await cal.importFile(file, {
            format,
            alone: true,
            onProgress: (done, total) => progress.update(Math.ceil(done / 1024), Math.ceil(total / 1024)),
          });
  } finally {
    progress.finish();
    await cal.close();
  }
  const summary =
    (['events', 'venues', 'organizers', 'categories', 'tags'] as const).map((k) => `${counts[k]} ${k}`).join(', ') +
    (counts.media ? `, ${counts.media} media` : '') +
    (counts.updated ? `; updated ${counts.updated} existing events` : '');
  io.stdout.write(`imported ${summary} into ${showPath(dir, io)} in ${seconds(Date.now() - t0)}\n`);
  return EXIT_OK;
}
