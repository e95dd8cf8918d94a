// The batch path of the indexes (CalendarState.beginBatch … endBatch): the changes of many rows
// gathered, then applied to each index in one pass.
import { sortRowsByStartId } from './columns.ts';
import type { BlockStats } from './block-stats.ts';
import type { EventTable } from './event-table.ts';
import type { PostingList } from './posting-list.ts';
import type { SortedIndex } from './sorted-index.ts';

/** what a batch changes: the state's table, main index and its block statistics */
export interface BatchTarget {
  readonly table: EventTable;
  readonly main: SortedIndex;
  readonly blocks: BlockStats;
}

/** Apply the changes `b` gathered to the main index and each list it names. */
export function applyBatch(st: BatchTarget, b: IndexBatch): void {
  const t = st.table;
  const add = Int32Array.from(b.mainAdd.keys());
  sortRowsByStartId(add, t.starts, t.ids);
  const gone = b.mainGone.size > 0 ? new Uint8Array(t.count) : undefined;
  if (gone) for (const row of b.mainGone) gone[row] = 1;
  st.main.merge(gone, b.mainGone.size, add, t.starts, t.ids, t.ends, (row) => b.mainAdd.get(row)!);
  st.blocks.dirty = true;
  for (const [list, c] of b.lists) {
    const rows = Int32Array.from(c.add.keys());
    sortRowsByStartId(rows, t.starts, t.ids);
    const combos = new Uint8Array(rows.length);
    for (let i = 0; i < rows.length; i++) combos[i] = c.add.get(rows[i])!;
    list.merge(c.gone, c.strict, rows, combos, t.starts, t.ids);
    if (list.count === 0) c.drop?.();
  }
}

/** A list's changes in a batch: rows that leave it, rows (and combinations) that join it. */
interface ListChanges {
  gone: Set<number>;
  add: Map<number, number>;
  /** every row in `gone` must be in the list (not so for `multi`, a superset) */
  strict: boolean;
  /** what to do with the list when it ends up empty (drop it from its map, as unindexRow does) */
  drop?: () => void;
}

/** The index changes a batch gathers (CalendarState.beginBatch). */
export class IndexBatch {
  /** main index: rows whose entry leaves; rows that get an entry, with their combination */
  readonly mainGone = new Set<number>();
  readonly mainAdd = new Map<number, number>();
  readonly lists = new Map<PostingList, ListChanges>();

  private changes(list: PostingList, strict: boolean): ListChanges {
    let c = this.lists.get(list);
    if (!c) this.lists.set(list, (c = { gone: new Set(), add: new Map(), strict }));
    return c;
  }

  add(list: PostingList, row: number, combo: number): void {
    this.changes(list, true).add.set(row, combo);
  }

  /** The row leaves the list: taken back if this batch added it, else noted as gone. */
  remove(list: PostingList, row: number, strict: boolean, drop?: () => void): void {
    const c = this.changes(list, strict);
    if (!strict) c.strict = false;
    if (drop) c.drop = drop;
    if (!c.add.delete(row)) c.gone.add(row);
  }
}
