// The change feed: every acknowledged write, in the journal's order, as change records
// {seq, time, type, action, id, author, fields}. `seq` is the write's journal sequence number
// (kept across restarts and compactions by the store), shared by the changes of one write (an
// event created with a new venue is one write, two changes), which are always delivered together.
// Changes are retained in memory: those since the last snapshot are rebuilt from the journal at
// start-up, and at most `retainCount` changes younger than `retainMs` are kept, and at most
// about `retainBytes` of them, however they are kept. A change record: change.ts; the changes a
// write makes: describe.ts.

import { DEFAULT_RETAIN_BYTES, DEFAULT_RETAIN_COUNT, DEFAULT_RETAIN_MS } from '../options/defaults.ts';
import type { HeldChange } from './change.ts';

// what Calendar reads of the feed's records (change.ts) and writes (describe.ts), from here
export { type Change, type ChangeType, changeOf, type HeldChange } from './change.ts';
export { describeWrite } from './describe.ts';

export interface FeedOptions {
  /** keep at most this many changes (default 100,000) */
  retainCount?: number;
  /** keep at most about this many bytes of changes, pinned ones included (default 128 MiB): what
   *  a change costs is counted as its text's length and HELD_OVERHEAD */
  retainBytes?: number;
  /** keep changes at most this old, ms (default 7 days) */
  retainMs?: number;
  now?: () => number;
}

type Listener = (changes: HeldChange[]) => void;

/** what a retained change costs beside its text (its object, its time's string, its slot) */
export const HELD_OVERHEAD = 160;
const heldBytes = (h: HeldChange): number => h.text.length + HELD_OVERHEAD;

/** The retained changes, in seq order, and the listeners that follow new ones. */
export class ChangeFeed {
  private held: HeldChange[] = [];
  private start = 0;
  /** the highest seq ever added (or the store's seq at start) */
  head: number;
  /** every change with seq > floor is retained; asking for an older `since` cannot be answered */
  floor: number;
  private readonly listeners = new Set<Listener>();
  /** webhooks' positions (src/changes/webhooks.ts): the changes after `pinned` outlive the window,
   *  up to `pinBound` retained changes in all */
  private pinned: number | undefined;
  private pinBound = Number.POSITIVE_INFINITY;
  readonly retainCount: number;
  readonly retainMs: number;
  readonly retainBytes: number;
  /** what the retained changes cost (heldBytes) */
  private bytes = 0;
  private readonly now: () => number;

  constructor(head: number, opts: FeedOptions = {}) {
    this.head = head;
    this.floor = head;
    this.retainCount = opts.retainCount ?? DEFAULT_RETAIN_COUNT;
    this.retainMs = opts.retainMs ?? DEFAULT_RETAIN_MS;
    this.retainBytes = opts.retainBytes ?? DEFAULT_RETAIN_BYTES;
    this.now = opts.now ?? Date.now;
  }

  /** Start the retained window earlier (changes replayed from the journal at start-up). */
  backfill(floor: number): void {
    this.floor = Math.min(this.floor, floor);
  }

  /**
   * The state jumped to `seq` without the changes of the writes between the head and it (a
   * cluster node far behind rebuilt from a newer snapshot): nothing before `seq` can be served
   * whole any more, so the window starts there (a reader further back gets 410, a webhook behind
   * it skips, and says so). No-op unless `seq` is past the head.
   */
  skipTo(seq: number): void {
    if (seq <= this.head) return;
    this.head = seq;
    this.floor = seq;
    this.held = [];
    this.start = 0;
    this.bytes = 0;
  }

  add(changes: HeldChange[], seq: number): void {
    for (const c of changes) {
      this.held.push(c);
      this.bytes += heldBytes(c);
    }
    this.head = Math.max(this.head, seq);
    this.trim();
    if (changes.length === 0) return;
    for (const fn of this.listeners) {
      try {
        fn(changes);
      } catch (err) {
        // a listener never breaks a write
        console.error(`calendar-engine: a change listener threw: ${(err as Error).message}`);
      }
    }
  }

  /** Keep every change after `seq` past the window (undefined: no pin), up to `bound` retained
   *  changes in all: beyond it the oldest go even so, and a reader behind them finds `floor` past
   *  its position. */
  pin(seq: number | undefined, bound = Number.POSITIVE_INFINITY): void {
    this.pinned = seq;
    this.pinBound = bound;
  }

  /** the last change whose time was parsed, and that time (trim asks for the oldest change's
   *  time at every write: it is parsed once, not once a write) */
  private timed: HeldChange | undefined;
  private timedMs = NaN;

  private timeOf(h: HeldChange): number {
    if (h !== this.timed) {
      this.timed = h;
      this.timedMs = Date.parse(h.time);
    }
    return this.timedMs;
  }

  private trim(): void {
    const oldest = this.now() - this.retainMs;
    let drop = Math.max(0, this.held.length - this.start - this.retainCount);
    while (this.start + drop < this.held.length) {
      if (!(this.timeOf(this.held[this.start + drop]) < oldest)) break;
      drop++;
    }
    if (drop > 0 && this.pinned !== undefined) {
      const over = this.held.length - this.start - this.pinBound;
      drop = Math.min(drop, Math.max(this.firstAfter(this.pinned) - this.start, over));
    }
    // the byte bound holds whatever else keeps changes (a webhook's pin included)
    let excess = this.bytes - this.retainBytes,
      i = this.start;
    while (excess > 0 && i < this.held.length) excess -= heldBytes(this.held[i++]);
    drop = Math.max(drop, i - this.start);
    if (drop <= 0) return;
    // never split one write's changes: the floor moves to a whole seq
    let end = this.start + drop;
    const seq = this.held[end - 1].seq;
    while (end < this.held.length && this.held[end].seq === seq) end++;
    for (let k = this.start; k < end; k++) this.bytes -= heldBytes(this.held[k]);
    this.floor = seq;
    this.start = end;
    if (this.start > 1024 && this.start * 2 > this.held.length) {
      this.held = this.held.slice(this.start);
      this.start = 0;
    }
  }

  /** Changes with seq > since, in order; whole writes only, at least `limit` changes unless fewer remain. */
  after(since: number, limit: number, visible: (c: HeldChange) => boolean): { changes: HeldChange[]; last: number } {
    const out: HeldChange[] = [];
    let i = this.firstAfter(since);
    let last = since;
    while (i < this.held.length) {
      const seq = this.held[i].seq;
      if (out.length >= limit) break;
      for (; i < this.held.length && this.held[i].seq === seq; i++) if (visible(this.held[i])) out.push(this.held[i]);
      last = seq;
    }
    if (i >= this.held.length) last = Math.max(last, this.head);
    return { changes: out, last };
  }

  private firstAfter(since: number): number {
    let lo = this.start,
      hi = this.held.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.held[mid].seq <= since) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Up to `maxWrites` whole writes after `since`: their changes, in order, and the seq they go
   *  up to (the head once they reach it: writes without changes are passed over too). */
  writesAfter(since: number, maxWrites: number): { held: HeldChange[]; last: number } {
    const from = this.firstAfter(since);
    let i = from,
      writes = 0,
      last = since;
    while (i < this.held.length && writes < maxWrites) {
      last = this.held[i].seq;
      while (i < this.held.length && this.held[i].seq === last) i++;
      writes++;
    }
    if (i >= this.held.length) last = Math.max(last, this.head);
    return { held: this.held.slice(from, i), last };
  }

  /** How many changes are retained (a write has one or more). */
  retainedChangeCount(): number {
    return this.held.length - this.start;
  }

  /** What the retained changes cost, counted as the byte bound counts them. */
  retainedBytes(): number {
    return this.bytes;
  }

  /** The retained changes grouped by write, in order (what the change log keeps on disk); with
   *  `since`, only the writes after it. */
  retainedWrites(since?: number): Array<{ seq: number; held: HeldChange[] }> {
    const out: Array<{ seq: number; held: HeldChange[] }> = [];
    for (let i = since === undefined ? this.start : this.firstAfter(since); i < this.held.length; i++) {
      const h = this.held[i];
      const last = out[out.length - 1];
      if (last !== undefined && last.seq === h.seq) last.held.push(h);
      else out.push({ seq: h.seq, held: [h] });
    }
    return out;
  }

  on(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
}
