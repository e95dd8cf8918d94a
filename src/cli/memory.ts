// The commands that load a store (serve, import, export, snapshot, check, repair) size their memory
// before loading anything (src/memory/sizing.ts): refused with EXIT_MEMORY and the figures when the
// store cannot fit in the memory allowed, and, run as the program, run again once with a V8 heap
// limit that fits the store when Node's default would not hold it (docs/operating.md#memory).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { CliError, EXIT_USAGE, type CliIo } from './common.ts';
import { machineMemory, storeFacts } from '../memory/machine.ts';
import { optionRow } from '../options/options.ts';
import {
  allowedMemory,
  formatBytes,
  heapFlag,
  importNeed,
  MIB,
  planMemory,
  storeNeed,
  type Plan,
} from '../memory/sizing.ts';

/** Exit code of a command refused for lack of memory (nothing loaded, nothing changed). */
export const EXIT_MEMORY = 3;
/** Set in the environment of the process run again with a sized heap: its limit, in MiB. */
export const SIZED_ENV = 'CALENDAR_ENGINE_SIZED_HEAP_MB';

export const SIZED_COMMANDS: ReadonlySet<string> = new Set([
  'serve',
  'import',
  'export',
  'snapshot',
  'check',
  'repair',
]);

/** Value options of the sized commands (their value is not the import's FILE). */
const VALUE_OPTIONS = new Set(['--data', '--format', '--type', '--out', '--memory-limit']);

export interface Sizing {
  /** the arguments without --memory-limit, for the command */
  args: string[];
  plan: Plan;
  /** a warning to show before running (the machine has less free now than the command needs) */
  warning?: string;
}

/** The heap limit of this process and who chose it. */
export interface HeapNow {
  limitBytes: number;
  set: boolean;
  from?: string;
}

export function heapNow(env: Record<string, string | undefined> = process.env): HeapNow {
  const limitBytes = v8.getHeapStatistics().heap_size_limit;
  if (env[SIZED_ENV]) return { limitBytes, set: true, from: 'sized from the memory allowed' };
  const flag = heapFlag(process.execArgv) ?? heapFlag((env.NODE_OPTIONS ?? '').split(/\s+/));
  return flag === undefined ? { limitBytes, set: false } : { limitBytes, set: true, from: '--max-old-space-size' };
}

/**
 * The sizing of a command line (command first): undefined for a command that loads no store, a
 * --help, or a cluster node (its state comes from NATS); a bad --memory-limit is a usage error.
 */
export function sizeCommand(argv: string[], io: CliIo, heap: HeapNow = heapNow()): Sizing | undefined {
  const [command, ...rest] = argv;
  if (!SIZED_COMMANDS.has(command)) return undefined;
  const args: string[] = [];
  let limitText: string | undefined;
  let limitFrom = '--memory-limit';
  let dataText: string | undefined;
  let file: string | undefined;
  let cluster = Boolean(io.env.CALENDAR_CLUSTER);
  let help = false;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    const [name, inline] =
      a.startsWith('--') && a.includes('=')
        ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]
        : [a, undefined];
    if (name === '--memory-limit') {
      limitText = inline ?? rest[++i];
      if (limitText === undefined) throw new CliError("option '--memory-limit' needs a value", EXIT_USAGE);
      continue;
    }
    args.push(a);
    if (name === '-h' || name === '--help') help = true;
    else if (name === '--cluster') cluster = true;
    else if (name === '--data') dataText = inline ?? rest[i + 1];
    else if (!a.startsWith('-') && file === undefined && !VALUE_OPTIONS.has(rest[i - 1] ?? '')) file = a;
    if (inline === undefined && VALUE_OPTIONS.has(name) && i + 1 < rest.length) args.push(rest[++i]);
  }
  if (limitText === undefined && io.env.CALENDAR_MEMORY_LIMIT) {
    limitText = io.env.CALENDAR_MEMORY_LIMIT;
    limitFrom = 'CALENDAR_MEMORY_LIMIT';
  }
  let limitBytes: number | undefined;
  if (limitText !== undefined) {
    try {
      limitBytes = optionRow('memory-limit').parse?.(limitText) as number;
    } catch (err) {
      throw new CliError(`${limitFrom}: ${(err as Error).message}`, EXIT_USAGE);
    }
  }
  if (help || (command === 'serve' && cluster)) return { args, plan: { action: 'run' } };
  const dir = path.resolve(io.cwd, dataText ?? (io.env.CALENDAR_DATA || './data/store'));
  const facts = storeFacts(dir);
  let need = storeNeed(facts);
  if (command === 'import' && file !== undefined) {
    let size = 0;
    try {
      size = fs.statSync(path.resolve(io.cwd, file)).size;
    } catch {
      // a missing file: the command says so
    }
    need = importNeed(facts, size);
  }
  const inputs = machineMemory(limitBytes === undefined ? undefined : { bytes: limitBytes, from: limitFrom });
  const allowed = allowedMemory(inputs);
  const plan = planMemory({
    need,
    allowed,
    heapLimitBytes: heap.limitBytes,
    heapLimitSet: heap.set,
    heapLimitFrom: heap.from,
    command,
  });
  const warning =
    plan.action !== 'refuse' &&
    inputs.availableBytes !== undefined &&
    need.totalBytes > inputs.availableBytes &&
    need.totalBytes > 512 * MIB
      ? `warning: ${command} of ${need.what} needs about ${formatBytes(need.totalBytes)}, and ${formatBytes(inputs.availableBytes)} is free now: other processes may push it into swap or out of memory\n`
      : undefined;
  return { args, plan, warning };
}

/** Large import files also get larger young-generation semi-spaces (see largeImportFlags). */
const LARGE_IMPORT_BYTES = 128 * MIB;

/**
 * V8 flags for an import of a large file. In `env` (NODE_OPTIONS, which the single executable reads
 * too): `--max-semi-space-size=64`. An import allocates young objects for every record it parses
 * and keeps most of their strings: with 64 MiB semi-spaces instead of V8's 16 MiB, a million-event
 * file took 22.7 s of CPU instead of 27.0 s (one A/B run), most of it garbage collection saved. In
 * `args` (node's command line only: NODE_OPTIONS refuses it): `--initial-old-space-size=1024`. The
 * import allocates gigabytes of typed arrays and buffers outside the heap while its heap stays
 * under ~250 MiB, and V8 otherwise collects that small old generation every second or so: at ten
 * million events 243 full collections (12.7 s of the importing thread) became 72 (3.8 s). Empty
 * for anything else, and each flag left out when it is set already.
 */
export function largeImportFlags(
  argv: string[],
  env: Record<string, string | undefined>,
  cwd: string,
): { env: string[]; args: string[] } {
  const none = { env: [], args: [] };
  if (argv[0] !== 'import') return none;
  const given = [...process.execArgv, ...(env.NODE_OPTIONS ?? '').split(/\s+/)];
  const file = argv.slice(1).find((a, i, all) => !a.startsWith('-') && !VALUE_OPTIONS.has(all[i - 1] ?? ''));
  try {
    if (!file || fs.statSync(path.resolve(cwd, file)).size < LARGE_IMPORT_BYTES) return none;
  } catch {
    return none;
  }
  const unless = (flag: string) => (given.some((a) => a.startsWith(flag.slice(0, flag.indexOf('=')))) ? [] : [flag]);
  return { env: unless('--max-semi-space-size=64'), args: unless('--initial-old-space-size=1024') };
}

/**
 * The program's sizing: when the command needs a larger heap than Node gave this process (or a
 * large import wants larger semi-spaces), it runs again as a child with the V8 flags in
 * NODE_OPTIONS (which the single executable reads too), its signals passed on, and this returns
 * its exit code; undefined when this process runs the command itself (it is also refused here,
 * by main, when it cannot fit). `binary`: the single executable (no script path in its argv).
 */
export async function sizedRespawn(argv: string[], binary: boolean): Promise<number | undefined> {
  const env = process.env;
  if (env[SIZED_ENV]) return undefined; // once
  const io: CliIo = { stdout: process.stdout, stderr: process.stderr, env, cwd: process.cwd() };
  let sizing: Sizing | undefined;
  try {
    sizing = sizeCommand(argv, io);
  } catch {
    return undefined; // a bad --memory-limit: main reports it
  }
  const large = largeImportFlags(argv, env, io.cwd);
  const flags = large.env;
  if (sizing?.plan.action === 'respawn') flags.push(`--max-old-space-size=${sizing.plan.heapMb}`);
  if (flags.length === 0 || !process.argv[1]) return undefined;
  const heapMb = sizing?.plan.action === 'respawn' ? sizing.plan.heapMb : Math.round(heapNow(env).limitBytes / MIB);
  // the command-line flags only where there is a command line to give them (not the single executable)
  const childArgs = binary ? argv : [...process.execArgv, ...large.args, process.argv[1], ...argv];
  const child = spawn(process.execPath, childArgs, {
    stdio: 'inherit',
    env: { ...env, NODE_OPTIONS: [env.NODE_OPTIONS, ...flags].filter(Boolean).join(' '), [SIZED_ENV]: String(heapMb) },
    // its own process group: a terminal's Ctrl-C reaches this process only, which passes it on once
    detached: true,
  });
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  const forward = (signal: NodeJS.Signals) => {
    child.kill(signal);
  };
  for (const s of signals) process.on(s, forward);
  return await new Promise<number>((resolve) => {
    child.on('error', (err) => {
      process.stderr.write(`calendar-engine: could not run with a larger heap: ${err.message}\n`);
      resolve(1);
    });
    child.on('exit', (code, signal) => {
      for (const s of signals) process.off(s, forward);
      if (signal) {
        const why = signal === 'SIGKILL' ? ' (perhaps by the system, out of memory)' : '';
        process.stderr.write(`calendar-engine ${argv[0]}: its process was ended by ${signal}${why}\n`);
        resolve(128 + (os.constants.signals[signal] ?? 0));
      } else resolve(code ?? 1);
    });
  });
}
