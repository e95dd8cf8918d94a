// The calendar's side of a storage fault (src/store/faults.ts): writes are refused with the
// fault's error while the disk refuses them, the writes the failed journal batch carried (applied
// to memory in their tick, never acknowledged) are taken back by rebuilding the state from the
// disk, and the disk is probed on a timer and at the next write until it takes writes again.
import path from 'node:path';
import { fail, type CalendarError } from '../api/wordpress/errors.ts';
import { StoreFaultError, faultError, type StoreFault } from '../store/faults.ts';
import type { Store } from '../store/store.ts';
import { Engine } from '../engine/engine.ts';
import { DEFAULT_PROBE_MS } from '../options/defaults.ts';

/** The guard of a calendar's store: after a fault the state is rebuilt as a fresh engine from
 *  what the disk holds (the writes it refused are not there) and handed to `use`. */
export function storeGuard(store: Store, use: (engine: Engine) => void, probeMs?: number): StoreGuard {
  return new StoreGuard(
    store,
    async () => {
      const fresh = new Engine();
      await store.reload({
        loadSnapshot: (chunks) => fresh.loadSnapshotChunks(chunks),
        replay: (write) => fresh.apply(write.ops),
      });
      use(fresh);
      fresh.warmInBackground();
    },
    (line) => console.error(line),
    probeMs,
  );
}

/** how often a store with a fault is probed (ms), unless the calendar is told otherwise */

export interface StoreHealth {
  /** ok; read-only: opened read-only; degraded: writes refused because of `fault` */
  status: 'ok' | 'read-only' | 'degraded';
  seq: number;
  journal_bytes: number;
  last_snapshot: { seq: number; created_at: string; bytes: number } | null;
  fault: { kind: StoreFault['kind']; cause: string; file: string; since: string; message: string } | null;
  /** the last failed compaction (the journal still holds every write), until one succeeds */
  compaction_error: string | null;
  /** faults of the files kept beside the store (the change log), which refuse no write */
  warnings: string[];
}

export class StoreGuard {
  /** memory holds writes the disk refused, until the state is rebuilt from the disk */
  private stale: StoreFault | undefined;
  private rolling: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private probing: Promise<boolean> | undefined;

  /** `rebuild`: replaces the calendar's state with what the store holds (store.reload) */
  constructor(
    private readonly store: Store,
    private readonly rebuild: () => Promise<void>,
    private readonly log: (line: string) => void,
    private readonly probeMs = DEFAULT_PROBE_MS,
  ) {}

  /** The error a write must be refused with right now (before it touches memory), if any. */
  refusal(): CalendarError | undefined {
    if (this.store.readOnly) return fail('calendar_read_only');
    const fault = this.stale ?? this.store.fault;
    if (!fault) return undefined;
    this.watch();
    return faultError(fault);
  }

  /** A commit failed with `err`: the error to answer, or undefined when it is no storage fault. */
  failed(err: unknown): CalendarError | undefined {
    if (!(err instanceof StoreFaultError)) return undefined;
    if (!this.stale) {
      this.stale = err.fault;
      this.rollBack();
    }
    this.watch();
    return faultError(err.fault);
  }

  /** Before a write: when a fault is on, probe now; resolves once writes may go ahead, or rejects
   *  with the fault's error. */
  async ready(): Promise<void> {
    if (!this.store.fault && !this.stale) return;
    await this.probe();
    const refusal = this.refusal();
    if (refusal) throw refusal;
  }

  /** Before a write that is not a commit (an upload's files): ready(), then the refusal if any
   *  (a read-only store included). */
  async admit(): Promise<void> {
    await this.ready();
    const refusal = this.refusal();
    if (refusal) throw refusal;
  }

  /** One probe at a time: rebuild the state if it is stale, then let the store test the disk. */
  probe(): Promise<boolean> {
    this.probing ??= (async () => {
      if (this.stale) {
        await this.rollBack();
        if (this.stale) return false;
      }
      const ok = await this.store.recover();
      if (ok) this.unwatch();
      return ok;
    })().finally(() => (this.probing = undefined));
    return this.probing;
  }

  private rollBack(): Promise<void> {
    this.rolling ??= this.rebuild()
      .then(
        () => {
          this.log(
            `calendar-engine: the writes the disk refused are taken back; the calendar holds what ${this.store.dir} ` +
              'holds',
          );
          this.stale = undefined;
        },
        (err: Error) =>
          this.log(
            `calendar-engine: the state could not be read back from ${this.store.dir} yet ` +
              `(${err.message}); trying again`,
          ),
      )
      .finally(() => (this.rolling = undefined));
    return this.rolling;
  }

  private watch(): void {
    if (this.timer || this.probeMs <= 0) return;
    this.timer = setInterval(() => void this.probe(), this.probeMs);
    this.timer.unref();
  }

  private unwatch(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** What the health route reports. */
  health(seq: number, warnings: string[]): StoreHealth {
    const info = this.store.info();
    const fault = this.stale ?? this.store.fault;
    return {
      status: this.store.readOnly ? 'read-only' : fault ? 'degraded' : 'ok',
      seq,
      journal_bytes: info.journalBytes,
      last_snapshot: info.snapshot
        ? { seq: info.snapshot.seq, created_at: info.snapshot.createdAt, bytes: info.snapshot.bytes }
        : null,
      // (the file's name only: the health route is public)
      fault: fault
        ? {
            kind: fault.kind,
            cause: fault.errno,
            file: path.basename(fault.file),
            since: fault.since,
            message: fault.message.split(fault.file).join(path.basename(fault.file)),
          }
        : null,
      compaction_error: info.compactError ?? null,
      warnings,
    };
  }

  stop(): void {
    this.unwatch();
  }
}
