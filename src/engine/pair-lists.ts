// The pair lists of the postings: for two ids of one kind (two categories, two tags…), the rows
// linking both, kept by the smaller id's list. Walked for each pair of a row's ids, made on first
// use from the two lists, dropped pair by pair when a cascade removes a link. CalendarState keeps
// them in step with the other lists (state.ts).

import { BitSet } from './bitset.ts';
import type { IdMap } from './columns.ts';
import { distinctIds } from './distinct.ts';
import { PostingList } from './posting-list.ts';

type Postings = IdMap<PostingList>;

/** Calls fn(pair list) for each pair of the distinct ids that has a pair list (the list of the
 *  smaller id keeps it; pairList makes them); `create` makes missing ones. */
export function forEachPair(
  postings: Postings,
  ids: readonly number[],
  create: boolean,
  fn: (list: PostingList, lo: number, hi: number) => void,
): void {
  for (let i = 0; i < ids.length; i++) {
    for (let j = i + 1; j < ids.length; j++) {
      const lo = Math.min(ids[i], ids[j]),
        hi = Math.max(ids[i], ids[j]);
      const owner = postings.get(lo);
      if (!owner) {
        if (create) throw new Error(`postings: expected a list for id ${lo} before its pairs, got none`);
        continue;
      }
      let list = owner.pairs?.get(hi);
      if (!list) {
        if (!create) continue;
        (owner.pairs ??= new Map()).set(hi, (list = new PostingList()));
      }
      fn(list, lo, hi);
    }
  }
}

/** The row loses its link to `id` of the kind of `postings` (a cascade, before its column
 *  changes): it leaves the pair lists of `id` with its other ids. */
export function dropPairsWith(
  postings: Postings,
  ids: readonly number[],
  id: number,
  row: number,
  t: { readonly starts: Float64Array; readonly ids: Int32Array },
): void {
  const d = distinctIds(ids);
  if (d.length < 2 || !d.includes(id)) return;
  forEachPair(postings, d, false, (list, lo, hi) => {
    if (lo !== id && hi !== id) return;
    list.removeIfPresent(t.starts, t.ids, row, t.starts[row], t.ids[row]);
    if (list.count === 0) postings.get(lo)!.pairs!.delete(hi);
  });
}

/**
 * The rows linking both a and b (ids of the kind of `postings`), in list order: the pair
 * list kept by the smaller id's list. Built on first use from the two lists (a bit set over
 * the smaller one, the larger one walked in order), then kept in step by indexRow,
 * unindexRow, setRowCombo and cascades like every other list; undefined when either id has
 * no list. A rebuild of the postings drops every pair list.
 */
export function pairList(postings: Postings, a: number, b: number, rowCount: number): PostingList | undefined {
  const lo = Math.min(a, b),
    hi = Math.max(a, b);
  const owner = postings.get(lo),
    other = postings.get(hi);
  if (!owner || !other || lo === hi) return undefined;
  let list = owner.pairs?.get(hi);
  if (list) return list;
  const [small, large] = owner.count <= other.count ? [owner, other] : [other, owner];
  const marks = new BitSet(rowCount);
  for (let i = 0; i < small.count; i++) marks.add(small.rows[i]);
  list = new PostingList();
  for (let i = 0; i < large.count; i++) if (marks.has(large.rows[i])) list.push(large.rows[i], large.combos[i]);
  (owner.pairs ??= new Map()).set(hi, list);
  return list;
}
