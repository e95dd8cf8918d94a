// calendar-engine check / repair: verify a store without starting a server, and repair what can
// be repaired without deleting anything (src/faults/check.ts).
import { CliError, EXIT_OK, dataDir, explainStoreError, parseCommand, showPath, type CliIo } from './common.ts';

export const CHECK_USAGE = `Usage: calendar-engine check [--data DIR]

Verifies a store without starting it and without writing to it: every snapshot part (length,
chunk count, sha256), every journal line (checksum, seq), every write applied as a start would.
Prints a summary and exits 0 when the store is sound; prints what is wrong and exits 1 otherwise.

Options:
  --data DIR     the store directory (env CALENDAR_DATA, default ./data/store)
  --memory-limit S  memory it may use, e.g. 8G (env CALENDAR_MEMORY_LIMIT; default the machine's)
  -h, --help     show this help
`;

export const REPAIR_USAGE = `Usage: calendar-engine repair [--data DIR]

Repairs a store that 'check' finds damaged, deleting nothing:
  - snapshot.json missing or damaged while snapshot parts are there: rebuilt from the newest
    whole set of parts (a damaged snapshot.json is first moved to snapshot.json.damaged-TIME);
  - journal.jsonl damaged at a line before its last: copied whole to journal.jsonl.damaged-TIME,
    then cut before that line (the writes from there on are then only in the copy).
Then checks the store as 'check' does. Needs the store's lock: stop the server first.

Options:
  --data DIR     the store directory (env CALENDAR_DATA, default ./data/store)
  --memory-limit S  memory it may use, e.g. 8G (env CALENDAR_MEMORY_LIMIT; default the machine's)
  -h, --help     show this help
`;

export async function checkCommand(args: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(args, { data: { type: 'string' } } as const, CHECK_USAGE, { min: 0, max: 0 });
  if (parsed.help) {
    io.stdout.write(CHECK_USAGE);
    return EXIT_OK;
  }
  const dir = dataDir(parsed.values.data, io);
  return report(dir, io);
}

export async function repairCommand(args: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(args, { data: { type: 'string' } } as const, REPAIR_USAGE, { min: 0, max: 0 });
  if (parsed.help) {
    io.stdout.write(REPAIR_USAGE);
    return EXIT_OK;
  }
  const dir = dataDir(parsed.values.data, io);
  const { repairStore } = await import('../faults/check.ts');
  let done: string[];
  try {
    done = await repairStore(dir, (line) => io.stderr.write(`${line}\n`));
  } catch (err) {
    throw explainStoreError(err, dir, io);
  }
  for (const line of done) io.stdout.write(`repaired: ${line}\n`);
  if (done.length === 0) io.stdout.write(`nothing to repair in ${showPath(dir, io)}\n`);
  return report(dir, io);
}

async function report(dir: string, io: CliIo): Promise<number> {
  const { checkStore } = await import('../faults/check.ts');
  const r = await checkStore(dir);
  for (const line of r.notes) io.stdout.write(`note: ${line}\n`);
  if (!r.sound) {
    for (const line of r.problems) io.stderr.write(`problem: ${line}\n`);
    throw new CliError(
      `the store ${showPath(dir, io)} is damaged (docs/faults.md says how to recover; 'calendar-engine repair' fixes a missing ` +
        `snapshot.json and a damaged journal line)`,
    );
  }
  for (const line of r.summary) io.stdout.write(`${line}\n`);
  io.stdout.write(`the store ${showPath(dir, io)} is sound\n`);
  return EXIT_OK;
}
