// The figures sizing.ts decides from, read from this machine and a store directory: the machine's
// memory, a cgroup's memory limit (v2 memory.max, v1 memory.limit_in_bytes), a store's event count
// (the first bytes of its snapshot's first part) and the sizes of its files. Nothing else is read.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseCgroupLimit, type MemoryInputs, type StoreFacts } from './sizing.ts';

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** The smallest memory limit of this process's cgroups (v2 and v1, each level up to the root); undefined when none. */
export function cgroupLimit(root = '/sys/fs/cgroup', self = readText('/proc/self/cgroup') ?? ''): number | undefined {
  let out: number | undefined;
  const take = (n: number | undefined) => {
    if (n !== undefined && (out === undefined || n < out)) out = n;
  };
  for (const line of self.split('\n')) {
    const m = /^\d+:([^:]*):(.*)$/.exec(line.trim());
    if (!m) continue;
    const [, controllers, where] = m;
    const v2 = controllers === '';
    if (!v2 && !controllers.split(',').includes('memory')) continue;
    const base = v2 ? root : path.join(root, 'memory');
    const file = v2 ? 'memory.max' : 'memory.limit_in_bytes';
    // the cgroup's own file and its parents' (inside a container the path may not be mounted: the root's then)
    let dir = path.join(base, where);
    for (;;) {
      take(parseCgroupLimit(readText(path.join(dir, file))));
      if (dir === base || !dir.startsWith(base)) break;
      dir = path.dirname(dir);
    }
  }
  return out;
}

/** MemAvailable of /proc/meminfo (what could be given without swapping), else os.freemem(). */
export function availableMemory(): number {
  const m = /^MemAvailable:\s+(\d+) kB/m.exec(readText('/proc/meminfo') ?? '');
  return m ? Number(m[1]) * 1024 : os.freemem();
}

export function machineMemory(limit?: { bytes: number; from: string }): MemoryInputs {
  return {
    totalBytes: os.totalmem(),
    availableBytes: availableMemory(),
    cgroupBytes: cgroupLimit(),
    limitBytes: limit?.bytes,
    limitFrom: limit?.from,
  };
}

/**
 * What a store directory says of its size: the snapshot's manifest (its parts' sizes), the event
 * count its header opens with (the first 64 KiB of the first part, where `eventCount` comes before
 * the pools and tables), the journal's size. A missing or unreadable file counts as empty: the store's
 * own checks report it when it opens.
 */
export function storeFacts(dir: string): StoreFacts {
  let snapshotBytes = 0;
  let events: number | undefined;
  let journalBytes = 0;
  try {
    journalBytes = fs.statSync(path.join(dir, 'journal.jsonl')).size;
  } catch {}
  const manifest = readText(path.join(dir, 'snapshot.json'));
  if (manifest !== undefined) {
    try {
      const m = JSON.parse(manifest) as { parts?: { file?: unknown; bytes?: unknown }[] };
      const parts = Array.isArray(m.parts) ? m.parts : [];
      for (const p of parts) if (typeof p.bytes === 'number') snapshotBytes += p.bytes;
      const first = parts[0]?.file;
      if (typeof first === 'string' && !first.includes('/')) events = headerEventCount(path.join(dir, first));
    } catch {}
  }
  return { events, snapshotBytes, journalBytes };
}

function headerEventCount(file: string): number | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const buf = Buffer.alloc(64 * 1024);
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    const text = buf.toString('latin1', 0, n);
    const line = text.slice(0, (text.indexOf('\n') + 1 || text.length + 1) - 1);
    const m = /"eventCount":(\d+)/.exec(line);
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
