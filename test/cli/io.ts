// An in-memory CliIo for running commands in-process.
import type { CliIo } from '../../src/cli/common.ts';

export interface MemoryIo extends CliIo {
  out(): string;
  err(): string;
}

export function memoryIo(env: Record<string, string | undefined> = {}, cwd = process.cwd(), tty = false): MemoryIo {
  let out = '';
  let err = '';
  return {
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => (err += t), isTTY: tty, columns: 80 },
    env,
    cwd,
    out: () => out,
    err: () => err,
  };
}
