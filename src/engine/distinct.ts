// Distinct ids of a row's link lists (a list may name an id twice), and the walk over them.
import type { IdMap } from './columns.ts';
import type { PostingList } from './posting-list.ts';

type Postings = IdMap<PostingList>;

/** The distinct ids of a list, first occurrences in order. */
export function distinctIds(list: ArrayLike<number>): number[] {
  const out: number[] = [];
  for (let i = 0; i < list.length; i++) if (!out.includes(list[i])) out.push(list[i]);
  return out;
}

export function eachLink(
  ids: ArrayLike<number>,
  postings: Postings,
  fn: (postings: Postings, id: number, multi: boolean) => void,
): void {
  const multi = ids.length > 1 && distinctCount(ids) > 1;
  eachDistinct(ids, (id) => fn(postings, id, multi));
}

/** Number of distinct ids in the list. */
export function distinctCount(list: ArrayLike<number>): number {
  let n = 0;
  eachDistinct(list, () => n++);
  return n;
}

/** Calls fn for each id of the list that did not occur earlier in it. */
export function eachDistinct(list: ArrayLike<number>, fn: (id: number) => void): void {
  const n = list.length;
  for (let i = 0; i < n; i++) {
    const id = list[i];
    let seen = false;
    for (let j = 0; j < i; j++)
      if (list[j] === id) {
        seen = true;
        break;
      }
    if (!seen) fn(id);
  }
}
