// Event rows by slug (the single-event routes and the slug checks of writes): an open-addressing
// hash table over rows, linear probing, whose keys are read from the slug column itself, so it
// holds 4 bytes a slot (at most two slots a row) and no strings: a Map of a million slugs cost
// 28 MiB, this 8 MiB. Every change of a row's slug must be told to it (set), as the slots of an
// entry follow its slug's hash. Several rows with one slug: the last set wins, as in a Map.

import { stringHash } from './hash-slots.ts';

export class SlugIndex {
  /** 1 + row, 0: empty */
  private slots: Int32Array;
  private mask: number;
  private size = 0;
  /** rows [0, built) are in the table; the rest are put by advance() (get() finishes it) */
  private built = 0;

  /**
   * The rows 0 … count() - 1, whose slugs `slugOf` reads (from the table as it is at each call).
   * `lazy`: none put yet; advance() puts them a slice at a time (a build between requests after a
   * load), and get() puts what is left first.
   */
  constructor(
    private readonly slugOf: (row: number) => string,
    private readonly count: () => number,
    lazy = false,
  ) {
    let n = 16;
    while (n < count() * 2) n *= 2;
    this.slots = new Int32Array(n);
    this.mask = n - 1;
    if (!lazy) this.advance(Number.POSITIVE_INFINITY);
  }

  /** Put up to `rows` more rows; true when every row is in. */
  advance(rows: number): boolean {
    const end = Math.min(this.count(), this.built + rows);
    for (let row = this.built; row < end; row++) {
      const slug = this.slugOf(row);
      if (slug !== '') this.put(slug, row);
    }
    this.built = end;
    return end >= this.count();
  }

  /** The row whose slug is `slug`, -1 when none. */
  get(slug: string): number {
    if (slug === '') return -1;
    if (this.built < this.count()) this.advance(Number.POSITIVE_INFINITY);
    const slots = this.slots,
      mask = this.mask;
    for (let at = stringHash(slug) & mask; ; at = (at + 1) & mask) {
      const k = slots[at];
      if (k === 0) return -1;
      if (this.slugOf(k - 1) === slug) return k - 1;
    }
  }

  /** `row`'s slug changed from `oldSlug` (undefined: a new row) to the one in the column. */
  set(row: number, oldSlug: string | undefined, newSlug: string): void {
    // past the next row to put: advance() reads its slug when it gets there
    if (row > this.built) return;
    if (row === this.built) this.built++;
    if (oldSlug !== undefined && oldSlug !== '') this.remove(oldSlug, row);
    if (newSlug !== '') this.put(newSlug, row);
  }

  private put(slug: string, row: number): void {
    const slots = this.slots,
      mask = this.mask;
    let at = stringHash(slug) & mask;
    for (; ; at = (at + 1) & mask) {
      const k = slots[at];
      if (k === 0) break;
      if (this.slugOf(k - 1) === slug) {
        slots[at] = row + 1; // another row with this slug (or this row again): the last set wins
        return;
      }
    }
    slots[at] = row + 1;
    if (++this.size * 2 > slots.length) this.grow();
  }

  /** Removes `row`'s entry under `slug` (none when the slug is another row's now). Backward-shift
   *  deletion: the entries after it in its run move up to where their probes would find them. */
  private remove(slug: string, row: number): void {
    const slots = this.slots,
      mask = this.mask;
    let at = stringHash(slug) & mask;
    for (; ; at = (at + 1) & mask) {
      const k = slots[at];
      if (k === 0) return;
      if (k - 1 === row) break;
    }
    this.size--;
    let hole = at;
    for (let next = (hole + 1) & mask; ; next = (next + 1) & mask) {
      const k = slots[next];
      if (k === 0) break;
      const home = stringHash(this.slugOf(k - 1)) & mask;
      // the entry at `next` may fill the hole when its home is not within (hole, next]
      if (((next - home) & mask) >= ((next - hole) & mask)) {
        slots[hole] = k;
        hole = next;
      }
    }
    slots[hole] = 0;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Int32Array(old.length * 2);
    this.mask = this.slots.length - 1;
    this.size = 0;
    for (let i = 0; i < old.length; i++) if (old[i] !== 0) this.put(this.slugOf(old[i] - 1), old[i] - 1);
  }
}
