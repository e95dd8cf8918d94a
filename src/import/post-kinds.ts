// The kinds of the post ids an import brings (PostRecords.kinds): one byte an id in a typed array
// for the dense ids WordPress hands out, a Map only for ids far past them. A ten-million-event
// file's ids run to ~10 million: in the engine's IdMap (a JS array below 2^22, a Map above) that
// was ~6 million Map entries on the importing thread's heap, which every full collection walked.
import { nextCapacity } from '../engine/columns.ts';
import type { PostKind } from '../engine/records.ts';

const KINDS: readonly PostKind[] = ['event', 'venue', 'organizer', 'attachment'];
const CODE: Readonly<Record<PostKind, number>> = { event: 1, venue: 2, organizer: 3, attachment: 4 };
/** ids below this are always in the typed array */
const DENSE_MIN = 1 << 20;

export class PostKinds {
  private dense = new Uint8Array(0);
  private readonly sparse = new Map<number, PostKind>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(id: number): PostKind | undefined {
    if (id >= 0 && id < this.dense.length) {
      const c = this.dense[id];
      return c === 0 ? undefined : KINDS[c - 1];
    }
    return this.sparse.size > 0 ? this.sparse.get(id) : undefined;
  }

  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  set(id: number, kind: PostKind): void {
    if (Number.isInteger(id) && id >= 0 && id >= this.dense.length) this.reserve(id + 1);
    if (Number.isInteger(id) && id >= 0 && id < this.dense.length) {
      if (this.dense[id] === 0) this.count++;
      this.dense[id] = CODE[kind];
    } else {
      if (!this.sparse.has(id)) this.count++;
      this.sparse.set(id, kind);
    }
  }

  /** Cover ids below `need` in the typed array, while that stays within 64 bytes an id held. */
  private reserve(need: number): void {
    if (need > Math.max(DENSE_MIN, 64 * (this.count + 1))) return;
    const next = new Uint8Array(nextCapacity(this.dense.length, need));
    next.set(this.dense);
    this.dense = next;
    for (const [id, kind] of this.sparse) {
      if (id < next.length) {
        next[id] = CODE[kind];
        this.sparse.delete(id);
      }
    }
  }
}
