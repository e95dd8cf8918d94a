// `calendar-engine check` and `repair`: a store verified without starting a server (every
// snapshot part against its length, chunk count and sha256, every journal line against its
// checksum and seq, every write applied to an engine), and the repairs that never delete
// anything: a manifest rebuilt from the snapshot parts, a journal cut at a damaged line after
// the whole file was copied aside.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { Engine } from '../engine/engine.ts';
import { UserRegistry } from '../users/registry.ts';
import { openStore } from '../store/store.ts';
import { UNPLACED_DIR } from '../store/store-load.ts';
import { JOURNAL_FILE } from '../store/journal.ts';
import { CorruptJournalError, scanJournal } from '../store/journal-read.ts';
import { SNAPSHOT_FILE, commitParts, isPartFileName, readManifest, type SnapshotPart } from '../store/snapshot.ts';
import { acquireLock, readLockPid, isPidAlive, LOCK_FILE } from '../store/lock.ts';
import { isTempPath } from '../store/atomic-file.ts';

export interface CheckReport {
  /** true when the store opens with every write it holds */
  sound: boolean;
  /** what is wrong (each names its file) */
  problems: string[];
  /** what is worth knowing but harmless (a torn last line, leftovers a start removes) */
  notes: string[];
  /** what the store holds, a line each */
  summary: string[];
}

/** Verifies the store in `dir` as a start would load it, writing nothing. */
export async function checkStore(dir: string): Promise<CheckReport> {
  const report: CheckReport = { sound: false, problems: [], notes: [], summary: [] };
  if (!fs.existsSync(dir)) {
    report.problems.push(`no store at ${dir}`);
    return report;
  }
  const pid = readLockPid(path.join(dir, LOCK_FILE));
  if (pid !== undefined && Number.isInteger(pid) && isPidAlive(pid)) {
    report.notes.push(`a process (pid ${pid}) has the store open: it is read as it is now`);
  }
  const engine = new Engine();
  try {
    const store = await openStore(
      dir,
      {
        loadSnapshot: (chunks) => engine.loadSnapshotChunks(chunks),
        replay: (write) => engine.apply(write.ops),
        snapshotChunks: () => [],
        warn: (message) => report.notes.push(message),
      },
      { readOnly: true },
    );
    const info = store.info();
    report.summary.push(
      info.snapshot
        ? `snapshot: seq ${info.snapshot.seq}, ${info.snapshot.bytes} bytes, written ${info.snapshot.createdAt}`
        : 'snapshot: none',
    );
    report.summary.push(`journal: ${info.journalBytes} bytes, the store's last write is seq ${store.seq}`);
    await store.close();
  } catch (err) {
    report.problems.push((err as Error).message);
  }
  if (report.problems.length === 0) {
    const count = (it: Iterable<unknown>) => [...it].length;
    report.summary.push(
      `records: ${engine.eventRowCount} events, ${count(engine.venues())} venues, ` +
        `${count(engine.organizers())} organizers, ` +
        `${count(engine.terms('tribe_events_cat'))} categories, ${count(engine.terms('post_tag'))} tags`,
    );
  }
  try {
    const users = UserRegistry.open(dir);
    users.close();
  } catch (err) {
    report.problems.push(`users: ${(err as Error).message}`);
  }
  const unplaced = path.join(dir, UNPLACED_DIR);
  if (fs.existsSync(unplaced)) {
    report.notes.push(
      `${unplaced} holds snapshot parts a start could not place (${fs.readdirSync(unplaced).join(', ')}): ` +
        `if a newer snapshot.json was lost, move them back and run 'calendar-engine repair'`,
    );
  }
  const leftovers = fs.readdirSync(dir).filter((name) => isTempPath(name));
  if (leftovers.length > 0) report.notes.push(`temporary files a start removes: ${leftovers.join(', ')}`);
  report.sound = report.problems.length === 0;
  return report;
}

/** The moment, for the names of files moved aside: 20261129T021500Z. */
function stamp(): string {
  return new Date().toISOString().replace(/[-:]|\.\d+/g, '');
}

/**
 * Repairs what `check` finds and can be repaired without losing anything kept: a missing or
 * damaged snapshot.json is rebuilt from the newest whole set of parts (a damaged one moved aside
 * first); a journal damaged at a line before its last is copied whole aside, then cut before
 * that line (the writes from there on are then only in the copy). Returns what it did. Takes the
 * store's lock: refuses while a server runs on it.
 */
export async function repairStore(dir: string, warn: (message: string) => void = () => {}): Promise<string[]> {
  if (!fs.existsSync(dir)) throw new Error(`no store at ${dir}`);
  const lock = acquireLock(dir, warn);
  const done: string[] = [];
  try {
    let manifestProblem: string | undefined;
    let hasManifest = false;
    try {
      hasManifest = (await readManifest(dir)) !== undefined;
    } catch (err) {
      manifestProblem = (err as Error).message;
    }
    const parts = fs.readdirSync(dir).filter(isPartFileName);
    if (manifestProblem !== undefined || (!hasManifest && parts.length > 0)) {
      done.push(...(await rebuildManifest(dir, parts, manifestProblem !== undefined)));
    }
    const journal = path.join(dir, JOURNAL_FILE);
    try {
      await scanJournal(
        journal,
        () => {},
        () => {},
        { readOnly: true },
      );
    } catch (err) {
      if (!(err instanceof CorruptJournalError)) throw err;
      const aside = `${journal}.damaged-${stamp()}`;
      await fsp.copyFile(journal, aside, fs.constants.COPYFILE_EXCL);
      await syncFile(aside);
      const size = fs.statSync(journal).size;
      const fh = await fsp.open(journal, 'r+');
      try {
        await fh.truncate(err.at);
        await fh.datasync();
      } finally {
        await fh.close();
      }
      const why = err.message.replace(/^.*?: /, '');
      done.push(
        `journal ${journal} was damaged at line ${err.line} (${why}): copied whole to ${aside}, ` +
          `then cut before that line (${size - err.at} bytes; the writes from there on are only in the copy)`,
      );
    }
  } finally {
    lock.release();
  }
  return done;
}

async function syncFile(file: string): Promise<void> {
  const fh = await fsp.open(file, 'r+');
  try {
    await fh.datasync();
  } finally {
    await fh.close();
  }
}

/** snapshot.json again from the newest set of parts numbered 0..n without a gap. */
async function rebuildManifest(dir: string, parts: string[], damaged: boolean): Promise<string[]> {
  const sets = new Map<string, { seq: number; files: string[] }>();
  for (const name of parts) {
    const [, seq, tag] = name.split('.');
    const key = `${seq}.${tag}`;
    const set = sets.get(key) ?? { seq: Number(seq), files: [] };
    set.files.push(name);
    sets.set(key, set);
  }
  const whole = [...sets.values()]
    .map((s) => ({ seq: s.seq, files: s.files.sort((a, b) => Number(a.split('.')[3]) - Number(b.split('.')[3])) }))
    .filter((s) => s.files.every((f, i) => Number(f.split('.')[3]) === i))
    .sort((a, b) => b.seq - a.seq);
  if (whole.length === 0) {
    throw new Error(
      `${path.join(dir, SNAPSHOT_FILE)} cannot be rebuilt: no set of snapshot parts numbered from 0 without a gap`,
    );
  }
  const chosen = whole[0]!;
  const done: string[] = [];
  const manifestFile = path.join(dir, SNAPSHOT_FILE);
  if (damaged) {
    const aside = `${manifestFile}.damaged-${stamp()}`;
    await fsp.rename(manifestFile, aside);
    done.push(`moved the damaged ${manifestFile} to ${aside}`);
  }
  const listed: SnapshotPart[] = [];
  for (const file of chosen.files) {
    const data = await fsp.readFile(path.join(dir, file));
    let chunks = 0;
    for (let i = data.indexOf(10); i >= 0; i = data.indexOf(10, i + 1)) chunks++;
    listed.push({ file, bytes: data.length, chunks, sha256: createHash('sha256').update(data).digest('hex') });
  }
  await commitParts(dir, chosen.seq, listed);
  done.push(`rebuilt ${manifestFile} from ${chosen.files.join(', ')} (seq ${chosen.seq})`);
  return done;
}
