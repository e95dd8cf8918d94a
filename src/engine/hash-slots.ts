// The slot table of an open-addressing hash set whose entries are dense ids with their hashes
// kept beside them (the search index's vocabulary, an import's slugs): slots hold 1 + id, 0 for
// an empty slot, and an entry sits at its hash or the first empty slot after it (linear probing).

/** A slot table of `size` slots (a power of two) holding ids 0 … count - 1 by hashes[id]. */
export function hashSlots(hashes: Int32Array, count: number, size: number): Int32Array<ArrayBuffer> {
  const slots = new Int32Array(size), mask = size - 1;
  for (let id = 0; id < count; id++) {
    let at = hashes[id] & mask;
    while (slots[at] !== 0) at = (at + 1) & mask;
    slots[at] = id + 1;
  }
  return slots;
}

/** `hashes` with hashes[id] = h, grown to twice its length when id is past its end. */
export function withHash(hashes: Int32Array<ArrayBuffer>, id: number, h: number): Int32Array<ArrayBuffer> {
  let out = hashes;
  if (id >= out.length) {
    out = new Int32Array(Math.max(out.length * 2, id + 1));
    out.set(hashes);
  }
  out[id] = h;
  return out;
}
