#!/usr/bin/env node
// calendar-engine: the command line. `main(argv, io)` runs one command and returns its exit code
// (tests call it in-process); run directly, this file is the program (built: dist/cli/main.js, the
// package's `bin`).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CliError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, processIo, usageError, type CliIo } from './common.ts';
import { embedded } from './embedded.ts';
import { EXIT_MEMORY, sizeCommand, sizedRespawn } from './memory.ts';

export const USAGE = `Usage: calendar-engine <command> [options]

Commands:
  serve [options]                        serve the calendar over HTTP (the default of npm start)
  user add LOGIN --role ROLE             create a user; prints its application password once
  user list | remove LOGIN | reset LOGIN manage users and their application passwords
  snapshot                               compact the store (new snapshot, empty journal)
  check                                  verify the store without starting it (exit 0 when sound)
  repair                                 repair a damaged store, deleting nothing (then checks it)
  import FILE                            bulk-load a calendar (JSON or JSON Lines, streamed)
  export [--format json|jsonl] [--out F] write the calendar in the shape import reads
  webhook add URL | list | remove ID     deliver the change feed to URLs, signed

Every command takes --data DIR (env CALENDAR_DATA, default ./data/store).
calendar-engine <command> --help shows the options of a command.

Options:
  -h, --help       show this help
  -v, --version    print the version
`;

type Command = (args: string[], io: CliIo) => Promise<number>;
/** Loaded on use, so \`user list\` does not load the engine. */
const COMMANDS: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./serve.ts')).serveCommand,
  user: async () => (await import('./user.ts')).userCommand,
  snapshot: async () => (await import('./snapshot.ts')).snapshotCommand,
  check: async () => (await import('./check.ts')).checkCommand,
  repair: async () => (await import('./check.ts')).repairCommand,
  import: async () => (await import('./import.ts')).importCommand,
  export: async () => (await import('./export.ts')).exportCommand,
  webhook: async () => (await import('./webhook.ts')).webhookCommand,
};

export function packageVersion(): string {
  if (embedded.version) return embedded.version; // the single executable (binary-entry.ts)
  const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../package.json');
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
}

/** Runs one command line; never throws: errors become a message on stderr and an exit code. */
export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  try {
    const [first, ...rest] = argv;
    if (first === undefined) throw usageError('missing command', USAGE);
    if (first === '-h' || first === '--help') {
      io.stdout.write(USAGE);
      return EXIT_OK;
    }
    if (first === 'help') {
      if (rest.length === 0) {
        io.stdout.write(USAGE);
        return EXIT_OK;
      }
      return await main([rest[0], '--help'], io);
    }
    if (first === '-v' || first === '--version') {
      io.stdout.write(`${packageVersion()}\n`);
      return EXIT_OK;
    }
    const load = Object.hasOwn(COMMANDS, first) ? COMMANDS[first] : undefined;
    if (!load) {
      throw usageError(first.startsWith('-') ? `unknown option '${first}'` : `unknown command '${first}'`, USAGE);
    }
    // a command that loads a store: sized before anything is loaded (src/cli/memory.ts)
    const sizing = sizeCommand(argv, io);
    if (sizing?.plan.action === 'refuse') throw new CliError(sizing.plan.message, EXIT_MEMORY);
    if (sizing?.warning) io.stderr.write(sizing.warning);
    return await (await load())(sizing ? sizing.args : rest, io);
  } catch (err) {
    return report(err, io, argv[0]);
  }
}

function report(err: unknown, io: CliIo, command: string | undefined): number {
  const prefix = command && Object.hasOwn(COMMANDS, command) ? `calendar-engine ${command}` : 'calendar-engine';
  const debug = Boolean(io.env.DEBUG);
  if (err instanceof CliError) {
    io.stderr.write(`${prefix}: ${err.message}\n`);
    if (err.usage) io.stderr.write(`\n${err.usage}`);
    else if (err.exitCode === EXIT_USAGE) io.stderr.write(`(${prefix} --help shows the usage)\n`);
    if (debug && err.stack) io.stderr.write(`${err.stack}\n`);
    return err.exitCode;
  }
  const e = err as Error & { code?: unknown };
  // CalendarError (validation of an import...) carries its REST code; show it with the message.
  const code = e && typeof e.code === 'string' && e.name === 'CalendarError' ? ` (${e.code})` : '';
  let message = e?.message ?? String(err);
  // the calendar's import errors already start with "import: "
  if (command && message.startsWith(`${command}: `)) message = message.slice(command.length + 2);
  io.stderr.write(`${prefix}: ${message}${code}\n`);
  if (debug && e?.stack) io.stderr.write(`${e.stack}\n`);
  else if (!(e && e.name === 'CalendarError') && !(e && typeof e.code === 'string' && /^E[A-Z]+$/.test(e.code))) {
    io.stderr.write(`(set DEBUG=1 for details)\n`);
  }
  return EXIT_FAILURE;
}

/** The program: run argv, exit with its code (also ends a server once it has shut down). */
export async function runCli(argv: string[] = process.argv.slice(2)): Promise<never> {
  const code = await main(argv);
  process.exit(code);
}

const entry = process.argv[1];
// import.meta.url is empty in the single executable's CommonJS bundle, which runs binary-entry.ts
if (entry && import.meta.url && import.meta.url === pathToFileURL(fs.realpathSync(entry)).href) {
  void (async () => {
    const respawned = await sizedRespawn(process.argv.slice(2), false);
    if (respawned !== undefined) process.exit(respawned);
    await runCli();
  })();
}
