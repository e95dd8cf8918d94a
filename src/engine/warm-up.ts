// The work after a load, between requests (Engine.warmInBackground), in the order lists need it:
//   1. the main index's block statistics (every list without a link filter counts with them);
//   2. the block statistics of every category (closure and direct), tag, venue and organizer list
//      of at least LIST_WARM_MIN rows, largest first (a list filtered by one of them counts with
//      its list's; made on the spot, a ten-million-event category's took 70-300 ms of its first
//      request);
//   3. the slug lookup (every write that names a slug reads it);
//   4. the lookup of the link lists a snapshot brought (every write of an event's organizers,
//      categories or tags reads it: LinkPool).
// Each step does a bounded amount of work and then looks at the clock (block statistics:
// CLOCK_BLOCKS blocks; slugs: SLUG_STEP_ROWS rows; link lists: POOL_STEP_LISTS lists), so that a slice ends about when its deadline
// passes. Nothing here is needed for a right answer: a request that comes first makes what it needs
// on the spot, as it would anyway, and a write meanwhile only makes the statistics it touches stale.

import type { PostingList } from './posting-list.ts';
import { POSTING_KINDS, type Kind } from './snapshot-indexes.ts';
import type { CalendarState } from './state.ts';

/** Lists with fewer rows keep their statistics made by the first query that counts them (under a
 *  millisecond: ~30-150 ns a row); the larger ones, most of the rows of all lists, are made here. */
export const LIST_WARM_MIN = 8192;
/** rows of the slug lookup built between two looks at the clock: a row's put touches a random
 *  slot of a table of two slots a row (128 MiB at ten million events, its pages new) and reads the
 *  slug of each row already on its probe path, so that 256 rows took over a millisecond in a third
 *  of the steps right after a load at that size */
const SLUG_STEP_ROWS = 32;
/** link lists a snapshot brought taken into the pool's lookup between two looks at the clock */
const POOL_STEP_LISTS = 2048;
/** the number of steps */
const PHASES = 4;

/** The warm-up's steps, done in order by step(deadline) calls (background.ts's inSlices). */
export class WarmUp {
  private phase = 0;
  /** the lists whose statistics phase 1 makes, and the next one */
  private lists: PostingList[] | undefined;
  private next = 0;

  constructor(
    private readonly st: CalendarState,
    /** called before each step (builds the indexes a deferred bulk load left) */
    private readonly ready: () => void = () => undefined,
  ) {}

  /** Work until `deadline` (performance.now()) or until done; true once done. */
  step(deadline: number): boolean {
    this.ready();
    const st = this.st;
    while (this.phase < PHASES) {
      let done: boolean;
      if (this.phase === 0) done = st.blocks.refreshSome(st.main.rows, st.main.count, st.table, deadline);
      else if (this.phase === 1) done = this.listStats(deadline);
      else if (this.phase === 2) {
        do done = st.ids.buildSlugs(SLUG_STEP_ROWS);
        while (!done && performance.now() < deadline);
      } else {
        do done = st.table.idLists.indexSome(POOL_STEP_LISTS);
        while (!done && performance.now() < deadline);
      }
      if (!done) return false;
      this.phase++;
      if (performance.now() >= deadline) return this.phase === PHASES;
    }
    return true;
  }

  private listStats(deadline: number): boolean {
    const t = this.st.table;
    const lists = (this.lists ??= listsToWarm(this.st));
    for (; this.next < lists.length; this.next++) {
      const list = lists[this.next];
      if (!list.blocks.refreshSome(list.rows, list.count, t, deadline, list.combos)) return false;
      if (performance.now() >= deadline) {
        this.next++;
        return this.next >= lists.length;
      }
    }
    return true;
  }
}

/** The kinds of posting lists whose large lists get block statistics after a load (and in a
 *  snapshot: snapshot-list-stats.ts): categories (closure and direct), tags, venues, organizers. */
export const WARM_KINDS: readonly Kind[] = ['closure', 'category', 'tag', 'venue', 'organizer'];

/** The lists of WARM_KINDS of at least LIST_WARM_MIN rows (no closure list while the closures are
 *  left to be made), largest first. */
export function listsToWarm(st: CalendarState): PostingList[] {
  const out: PostingList[] = [];
  for (const kind of WARM_KINDS) {
    if (kind === 'closure' && st.closureDirty) continue;
    for (const [, list] of st[POSTING_KINDS[kind]].entries()) if (list.count >= LIST_WARM_MIN) out.push(list);
  }
  return out.sort((a, b) => b.count - a.count);
}
