// The write log of a calendar without a store: it numbers the writes and keeps nothing (the
// engine is the only copy). Every write is durable as soon as it is applied.
import type { Op } from '../engine/records.ts';
import type { RestCall } from '../api/wordpress/types.ts';
import type { BulkLoadOptions, Forwarded, LogHealth, WriteLog, WriteMeta } from './log.ts';

export class MemoryLog implements WriteLog {
  readonly makesWrites = true;
  readonly nodeInfo = undefined;

  /** `seq`: the seq of the newest write already in the engine */
  constructor(private last = 0) {}

  get seq(): number {
    return this.last;
  }

  refusal(): undefined {
    return undefined;
  }

  run<T>(_call: RestCall, here: () => Promise<T>, _there: (done: Forwarded) => Promise<T>): Promise<T> {
    return here();
  }

  whenOpen(): undefined {
    return undefined;
  }

  nextSeq(): number {
    return ++this.last;
  }

  append(_seq: number, _ops: Op[], _meta: WriteMeta): undefined {
    return undefined;
  }

  async bulkLoad(load: () => void, _opts?: BulkLoadOptions): Promise<undefined> {
    load();
    return undefined;
  }

  async snapshot(): Promise<void> {}

  async shutdownSnapshot(): Promise<void> {}

  health(seq: number): LogHealth {
    return { status: 'ok', seq };
  }

  async close(): Promise<void> {}
}
