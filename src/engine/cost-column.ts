// The cost column of the event table: each row holds the number of its cost list in the table's
// ListInterner (a few dozen distinct lists at a million events), 2 bytes a row while there are at
// most 65,536 lists, 4 once there are more (the column widens once), instead of an 8-byte pointer.

import type { ListInterner } from './list-interner.ts';

export class CostColumn {
  nums: Uint16Array | Int32Array = new Uint16Array(0);

  constructor(readonly lists: ListInterner<string>) {}

  /** Make room for `cap` rows. */
  grow(cap: number): void {
    if (cap <= this.nums.length) return;
    const next = this.nums instanceof Uint16Array ? new Uint16Array(cap) : new Int32Array(cap);
    next.set(this.nums);
    this.nums = next;
  }

  /** The row's shared cost list (never changed in place: a copy before handing it out of the engine). */
  get(row: number): readonly string[] {
    return this.lists.list(this.nums[row]);
  }

  set(row: number, list: readonly string[]): void {
    this.setNumber(row, this.lists.number(list));
  }

  /** Give the row list number k of `lists`. */
  setNumber(row: number, k: number): void {
    if (k > 0xffff && this.nums instanceof Uint16Array) this.nums = Int32Array.from(this.nums);
    this.nums[row] = k;
  }

  /** Rows [0, n) of `from` (sharing `lists`) into rows [base, base + n), or its array taken over when `adopt`. */
  copyRows(from: CostColumn, n: number, base: number, adopt: boolean): void {
    if (adopt) this.nums = from.nums;
    else for (let i = 0; i < n; i++) this.setNumber(base + i, from.nums[i]);
  }

  clear(): void {
    this.nums = new Uint16Array(0);
  }

  /** The numbers of rows [0, n) as they are now. */
  freeze(n: number): CostColumn {
    const c = new CostColumn(this.lists);
    c.nums = this.nums.slice(0, n);
    return c;
  }
}
