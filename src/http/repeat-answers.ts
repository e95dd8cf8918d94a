// Answers the HTTP shell sends again without asking the calendar: a list page the calendar kept
// whole (page-cache.ts) and the shell sent to an anonymous GET is remembered under the request's
// exact target, with the headers it went out with. The same target asked again in the same second
// of the calendar's clock, with nothing written since, gets those bytes and headers at once: no
// routing, no planning of the query, no page key, no awaits. A bare node:http server answering
// captured bytes by URL (the HTTP benchmark's floor) spends about 20 µs of its thread on a 40 KB
// answer; the whole path spent about 27.
//
// What else an answer depends on decides what is remembered and what is repeated:
// - the caller: only requests with no Authorization (anonymous), no Origin (CORS headers), no
//   X-Calendar-Min-Seq and no X-HTTP-Method-Override, GET only, and targets whose answer had none
//   of `_fields`, `_envelope`, `_jsonp` (an exact target has the same query);
// - the calendar's state: the page says whether it is still current (RestResult.current: no write
//   since), and the X-Calendar-Seq it went out with must still be the calendar's;
// - the clock: a list's default window and relative dates (`start_date=tomorrow`) are read from
//   the calendar's clock, to the second (the events' dates have no finer part), so an answer is
//   repeated only within the second it was planned in;
// - the server: not while it is closing (answers then say Connection: close), and never for a
//   cluster's node (its X-Calendar-Node may change with its role).
// Remembered answers share their bytes with the page cache; at most MAX_BYTES more are kept alive
// by this map when the cache has let them go, and the map is emptied when it passes that.

import type { IncomingMessage } from 'node:http';

/** bytes of remembered answers at most (their bodies; the map is emptied past it) */
const MAX_BYTES = 32 * 1024 * 1024;

interface Remembered {
  /** the second (of the calendar's clock) the answer was planned in */
  second: number;
  seq: number | undefined;
  page: { status: number; current(): boolean };
  headers: Record<string, string | number>;
  body: Uint8Array;
}

export class RepeatAnswers {
  private readonly byTarget = new Map<string, Remembered>();
  private bytes = 0;

  constructor(
    /** the calendar's clock */
    private readonly now: () => Date,
    /** the seq the calendar reflects now (X-Calendar-Seq) */
    private readonly seq: () => number | undefined,
    private readonly maxBytes = MAX_BYTES,
  ) {}

  /** The current second of the calendar's clock. */
  second(): number {
    return Math.floor(this.now().getTime() / 1000);
  }

  /** Whether the request's answer may be repeated or remembered: an anonymous plain GET. */
  static eligible(req: IncomingMessage): boolean {
    if (req.method !== 'GET') return false;
    const h = req.headers;
    return (
      h.authorization === undefined &&
      h.origin === undefined &&
      h['x-calendar-min-seq'] === undefined &&
      h['x-http-method-override'] === undefined
    );
  }

  /** The answer to repeat for `target` now, or undefined (a stale one is forgotten). */
  get(target: string): Remembered | undefined {
    if (this.byTarget.size === 0) return undefined;
    const r = this.byTarget.get(target);
    if (r === undefined) return undefined;
    if (r.second === this.second() && r.seq === this.seq() && r.page.current()) return r;
    this.forget(target, r);
    return undefined;
  }

  /** Remember what was sent for `target`: planned in `second`, still the same second now. */
  remember(
    target: string,
    second: number,
    page: { status: number; current(): boolean },
    headers: Record<string, string | number>,
    body: Uint8Array,
  ): void {
    if (second !== this.second() || !page.current()) return;
    const old = this.byTarget.get(target);
    if (old !== undefined) this.forget(target, old);
    if (this.bytes + body.length > this.maxBytes) {
      this.byTarget.clear();
      this.bytes = 0;
    }
    this.byTarget.set(target, { second, seq: this.seq(), page, headers, body });
    this.bytes += body.length;
  }

  private forget(target: string, r: Remembered): void {
    this.byTarget.delete(target);
    this.bytes -= r.body.length;
  }
}
