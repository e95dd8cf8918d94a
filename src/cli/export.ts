// calendar-engine export: writes the store's calendar in its import shape (json) or as JSON
// Lines, streamed, to stdout or a file. `import` of the output into an empty store gives back the
// same calendar.
import fs from 'node:fs';
import path from 'node:path';
import { CliError, EXIT_OK, dataDir, openStore, parseCommand, seconds, showPath, type CliIo } from './common.ts';
import { parseFormat } from './import.ts';

export const EXPORT_USAGE = `Usage: calendar-engine export [--data DIR] [--format json|jsonl] [--out FILE]

Writes the calendar (categories, tags, the media library's uploads with their files,
venues, organizers, then events of every status, trash included) in the shape \`calendar-engine import\` reads: ids, authors, dates, slugs,
terms and links kept. Streamed: a record at a time.

Options:
  --data DIR       the store directory (env CALENDAR_DATA, default ./data/store)
  --memory-limit S memory it may use, e.g. 8G (env CALENDAR_MEMORY_LIMIT; default the machine's)
  --format F       json (one object of arrays, the default) or jsonl (one object a line)
  --out FILE       write to FILE (replaced once complete) instead of stdout
  -h, --help       show this help
`;

export async function exportCommand(args: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(
    args,
    { data: { type: 'string' }, format: { type: 'string' }, out: { type: 'string' } } as const,
    EXPORT_USAGE,
    { min: 0, max: 0, names: '' },
  );
  if (parsed.help) {
    io.stdout.write(EXPORT_USAGE);
    return EXIT_OK;
  }
  const format = parseFormat(parsed.values.format as string | undefined) ?? 'json';
  const outArg = parsed.values.out as string | undefined;
  const dir = dataDir(parsed.values.data, io);
  const t0 = Date.now();
  const cal = await openStore({ dir }, io);
  try {
    if (outArg === undefined) {
      await cal.exportTo(io.stdout, format);
      return EXIT_OK;
    }
    const out = path.resolve(io.cwd, outArg);
    const tmp = `${out}.partial-${process.pid}`;
    let counts;
    try {
      const stream = fs.createWriteStream(tmp);
      await new Promise<void>((resolve, reject) => stream.once('open', () => resolve()).once('error', reject));
      counts = await cal.exportTo(stream, format);
      await new Promise<void>((resolve, reject) => stream.end((err?: Error | null) => (err ? reject(err) : resolve())));
      fs.renameSync(tmp, out);
    } catch (err) {
      fs.rmSync(tmp, { force: true });
      throw new CliError(`${outArg}: ${(err as Error).message}`);
    }
    const summary = (['events', 'venues', 'organizers', 'categories', 'tags'] as const)
      .map((k) => `${counts[k]} ${k}`)
      .join(', ')
      .concat(counts.media ? `, ${counts.media} media` : '');
    io.stderr.write(`exported ${summary} from ${showPath(dir, io)} to ${outArg} in ${seconds(Date.now() - t0)}\n`);
    return EXIT_OK;
  } finally {
    await cal.close();
  }
}
