// What every command shares: the streams it writes to, its errors and exit codes, option parsing.
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Calendar, CalendarOptions } from '../calendar.ts';

/** Where a command writes and what it reads from its environment (process by default; tests pass their own). */
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown; isTTY?: boolean; columns?: number };
  env: Record<string, string | undefined>;
  cwd: string;
}

export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** A failure to report as one line (no stack trace), with its exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT_FAILURE,
    readonly usage?: string,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** Wrong command line: message, then the usage of the command, exit code 2. */
export function usageError(message: string, usage: string): CliError {
  return new CliError(message, EXIT_USAGE, usage);
}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * node:util parseArgs in strict mode, with its errors turned into usage errors
 * ("unknown option '--x'", "option '--port' needs a value") and `--help` / `-h` always known.
 */
export function parseCommand<O extends Options>(
  args: string[],
  options: O,
  usage: string,
  positionals: { min: number; max: number; names?: string },
): { values: Record<string, string | boolean | undefined>; positionals: string[]; help: boolean } {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: true,
    });
  } catch (err) {
    throw usageError(parseArgsMessage(err as Error & { code?: string }), usage);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values.help) return { values, positionals: parsed.positionals, help: true };
  const n = parsed.positionals.length;
  if (n < positionals.min) throw usageError(`missing ${positionals.names ?? 'argument'}`, usage);
  if (n > positionals.max) throw usageError(`unexpected argument '${parsed.positionals[positionals.max]}'`, usage);
  return { values, positionals: parsed.positionals, help: false };
}

function parseArgsMessage(err: Error & { code?: string }): string {
  // node writes "Option '-p, --port <value>' argument missing" / "Unknown option '--bogus'. To specify..."
  const quoted = /'(-[^']*)'/.exec(err.message)?.[1] ?? '';
  const option = quoted
    .split(/[\s,]+/)
    .filter((w) => w.startsWith('-'))
    .pop();
  switch (err.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return option ? `unknown option '${option}'` : 'unknown option';
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (/argument missing/.test(err.message)) return `option '${option ?? '?'}' needs a value`;
      if (/does not take an argument/.test(err.message)) return `option '${option ?? '?'}' does not take a value`;
      return err.message;
    default:
      return err.message.split('\n')[0];
  }
}

/** --data, else CALENDAR_DATA, else ./data/store; relative to the working directory. */
export function dataDir(value: string | boolean | undefined, io: CliIo): string {
  const dir = typeof value === 'string' ? value : io.env.CALENDAR_DATA || './data/store';
  if (dir === '') throw new CliError('--data: the store directory is empty', EXIT_USAGE);
  return path.resolve(io.cwd, dir);
}

/** Shows where the store is in messages: relative to the working directory when inside it. */
export function showPath(dir: string, io: CliIo): string {
  const rel = path.relative(io.cwd, dir);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : dir;
}

/** "store DIR is in use by pid N" from the store lock: say what to do about it. */
export function explainStoreError(err: unknown, dir: string, io: CliIo): unknown {
  const message = (err as Error)?.message ?? '';
  const m = /in use by pid (\d+)/.exec(message);
  if (m) {
    return new CliError(
      `the store ${showPath(dir, io)} is in use by a running server (pid ${m[1]}); stop it first (a server writes a snapshot when it stops)`,
    );
  }
  return err;
}

/** Opens the calendar of a store (loaded lazily, so --help stays fast), explaining a held lock. */
export async function openStore(opts: CalendarOptions & { dir: string }, io: CliIo): Promise<Calendar> {
  const { openCalendar } = await import('../calendar.ts');
  try {
    return await openCalendar(opts);
  } catch (err) {
    throw explainStoreError(err, opts.dir, io);
  }
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}
