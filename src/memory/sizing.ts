// How much memory a command needs and may take: pure functions from figures (the machine's memory,
// a container's limit, --memory-limit, a store's event count and file sizes, an import file's size)
// to a plan: run as is, run again with a larger V8 heap, or refuse before loading anything
// (docs/operating.md#memory). What reads the figures is machine.ts; what acts on the plan, cli/main.ts.

export const MIB = 2 ** 20;
export const GIB = 2 ** 30;

/**
 * Memory a loaded store takes per event past BASE_BYTES, all of it (V8's heap, the columns' and
 * texts' array buffers, what the process holds besides), at the peak of its load and after.
 * Measured on snapshots with their link pool, posting lines and word index: at 1,000,000 events the
 * open peaked at 587-600 MiB of RSS (344 MiB past BASE_BYTES: 361 bytes an event) and held
 * 489-510 MiB after it; `serve` held 647 bytes an event in all after a search and 200 list calls
 * (379 past BASE_BYTES), and 421 in all at 10,000,000 events. About 1.6 times the highest of
 * those, for what differs between calendars (longer texts, more distinct lists) and the writes
 * that follow.
 */
export const STORE_BYTES_PER_EVENT = 600;
/**
 * Of it, what V8's heap must hold (the rest are typed arrays and the texts' buffer, outside the
 * heap's limit): 49 MiB used after a full collection at 1,000,000 events (link lists, texts and
 * indexes are typed arrays); the load and a search ran within a heap limit of 160 MiB, where
 * this asks for 256 + 143 MiB. About three times what is used: a load parses the snapshot's
 * chunks in the heap.
 */
export const HEAP_BYTES_PER_EVENT = 150;
/** What every command takes before its data: Node, the code, the caches' budgets at their defaults. */
export const BASE_BYTES = 256 * MIB;
/**
 * An import holds the file's records while it checks them: its peak RSS at 1,000,000 events
 * (a 668 MB file into an empty store) was 1,440 MB, 1.8 bytes per byte of file past BASE_BYTES;
 * rounded up.
 */
export const IMPORT_BYTES_PER_FILE_BYTE = 2;
/** Of the import's peak, what V8's heap must hold. */
export const IMPORT_HEAP_PER_FILE_BYTE = 1.6;
/** The snapshot's bytes per event when its header does not say how many events it holds. */
export const SNAPSHOT_BYTES_PER_EVENT = 340;
/** V8's heap limit is set to this share of the memory allowed (the rest: array buffers, Node). */
export const HEAP_SHARE = 0.8;
/** Run again with a larger heap once the heap a command needs passes this share of the current limit. */
export const RESPAWN_AT = 0.6;

/** The figures of the machine and the environment, as machine.ts reads them. */
export interface MemoryInputs {
  /** os.totalmem() */
  totalBytes: number;
  /** what the system could give now (MemAvailable), for a warning only */
  availableBytes?: number;
  /** a cgroup's memory limit (v2 memory.max, v1 memory.limit_in_bytes), when one is set */
  cgroupBytes?: number;
  /** --memory-limit or CALENDAR_MEMORY_LIMIT, parsed */
  limitBytes?: number;
  /** where limitBytes came from, for messages */
  limitFrom?: string;
}

export interface Allowed {
  bytes: number;
  /** what sets it, for messages: "--memory-limit", "the container's memory limit", "the machine's memory" */
  from: string;
}

/** The memory a command may take: the smallest of the given limit, the cgroup's and the machine's. */
export function allowedMemory(m: MemoryInputs): Allowed {
  let out: Allowed = { bytes: m.totalBytes, from: "the machine's memory" };
  if (m.cgroupBytes !== undefined && m.cgroupBytes < out.bytes)
    out = { bytes: m.cgroupBytes, from: "the container's memory limit (cgroup)" };
  if (m.limitBytes !== undefined && m.limitBytes < out.bytes)
    out = { bytes: m.limitBytes, from: m.limitFrom ?? '--memory-limit' };
  return out;
}

/** What a store on disk says of its size, as machine.ts reads it (nothing read but small headers). */
export interface StoreFacts {
  /** the snapshot header's event count; undefined without a snapshot or when it does not say */
  events?: number;
  /** the snapshot's parts, together */
  snapshotBytes: number;
  /** the journal replayed after the snapshot */
  journalBytes: number;
}

/** What a command needs: in all, and in V8's heap. */
export interface Need {
  totalBytes: number;
  heapBytes: number;
  /** the events counted (known or estimated from the snapshot's size) */
  events: number;
  /** a few words of where the figure comes from, for messages */
  what: string;
}

/** Events of a store: the snapshot header's count, else its size over SNAPSHOT_BYTES_PER_EVENT. */
export function storeEvents(s: StoreFacts): number {
  return s.events ?? Math.ceil(s.snapshotBytes / SNAPSHOT_BYTES_PER_EVENT);
}

/**
 * A store loaded (serve, snapshot, export, check): its events at STORE_BYTES_PER_EVENT, and the
 * journal, which replays into memory, at its own size twice (its ops parsed, then applied).
 */
export function storeNeed(s: StoreFacts): Need {
  const events = storeEvents(s);
  return {
    totalBytes: BASE_BYTES + events * STORE_BYTES_PER_EVENT + 2 * s.journalBytes,
    heapBytes: BASE_BYTES + events * HEAP_BYTES_PER_EVENT + 2 * s.journalBytes,
    events,
    what: `${formatCount(events)} events (snapshot ${formatBytes(s.snapshotBytes)}, journal ${formatBytes(s.journalBytes)})`,
  };
}

/** `import FILE` into a store: the store, and the file's records while they are checked. */
export function importNeed(s: StoreFacts, fileBytes: number): Need {
  const store = storeNeed(s);
  return {
    totalBytes: store.totalBytes + Math.ceil(fileBytes * IMPORT_BYTES_PER_FILE_BYTE),
    heapBytes: store.heapBytes + Math.ceil(fileBytes * IMPORT_HEAP_PER_FILE_BYTE),
    events: store.events,
    what: `a ${formatBytes(fileBytes)} file into a store of ${store.what}`,
  };
}

/** What to do, decided before anything is loaded. */
export type Plan =
  | { action: 'run' }
  /** run again with V8's heap limit at heapMb MiB */
  | { action: 'respawn'; heapMb: number }
  | { action: 'refuse'; message: string };

export interface PlanInputs {
  need: Need;
  allowed: Allowed;
  /** V8's heap limit now (v8.getHeapStatistics().heap_size_limit) */
  heapLimitBytes: number;
  /** the heap limit was chosen: by the user (--max-old-space-size) or by an earlier sizing */
  heapLimitSet: boolean;
  /** where a chosen limit came from, for messages */
  heapLimitFrom?: string;
  /** the command, for messages ("serve", "import") */
  command: string;
}

/** The heap limit to run with when `allowed` bytes are allowed, in MiB. */
export function heapLimitMb(allowed: number): number {
  return Math.floor((allowed * HEAP_SHARE) / MIB);
}

/**
 * Run, run again with a larger heap, or refuse: refused when the command needs more than it is
 * allowed, or more heap than a limit the user chose; run again when the heap it needs passes
 * RESPAWN_AT of V8's default limit and the memory allowed gives a larger one.
 */
export function planMemory(p: PlanInputs): Plan {
  const { need, allowed } = p;
  if (need.totalBytes > allowed.bytes) {
    return {
      action: 'refuse',
      message:
        `not enough memory: ${p.command} of ${need.what} needs about ${formatBytes(need.totalBytes)}, ` +
        `and ${formatBytes(allowed.bytes)} is allowed (${allowed.from}). ` +
        `Run it where ${formatBytes(need.totalBytes)} or more is available ` +
        `(or raise the limit: --memory-limit / CALENDAR_MEMORY_LIMIT, a container's memory limit); ` +
        `nothing was loaded or changed`,
    };
  }
  if (p.heapLimitSet) {
    if (need.heapBytes > p.heapLimitBytes) {
      return {
        action: 'refuse',
        message:
          `not enough heap: ${p.command} of ${need.what} needs about ${formatBytes(need.heapBytes)} of V8 heap, ` +
          `and its limit is ${formatBytes(p.heapLimitBytes)} (${p.heapLimitFrom ?? '--max-old-space-size'}). ` +
          `Raise it to --max-old-space-size=${Math.ceil((need.heapBytes * 1.25) / MIB)} or more, or leave it out ` +
          `and calendar-engine sizes the heap from the memory allowed; nothing was loaded or changed`,
      };
    }
    return { action: 'run' };
  }
  if (need.heapBytes <= p.heapLimitBytes * RESPAWN_AT) return { action: 'run' };
  const heapMb = heapLimitMb(allowed.bytes);
  if (heapMb * MIB <= p.heapLimitBytes) {
    // the default is already as large as the memory allowed gives: it must do
    if (need.heapBytes <= p.heapLimitBytes) return { action: 'run' };
    return {
      action: 'refuse',
      message:
        `not enough memory: ${p.command} of ${need.what} needs about ${formatBytes(need.heapBytes)} of V8 heap, ` +
        `and ${formatBytes(allowed.bytes)} is allowed (${allowed.from}), which gives a heap of at most ` +
        `${formatBytes(p.heapLimitBytes)}. Run it where more memory is available; nothing was loaded or changed`,
    };
  }
  // at least what the command needs, with room (the memory allowed holds it: checked above)
  return {
    action: 'respawn',
    heapMb: Math.max(heapMb, Math.min(Math.ceil((need.heapBytes * 1.25) / MIB), Math.floor(allowed.bytes / MIB))),
  };
}

/** `--memory-limit` / CALENDAR_MEMORY_LIMIT: a size, `8G`, `512M`, `1.5GiB` (binary units), or bytes. */
export function parseSize(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*$/i.exec(text);
  if (!m) throw new Error(`expected a size such as 512M, 8G or 1.5G (K, M, G, T: binary units), got '${text}'`);
  const unit = { '': 1, k: 2 ** 10, m: 2 ** 20, g: 2 ** 30, t: 2 ** 40 }[
    m[2].toLowerCase() as '' | 'k' | 'm' | 'g' | 't'
  ];
  const bytes = Math.round(Number(m[1]) * unit);
  if (bytes < 16 * MIB) throw new Error(`expected at least 16M, got '${text}'`);
  return bytes;
}

/** A cgroup file's limit ("max", or bytes; v1's "unlimited" is a number near 2^63): undefined when none. */
export function parseCgroupLimit(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const t = text.trim();
  if (!/^\d+$/.test(t)) return undefined;
  const n = Number(t);
  return n > 0 && n < 2 ** 60 ? n : undefined;
}

/** The heap limit a V8 flag sets, from argv-like flags (`--max-old-space-size=N` or `... N`), MiB. */
export function heapFlag(flags: readonly string[]): number | undefined {
  let out: number | undefined;
  for (let i = 0; i < flags.length; i++) {
    const m = /^--max[-_]old[-_]space[-_]size(?:=(\d+))?$/.exec(flags[i]);
    if (!m) continue;
    const v = m[1] ?? flags[i + 1];
    if (v !== undefined && /^\d+$/.test(v)) out = Number(v);
  }
  return out;
}

export function formatBytes(n: number): string {
  if (n >= GIB) return `${(n / GIB).toFixed(1)} GiB`;
  if (n >= MIB) return `${Math.round(n / MIB)} MiB`;
  return `${Math.round(n / 1024)} KiB`;
}

function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}
