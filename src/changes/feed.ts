// The change feed: every acknowledged write, in the journal's order, as change records
// {seq, time, type, action, id, author, fields}. `seq` is the write's journal sequence number
// (kept across restarts and compactions by the store), shared by the changes of one write (an
// event created with a new venue is one write, two changes), which are always delivered together.
// Changes are retained in memory: those since the last snapshot are rebuilt from the journal at
// start-up, and at most `retainCount` changes younger than `retainMs` are kept, and at most
// about `retainBytes` of them, however they are kept.

import type { EngineApi } from '../engine/engine-api.ts';
import type { AttachmentRecord, EventRecord, Op, OrganizerRecord, TermRecord, VenueRecord } from '../engine/records.ts';
import { DEFAULT_RETAIN_BYTES, DEFAULT_RETAIN_COUNT, DEFAULT_RETAIN_MS } from '../options/defaults.ts';
import { mediaChanges } from '../media/changes.ts';

export type ChangeType = 'event' | 'venue' | 'organizer' | 'category' | 'tag' | 'media';
export type ChangeAction = 'created' | 'updated' | 'trashed' | 'deleted';
export const CHANGE_TYPES: readonly ChangeType[] = ['event', 'venue', 'organizer', 'category', 'tag', 'media'];

export interface Change {
  seq: number;
  /** when the write was acknowledged, ISO 8601 UTC ('' for writes journaled before times were kept) */
  time: string;
  type: ChangeType;
  action: ChangeAction;
  id: number;
  /** the acting user's id (0: the site itself, or unknown) */
  author: number;
  /** for creates and updates: the fields that changed, with their new values (REST names) */
  fields?: Record<string, unknown>;
}

/**
 * A retained change: its record kept as its JSON text (what streams, webhooks, pages and the
 * change log send, made once), beside what trimming the window and deciding who may see it need
 * (the record's author and statuses). A reader that wants the record as an object gets a fresh
 * one (changeOf): nothing it can change is shared with the feed or with other readers. The text
 * is also the smaller form (docs/changes.md, memory).
 */
export interface HeldChange {
  seq: number;
  time: string;
  type: ChangeType;
  /** JSON.stringify of the Change */
  text: string;
  owner: number;
  before: string | undefined;
  after: string | undefined;
}

/** A change as the feed holds it. */
export function holdChange(
  change: Change,
  owner: number,
  before: string | undefined,
  after: string | undefined,
): HeldChange {
  return { seq: change.seq, time: change.time, type: change.type, text: JSON.stringify(change), owner, before, after };
}

/** The records of `held` that `keep` keeps (all by default) as the JSON text of an array's items,
 *  comma-separated, from the texts the feed holds (what streams, webhooks and pages send). */
export function joinTexts(held: readonly HeldChange[], keep?: (h: HeldChange) => boolean): string {
  let text = '';
  for (let i = 0; i < held.length; i++) {
    if (keep !== undefined && !keep(held[i])) continue;
    text = text === '' ? held[i].text : `${text},${held[i].text}`;
  }
  return text;
}

/** A retained change's record as a fresh object. */
export function changeOf(h: HeldChange): Change {
  return JSON.parse(h.text) as Change;
}

type AnyRecord = EventRecord | VenueRecord | OrganizerRecord | TermRecord;

/** Engine field names → REST names, where they differ beyond camelCase → snake_case. */
const REST_NAME: Record<string, string> = {
  authorId: 'author',
  dateUtc: 'date_utc',
  modifiedUtc: 'modified_utc',
  imageId: 'image',
  startLocal: 'start_date',
  endLocal: 'end_date',
  startUtc: 'utc_start_date',
  endUtc: 'utc_end_date',
  costs: 'cost',
  venueIds: 'venue',
  organizerIds: 'organizer',
  categoryIds: 'categories',
  tagIds: 'tags',
  parentId: 'post_parent',
  geoLat: 'geo_lat',
  geoLng: 'geo_lng',
  lineage: 'global_id_lineage',
  exception: 'is_exception',
};
const restNames = new Map<string, string>();
const restName = (k: string): string => {
  let n = restNames.get(k);
  if (n === undefined) restNames.set(k, (n = REST_NAME[k] ?? k.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase())));
  return n;
};

/** Values equal as stored: primitives by identity, arrays of primitives element by element. */
function same(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  // a series' recurrence: equal when its lists are
  if (
    typeof x === 'object' &&
    typeof y === 'object' &&
    x !== null &&
    y !== null &&
    !Array.isArray(x) &&
    !Array.isArray(y)
  ) {
    return JSON.stringify(x) === JSON.stringify(y);
  }
  if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

function diff(before: AnyRecord | undefined, after: AnyRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const a = after as unknown as Record<string, unknown>,
    b = before as unknown as Record<string, unknown> | undefined;
  for (const k in a) {
    if (k === 'id' || k === 'taxonomy') continue;
    if (b === undefined || !same(b[k], a[k])) out[restName(k)] = a[k];
  }
  return out;
}

function current(engine: EngineApi, t: Op['t'], id: number): AnyRecord | undefined {
  switch (t) {
    case 'event': {
      const row = engine.eventRow(id);
      return row < 0 ? undefined : engine.eventRecord(row);
    }
    case 'venue':
      return engine.venue(id);
    case 'organizer':
      return engine.organizer(id);
    case 'term':
      return engine.term(id);
    default:
      return undefined;
  }
}

/**
 * The changes a write's ops make, read against the engine BEFORE they are applied (an op sees
 * the state the ops before it in the same write left: a later op on the same record compares
 * with the earlier op's record). Uploads of the media library make `media` records
 * (src/media/changes.ts); images known by URL only make none.
 */
export function describeWrite(
  engine: EngineApi,
  ops: readonly Op[],
  seq: number,
  time: string,
  author: number,
): HeldChange[] {
  const out: HeldChange[] = [];
  const staged = new Map<string, AnyRecord>();
  const stagedMedia = new Map<number, AttachmentRecord | undefined>();
  for (const op of ops) {
    if (op.t === 'attachment') {
      for (const m of mediaChanges(engine, op, stagedMedia, seq, time, author))
        out.push(holdChange(m.change, m.owner, m.before, m.after));
      continue;
    }
    const id = op.a === 'put' ? op.rec.id : op.id;
    const key = `${op.t}:${id}`;
    const prev = staged.get(key) ?? current(engine, op.t, id);
    const type: ChangeType =
      op.t === 'term'
        ? ((prev ?? (op.a === 'put' ? op.rec : undefined)) as TermRecord | undefined)?.taxonomy === 'post_tag'
          ? 'tag'
          : 'category'
        : op.t;
    let change: Change;
    let after: string | undefined;
    if (op.a === 'put') {
      const rec = op.rec as AnyRecord;
      staged.set(key, rec);
      after = 'status' in rec ? rec.status : 'publish';
      const before = prev && 'status' in prev ? prev.status : prev ? 'publish' : undefined;
      // an occurrence its series no longer generates is gone for good (status inherit: never shown)
      const action: ChangeAction = !prev
        ? 'created'
        : after === 'trash' && before !== 'trash'
          ? 'trashed'
          : after === 'inherit' && before !== 'inherit'
            ? 'deleted'
            : 'updated';
      change = { seq, time, type, action, id, author, fields: diff(prev, rec) };
    } else {
      after = op.t === 'term' ? undefined : 'trash';
      change = { seq, time, type, action: op.t === 'term' ? 'deleted' : 'trashed', id, author };
    }
    const owner =
      prev && 'authorId' in prev ? prev.authorId : op.a === 'put' && 'authorId' in op.rec ? op.rec.authorId : 0;
    out.push(holdChange(change, owner, prev ? ('status' in prev ? prev.status : 'publish') : undefined, after));
  }
  return out;
}

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
