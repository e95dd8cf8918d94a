// Storage faults as states: an error of the file system (disk full, over quota, I/O error,
// read-only) while writing a store file becomes a StoreFault that names the cause and the file.
// The store refuses writes while it holds one and probes until the disk takes writes again
// (store.ts); the calendar answers refused writes with the fault's error (faultError).
import path from 'node:path';
import { type CalendarError, fail } from '../api/wordpress/errors.ts';

/** full: no space left; quota: over the disk quota; io: the disk failed; read-only: writing is not allowed */
export type FaultKind = 'full' | 'quota' | 'io' | 'read-only';

export interface StoreFault {
  kind: FaultKind;
  /** the system's error code (ENOSPC, EDQUOT, EIO, EROFS, EACCES, EPERM...) */
  errno: string;
  /** the file being written when it happened */
  file: string;
  /** what happened, for logs: `no space left on device (ENOSPC) writing /data/journal.jsonl` */
  message: string;
  /** when it was first seen (ISO time) */
  since: string;
}

const KINDS: Record<string, FaultKind> = {
  ENOSPC: 'full',
  EDQUOT: 'quota',
  EIO: 'io',
  EROFS: 'read-only',
  EACCES: 'read-only',
  EPERM: 'read-only',
};

const WHAT: Record<FaultKind, string> = {
  full: 'no space left on device',
  quota: 'disk quota exceeded',
  io: 'input/output error',
  'read-only': 'the file system does not allow writing',
};

/** The errno of an error or of its causes (a store error wraps the system's one). */
export function errnoOf(err: unknown): string | undefined {
  let e = err as { code?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string' && /^E[A-Z0-9]+$/.test(e.code)) return e.code;
  }
  return undefined;
}

/** True for the errors of a disk that is full, failing or read-only (not for a missing file or a bad path). */
export function isStorageError(err: unknown): boolean {
  const code = errnoOf(err);
  return code !== undefined && code in KINDS;
}

/** The fault an error of writing `file` is; undefined when it is not a storage error. */
export function faultOf(err: unknown, file: string): StoreFault | undefined {
  const errno = errnoOf(err);
  if (errno === undefined || !(errno in KINDS)) return undefined;
  const kind = KINDS[errno];
  return { kind, errno, file, message: `${WHAT[kind]} (${errno}) writing ${file}`, since: new Date().toISOString() };
}

/** faultOf for an error known to come from writing (an unknown errno counts as an I/O error). */
export function writeFault(err: unknown, file: string): StoreFault {
  const fault = faultOf(err, file);
  if (fault) return fault;
  const errno = errnoOf(err) ?? 'EIO';
  const detail = (err as Error)?.message ?? String(err);
  return { kind: 'io', errno, file, message: `${detail} writing ${file}`, since: new Date().toISOString() };
}

/** An Error whose message names the file and the cause (the system's own messages say `write`). */
export class StoreFaultError extends Error {
  readonly code: string;
  constructor(
    readonly fault: StoreFault,
    cause?: unknown,
    message = `store: ${fault.message}`,
  ) {
    super(message, { cause });
    this.name = 'StoreFaultError';
    this.code = fault.errno;
  }
}

/** Rethrows a storage error of writing `file` as a StoreFaultError naming it; other errors as they are. */
export function nameFile(err: unknown, file: string): unknown {
  if (err instanceof StoreFaultError) return err;
  const fault = faultOf(err, file);
  return fault ? new StoreFaultError(fault, err) : err;
}

/** The REST error a write refused because of `fault` answers: 507 for a full disk or quota, 503 otherwise. */
export function faultError(fault: StoreFault): CalendarError {
  const data = { cause: fault.errno, file: path.basename(fault.file) };
  switch (fault.kind) {
    case 'full':
      return fail('storage_full', [path.basename(fault.file)], data);
    case 'quota':
      return fail('storage_quota_exceeded', [path.basename(fault.file)], data);
    case 'io':
      return fail('storage_io_error', [path.basename(fault.file), fault.errno], data);
    case 'read-only':
      return fail('storage_read_only', [path.basename(fault.file), fault.errno], data);
  }
}
