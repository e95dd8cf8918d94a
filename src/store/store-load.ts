// Opening a store: its durable state read back (the newest snapshot, then the journal after it)
// for start-up and for a reload after a fault, the snapshot parts start-up cannot place, the
// leftovers of interrupted snapshots, and what a start-up error says to do. store.ts opens the
// store with these and runs it.
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Write } from '../engine/records.ts';
import { fsyncDir, isTempPath } from './atomic-file.ts';
import { JOURNAL_FILE } from './journal.ts';
import { scanJournal } from './journal-read.ts';
import { LOCK_FILE, isPidAlive } from './lock.ts';
import { SNAPSHOT_FILE, partSeq, removeUnlistedParts, unlistedParts, type SnapshotManifest } from './snapshot.ts';
import { SnapshotReader } from './snapshot-read.ts';
import { StoreFaultError } from './faults.ts';

/** where start-up moves snapshot parts it cannot place (never deleting them) */
export const UNPLACED_DIR = 'unplaced';

/** What reading a store's durable state back feeds (part of StoreHooks). */
export interface LoadHooks {
  /** called once at open with the chunks of the newest snapshot (if any), before any replay. A large
   *  part's sha256 is checked (by a worker, in parallel) once its last chunk was handed out: a
   *  damaged part then throws from the iteration and open fails, as for a part that fails earlier */
  loadSnapshot(chunks: Iterable<unknown>): void;
  /** called for each journal write after the snapshot, in seq order (writes with seq <= snapshot seq are skipped) */
  replay(write: Write): void;
}

/** A start-up error: a storage fault says what to do about it. */
export function startError(err: unknown): unknown {
  if (err instanceof StoreFaultError) {
    const hint =
      err.fault.kind === 'read-only'
        ? 'make the folder writable'
        : err.fault.kind === 'io'
          ? 'check the disk'
          : 'free some space';
    return new StoreFaultError(
      err.fault,
      err.cause ?? err,
      `store: cannot start: ${err.fault.message}; ${hint}, or serve it read-only (--read-only)`,
    );
  }
  return err;
}

/** Feeds the snapshot and the journal after it to `hooks`; `limit`: only the journal's first bytes. */
export async function loadState(
  dir: string,
  manifest: SnapshotManifest | undefined,
  hooks: LoadHooks,
  warn: (m: string) => void,
  opts: { readOnly?: boolean; limit?: number; hashWorkerMinBytes?: number },
): Promise<{ scan: Awaited<ReturnType<typeof scanJournal>>; snapshotSeq: number; cut: number }> {
  const snapshotSeq = manifest?.seq ?? 0;
  if (manifest) {
    const reader = new SnapshotReader(dir, manifest, { hashWorkerMinBytes: opts.hashWorkerMinBytes });
    try {
      hooks.loadSnapshot(reader.chunks());
      reader.verifyStarted(); // in case loadSnapshot stopped before the end of a part
    } catch (err) {
      reader.verifyStarted(); // a damaged part that was still being checked is the better error
      throw err;
    } finally {
      reader.close();
    }
  } else {
    // parts of seq 0 hold an import (no journal line covers them); any part then means that
    // snapshot.json is gone, unless a journal from seq 1 goes past it (a first snapshot interrupted)
    const parts = await unlistedParts(dir, undefined);
    const firstLine = parts.length > 0 ? await firstJournalSeq(path.join(dir, JOURNAL_FILE)) : 0;
    if (parts.some((name) => partSeq(name) === 0 || firstLine !== 1)) {
      throw new Error(
        `store: ${path.join(dir, SNAPSHOT_FILE)} is missing but snapshot parts are there (${parts.join(', ')}): ` +
          `they hold the calendar, so the store does not start empty; 'calendar-engine repair --data ${dir}' rebuilds the manifest ` +
          `from them (if an import was interrupted before it finished, its parts are incomplete: move them away instead)`,
      );
    }
  }
  const journalPath = path.join(dir, JOURNAL_FILE);
  let cut = -1; // byte offset of the first line after the snapshot
  const scan = await scanJournal(
    journalPath,
    (write, line, startByte) => {
      if (write.seq <= snapshotSeq) return; // the snapshot holds it
      if (cut < 0) {
        if (write.seq !== snapshotSeq + 1) {
          const after = manifest
            ? `${path.join(dir, SNAPSHOT_FILE)} ends at seq ${snapshotSeq}`
            : `there is no ${SNAPSHOT_FILE}`;
          throw new Error(
            `store: journal ${journalPath} line ${line} has seq ${write.seq} but ${after}: writes ${snapshotSeq + 1}..${write.seq - 1} are missing` +
              ` (was ${SNAPSHOT_FILE} or a snapshot part deleted? 'calendar-engine check --data ${dir}' lists what is there)`,
          );
        }
        cut = startByte;
      }
      hooks.replay(write);
    },
    warn,
    opts,
  );
  return { scan, snapshotSeq, cut };
}

/** The seq of the journal's first line (0: no journal, or no whole first line). */
async function firstJournalSeq(file: string): Promise<number> {
  let head: Buffer;
  try {
    const fh = await fsp.open(file, 'r');
    try {
      const { buffer, bytesRead } = await fh.read(Buffer.alloc(64), 0, 64, 0);
      head = buffer.subarray(0, bytesRead);
    } finally {
      await fh.close();
    }
  } catch {
    return 0;
  }
  return Number(/^\{"seq":(\d+),/.exec(head.toString('latin1'))?.[1] ?? 0);
}

/**
 * Unlisted snapshot parts of a seq past everything the store holds. With journal lines before
 * them, the journal was never cut after their snapshot (a committed snapshot cuts it): they are
 * leftovers of a snapshot that was never committed, whose writes were never acknowledged, and go
 * with the other leftovers. Without any journal line they might also be a newer snapshot whose
 * snapshot.json was lost: they are moved to DIR/unplaced/ (never deleted) with a warning naming
 * the repair, and the store starts from what it can place.
 */
export async function placeUnlistedParts(
  dir: string,
  manifest: SnapshotManifest | undefined,
  journalSeq: number,
  journalLines: boolean,
  readOnly: boolean,
  warn: (m: string) => void,
): Promise<void> {
  const held = Math.max(manifest?.seq ?? 0, journalSeq);
  const beyond = (await unlistedParts(dir, manifest)).filter((name) => partSeq(name) > held);
  if (beyond.length === 0 || journalLines) return;
  const what =
    `snapshot parts ${beyond.join(', ')} in ${dir} hold writes past seq ${held}, which neither ${SNAPSHOT_FILE} nor ${JOURNAL_FILE} holds: ` +
    `an interrupted snapshot of writes never acknowledged, or a newer ${SNAPSHOT_FILE} that was lost`;
  if (readOnly) return warn(`store: ${what}; left where they are`);
  const aside = path.join(dir, UNPLACED_DIR);
  await fsp.mkdir(aside, { recursive: true });
  for (const name of beyond) await fsp.rename(path.join(dir, name), path.join(aside, name));
  await fsyncDir(dir);
  warn(
    `store: ${what}; moved to ${aside}. If ${SNAPSHOT_FILE} was lost, stop the server, move them back and run ` +
      `'calendar-engine repair --data ${dir}'`,
  );
}

/** Orphans of interrupted snapshots/rewrites: unlisted parts whose writes the store holds, and our temp files. */
export async function removeLeftovers(
  dir: string,
  manifest: SnapshotManifest | undefined,
  heldSeq: number,
  warn: (message: string) => void,
): Promise<void> {
  try {
    const removed = await removeUnlistedParts(dir, manifest, heldSeq);
    for (const name of await fsp.readdir(dir)) {
      if (!isTempPath(name)) continue;
      const ownerPid = Number(/\.tmp-(\d+)-/.exec(name)?.[1]);
      const ours = name.startsWith(`${JOURNAL_FILE}.`) || name.startsWith(`${SNAPSHOT_FILE}.`);
      // a lock temp belongs to whoever is acquiring right now, unless that process is gone
      const deadLockTemp = name.startsWith(`${LOCK_FILE}.`) && ownerPid !== process.pid && !isPidAlive(ownerPid);
      if (ours || deadLockTemp) {
        await fsp.unlink(path.join(dir, name));
        removed.push(name);
      }
    }
    if (removed.length > 0)
      warn(`store: removed leftovers of an interrupted snapshot in ${dir}: ${removed.join(', ')}`);
  } catch (err) {
    // leftovers only take room: a start on a failing disk goes on without removing them
    warn(`store: leftovers in ${dir} not removed: ${(err as Error).message}`);
  }
}
